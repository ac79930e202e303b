"""The REST API's routes under /api/, its OpenAPI schema and the Swagger UI."""

from django.urls import path
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.reverse import reverse
from rest_framework.routers import APIRootView, DefaultRouter
from rest_framework.settings import api_settings

from cards import api as cards_api
from challenge import api as challenge_api
from config.throttling import SignInRateThrottle
from core.schema_view import SchemaView
from core.tokens import TokenView
from league import api as league_api
from league.api import odds as odds_api

app_name = "api"


class ApiRoot(APIRootView):
    """The league's REST API: anyone reads every list and object (anonymous clients
    throttled), commissioners also write; a fan's token plays at the table and picks
    brackets. Each resource below lists its objects; `docs` is the Swagger UI of every
    address, `schema` its OpenAPI 3 schema, `auth-token` gives a token for a user name and
    password, `matchup` the exact odds of any two teams (`?home=ID&away=ID`)."""

    EXTRA = {"matchup": "matchup", "auth-token": "token", "schema": "schema", "docs": "docs"}
    """Addresses outside the router's resources, listed after them."""

    def get_view_name(self) -> str:
        return "VABG league API"

    def get(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        answer = super().get(request, *args, **kwargs)
        for key, name in self.EXTRA.items():
            answer.data[key] = reverse(f"api:{name}", request=request)
        return answer


class Router(DefaultRouter):
    APIRootView = ApiRoot


router = Router()
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
router.register("challenges", challenge_api.ChallengeViewSet, basename="challenge")
router.register("challenge-entries", challenge_api.EntryViewSet, basename="challenge-entry")

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    # DRF's token view has no throttle of its own: the API's, and a password tried counted
    # by address as a fan's sign-in is.
    path(
        "auth/token/",
        TokenView.as_view(
            throttle_classes=[*api_settings.DEFAULT_THROTTLE_CLASSES, SignInRateThrottle]
        ),
        name="token",
    ),
    # The exact odds (issue 13), beside the routers' resources they belong to.
    path("games/<int:pk>/preview/", odds_api.GamePreviewView.as_view(), name="game-preview"),
    path(
        "games/<int:pk>/win-probability/",
        odds_api.GameWinProbabilityView.as_view(),
        name="game-win-probability",
    ),
    path("matchup/", odds_api.MatchupView.as_view(), name="matchup"),
    path(
        "tournaments/<int:pk>/odds/",
        odds_api.TournamentOddsView.as_view(),
        name="tournament-odds",
    ),
    path("seasons/<int:pk>/odds/", odds_api.SeasonOddsView.as_view(), name="season-odds"),
    *router.urls,
]
