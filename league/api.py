"""The REST API of leagues: seasons, schedules, box scores, play-by-play, stats and exports.

Everyone reads; commissioners create seasons and start simulations (see ``cards.api`` for
the permission). Every list is filtered, ordered and paginated with a bounded number of
queries.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.management.base import CommandError
from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, renderers, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cards.api import (
    ID_MAX,
    ApiViewSet,
    ErrorSerializer,
    IdFilter,
    TeamBriefSerializer,
    model_errors,
    sentence,
)
from cards.models import Player, Team
from league import selectors, services, tournaments
from league.management.commands import create_tournament
from league.models import (
    BoxLine,
    Game,
    League,
    RulesPreset,
    Season,
    SeasonTeam,
    SimulationRun,
)
from league.presentation import Side
from simulator.results import LINE_FIELDS

STATS = selectors.STAT_FIELDS
PERCENTS = ("fg_pct", "tp_pct", "ft_pct")
WRITE_REFUSED = {401: ErrorSerializer, 403: ErrorSerializer}


class CSVRenderer(renderers.BaseRenderer):
    """Render a list of flat rows as CSV with a header line."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        rows = [data] if isinstance(data, dict) else list(data or [])
        buffer = io.StringIO()
        if rows:
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return buffer.getvalue().encode(self.charset)


def _serializer(name: str, fields: dict[str, serializers.Field]) -> type[serializers.Serializer]:  # type: ignore[type-arg]
    """Build a flat read-only serializer (the stat rows have a column per statistic)."""
    return type(name, (serializers.Serializer,), dict(fields))


def _ints(names: tuple[str, ...] | list[str]) -> dict[str, serializers.Field]:  # type: ignore[type-arg]
    return {name: serializers.IntegerField() for name in names}


def _floats(names: tuple[str, ...] | list[str]) -> dict[str, serializers.Field]:  # type: ignore[type-arg]
    return {name: serializers.FloatField(allow_null=True) for name in names}


def _count_of(queryset: QuerySet[Any], *, parent: str = "season") -> Subquery:
    """Count the rows of ``queryset`` per parent in a subquery (joins would multiply)."""
    counted = (
        queryset.filter(**{parent: OuterRef("pk")})
        .order_by()
        .values(parent)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)  # type: ignore[return-value]


# -- serializers ---------------------------------------------------------------------------


class LeagueSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    seasons = serializers.IntegerField(source="season_count", read_only=True)

    class Meta:
        model = League
        fields = ["id", "name", "slug", "description", "created_at", "seasons"]


class SeasonTeamSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    team = TeamBriefSerializer(read_only=True)

    class Meta:
        model = SeasonTeam
        fields = ["team", "conference", "region", "seed"]


class SeasonSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    league_name = serializers.CharField(source="league.name", read_only=True)
    team_count = serializers.IntegerField(read_only=True)
    game_count = serializers.IntegerField(read_only=True)
    games_final = serializers.IntegerField(read_only=True)
    teams = SeasonTeamSerializer(source="entries", many=True, read_only=True)

    class Meta:
        model = Season
        fields = [
            "id", "league", "league_name", "name", "slug", "kind", "rules", "strategy",
            "home_court", "reseed", "seed", "start_date", "created_at", "team_count",
            "game_count", "games_final", "teams",
        ]  # fmt: skip


_SMALL_MAX = 32767  # the scores' small-integer columns


def _teams_found(value: list[int]) -> list[Team]:
    """Return the teams of ``value`` in its order, or refuse naming every unknown id."""
    found = Team.objects.in_bulk(value)
    missing = sorted({pk for pk in value if pk not in found})
    if missing:
        raise serializers.ValidationError(
            f"No team with id {', '.join(str(pk) for pk in missing)}."
        )
    return [found[pk] for pk in value]


class LeagueCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(max_length=100, help_text="Its slug is made from the name.")
    description = serializers.CharField(required=False, allow_blank=True, default="")


class SeasonCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=100)
    teams = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        help_text="Ids of the teams that play the season.",
    )
    conferences = serializers.ChoiceField(
        choices=["team", "none"],
        default="team",
        help_text="team: group the teams by their own conference; none: one group.",
    )
    double_round_robin = serializers.BooleanField(default=False)
    cross_conference_games = serializers.IntegerField(default=0, min_value=0)
    start_date = serializers.DateField(required=False, allow_null=True, default=None)
    days_between_rounds = serializers.IntegerField(default=1, min_value=1)
    home_court = serializers.BooleanField(default=True)
    rules = serializers.ChoiceField(choices=RulesPreset.choices, default=RulesPreset.ADVANCED)
    strategy = serializers.BooleanField(default=True)
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=ID_MAX
    )

    def validate_teams(self, value: list[int]) -> list[Team]:
        return _teams_found(value)


class TournamentCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=100)
    teams = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        help_text="Ids of the teams in seed order, 1 first; the top seeds get any byes.",
    )
    field = serializers.ChoiceField(
        choices=["alltime-96"],
        required=False,
        help_text="The all-time field: four regions of 24 seeded from the field file; "
        "every team of it must be loaded.",
    )
    from_season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.all(),
        required=False,
        help_text="A finished round-robin season: its conferences are the groups.",
    )
    advance = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        help_text="With from_season: the teams of each group that go through (2 if not given).",
    )
    reseed = serializers.BooleanField(default=False, help_text="Re-pair after each round.")
    neutral = serializers.BooleanField(
        default=True, help_text="Neutral courts; off: the better seed is at home."
    )
    rules = serializers.ChoiceField(choices=RulesPreset.choices, default=RulesPreset.ADVANCED)
    strategy = serializers.BooleanField(default=True)
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=ID_MAX
    )

    def validate_teams(self, value: list[int]) -> list[Team]:
        return _teams_found(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if sum(key in attrs for key in ("teams", "field", "from_season")) != 1:
            raise serializers.ValidationError(
                "Give exactly one of teams (in seed order), field or from_season."
            )
        if "advance" in attrs and "from_season" not in attrs:
            raise serializers.ValidationError({"advance": ["Give advance with from_season."]})
        return attrs


class SimulateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    scope = serializers.ChoiceField(choices=SimulationRun.Scope.choices)
    round = serializers.IntegerField(required=False, min_value=1, help_text="scope=round")
    date = serializers.DateField(required=False, help_text="scope=date or until")
    game = serializers.PrimaryKeyRelatedField(
        queryset=Game.objects.all(), required=False, help_text="scope=game"
    )


class SimulationRunSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    url = serializers.HyperlinkedIdentityField(view_name="api:run-detail")
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = SimulationRun
        fields = [
            "id", "url", "season", "scope", "round", "game_date", "game", "status", "total",
            "done", "failed", "percent", "created_at", "finished_at",
        ]  # fmt: skip


class GameSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    home = TeamBriefSerializer(read_only=True)
    away = TeamBriefSerializer(read_only=True)
    home_score = serializers.IntegerField(
        source="result.home_score", read_only=True, allow_null=True
    )
    away_score = serializers.IntegerField(
        source="result.away_score", read_only=True, allow_null=True
    )
    overtimes = serializers.IntegerField(source="result.overtimes", read_only=True, allow_null=True)

    class Meta:
        model = Game
        fields = [
            "id", "season", "round", "game_date", "label", "away", "home", "neutral",
            "conference_game", "bracket_key", "rules", "strategy", "kind", "status", "seed",
            "away_score", "home_score", "overtimes", "played_at",
        ]  # fmt: skip


class BoxLineSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = BoxLine
        fields = ["player", "name", "order", *STATS]


BoxTotalsSerializer = _serializer("BoxTotals", _ints(STATS))


class BoxSideSerializer(serializers.Serializer):  # type: ignore[type-arg]
    side = serializers.CharField()
    team = TeamBriefSerializer()
    court = serializers.CharField(help_text='"home", "away", or "" on a neutral court.')
    score = serializers.IntegerField()
    periods = serializers.ListField(child=serializers.IntegerField())
    team_turnovers = serializers.IntegerField()
    possessions = serializers.IntegerField()
    lines = BoxLineSerializer(many=True)
    totals = BoxTotalsSerializer(help_text="The players' sums; to includes team turnovers.")


class BoxScoreSerializer(serializers.Serializer):  # type: ignore[type-arg]
    game = GameSerializer()
    period_labels = serializers.ListField(child=serializers.CharField())
    sides = BoxSideSerializer(many=True, help_text="Away first, as box scores read.")


class PlayByPlaySerializer(serializers.Serializer):  # type: ignore[type-arg]
    game = serializers.IntegerField()
    dice = serializers.DictField()
    rules = serializers.DictField()
    events = serializers.ListField(child=serializers.DictField())


_player_columns: dict[str, serializers.Field] = {  # type: ignore[type-arg]
    "team": serializers.IntegerField(source="team_id"),
    "team_school": serializers.CharField(source="team__school"),
    "team_season": serializers.IntegerField(source="team__season"),
    "player": serializers.IntegerField(source="player_id", allow_null=True),
    "name": serializers.CharField(),
    "g": serializers.IntegerField(),
}
PlayerSeasonStatsSerializer = _serializer(
    "PlayerSeasonStats",
    {**_player_columns, **_ints(STATS), **_floats([f"{f}_pg" for f in STATS]), **_floats(PERCENTS)},
)
LeaderSerializer = _serializer(
    "Leader",
    {"rank": serializers.IntegerField(), "value": serializers.FloatField(), **_player_columns},
)
_TEAM_EXTRA = ("possessions", "team_turnovers", "opp_pts")
TeamSeasonStatsSerializer = _serializer(
    "TeamSeasonStats",
    {
        "team": serializers.IntegerField(source="team_id"),
        "team_school": serializers.CharField(source="team__school"),
        "team_season": serializers.IntegerField(source="team__season"),
        "g": serializers.IntegerField(),
        **_ints(STATS),
        **_ints(_TEAM_EXTRA),
        **_floats([f"{f}_pg" for f in (*STATS, "possessions", "opp_pts")]),
        "pts_per_poss": serializers.FloatField(allow_null=True),
    },
)
ExportBoxLineSerializer = _serializer(
    "ExportBoxLine",
    {
        "game": serializers.IntegerField(),
        "round": serializers.IntegerField(allow_null=True),
        "game_date": serializers.DateField(allow_null=True),
        "side": serializers.CharField(),
        "team": serializers.CharField(),
        "opponent": serializers.CharField(),
        "player": serializers.IntegerField(allow_null=True),
        "name": serializers.CharField(),
        **_ints(STATS),
    },
)
ExportPlayerStatsSerializer = _serializer(
    "ExportPlayerStats",
    {
        "team": serializers.CharField(),
        "player": serializers.IntegerField(allow_null=True),
        "name": serializers.CharField(),
        "g": serializers.IntegerField(),
        **_ints(STATS),
        **_floats([f"{f}_pg" for f in STATS]),
        **_floats(PERCENTS),
    },
)


class LeaderQuerySerializer(serializers.Serializer):  # type: ignore[type-arg]
    category = serializers.ChoiceField(choices=list(selectors.LEADER_CATEGORIES.items()))
    per_game = serializers.BooleanField(default=True)
    limit = serializers.IntegerField(default=10, min_value=1, max_value=100)
    min_games = serializers.IntegerField(default=1, min_value=0)


class GameLogSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    game = serializers.IntegerField(source="result.game_id")
    season = serializers.IntegerField(source="result.game.season_id", allow_null=True)
    round = serializers.IntegerField(source="result.game.round", allow_null=True)
    game_date = serializers.DateField(source="result.game.game_date", allow_null=True)
    opponent = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    opponent_score = serializers.SerializerMethodField()

    class Meta:
        model = BoxLine
        fields = [
            "game", "season", "round", "game_date", "side", "team", "opponent", "score",
            "opponent_score", "name", *STATS,
        ]  # fmt: skip

    @extend_schema_field(TeamBriefSerializer)
    def get_opponent(self, line: BoxLine) -> dict[str, Any]:
        game = line.result.game
        return TeamBriefSerializer(game.away if line.side == "home" else game.home).data

    def get_score(self, line: BoxLine) -> int:
        result = line.result
        return result.home_score if line.side == "home" else result.away_score

    def get_opponent_score(self, line: BoxLine) -> int:
        result = line.result
        return result.away_score if line.side == "home" else result.home_score


ScoreSheetLineSerializer = _serializer(
    "ScoreSheetLine",
    {
        "name": serializers.CharField(help_text="The player, as the team's roster names him."),
        **{
            field: serializers.IntegerField(
                required=False,
                min_value=0,
                max_value=_SMALL_MAX,
                help_text="oreb + dreb if left out." if field == "reb" else "0 if left out.",
            )
            for field in LINE_FIELDS
        },
    },
)


@extend_schema_field(ScoreSheetLineSerializer)
class ScoreSheetLineField(serializers.DictField):
    """A typed-in box-score line, passed on whole: the service names every problem at once."""


class ScoreSheetSerializer(serializers.Serializer):  # type: ignore[type-arg]
    home_score = serializers.IntegerField(max_value=_SMALL_MAX)
    away_score = serializers.IntegerField(max_value=_SMALL_MAX)
    overtimes = serializers.IntegerField(default=0, max_value=_SMALL_MAX)
    home_lines = serializers.ListField(
        child=ScoreSheetLineField(),
        default=list,
        help_text="Optional; when given, the players' points add up to the score.",
    )
    away_lines = serializers.ListField(child=ScoreSheetLineField(), default=list)


ScoreSheetRefusedSerializer = inline_serializer(
    "ScoreSheetRefused",
    {
        "detail": serializers.CharField(),
        "problems": serializers.ListField(child=serializers.CharField()),
    },
)


class StandingsRowSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField(help_text="1 first; never shared: ties are broken.")
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    pct = serializers.FloatField(help_text="Wins per game, 0 to 1.")
    games_behind = serializers.FloatField()
    conf_record = serializers.CharField(help_text='"W-L" in conference games.')
    home_record = serializers.CharField(help_text='"W-L"')
    away_record = serializers.CharField(help_text='"W-L"')
    neutral_record = serializers.CharField(help_text='"W-L"')
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    diff = serializers.IntegerField(help_text="points_for - points_against")
    streak = serializers.CharField(help_text='"W3", "L1", or "" before any game.')
    tiebreaker = serializers.CharField(
        allow_null=True, help_text="The step that placed the team among teams level on win %."
    )


class StandingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    conference = serializers.CharField(help_text='"" for a season without conferences.')
    rows = StandingsRowSerializer(many=True)


class BracketSlotSerializer(serializers.Serializer):  # type: ignore[type-arg]
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True, help_text="Once the game is final.")


class BracketChampionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


class BracketGameSerializer(serializers.Serializer):  # type: ignore[type-arg]
    key = serializers.CharField(help_text='The bracket slot, e.g. "East-R1-5" or "R2-3".')
    region = serializers.CharField(allow_null=True, help_text="None between regions.")
    position = serializers.IntegerField(help_text="From 1 down the round (and region).")
    game_id = serializers.IntegerField(allow_null=True, help_text="None until it is drawn.")
    status = serializers.CharField(help_text='The game\'s status, or "not drawn".')
    top = BracketSlotSerializer(allow_null=True, help_text="The better seed's line.")
    bottom = BracketSlotSerializer(allow_null=True)
    winner_id = serializers.IntegerField(allow_null=True)


class BracketRoundSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    name = serializers.CharField(help_text='"Round 1" ... "Final Four", "Championship".')
    games = BracketGameSerializer(many=True)


class BracketSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rounds = BracketRoundSerializer(many=True)
    champion = BracketChampionSerializer(allow_null=True, help_text="None until the final.")


# -- filters -------------------------------------------------------------------------------


class LeagueFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = League
        fields = ["name", "slug"]


class SeasonFilter(django_filters.FilterSet):
    team = IdFilter(field_name="entries__team", help_text="Seasons a team is in.")

    class Meta:
        model = Season
        fields = ["league", "kind", "slug"]


