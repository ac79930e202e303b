"""The fans' pages: read-only, no login, built from what was stored."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Min, OuterRef, Prefetch, Q
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe

from cards.models import Player, Team
from cards.presentation import card_face
from cards.styles import team_styles
from core.caching import public_headers, public_page, waiting
from core.filters import SEARCH_WORDS
from league import (
    columns,
    gamestats,
    odds,
    realseasons,
    replays,
    selectors,
    services,
    stories,
    tournaments,
)
from league.bracket import WinnerOf
from league.games import league_game
from league.models import ROW_FIELDS, BoxLine, Game, League, RulesPreset, Season, SimulationRun
from league.presentation import box_score
from league.templatetags.odds_panels import game_odds_panel, panel_pending
from simulator.games import DEFAULT_GAME, find_game, game_choices, game_names


def while_running(response: HttpResponse, progress: dict[str, Any]) -> HttpResponse:
    """Keep a page that follows a run out of every cache while the run goes on.

    Such a page polls the run's progress and reloads itself when a game is stored or the
    run ends; a copy a few seconds old (``core.caching``: fans' pages are public for
    ``FAN_PAGE_MAX_AGE``) would show it the same run again and reload it every two seconds
    until the copy expired. Once the run ends the page is public again."""
    if progress["run"]:
        add_never_cache_headers(response)
    return response


def _season_progress(season: Season) -> dict[str, Any]:
    return _seasons_progress([season])[season.pk]


def _seasons_progress(seasons: list[Season]) -> dict[int, dict[str, Any]]:
    """Return each season's games, final games and running run: two queries however many
    seasons and games (the home page and the seasons list show every season's)."""
    ids = [s.pk for s in seasons]
    counts = {
        row["season_id"]: row
        for row in Game.objects.filter(season_id__in=ids)
        .order_by()
        .values("season_id")
        .annotate(total=Count("id"), final=Count("id", filter=Q(status=Game.Status.FINAL)))
    }
    runs: dict[int, SimulationRun] = {}
    for run in SimulationRun.objects.filter(
        season_id__in=ids, status=SimulationRun.Status.RUNNING
    ).order_by("-created_at", "-id"):
        runs.setdefault(run.season_id, run)
    for run in runs.values():  # a run nothing has moved for says so (one query a run)
        run.stalled = services.run_stalled(run)  # type: ignore[attr-defined]
    progress = {}
    for season in seasons:
        row: dict[str, Any] = dict(counts.get(season.pk, {}))
        total, final = row.get("total", 0), row.get("final", 0)
        if season.bracket:
            # A tournament's later rounds are drawn as it goes: count every game of its bracket.
            total = max(total, len(tournaments.season_bracket(season).games))
        progress[season.pk] = {"total": total, "final": final, "run": runs.get(season.pk)}
    return progress


def _scored(games: Any) -> Any:
    """Return games with their teams and the cheap columns of their results (the scores,
    overtimes): the stored documents (team files, play-by-play, dice, rules) are left in
    the database, never decoded to print a score."""
    # created_at too: SQLite keeps it after the documents, so reading it reads them from disk.
    return games.select_related("home", "away", "result").defer(
        *RESULT_HEAVY_FIELDS, "result__created_at"
    )


@public_page
def home(request: HttpRequest) -> HttpResponse:
    seasons = list(Season.objects.select_related("league").order_by("-created_at")[:20])
    progress = _seasons_progress(seasons)
    latest = _scored(
        Game.objects.filter(status=Game.Status.FINAL).select_related("season__league")
    ).order_by("-played_at", "-pk")[:15]
    return render(
        request,
        "pages/home.html",
        {
            "leagues": League.objects.order_by("name"),
            "seasons": [(s, progress[s.pk]) for s in seasons],
            "latest": latest,
            "teams": Team.objects.count(),
        },
    )


SCHEDULE_PAGE_GAMES = 50
"""The most games a page of a season's schedule lists: whole rounds, as many as fit (a
round bigger than this is a page of its own)."""

NO_ROUND = "other"
"""The ``?round=`` of the games scheduled outside any round."""


@public_page
def season_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's page: standings, one page of the schedule (whole rounds, by default the
    latest round with a result; ``?round=N`` the page holding round N) and team stats.
    Its queries are the same few at 60 games as at 5,000: the schedule's rounds are counted
    in one grouped query, the stats come from the cache (``selectors.season_cached``)."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if season.kind == Season.Kind.TOURNAMENT and season.bracket:
        return tournament_detail(request, season)
    pages = _schedule_pages(season)
    page = _schedule_page(pages, request.GET.get("round"))
    games = season.games.none()
    if page is not None:
        numbers = [r["round"] for r in page["rounds"]]
        in_page = Q(round__in=[n for n in numbers if n is not None])
        if None in numbers:
            in_page |= Q(round__isnull=True)
        games = _scored(season.games.filter(in_page)).order_by(
            "round", "game_date", "bracket_key", "pk"
        )
    rounds: dict[Any, list[Game]] = {}
    for game in games:
        rounds.setdefault(game.round, []).append(game)
    index = pages.index(page) if page is not None else 0
    progress = _season_progress(season)
    response = render(
        request,
        "pages/season.html",
        {
            "season": season,
            "progress": progress,
            "tables": _season_tables(season),
            "rounds": rounds,
            "schedule": {
                "page": page,
                "pages": pages,
                "previous": pages[index - 1] if index > 0 else None,
                "next": pages[index + 1] if index + 1 < len(pages) else None,
                "all_rounds": [r for p in pages for r in p["rounds"]],
            },
        },
    )
    return while_running(response, progress)


