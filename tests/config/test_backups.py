"""`make backup` / `make restore` (scripts/backup.py, config/backups.py): a backup restored
into a fresh database gives back every stored game, card and history row, by the digest of
every table; a restore refuses a database that holds anything unless it is forced.

Each database runs as README's commands do, in processes of its own: PostgreSQL against a
database this test creates beside the test database, SQLite on files of the test's own.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import date
from pathlib import Path

import psycopg
import pytest
import redis

from tests.drills.harness import database_url

ROOT = Path(__file__).resolve().parents[2]


def populate() -> None:
    """Store a played season, its cards and their history: 4 teams, every pair once, one
    card edited (a second history row)."""
    from league import services
    from tests.factories import full_team

    teams = [full_team() for _ in range(4)]
    season = services.season_create(
        league=services.league_get_or_create(name="Backed-up League"), name="Winter",
        teams=teams, start_date=date(2024, 1, 1), seed=2024,
    )  # fmt: skip
    for game in season.games.all():
        services.game_simulate(game_id=game.pk)
    card = teams[0].cards.first()
    card.free_throw_top = 15
    card.save()


def backup_py(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "scripts/backup.py", *args], cwd=ROOT, env=env,
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip


def digest(env: dict[str, str]) -> dict[str, dict[str, object]]:
    proc = backup_py(env, "digest", "--json")
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def assert_holds_the_league(tables: dict[str, dict[str, object]]) -> None:
    """The digest covers what a restore must give back (so equal digests mean something)."""
    assert tables["league_game"]["rows"] == 6
    assert tables["league_gameresult"]["rows"] == 6
    assert tables["cards_card"]["rows"] == 24
    assert tables["cards_historicalcard"]["rows"] == 25  # 24 made, one edited


def restore_round_trip(
    source: dict[str, str],
    fresh: dict[str, str],
    tmp_path: Path,
    change: Callable[[str], None],
    source_digest: Callable[[], dict[str, dict[str, object]]],
) -> None:
    """Back ``source`` up, restore into the empty ``fresh``, compare; then check the refusal
    and the forced restore (after ``change`` ran an SQL statement on ``fresh``)."""
    backup = backup_py(source, "backup", "--dir", str(tmp_path / "backups"))
    assert backup.returncode == 0, backup.stderr
    (file,) = (tmp_path / "backups").iterdir()
    assert not file.name.endswith(".partial")
    # Password hashes, sessions and API tokens: the owner's alone (an operator's review
    # found them world-readable).
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "backups").stat().st_mode) == 0o700

    restored = backup_py(fresh, "restore", str(file))
    assert restored.returncode == 0, restored.stderr
    before = source_digest()
    assert_holds_the_league(before)
    assert digest(fresh) == before

    # A database that holds anything is left alone, and the message says what and how.
    change("UPDATE cards_card SET free_throw_top = 1")
    again = backup_py(fresh, "restore", str(file))
    assert again.returncode == 1
    assert "Refusing to restore" in again.stderr and "it is not empty" in again.stderr
    assert "(seasons: 1, games: 6, teams: 4, cards: 24, users: 0; " in again.stderr
    assert "FORCE=1" in again.stderr and "--force" in again.stderr
    changed = digest(fresh)
    assert [t for t in before if changed[t] != before[t]] == ["cards_card"]

    # Forced, the backup replaces what the database came to hold since.
    forced = backup_py(fresh, "restore", str(file), "--force")
    assert forced.returncode == 0, forced.stderr
    assert digest(fresh) == before


def in_this_process() -> dict[str, dict[str, object]]:
    """The test database's digest, read here as ``digest`` reads it in a process of its own."""
    from config.backups import database_digest

    return {t: d._asdict() for t, d in database_digest().items()}


