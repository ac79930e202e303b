"""Every command in README.md's ``sh`` blocks runs as written on the embedded default.

The commands run in README's order from the project root, on a copy of the field that
``make run``'s set-up steps load (tests/commissioner/conftest.py), with no database URL and no
broker: exit 0 and no traceback each. These are not run, each for the reason in ``SKIPPED``:

- ``make run``: it serves until stopped. Its set-up steps (migrate, load_teams,
  add_commissioner) make the field these commands run on, and ``test_browser.py`` starts its
  server the way its recipe does.
- ``make test``: the suite itself, this test included.
- ``make serve-cached``: production serving (``DEBUG=false``, PostgreSQL, Redis, nginx) that
  runs until stopped; ``tests/pages/test_front_cache.py`` runs its front cache.
- ``celery -A config worker`` and ``celery -A config beat``: they run until stopped and need a
  broker; ``tests/drills/`` starts real workers on the PostgreSQL + Redis pass.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.commissioner.conftest import ROOT, Field, command, embedded_env

SKIPPED = {
    "make run": "serves until stopped; its set-up steps load the field these commands use",
    "make test": "the suite itself",
    "make serve-cached": "production serving behind nginx, until stopped (test_front_cache.py)",
    ".venv/bin/celery worker": "a worker runs until stopped and needs a broker (tests/drills/)",
    ".venv/bin/celery beat": "beat runs until stopped and needs a broker (tests/drills/)",
}


def readme_commands() -> list[tuple[dict[str, str], list[str]]]:
    """Return each command of README's ``sh`` blocks: its leading VAR=value settings and its
    words, a line ending in a backslash joined to the next, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            settings = {}
            while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
                name, _, value = words.pop(0).partition("=")
                settings[name] = value
            if words:
                commands.append((settings, words))
    return commands


def skip_reason(words: list[str]) -> str | None:
    """Return why a README command is not run here, or None to run it."""
    if words[0] == "make":
        return SKIPPED.get(f"make {words[1]}")
    if words[0].endswith("/celery"):
        return SKIPPED.get(f".venv/bin/celery {next(w for w in words if w in {'worker', 'beat'})}")
    return None


def test_readme_lists_the_commissioners_commands_and_skips_only_those_that_never_end() -> None:
    commands = readme_commands()
    words = [shlex.join(w) for _, w in commands]
    assert any("create_season" in w and "--all --cross 2" in w for w in words)
    assert any("simulate all-time-league/winter-2026 --round 1" in w for w in words)
    skipped = {
        f"{w[0]} {w[1]}" if w[0] == "make" else f".venv/bin/celery {w[3]}"
        for _, w in commands
        if skip_reason(w)
    }
    assert skipped == set(SKIPPED), "a skip reason no README command needs any more"


def test_every_readme_command_runs_as_written_on_the_embedded_default(
    field: Field, tmp_path: Path
) -> None:
    env = embedded_env(field.copy(tmp_path))
    ran = []
    for settings, words in readme_commands():
        if skip_reason(words) is not None:
            continue
        out = command(words, {**env, **settings}, timeout=600)
        ran.append((shlex.join(words), out))
    outputs = dict(ran)
    cup = outputs[".venv/bin/python manage.py simulate all-time-league/march-madness --all"]
    assert "95 of 95 games stored, 0 failed" in cup
    season = next(out for w, out in ran if "Winter 2026" in w)
    assert "96 teams" in season and "these play in Independent: Butler 2011 (Horizon)" in season
    assert "games stored, 0 failed" in next(out for w, out in ran if "--round 1" in w)
    assert "identical, event for event" in next(out for w, out in ran if "--replay 17" in w)
    assert "Created grid-league/cup" in next(out for w, out in ran if "gridcourt" in w)
    research = next(out for w, out in ran if "research --season all-time-league/march" in w)
    assert "950 games in" in research and "teams.parquet" in research
