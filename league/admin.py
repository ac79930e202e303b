"""The commissioner's view of games: stored results with their box scores."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from league.models import Game
from league.presentation import box_score


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "label", "status", "score", "neutral", "rules", "played_at")
    list_filter = ("status", "kind", "neutral", "rules")
    search_fields = ("home__school", "away__school", "label")
    list_select_related = ("home", "away", "result")
    raw_id_fields = ("home", "away")
    readonly_fields = ("box", "status", "attempts", "played_at", "created_at", "error")
    fieldsets = (
        ("Box score", {"fields": ("box",)}),
        ("Game", {"fields": ("label", "home", "away", "neutral", "rules", "strategy", "kind")}),
        (
            "Simulation",
            {"fields": ("seed", "status", "attempts", "played_at", "created_at", "error")},
        ),
    )

    @admin.display(description="score")
    def score(self, game: Game) -> str:
        result = getattr(game, "result", None)
        return f"{result.away_score}-{result.home_score}" if result else ""

    @admin.display(description="box score")
    def box(self, game: Game) -> SafeString | str:
        box = box_score(game) if game.pk else None
        if box is None:
            return "Not played yet."
        return render_to_string("league/box_score.html", {"box": box})

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is not None and obj.status == Game.Status.FINAL:
            # A played game is history: only its label may change.
            return (
                *self.readonly_fields,
                "home",
                "away",
                "neutral",
                "rules",
                "strategy",
                "kind",
                "seed",
            )
        return self.readonly_fields