def _season_tables(season: Season) -> dict[str, SafeString]:
    """The season page's standings and team stats, rendered once per stored game (or
    rename, or moved conference: ``selectors.standings_fingerprint``) and kept in the cache:
    a table a row per team is the same for every visitor until then."""
    fingerprint = selectors.standings_fingerprint(season)
    key = f"season-tables:{season.pk}:{fingerprint}"
    tables = cache.get(key)
    if tables is None:
        context = {
            "season": season,
            "standings": _standings_tables(season, fingerprint),
            **_team_stats(season),
        }
        tables = {
            part: render_to_string(f"pages/_season_{part}.html", context)
            for part in ("standings", "team_stats")
        }
        cache.set(key, tables, settings.STANDINGS_CACHE_SECONDS)
    # Our own templates' output, escaped as they were rendered.
    return {part: mark_safe(html) for part, html in tables.items()}


def _schedule_pages(season: Season) -> list[dict[str, Any]]:
    """Split a season's rounds into pages of whole rounds of at most ``SCHEDULE_PAGE_GAMES``
    games, each round with its games, final games and dates (one grouped query)."""
    rows: list[dict[str, Any]] = [
        dict(row)
        for row in season.games.order_by()
        .values("round")
        .annotate(
            games=Count("id"),
            final=Count("id", filter=Q(status=Game.Status.FINAL)),
            first_date=Min("game_date"),
        )
    ]
    rows.sort(key=lambda r: (r["round"] is None, r["round"] or 0))
    pages: list[dict[str, Any]] = []
    for row in rows:
        row["key"] = NO_ROUND if row["round"] is None else str(row["round"])
        row["label"] = "Other games" if row["round"] is None else f"Round {row['round']}"
        page = pages[-1] if pages else None
        if page is None or page["games"] + row["games"] > SCHEDULE_PAGE_GAMES:
            page = {"rounds": [], "games": 0, "final": 0}
            pages.append(page)
        page["rounds"].append(row)
        page["games"] += row["games"]
        page["final"] += row["final"]
    for page in pages:
        first, last = page["rounds"][0], page["rounds"][-1]
        page["key"] = first["key"]
        page["label"] = (
            first["label"]
            if first is last
            else f"Rounds {first['round']}-{last['round']}"
            if last["round"] is not None
            else f"{first['label']} to {last['label'].lower()}"
        )
    return pages


def _schedule_page(pages: list[dict[str, Any]], asked: str | None) -> dict[str, Any] | None:
    """Return the page holding round ``asked`` (a 404 naming it when there is none), or by
    default the page of the latest round with a result (the first page before any)."""
    if asked is not None:
        for page in pages:
            if any(r["key"] == asked.strip() for r in page["rounds"]):
                return page
        keys = [r["key"] for page in pages for r in page["rounds"] if r["key"] != NO_ROUND]
        rounds = f": its rounds are {keys[0]} to {keys[-1]}" if keys else ": it has no games yet"
        raise Http404(
            f"This season has no round {asked[:20]!r}{rounds} (the season's page lists them)."
        )
    played = [page for page in pages if page["final"]]
    if played:
        return played[-1]
    return pages[0] if pages else None


