"""What the league's services refuse, each with a message that says why.

Each is a ``core.errors.Refused``: the API answers it in one place
(``core.api.exception_handler``) with its status, the admin shows it as a message, a command
raises it as a ``CommandError``. Anything else is a bug and is left to fail loudly.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import ProblemsRefused, Refused


class GameNotPlayable(Refused):
    """Raise when a game cannot be simulated (a broken roster, a real-dice game...)."""


class GameFinal(Refused):
    """Raise for a result or dice sent for a game already final (409: too late, not wrong)."""

    status = 409


class ResultRefused(ProblemsRefused, ValueError):
    """Raise for a typed-in result that does not add up; the message lists every problem."""

    what = "score sheet"

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(problems)
        self.args = ("; ".join(self.problems),)


class SeasonRefused(Refused, ValueError):
    """Raise for a league, season or tournament that cannot be set up; the message says why."""


class SimulationRefused(Refused, ValueError):
    """Raise for a simulation that cannot start (a scope without its round, a foreign game)."""


class GamesNotSent(Refused):
    """Raise when games were stored as queued but the broker cannot be reached to send them
    (503: the league is fine, a server it needs is not). They stay queued: beat's sweeper
    sends them once the broker answers, so the request is not to be made again."""

    status = 503
    retry_after = 30

    def __init__(self, broker: str, error: str) -> None:
        self.broker, self.error = broker, error
        super().__init__(
            f"the games are stored as queued, but the broker ({broker}) cannot be reached "
            f"({error.rstrip('.')}): the sweeper sends them to the workers once it answers, "
            "so nothing needs asking again"
        )


class OddsUnavailable(Refused, ValueError):
    """Raise when no odds can be given: a card the engine refuses, a game with no plays,
    a game or rules without odds (the message names the game)."""


class StoryUntold(Refused, ValueError):
    """Raise for a story asked of a game whose kind tells none (six dice, grid court): the
    game is there, the request is what is wrong (400, naming the game)."""


class NoPlayerLines(Refused, ValueError):
    """Raise for player lines asked of a season whose game keeps none (six dice: one line a
    team; grid court: a line a piece): the season is there, the request is what is wrong
    (400, naming the game), not an empty answer that reads as "no game played yet"."""


class WhatIfRefused(Refused, ValueError):
    """Raise for a what-if that cannot happen: an unknown game, a team not in it."""


class PairingsPending(Exception):
    """Raise when the odds of some pairings of coach styles (six dice, grid court) are not
    worked out yet and have been sent to the background: a page shows how far they are
    instead of solving them while its reader waits. Not a refusal: nothing is wrong."""

    def __init__(self, *, ready: int, needed: int, game_title: str) -> None:
        super().__init__(f"{needed - ready} of {needed} pairings are still being worked out")
        self.ready = ready
        self.needed = needed
        self.game_title = game_title

    def view(self) -> dict[str, object]:
        """Return what a page or the API shows meanwhile (the shape of a VABG table's)."""
        return {
            "pending": True,
            "pairs_ready": self.ready,
            "pairs_needed": self.needed,
            # A pairing of coach styles takes a fraction of a second: look again soon.
            "retry_after": retry_after(self.needed - self.ready, 2),
            "message": f"The odds of {self.game_title} are being worked out in the background: "
            f"{self.ready} of {self.needed} pairings of coach styles are ready.",
        }


def retry_after(missing: int, quick: int) -> int:
    """Return in how many seconds a page or client waiting on ``missing`` pieces of work in
    the background should look again: a second when at most ``quick`` are missing (a
    moment's work), else five."""
    return 1 if missing <= quick else 5
