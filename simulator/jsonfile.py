"""Reading a JSON file a person hands the program (a team file, a dice file).

Every way such a file can be wrong is said in one sentence that names it: it cannot be
read (missing, a folder, no permission), it is not UTF-8 text, or it is not JSON. A UTF-8
byte-order mark, which Windows editors write, is accepted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path


class JsonFileError(ValueError):
    """Raise for a file that cannot be read as JSON; the message names the file and why."""


def read_json_file(path: str | Path) -> object:
    """Return the parsed JSON of the file at ``path``, or raise :class:`JsonFileError`."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise JsonFileError(f"{path}: cannot be read ({exc.strerror})") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonFileError(
            f"{path}: not UTF-8 text (byte {exc.start} is {raw[exc.start]:#04x}): save it as UTF-8"
        ) from exc
    if not text.strip():
        raise JsonFileError(f"{path}: the file is empty: it must hold a JSON object")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonFileError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    except RecursionError as exc:
        raise JsonFileError(f"{path}: not valid JSON (nested too deeply)") from exc


def shown(value: object, limit: int = 60) -> str:
    """Return a value read from a JSON file as the file writes it, for a message that
    quotes it: ``null``, ``true``, ``"text"``, ``[1, 2]`` (not Python's ``None``, ``True``,
    ``'text'``), cut to about ``limit`` characters.

    >>> shown(None), shown(True), shown("C"), shown([0, 7])
    ('null', 'true', '"C"', '[0, 7]')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def kind(value: object) -> str:
    """Return what a JSON value is, in the words of a file's reader.

    >>> kind(None), kind(False), kind(3), kind("x"), kind([]), kind({})
    ('null', 'true or false', 'a number', 'a text', 'a list', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def got(data: Mapping[str, object], key: str) -> str:
    """Return the end of a message refusing ``data[key]``: what the file holds there, or
    that the key is missing.

    >>> got({"role": None}, "role"), got({}, "role")
    ('got null', 'but it is missing')
    """
    return f"got {shown(data[key])}" if key in data else "but it is missing"


def format_problem(data: Mapping[str, object], expected: str, what: str) -> str | None:
    """Return why ``data`` (a parsed file) does not say it is ``expected`` (its ``format``
    key), ``what`` naming the kind of file, or ``None`` when it does.

    >>> format_problem({}, "vabg-dice/1", "a dice file")
    'format is missing: a dice file says "format": "vabg-dice/1"'
    """
    if data.get("format") == expected:
        return None
    if "format" not in data:
        return f'format is missing: {what} says "format": "{expected}"'
    return f'format must be "{expected}", got {shown(data["format"])}'
