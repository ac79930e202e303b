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


def wait_words(seconds: int) -> str:
    """Return a wait in words: "12 seconds", "about a minute", "about 40 minutes", "about an hour"
    or "about 2 hours"."""
    if seconds < 60:
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    minutes = round(seconds / 60)
    if minutes < 2:
        return "about a minute"
    if minutes < 60:
        return f"about {minutes} minutes"
    hours = round(minutes / 60)
    return "about an hour" if hours == 1 else f"about {hours} hours"


def whole_number(text: str, digits: int = 4300) -> bool:
    """Tell whether ``text`` is a whole number written in ASCII digits, at most ``digits`` of
    them: ``str.isdigit`` also takes "²" and other scripts' digits, which ``int`` then
    refuses (a server error), and ``int`` refuses numbers of over 4,300 digits."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()
