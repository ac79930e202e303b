"""Every cache key is made under the release (core/release.py): a shared cache outlives a
release, and a new one must not serve the tables, figures and pages its predecessor kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache

from core import cache as release_cache
from core.release import digest


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_release_is_its_application_files_and_nothing_else(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "league/stats.py": "POINTS = 'from the scores'\n",
            "templates/pages/season.html": "<table>{{ rows }}</table>\n",
            "tests/test_stats.py": "def test(): pass\n",
            "league/__pycache__/stats.cpython-311.pyc": "compiled",
        },
    )
    first = digest(root)
    assert digest(root) == first
    (root / "tests/test_stats.py").write_text("def test(): assert True\n", encoding="utf-8")
    (root / "league/__pycache__/stats.cpython-311.pyc").write_text("again", encoding="utf-8")
    assert digest(root) == first  # the tests and compiled files make nothing the cache keeps
    (root / "templates/pages/season.html").write_text("<table>{{ row }}</table>\n", "utf-8")
    changed = digest(root)
    assert changed != first
    (root / "league/stats.py").write_text("POINTS = 'from the lines'\n", encoding="utf-8")
    assert digest(root) not in (first, changed)


def test_what_one_release_kept_in_the_cache_the_next_never_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(release_cache, "release", lambda: "before")
    cache.set("season-tables:7:fingerprint", "<table>old figures</table>", 60)
    assert cache.get("season-tables:7:fingerprint") == "<table>old figures</table>"
    monkeypatch.setattr(release_cache, "release", lambda: "after")
    assert cache.get("season-tables:7:fingerprint") is None
    monkeypatch.setattr(release_cache, "release", lambda: "before")  # (its entry expires)
    assert cache.get("season-tables:7:fingerprint") == "<table>old figures</table>"
    cache.delete("season-tables:7:fingerprint")
