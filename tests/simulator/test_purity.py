"""The engine stays pure: no Django, no global random, no files opened, same seed same game.

The style guide (``simulator/`` is pure) and docs/engine.md promise this; the Django
side, the command line and other programs rely on it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from simulator import SeededDice
from simulator.vabg import ADVANCED, BASIC, play_game, read_team_file

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "simulator"
SOURCES = sorted(PACKAGE.rglob("*.py"))
FIXTURES = ROOT / "fixtures" / "teams"

# Run in a fresh interpreter: this test process has Django loaded already (pytest-django).
PLAY_IN_A_FRESH_INTERPRETER = textwrap.dedent(
    """
    import contextlib, io, json, random, sys

    before = random.getstate()
    from simulator import SeededDice
    from simulator.cli import main
    from simulator.vabg import ADVANCED, play_game, read_team_file

    home = read_team_file(sys.argv[1])
    away = read_team_file(sys.argv[2])
    result = play_game(home, away, SeededDice(11), rules=ADVANCED)
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["play", sys.argv[1], sys.argv[2], "--seed", "11", "--play-by-play"])
    print(json.dumps({
        "django": sorted(name for name in sys.modules if name.startswith("django")),
        "random_untouched": random.getstate() == before,
        "status": status,
        "scores": [result.home.score, result.away.score],
    }))
    """
)


def test_playing_a_game_imports_no_django_and_leaves_the_global_random_alone():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PLAY_IN_A_FRESH_INTERPRETER,
            str(FIXTURES / "kentucky-2012.json"),
            str(FIXTURES / "kansas-2008.json"),
        ],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["status"] == 0
    assert report["scores"][0] != report["scores"][1]  # a game was really played
    assert report["django"] == []
    assert report["random_untouched"] is True


@pytest.mark.parametrize("rules", [ADVANCED, BASIC], ids=["advanced", "basic"])
@pytest.mark.parametrize("neutral", [False, True], ids=["home", "neutral"])
def test_the_same_seed_gives_the_same_json_twice(rules, neutral):
    home = read_team_file(FIXTURES / "san-diego-state-2011.json")
    away = read_team_file(FIXTURES / "kentucky-2012.json")
    first, again = (
        play_game(home, away, SeededDice(2024), rules=rules, neutral=neutral) for _ in range(2)
    )
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())
    other = play_game(home, away, SeededDice(2025), rules=rules, neutral=neutral)
    assert other.to_json()["events"] != first.to_json()["events"]


# -- the source itself -------------------------------------------------------------------


# The style guide: "the batch and exact-odds engines may add NumPy".
NUMPY_OK = {"odds.py": ("numpy",), "coachodds.py": ("numpy",)}


def offences(path: Path, root: Path = ROOT) -> list[str]:
    """Return what in one source file breaks the engine's purity, as ``file:line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(root)
    stdlib = sys.stdlib_module_names
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if (
                    top != "simulator"
                    and top not in stdlib
                    and top not in NUMPY_OK.get(path.name, ())
                ):
                    found.append(f"{where}:{node.lineno}: imports {name}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                # from random import randint: a module-level random call in disguise.
                found.append(f"{where}:{node.lineno}: from random import ...")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "open":
                found.append(f"{where}:{node.lineno}: open(")
            elif isinstance(func, ast.Attribute) and func.attr == "open":
                found.append(f"{where}:{node.lineno}: .open(")
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "random"
                and not (func.attr == "Random" and path.name == "dice.py")
            ):
                found.append(f"{where}:{node.lineno}: random.{func.attr}(")
    return found


def test_the_source_scan_sees_every_kind_of_offence(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import django\nfrom django.conf import settings\nfrom random import randint\n"
        "import random\nrandom.random()\nrandom.Random(1)\nopen('x')\n"
    )
    found = [o.split(": ", 1)[1] for o in offences(bad, tmp_path)]
    assert found == [
        "imports django",
        "imports django.conf",
        "from random import ...",
        "random.random(",
        "random.Random(",
        "open(",
    ]


def test_the_simulator_package_opens_no_files_imports_no_django_and_rolls_no_global_random():
    assert len(SOURCES) >= 10, SOURCES  # the scan really found the package
    found = [o for path in SOURCES for o in offences(path)]
    assert found == []


def test_the_only_random_generator_in_the_package_is_the_seeded_dices_own():
    makers = [
        f"{path.name}:{node.lineno}"
        for path in SOURCES
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "Random"
    ]
    assert makers and all(m.startswith("dice.py:") for m in makers), makers
