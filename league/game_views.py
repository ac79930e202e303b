"""The fans' pages of games other than VABG: box score in the game's own columns, replay.

``/games/ID/`` comes here first: a game with players (VABG) is ``league.views.game_detail``'s
page as ever; a grid-court or six-dice game gets its own page, whose box score shows the columns
its engine names (``simulator.games``). A six-dice game has a replay, turn by turn.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from core.caching import is_waiting, waiting
from league import background, odds, other_odds, replays, stories, views
from league.games import league_game
from league.models import Game, Season
from simulator.games import find_game


def _game(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("home", "away", "season__league", "result"), pk=pk
    )


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's page: VABG's as before; another game's box score and play-by-play."""
    game = views.game_page_game(pk)
    if find_game(game.game).has_players:  # its players' box lines, story and odds
        return views.game_detail(request, game)
    game = _game(pk)  # another game's page reads its stored box score and events
    result = getattr(game, "result", None)
    before = _odds_before(game) if result is not None else None
    context = {
        "game": game,
        "heading": stories.game_heading(game),
        "box": replays.game_box(game, result) if result is not None else None,
        "plays": replays.play_by_play(game, result) if result is not None else [],
        "has_replay": result is not None,
        "styles": other_odds.styles_played(game),
        "before": before,
    }
    if (before or {}).get("pending"):
        waiting(request)  # it looks again for its odds before the game: no cache keeps it
    response = render(request, "pages/games/game.html", context)
    # (the chart of a six-dice game being drawn marks the request waiting as it renders)
    if result is not None and not is_waiting(request):
        views.final_page_headers(response, result.created_at)
    return response


def _odds_before(game: Game) -> dict[str, Any] | None:
    """Return a played game's odds as they stood before it, for a game with no odds during
    a game (grid court): the preview between the styles it was played with (or how far
    their working out is); ``None`` where the page charts the odds roll by roll."""
    kind = league_game(game.game)
    if kind.odds_during_game or not kind.has_odds:
        return None
    if not background.available() and not other_odds.pairing_kept(game):
        return None  # no worker to send it to (a command, a test): no 1,000 games in a page
    try:
        return odds.game_preview(game)
    except odds.OddsUnavailable:
        return None


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A game turn by turn: six dice's court strip, pawn, chip and dice; grid court's board."""
    game = _game(pk)
    result = getattr(game, "result", None)
    kind = league_game(game.game)
    if not kind.replay_template or result is None:
        raise Http404("Only a played grid-court or six-dice game has a replay.")
    try:
        turn = int(request.GET.get("turn", "1"))
    except ValueError:
        turn = 1
    view = kind.replay_view(game, result, turn)
    if not view.frames:
        raise Http404("This game has no rolls to replay.")
    return render(request, kind.replay_template, {"game": game, "replay": view})


def season_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's odds page, from its game's own odds; a game without odds has none."""
    season = get_object_or_404(Season.objects.only("pk", "game"), pk=pk)
    kind = find_game(season.game)
    if not kind.has_odds:
        raise Http404(f"{kind.title} has no odds.")
    return views.season_odds(request, pk)