@pytest.fixture
def fresh_postgres() -> Iterator[str]:
    """A new empty PostgreSQL database beside the test database, dropped afterwards: named
    after the configured database (``vabg_restore_...``), so that runs of several checkouts
    on one server each know theirs."""
    url = database_url()
    server, test_name = url.rsplit("/", 1)
    name = f"{test_name.removeprefix('test_')}_restore_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield f"{server}/{name}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_postgresql_backup_restores_every_row_into_a_fresh_database(
    fresh_postgres: str, tmp_path: Path
) -> None:
    populate()
    base = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL"}}

    def change(sql: str) -> None:
        with psycopg.connect(fresh_postgres, autocommit=True) as conn:
            conn.execute(sql)

    restore_round_trip(
        base | {"DATABASE_URL": database_url()}, base | {"DATABASE_URL": fresh_postgres},
        tmp_path, change, in_this_process,
    )  # fmt: skip


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_forced_postgresql_restore_takes_an_upgrade_back_whole_or_not_at_all(
    fresh_postgres: str, tmp_path: Path
) -> None:
    """README's "Upgrading": ``make backup``, then a release whose migration adds a table with
    a foreign key to one the backup holds (league.0013 added league_gamechart so), then
    FORCE=1 to go back. ``pg_restore --clean`` dropped only what the dump holds, and the new
    foreign key stopped it ("cannot drop constraint league_gameresult_pkey ... because other
    objects depend on it"); had it not, the next ``migrate`` would fail on the table left
    behind. Forced, the database is the backup's again, its schema's owner and grants kept; a
    restore that fails on the way leaves the database as it was."""
    populate()
    base = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL"}}
    fresh = base | {"DATABASE_URL": fresh_postgres}
    made = backup_py(base | {"DATABASE_URL": database_url()}, "backup", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    (file,) = tmp_path.glob("vabg-*.dump")
    restored = backup_py(fresh, "restore", str(file))
    assert restored.returncode == 0, restored.stderr

    def query(sql: str) -> list[tuple[object, ...]]:
        with psycopg.connect(fresh_postgres, autocommit=True) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def tables() -> set[object]:
        return {t for (t,) in query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}

    def schema() -> list[tuple[object, ...]]:
        return query("SELECT nspowner::regrole::text, nspacl::text FROM pg_namespace"
                     " WHERE nspname = 'public'")  # fmt: skip

    backed_up, backed_up_tables, backed_up_schema = digest(fresh), tables(), schema()
    assert_holds_the_league(backed_up)

    # The upgrade: a new table whose rows point at the backup's results, and a changed card.
    query("CREATE TABLE league_upgradechart (id bigserial PRIMARY KEY,"
          " result_id bigint NOT NULL REFERENCES league_gameresult (id))")  # fmt: skip
    query("INSERT INTO league_upgradechart (result_id) SELECT id FROM league_gameresult")
    query("UPDATE cards_card SET free_throw_top = 1")
    upgraded = digest(fresh)

    # A backup cut short fails halfway through the restore: nothing of it stays.
    cut = tmp_path / "cut.dump"
    cut.write_bytes(file.read_bytes()[: file.stat().st_size * 9 // 10])
    failed = backup_py(fresh, "restore", str(cut), "--force")
    assert failed.returncode == 1
    # Where the cut falls (the dump's size varies with its timestamps), pg_restore stops on
    # it, or hands psql a row that is cut short.
    assert failed.stderr.startswith(
        ("restore: pg_restore failed (exit 1): pg_restore: error:", "restore: psql failed (exit")
    )
    assert "Traceback" not in failed.stderr
    assert failed.stderr.rstrip().endswith(
        f"Nothing was restored: the database is as it was. {cut} looks cut short or damaged: "
        "restore another backup."
    )
    assert digest(fresh) == upgraded
    assert tables() == backed_up_tables | {"league_upgradechart"}
    assert query("SELECT count(*) FROM league_upgradechart") == [(6,)]

    # A set still running on the database (an operator's review: the forced restore went
    # through under it, and its workers and run then failed on rows gone) is refused.
    with psycopg.connect(fresh_postgres) as running_set:
        running_set.execute("SELECT 1")
        refused = backup_py(fresh, "restore", str(file), "--force")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert (
        refused.stderr.startswith("restore: Refusing to replace the PostgreSQL database ")
        and "1 other session is connected to it" in refused.stderr
    )
    assert digest(fresh) == upgraded

    # Pages and tables cached for the rows before are emptied with them (a review saw a
    # team's name the restore took back, its cache key met again by a later edit).
    cache_url = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    cache_url = cache_url.rsplit("/", 1)[0] + "/13"
    shared = redis.Redis.from_url(cache_url)
    shared.set("a page of the rows before", "stale")
    forced = backup_py(fresh | {"CACHE_URL": cache_url}, "restore", str(file), "--force")
    assert forced.returncode == 0, forced.stderr
    assert shared.get("a page of the rows before") is None
    assert digest(fresh) == backed_up
    assert tables() == backed_up_tables  # league_upgradechart is gone
    assert schema() == backed_up_schema


def test_a_sqlite_backup_restores_every_row_into_a_fresh_database(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    """The league: ``populate`` in a process of its own, on a copy of the session's freshly
    migrated SQLite file (tests/conftest.py: ``make run``'s ``migrate``, run once a session)."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "DEBUG"}
    }
    source = base | {"SQLITE_PATH": str(tmp_path / "league.sqlite3")}
    shutil.copyfile(migrated_sqlite, tmp_path / "league.sqlite3")
    made = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();"
         " from tests.config.test_backups import populate; populate()"],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env=source | {"DJANGO_SETTINGS_MODULE": "config.settings"},
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    fresh = tmp_path / "fresh.sqlite3"

    def change(sql: str) -> None:
        with closing(sqlite3.connect(fresh)) as conn, conn:
            conn.execute(sql)

    restore_round_trip(
        source, base | {"SQLITE_PATH": str(fresh)}, tmp_path, change, lambda: digest(source)
    )


def test_a_restore_names_a_backup_of_the_wrong_kind_and_writes_nothing(tmp_path: Path) -> None:
    dump = tmp_path / "vabg-league-20261126-030000Z.dump"
    dump.write_bytes(b"PGDMP\x01\x0f\x00" + b"\x00" * 64)
    target = tmp_path / "fresh.sqlite3"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    proc = backup_py(env | {"SQLITE_PATH": str(target)}, "restore", str(dump))
    assert proc.returncode == 1
    assert (
        f"{dump} is a PostgreSQL (pg_dump) backup, but the configured database is the SQLite database {target}"
        in proc.stderr
    )
    assert not target.exists() or target.stat().st_size == 0


def test_a_truncated_sqlite_backup_is_refused_in_one_line_and_writes_nothing(
    tmp_path: Path,
) -> None:
    """A backup cut short (a copy interrupted, a full disk) made the integrity check itself
    fail, "database disk image is malformed" at the end of a traceback: it is refused in the
    one line of any backup failing the check, and the database it would replace is kept."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    source, target = tmp_path / "league.sqlite3", tmp_path / "now.sqlite3"
    for path, rows in ((source, 400), (target, 3)):
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("CREATE TABLE league_game (id INTEGER PRIMARY KEY, box TEXT)")
            conn.executemany("INSERT INTO league_game (box) VALUES (?)", [("x" * 500,)] * rows)
    made = backup_py(env | {"SQLITE_PATH": str(source)}, "backup", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    (file,) = tmp_path.glob("vabg-*.sqlite3")
    cut = tmp_path / "cut.sqlite3"
    cut.write_bytes(file.read_bytes()[:50_000])  # head -c 50000
    held = target.read_bytes()
    restored = backup_py(env | {"SQLITE_PATH": str(target)}, "restore", str(cut), "--force")
    assert restored.returncode == 1
    assert restored.stderr == (
        f"restore: {cut} fails SQLite's integrity check: database disk image is malformed\n"
    )
    assert target.read_bytes() == held


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_database_that_does_not_exist_is_named_with_the_command_that_makes_it(
    tmp_path: Path,
) -> None:
    """README's restore starts with createdb: forgotten (or a typo in the name), the
    restore says so in one line, not in a traceback."""
    file = tmp_path / "vabg-db.dump"
    file.write_bytes(b"PGDMP" + bytes(100))  # read no further than its kind
    server = database_url().rsplit("/", 1)[0]
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL"}}
    env["DATABASE_URL"] = f"{server}/no_such_database_{uuid.uuid4().hex[:8]}"
    name = env["DATABASE_URL"].rsplit("/", 1)[1]
    restored = backup_py(env, "restore", str(file))
    assert restored.returncode == 1
    assert "Traceback" not in restored.stderr
    assert restored.stderr.startswith(f"restore: cannot reach the PostgreSQL database {name} on ")
    assert f'database "{name}" does not exist' in restored.stderr
    assert restored.stderr.rstrip().endswith(f"-U postgres {name}")
    digested = backup_py(env, "digest")
    assert digested.returncode == 1 and "Traceback" not in digested.stderr
    assert f"digest: cannot reach the PostgreSQL database {name}" in digested.stderr


def test_a_backup_folder_that_cannot_be_made_is_named_in_one_line(tmp_path: Path) -> None:
    """BACKUP_DIR mistyped onto a file (or a read-only disk): one line naming it, which a
    cron job's mail shows at a glance, not a traceback."""
    (tmp_path / "backups").write_text("a file, not a folder")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    made = backup_py(env, "backup", "--dir", str(tmp_path / "backups" / "vabg"))
    assert made.returncode == 1
    assert made.stderr == (
        f"backup: cannot write backups into {tmp_path / 'backups' / 'vabg'}: Not a directory\n"
    )
    # The file itself named (an operator's review: "File exists"), and a restore of a folder
    # ("does not exist").
    made = backup_py(env, "backup", "--dir", str(tmp_path / "backups"))
    assert made.returncode == 1
    assert made.stderr == (
        f"backup: cannot write backups into {tmp_path / 'backups'}: it is a file, not a directory\n"
    )
    restored = backup_py(env, "restore", str(tmp_path))
    assert restored.returncode == 1
    assert restored.stderr == (
        f"restore: {tmp_path} is a directory: name a backup file in it (vabg-*.dump, .sqlite3).\n"
    )


def test_a_backup_folder_there_but_not_writable_is_named_in_one_line(tmp_path: Path) -> None:
    """An operator's review: a read-only folder that exists printed a traceback ending in
    the partial file's OSError. /proc stands for it: nothing can be made there, even by
    root (the suite's user in CI)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    made = backup_py(env, "backup", "--dir", "/proc")
    assert made.returncode == 1
    assert made.stderr.startswith("backup: cannot write backups into /proc: ")
    assert len(made.stderr.splitlines()) == 1, made.stderr


def test_settings_the_environment_refuses_are_named_in_one_line(tmp_path: Path) -> None:
    """A cron job's environment file with DEBUG=false and not the rest printed Django's
    whole traceback, "SECRET_KEY must be set" at its end."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY"}}
    env |= {"DEBUG": "false", "SQLITE_PATH": str(tmp_path / "db.sqlite3")}
    made = backup_py(env, "backup", "--dir", str(tmp_path / "backups"))
    assert made.returncode == 1
    assert made.stderr == "backup.py: SECRET_KEY must be set when DEBUG is off.\n"
    assert not (tmp_path / "backups").exists()


def test_a_scheduled_backup_never_installs_what_requirements_txt_asks_for() -> None:
    """A nightly ``make backup`` after a pull that changed requirements.txt backs up with the
    venv it has: running pip there would fail offline, and no backup would be made."""
    planned = subprocess.run(
        ["make", "-n", "-W", "requirements.txt", "backup"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "pip install" not in planned
    assert "scripts/backup.py backup" in planned
