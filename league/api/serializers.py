"""The API's serializers of leagues, seasons, games, box scores, stats and exports."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from cards.api import TeamBriefSerializer
from cards.models import Team
from core.api import ID_MAX, NOT_TRUE_FALSE, ClosedBody, IdField
from core.fields import CalendarDateField
from league import selectors
from league.games import league_game
from league.models import (
    BoxLine,
    Game,
    League,
    RulesPreset,
    Season,
    SeasonTeam,
    SimulationRun,
    options_help,
)
from league.scheduling import DAYS_BETWEEN_MAX
from league.services import run_stalled
from simulator.games import find_game, game_choices
from simulator.results import LINE_FIELDS

STATS = selectors.STAT_FIELDS
PERCENTS = selectors.PERCENT_FIELDS


def _serializer(
    name: str, fields: dict[str, serializers.Field[Any, Any, Any, Any]]
) -> type[serializers.Serializer[Any]]:
    """Build a flat read-only serializer (the stat rows have a column per statistic)."""
    return type(name, (serializers.Serializer,), dict(fields))


STAT_HELP = {
    "pts": "Points: 2 fgm + tpm + ftm and, in VABG, the opening credit of the 20-20 start "
    "(2 a player on the sheet a game; a box line's start).",
    "reb": "Rebounds: oreb + dreb and, in VABG, the opening credit of the 20-20 start "
    "(1 a player on the sheet a game), so more than oreb + dreb.",
    "poss": "Possessions on the floor: a player's trips in the lineup; a team row sums its "
    "players' (five a team possession; the team's own count is possessions).",
}
"""What a stat column counts where its name does not say it all (the schema's words)."""


def _ints(names: tuple[str, ...] | list[str]) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    return {name: serializers.IntegerField(help_text=STAT_HELP.get(name, "")) for name in names}


def _floats(names: tuple[str, ...] | list[str]) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    return {name: serializers.FloatField(allow_null=True) for name in names}


SEED_TEXT_HELP = (
    "The seed as a decimal string. Seeds run to 2**63 - 1, past the 2**53 a JavaScript "
    "number holds exactly (JSON.parse rounds seed 4611686018427387905 to ...8000): read this "
    "one there. A seed may be sent as either."
)


def _seed_text(*, nullable: bool) -> serializers.CharField:
    """The ``seed_str`` field: ``seed`` as a string, for clients whose numbers are doubles."""
    return serializers.CharField(
        source="seed", read_only=True, allow_null=nullable, help_text=SEED_TEXT_HELP
    )


def master_seed_field() -> serializers.IntegerField:
    """A new season's or tournament's master seed, as the client may send it."""
    return serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=ID_MAX,
        help_text="The master seed (random if not given): a number or a string of digits "
        "(JavaScript: send a seed past 2**53 as a string, as seed_str gives it).",
    )


class LeagueSerializer(serializers.ModelSerializer[League]):
    seasons = serializers.IntegerField(source="season_count", read_only=True)

    class Meta:
        model = League
        fields = ["id", "name", "slug", "description", "created_at", "seasons"]


class SeasonTeamSerializer(serializers.ModelSerializer[SeasonTeam]):
    team = TeamBriefSerializer(read_only=True)

    class Meta:
        model = SeasonTeam
        fields = ["team", "conference", "region", "seed"]


