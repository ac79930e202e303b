"""The fans' pages."""

from django.urls import path

from league import game_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("seasons/<int:pk>/", views.season_detail, name="season"),
    path("seasons/<int:pk>/progress/", views.season_progress, name="season-progress"),
    path("seasons/<int:pk>/leaders/", views.leaders, name="leaders"),
    path("seasons/<int:pk>/bracket/", views.bracket, name="bracket"),
    path("games/<int:pk>/", game_views.game_detail, name="game"),
    path("games/<int:pk>/replay/", game_views.replay, name="game-replay"),
    path("games/<int:pk>/story.md", views.game_story_markdown, name="game-story-md"),
    path("games/<int:pk>/story.html", views.game_story_html, name="game-story-html"),
    path("seasons/", views.seasons_list, name="seasons"),
    path("tournaments/", views.tournaments_list, name="tournaments"),
    path("leaders/", views.latest_leaders, name="latest-leaders"),
    path("teams/", views.teams, name="teams"),
    path("teams/<int:pk>/", views.team_detail, name="team"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("search/", views.search, name="search"),
    path("matchup/", views.matchup, name="matchup"),
    path("seasons/<int:pk>/odds/", game_views.season_odds, name="season-odds"),
]
