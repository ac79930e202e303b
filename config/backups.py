"""Backups of the league's database and a digest of every row it stores.

``make backup`` and ``make restore`` (scripts/backup.py) call these. PostgreSQL is dumped by
``pg_dump`` in its custom format and restored by ``pg_restore`` in one transaction; the SQLite
default is copied with SQLite's online backup API, a consistent copy even while the server
writes. A backup is written under a temporary name and renamed once it is whole and reads
back, so a backup directory never holds half a file. A restore refuses a database that holds
anything unless it is forced, saying what is there; forced, the backup replaces the whole
database, tables a newer release added included, or nothing changes.

``database_digest`` hashes every row of every table, in primary-key order: a restored
database is the same as the one backed up when the two digests are equal.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import connection

PG_MAGIC = b"PGDMP"  # the first bytes of pg_dump's custom format
SQLITE_MAGIC = b"SQLite format 3\x00"
# What a refused restore says the database holds, before its tables' total.
NAMED_TABLES = [
    ("league_season", "seasons"),
    ("league_game", "games"),
    ("cards_team", "teams"),
    ("cards_card", "cards"),
    ("auth_user", "users"),
]


class BackupError(ValueError):
    """A backup or a restore that cannot be done; the message says why and what to do."""


class TableDigest(NamedTuple):
    rows: int
    sha256: str


def database_digest() -> dict[str, TableDigest]:
    """Return each table's row count and the SHA-256 of its rows in primary-key order.

    Every concrete model of every installed app is read, games, cards and their history
    included; each row is its fields' stored values as canonical JSON (sorted keys).
    """
    digest = {}
    models = [m for m in apps.get_models(include_auto_created=True) if not m._meta.proxy]
    for model in sorted(models, key=lambda m: m._meta.db_table):
        fields = [field.attname for field in model._meta.concrete_fields]
        sha, rows = hashlib.sha256(), 0
        values = model._base_manager.order_by("pk").values_list(*fields)
        for row in values.iterator(chunk_size=2000):
            sha.update(json.dumps(row, sort_keys=True, default=str).encode() + b"\n")
            rows += 1
        digest[model._meta.db_table] = TableDigest(rows, sha.hexdigest())
    return digest


def database_label() -> str:
    """Name the configured database as a person would look for it (no password)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"the SQLite database {db['NAME']}"
    return f"the PostgreSQL database {db['NAME']} on {db['HOST'] or 'localhost'}:{db['PORT']}"


def is_postgresql() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def pg_env() -> dict[str, str]:
    """The libpq environment naming the configured database (the password stays off the
    command line)."""
    db = settings.DATABASES["default"]
    named = {
        "PGHOST": db.get("HOST"),
        "PGPORT": str(db.get("PORT") or ""),
        "PGUSER": db.get("USER"),
        "PGPASSWORD": db.get("PASSWORD"),
        "PGDATABASE": db["NAME"],
    }
    return {**os.environ, **{k: v for k, v in named.items() if v}}


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client).")
    return path


def run(command: list[str]) -> str:
    """Run a PostgreSQL client on the configured database; return what it printed."""
    proc = subprocess.run(
        [tool(command[0]), *command[1:]], env=pg_env(), capture_output=True, text=True
    )
    if proc.returncode:
        raise BackupError(f"{command[0]} failed (exit {proc.returncode}): {proc.stderr.strip()}")
    return proc.stdout