class PresetFields(serializers.ModelSerializer[Any]):
    """A season's or game's ``rules`` and ``strategy``: VABG's preset and coach switch, null
    for a game that has neither (six dice, grid court: their settings are ``options``). The
    rows keep VABG's defaults there, which the API reported as if they applied."""

    rules = serializers.ChoiceField(
        choices=RulesPreset.choices,
        read_only=True,
        allow_null=True,
        help_text="VABG's rules preset; null for other games.",
    )
    strategy = serializers.BooleanField(
        read_only=True, allow_null=True, help_text="VABG's coach policy; null for other games."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not league_game(instance.game).rules_in_fields:
            data["rules"] = data["strategy"] = None
        return data


class SeasonSerializer(PresetFields):
    league_name = serializers.CharField(source="league.name", read_only=True)
    team_count = serializers.IntegerField(read_only=True)
    game_count = serializers.IntegerField(
        read_only=True,
        help_text="Games scheduled so far: a tournament draws a round's games as the round "
        "before it ends (games_total counts the whole bracket).",
    )
    games_final = serializers.IntegerField(read_only=True)
    games_total = serializers.SerializerMethodField(
        help_text="Every game the season will play: its schedule, or a tournament's whole "
        "bracket (a 96-team field: 95)."
    )
    teams = SeasonTeamSerializer(source="entries", many=True, read_only=True)
    seed_str = _seed_text(nullable=False)

    def get_games_total(self, season: Season) -> int:
        if season.bracket:
            return len(season.bracket.get("games", ()))
        return int(getattr(season, "game_count", 0))

    class Meta:
        model = Season
        fields = [
            "id", "league", "league_name", "name", "slug", "kind", "game", "options", "rules",
            "strategy", "home_court", "reseed", "seed", "seed_str", "start_date", "created_at",
            "team_count", "game_count", "games_final", "games_total", "teams",
        ]  # fmt: skip


class ScheduleOptionsSerializer(serializers.Serializer[Any]):
    """How a season's schedule was drawn: what the season's row does not keep."""

    conferences = serializers.ChoiceField(
        choices=["team", "none"],
        help_text="team: the teams grouped by their own conference; none: one group.",
    )
    double_round_robin = serializers.BooleanField()
    cross_conference_games = serializers.IntegerField()
    days_between_rounds = serializers.IntegerField()


class SeasonCreatedSerializer(SeasonSerializer):
    """A season just created, with the schedule options it was drawn by (start_date and
    home_court are the season's own fields)."""

    schedule = serializers.SerializerMethodField(
        help_text="The schedule options sent, defaults filled in; the season keeps none of "
        "them, so only this answer tells them."
    )

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "schedule"]

    @extend_schema_field(ScheduleOptionsSerializer)
    def get_schedule(self, season: Season) -> dict[str, Any]:
        return dict(ScheduleOptionsSerializer(self.context["schedule"]).data)


_SMALL_MAX = 32767  # the scores' small-integer columns


def settings_in_game(given: Any, attrs: dict[str, Any]) -> None:
    """Refuse ``rules`` or ``strategy`` sent for a game that has no such setting (six dice,
    grid court), as the table's API does, instead of dropping them: a field saying anything
    is refused (false, null and "" say nothing)."""
    game = find_game(attrs.get("game") or attrs["league"].game)
    has = game.settings()
    sent = given if hasattr(given, "get") else {}
    foreign = [
        field
        for field in ("rules", "strategy")  # a season's or tournament's own (Game.settings)
        if field not in has and field in sent and sent.get(field) not in (None, False, "", "false")
    ]
    if foreign:
        takes = "its rules are given in options" if "options" in has else "it has no settings"
        raise serializers.ValidationError(
            {field: [f"Not a setting of {game.title}: {takes}."] for field in foreign}
        )


def _teams_found(value: list[int]) -> list[Team]:
    """Return the teams of ``value`` in its order, or refuse naming every unknown id and
    every id listed twice, all at once."""
    found = Team.objects.in_bulk(value)
    problems = []
    missing = sorted({pk for pk in value if pk not in found})
    if missing:
        problems.append(f"No team {', '.join(str(pk) for pk in missing)}.")
    twice = sorted({pk for pk in value if value.count(pk) > 1})
    if twice:
        problems.append(f"Listed twice: team {', '.join(str(pk) for pk in twice)}.")
    if problems:
        raise serializers.ValidationError(problems)
    return [found[pk] for pk in value]


class LeagueCreateSerializer(ClosedBody, serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100, help_text="Its slug is made from the name.")
    description = serializers.CharField(required=False, allow_blank=True, default="")


