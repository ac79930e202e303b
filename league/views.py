"""The fans' pages: read-only, no login, built from what was stored."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe

from cards.models import Player, Team
from cards.presentation import card_face
from league import columns, gamestats, odds, realseasons, selectors, stories, tournaments
from league.bracket import WinnerOf
from league.models import Game, GameName, League, RulesPreset, Season, SimulationRun
from league.presentation import box_score


def _season_progress(season: Season) -> dict[str, Any]:
    counts = season.games.aggregate(
        total=Count("id"), final=Count("id", filter=Q(status=Game.Status.FINAL))
    )
    if season.bracket:
        # A tournament's later rounds are drawn as it goes: count every game of its bracket.
        counts["total"] = max(counts["total"], len(tournaments.season_bracket(season).games))
    run = season.runs.filter(status=SimulationRun.Status.RUNNING).first()
    return {**counts, "run": run}


def home(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.select_related("league").order_by("-created_at")[:20]
    latest = (
        Game.objects.filter(status=Game.Status.FINAL)
        .select_related("home", "away", "result", "season__league")
        .order_by("-played_at", "-pk")[:15]
    )
    return render(
        request,
        "pages/home.html",
        {
            "leagues": League.objects.order_by("name"),
            "seasons": [(s, _season_progress(s)) for s in seasons],
            "latest": latest,
            "teams": Team.objects.count(),
        },
    )


def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if season.kind == Season.Kind.TOURNAMENT and season.bracket:
        return tournament_detail(request, season)
    games = selectors.games_for_season(season_id=season.pk)
    rounds: dict[Any, list[Game]] = {}
    for game in games:
        rounds.setdefault(game.round, []).append(game)
    return render(
        request,
        "pages/season.html",
        {
            "season": season,
            "progress": _season_progress(season),
            "standings": _standings_tables(season),
            "rounds": rounds,
            **_team_stats(season),
        },
    )


SPLITS = (
    ("conf_record", "Conf", "conference record"),
    ("home_record", "Home", "record at home"),
    ("away_record", "Away", "record away"),
    ("neutral_record", "Neutral", "record on neutral courts"),
)


def _standings_tables(season: Season) -> list[dict[str, Any]]:
    """The season page's standings: each table with only the splits its teams played (no
    "Neutral 0-0" column in a home-and-away season); a conference's table is ordered by the
    conference record (``league.standings``)."""
    tables = []
    for conference, rows in selectors.cached_standings(season):
        splits = [s for s in SPLITS if any(row[s[0]] != "0-0" for row in rows)]
        tables.append(
            {
                "conference": conference,
                "splits": splits,
                "rows": [{**row, "splits": [row[key] for key, _, _ in splits]} for row in rows],
            }
        )
    return tables


def _team_stats(season: Season) -> dict[str, Any]:
    """The season page's team stats: VABG's columns, or another game's own (per game)."""
    if season.game == GameName.VABG:
        return {"team_stats": selectors.team_season_stats(season_id=season.pk)}
    table = gamestats.team_stats(season)
    return {
        "team_stats": table.rows,
        "team_stat_columns": [
            columns.Column(c.label, f"{c.key}_pg", columns.DECIMAL, 2, title=c.title)
            if c.key in table.rates
            else columns.Column(c.label, f"{c.key}_pg", columns.DECIMAL, 1, title=c.title)
            for c in table.columns
        ],
    }


def tournament_detail(request: HttpRequest, season: Season) -> HttpResponse:
    """A tournament's own page: the champion, the bracket, the results round by round with
    each game's short story, the upsets by seed and the leaders (no standings)."""
    return render(
        request,
        "pages/tournament.html",
        {
            "season": season,
            "progress": _season_progress(season),
            **stories.tournament_page(season),
        },
    )


def seasons_list(request: HttpRequest, kind: str = "") -> HttpResponse:
    """Every league with its seasons (or only the tournaments), newest first."""
    seasons = Season.objects.select_related("league").order_by("league__name", "-created_at")
    if kind:
        seasons = seasons.filter(kind=kind)
    leagues: dict[League, list[tuple[Season, dict[str, Any]]]] = {}
    for season in seasons:
        leagues.setdefault(season.league, []).append((season, _season_progress(season)))
    title = "Tournaments" if kind == Season.Kind.TOURNAMENT else "Leagues and seasons"
    return render(request, "pages/seasons.html", {"leagues": leagues, "title": title, "kind": kind})


def tournaments_list(request: HttpRequest) -> HttpResponse:
    return seasons_list(request, kind=Season.Kind.TOURNAMENT)


