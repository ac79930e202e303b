"""The database a benchmark builds and empties: its own, never another.

Without DATABASE_URL a benchmark works on a scratch SQLite file in the temporary folder;
with it, on the PostgreSQL database it names, whose name must contain "bench" (a benchmark
empties it first), created when it does not exist yet (README's commands name one that a
fresh machine does not have)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

SECRET_KEY = "bench-" + "k" * 50
"""A key the settings accept with DEBUG off (50 characters or more), for a benchmark's
process only."""


def scratch_database(sqlite_name: str) -> bool:
    """Point the settings at the benchmark's database; return whether it is PostgreSQL
    (the caller empties it) rather than a new SQLite file named ``sqlite_name``."""
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        scratch = Path(tempfile.gettempdir()) / sqlite_name
        scratch.unlink(missing_ok=True)
        os.environ["SQLITE_PATH"] = str(scratch)
        return False
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        raise SystemExit(
            f"refusing to empty database {name!r}: a benchmark empties its database, whose "
            "name must contain 'bench'"
        )
    import psycopg
    from psycopg import sql

    admin = parts._replace(path="/postgres").geturl()
    try:
        with psycopg.connect(admin, autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                return True
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as exc:
        raise SystemExit(f"cannot create database {name!r} at {parts.hostname}: {exc}") from exc
    print(f"created database {name!r}")
    return True
