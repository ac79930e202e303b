"""Play at the table: the pages and the JSON API of games played with real dice."""

from django.urls import path

app_name = "table"

urlpatterns: list[object] = []
