"""A tournament's what-if: the winners to condition its odds on (VABG's and the other
games' bracket odds alike, ``league.odds`` and ``league.other_odds``)."""

from __future__ import annotations

from collections.abc import Mapping

from cards.models import Team
from league import bracket as brackets
from league.errors import WhatIfRefused


def whatif_winners(
    bracket: brackets.Bracket,
    stored: Mapping[str, tuple[int, frozenset[int]]],
    whatif: Mapping[str, int],
) -> tuple[dict[str, int], dict[str, str]]:
    """Return the winners to condition on, and what each what-if did (lock or flip).

    A what-if names a game and its winner: an unplayed game is *locked*; a stored game
    given the other winner is *flipped*, and the stored results after it that no longer
    pair the same two teams are set aside. A game whose teams are not known by then, or a
    winner who is not one of them, is refused.
    """
    by_key = {g.key: g for g in bracket.games}
    unknown = sorted(set(whatif) - set(by_key))
    if unknown:
        raise WhatIfRefused(f"no game {unknown[0]!r} in this bracket")
    winners: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for number in range(1, bracket.rounds + 1):
        teams = brackets.entrants(bracket, winners)
        for game in (g for g in bracket.games if g.round == number):
            top, bottom = teams[game.key]
            if game.key in whatif:
                team = whatif[game.key]
                if top is None or bottom is None:
                    raise WhatIfRefused(
                        f"game {game.key}: its teams are not known yet; lock the games "
                        "before it first"
                    )
                if team not in (top, bottom):
                    names = _names((team, top, bottom))
                    raise WhatIfRefused(
                        f"{names[team]} does not play in game {game.key} ({names[top]} v "
                        f"{names[bottom]})"
                    )
                winners[game.key] = team
                played = stored.get(game.key)
                if played is None:
                    kinds[game.key] = "lock"
                elif played[1] != frozenset((top, bottom)) or played[0] != team:
                    kinds[game.key] = "flip"
                else:
                    kinds[game.key] = "as played"
            elif game.key in stored:
                winner, pair = stored[game.key]
                if pair == frozenset((top, bottom)):
                    winners[game.key] = winner
    return winners, kinds


def _names(ids: tuple[int, ...]) -> dict[int, str]:
    """Name the teams of a refused what-if as a fan reads them ("Kentucky 2012"); an id no
    team has stays a number ("team 999")."""
    named = {t.pk: str(t) for t in Team.objects.filter(pk__in=ids)}
    return {pk: named.get(pk, f"team {pk}") for pk in ids}
