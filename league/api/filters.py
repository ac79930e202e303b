"""The API's list filters (django-filter): every id is checked before it reaches a query."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet

from core.api import IdFilter, TrueFalseFilter, WholeNumberFilter
from league.models import Game, League, Season, SimulationRun

ROUND_MAX = 32767  # the round's small-integer column


class LeagueFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(
        lookup_expr="icontains", help_text="Leagues whose name contains this (any case)."
    )
    slug = django_filters.CharFilter(help_text="The league with this slug.")

    class Meta:
        model = League
        fields = ["name", "slug"]


class SeasonFilter(django_filters.FilterSet):
    league = IdFilter(field_name="league", help_text="Seasons of this league (its id).")
    team = IdFilter(field_name="entries__team", help_text="Seasons a team is in.")
    slug = django_filters.CharFilter(help_text="Seasons with this slug (unique in a league).")

    class Meta:
        model = Season
        fields = ["league", "kind", "slug"]


class GameFilter(django_filters.FilterSet):
    league = IdFilter(field_name="season__league", help_text="Games of this league's seasons.")
    team = IdFilter(method="filter_team", help_text="Home or away.")
    player = IdFilter(
        field_name="result__lines__player", help_text="Games with a box-score line of his."
    )
    date = django_filters.DateFilter(field_name="game_date", help_text="Played on (YYYY-MM-DD).")
    date_from = django_filters.DateFilter(
        field_name="game_date", lookup_expr="gte", help_text="On or after (YYYY-MM-DD)."
    )
    date_to = django_filters.DateFilter(
        field_name="game_date", lookup_expr="lte", help_text="On or before (YYYY-MM-DD)."
    )
    season = IdFilter(field_name="season", help_text="Games of this season (a tournament too).")
    round = WholeNumberFilter(
        field_name="round",
        min_value=1,
        max_value=ROUND_MAX,
        help_text="Games of this round (of a season's schedule or a tournament's bracket).",
    )
    conference_game = TrueFalseFilter(
        field_name="conference_game",
        help_text="true: only games between teams of the same conference; false: only the "
        "others (also 1/0, yes/no).",
    )
    neutral = TrueFalseFilter(
        field_name="neutral",
        help_text="true: only games on a neutral court; false: only games at the home team's "
        "court (also 1/0, yes/no).",
    )

    class Meta:
        model = Game
        fields = ["season", "round", "status", "kind", "conference_game", "neutral"]

    def filter_team(self, queryset: QuerySet[Game], name: str, value: int) -> QuerySet[Game]:
        return queryset.filter(Q(home=value) | Q(away=value))


class RunFilter(django_filters.FilterSet):
    season = IdFilter(field_name="season", help_text="Runs of this season.")

    class Meta:
        model = SimulationRun
        fields = ["season", "status", "scope"]


class PlayerStatsFilter(django_filters.FilterSet):
    team = IdFilter(field_name="team_id", help_text="The players of this team.")
    # The relation, not its column: read from player_id (nullable: a box line outlives
    # its player) the schema said the filter was nullable; it takes an id.
    player = IdFilter(field_name="player", help_text="This player's row.")
    min_games = WholeNumberFilter(
        method="filter_min_games", min_value=0, help_text="Players with at least this many games."
    )

    def filter_min_games(self, queryset: QuerySet[Any], name: str, value: int) -> QuerySet[Any]:
        # A method, typed: g is computed, so the schema cannot read its type from a model.
        return queryset.filter(g__gte=value)


class GameLogFilter(django_filters.FilterSet):
    season = IdFilter(field_name="result__game__season", help_text="Games of this season.")
    team = IdFilter(field_name="team_id", help_text="Games he played for this team.")
    date_from = django_filters.DateFilter(
        field_name="result__game__game_date", lookup_expr="gte", help_text="On or after."
    )
    date_to = django_filters.DateFilter(
        field_name="result__game__game_date", lookup_expr="lte", help_text="On or before."
    )
