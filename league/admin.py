"""The commissioner's view of games: stored results with their box scores."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.safestring import SafeString

from cards.admin import TeamAdmin
from cards.models import Team
from league import services
from league.models import Game, League, Season, SeasonTeam, SimulationRun
from league.presentation import box_score


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin[League]):
    list_display = ("name", "slug", "game", "created_at")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}


class SeasonTeamInline(admin.TabularInline[SeasonTeam, Season]):
    model = SeasonTeam
    extra = 0
    raw_id_fields = ("team",)
    fields = ("team", "conference", "region", "seed")


class RunInline(admin.TabularInline[SimulationRun, Season]):
    model = SimulationRun
    extra = 0
    can_delete = False
    fields = ("scope", "round", "game_date", "status", "done", "failed", "total", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ("__str__", "kind", "game", "rules", "home_court", "start_date", "progress")
    list_filter = ("kind", "game", "league", "rules")
    search_fields = ("name", "league__name")
    readonly_fields = ("seed", "created_at")
    inlines = (SeasonTeamInline, RunInline)
    actions = ("simulate_rest", "retry_failed")

    @admin.display(description="games played")
    def progress(self, season: Season) -> str:
        games = season.games.all()
        return f"{games.filter(status=Game.Status.FINAL).count()} of {games.count()}"

    @admin.action(description="Simulate the rest of the selected seasons")
    def simulate_rest(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            try:
                run = services.simulation_start(season=season, scope="all", user=request.user)
            except services.SimulationRefused as exc:
                self.message_user(request, f"{season}: {exc}.", messages.ERROR)
                continue
            verb = "is already running" if run.joined else "started"
            self.message_user(
                request, f"{season}: run {run.pk} {verb} for {run.total} games.", messages.INFO
            )

    @admin.action(description="Retry the failed games of the selected seasons")
    def retry_failed(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            _retry(self, request, season)


def _retry(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    season: Season,
    game_ids: list[int] | None = None,
) -> None:
    """Retry a season's failed games (or some of them) and say what was started."""
    try:
        run = services.simulation_retry(season=season, game_ids=game_ids, user=request.user)
    except services.SimulationRefused as exc:
        model_admin.message_user(request, f"{season}: {exc}.", messages.WARNING)
        return
    model_admin.message_user(
        request,
        f"{season}: failed games sent again to the workers (run {run.pk}, {run.total} games).",
        messages.INFO,
    )


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin[SimulationRun]):
    list_display = (
        "__str__", "status", "done", "failed", "total", "created_by", "created_at", "error",
    )  # fmt: skip
    list_filter = ("status", "scope")
    readonly_fields = (
        "season", "scope", "round", "game_date", "game", "status", "dispatch", "total",
        "done", "failed", "created_by", "created_at", "finished_at", "error",
    )  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = (
        "__str__", "season", "round", "game_date", "status", "score", "neutral", "played_at",
    )  # fmt: skip
    list_filter = ("status", "kind", "game", "neutral", "rules", "season")
    actions = ("simulate_selected", "retry_selected")
    search_fields = ("home__school", "away__school", "label")
    list_select_related = ("home", "away", "result")
    raw_id_fields = ("home", "away")
    readonly_fields = (
        "box", "status", "attempts", "played_at", "created_at", "error", "bracket_key",
    )  # fmt: skip

    @admin.action(description="Simulate the selected games (on the workers)")
    def simulate_selected(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        selected = list(queryset.values_list("pk", flat=True))
        sent = services.games_send(game_ids=selected)
        left = len(selected) - sent
        self.message_user(
            request,
            f"{sent} game(s) sent to the workers; their results appear as they are stored."
            + (f" {left} not sent: final, played at the table or already running." if left else ""),
        )

    @admin.action(description="Retry the selected failed games (once their cause is fixed)")
    def retry_selected(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        failed = queryset.filter(status=Game.Status.FAILED, season__isnull=False)
        by_season: dict[int, list[int]] = {}
        for season_id, game_id in failed.values_list("season_id", "pk"):
            by_season.setdefault(season_id, []).append(game_id)
        if not by_season:
            self.message_user(request, "None of the selected games failed.", messages.WARNING)
        for season in Season.objects.filter(pk__in=by_season):
            _retry(self, request, season, by_season[season.pk])

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
                    "game",
                    "options",
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
                "game",
                "options",
                "rules",
                "strategy",
                "kind",
                "seed",
                "season",
                "round",
                "game_date",
            )
        return self.readonly_fields


# -- exhibitions, from the teams' list ---------------------------------------------------------


class ExhibitionForm(forms.Form):
    home = forms.ModelChoiceField(queryset=Team.objects.none(), empty_label=None)
    neutral = forms.BooleanField(required=False, help_text="Play on a neutral court.")
    seed = forms.IntegerField(
        required=False, min_value=0, help_text="Leave empty for fresh dice; fill to replay a game."
    )

    def __init__(self, *args: Any, teams: QuerySet[Team], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        home = self.fields["home"]
        assert isinstance(home, forms.ModelChoiceField)
        home.queryset = teams


class LeagueTeamAdmin(TeamAdmin):
    """The teams' admin of ``cards`` with the league's own action: play an exhibition.

    The league builds on the cards app, not the other way round, so the action that plays
    a game is added here, to the one teams' admin the site shows.
    """

    actions = [*TeamAdmin.actions, "play_exhibition"]

    @admin.action(description="Play an exhibition game between the two selected teams")
    def play_exhibition(
        self, request: HttpRequest, queryset: QuerySet[Team]
    ) -> HttpResponse | None:
        if not request.user.has_perm("league.add_game"):
            raise PermissionDenied
        teams = list(queryset.order_by("school", "season"))
        if len(teams) != 2:
            messages.error(request, "Select exactly two teams to play an exhibition game.")
            return None
        form = ExhibitionForm(
            request.POST if "play" in request.POST else None,
            teams=queryset,
            initial={"home": teams[1]},
        )
        if "play" in request.POST and form.is_valid():
            home = form.cleaned_data["home"]
            away = teams[0] if home == teams[1] else teams[1]
            try:
                game = services.exhibition_play(
                    home=home,
                    away=away,
                    neutral=form.cleaned_data["neutral"],
                    seed=form.cleaned_data["seed"],
                )
            except services.GameNotPlayable as exc:
                messages.error(request, str(exc))
                return None
            return HttpResponseRedirect(reverse("admin:league_game_change", args=[game.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": "Play an exhibition game",
            "form": form,
            "teams": teams,
            "opts": self.model._meta,
            "action": "play_exhibition",
        }
        return TemplateResponse(request, "admin/league/exhibition.html", context)


admin.site.unregister(Team)
admin.site.register(Team, LeagueTeamAdmin)
