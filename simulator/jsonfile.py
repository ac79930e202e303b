"""Reading a JSON file a person hands the program (a team file, a dice file).

Every way such a file can be wrong is said in one sentence that names it: it cannot be
read (missing, a folder, no permission), it is not UTF-8 text, or it is not JSON. A UTF-8
byte-order mark, which Windows editors write, is accepted.
"""

from __future__ import annotations

import json
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
