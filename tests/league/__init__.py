"""Tests of the league app; the pure modules share the checks below."""

from __future__ import annotations

import doctest
import importlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A fresh interpreter, because this test process has Django loaded already (pytest-django).
_IMPORT_IN_A_FRESH_INTERPRETER = textwrap.dedent(
    """
    import importlib, json, random, sys

    before = random.getstate()
    importlib.import_module(sys.argv[1])
    print(json.dumps({
        "django": sorted(name for name in sys.modules if name.startswith("django")),
        "random_untouched": random.getstate() == before,
    }))
    """
)


def assert_pure(module: str) -> None:
    """Assert that importing ``module`` loads no Django and leaves the global random alone."""
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_IN_A_FRESH_INTERPRETER, module],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"django": [], "random_untouched": True}


def assert_doctests_pass(module: str) -> None:
    """Run the docstring examples of ``module``, which ``pytest tests/league`` would skip."""
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module} has no docstring examples"
    assert result.failed == 0