# Run first in the forced restore's transaction: every object of the schema public goes
# (tables a newer release added too, whose foreign keys would block pg_restore --clean), and
# the schema is made again with its owner and grants, which a backup (--no-owner,
# --no-privileges) does not hold: PostgreSQL 15's public belongs to pg_database_owner and
# lets every role use it.
EMPTY_PUBLIC = """
SET client_min_messages = error;
DO $$
DECLARE
    old record;
    granted record;
BEGIN
    SELECT nspowner::regrole::text AS owner, nspacl AS acl INTO old
        FROM pg_namespace WHERE nspname = 'public';
    DROP SCHEMA IF EXISTS public CASCADE;
    EXECUTE format('CREATE SCHEMA public AUTHORIZATION %s', coalesce(old.owner, 'CURRENT_USER'));
    IF old.acl IS NOT NULL THEN
        EXECUTE format('REVOKE ALL ON SCHEMA public FROM PUBLIC, %s', old.owner);
        FOR granted IN SELECT * FROM aclexplode(old.acl) LOOP
            EXECUTE format('GRANT %s ON SCHEMA public TO %s%s', granted.privilege_type,
                CASE granted.grantee WHEN 0 THEN 'PUBLIC' ELSE granted.grantee::regrole::text END,
                CASE WHEN granted.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
        END LOOP;
    END IF;
END $$;
"""


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def pg_replace(file: Path) -> None:
    """Replace everything in the configured database's schemas ``file`` holds (public, and
    each schema the dump makes) with its contents, in one transaction.

    ``pg_restore --single-transaction`` writes the SQL between BEGIN and a COMMIT it writes
    only once all of it was read; ``psql`` runs it after emptying the schemas, inside an
    earlier BEGIN (the dump's own is then a warning). A dump that fails to read ends psql's
    input before the COMMIT, and an SQL error stops psql: either way the transaction is
    rolled back and the database is as it was.
    """
    listed = run(["pg_restore", "--list", str(file)])
    made = re.findall(r"^\d+; \d+ \d+ SCHEMA - (\S+)", listed, flags=re.MULTILINE)
    drops = "".join(f"DROP SCHEMA IF EXISTS {quote(name)} CASCADE;\n" for name in made)
    restore = [tool("pg_restore"), "--no-owner", "--no-privileges", "--single-transaction",
               "--exit-on-error", "--file", "-", str(file)]  # fmt: skip
    load = [tool("psql"), "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1",
            "--command", "BEGIN", "--command", EMPTY_PUBLIC + drops, "--file", "-"]  # fmt: skip
    with tempfile.TemporaryFile() as restore_errors:
        dump = subprocess.Popen(
            restore, stdout=subprocess.PIPE, stderr=restore_errors, env=pg_env()
        )
        assert dump.stdout is not None
        with dump.stdout:
            psql = subprocess.run(
                load, stdin=dump.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                env=pg_env(), text=True, check=False,
            )  # fmt: skip
        dumped = dump.wait()
        restore_errors.seek(0)
        why = restore_errors.read().decode(errors="replace").strip()
    # psql's error first: a pg_restore that psql stopped reading fails for that alone.
    if psql.returncode:
        raise BackupError(f"psql failed (exit {psql.returncode}): {psql.stderr.strip()}")
    if dumped:
        raise BackupError(f"pg_restore failed (exit {dumped}): {why}")


def backup_create(*, directory: Path) -> Path:
    """Back the configured database up into a new file in ``directory``; return its path."""
    if directory.exists() and not directory.is_dir():
        raise BackupError(f"cannot write backups into {directory}: it is a file, not a directory")
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:  # a file on the way, a read-only disk, no permission
        raise BackupError(f"cannot write backups into {directory}: {exc.strerror or exc}") from exc
    stamp = datetime.now(tz=UTC).strftime("%Y%m%d-%H%M%SZ")
    name = Path(str(settings.DATABASES["default"]["NAME"])).stem
    target = directory / f"vabg-{name}-{stamp}.{'dump' if is_postgresql() else 'sqlite3'}"
    partial = target.with_name(target.name + ".partial")
    # A backup holds password hashes, sessions and API tokens: readable by its owner alone
    # (made so before a byte is written; pg_dump and SQLite keep the mode of the file).
    try:
        partial.touch(mode=0o600)
        partial.chmod(0o600)
    except OSError as exc:  # a directory there already but not writable (read-only, mode 555)
        raise BackupError(f"cannot write backups into {directory}: {exc.strerror or exc}") from exc
    try:
        if is_postgresql():
            run(
                [
                    "pg_dump",
                    "--format=custom",
                    "--no-owner",
                    "--no-privileges",
                    "--file",
                    str(partial),
                ]
            )
            run(["pg_restore", "--list", str(partial)])  # it reads back whole
        else:
            sqlite_copy(Path(settings.DATABASES["default"]["NAME"]), partial)
        partial.rename(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def read_only(path: Path) -> sqlite3.Connection:
    # sqlite3's own context manager commits but never closes: callers wrap it in closing().
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)


def sqlite_copy(source: Path, target: Path) -> None:
    """Copy a SQLite database with the online backup API, then check the copy's pages."""
    if not source.is_file():
        raise BackupError(f"{source} does not exist: there is no SQLite database to back up.")
    with closing(read_only(source)) as src, closing(sqlite3.connect(target)) as dest:
        src.backup(dest)
        (check,) = dest.execute("PRAGMA integrity_check").fetchone()
    if check != "ok":
        raise BackupError(f"the copy of {source} fails SQLite's integrity check: {check}")


def database_contents() -> dict[str, int]:
    """Return the configured database's tables and how many rows each holds."""
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


