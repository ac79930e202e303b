"""The API's views of leagues, seasons, tournaments, runs, games and stats.

Each view checks its input with a serializer and makes one call into ``league.services``
(writes) or ``league.selectors`` / ``league.presentation`` (reads).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django_filters.utils import translate_validation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, renderers, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cards.models import Player
from core.api import (
    WRITE_REFUSED,
    ApiViewSet,
    ErrorSerializer,
)
from core.filters import OrderingFilter
from core.parsers import JSONParser
from core.text import whole_number
from league import gamestats, presentation, selectors, services, stories, tournaments
from league.api.exports import CSVRenderer, export_schema, streamed
from league.api.filters import (
    GameFilter,
    GameLogFilter,
    LeagueFilter,
    PlayerStatsFilter,
    RunFilter,
    SeasonFilter,
)
from league.api.serializers import (
    PERCENTS,
    STATS,
    BoxScoreSerializer,
    BracketSerializer,
    ExportBoxLineSerializer,
    ExportPlayerStatsSerializer,
    GameLeaderQuerySerializer,
    GameLogSerializer,
    GameSerializer,
    GameTeamSeasonStatsSerializer,
    LeaderQuerySerializer,
    LeaderSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    PlayByPlaySerializer,
    PlayerSeasonStatsSerializer,
    RetrySerializer,
    ScoreSheetRefusedSerializer,
    ScoreSheetSerializer,
    SeasonCreatedSerializer,
    SeasonCreateSerializer,
    SeasonSerializer,
    SimulateSerializer,
    SimulationRunSerializer,
    StandingsSerializer,
    StorySerializer,
    TeamSeasonStatsSerializer,
    TeamStatsQuerySerializer,
    TournamentCreateSerializer,
)
from league.errors import GameFinal, NoPlayerLines, StoryUntold
from league.games import league_game
from league.models import BoxLine, Game, League, Season, SimulationRun
from simulator.games import find_game, game_names


class LeagueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Leagues and how many seasons each has; commissioners create them."""

    public_actions = frozenset({"list", "retrieve"})

    serializer_class = LeagueSerializer
    filterset_class = LeagueFilter
    ordering_fields = ["name", "created_at"]
    ordering = ["name"]

    def get_queryset(self) -> QuerySet[League]:
        return selectors.leagues_listed()

    @extend_schema(
        summary="Create a league (commissioners)",
        description="The slug is made from the name; a name (or slug) another league has "
        "is refused.",
        request=LeagueCreateSerializer,
        responses={201: LeagueSerializer, 400: ErrorSerializer, **WRITE_REFUSED},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        params = LeagueCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        league = services.league_create(**params.validated_data)
        league = self.get_queryset().get(pk=league.pk)
        location = reverse("api:league-detail", args=[league.pk], request=request)
        return Response(
            self.get_serializer(league).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )


class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Seasons with their teams; commissioners create them, simulate them and export them."""

    public_actions = frozenset({"list", "retrieve", "standings", "bracket"})

    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    search_fields = ["name", "league__name"]
    ordering_fields = ["name", "created_at", "start_date"]
    ordering = ["-created_at", "-id"]

    def extra_action_offered(self, extra: Any) -> bool:
        """A tournament's page offers its bracket, a league season's its standings: the
        other answers 404."""
        if not super().extra_action_offered(extra):
            return False
        if extra.__name__ not in {"standings", "bracket"}:
            return True
        pk = str(self.kwargs.get("pk", ""))
        if not whole_number(pk):  # the 404 page of an address that names no season
            return False
        return bool(self._tournament(int(pk)) == (extra.__name__ == "bracket"))

    def _tournament(self, pk: int) -> bool:
        """Tell whether the season the page shows is a tournament: read once for the menu
        (it asks of the standings and of the bracket)."""
        if not hasattr(self, "_is_tournament"):
            kind = Season.objects.filter(pk=pk).values_list("kind", flat=True).first()
            self._is_tournament = kind == Season.Kind.TOURNAMENT
        return self._is_tournament

    def get_queryset(self) -> QuerySet[Season]:
        if self.action in {
            "simulate", "retry_failed", "export_boxscores", "export_player_stats",
            "standings", "bracket",
        }:  # fmt: skip
            queryset = Season.objects.select_related("league")
            # The standings read neither the bracket nor the schedule's options.
            return queryset.defer("bracket") if self.action == "standings" else queryset
        return selectors.seasons_listed()

    @extend_schema(
        summary="Create a season and its whole schedule (commissioners)",
        description="Answers the season as /api/seasons/{id}/ does, with schedule: the "
        "schedule options it was drawn by, which the season does not keep.",
        request=SeasonCreateSerializer,
        responses={201: SeasonCreatedSerializer, 400: ErrorSerializer, **WRITE_REFUSED},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        params = SeasonCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = dict(params.validated_data)
        teams = data.pop("teams")
        grouping = data.pop("conferences")
        season = services.season_create(
            teams=teams,
            conferences={t.pk: t.conference for t in teams} if grouping == "team" else None,
            **data,
        )
        season = self.get_queryset().get(pk=season.pk)
        location = reverse("api:season-detail", args=[season.pk], request=request)
        drawn_by = ("double_round_robin", "cross_conference_games", "days_between_rounds")
        schedule = {"conferences": grouping, **{key: data[key] for key in drawn_by}}
        context = {**self.get_serializer_context(), "schedule": schedule}
        return Response(
            SeasonCreatedSerializer(season, context=context).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )

    @extend_schema(
        summary="Simulate games of the season (commissioners)",
        description="scope: game (with game), round (with round), date or until (with "
        "date), or all. Answers 202 with the run; poll /api/runs/{id}/ for its progress. "
        "The same games asked for again while their run plays answer that run (joined: "
        "true); some of them held by another run answer 409. Games all played already "
        "answer 200 with a finished run of 0 games: nothing was queued.",
        request=SimulateSerializer,
        responses={
            200: SimulationRunSerializer,
            202: SimulationRunSerializer,
            400: ErrorSerializer,
            409: ErrorSerializer,
            **WRITE_REFUSED,
        },
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def simulate(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        params = SimulateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        run = services.simulation_start(
            season=season,
            scope=data["scope"],
            round=data.get("round"),
            game_date=data.get("date"),
            game=data.get("game"),
            user=request.user,
        )
        return self._run_started(run)

    def _run_started(self, run: SimulationRun) -> Response:
        joined = run.joined
        # The games went to the workers on commit (or, with no broker, to this process's
        # own lane, or were played here in a command or a test): show where the run is.
        run.refresh_from_db()
        run.joined = joined
        body = SimulationRunSerializer(run, context=self.get_serializer_context()).data
        # The field is a Hyperlink (a str subclass) that a WSGI server may refuse as a header.
        location = str(body["url"])
        # Nothing left to play: no run to wait for, so not "accepted" (202) but done.
        answer = status.HTTP_200_OK if run.total == 0 else status.HTTP_202_ACCEPTED
        return Response(body, status=answer, headers={"Location": location})

    @extend_schema(
        summary="Play a season's failed games again, once their cause is fixed (commissioners)",
        description="The failed games (all, or those listed) are scheduled again with their "
        "attempts reset and a new run plays them (the run they failed in keeps its record); "
        "in a tournament the new run also plays the rest of the bracket. A season with no "
        "failed game, or with a run still playing them (in a tournament, any run), answers "
        "400.",
        request=RetrySerializer,
        responses={202: SimulationRunSerializer, 400: ErrorSerializer, **WRITE_REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="retry-failed", filter_backends=[])
    def retry_failed(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        params = RetrySerializer(data=request.data)
        params.is_valid(raise_exception=True)
        run = services.simulation_retry(
            season=season, game_ids=params.validated_data.get("games"), user=request.user
        )
        return self._run_started(run)

    @extend_schema(
        summary="A season's standings, one table per conference",
        description="Each table is ranked with ties broken; tiebreaker names the step that "
        "placed a team among teams level on win percentage. A tournament has no standings "
        "(its page shows none): 404, naming its bracket/.",
        responses={200: StandingsSerializer(many=True), 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        # As the season page does: a drawn bracket is read as one (the bracket is read only
        # for a tournament, so a league season's standings cost no query more).
        if season.kind == Season.Kind.TOURNAMENT and season.bracket:
            raise NotFound(
                f"{season} is a tournament: it has no standings. Its bracket is at "
                f"/api/seasons/{season.pk}/bracket/."
            )
        tables = selectors.cached_standings(season)
        body = [{"conference": conference, "rows": rows} for conference, rows in tables]
        return Response(StandingsSerializer(body, many=True).data)

    @extend_schema(
        summary="A tournament's bracket: rounds of games with teams, seeds and scores",
        description="A game not drawn yet shows the entrants known so far. A season that is "
        "not a tournament answers 404.",
        responses={200: BracketSerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def bracket(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        if season.kind != Season.Kind.TOURNAMENT or not season.bracket:
            raise NotFound(f"{season} is not a tournament: it has no bracket.")
        return Response(BracketSerializer(tournaments.bracket_view(season)).data)

    def _export(
        self,
        rows: Iterable[dict[str, Any]],
        season: Season,
        what: str,
        columns: type[serializers.Serializer[Any]],
    ) -> StreamingHttpResponse:
        name = f"{season.league.slug}-{season.slug}-{what}.csv"
        return streamed(rows, self.request.accepted_renderer.format, name, columns)

    @export_schema("A season's box scores, one row per player and game", ExportBoxLineSerializer)
    @action(
        detail=True,
        methods=["get"],
        url_path="export/boxscores",
        renderer_classes=[CSVRenderer, renderers.JSONRenderer],
        filter_backends=[],
        pagination_class=None,
    )
    def export_boxscores(
        self, request: Request, pk: str | None = None, **kwargs: Any
    ) -> StreamingHttpResponse:
        season = self.get_object()
        player_lines_kept(season)
        return self._export(
            selectors.boxscore_export_rows(season_id=season.pk),
            season,
            "boxscores",
            ExportBoxLineSerializer,
        )

    @export_schema("A season's player stats, one row per player", ExportPlayerStatsSerializer)
    @action(
        detail=True,
        methods=["get"],
        url_path="export/player-stats",
        renderer_classes=[CSVRenderer, renderers.JSONRenderer],
        filter_backends=[],
        pagination_class=None,
    )
    def export_player_stats(
        self, request: Request, pk: str | None = None, **kwargs: Any
    ) -> StreamingHttpResponse:
        season = self.get_object()
        player_lines_kept(season)
        return self._export(
            selectors.player_stats_export_rows(season_id=season.pk),
            season,
            "player-stats",
            ExportPlayerStatsSerializer,
        )


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Tournaments (seasons of kind tournament); commissioners create them, bracket drawn."""

    public_actions = frozenset({"list", "retrieve"})

    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    search_fields = ["name", "league__name"]
    ordering_fields = ["name", "created_at"]
    ordering = ["-created_at", "-id"]

    def get_queryset(self) -> QuerySet[Season]:
        return selectors.seasons_listed().filter(kind=Season.Kind.TOURNAMENT)

    def get_object(self) -> Season:
        """A tournament; a league season's id is told where it is read, not "no address"."""
        pk = str(self.kwargs.get("pk"))
        found = self.get_queryset().filter(pk=int(pk)).first() if whole_number(pk) else None
        if found is None:
            other = Season.objects.filter(pk=int(pk)).first() if whole_number(pk) else None
            if other is not None:
                url = reverse("api:season-detail", args=[other.pk], request=self.request)
                raise NotFound(f"{other} is a league season, not a tournament: read it at {url}")
            raise NotFound(f"No tournament {pk}.")
        self.check_object_permissions(self.request, found)
        return found

    @extend_schema(
        summary="A tournament (the same season as /api/seasons/{id}/)",
        responses={200: SeasonSerializer, 404: ErrorSerializer},
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Create a single-elimination tournament and draw its first round (commissioners)",
        description="Give exactly one of: teams in seed order (a bracket of any size, the "
        "top seeds getting byes); field=alltime-96 (the all-time field, every team loaded); "
        "or from_season with advance (the top of each group of a finished round robin). "
        "The tournament is then a season: see /api/seasons/{id}/ and its bracket/.",
        request=TournamentCreateSerializer,
        responses={201: SeasonSerializer, 400: ErrorSerializer, **WRITE_REFUSED},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        params = TournamentCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        common = {key: data[key] for key in
                  ("league", "name", "reseed", "neutral", "rules", "strategy", "seed", "game",
                   "options")}  # fmt: skip
        if "field" in data:
            season = tournaments.tournament_field_create(field=data["field"], **common)
        elif "from_season" in data:
            season = tournaments.tournament_from_groups(
                group_stage=data["from_season"], advance=data.get("advance", 2), **common
            )
        else:
            season = tournaments.tournament_create(teams=data["teams"], **common)
        season = self.get_queryset().get(pk=season.pk)
        location = reverse("api:season-detail", args=[season.pk], request=request)
        return Response(
            self.get_serializer(season).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )


class SimulationRunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Simulation runs and their progress: done of total, status and percent."""

    queryset = SimulationRun.objects.all()
    serializer_class = SimulationRunSerializer
    filterset_class = RunFilter
    ordering_fields = ["created_at", "finished_at"]
    ordering = ["-created_at", "-id"]


# The big JSON of a result (play-by-play; the team files are rows of their own, read when
# asked for) is only read by play-by-play.
_RESULT_BLOBS = ("events", "dice", "rules")


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """The schedule and results; each final game has a box score and a play-by-play.

    Commissioners store a game played at the table: its score sheet, or its dice.
    """

    public_actions = frozenset({"list", "retrieve", "box_score", "story", "play_by_play"})

    serializer_class = GameSerializer
    filterset_class = GameFilter
    ordering_fields = ["round", "game_date", "played_at", "id"]
    ordering = ["season_id", "round", "game_date", "id"]

    def get_queryset(self) -> QuerySet[Game]:
        games = Game.objects.select_related("home", "away", "result")
        if self.action in ("play_by_play", "story"):
            return games
        # The box score says where its dice came from (a seed, or rolls at the table).
        kept = {"dice"} if self.action == "box_score" else set()
        return games.defer(*(f"result__{name}" for name in _RESULT_BLOBS if name not in kept))

    def _result_or_404(self, game: Game) -> Any:
        result = getattr(game, "result", None)
        if result is None:
            raise NotFound(f"Game {game.pk} has not been played yet: it is {game.status}.")
        return result

    def _refuse_final(self, game: Game, what: str) -> None:
        if game.status == Game.Status.FINAL:
            raise GameFinal(f"Game {game.pk} is already final: {what}.")

    def _stored(self, game: Game) -> Response:
        game = self.get_queryset().get(pk=game.pk)
        location = reverse("api:game-box-score", args=[game.pk], request=self.request)
        return Response(
            self.get_serializer(game).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )

    @extend_schema(
        summary="Enter the score sheet of a game played at the table (commissioners)",
        description="The score, and optionally a box-score line per player. Every problem "
        "(a tie, a name not on the roster, made shots above tries, points that do not add "
        "up) is listed at once and nothing is written. A final game answers 409.",
        request=ScoreSheetSerializer,
        responses={
            201: GameSerializer,
            400: ScoreSheetRefusedSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            **WRITE_REFUSED,
        },
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def result(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        self._refuse_final(game, "its result cannot be entered again")
        params = ScoreSheetSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        services.game_result_enter(game_id=game.pk, **params.validated_data)
        return self._stored(game)

    @extend_schema(
        summary="Play a game from the dice rolled at the table (commissioners)",
        description='The body is a vabg-dice/1 file: {"format": "vabg-dice/1", "d8": '
        '[...], "d6": [...], "d20": [...]}, each die\'s rolls in the order rolled. The '
        "game is played from them and stored like a simulated one; a file that runs out "
        "stores nothing. A final game answers 409.",
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: GameSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            **WRITE_REFUSED,
        },
    )
    @action(detail=True, methods=["post"], filter_backends=[], parser_classes=[JSONParser])
    def dice(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        self._refuse_final(game, "it cannot be played again from dice")
        services.game_replay_dice(game_id=game.pk, script=request.data)
        return self._stored(game)

    @extend_schema(
        summary="A game's box score: lines, team totals and periods",
        responses={200: BoxScoreSerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], url_path="box-score", filter_backends=[])
    def box_score(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        self._result_or_404(game)
        box = presentation.box_score(game)
        return Response(BoxScoreSerializer(box, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="A game's story: headline, sentences, and the story with its box score as "
        "Markdown and HTML for a blog post",
        responses={200: StorySerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], url_path="story", filter_backends=[])
    def story(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        if not league_game(game.game).tells_stories:
            raise StoryUntold(
                f"Game {game.pk} is a game of {find_game(game.game).title}: stories are told of "
                "VABG games only."
            )
        self._result_or_404(game)
        box = presentation.box_score(game)
        told = stories.game_story(game, box=box)
        if told is None:
            raise NotFound("Game stories are told for played VABG games.")
        url = request.build_absolute_uri(f"/games/{game.pk}/")
        body = {
            "game": game.pk,
            "headline": told.headline,
            "sentences": told.sentences,
            "text": told.text,
            "upset": told.upset,
            "overtimes": told.overtimes,
            "markdown": stories.story_markdown(told, box, url=url),
            "html": stories.story_html(told, box, url=url),
        }
        return Response(body)

    @extend_schema(
        summary="A game's play-by-play, one object per event",
        responses={200: PlayByPlaySerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], url_path="play-by-play", filter_backends=[])
    def play_by_play(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        result = self._result_or_404(game)
        players: dict[str, dict[str, int | None]] = {"home": {}, "away": {}}
        for side, name, player in BoxLine.objects.filter(result=result).values_list(
            "side", "name", "player_id"
        ):
            players[side][name] = player
        body = {
            "game": game.pk,
            "dice": result.dice,
            "rules": result.rules,
            "players": players,
            "events": result.events,
        }
        return Response(PlayByPlaySerializer(body).data)


class _SeasonNested(ApiViewSet):
    """A list under /seasons/{season_id}/; an unknown season is a 404."""

    def season(self) -> Season:
        return get_object_or_404(Season.objects.only("pk", "game"), pk=self.kwargs["season_id"])


def player_lines_kept(season: Season) -> None:
    """Refuse player lines of a season whose game keeps none (:class:`NoPlayerLines`)."""
    if not league_game(season.game).has_players:
        engine = find_game(season.game)
        if engine.columns:  # grid court: a line a piece, ranked on the leaders' boards
            raise NoPlayerLines(
                f"Season {season.pk} plays {engine.title}, whose box score has a line a "
                f"{engine.name_key}, not a player: it has no player lines (each game's box "
                f"score has its {engine.name_key}s' lines, /api/seasons/{season.pk}/leaders/ "
                f"ranks them and /api/seasons/{season.pk}/team-stats/ sums them)."
            )
        raise NoPlayerLines(
            f"Season {season.pk} plays {engine.title}, whose box score is one "
            "line a team: it has no player lines (its team stats and games have the teams')."
        )


_SEASON_ID = OpenApiParameter(
    "season_id", int, OpenApiParameter.PATH, description="The season's id (a tournament's too)."
)


@extend_schema_view(list=extend_schema(summary="Season player stats", parameters=[_SEASON_ID]))
class PlayerSeasonStatsViewSet(mixins.ListModelMixin, _SeasonNested):
    """One row per player: games, totals, per-game averages and shooting percentages."""

    public_actions = frozenset({"list"})

    serializer_class = PlayerSeasonStatsSerializer
    filterset_class = PlayerStatsFilter
    ordering_fields = ["name", "g", *STATS, *(f"{f}_pg" for f in STATS), *PERCENTS]
    ordering = ["-pts", "name"]

    def get_queryset(self) -> QuerySet[Any]:
        # What the schema's filters and orderings describe; list() reads the cached rows.
        if getattr(self, "swagger_fake_view", False):
            return BoxLine.objects.none()
        return selectors.season_lines(season_id=self.season().pk)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The season's rows from the cache (``selectors.season_player_rows``), filtered and
        ordered here as the filter backends would in SQL: three queries at any size."""
        season = self.season()
        player_lines_kept(season)
        filters = PlayerStatsFilter(request.query_params, queryset=BoxLine.objects.none())
        if not filters.is_valid():
            raise cast(Exception, translate_validation(filters.errors))
        wanted = filters.form.cleaned_data
        rows = selectors.with_current_names(selectors.season_player_rows(season.pk))
        for name, column in (("team", "team_id"), ("player", "player_id")):
            if wanted.get(name) is not None:
                rows = [r for r in rows if r[column] == wanted[name]]
        if wanted.get("min_games") is not None:
            rows = [r for r in rows if r["g"] >= wanted["min_games"]]
        terms = OrderingFilter().get_ordering(request, BoxLine.objects.none(), self) or []
        for term in reversed(terms):
            field = term.lstrip("-")
            present = [r for r in rows if r[field] is not None]
            present.sort(key=lambda r: r[field], reverse=term.startswith("-"))
            rows = present + [r for r in rows if r[field] is None]  # no figure: last
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


def leader_categories_by_game() -> dict[str, list[str]]:
    """Each game's leader categories: VABG's players' (``selectors.LEADER_CATEGORIES``),
    another game's columns (``gamestats.leader_categories``)."""
    return {
        name: list(selectors.LEADER_CATEGORIES)
        if find_game(name).has_players
        else [c.key for c in gamestats.leader_categories(name)]
        for name in game_names()
    }


_LEADER_CATEGORY = OpenApiParameter(
    "category",
    str,
    required=True,
    # Every game's: the serializer's choices are VABG's alone, and a six-dice request
    # (?category=dunks) did not validate against the schema the server answers it by.
    enum=list(dict.fromkeys(k for keys in leader_categories_by_game().values() for k in keys)),
    description="The category, one of the season's game's (another game's is refused "
    "naming the game's own): "
    + "; ".join(
        f"{find_game(name).title} ({name}): {', '.join(keys)}"
        for name, keys in leader_categories_by_game().items()
    )
    + ". VABG ranks players, grid court its pieces, six dice its teams.",
)


@extend_schema_view(
    list=extend_schema(
        summary="A season's leaders in a category",
        parameters=[_SEASON_ID, LeaderQuerySerializer, _LEADER_CATEGORY],
        responses={200: LeaderSerializer(many=True), 400: ErrorSerializer},
    )
)
class LeadersViewSet(_SeasonNested):
    """The best players of a season in one category, per game or in total."""

    public_actions = frozenset({"list"})

    serializer_class = LeaderSerializer
    filter_backends: list[Any] = []
    reads = {"list": tuple(LeaderQuerySerializer().fields)}

    def list(self, request: Request, season_id: str, **kwargs: Any) -> Response:
        season = self.season()
        if not find_game(season.game).has_players:
            return self._other_game(request, season)
        params = LeaderQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        query = params.validated_data
        rows = selectors.leaders(season_id=season.pk, **query)
        key = f"{query['category']}_pg" if query["per_game"] else query["category"]
        board = [{"value": row[key], **row} for row in rows]  # each with its rank
        page = self.paginate_queryset(board)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def _other_game(self, request: Request, season: Season) -> Response:
        """A grid-court season's best pieces, a six-dice season's best teams."""
        engine = find_game(season.game)
        params = GameLeaderQuerySerializer(
            data=request.query_params,
            context={
                "categories": [c.key for c in gamestats.leader_categories(season.game)],
                "title": engine.title,
            },
        )
        params.is_valid(raise_exception=True)
        query = params.validated_data
        rows = gamestats.leaders(
            season, query["category"], per_game=query["per_game"], limit=10_000
        )
        rows = [row for row in rows if row["g"] >= query["min_games"]][: query["limit"]]
        board = selectors.with_ranks(rows, "value")
        page = self.paginate_queryset(board)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


_TEAM_ORDERING = ("team_school", "g", "w", "l", *STATS, "possessions", "opp_pts", "pts_pg",
                  "opp_pts_pg", "pts_per_poss")  # fmt: skip
_GAME_TEAM_ORDERING = ("team_school", "g", "w", "l", "pts", "opp_pts", "pts_pg", "opp_pts_pg")
"""A grid-court or six-dice season's rows order by these and by any column of its game
(its total, or ``KEY_pg`` a game)."""


@extend_schema_view(
    list=extend_schema(
        summary="Season team stats",
        parameters=[
            _SEASON_ID,
            OpenApiParameter("team", int, description="One team's row."),
            OpenApiParameter(
                "ordering",
                str,
                description=f"VABG: one of {', '.join(_TEAM_ORDERING)}; grid court and six "
                f"dice: one of {', '.join(_GAME_TEAM_ORDERING)} or a column of the game "
                "(KEY or KEY_pg); a leading - reverses, commas join several.",
            ),
        ],
        responses={
            200: PolymorphicProxySerializer(
                component_name="SeasonTeamStats",
                serializers=[TeamSeasonStatsSerializer, GameTeamSeasonStatsSerializer],
                resource_type_field_name=None,
                many=True,
            ),
            400: ErrorSerializer,
        },
    )
)
class TeamSeasonStatsViewSet(_SeasonNested):
    """One row per team: totals, per-game averages, possessions and points allowed."""

    public_actions = frozenset({"list"})

    serializer_class = TeamSeasonStatsSerializer
    filter_backends: list[Any] = []
    reads = {"list": ("team", "ordering")}

    def get_serializer_class(self) -> Any:
        season = getattr(self, "_season", None)
        if season is not None and not find_game(season.game).has_players:
            return GameTeamSeasonStatsSerializer
        return TeamSeasonStatsSerializer

    def list(self, request: Request, season_id: str, **kwargs: Any) -> Response:
        season = self._season = self.season()
        if find_game(season.game).has_players:
            rows = selectors.team_season_stats(season_id=season.pk)
            orderable = _TEAM_ORDERING
        else:
            table = gamestats.team_stats(season)
            keys = [c.key for c in table.columns]
            rows = [
                {
                    **row,
                    "totals": {k: row[k] for k in keys},
                    "per_game": {k: row[f"{k}_pg"] for k in keys},
                }
                for row in table.rows
            ]
            orderable = (
                *_GAME_TEAM_ORDERING,
                *(k for k in keys if k not in _GAME_TEAM_ORDERING),
                *(f"{k}_pg" for k in keys if f"{k}_pg" not in _GAME_TEAM_ORDERING),
            )
        query = TeamStatsQuerySerializer(
            data=request.query_params, context={"orderable": orderable}
        )
        query.is_valid(raise_exception=True)
        wanted = query.validated_data
        if wanted.get("team") is not None:
            rows = [row for row in rows if row["team_id"] == wanted["team"]]
        for term in reversed(wanted.get("ordering", [])):
            field = term.lstrip("-")
            column = "team__school" if field == "team_school" else field
            present = [row for row in rows if row[column] is not None]
            present.sort(key=lambda r: r[column], reverse=term.startswith("-"))
            rows = present + [row for row in rows if row[column] is None]  # no figure: last
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


@extend_schema_view(
    list=extend_schema(
        summary="A player's game log",
        parameters=[
            OpenApiParameter(
                "player_id", int, OpenApiParameter.PATH, description="The player's id."
            )
        ],
    )
)
class PlayerGameLogViewSet(mixins.ListModelMixin, ApiViewSet):
    """A player's box-score lines game by game, with the opponent and the score."""

    public_actions = frozenset({"list"})

    serializer_class = GameLogSerializer
    filterset_class = GameLogFilter
    ordering_fields = ["pts", "reb", "stl", "blk"]
    # No default ordering here: the selector's (a tournament's undated games by the day
    # they were played) is the log's; this one sorted them first in SQLite, last elsewhere.

    def get_queryset(self) -> QuerySet[BoxLine]:
        if getattr(self, "swagger_fake_view", False):
            return BoxLine.objects.none()
        player = get_object_or_404(Player.objects.only("pk"), pk=self.kwargs["player_id"])
        return selectors.player_game_log(player_id=player.pk)
