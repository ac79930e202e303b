"""The exact-odds cache of the field builder (``build_field --odds-cache``).

A stored game is the number :func:`simulator.vabg.coachodds.exact_odds` would give, because the
exact odds are a pure function of the engine's source, NumPy and Python: the whole file is
dropped when any of them changes (:func:`engine_version`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import platform
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

import simulator
from cards.calibration import Odds

SIMULATOR_DIR = Path(simulator.__file__).resolve().parent
"""The engine's source: :func:`engine_version` fingerprints it."""


def odds_sources() -> list[Path]:
    """Return the engine's source files the exact odds are computed with: the odds module
    and, following its ``simulator`` imports, every module it reads (the engine, the
    cards, the rules, the events, the dice), not the other games or the command line."""
    root = SIMULATOR_DIR.parent
    todo = [SIMULATOR_DIR / "vabg" / "coachodds.py"]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] == SIMULATOR_DIR.name:
                    module = root.joinpath(*name.split("."))
                    found = module.with_suffix(".py")
                    todo.append(found if found.exists() else module / "__init__.py")
    return sorted(seen)


def engine_version() -> str:
    """Return a fingerprint of what the exact odds are computed with.

    The engine's source files the odds read (:func:`odds_sources`), numpy's and Python's
    versions and the machine: a stored game is used only while all of them are the same.
    """
    return sources_version(odds_sources())


def sources_version(paths: Iterable[Path]) -> str:
    """Return a fingerprint of what results computed by the engine read: these source files
    of the simulator (by path and content), numpy's and Python's versions and the machine."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(SIMULATOR_DIR)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update(f"{np.__version__} {sys.version} {platform.machine()}".encode())
    return digest.hexdigest()


class OddsStore(dict[str, Odds]):
    """The games of an odds cache, remembering which ones a run asked for or added.

    A build writes back only those (:meth:`used`), so the committed cache of the field
    (``fixtures/field/odds-cache.json``) holds exactly the games its files were aimed with.
    """

    def __init__(self, games: Mapping[str, Odds] | None = None) -> None:
        super().__init__(games or {})
        self.touched: set[str] = set()

    def get(self, key: str, default: Odds | None = None) -> Odds | None:  # type: ignore[override]
        self.touched.add(key)
        return super().get(key, default)

    def __setitem__(self, key: str, value: Odds) -> None:
        self.touched.add(key)
        super().__setitem__(key, value)

    def used(self) -> dict[str, Odds]:
        """Return the games this run asked for, found or computed."""
        return {k: self[k] for k in self.touched if k in self}


def read_odds_cache(path: Path) -> OddsStore:
    """Return the games of an ``--odds-cache`` file; none when it is missing, unreadable or
    was written by another engine (:func:`engine_version`)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return OddsStore()
    if not isinstance(doc, dict) or doc.get("engine") != engine_version():
        return OddsStore()
    games = doc.get("games")
    if not isinstance(games, dict):
        return OddsStore()
    out = OddsStore()
    for key, value in games.items():
        if isinstance(value, list) and len(value) == 3:
            dict.__setitem__(out, key, (float(value[0]), float(value[1]), float(value[2])))
    return out


def write_odds_cache(path: Path, games: Mapping[str, Odds]) -> None:
    """Write an ``--odds-cache`` file whole, by a rename (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"engine": engine_version(), "games": {k: list(v) for k, v in sorted(games.items())}}
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=path.name, delete=False
    ) as handle:
        try:
            json.dump(doc, handle)
        except BaseException:
            os.unlink(handle.name)
            raise
    try:
        os.replace(handle.name, path)
    except OSError:
        os.unlink(handle.name)
        raise
