"""What the score sheet page and the API show of a game at the table, as JSON-ready data.

What is drawn per game comes from the game's own sheet (``Game.sheet``, read through the
:class:`simulator.sheets.Sheet` protocol: VABG's printed score sheet and exact live odds,
grid court's pieces, six dice's faces); the table adds what it keeps itself (the game's
id, status, teams and links).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.urls import reverse

from league import other_odds
from simulator.games import find_game
from simulator.sheets import Sheet, entry_of
from table.models import TableGame


def _urls(game: TableGame) -> dict[str, Any]:
    urls: dict[str, Any] = {
        "page": reverse("table:sheet", args=[game.pk]),
        "state": reverse("table:api-game", args=[game.pk]),
        "dice": reverse("table:api-dice", args=[game.pk]),
        "choice": reverse("table:api-choice", args=[game.pk]),
        "undo": reverse("table:api-undo", args=[game.pk]),
        "finish": reverse("table:api-finish", args=[game.pk]),
        "abandon": reverse("table:api-abandon", args=[game.pk]),
        "dice_file": reverse("table:api-dice-file", args=[game.pk]),
        "team_files": {
            side: reverse("table:api-team-file", args=[game.pk, side]) for side in ("home", "away")
        },
        "league_game": None,
    }
    if game.league_game_id is not None:
        urls["league_game"] = reverse("game", args=[game.league_game_id])
    return urls


def table_state(
    game: TableGame,
    position: Sheet,
    plays_since: int | None = None,
    entry_note: Callable[[Sequence[dict[str, Any]]], str] | None = None,
) -> dict[str, Any]:
    """Return everything the score sheet page shows, for the page and the API alike.

    With ``plays_since`` (the incremental answer: ``?plays_since=N``) ``plays`` holds only
    the plays from the N-th on, and always the game's last play (``plays_from``: N, or the
    last play's index when the game has no more since an undo); the client keeps its first
    ``plays_from`` plays and puts these after them. ``plays_count`` is how many plays the
    game has. A play before the last never changes but by an undo, which takes plays off
    the end and may shorten the play it leaves last (a trip's last die taken back), so a
    client that asks from its last play (which may have grown) is whole again.

    ``entry_note`` (the dice answer's) says what an entry did from the game's whole plays.
    """
    state = position.state()
    labels = state.pop("labels")
    odds = state.get("odds") or {}
    if not odds.get("available") and game.status == TableGame.Status.PLAYING:
        # No live odds (grid court simulates its odds): the teams' chances before the
        # game, as the matchup page gives them, once worked out in the background.
        pre = other_odds.pairing_if_kept(
            game.game, game.options, game.home_team_file, game.away_team_file
        )
        if pre is not None:
            state["odds"] = {
                **odds,
                "pregame_home": pre.p_home_win,
                "pregame_note": f"Before the game: {labels['home']} {pre.p_home_win:.1%}, "
                f"{labels['away']} {pre.p_away_win:.1%} (each team's coach style; "
                + (
                    f"{pre.games:,} games simulated, one standard error {pre.standard_error:.1%})."
                    if pre.method == "simulated"
                    else "exact)."
                ),
            }
    if game.status == TableGame.Status.ABANDONED:
        # Its sheet says no more what to do next: nothing is done next.
        state["period"] = "Abandoned: no more dice are taken"
    plays = state.pop("plays")
    start = 0 if plays_since is None else max(0, min(plays_since, len(plays) - 1))
    return {
        "id": game.pk,
        "game": game.game,
        "game_title": find_game(game.game).title,
        "options": dict(game.options),
        "status": game.status,
        "status_text": game.get_status_display(),
        "home": {"label": labels["home"], "team_id": game.home_id},
        "away": {"label": labels["away"], "team_id": game.away_id},
        "rules": game.rules,
        **state,
        "plays": plays[start:],
        "plays_from": start,
        "plays_count": len(plays),
        # The entries typed: the dice and the choices made by hand (an entry's "expected").
        "count": game.entries,
        "hands": list(game.hands),
        "choices": [{"after": at, "choice": token} for at, token in game.choices],
        "questions": game.questions,
        # How the dice may be typed: the page reads an entry as the API does.
        "entry": entry_of(position).to_json(),
        # Which rolls an entry's dice went to, when more than one (a die past the roll asked
        # for begins the next): the dice answer's alone (``services.entry_overrun``).
        "entry_note": entry_note(plays) if entry_note is not None else "",
        "urls": _urls(game),
    }
