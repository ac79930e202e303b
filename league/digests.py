"""One content, one digest: the SHA-256 of a JSON document with its keys sorted.

A team file stored once per version (``models.TeamVersion``) and the key a coach is kept
under (``coaches``) are both named by it; the same formula as ``odds.card_version``. And
one packing of a derived document stored in a binary column (a solved coach, a pairing's
odds): compact JSON, zlib-compressed.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any


def document_digest(document: object) -> str:
    """Return the SHA-256 of a JSON document, its keys sorted: the same content, one digest."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def document_packed(document: object) -> bytes:
    """Return a JSON document as compact JSON, zlib-compressed (a tenth of its size for a
    solved coach's spans)."""
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode(), 9)


def document_unpacked(packed: bytes | memoryview) -> Any:
    """Return the document :func:`document_packed` packed (``ValueError`` for bytes it did
    not pack: zlib's and JSON's errors alike)."""
    try:
        return json.loads(zlib.decompress(bytes(packed)))
    except zlib.error as exc:
        raise ValueError(f"not a packed document: {exc}") from exc