class SeasonCreateSerializer(ClosedBody, serializers.Serializer[Any]):
    league = IdField(queryset=League.objects.all())
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
    cross_conference_games = serializers.IntegerField(default=0, min_value=0, max_value=_SMALL_MAX)
    start_date = CalendarDateField(required=False, allow_null=True, default=None)
    days_between_rounds = serializers.IntegerField(
        default=1, min_value=1, max_value=DAYS_BETWEEN_MAX
    )
    home_court = serializers.BooleanField(default=True)
    rules = serializers.ChoiceField(choices=RulesPreset.choices, default=RulesPreset.ADVANCED)
    strategy = serializers.BooleanField(default=True)
    game = serializers.ChoiceField(
        choices=game_choices(),
        required=False,
        allow_null=True,
        default=None,
        help_text="The game its games play: vabg, gridcourt or sixdice (the league's if not "
        "given).",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text=options_help(),
    )
    seed = master_seed_field()

    def validate_teams(self, value: list[int]) -> list[Team]:
        return _teams_found(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        settings_in_game(self.initial_data, attrs)
        return attrs


class TournamentCreateSerializer(ClosedBody, serializers.Serializer[Any]):
    league = IdField(queryset=League.objects.all())
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
    from_season = IdField(
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
    game = serializers.ChoiceField(
        choices=game_choices(),
        required=False,
        allow_null=True,
        default=None,
        help_text="The game its games play: vabg, gridcourt or sixdice (the league's if not "
        "given).",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text=options_help(),
    )
    seed = master_seed_field()

    def validate_teams(self, value: list[int]) -> list[Team]:
        return _teams_found(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if sum(key in attrs for key in ("teams", "field", "from_season")) != 1:
            raise serializers.ValidationError(
                "Give exactly one of teams (in seed order), field or from_season."
            )
        if "advance" in attrs and "from_season" not in attrs:
            raise serializers.ValidationError({"advance": ["Give advance with from_season."]})
        settings_in_game(self.initial_data, attrs)
        return attrs


class SimulateSerializer(ClosedBody, serializers.Serializer[Any]):
    scope = serializers.ChoiceField(
        choices=[c for c in SimulationRun.Scope.choices if c[0] != SimulationRun.Scope.RETRY]
    )
    round = serializers.IntegerField(
        required=False, min_value=1, max_value=_SMALL_MAX, help_text="scope=round"
    )
    date = CalendarDateField(required=False, help_text="scope=date or until")
    game = IdField(queryset=Game.objects.all(), required=False, help_text="scope=game")

    NEEDS = {"round": ("round",), "date": ("date",), "until": ("date",), "game": ("game",)}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Refuse a value the scope does not read (``round`` with ``scope: all`` would be
        ignored, and the whole season played)."""
        wanted = self.NEEDS.get(attrs["scope"], ())
        extra = [k for k in ("round", "date", "game") if k in attrs and k not in wanted]
        if extra:
            raise serializers.ValidationError(
                {k: [f"scope={attrs['scope']} reads no {k}."] for k in extra}
            )
        return attrs


class SimulationRunSerializer(serializers.ModelSerializer[SimulationRun]):
    url = serializers.HyperlinkedIdentityField(view_name="api:run-detail")
    percent = serializers.IntegerField(read_only=True)
    joined = serializers.BooleanField(
        read_only=True,
        help_text="True when these games were already being simulated: this is that run.",
    )
    stalled = serializers.SerializerMethodField(
        help_text="While running: why nothing has moved for a minute (no worker has taken its "
        "games: stopped, or busy with other work); null while it moves and once it ends."
    )

    class Meta:
        model = SimulationRun
        fields = [
            "id", "url", "season", "scope", "round", "game_date", "game", "status", "total",
            "done", "failed", "percent", "created_at", "finished_at", "error", "joined",
            "stalled",
        ]  # fmt: skip

    def get_stalled(self, run: SimulationRun) -> str | None:
        return run_stalled(run) or None


class RetrySerializer(ClosedBody, serializers.Serializer[Any]):
    games = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        help_text="Ids of the failed games to retry; all the season's failed games if left out.",
    )


class GameSerializer(PresetFields):
    home = TeamBriefSerializer(read_only=True)
    away = TeamBriefSerializer(read_only=True)
    home_score = serializers.IntegerField(
        source="result.home_score", read_only=True, allow_null=True
    )
    away_score = serializers.IntegerField(
        source="result.away_score", read_only=True, allow_null=True
    )
    overtimes = serializers.IntegerField(source="result.overtimes", read_only=True, allow_null=True)
    seed_str = _seed_text(nullable=True)

    class Meta:
        model = Game
        fields = [
            "id", "season", "round", "game_date", "label", "away", "home", "neutral",
            "conference_game", "bracket_key", "game", "options", "rules", "strategy", "kind",
            "status", "seed", "seed_str",
            "away_score", "home_score", "overtimes", "played_at",
        ]  # fmt: skip


BoxLineSerializer = _serializer(
    "BoxLine",
    {
        "player": serializers.IntegerField(allow_null=True, help_text="None: not on the roster."),
        "name": serializers.CharField(),
        "order": serializers.IntegerField(help_text="From 0, as the box score lists them."),
        **_ints(STATS),
        "start": serializers.IntegerField(
            help_text="Opening points (vabg-rulings.md §1): pts = start + 2 fgm + tpm + ftm."
        ),
    },
)


BoxTotalsSerializer = _serializer(
    "BoxTotals",
    {
        **_ints(STATS),
        "start": serializers.IntegerField(help_text="The team's opening points: 20."),
    },
)


class BoxSideSerializer(serializers.Serializer[Any]):
    side = serializers.CharField(source="key")
    team = TeamBriefSerializer()
    court = serializers.CharField(
        source="where", help_text='"home", "away", or "" on a neutral court.'
    )
    score = serializers.IntegerField()
    periods = serializers.ListField(child=serializers.IntegerField())
    team_turnovers = serializers.IntegerField(
        source="counted_team_turnovers",
        allow_null=True,
        help_text="Turnovers credited to no player; null for grid court and six dice.",
    )
    possessions = serializers.IntegerField(
        source="counted_possessions",
        allow_null=True,
        help_text="The team's possessions; null for grid court and six dice.",
    )
    lines = BoxLineSerializer(
        many=True, help_text="VABG's player lines; empty for the other games and a score typed in."
    )
    totals = BoxTotalsSerializer(
        source="line_totals",
        allow_null=True,
        help_text="The players' sums (to includes team turnovers); null without player lines "
        "(grid court and six dice: see box).",
    )


class BoxScoreSerializer(serializers.Serializer[Any]):
    game = GameSerializer()
    period_labels = serializers.ListField(child=serializers.CharField())
    sides = BoxSideSerializer(many=True, help_text="Away first, as box scores read.")
    box = serializers.DictField(
        source="game.result.box",
        help_text="Grid court and six dice: the game's own box score, {home, away}, as its "
        "engine builds it from the events (piece lines, team figures); empty for VABG, "
        "whose player lines are in sides.",
    )


class StorySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(help_text="The game's id.")
    headline = serializers.CharField(
        help_text='e.g. "No. 5 UCLA 1972 beat No. 4 Connecticut 2004 79-72 (Round 1)."'
    )
    sentences = serializers.ListField(
        child=serializers.CharField(), help_text="The story, a sentence an item."
    )
    text = serializers.CharField(help_text="The whole story as one paragraph.")
    upset = serializers.BooleanField(
        help_text="The winner was seeded at least 2 lines below its opponent."
    )
    overtimes = serializers.IntegerField(help_text="0 for a game decided in regulation.")
    markdown = serializers.CharField(help_text="The story and box score for a blog post.")
    html = serializers.CharField(help_text="The same as an HTML fragment.")


class TeamStatsQuerySerializer(serializers.Serializer[Any]):
    """A season's team stats' query: ``team`` an id, ``ordering`` the columns of
    ``context["orderable"]``, refused by field as every list's filters and ordering are."""

    team = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    ordering = serializers.CharField(required=False)

    def validate_ordering(self, value: str) -> list[str]:
        orderable = self.context["orderable"]
        terms = [t.strip() for t in value.split(",") if t.strip()]
        unknown = [t for t in terms if t.lstrip("-") not in orderable]
        if unknown:
            raise serializers.ValidationError(
                f"{', '.join(unknown)}: not a field to order by; use "
                f"{', '.join(sorted(orderable))} (a leading - reverses)."
            )
        return terms


class PlayByPlaySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    dice = serializers.DictField()
    rules = serializers.DictField()
    players = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField(allow_null=True)),
        help_text='Each side\'s players by the name an event gives ("team" and "player"): '
        '{"home": {"Bill Walton": 12, ...}, "away": {...}}, the id of /api/players/ID/ '
        "(null for a player since removed).",
    )
    events = serializers.ListField(child=serializers.DictField())


_player_columns: dict[str, serializers.Field[Any, Any, Any, Any]] = {
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


def _team_row() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    """The first columns of a team's season row: the team and its games."""
    return {
        "team": serializers.IntegerField(source="team_id"),
        "team_school": serializers.CharField(source="team__school"),
        "team_season": serializers.IntegerField(source="team__season"),
        "g": serializers.IntegerField(),
    }


TeamSeasonStatsSerializer = _serializer(
    "TeamSeasonStats",
    {
        **_team_row(),
        "w": serializers.IntegerField(),
        "l": serializers.IntegerField(),
        **_ints(STATS),
        "to": serializers.IntegerField(
            help_text="Turnovers: the players' and the team's own (team_turnovers, a "
            "turnover charged to no player), as a box score's team total counts them."
        ),
        **_ints(_TEAM_EXTRA),
        **_floats([f"{f}_pg" for f in (*STATS, "possessions", "opp_pts")]),
        "pts_per_poss": serializers.FloatField(allow_null=True),
    },
)
GameTeamSeasonStatsSerializer = _serializer(
    "GameTeamSeasonStats",
    {
        **_team_row(),
        "w": serializers.IntegerField(),
        "l": serializers.IntegerField(),
        **_ints(("pts", "opp_pts")),
        **_floats(["pts_pg", "opp_pts_pg"]),
        "totals": serializers.DictField(
            child=serializers.FloatField(allow_null=True),
            help_text="Every column of the game's box score (simulator.games: the lines' "
            "columns, then the team's), summed over the season's games; a rate (grid court's "
            "ppp) has no total: null.",
        ),
        "per_game": serializers.DictField(
            child=serializers.FloatField(allow_null=True),
            help_text="The same columns a game (a rate, such as grid court's ppp, is the mean "
            "of the games').",
        ),
    },
)
ExportBoxLineSerializer = _serializer(
    "ExportBoxLine",
    {
        "game": serializers.IntegerField(),
        "round": serializers.IntegerField(allow_null=True),
        "game_date": serializers.DateField(allow_null=True),
        "side": serializers.CharField(),
        "team_id": serializers.IntegerField(),
        "team": serializers.CharField(),
        "opponent_id": serializers.IntegerField(),
        "opponent": serializers.CharField(),
        "player": serializers.IntegerField(allow_null=True),
        "name": serializers.CharField(help_text="The player's name now."),
        "played_as": serializers.CharField(help_text="His name when the game was played."),
        **_ints(STATS),
        "start": serializers.IntegerField(
            help_text="Opening points (vabg-rulings.md §1): pts = start + 2 fgm + tpm + ftm."
        ),
    },
)
ExportPlayerStatsSerializer = _serializer(
    "ExportPlayerStats",
    {
        "team_id": serializers.IntegerField(),
        "team": serializers.CharField(),
        "player": serializers.IntegerField(allow_null=True),
        "name": serializers.CharField(),
        "g": serializers.IntegerField(),
        **_ints(STATS),
        **_floats([f"{f}_pg" for f in STATS]),
        **_floats(PERCENTS),
    },
)


_VABG_CATEGORIES = ", ".join(selectors.LEADER_CATEGORIES)


class LeaderQuerySerializer(serializers.Serializer[Any]):
    category = serializers.ChoiceField(
        choices=list(selectors.LEADER_CATEGORIES.items()),
        help_text="A VABG season's; a grid-court season ranks its pieces by a column of "
        "their lines (pts, fgm, fga, tpm, tpa, oreb, dreb, stl, to, three_sec), a six-dice "
        "season its teams by a team column (dunks, stl, ...).",
        # A refusal names the categories, as another game's does: a client learns them here.
        error_messages={
            "required": f"Name a category: one of {_VABG_CATEGORIES}.",
            "invalid_choice": f'"{{input}}" is not a category of VABG: use one of '
            f"{_VABG_CATEGORIES}.",
        },
    )
    per_game = serializers.BooleanField(
        default=True,
        help_text="Rank by the average a game (true) or by the season's total.",
        error_messages=NOT_TRUE_FALSE,
    )
    limit = serializers.IntegerField(
        default=10,
        min_value=1,
        max_value=100,
        help_text="How many leaders to rank, at most: fewer when fewer players (six dice: "
        "teams) have min_games. The answer's count is the rows ranked, as every list's "
        "count is its rows over all its pages (page_size below limit pages them).",
    )
    min_games = serializers.IntegerField(
        default=1,
        min_value=0,
        help_text="Rank only players (six dice: teams) with at least this many games. The "
        "leaders page asks per game for half the most games a team has played, rounded up: "
        "give that here for its board.",
    )


class GameLeaderQuerySerializer(LeaderQuerySerializer):
    """The leader query of a season of another game: its own categories."""

    category = serializers.CharField(required=False)  # type: ignore[assignment]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "category" not in attrs:
            raise serializers.ValidationError(
                {
                    "category": f"Name a category of {self.context['title']}: one of "
                    + ", ".join(self.context["categories"])
                    + "."
                }
            )
        return attrs

    def validate_category(self, value: str) -> str:
        keys: list[str] = self.context["categories"]
        if value not in keys:
            raise serializers.ValidationError(
                f'"{value}" is not a category of {self.context["title"]}: use one of '
                + ", ".join(keys)
                + "."
            )
        return value


class GameLogSerializer(serializers.ModelSerializer[BoxLine]):
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


class ScoreSheetSerializer(ClosedBody, serializers.Serializer[Any]):
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


class StandingsRowSerializer(serializers.Serializer[Any]):
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


class StandingsSerializer(serializers.Serializer[Any]):
    conference = serializers.CharField(help_text='"" for a season without conferences.')
    rows = StandingsRowSerializer(many=True)


class BracketSlotSerializer(serializers.Serializer[Any]):
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True, help_text="Once the game is final.")


class BracketChampionSerializer(serializers.Serializer[Any]):
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


class BracketGameSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text='The bracket slot, e.g. "East-R1-5" or "R2-3".')
    region = serializers.CharField(allow_null=True, help_text="None between regions.")
    position = serializers.IntegerField(help_text="From 1 down the round (and region).")
    game_id = serializers.IntegerField(allow_null=True, help_text="None until it is drawn.")
    status = serializers.CharField(help_text='The game\'s status, or "not drawn".')
    top = BracketSlotSerializer(allow_null=True, help_text="The better seed's line.")
    bottom = BracketSlotSerializer(allow_null=True)
    winner_id = serializers.IntegerField(allow_null=True)


class BracketRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField(help_text='"Round 1" ... "Final Four", "Championship".')
    games = BracketGameSerializer(many=True)


class BracketSerializer(serializers.Serializer[Any]):
    rounds = BracketRoundSerializer(many=True)
    champion = BracketChampionSerializer(allow_null=True, help_text="None until the final.")
