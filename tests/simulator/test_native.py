"""The compiled engine (``make native``, simulator/native.py) is the engine's source, game for game.

`make test` builds it first, so the rest of the suite plays the compiled engine; these tests
hold it to the source: the same games roll for roll, and a build older than its source is
never run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator import SeededDice, native
from simulator.vabg import ADVANCED, BASIC, play_game, read_team_file
from simulator.vabg.rules import CoachKind

ROOT = Path(__file__).resolve().parents[2]
TEAMS = sorted((ROOT / "fixtures" / "teams").glob("*.json"))[::12]

DIGEST = """
import sys
sys.path.insert(0, {root!r})
from tests.simulator.test_native import games_digest
from simulator import native
print(native.ENGINE)
print(games_digest())
"""


def games_digest() -> str:
    """A digest of the full result (events, box scores, dice) of games of fixture teams on
    both presets and with the strategy choices, home and neutral, each from its own seed."""
    teams = [read_team_file(path) for path in TEAMS]
    digest, played = hashlib.sha256(), 0
    exact = dataclasses.replace(ADVANCED, strategy=True)  # what tournaments play
    thresholds = dataclasses.replace(exact, coach=CoachKind.THRESHOLDS)
    for rules, seeds in ((ADVANCED, 12), (BASIC, 6), (thresholds, 4), (exact, 2)):
        for i, home in enumerate(teams):
            for j, away in enumerate(teams):
                if i == j:
                    continue
                for seed in range(seeds):
                    result = play_game(
                        home,
                        away,
                        SeededDice(1000 * i + 10 * j + seed),
                        rules=rules,
                        neutral=seed % 2 == 1,
                    )
                    digest.update(repr(result).encode())
                    played += 1
    return f"{played} games {digest.hexdigest()}"


def run(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_compiled_engine_plays_every_game_as_its_source() -> None:
    if not native.ENGINE.startswith("compiled"):
        message = f"the engine here is {native.ENGINE}: make native compiles it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; under CI=true make test runs the compiled engine")
        pytest.skip(message)
    source = run(DIGEST.format(root=str(ROOT)), ROOT, VABG_PURE_PYTHON="1")
    assert source.returncode == 0, source.stderr
    engine, digest = source.stdout.splitlines()
    assert engine.startswith("pure Python")
    assert digest == games_digest()
    assert digest.startswith(f"{len(TEAMS) * (len(TEAMS) - 1) * 24} games")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The simulator's source copied alone, with a "build" that would break any import of
    it: each compiled module's extension is a file of garbage."""
    shutil.copytree(
        ROOT / "simulator",
        tmp_path / "simulator",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", ".native-stamp"),
    )
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in (*native.COMPILED, native.GROUP + "__mypyc"):
        native.source_path(module, tmp_path).with_suffix(suffix).write_bytes(b"not a library")
    return tmp_path


IMPORT = (
    "import simulator.vabg.engine as e, simulator.native as n; print(e.__file__); print(n.ENGINE)"
)


def test_a_build_older_than_its_source_is_never_run(copy: Path) -> None:
    # The stamp names other source: a module was edited since the build.
    (copy / "simulator" / ".native-stamp").write_text("0" * 64 + "\n", encoding="utf-8")
    assert native.verdict(copy, env={}) == "stale"
    done = run(IMPORT, copy)
    assert done.returncode == 0, done.stderr
    path, engine = done.stdout.splitlines()
    assert path.endswith("engine.py") and "make native rebuilds it" in engine
    assert "the compiled engine is older than its source" in done.stderr


def test_a_build_without_its_stamp_is_never_run(copy: Path) -> None:
    # An interrupted build writes no stamp.
    assert native.verdict(copy, env={}) == "stale"
    done = run(IMPORT, copy)
    assert done.returncode == 0 and done.stdout.splitlines()[0].endswith("engine.py"), done.stderr


def test_vabg_pure_python_runs_the_source_beside_a_current_build(copy: Path) -> None:
    stamp = native.source_digest(copy)
    (copy / "simulator" / ".native-stamp").write_text(stamp + "\n", encoding="utf-8")
    assert native.verdict(copy, env={}) == "compiled"
    assert native.verdict(copy, env={"VABG_PURE_PYTHON": "1"}) == "pure"
    assert native.verdict(copy, env={"VABG_PURE_PYTHON": "0"}) == "compiled"
    done = run(IMPORT, copy, VABG_PURE_PYTHON="1")
    assert done.returncode == 0, done.stderr
    path, engine = done.stdout.splitlines()
    assert path.endswith("engine.py") and "VABG_PURE_PYTHON is set" in engine
    assert done.stderr == ""


def test_without_a_build_the_source_runs(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "simulator",
        tmp_path / "simulator",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", ".native-stamp"),
    )
    assert native.verdict(tmp_path, env={}) == "source"
    done = run(IMPORT, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("pure Python (no build")