class GameFilter(django_filters.FilterSet):
    league = IdFilter(field_name="season__league")
    team = IdFilter(method="filter_team", help_text="Home or away.")
    player = IdFilter(
        field_name="result__lines__player", help_text="Games with a box-score line of his."
    )
    date = django_filters.DateFilter(field_name="game_date")
    date_from = django_filters.DateFilter(field_name="game_date", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="game_date", lookup_expr="lte")

    class Meta:
        model = Game
        fields = ["season", "round", "status", "kind", "conference_game", "neutral"]

    def filter_team(self, queryset: QuerySet[Game], name: str, value: int) -> QuerySet[Game]:
        return queryset.filter(Q(home=value) | Q(away=value))


class RunFilter(django_filters.FilterSet):
    class Meta:
        model = SimulationRun
        fields = ["season", "status", "scope"]


class PlayerStatsFilter(django_filters.FilterSet):
    team = IdFilter(field_name="team_id")
    player = IdFilter(field_name="player_id")
    min_games = django_filters.NumberFilter(field_name="g", lookup_expr="gte")


class GameLogFilter(django_filters.FilterSet):
    season = IdFilter(field_name="result__game__season")
    team = IdFilter(field_name="team_id")
    date_from = django_filters.DateFilter(field_name="result__game__game_date", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="result__game__game_date", lookup_expr="lte")


