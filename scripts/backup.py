#!/usr/bin/env python
"""`make backup`, `make restore` and the database's digest (config/backups.py).

    scripts/backup.py backup [--dir DIR]        # a new file in DIR (default backups/)
    scripts/backup.py restore FILE [--force]    # into the configured database
    scripts/backup.py digest [--json]           # every table's rows and SHA-256

The database is the one the settings name (DATABASE_URL, or SQLITE_PATH's file).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="back the configured database up")
    backup.add_argument("--dir", type=Path, default=ROOT / "backups")
    restore = commands.add_parser("restore", help="restore a backup into the configured database")
    restore.add_argument("file", type=Path)
    restore.add_argument("--force", action="store_true", help="replace what the database holds")
    digest = commands.add_parser("digest", help="print each table's rows and SHA-256")
    digest.add_argument("--json", action="store_true")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except ImproperlyConfigured as refused:
        # A setting the environment gives that the settings refuse (a cron job's environment
        # file with DEBUG=false and no SECRET_KEY): the message alone, as manage.py says it.
        sys.exit(f"backup.py: {refused}")
    from django.db import OperationalError

    from config import backups

    try:
        if args.command == "backup":
            path = backups.backup_create(directory=args.dir)
            print(f"backed up {backups.database_label()} to {path} ({path.stat().st_size:,} bytes)")
        elif args.command == "restore":
            backups.backup_restore(file=args.file, force=args.force)
            print(f"restored {args.file} into {backups.database_label()}")
        else:
            tables = backups.database_digest()
            if args.json:
                print(json.dumps({t: d._asdict() for t, d in tables.items()}, indent=1))
            else:
                for table, (rows, sha) in tables.items():
                    print(f"{table:45} {rows:>9,} rows  {sha}")
    except backups.BackupError as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 1
    except OperationalError as error:
        # A typo in DATABASE_URL, a restore before its createdb, a server down: one line
        # naming the database, not a traceback.
        reason = str(error).strip().splitlines()[-1].removeprefix("connection failed: ")
        hint = ""
        if "does not exist" in reason and args.command == "restore":
            db = backups.pg_env()
            hint = (
                f" Create it first: createdb -h {db.get('PGHOST', 'localhost')} "
                f"-U {db.get('PGUSER', 'postgres')} {db['PGDATABASE']}"
            )
        print(
            f"{args.command}: cannot reach {backups.database_label()}: {reason}.{hint}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
