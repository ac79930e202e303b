"""The REST API's routes under /api/, its OpenAPI schema and the Swagger UI."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from cards import api as cards_api
from league import api as league_api

app_name = "api"

router = DefaultRouter()
router.register("teams", cards_api.TeamViewSet, basename="team")
router.register("players", cards_api.PlayerViewSet, basename="player")
router.register(
    r"players/(?P<player_id>\d+)/games", league_api.PlayerGameLogViewSet, basename="player-games"
)
router.register("cards", cards_api.CardViewSet, basename="card")
router.register("leagues", league_api.LeagueViewSet, basename="league")
router.register("seasons", league_api.SeasonViewSet, basename="season")
router.register(
    r"seasons/(?P<season_id>\d+)/player-stats",
    league_api.PlayerSeasonStatsViewSet,
    basename="season-player-stats",
)
router.register(
    r"seasons/(?P<season_id>\d+)/team-stats",
    league_api.TeamSeasonStatsViewSet,
    basename="season-team-stats",
)
router.register(
    r"seasons/(?P<season_id>\d+)/leaders", league_api.LeadersViewSet, basename="season-leaders"
)
router.register("tournaments", league_api.TournamentViewSet, basename="tournament")
router.register("games", league_api.GameViewSet, basename="game")
router.register("runs", league_api.SimulationRunViewSet, basename="run")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    *router.urls,
]
