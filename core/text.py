"""Words for counts in what commands and pages say."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``counted(1, "game")`` is "1 game", ``counted(3, "game")`` "3 games"; ``many`` for an
    irregular plural."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def size_text(size: int) -> str:
    """Return a number of bytes as people read it: "262,144 bytes (256 KB)"."""
    text = f"{size:,} byte{'' if size == 1 else 's'}"
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size >= scale:
            return f"{text} ({size / scale:,.4g} {unit})"
    return text