SPLITS = (
    ("conf_record", "Conf", "conference record"),
    ("home_record", "Home", "record at home"),
    ("away_record", "Away", "record away"),
    ("neutral_record", "Neutral", "record on neutral courts"),
)


def _standings_tables(season: Season, fingerprint: str) -> list[dict[str, Any]]:
    """The season page's standings: each table with only the splits its teams played (no
    "Neutral 0-0" column in a home-and-away season); a conference's table is ordered by the
    conference record (``league.standings``)."""
    tables = []
    for conference, rows in selectors.cached_standings(season, fingerprint=fingerprint):
        splits = [s for s in SPLITS if any(row[s[0]] != "0-0" for row in rows)]
        if conference and splits and splits[0][0] == "conf_record":
            # The record a conference's table is ordered by comes first, beside the team:
            # on a phone the columns past W-L scroll out of sight.
            splits = splits[1:]
            lead = [SPLITS[0]]
        else:
            lead = []
        tables.append(
            {
                "conference": conference,
                "conference_played": any(row["conf_record"] != "0-0" for row in rows),
                "lead": lead,
                "splits": splits,
                "rows": [
                    {
                        **row,
                        "lead": [row[key] for key, _, _ in lead],
                        "splits": [row[key] for key, _, _ in splits],
                    }
                    for row in rows
                ],
            }
        )
    return tables


