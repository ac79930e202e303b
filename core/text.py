"""Words for counts in what commands and pages say."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``counted(1, "game")`` is "1 game", ``counted(3, "game")`` "3 games"; ``many`` for an
    irregular plural."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
