"""Play at the table: the pages and the JSON API of games played with real dice."""

from django.urls import path

from table import api, views

app_name = "table"

urlpatterns = [
    path("", views.index, name="index"),
    path("sign-in/", views.SignInView.as_view(), name="sign-in"),
    path("<int:pk>/", views.sheet, name="sheet"),
    path("api/games/", api.GamesView.as_view(), name="api-games"),
    path("api/games/<int:pk>/", api.GameView.as_view(), name="api-game"),
    path("api/games/<int:pk>/dice/", api.DiceView.as_view(), name="api-dice"),
    path("api/games/<int:pk>/choice/", api.ChoiceView.as_view(), name="api-choice"),
    path("api/games/<int:pk>/undo/", api.UndoView.as_view(), name="api-undo"),
    path("api/games/<int:pk>/finish/", api.FinishView.as_view(), name="api-finish"),
    path("api/games/<int:pk>/abandon/", api.AbandonView.as_view(), name="api-abandon"),
    path("api/games/<int:pk>/dice-file/", api.DiceFileView.as_view(), name="api-dice-file"),
    path(
        "api/games/<int:pk>/team-file/<str:side>/",
        api.TeamFileView.as_view(),
        name="api-team-file",
    ),
]