def latest_leaders(request: HttpRequest) -> HttpResponseBase:
    """The leaders of the season with the latest final game (the seasons list without one)."""
    game = (
        Game.objects.filter(status=Game.Status.FINAL, season__isnull=False)
        .order_by("-played_at", "-pk")
        .only("season_id")
        .first()
    )
    if game is None or game.season_id is None:
        return redirect("seasons")
    return redirect("leaders", pk=game.season_id)


def season_progress(request: HttpRequest, pk: int) -> JsonResponse:
    """The progress of a season's simulation, polled by its pages."""
    season = get_object_or_404(Season, pk=pk)
    progress = _season_progress(season)
    run = progress.pop("run")
    progress["run"] = (
        None
        if run is None
        else {"id": run.pk, "done": run.done, "total": run.total, "percent": run.percent}
    )
    return JsonResponse(progress)


def leaders(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    per_game = request.GET.get("totals") != "1"
    boards = gamestats.leader_boards(season, per_game=per_game)
    played = season.games.filter(status=Game.Status.FINAL).exists()
    context = {
        "season": season,
        "boards": boards,
        "per_game": per_game,
        "played": played,
        "minimum": gamestats.minimum_games(season),
    }
    return render(request, "pages/leaders.html", context)


def _vabg_game(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("home", "away", "season__league", "result"), pk=pk
    )


# What a game's page reads of its stored result before the played part is cached: the
# score and the key. The rest (play-by-play, dice; the team files are rows of their own)
# is a few hundred kilobytes of JSON to decode, read only when the played part is rendered.
RESULT_HEAVY_FIELDS = tuple(f"result__{name}" for name in ("events", "dice", "rules", "box"))


def game_page_game(pk: int) -> Game:
    """The game of ``/games/ID/``, its result's heavy fields deferred."""
    return get_object_or_404(
        Game.objects.select_related("home", "away", "season__league", "result").defer(
            *RESULT_HEAVY_FIELDS
        ),
        pk=pk,
    )


def game_detail(request: HttpRequest, game: Game) -> HttpResponse:
    """A VABG game's page (``league.game_views.game_detail`` routes here with the game it
    loaded). A played game never changes, so its played part (story, box score, odds and
    win-probability chart, play-by-play) is rendered once and kept in the cache, keyed by
    its stored result; and its whole page may be kept by a front cache
    (``GAME_PAGE_MAX_AGE``, README "Running in production")."""
    result = getattr(game, "result", None)
    played = None
    if result is not None:
        key = f"game-page:{game.pk}:{result.pk}:{result.created_at.timestamp()}:{names_key(game)}"
        played = cache.get(key)
        if played is None:
            played = _played_part(_vabg_game(game.pk))
            cache.set(key, played, settings.GAME_PAGE_CACHE_SECONDS)
    context = {"game": game, "played": played, "heading": stories.game_heading(game)}
    response = render(request, "pages/game.html", context)
    if result is not None:
        final_page_headers(response, result.created_at)
    return response


def names_key(game: Game) -> str:
    """Return a digest of the names a game's page shows that an edit can change: both teams'
    and their players' (one small query), so a rename in the admin shows at once."""
    names = Player.objects.filter(team_id__in=(game.home_id, game.away_id)).values_list(
        "pk", "name"
    )
    teams = (game.home.school, game.home.season, game.away.school, game.away.season)
    text = repr((teams, sorted(names)))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def final_page_headers(response: HttpResponse, stored_at: datetime) -> None:
    """Mark a played game's page as one any cache may keep for ``GAME_PAGE_MAX_AGE``
    seconds: it is the same for every visitor and changes only if the game is stored again
    (a retry), and its Last-Modified lets a browser ask again with If-Modified-Since."""
    if settings.GAME_PAGE_MAX_AGE > 0:
        patch_cache_control(response, public=True, max_age=settings.GAME_PAGE_MAX_AGE)
    response.headers["Last-Modified"] = http_date(stored_at.timestamp())


def _played_part(game: Game) -> SafeString:
    box = box_score(
        game, player_url=lambda line: reverse("player", args=[line.player_id]), starters=True
    )
    lines = stories.game_lines(game)
    story = stories.game_story(game, box=box, lines=lines) if box is not None else None
    return mark_safe(
        render_to_string(
            "pages/_game_played.html",
            {
                "game": game,
                "box": box,
                "story": story,
                "plays": lines,
                "lead_changes": sum(1 for line in lines if line.lead_change),
            },
        )
    )


def _story_of(request: HttpRequest, pk: int) -> tuple[stories.GameStory, Any, str]:
    game = _vabg_game(pk)
    if not game.is_vabg:
        raise Http404("Game stories are told for VABG games.")
    box = box_score(game)
    told = stories.game_story(game, box=box) if box is not None else None
    if told is None:
        raise Http404("This game has not been played yet.")
    return told, box, request.build_absolute_uri(reverse("game", args=[game.pk]))


def game_story_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's story and box score as Markdown, to paste into a blog post."""
    told, box, url = _story_of(request, pk)
    text = stories.story_markdown(told, box, url=url)
    return HttpResponse(text, content_type="text/markdown; charset=utf-8")


def game_story_html(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's story and box score as an HTML fragment, to paste into a blog post."""
    told, box, url = _story_of(request, pk)
    return HttpResponse(
        stories.story_html(told, box, url=url), content_type="text/html; charset=utf-8"
    )


def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket as a picture: a column per round, one section per region."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if season.kind != Season.Kind.TOURNAMENT or not season.bracket:
        raise Http404("This season is not a tournament.")
    view = tournaments.bracket_view(season)
    links = _bracket_links(tournaments.season_bracket(season))
    for round_ in view["rounds"]:
        for game in round_["games"]:
            game["slots"] = [game["top"], game["bottom"]]
            game["link"], game["fed"] = links.get(game["key"], ("", False))
    regions = [g["region"] for r in view["rounds"] for g in r["games"] if g["region"]]
    sections = []
    for region in dict.fromkeys(regions):
        rounds = [
            {**r, "games": [g for g in r["games"] if g["region"] == region]} for r in view["rounds"]
        ]
        sections.append({"title": f"{region} region", "rounds": [r for r in rounds if r["games"]]})
    final = [{**r, "games": [g for g in r["games"] if not g["region"]]} for r in view["rounds"]]
    final = [r for r in final if r["games"]]
    sections.append({"title": "Final Four" if regions else "", "rounds": final})
    return render(
        request,
        "pages/bracket.html",
        {
            "season": season,
            "view": view,
            "sections": sections,
            "path": _champion_path(view),
            "progress": _season_progress(season),
        },
    )


def _champion_path(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The champion's games, round by round: whom it beat and by what score."""
    champion = view["champion"]
    if champion is None:
        return []
    path = []
    for round_ in view["rounds"]:
        for game in round_["games"]:
            slots = [game["top"], game["bottom"]]
            if game["winner_id"] != champion["team_id"] or None in slots:
                continue
            mine, theirs = slots if slots[0]["team_id"] == champion["team_id"] else slots[::-1]
            path.append(
                {"round": round_["name"], "game_id": game["game_id"], "us": mine, "them": theirs}
            )
    return path


SEARCH_LIMIT = 50
"""The most teams and the most players a search lists; the page says when there are more."""


def _bracket_links(bracket: Any) -> dict[str, tuple[str, bool]]:
    """Say how each bracket game is drawn joined to the next, as sports sites' brackets are:
    ``"pair-top"`` / ``"pair-bottom"`` when it and the game beside it feed the same next game
    in the next column, ``"straight"`` when it alone does (the other side waits seeded), ""
    for the final or a game whose winner goes to another section (a region's champion);
    and whether a line comes into it from the column before."""
    sources: dict[str, list[tuple[str, str]]] = {}
    region = {g.key: g.region for g in bracket.games}
    for game in bracket.games:
        for side, source in (("top", game.top), ("bottom", game.bottom)):
            if isinstance(source, WinnerOf) and region[source.game_key] == game.region:
                sources.setdefault(game.key, []).append((side, source.game_key))
    links: dict[str, tuple[str, bool]] = {}
    for key, fed_by in sources.items():
        for side, feeder in fed_by:
            link = "straight" if len(fed_by) == 1 else f"pair-{side}"
            links[feeder] = (link, links.get(feeder, ("", False))[1])
        links[key] = (links.get(key, ("", False))[0], True)
    return links


def search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    teams: Any = Team.objects.none()
    players: Any = Player.objects.none()
    if query:
        words = query.split()
        team_filter = Q()
        for word in words:
            team_filter &= Q(school__icontains=word) | Q(season__icontains=word)
        teams = Team.objects.filter(team_filter).order_by("school", "season")
        players = Player.objects.filter(name__icontains=query).select_related("team")
        players = players.order_by("name", "team__school")
    context = {
        "query": query,
        "teams": list(teams[:SEARCH_LIMIT]),
        "team_count": teams.count() if query else 0,
        "players": list(players[:SEARCH_LIMIT]),
        "player_count": players.count() if query else 0,
        "limit": SEARCH_LIMIT,
    }
    return render(request, "pages/search.html", context)


def teams(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "pages/teams.html",
        {
            "teams": Team.objects.annotate(players_count=Count("players")).order_by(
                "school", "season"
            )
        },
    )


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        Team.objects.prefetch_related(
            Prefetch("players", queryset=Player.objects.select_related("card", "team"))
        ),
        pk=pk,
    )
    players = sorted(team.players.all(), key=lambda p: (p.order, p.name))
    faces = [card_face(p.card) for p in players if hasattr(p, "card")]
    games = (
        Game.objects.filter(Q(home=team) | Q(away=team), status=Game.Status.FINAL)
        .select_related("home", "away", "result", "season__league")
        .order_by("season_id", "round", "game_date", "pk")
    )
    results = []
    for game in games:
        home_side = game.home_id == team.pk
        mine = game.result.home_score if home_side else game.result.away_score
        theirs = game.result.away_score if home_side else game.result.home_score
        opponent = game.away if home_side else game.home
        where = "neutral" if game.neutral else ("home" if home_side else "away")
        results.append((game, opponent, where, "W" if mine > theirs else "L", mine, theirs))
    seasons = Season.objects.filter(entries__team=team).select_related("league")
    return render(
        request,
        "pages/team.html",
        {
            "team": team,
            "real": realseasons.team_real_season(school=team.school, season=team.season),
            "faces": faces,
            "results": results,
            "stats": [
                (
                    s,
                    selectors.with_current_names(
                        list(selectors.player_season_stats(season_id=s.pk, team_id=team.pk))
                    ),
                )
                for s in seasons
            ],
        },
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("team", "card"), pk=pk)
    face = card_face(player.card) if hasattr(player, "card") else None
    seasons = Season.objects.filter(entries__team=player.team).select_related("league")
    return render(
        request,
        "pages/player.html",
        {
            "player": player,
            "real": realseasons.player_real_season(
                school=player.team.school, season=player.team.season, name=player.name
            ),
            "face": face,
            "stats": [
                (s, list(selectors.player_season_stats(season_id=s.pk, player_id=player.pk)))
                for s in seasons
            ],
            "log": _game_log(player.pk),
        },
    )


def _game_log(player_id: int) -> list[Any]:
    """A player's lines game by game, each with its result as the player's team saw it."""
    lines = list(selectors.player_game_log(player_id=player_id).defer(*RESULT_HEAVY_FIELDS))
    for line in lines:
        result = line.result
        mine, theirs = (
            (result.home_score, result.away_score)
            if line.side == "home"
            else (result.away_score, result.home_score)
        )
        line.outcome = f"{'W' if mine > theirs else 'L'} {mine}-{theirs}"  # type: ignore[attr-defined]
    return lines


# -- exact odds (issue 13): the matchup page and a season's odds -----------------------------


class MatchupForm(forms.Form):
    """Two teams, the rules preset and the court of a game a fan wants the odds of."""

    away = forms.ModelChoiceField(Team.objects.order_by("school", "season"))
    home = forms.ModelChoiceField(Team.objects.order_by("school", "season"))
    rules = forms.ChoiceField(choices=RulesPreset.choices, initial=RulesPreset.ADVANCED)
    court = forms.ChoiceField(
        choices=[("home", "Home court"), ("neutral", "Neutral court")], initial="home"
    )
    strategy = forms.BooleanField(
        required=False,
        label="Coach policy",
        help_text="Late intentional fouls, tries for 3 and fast-break extra possessions.",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("home") is not None and data.get("home") == data.get("away"):
            raise forms.ValidationError("Pick two different teams.")
        return data


def matchup(request: HttpRequest) -> HttpResponse:
    """Any two teams' exact odds: P(win), predicted score, spread, total and the laws."""
    form = MatchupForm(request.GET or None)
    preview, error = None, ""
    if form.is_valid():
        data = form.cleaned_data
        try:
            preview = odds.matchup_preview(
                home_id=data["home"].pk,
                away_id=data["away"].pk,
                rules=data["rules"],
                neutral=data["court"] == "neutral",
                strategy=data["strategy"],
            )
        except odds.OddsUnavailable as exc:
            error = f"No exact odds for this game: {exc}"
    return render(request, "pages/matchup.html", {"form": form, "preview": preview, "error": error})


def season_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's odds of finishing first and at each place, sampled from the pair table."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if season.kind == Season.Kind.TOURNAMENT:
        return redirect("bracket", pk=season.pk)
    result = odds.with_table(season, lambda: odds.season_odds(season))
    pending = result if result.get("pending") else None
    return render(
        request,
        "pages/season_odds.html",
        {"season": season, "odds": None if pending else result, "pending": pending},
    )