def _team_stats(season: Season) -> dict[str, Any]:
    """The season page's team stats: VABG's columns, or another game's own (per game), from
    the cache (``selectors.season_cached``)."""
    if find_game(season.game).has_players:
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
    each game's short story, the upsets by seed and the leaders (no standings). The results
    part reads every game's play-by-play to tell its story, so it is rendered once per stored
    game (or rename) and kept in the cache (``selectors.season_version``)."""
    progress = _season_progress(season)
    version = selectors.season_version(season.pk)
    key = f"tournament-page:{season.pk}:{version}:{progress['total']}"
    cached = cache.get(key)
    if cached is None:
        page = stories.tournament_page(season)
        body = render_to_string(
            "pages/_tournament_body.html", {"season": season, "progress": progress, **page}
        )
        cached = (str(body), page["champion"])
        cache.set(key, cached, settings.STANDINGS_CACHE_SECONDS)
    body, champion = cached
    response = render(
        request,
        "pages/tournament.html",
        {
            "season": season,
            "progress": progress,
            "champion": champion,
            "body": mark_safe(body),  # our own template's output, escaped there
            "games_to_come": tournaments.games_to_come(season=season),
        },
    )
    return while_running(response, progress)


@public_page
def seasons_list(request: HttpRequest, kind: str = "") -> HttpResponse:
    """Every league with its seasons (or only the tournaments), newest first."""
    seasons = Season.objects.select_related("league").order_by("league__name", "-created_at")
    if kind:
        seasons = seasons.filter(kind=kind)
    listed = list(seasons)
    progress = _seasons_progress(listed)
    leagues: dict[League, list[tuple[Season, dict[str, Any]]]] = {}
    for season in listed:
        leagues.setdefault(season.league, []).append((season, progress[season.pk]))
    title = "Tournaments" if kind == Season.Kind.TOURNAMENT else "Leagues and seasons"
    return render(request, "pages/seasons.html", {"leagues": leagues, "title": title, "kind": kind})


def tournaments_list(request: HttpRequest) -> HttpResponse:
    return seasons_list(request, kind=Season.Kind.TOURNAMENT)


LEADER_SEASONS = 12  # the other seasons a leaders page links, newest first


def _seasons_with_leaders(*, exclude: int) -> list[Season]:
    """The newest seasons with a game played (so leaders to show), but ``exclude``: the
    leaders page's way to the others, one query whatever the league's size."""
    played = Game.objects.filter(season=OuterRef("pk"), status=Game.Status.FINAL)
    return list(
        Season.objects.filter(Exists(played))
        .exclude(pk=exclude)
        .select_related("league")
        .order_by("-created_at", "-pk")[:LEADER_SEASONS]
    )


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
        else {
            "id": run.pk,
            "done": run.done,
            "total": run.total,
            "percent": run.percent,
            "stalled": run.stalled,
        }
    )
    return JsonResponse(progress)


@public_page
def leaders(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    per_game = request.GET.get("totals") != "1"
    version = selectors.season_version(season.pk)
    boards = gamestats.leader_boards(season, per_game=per_game, version=version)
    played = season.games.filter(status=Game.Status.FINAL).exists()
    context = {
        "season": season,
        "others": _seasons_with_leaders(exclude=season.pk),
        "boards": boards,
        "per_game": per_game,
        "played": played,
        "minimum": gamestats.minimum_games(season, version=version),
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
    complete = True
    if result is not None:
        key = f"game-page:{game.pk}:{result.pk}:{result.created_at.timestamp()}:{names_key(game)}"
        played = cache.get(key)
        if played is None:
            played, complete = _played_part(_vabg_game(game.pk))
            if complete:
                cache.set(key, played, settings.GAME_PAGE_CACHE_SECONDS)
    context = {"game": game, "played": played, "heading": stories.game_heading(game)}
    response = render(request, "pages/game.html", context)
    if result is not None and complete:
        final_page_headers(response, result.created_at)
    elif not complete:
        waiting(request)  # its chart is being drawn: the page looks again in a second
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
        public_headers(response, settings.GAME_PAGE_MAX_AGE)
    response.headers["Last-Modified"] = http_date(stored_at.timestamp())


def _played_part(game: Game) -> tuple[SafeString, bool]:
    """Render a played game's part of its page; say whether it is complete (its chart is
    drawn, or cannot be), so that it may be kept."""
    panel = game_odds_panel(game)
    box = box_score(
        game, player_url=lambda line: reverse("player", args=[line.player_id]), starters=True
    )
    # Every die in the order rolled, on its play's line ("Show the dice"): the game played
    # once more, here only, where the page is rendered (kept per result in the cache).
    lines = stories.game_lines(game, dice=replays.vabg_dice(game, game.result))
    story = stories.game_story(game, box=box, lines=lines) if box is not None else None
    html = render_to_string(
        "pages/_game_played.html",
        {
            "game": game,
            "box": box,
            "story": story,
            "plays": lines,
            "lead_changes": sum(1 for line in lines if line.lead_change),
            "odds": panel,
        },
    )
    return mark_safe(html), not panel_pending(panel)


def _story_of(request: HttpRequest, pk: int) -> tuple[stories.GameStory, Any, str]:
    game = _vabg_game(pk)
    if not league_game(game.game).tells_stories:
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


@public_page
def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket as a picture: a column per round, one section per region."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if season.kind != Season.Kind.TOURNAMENT or not season.bracket:
        raise Http404("This season is not a tournament.")
    progress = _season_progress(season)
    finished = bool(progress["total"]) and progress["final"] == progress["total"]
    # A finished tournament's bracket changes only with a rename: kept in the cache.
    key = f"bracket-page:{season.pk}:{selectors.season_version(season.pk)}" if finished else ""
    drawn = cache.get(key) if key else None
    if drawn is None:
        drawn = _bracket_drawn(season)
        if key:
            cache.set(key, drawn, settings.STANDINGS_CACHE_SECONDS)
    response = render(
        request,
        "pages/bracket.html",
        {"season": season, **drawn, "progress": progress},
    )
    return while_running(response, progress)


def _named(slot: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return a bracket slot with its team's school and year apart: a narrow slot cuts the
    school short, never the year (Michigan State 1979 and 2009 are both in the field)."""
    if slot is None:
        return None
    school, _, year = str(slot["team"]).rpartition(" ")
    return {**slot, "school": school or year, "year": year if school else ""}


def _bracket_drawn(season: Season) -> dict[str, Any]:
    view = tournaments.bracket_view(season)
    links = _bracket_links(tournaments.season_bracket(season))
    for round_ in view["rounds"]:
        for game in round_["games"]:
            game["slots"] = [_named(game["top"]), _named(game["bottom"])]
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
    return {"view": view, "sections": sections, "path": _champion_path(view)}


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
        words = query.split()[:SEARCH_WORDS]  # as the API's ?search= reads them
        team_filter = Q()
        for word in words:
            team_filter &= Q(school__icontains=word) | Q(season__icontains=word)
        teams = Team.objects.filter(team_filter).order_by(Lower("school"), "season")
        # Each word in the player's name or his team's ("kentucky davis", "Davis 2012"), as
        # the API's ?search= reads it: the whole query in the name alone found neither.
        player_filter = Q()
        for word in words:
            player_filter &= (
                Q(name__icontains=word)
                | Q(team__school__icontains=word)
                | Q(team__season__icontains=word)
            )
        players = Player.objects.filter(player_filter).select_related("team")
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


