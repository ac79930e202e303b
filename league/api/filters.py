"""The API's list filters (django-filter): every id is checked before it reaches a query."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet

from core.api import IdFilter, TrueFalseFilter
from league.models import Game, League, Season, SimulationRun


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
    season = IdFilter(field_name="season")
    conference_game = TrueFalseFilter(field_name="conference_game")
    neutral = TrueFalseFilter(field_name="neutral")

    class Meta:
        model = Game
        fields = ["season", "round", "status", "kind", "conference_game", "neutral"]

    def filter_team(self, queryset: QuerySet[Game], name: str, value: int) -> QuerySet[Game]:
        return queryset.filter(Q(home=value) | Q(away=value))


class RunFilter(django_filters.FilterSet):
    season = IdFilter(field_name="season")

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
