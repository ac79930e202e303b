"""The challenge's pages, under /challenges/ and /fans/."""

from django.urls import path

from challenge import views

app_name = "challenge"

urlpatterns = [
    path("fans/signup/", views.signup, name="signup"),
    path("fans/signin/", views.signin, name="signin"),
    path("fans/signout/", views.signout, name="signout"),
    path("fans/entries/", views.my_entries, name="mine"),
    path("challenges/", views.challenges, name="list"),
    path("challenges/<int:pk>/", views.pool, name="pool"),
    path("challenges/<int:pk>/join/", views.join, name="join"),
    path("challenges/<int:pk>/picks/", views.picks, name="picks"),
    path("challenges/entries/<int:pk>/", views.entry, name="entry"),
    path("challenges/entries/<int:pk>/leave/", views.leave, name="leave"),
]