@public_page
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


@public_page
def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        Team.objects.prefetch_related(
            Prefetch("players", queryset=Player.objects.select_related("card", "team"))
        ),
        pk=pk,
    )
    players = sorted(team.players.all(), key=lambda p: (p.order, p.name))
    faces = [card_face(p.card) for p in players if hasattr(p, "card")]
    games = _scored(
        Game.objects.filter(Q(home=team) | Q(away=team), status=Game.Status.FINAL).select_related(
            "season__league"
        )
    ).order_by("season_id", "round", "game_date", "pk")
    games_page = _latest_page(games, request.GET.get("results"))
    results = []
    for game in games_page:
        home_side = game.home_id == team.pk
        mine = game.result.home_score if home_side else game.result.away_score
        theirs = game.result.away_score if home_side else game.result.home_score
        opponent = game.away if home_side else game.home
        where = "neutral" if game.neutral else ("home" if home_side else "away")
        results.append((game, opponent, where, "W" if mine > theirs else "L", mine, theirs))
    seasons = list(Season.objects.filter(entries__team=team).select_related("league"))
    versions = selectors.season_versions([s.pk for s in seasons])
    return render(
        request,
        "pages/team.html",
        {
            "team": team,
            "real": realseasons.team_real_season(school=team.school, season=team.season),
            "styles": [(find_game(name).title, style) for name, style in team_styles(team).items()],
            "faces": faces,
            "results": results,
            "results_page": games_page,
            "stats": [
                (
                    s,
                    selectors.with_current_names(
                        selectors.team_player_rows(s.pk, team.pk, version=versions[s.pk])
                    ),
                )
                for s in seasons
            ],
        },
    )


@public_page
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("team", "card"), pk=pk)
    face = card_face(player.card) if hasattr(player, "card") else None
    # His seasons are his team's and any he played in for another team (a player moved to
    # another team in the admin keeps the games he played for the first): each with a row
    # for every team he played for, as his game log lists every game.
    played = set(
        BoxLine.objects.filter(player_id=player.pk, result__game__season__isnull=False)
        .order_by()
        .values_list("result__game__season_id", "team_id")
        .distinct()
    )
    seasons = list(
        Season.objects.filter(Q(entries__team=player.team) | Q(pk__in={s for s, _ in played}))
        .distinct()
        .select_related("league")
    )
    versions = selectors.season_versions([s.pk for s in seasons])
    teams = {
        s.pk: [player.team_id, *sorted(t for pk, t in played if pk == s.pk and t != player.team_id)]
        for s in seasons
    }
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
                (
                    s,
                    [
                        r
                        for team_id in teams[s.pk]
                        for r in selectors.team_player_rows(s.pk, team_id, version=versions[s.pk])
                        if r["player_id"] == player.pk
                    ],
                )
                for s in seasons
            ],
            "log": _game_log(player.pk, request.GET.get("games")),
        },
    )


def _game_log(player_id: int, asked: str | None) -> Page[Any]:
    """A page of a player's lines game by game (the latest by default, ``_latest_page``),
    each with its result as the player's team saw it."""
    lines = _latest_page(selectors.player_game_log(player_id=player_id), asked)
    brackets_read: dict[int, Any] = {}
    for line in lines:
        result = line.result
        game = result.game
        # A tournament's game has no date of its own (the day it was simulated is no
        # date of the tournament's): its round says when it came.
        line.round_name = ""
        if game.bracket_key and game.season is not None and game.season.bracket:
            if game.season_id not in brackets_read:
                brackets_read[game.season_id] = tournaments.season_bracket(game.season)
            line.round_name = tournaments.round_name(brackets_read[game.season_id], game.round)
        mine, theirs = (
            (result.home_score, result.away_score)
            if line.side == "home"
            else (result.away_score, result.home_score)
        )
        line.outcome = f"{'W' if mine > theirs else 'L'} {mine}-{theirs}"
    return lines


