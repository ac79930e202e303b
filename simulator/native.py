"""The compiled engine: the VABG engine's hot modules compiled by mypyc from this very source.

``make native`` (which ``make run``, ``make test``, the serving targets and ``make bench`` run
first) compiles the modules of :data:`COMPILED` with mypyc
(``scripts/build_native.py``) into C extensions beside their source, and writes a stamp of
the source it compiled. Python then imports an extension before its ``.py``; the engine is the
same code, the same game roll for roll (``tests/simulator/test_native.py``), about 1.6 times
as fast.

:func:`choose` runs when :mod:`simulator` is first imported, before any of these modules:
where the extensions are older than their source (a module of :mod:`simulator` or
:mod:`simulator.vabg` edited since ``make native``), or ``VABG_PURE_PYTHON`` is set, it has
Python import every module of the package from its source instead (the compiled modules
call each other's classes directly; a build from an older list of modules would load a
library that no longer holds them). Nothing here changes a game; it only decides which copy
of the same code runs.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED = (
    "simulator.vabg.cards",
    "simulator.vabg.engine",
    "simulator.vabg.events",
    "simulator.vabg.tables",
)
"""The modules ``make native`` compiles: what one game runs, from the first trip to the box
score. Not the dice (subclassed by the other games and the table's sheets, which a compiled
class forbids) nor the rules (a compiled class refuses a badly typed value with a bare
``TypeError`` before the rules' own check could name it)."""

GROUP = "simulator.native"
"""mypyc's group: its shared library is ``simulator/native__mypyc`` (an extension)."""

ROOT = Path(__file__).resolve().parent.parent
"""The directory holding the :mod:`simulator` package."""

STAMP = ROOT / "simulator" / ".native-stamp"
"""What ``make native`` compiled: :func:`source_digest` of the source at the time."""

PURE_PYTHON_ENV = "VABG_PURE_PYTHON"
"""Set (to anything but empty or 0) to run the source even where a current build exists."""


def source_path(module: str, root: Path = ROOT) -> Path:
    """Return the ``.py`` file of ``module`` under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digested(root: Path = ROOT) -> list[Path]:
    """The source a build depends on: the compiled modules and every module they may read a
    definition from when compiled (mypyc reads the others' types and constants), taken
    broadly as every module of :mod:`simulator` and :mod:`simulator.vabg`, this one included
    (its list of modules)."""
    package = root / "simulator"
    return sorted([*package.glob("*.py"), *(package / "vabg").glob("*.py")])


def source_digest(root: Path = ROOT) -> str:
    """Return a digest of the source a build depends on (:func:`digested`), by path and content."""
    digest = hashlib.sha256()
    for path in digested(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def built(root: Path = ROOT, modules: Sequence[str] = COMPILED) -> bool:
    """Whether a build lies in the tree: the group's library or an extension of a module."""
    return any(
        source_path(module, root).with_suffix(suffix).exists()
        for module in (*modules, GROUP + "__mypyc")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def verdict(
    root: Path = ROOT, modules: Sequence[str] = COMPILED, env: dict[str, str] | None = None
) -> str:
    """Say which copy runs: ``"compiled"``, ``"source"`` (no build), ``"pure"``
    (:data:`PURE_PYTHON_ENV` set) or ``"stale"`` (a build older than its source)."""
    env = dict(os.environ) if env is None else env
    if not built(root, modules):
        return "source"
    if env.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        return "pure"
    stamp = root / "simulator" / STAMP.name
    if not stamp.exists() or stamp.read_text(encoding="utf-8").strip() != source_digest(root):
        return "stale"
    return "compiled"


class SourceFirst(MetaPathFinder):
    """Import every module of :mod:`simulator` from its ``.py``, even where an extension lies
    beside it (a build from an older list of modules included)."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("simulator."):
            return None
        source = source_path(fullname, self.root)
        if not source.exists():
            return None  # a package: its __init__ is never compiled
        return importlib.util.spec_from_file_location(fullname, source)


ENGINE = "pure Python"
"""What runs (the benches print it): set by :func:`choose`."""


def choose() -> str:
    """Decide, once a process, which copy of the compiled modules Python imports; return it."""
    global ENGINE
    found = verdict()
    if found == "compiled":
        ENGINE = "compiled by mypyc (make native)"
        return found
    if found == "source":
        ENGINE = "pure Python (no build: make native compiles it)"
        return found
    if not any(isinstance(finder, SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())
    if found == "pure":
        ENGINE = f"pure Python ({PURE_PYTHON_ENV} is set)"
    else:
        ENGINE = "pure Python (the build is older than the source: make native rebuilds it)"
        warnings.warn(
            "simulator: the compiled engine is older than its source; playing the source "
            "(make native compiles it again)",
            RuntimeWarning,
            stacklevel=2,
        )
    return found
