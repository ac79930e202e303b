"""One loaded field for the module: ``make run``'s set-up steps, as its recipe writes them, on
a fresh SQLite file with no broker (the embedded default); each test copies it."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ".venv/bin/python"  # as README and the Makefile write it, from the project root
SERVER_SETTINGS = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL")


def embedded_env(database: Path, **extra: str) -> dict[str, str]:
    """The environment of a first ``make run``: no database URL, no broker, no shared cache."""
    env = {k: v for k, v in os.environ.items() if k not in SERVER_SETTINGS}
    env.pop("PYTEST_CURRENT_TEST", None)
    # A research run's figures go beside the database, never into the project's research/.
    research = str(database.parent / "research")
    return {**env, "SQLITE_PATH": str(database), "RESEARCH_DIR": research, **extra}


def run_recipe(target: str) -> list[list[str]]:
    """Return the Makefile recipe of ``target`` as commands, ``$(PY)`` as ``.venv/bin/python``."""
    text = (ROOT / "Makefile").read_text()
    found = re.search(rf"(?m)^{re.escape(target)}:.*\n((?:\t.*\n)+)", text)
    assert found, f"the Makefile has no {target} recipe"
    lines = [line.strip() for line in found.group(1).splitlines()]
    return [shlex.split(line.replace("$(PY)", PYTHON)) for line in lines]


def command(argv: list[str], env: dict[str, str], timeout: float = 300) -> str:
    """Run a command from the project root; fail with its output unless it ends well."""
    done = subprocess.run(
        argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{shlex.join(argv)} exited {done.returncode}:\n{output}"
    assert "Traceback" not in output, f"{shlex.join(argv)} printed a traceback:\n{output}"
    return done.stdout


@dataclass(frozen=True)
class Field:
    """The database ``make run`` leaves, and the commissioner's password it printed."""

    database: Path
    password: str

    def copy(self, to: Path) -> Path:
        target = to / "db.sqlite3"
        shutil.copyfile(self.database, target)
        return target


@pytest.fixture(scope="session")
def field(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Field:
    """Run ``make run``'s steps before its server: migrate, load the 96 teams of
    fixtures/teams, create the commissioner (its generated password is printed).

    The first step, ``migrate`` on a fresh file, is the session's ``migrated_sqlite``
    (tests/conftest.py, shared with the SQLite backup test): the steps after it run here on a
    copy of the file it left."""
    database = tmp_path_factory.mktemp("field") / "db.sqlite3"
    shutil.copyfile(migrated_sqlite, database)
    env = embedded_env(database)
    printed = ""
    migrate, *steps = run_recipe("run")
    assert "migrate" in migrate, "make run no longer starts by migrating"
    for argv in steps:
        if "runserver" in argv:
            continue  # the server is test_browser's, started the same way
        printed += command(argv, env)
    assert "96 teams: 96 created" in printed
    password = re.search(r"with password: (\S+)", printed)
    assert password, printed
    return Field(database=database, password=password.group(1))
