"""The one base of every refusal a service gives a user, and how the API answers it.

A service raises a ``Refused`` (``league.errors``, ``table.services.TableRefused``,
``challenge.services.ChallengeRefused``, ``cards.uploads.TeamFileError``) with a message that
says why; ``core.api.exception_handler`` answers every one of them, so API actions validate,
call one service and serialise, with no ``try``/``except`` of their own. The admin, pages and
commands catch the same classes and show the same message their own way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def sentence(text: str, *, name_first: bool = False) -> str:
    """Return a domain error as users read it: capitalised, ending in a period.

    ``name_first``: the text begins with a name (a team's, "kentucky 2012: ..."), kept as
    it is written; capitalised, a lower-case school read as another team."""
    text = text.strip()
    if not text:
        return text
    if not name_first:
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


class Refused(Exception):
    """A request a service refuses; the message says why.

    ``status`` is the HTTP status the API answers with: 400 for a request that cannot be
    taken, 409 for one fine in itself that comes too late (a final game, a stale page).
    """

    status: int = 400
    retry_after: int | None = None
    """Seconds after which the same request may be answered (work under way in the
    background): the API sends them as ``Retry-After``."""

    def answer(self) -> dict[str, Any]:
        """Return the body the API answers with: ``{"detail": "..."}`` and any keys of its own."""
        return {"detail": sentence(str(self))}


class ProblemsRefused(Refused):
    """A document refused for every problem it has (a score sheet, a team file): the
    message lists them one a line, the answer counts them and says nothing was written."""

    what = "document"

    def __init__(self, problems: Sequence[str], *, status: int = 400) -> None:
        self.problems = tuple(problems)
        self.status = status
        super().__init__("\n".join(self.problems))

    def answer(self) -> dict[str, Any]:
        count = len(self.problems)
        return {
            "detail": f"The {self.what} is refused: {count} problem"
            f"{'' if count == 1 else 's'}; nothing was written.",
            "problems": list(self.problems),
        }
