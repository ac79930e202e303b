"""The commissioner's view of games: stored results with their box scores."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from league import services
from league.models import Game, League, Season, SeasonTeam, SimulationRun
from league.presentation import box_score


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}


class SeasonTeamInline(admin.TabularInline):
    model = SeasonTeam
    extra = 0
    raw_id_fields = ("team",)
    fields = ("team", "conference", "region", "seed")


class RunInline(admin.TabularInline):
    model = SimulationRun
    extra = 0
    can_delete = False
    fields = ("scope", "round", "game_date", "status", "done", "failed", "total", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("__str__", "kind", "rules", "home_court", "start_date", "progress")
    list_filter = ("kind", "league", "rules")
    search_fields = ("name", "league__name")
    readonly_fields = ("seed", "created_at")
    inlines = (SeasonTeamInline, RunInline)
    actions = ("simulate_rest",)

    @admin.display(description="games played")
    def progress(self, season: Season) -> str:
        games = season.games.all()
        return f"{games.filter(status=Game.Status.FINAL).count()} of {games.count()}"

    @admin.action(description="Simulate the rest of the selected seasons")
    def simulate_rest(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            run = services.simulation_start(season=season, scope="all", user=request.user)
            self.message_user(
                request, f"{season}: run {run.pk} started for {run.total} games.", messages.INFO
            )


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "done", "failed", "total", "created_by", "created_at")
    list_filter = ("status", "scope")
    readonly_fields = (
        "season", "scope", "round", "game_date", "game", "status", "dispatch", "total",
        "done", "failed", "created_by", "created_at", "finished_at",
    )  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "__str__", "season", "round", "game_date", "status", "score", "neutral", "played_at",
    )  # fmt: skip
    list_filter = ("status", "kind", "neutral", "rules", "season")
    actions = ("simulate_selected",)
    search_fields = ("home__school", "away__school", "label")
    list_select_related = ("home", "away", "result")
    raw_id_fields = ("home", "away")
    readonly_fields = (
        "box", "status", "attempts", "played_at", "created_at", "error", "bracket_key",
    )  # fmt: skip

    @admin.action(description="Simulate the selected games")
    def simulate_selected(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        played = failed = 0
        for game in queryset.filter(kind=Game.Kind.SIMULATED).exclude(status=Game.Status.FINAL):
            result = services.game_play(game_id=game.pk)
            if result is not None and result.status == Game.Status.FINAL:
                played += 1
            else:
                failed += 1
        self.message_user(request, f"{played} game(s) played, {failed} not played.")

    fieldsets = (
        ("Box score", {"fields": ("box",)}),
        (
            "Game",
            {
                "fields": (
                    "label",
                    "season",
                    "round",
                    "game_date",
                    "bracket_key",
                    "home",
                    "away",
                    "neutral",
                    "rules",
                    "strategy",
                    "kind",
                )
            },
        ),
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
                "season",
                "round",
                "game_date",
            )
        return self.readonly_fields