GAMES_PAGE = 40
"""The most games a team's results or a player's game log list on one page."""


def _latest_page(rows: Any, asked: str | None) -> Page[Any]:
    """Return page ``asked`` of ``rows`` (in the order played, ``GAMES_PAGE`` a page), by
    default the last one, the latest games: a count and one page's rows, however many
    games a team has played (an unknown page number shows the nearest page)."""
    paginator = Paginator(rows, GAMES_PAGE)
    return paginator.get_page(asked or paginator.num_pages)


# -- exact odds (issue 13): the matchup page and a season's odds -----------------------------


class MatchupForm(forms.Form):
    """Two teams, the rules preset and the court of a game a fan wants the odds of."""

    # In the order a reader looks for a name: "La Salle" before "LSU", whatever the case.
    away = forms.ModelChoiceField(Team.objects.order_by(Lower("school"), "school", "season"))
    home = forms.ModelChoiceField(Team.objects.order_by(Lower("school"), "school", "season"))
    # A link that names only the teams gets the form's defaults; a value not offered is
    # refused, saying which.
    rules = forms.ChoiceField(
        choices=RulesPreset.choices, initial=RulesPreset.ADVANCED, required=False
    )
    court = forms.ChoiceField(
        choices=[("home", "Home court"), ("neutral", "Neutral court")],
        initial="home",
        required=False,
    )
    strategy = forms.BooleanField(
        required=False,
        label="Coach policy",
        help_text="Late intentional fouls, tries for 3 and fast-break extra possessions.",
    )
    game = forms.ChoiceField(choices=game_choices(), initial=DEFAULT_GAME, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each other game's rule options with a choice to make (grid court's pieces, six
        # dice's chip reroll...), named "<game>_<option>": its game reads them, no other.
        for name in game_names():
            for option in find_game(name).options:
                if option.name in ROW_FIELDS or len(option.choices) < 2:
                    continue
                label = option.name.replace("_", " ")
                key = f"{name}_{option.name}"
                if option.choices == (False, True):
                    self.fields[key] = forms.BooleanField(
                        required=False, label=label, help_text=option.help
                    )
                else:
                    self.fields[key] = forms.TypedChoiceField(
                        choices=[(str(c), str(c)) for c in option.choices],
                        coerce=dict((str(c), c) for c in option.choices).__getitem__,
                        initial=str(option.default),
                        required=False,
                        empty_value=option.default,
                        label=label,
                        help_text=option.help,
                    )

    def option_fields(self) -> list[tuple[str, str, list[Any]]]:
        """Return ``(game, its title, its option fields)`` of each game with options."""
        out = []
        for name in game_names():
            fields = [self[k] for k in self.fields if k.startswith(f"{name}_")]
            if fields:
                out.append((name, find_game(name).title, fields))
        return out

    def game_options(self) -> dict[str, Any]:
        """Return the chosen game's options, as its rules read them."""
        data, game = self.cleaned_data, self.cleaned_data["game"]
        prefix = f"{game}_"
        return {k.removeprefix(prefix): v for k, v in data.items() if k.startswith(prefix)}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("home") is not None and data.get("home") == data.get("away"):
            raise forms.ValidationError("Pick two different teams.")
        for name in ("rules", "court", "game"):
            if name in data and not data[name]:
                data[name] = self.fields[name].initial
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
                game=data["game"],
                options=form.game_options(),
            )
        except odds.OddsUnavailable as exc:
            error = f"No odds for this game: {exc}"
    return render(request, "pages/matchup.html", {"form": form, "preview": preview, "error": error})


def season_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's odds of finishing first and at each place, sampled from the pair table."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    if season.kind == Season.Kind.TOURNAMENT:
        return redirect("bracket", pk=season.pk)
    # Sampled once for everything it reads (the stored results and names, the cards, the
    # games left as scheduled, the engine), by the background: never while the fan waits.
    result = odds.season_odds_page(season)
    pending = result if result.get("pending") else None
    if pending or result.get("updating"):
        waiting(request)  # it looks again in a few seconds: no front cache keeps it
    return render(
        request,
        "pages/season_odds.html",
        {"season": season, "odds": None if pending else result, "pending": pending},
    )