CUT_SHORT = ("end of file", "ended unexpectedly", "unexpected end", "invalid input syntax")
"""What pg_restore and psql say of a dump that stops short (at its end or inside a row)."""


def other_sessions() -> int:
    """Count the sessions connected to the configured PostgreSQL database besides this one."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (count,) = cursor.fetchone()
    return int(count)


def backup_restore(*, file: Path, force: bool = False) -> None:
    """Restore ``file`` (made by ``backup_create``) into the configured database.

    Refuse, saying what the database holds, unless it has no tables at all or ``force`` is
    given; forced, the backup replaces the whole database (tables it does not hold go too), or
    nothing changes.
    """
    if file.is_dir():
        raise BackupError(
            f"{file} is a directory: name a backup file in it (vabg-*.dump, .sqlite3)."
        )
    if not file.is_file():
        raise BackupError(f"{file} does not exist.")
    with file.open("rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    kind = "postgresql" if head.startswith(PG_MAGIC) else "sqlite" if head == SQLITE_MAGIC else None
    if kind is None:
        raise BackupError(f"{file} is neither a pg_dump custom-format file nor a SQLite database.")
    if (kind == "postgresql") != is_postgresql():
        made = "PostgreSQL (pg_dump)" if kind == "postgresql" else "SQLite"
        raise BackupError(
            f"{file} is a {made} backup, but the configured database is {database_label()}: "
            "set DATABASE_URL (or unset it for SQLite) to a database of the backup's kind."
        )
    contents = database_contents()
    if contents and not force:
        named = ", ".join(f"{what}: {contents[t]:,}" for t, what in NAMED_TABLES if t in contents)
        total = f"{len(contents)} tables, {sum(contents.values()):,} rows in all"
        shown = f"{named}; {total}" if named else total
        raise BackupError(
            f"Refusing to restore {file} into {database_label()}: it is not empty "
            f"({shown}). Restore into a new empty database, "
            "or add FORCE=1 (make restore) or --force to replace what it holds."
        )
    if kind == "postgresql" and contents:
        others = other_sessions()
        if others:
            raise BackupError(
                f"Refusing to replace {database_label()}: {others} other session"
                f"{'s are' if others > 1 else ' is'} connected to it (a running set's web "
                "workers, Celery workers or beat, which would go on writing into the restored "
                "database): stop them first (Ctrl-C on make serve-cached, or supervisorctl "
                "shutdown), then restore."
            )
    connection.close()
    if kind == "postgresql":
        try:
            if force:
                pg_replace(file)
            else:
                run(["pg_restore", "--no-owner", "--no-privileges", "--single-transaction",
                     "--exit-on-error", "--dbname", pg_env()["PGDATABASE"], str(file)])  # fmt: skip
        except BackupError as exc:
            # One transaction: nothing of it stays. A file cut short (a copy interrupted, a
            # full disk when it was made) fails at its end or inside a row.
            cut = any(m in str(exc) for m in CUT_SHORT)
            raise BackupError(
                f"{exc}\nNothing was restored: the database is as it was."
                + (f" {file} looks cut short or damaged: restore another backup." if cut else "")
            ) from exc
    else:
        target = Path(settings.DATABASES["default"]["NAME"])
        with closing(read_only(file)) as src:
            try:
                (check,) = src.execute("PRAGMA integrity_check").fetchone()
            except sqlite3.DatabaseError as exc:  # a truncated file: "disk image is malformed"
                check = str(exc)
            if check != "ok":
                raise BackupError(f"{file} fails SQLite's integrity check: {check}")
            with closing(sqlite3.connect(target, timeout=20)) as dest:
                src.backup(dest)  # one step: the database is the old one or the new one
    cache_empty()


def cache_empty() -> None:
    """Empty the cache the settings name, once a restore is done: its pages and tables are
    keyed by what the rows were (the highest history row of a season, say), and a restore
    winds those back, so a key met again later would answer rows the database no longer
    holds (a review saw a team's name the restore took back). Raise :class:`BackupError`
    saying so when the cache cannot be reached: the database is restored either way."""
    try:
        cache.clear()
    except Exception as exc:  # the cache's own errors (redis-py's) are no Django class
        raise BackupError(
            f"The database is restored, but the cache ({settings.CACHES['default']['BACKEND']})"
            f" could not be emptied: {exc}. Empty it (redis-cli -n DB flushdb on CACHE_URL's "
            "database) before the set serves again: its pages were kept for the rows before."
        ) from exc