# -- exports -------------------------------------------------------------------------------


def boxscore_rows(*, season_id: int) -> list[dict[str, Any]]:
    """Return every box-score line of a season's final games as flat export rows."""
    lines = (
        selectors.season_lines(season_id=season_id)
        .select_related("team", "result__game__home", "result__game__away")
        .order_by(
            "result__game__round", "result__game__game_date", "result__game_id", "side", "order"
        )
    )
    rows = []
    for line in lines:
        game = line.result.game
        opponent = game.away if line.side == BoxLine.Side.HOME else game.home
        rows.append(
            {
                "game": game.pk,
                "round": game.round,
                "game_date": game.game_date,
                "side": line.side,
                "team": str(line.team),
                "opponent": str(opponent),
                "player": line.player_id,
                "name": line.name,
                **{field: getattr(line, field) for field in STATS},
            }
        )
    return rows


def player_stats_rows(*, season_id: int) -> list[dict[str, Any]]:
    """Return a season's player stats as flat export rows, averages rounded for reading."""

    def rounded(value: float | None, places: int) -> float | None:
        return None if value is None else round(value, places)

    return [
        {
            "team": f"{row['team__school']} {row['team__season']}",
            "player": row["player_id"],
            "name": row["name"],
            "g": row["g"],
            **{field: row[field] for field in STATS},
            **{f"{field}_pg": rounded(row[f"{field}_pg"], 2) for field in STATS},
            **{field: rounded(row[field], 3) for field in PERCENTS},
        }
        for row in selectors.player_season_stats(season_id=season_id)
    ]


_View = TypeVar("_View", bound=Callable[..., Response])


def _export_schema(
    summary: str,
    rows: type[serializers.Serializer],  # type: ignore[type-arg]
) -> Callable[[_View], _View]:
    return extend_schema(
        summary=summary,
        description="CSV by default (also at the same path with a .csv suffix); "
        "?format=json for JSON.",
        parameters=[OpenApiParameter("format", str, enum=["csv", "json"])],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): rows(many=True),
            404: ErrorSerializer,
        },
    )


# -- views ---------------------------------------------------------------------------------


class LeagueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Leagues and how many seasons each has; commissioners create them."""

    serializer_class = LeagueSerializer
    filterset_class = LeagueFilter
    ordering_fields = ["name", "created_at"]
    ordering = ["name"]

    def get_queryset(self) -> QuerySet[League]:
        return League.objects.annotate(
            season_count=_count_of(Season.objects.all(), parent="league")
        )

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
        name = params.validated_data["name"]
        league = League(
            name=name, slug=slugify(name), description=params.validated_data["description"]
        )
        try:
            league.full_clean()
        except DjangoValidationError as exc:
            errors = model_errors(exc)
            if isinstance(errors, dict) and errors.pop("slug", []) and "name" not in errors:
                errors["name"] = [
                    f"Another league has the slug {league.slug!r} this name makes."
                    if league.slug
                    else "The name needs a letter or a digit, to make the league's slug."
                ]
            return Response(errors, status=status.HTTP_400_BAD_REQUEST)
        league.save()
        league = self.get_queryset().get(pk=league.pk)
        return Response(self.get_serializer(league).data, status=status.HTTP_201_CREATED)


def _seasons_listed() -> QuerySet[Season]:
    """Return seasons with their league, counts of teams and games, and their entries."""
    return (
        Season.objects.select_related("league")
        .annotate(
            team_count=_count_of(SeasonTeam.objects.all()),
            game_count=_count_of(Game.objects.all()),
            games_final=_count_of(Game.objects.filter(status=Game.Status.FINAL)),
        )
        .prefetch_related(Prefetch("entries", queryset=SeasonTeam.objects.select_related("team")))
    )


class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Seasons with their teams; commissioners create them, simulate them and export them."""

    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    search_fields = ["name", "league__name"]
    ordering_fields = ["name", "created_at", "start_date"]
    ordering = ["-created_at", "-id"]

    def get_queryset(self) -> QuerySet[Season]:
        if self.action in {
            "simulate", "export_boxscores", "export_player_stats", "standings", "bracket",
        }:  # fmt: skip
            return Season.objects.select_related("league")
        return _seasons_listed()

    @extend_schema(
        summary="Create a season and its whole schedule (commissioners)",
        request=SeasonCreateSerializer,
        responses={201: SeasonSerializer, 400: ErrorSerializer, **WRITE_REFUSED},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        params = SeasonCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = dict(params.validated_data)
        teams = data.pop("teams")
        grouping = data.pop("conferences")
        try:
            season = services.season_create(
                teams=teams,
                conferences={t.pk: t.conference for t in teams} if grouping == "team" else None,
                **data,
            )
        except services.SeasonRefused as exc:
            return Response({"detail": sentence(str(exc))}, status=status.HTTP_400_BAD_REQUEST)
        except DjangoValidationError as exc:
            return Response(model_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        season = self.get_queryset().get(pk=season.pk)
        return Response(self.get_serializer(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Simulate games of the season (commissioners)",
        description="scope: game (with game), round (with round), date or until (with "
        "date), or all. Answers 202 with the run; poll /api/runs/{id}/ for its progress.",
        request=SimulateSerializer,
        responses={202: SimulationRunSerializer, 400: ErrorSerializer, **WRITE_REFUSED},
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def simulate(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        params = SimulateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        try:
            run = services.simulation_start(
                season=season,
                scope=data["scope"],
                round=data.get("round"),
                game_date=data.get("date"),
                game=data.get("game"),
                user=request.user,
            )
        except ValueError as exc:
            return Response({"detail": sentence(str(exc))}, status=status.HTTP_400_BAD_REQUEST)
        # Without a broker the games were played in-process on commit: show where it got.
        run.refresh_from_db()
        body = SimulationRunSerializer(run, context=self.get_serializer_context()).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})

    @extend_schema(
        summary="A season's standings, one table per conference",
        description="Each table is ranked with ties broken; tiebreaker names the step that "
        "placed a team among teams level on win percentage.",
        responses={200: StandingsSerializer(many=True), 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        tables = selectors.standings_for_season(season_id=season.pk)
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

    def _export(self, rows: list[dict[str, Any]], season: Season, what: str) -> Response:
        response = Response(rows)
        if self.request.accepted_renderer.format == "csv":
            name = f"{season.league.slug}-{season.slug}-{what}.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @_export_schema("A season's box scores, one row per player and game", ExportBoxLineSerializer)
    @action(
        detail=True,
        methods=["get"],
        url_path="export/boxscores",
        renderer_classes=[CSVRenderer, renderers.JSONRenderer],
        filter_backends=[],
        pagination_class=None,
    )
    def export_boxscores(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        season = self.get_object()
        return self._export(boxscore_rows(season_id=season.pk), season, "boxscores")

    @_export_schema("A season's player stats, one row per player", ExportPlayerStatsSerializer)
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
    ) -> Response:
        season = self.get_object()
        return self._export(player_stats_rows(season_id=season.pk), season, "player-stats")


class TournamentViewSet(mixins.ListModelMixin, ApiViewSet):
    """Tournaments (seasons of kind tournament); commissioners create them, bracket drawn."""

    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    search_fields = ["name", "league__name"]
    ordering_fields = ["name", "created_at"]
    ordering = ["-created_at", "-id"]

    def get_queryset(self) -> QuerySet[Season]:
        return _seasons_listed().filter(kind=Season.Kind.TOURNAMENT)

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
                  ("league", "name", "reseed", "neutral", "rules", "strategy", "seed")}  # fmt: skip
        try:
            if "field" in data:
                regions: dict[str, Sequence[Team]] = dict(create_tournament.field_96())
                season = tournaments.tournament_create(regions=regions, **common)
            elif "from_season" in data:
                season = tournaments.tournament_from_groups(
                    group_stage=data["from_season"], advance=data.get("advance", 2), **common
                )
            else:
                season = tournaments.tournament_create(teams=data["teams"], **common)
        except (services.SeasonRefused, CommandError) as exc:
            return Response({"detail": sentence(str(exc))}, status=status.HTTP_400_BAD_REQUEST)
        except DjangoValidationError as exc:
            return Response(model_errors(exc), status=status.HTTP_400_BAD_REQUEST)
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


# The big JSON of a result (play-by-play, both team files) is only read by play-by-play.
_RESULT_BLOBS = ("events", "home_team_file", "away_team_file", "dice", "rules")


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """The schedule and results; each final game has a box score and a play-by-play.

    Commissioners store a game played at the table: its score sheet, or its dice.
    """

    serializer_class = GameSerializer
    filterset_class = GameFilter
    ordering_fields = ["round", "game_date", "played_at", "id"]
    ordering = ["season_id", "round", "game_date", "id"]

    def get_queryset(self) -> QuerySet[Game]:
        games = Game.objects.select_related("home", "away", "result")
        if self.action == "play_by_play":
            return games
        return games.defer(*(f"result__{name}" for name in _RESULT_BLOBS))

    def _result_or_404(self, game: Game) -> Any:
        result = getattr(game, "result", None)
        if result is None:
            raise NotFound(f"Game {game.pk} has not been played yet: it is {game.status}.")
        return result

    def _final_refused(self, game: Game, what: str) -> Response | None:
        if game.status != Game.Status.FINAL:
            return None
        return Response(
            {"detail": f"Game {game.pk} is already final: {what}."},
            status=status.HTTP_409_CONFLICT,
        )

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
        refused = self._final_refused(game, "its result cannot be entered again")
        if refused is not None:
            return refused
        params = ScoreSheetSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        try:
            services.game_result_enter(game_id=game.pk, **params.validated_data)
        except services.ResultRefused as exc:
            count = len(exc.problems)
            return Response(
                {
                    "detail": f"The score sheet is refused: {count} problem"
                    f"{'' if count == 1 else 's'}; nothing was written.",
                    "problems": list(exc.problems),
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
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
        refused = self._final_refused(game, "it cannot be played again from dice")
        if refused is not None:
            return refused
        try:
            services.game_replay_dice(game_id=game.pk, script=request.data)
        except services.GameNotPlayable as exc:
            return Response({"detail": sentence(str(exc))}, status=status.HTTP_400_BAD_REQUEST)
        return self._stored(game)

    @extend_schema(
        summary="A game's box score: lines, team totals and periods",
        responses={200: BoxScoreSerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], url_path="box-score", filter_backends=[])
    def box_score(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        result = self._result_or_404(game)
        lines = list(result.lines.order_by("side", "order"))
        sides = []
        for key, team, score, periods, tov, poss in (
            ("away", game.away, result.away_score, result.away_periods,
             result.away_team_turnovers, result.away_possessions),
            ("home", game.home, result.home_score, result.home_periods,
             result.home_team_turnovers, result.home_possessions),
        ):  # fmt: skip
            mine = [line for line in lines if line.side == key]
            rows = [{field: getattr(line, field) for field in STATS} for line in mine]
            court = "" if game.neutral else key
            totals = Side(key, str(team), court, score, list(periods), tov, rows).totals
            sides.append(
                {
                    "side": key,
                    "team": team,
                    "court": court,
                    "score": score,
                    "periods": list(periods),
                    "team_turnovers": tov,
                    "possessions": poss,
                    "lines": mine,
                    "totals": totals,
                }
            )
        overtimes = [f"OT{n}" if n > 1 else "OT" for n in range(1, result.overtimes + 1)]
        body = {"game": game, "period_labels": ["Reg", *overtimes], "sides": sides}
        return Response(BoxScoreSerializer(body, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="A game's play-by-play, one object per event",
        responses={200: PlayByPlaySerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], url_path="play-by-play", filter_backends=[])
    def play_by_play(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        game = self.get_object()
        result = self._result_or_404(game)
        body = {
            "game": game.pk,
            "dice": result.dice,
            "rules": result.rules,
            "events": result.events,
        }
        return Response(PlayByPlaySerializer(body).data)


class _SeasonNested(ApiViewSet):
    """A list under /seasons/{season_id}/; an unknown season is a 404."""

    def season(self) -> Season:
        return get_object_or_404(Season.objects.only("pk"), pk=self.kwargs["season_id"])


_SEASON_ID = OpenApiParameter("season_id", int, OpenApiParameter.PATH)


@extend_schema_view(list=extend_schema(summary="Season player stats", parameters=[_SEASON_ID]))
class PlayerSeasonStatsViewSet(mixins.ListModelMixin, _SeasonNested):
    """One row per player: games, totals, per-game averages and shooting percentages."""

    serializer_class = PlayerSeasonStatsSerializer
    filterset_class = PlayerStatsFilter
    ordering_fields = ["name", "g", *STATS, *(f"{f}_pg" for f in STATS), *PERCENTS]
    ordering = ["-pts", "name"]

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):
            return BoxLine.objects.none()
        return selectors.player_season_stats(season_id=self.season().pk)


@extend_schema_view(
    list=extend_schema(
        summary="A season's leaders in a category",
        parameters=[_SEASON_ID, LeaderQuerySerializer],
        responses={200: LeaderSerializer(many=True), 400: ErrorSerializer},
    )
)
class LeadersViewSet(_SeasonNested):
    """The best players of a season in one category, per game or in total."""

    serializer_class = LeaderSerializer
    filter_backends: list[Any] = []

    def list(self, request: Request, season_id: str, **kwargs: Any) -> Response:
        season = self.season()
        params = LeaderQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        query = params.validated_data
        rows = selectors.leaders(season_id=season.pk, **query)
        key = f"{query['category']}_pg" if query["per_game"] else query["category"]
        board = [{"rank": n, "value": row[key], **row} for n, row in enumerate(rows, start=1)]
        page = self.paginate_queryset(board)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


_TEAM_ORDERING = ("team_school", "g", *STATS, "possessions", "opp_pts", "pts_pg", "opp_pts_pg",
                  "pts_per_poss")  # fmt: skip


@extend_schema_view(
    list=extend_schema(
        summary="Season team stats",
        parameters=[
            _SEASON_ID,
            OpenApiParameter("team", int, description="One team's row."),
            OpenApiParameter(
                "ordering",
                str,
                description=f"One of {', '.join(_TEAM_ORDERING)}; prefix - for descending.",
            ),
        ],
        responses={200: TeamSeasonStatsSerializer(many=True), 400: ErrorSerializer},
    )
)
class TeamSeasonStatsViewSet(_SeasonNested):
    """One row per team: totals, per-game averages, possessions and points allowed."""

    serializer_class = TeamSeasonStatsSerializer
    filter_backends: list[Any] = []

    def list(self, request: Request, season_id: str, **kwargs: Any) -> Response:
        rows = selectors.team_season_stats(season_id=self.season().pk)
        team = request.query_params.get("team")
        if team:
            rows = [row for row in rows if str(row["team_id"]) == team]
        ordering = request.query_params.get("ordering")
        if ordering:
            field = ordering.lstrip("-")
            if field not in _TEAM_ORDERING:
                return Response(
                    {"detail": f"Order by one of {', '.join(_TEAM_ORDERING)}."},
                    status=status.HTTP_400_BAD_REQUEST,
                )
            column = "team__school" if field == "team_school" else field
            present = [row for row in rows if row[column] is not None]
            rows = sorted(present, key=lambda r: r[column], reverse=ordering.startswith("-")) + [
                row for row in rows if row[column] is None
            ]
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


@extend_schema_view(
    list=extend_schema(
        summary="A player's game log",
        parameters=[OpenApiParameter("player_id", int, OpenApiParameter.PATH)],
    )
)
class PlayerGameLogViewSet(mixins.ListModelMixin, ApiViewSet):
    """A player's box-score lines game by game, with the opponent and the score."""

    serializer_class = GameLogSerializer
    filterset_class = GameLogFilter
    ordering_fields = ["pts", "reb", "stl", "blk"]
    ordering = ["result__game__game_date", "result__game__round", "result__game_id"]

    def get_queryset(self) -> QuerySet[BoxLine]:
        if getattr(self, "swagger_fake_view", False):
            return BoxLine.objects.none()
        player = get_object_or_404(Player.objects.only("pk"), pk=self.kwargs["player_id"])
        return selectors.player_game_log(player_id=player.pk)
