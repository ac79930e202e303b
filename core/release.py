"""The release a process runs: a digest of the application's own source and templates.

The shared cache (``CACHE_URL``) outlives a release: what a page kept there (its rendered
tables, a season's figures, a played game's page) was made by the code that kept it, and a
release that changes how a figure is counted or a page is drawn must not serve its
predecessor's for the hour such entries last. Every key is therefore made under the
release (:func:`core.cache.release_key`, Django's ``KEY_FUNCTION``): a new release starts
with none of the old entries, which expire on their own.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

APPLICATION = ("cards", "challenge", "config", "core", "league", "simulator", "table", "templates")
"""The folders whose files make what the cache keeps (the tests, benchmarks and scripts do not)."""

SUFFIXES = (".py", ".html", ".txt")


def source_files(root: Path = ROOT, folders: Iterable[str] = APPLICATION) -> list[Path]:
    """Return the application's source and template files under ``root``, in a fixed order."""
    found = [
        path
        for folder in folders
        for path in (root / folder).rglob("*")
        if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts
    ]
    return sorted(found)


def digest(root: Path = ROOT, folders: Iterable[str] = APPLICATION) -> str:
    """Return a short digest of the application's files under ``root`` (paths and contents)."""
    hashed = hashlib.blake2b(digest_size=8)
    for path in source_files(root, folders):
        hashed.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()


@functools.cache
def release() -> str:
    """The release this process runs, read once: the digest of its files as it started."""
    return digest()
