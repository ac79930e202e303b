"""The REST API of leagues: seasons, schedules, box scores, play-by-play, stats and exports.

Everyone reads; commissioners create leagues, seasons and tournaments, start simulations
and store games played at the table (the permission is ``core.api``'s). Every list is
filtered, ordered and paginated with a bounded number of queries.

By layer: ``serializers`` (what goes in and out), ``filters`` (the lists' query
parameters), ``exports`` (CSV), ``views`` (one call into services or selectors each).
"""

from league.api.views import (
    GameViewSet,
    LeadersViewSet,
    LeagueViewSet,
    PlayerGameLogViewSet,
    PlayerSeasonStatsViewSet,
    SeasonViewSet,
    SimulationRunViewSet,
    TeamSeasonStatsViewSet,
    TournamentViewSet,
)

__all__ = [
    "GameViewSet",
    "LeadersViewSet",
    "LeagueViewSet",
    "PlayerGameLogViewSet",
    "PlayerSeasonStatsViewSet",
    "SeasonViewSet",
    "SimulationRunViewSet",
    "TeamSeasonStatsViewSet",
    "TournamentViewSet",
]
