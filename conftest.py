"""pytest's set-up for the whole tree: the doctests of the engine's compiled modules.

``--doctest-modules`` reads a module's examples from its imported functions; where the
engine runs compiled by mypyc (``make native``, simulator/native.py) those functions are
C, and the module imported is not the file collected. Each compiled module's doctests then
run in a pytest of their own on the source (``VABG_PURE_PYTHON=1``), one test a module.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Generator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent


class SourceDoctests(pytest.Item):
    """The doctests of one compiled module, run on its source in a pytest of their own."""

    def runtest(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(self.path)],
            cwd=ROOT,
            env={**os.environ, "VABG_PURE_PYTHON": "1"},
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise AssertionError(
                f"the doctests of {self.path.name} on the source failed:\n{done.stdout[-6000:]}"
            )

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"[doctests on the source] {self.path.name}"


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector | pytest.Item], list[pytest.Collector | pytest.Item]]:
    collected = yield
    from simulator import native

    compiled = {native.source_path(module) for module in native.COMPILED}
    if not native.ENGINE.startswith("compiled") or file_path.resolve() not in compiled:
        return collected
    doctests = [c for c in collected if type(c).__name__ == "DoctestModule"]
    if not doctests:
        return collected
    kept = [c for c in collected if c not in doctests]
    if ">>>" not in file_path.read_text(encoding="utf-8"):
        return kept  # no examples to run
    name = f"{file_path.name}: doctests on the source"
    return [*kept, SourceDoctests.from_parent(parent, name=name, path=file_path)]
