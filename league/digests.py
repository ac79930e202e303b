"""One content, one digest: the SHA-256 of a JSON document with its keys sorted.

A team file stored once per version (``models.TeamVersion``) and the key a coach is kept
under (``coaches``) are both named by it; the same formula as ``odds.card_version``.
"""

from __future__ import annotations

import hashlib
import json


def document_digest(document: object) -> str:
    """Return the SHA-256 of a JSON document, its keys sorted: the same content, one digest."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
