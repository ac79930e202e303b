"""The commissioner's view of leagues, seasons, runs and games.

A season is added through ``services.season_create`` (its teams, grouping and schedule in
one form), and a run started here answers at once: its page follows the run's progress.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.widgets import (
    AdminDateWidget,
    FilteredSelectMultiple,
    RelatedFieldWidgetWrapper,
)
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString

from cards.admin import CardAdmin, PlayerAdmin, TeamAdmin, TeamLabelSearch
from cards.models import Card, Player, Team
from core.admin import (
    LabelledInlineFormSet,
    StoredTitleAdmin,
    guard_delete_selected,
    lines_html,
)
from core.deletion import CountedDeleteAdmin
from core.errors import sentence
from core.text import counted, whole_number
from league import background, replays, services, tournaments
from league.dispatch import team_odds_enqueue
from league.errors import GamesNotSent
from league.models import (
    Game,
    League,
    ResearchRun,
    RulesPreset,
    Season,
    SeasonTeam,
    SimulationRun,
    options_help,
)
from league.presentation import box_score
from league.scheduling import DAYS_BETWEEN_MAX
from league.teamfiles import teams_playable
from simulator.games import DEFAULT_GAME, find_game, game_choices
from simulator.seeds import SEED_MAX


class LeagueForm(forms.ModelForm[League]):
    def clean_name(self) -> str:
        """Refuse a name too close to another league's, as ``create_season`` does: with
        "All-time League" here, an "all-time league" (another slug) was saved, and the
        command then picked either by how its name was written."""
        name = str(self.cleaned_data["name"]).strip()
        problem = services.league_name_problem(name=name, league_id=self.instance.pk)
        if problem:
            raise ValidationError(sentence(problem))
        return name


def runs_refused(model_admin: Any, request: HttpRequest, runs: QuerySet[SimulationRun]) -> bool:
    """Refuse to delete what a running simulation run is playing, naming the runs (a
    message); tell whether it was refused. A season deleted under its run was a server
    error (a worker stored a game into the rows being deleted), and a game deleted under
    it left the run "running" for ever, one game short of its total."""
    running = list(runs.filter(status=SimulationRun.Status.RUNNING).select_related("season"))
    if not running:
        return False
    names = ", ".join(f"{r} ({r.done} of {r.total} games)" for r in running)
    model_admin.message_user(
        request,
        f"Nothing deleted: {names} still playing these games. Delete them once the run has "
        "ended (its page follows it).",
        messages.ERROR,
    )
    return True


def _runs_playing(games: QuerySet[Game]) -> QuerySet[SimulationRun]:
    """The runs that may still play any of ``games``: those of the seasons of its games not
    yet final."""
    seasons = games.exclude(status=Game.Status.FINAL).values("season_id")
    return SimulationRun.objects.filter(season__in=seasons)


class RunsGuardAdmin:
    """Deleting from the admin (one object or "Delete selected") is refused while a running
    simulation run plays what would go (:func:`runs_refused`)."""

    def running_runs(self, queryset: QuerySet[Any]) -> QuerySet[SimulationRun]:
        raise NotImplementedError

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        model = self.model  # type: ignore[attr-defined]
        found = model._base_manager.filter(pk=object_id) if whole_number(object_id) else None
        if found is not None and runs_refused(self, request, self.running_runs(found)):
            opts = model._meta
            return HttpResponseRedirect(
                reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[object_id])
            )
        response: HttpResponse = super().delete_view(  # type: ignore[misc]
            request, object_id, extra_context
        )
        return response

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        def refused(request: HttpRequest, queryset: QuerySet[Any]) -> bool:
            return runs_refused(self, request, self.running_runs(queryset))

        return guard_delete_selected(super().get_actions(request), refused)  # type: ignore[misc]


@admin.register(League)
class LeagueAdmin(RunsGuardAdmin, CountedDeleteAdmin[League], StoredTitleAdmin[League]):
    form = LeagueForm

    def running_runs(self, queryset: QuerySet[League]) -> QuerySet[SimulationRun]:
        return SimulationRun.objects.filter(season__league__in=queryset)

    list_display = ("name", "slug", "game", "created_at")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}


class SeasonTeamFormSet(LabelledInlineFormSet):
    """A round robin's conferences once it has games: renamed, never regrouped."""

    def row_name(self, instance: Any) -> str:
        return str(instance.team)

    def clean(self) -> None:
        super().clean()
        season = self.instance
        if season.pk is None or season.kind == Season.Kind.TOURNAMENT:
            return
        if not season.games.exists():
            return
        before = dict(SeasonTeam.objects.filter(season=season).values_list("pk", "conference"))
        after = dict(before)
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if form.instance.pk in before and "conference" in data:
                after[form.instance.pk] = data["conference"]
        renamed: dict[str, str] = {}
        named: dict[str, str] = {}
        for pk, old in before.items():
            new = after[pk]
            if renamed.setdefault(old, new) != new or named.setdefault(new, old) != old:
                raise ValidationError(
                    "Once a season has games its conferences keep their teams: its conference "
                    "games were scheduled in them and its standings count them there. Rename a "
                    "conference by giving all its teams the new name; to group the teams "
                    "otherwise, add a season."
                )


class SeasonTeamInline(admin.TabularInline[SeasonTeam, Season]):
    """A season's teams. Once it has games its teams are fixed (a team taken out would leave
    its games out of the standings), and so are a tournament's regions and seeds (its bracket
    was drawn from them) and a round robin's grouping (a conference may be renamed, all its
    teams at once, but no team moves to another: its conference games were scheduled in it)."""

    model = SeasonTeam
    formset = SeasonTeamFormSet
    extra = 0
    raw_id_fields = ("team",)
    fields = ("team", "conference", "region", "seed")

    def get_queryset(self, request: HttpRequest) -> QuerySet[SeasonTeam]:
        # Each row names its team: one query for all of them, not one a row (a 96-team
        # season's page made 310).
        return super().get_queryset(request).select_related("team", "season__league")

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> Any:
        if obj is None or not obj.games.exists():
            return ()
        if obj.kind == Season.Kind.TOURNAMENT:
            return ("team", "region", "seed")
        return ("team",)

    def has_add_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        return (obj is None or not obj.games.exists()) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        return (obj is None or not obj.games.exists()) and super().has_delete_permission(
            request, obj
        )


class RunInline(admin.TabularInline[SimulationRun, Season]):
    model = SimulationRun
    extra = 0
    can_delete = False
    fields = ("scope", "round", "game_date", "status", "done", "failed", "total", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeasonAddForm(forms.Form):
    """A new round-robin season: what ``manage.py create_season`` and the API ask for."""

    league = forms.ModelChoiceField(queryset=League.objects.all())
    name = forms.CharField(max_length=100, help_text='For example "Winter 2026".')
    teams = forms.ModelMultipleChoiceField(
        queryset=Team.objects.all(),
        required=False,
        widget=FilteredSelectMultiple("teams", is_stacked=False),
        help_text="The teams that play the season (at least two), or tick every team below.",
    )
    every_team = forms.BooleanField(
        required=False,
        label="Every team loaded",
        help_text="Every team the game can play: a team whose cards are incomplete is left "
        "out, named.",
    )
    left_out: list[str] = []  # why each team "every team loaded" left out was left out
    grouping = forms.ChoiceField(
        choices=[
            ("team", "By each team's own conference"),
            ("none", "One group: everyone plays everyone"),
        ],
        initial="team",
        label="Groups",
        help_text="A team alone in its conference plays with the independents (Independent).",
    )
    double_round_robin = forms.BooleanField(
        required=False, help_text="Each pair meets twice, once at each home."
    )
    cross_conference_games = forms.IntegerField(
        initial=0, min_value=0, max_value=services.ROUND_MAX, help_text="Per team, played first."
    )
    start_date = forms.DateField(
        required=False, widget=AdminDateWidget, help_text="Today if empty."
    )
    days_between_rounds = forms.IntegerField(initial=1, min_value=1, max_value=DAYS_BETWEEN_MAX)
    home_court = forms.BooleanField(
        required=False, initial=True, help_text="Off: every game on a neutral court."
    )
    game = forms.ChoiceField(choices=game_choices(), initial=DEFAULT_GAME)
    options = forms.JSONField(
        required=False,
        initial=dict,  # an empty box read "null", a value no game takes
        label="Game options",
        help_text=options_help(),
        error_messages={
            "invalid": 'Write the options as a JSON object, e.g. {"chip_reroll": true}, or '
            "leave the box empty."
        },
    )
    rules = forms.ChoiceField(
        choices=RulesPreset.choices,
        initial=RulesPreset.ADVANCED,
        label="Rules (VABG)",
        help_text="VABG's rules preset; the other games ignore it.",
    )
    strategy = forms.BooleanField(
        required=False,
        initial=True,
        label="Coach policy (VABG)",
        help_text="Let the coach foul late and try for 3 (vabg rules §10); the other games "
        "play their teams' coach styles instead, and ignore it.",
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=SEED_MAX,
        help_text="Fixes the schedule's order and every game's dice; random if empty.",
    )

    fieldsets = (
        (
            None,
            {
                "fields": ("league", "name"),
                "description": "A round-robin season and its whole schedule. A tournament is "
                "drawn by manage.py create_tournament or POST /api/tournaments/.",
            },
        ),
        ("Teams", {"fields": ("teams", "every_team", "grouping")}),
        (
            "Schedule",
            {
                "fields": (
                    "double_round_robin",
                    "cross_conference_games",
                    "start_date",
                    "days_between_rounds",
                    "home_court",
                )
            },
        ),
        ("Rules", {"fields": ("game", "options", "rules", "strategy", "seed")}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("options") is None:
            cleaned["options"] = {}
        game = cleaned.get("game")
        if game and not any(o.name == "strategy" for o in find_game(game).options):
            cleaned["strategy"] = False  # a switch this game has not: nothing to store
        if cleaned.get("every_team") and cleaned.get("teams"):
            self.add_error(
                "every_team",
                "Either choose the teams or tick every team loaded, not both: which did you "
                f"mean, the {len(cleaned['teams'])} chosen or all {Team.objects.count()}?",
            )
        elif cleaned.get("every_team"):
            # every team the game can play: one whose cards are incomplete is left out, and
            # the page says so (its games would fail only when simulated)
            every = list(Team.objects.order_by("school", "season"))
            cleaned["teams"], self.left_out = teams_playable(game or DEFAULT_GAME, every)
        elif len(cleaned.get("teams") or ()) < 2 and "teams" not in self.errors:
            self.add_error("teams", "Choose at least two teams, or tick every team loaded.")
        return cleaned

    def season_arguments(self) -> dict[str, Any]:
        """Return the keywords of ``services.season_create`` this form was filled with."""
        data = self.cleaned_data
        teams = list(data["teams"])
        return {
            "league": data["league"],
            "name": data["name"],
            "teams": teams,
            "conferences": {t.pk: t.conference for t in teams}
            if data["grouping"] == "team"
            else None,
            "double_round_robin": data["double_round_robin"],
            "cross_conference_games": data["cross_conference_games"],
            "start_date": data["start_date"],
            "days_between_rounds": data["days_between_rounds"],
            "home_court": data["home_court"],
            "game": data["game"],
            "rules": data["rules"],
            "strategy": data["strategy"],
            "seed": data["seed"],
            "options": data["options"],
        }


def _moved_to_independents(season: Season, conferences: dict[int, str] | None) -> str:
    """Say which teams play with the independents (or in another conference) than their
    own, being alone in it in this season (``scheduling.conference_groups``); "" if none."""
    if not conferences:
        return ""
    moved = [
        f"{entry.team} ({conferences.get(entry.team_id) or 'no conference'} → {entry.conference})"
        for entry in season.entries.select_related("team").order_by("team__school")
        if entry.conference != conferences.get(entry.team_id, "")
    ]
    if not moved:
        return ""
    return (
        f"{counted(len(moved), 'team')} alone in {'its' if len(moved) == 1 else 'their'} "
        f"conference this season {'plays' if len(moved) == 1 else 'play'} in another group: "
        f"{'; '.join(moved)} (a conference needs two teams of the season or more to play "
        "its round robin)."
    )


@admin.register(Season)
class SeasonAdmin(RunsGuardAdmin, CountedDeleteAdmin[Season], StoredTitleAdmin[Season]):
    list_display = ("__str__", "kind", "game", "rules", "home_court", "start_date", "progress")
    list_filter = ("kind", "game", "league", "rules")
    search_fields = ("name", "league__name")
    readonly_fields = ("seed", "created_at")
    inlines = (SeasonTeamInline, RunInline)
    actions = ("simulate_rest", "retry_failed", "play_again")

    def running_runs(self, queryset: QuerySet[Season]) -> QuerySet[SimulationRun]:
        return SimulationRun.objects.filter(season__in=queryset)

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> Any:
        """A season's kind, reseeding and seed are fixed when it is made; what its games are
        played with (``services.SEASON_PLAY_FIELDS``) once it has games."""
        if obj is None:
            return self.readonly_fields
        fixed: tuple[str, ...] = services.SEASON_MADE_FIELDS
        if services.season_fixed_reason(obj):
            fixed = (*fixed, *services.SEASON_PLAY_FIELDS)
        return (*fixed, "created_at")

    def get_fieldsets(self, request: HttpRequest, obj: Season | None = None) -> Any:
        if obj is None:
            return super().get_fieldsets(request, obj)
        reason = services.season_fixed_reason(obj)
        made = (
            "Its kind, reseeding and seed are fixed when it is made: a round robin by Add "
            "season (or manage.py create_season), a tournament and its bracket by manage.py "
            "create_tournament."
        )
        played: tuple[str, ...] = (*services.SEASON_MADE_FIELDS, *services.SEASON_PLAY_FIELDS)
        if reason and not find_game(obj.game).has_players:
            # Fixed to a game whose rules are its options: VABG's preset and coach-policy
            # switch would read as rules it plays by.
            played = tuple(f for f in played if f not in ("rules", "strategy"))
        return (
            (None, {"fields": ("league", "name", "slug", "start_date")}),
            (
                "How its games are played",
                {
                    "fields": played,
                    # The admin writes a fieldset's description as HTML (|safe): the
                    # reason names the league and the season, typed by a commissioner.
                    "description": escape(sentence(reason) if reason else made),
                },
            ),
            (None, {"fields": ("created_at",)}),
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        # The list's rows name their league and count their games in its one query.
        seasons: QuerySet[Season] = super().get_queryset(request).select_related("league")
        entries = (
            SeasonTeam.objects.filter(season=OuterRef("pk"))
            .order_by()
            .values("season")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return seasons.annotate(
            n_games=Count("games", distinct=True),
            n_final=Count("games", filter=Q(games__status=Game.Status.FINAL), distinct=True),
            n_entries=Subquery(entries),
        )

    @admin.display(description="games played")
    def progress(self, season: Season) -> str:
        """Games played of all the season's games: a tournament's whole bracket (one game a
        team but the champion), not only the rounds drawn so far."""
        final = getattr(season, "n_final", None)
        if final is None:  # a season not read through the list's query
            games = season.games.all()
            final, total, entries = (
                games.filter(status=Game.Status.FINAL).count(),
                games.count(),
                season.entries.count(),
            )
        else:
            total, entries = season.n_games, season.n_entries or 0  # type: ignore[attr-defined]
        if season.kind == Season.Kind.TOURNAMENT:
            total = max(total, entries - 1)
        return f"{final} of {total}"

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Add a season with its whole schedule (``services.season_create``)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = SeasonAddForm(request.POST if request.method == "POST" else None)
        # The "+" beside League, as on a model's own form: a new commissioner adds his first
        # league here instead of leaving the form for the leagues' page.
        form.fields["league"].widget = RelatedFieldWidgetWrapper(
            form.fields["league"].widget,
            Season._meta.get_field("league").remote_field,
            self.admin_site,
            can_add_related=True,
            can_change_related=False,
            can_delete_related=False,
            can_view_related=False,
        )
        if form.is_bound and form.is_valid():
            arguments = form.season_arguments()
            try:
                season = services.season_create(**arguments)
            except services.SeasonRefused as exc:
                form.add_error(None, lines_html(sentence(str(exc))))
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                self.log_addition(request, season, [{"added": {}}])
                self.message_user(
                    request,
                    f"{season} was added: {counted(len(form.cleaned_data['teams']), 'team')}, "
                    f"{counted(season.games.count(), 'game')}. Simulate it with the action of "
                    "the season list, or manage.py simulate.",
                    messages.SUCCESS,
                )
                moved = _moved_to_independents(season, arguments["conferences"])
                if moved:
                    self.message_user(request, moved, messages.WARNING)
                for left_out in form.left_out:
                    self.message_user(
                        request, lines_html(f"Left out: {left_out}."), messages.WARNING
                    )
                if "_addanother" in request.POST:
                    return HttpResponseRedirect(request.path)
                return HttpResponseRedirect(reverse("admin:league_season_change", args=[season.pk]))
        # AdminForm lays out any form by its fieldsets, not only a model's form.
        fieldsets: Any = SeasonAddForm.fieldsets
        admin_form = helpers.AdminForm(form, fieldsets, {}, model_admin=self)  # type: ignore[arg-type]
        context = {
            **self.admin_site.each_context(request),
            "title": "Add season",
            "subtitle": None,
            "adminform": admin_form,
            "object_id": None,
            "original": None,
            "is_popup": False,
            "to_field": None,
            "media": self.media + admin_form.media,
            "inline_admin_formsets": [],
            "errors": helpers.AdminErrorList(form, []),  # type: ignore[arg-type]
            "preserved_filters": self.get_preserved_filters(request),
            **(extra_context or {}),
        }
        return self.render_change_form(request, context, add=True, form_url=form_url)

    @admin.action(description="Simulate the rest of the selected seasons")
    def simulate_rest(
        self, request: HttpRequest, queryset: QuerySet[Season]
    ) -> HttpResponseRedirect | None:
        """Start a run per season; one season opens its run's page, which follows it."""
        runs = []
        for season in queryset:
            try:
                run = services.simulation_start(season=season, scope="all", user=request.user)
            except services.SimulationRefused as exc:
                self.message_user(request, _about(season, exc), messages.ERROR)
                continue
            except GamesNotSent as exc:  # the run is stored, its games wait for the broker
                self.message_user(request, _about(season, exc), messages.WARNING)
                continue
            if run.total == 0 and not run.joined:
                # No run of nothing is kept from the admin (a click on a finished season).
                run.delete()
                text = services.nothing_to_play(season, services.scope_filter(scope="all"))
                self.message_user(request, f"{season}: {text}", messages.WARNING)
                continue
            runs.append(run)
            if run.redrawn:
                self.message_user(request, services.redrawn_text(run), messages.WARNING)
            verb = "is already running" if run.joined else "started"
            self.message_user(
                request,
                format_html(
                    '{}: <a href="{}">run {}</a> {} for {}; its page follows it.',
                    season,
                    reverse("admin:league_simulationrun_change", args=[run.pk]),
                    run.pk,
                    verb,
                    counted(run.total, "game"),
                ),
                messages.INFO,
            )
        if len(runs) == 1 and queryset.count() == 1:
            return HttpResponseRedirect(
                reverse("admin:league_simulationrun_change", args=[runs[0].pk])
            )
        return None

    @admin.action(description="Retry the failed games of the selected seasons")
    def retry_failed(
        self, request: HttpRequest, queryset: QuerySet[Season]
    ) -> HttpResponseRedirect | None:
        """Retry each season's failed games; one season opens its run's page, as simulating
        the rest does."""
        runs = [run for season in queryset if (run := _retry(self, request, season))]
        if len(runs) == 1 and queryset.count() == 1:
            return HttpResponseRedirect(
                reverse("admin:league_simulationrun_change", args=[runs[0].pk])
            )
        return None

    @admin.action(
        description="Play the selected tournaments again (a new tournament, the same bracket)"
    )
    def play_again(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        """A new tournament of each one's very bracket (teams, regions, seeds, rules), a
        new seed; the first keeps its games and its pools."""
        for season in queryset:
            try:
                again = tournaments.tournament_again(season=season)
            except services.SeasonRefused as exc:
                self.message_user(request, lines_html(_about(season, exc)), messages.ERROR)
                continue
            link = reverse("admin:league_season_change", args=[again.pk])
            self.message_user(
                request,
                format_html(
                    '<a href="{}">{}</a> was drawn: {}\'s bracket again, {} in its '
                    "first round. Simulate it with the action above; {}'s games and pools "
                    "stay as they are.",
                    link,
                    again,
                    season,
                    counted(again.games.count(), "game"),
                    season,
                ),
                messages.SUCCESS,
            )


def _retry(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    season: Season,
    game_ids: list[int] | None = None,
) -> SimulationRun | None:
    """Retry a season's failed games (or some of them), say what was started (its run's
    page linked) and return the run."""
    try:
        run = services.simulation_retry(season=season, game_ids=game_ids, user=request.user)
    except (services.SimulationRefused, GamesNotSent) as exc:
        model_admin.message_user(request, _about(season, exc), messages.WARNING)
        return None
    model_admin.message_user(
        request,
        format_html(
            '{}: failed games played again {} (<a href="{}">run {}</a>, {}); its page follows it.',
            season,
            background.where(),
            reverse("admin:league_simulationrun_change", args=[run.pk]),
            run.pk,
            counted(run.total, "game"),
        ),
        messages.INFO,
    )
    return run


def _about(season: Season, refusal: Exception) -> str:
    """Return a refusal about ``season`` as a message, named once: "Mini Winter has no
    failed game to retry.", not "Mini Winter: Mini Winter has ..."."""
    text = str(refusal)
    return sentence(text if str(season) in text else f"{season}: {text}", name_first=True)


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin[SimulationRun]):
    """A run's page: its fields, and its progress followed live until it ends."""

    list_display = (
        "__str__", "status", "done", "failed", "total", "created_by", "created_at", "error",
    )  # fmt: skip
    list_filter = ("status", "scope")
    list_select_related = ("season__league", "created_by")
    readonly_fields = (
        "season", "scope", "round", "game_date", "game", "status", "dispatch", "total",
        "done", "failed", "created_by", "created_at", "finished_at", "error",
    )  # fmt: skip
    change_form_template = "admin/league/simulationrun/change_form.html"

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> Any:
        run = kwargs.get("obj")
        context["stalled"] = services.run_stalled(run) if run is not None else ""
        return super().render_change_form(request, context, *args, **kwargs)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a run is what happened: its page reads, with no Save buttons

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A running run deleted left its tournament half played with nothing to say so
        # (its games go on, unclaimed by any run): it is deleted once it has ended.
        if obj is not None and obj.status == SimulationRun.Status.RUNNING:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> Any:
        def refused(request: HttpRequest, queryset: QuerySet[SimulationRun]) -> bool:
            running = list(queryset.filter(status=SimulationRun.Status.RUNNING))
            if running:  # Django refused the lot with a bare 403
                self.message_user(
                    request,
                    f"Nothing deleted: {', '.join(str(r) for r in running)} still running. "
                    "A run is deleted once it has ended.",
                    messages.ERROR,
                )
            return bool(running)

        return guard_delete_selected(super().get_actions(request), refused)


@admin.register(ResearchRun)
class ResearchRunAdmin(admin.ModelAdmin[ResearchRun]):
    """Research runs (``manage.py research``): what each plays and how far it got; the
    plan itself (every card of the run) stays out of the page."""

    list_display = ("__str__", "kind", "total_games", "chunks_stored", "created_at", "finished_at")
    list_filter = ("kind",)
    fields = readonly_fields = (
        "label", "kind", "repetitions", "total_games", "chunks_stored", "created_at",
        "finished_at",
    )  # fmt: skip

    def get_queryset(self, request: HttpRequest) -> QuerySet[ResearchRun]:
        return (
            super()
            .get_queryset(request)
            .defer("plan")
            .annotate(stored=Count("played", distinct=True))
        )

    @admin.display(description="chunks stored")
    def chunks_stored(self, run: ResearchRun) -> str:
        return f"{getattr(run, 'stored', 0)} of {len(run.chunks)}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeasonFilter(admin.SimpleListFilter):
    """The games' season filter, its choices named with their leagues read in one query
    (Django's own filter read each season's league apart: a query a season)."""

    title = "season"
    parameter_name = "season__id__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(s.pk), str(s)) for s in Season.objects.select_related("league")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return queryset.filter(season_id=value) if value else queryset


GAME_OF_A_SEASON = ("game", "options")
GAME_OF_A_BRACKET = ("season", "round", "home", "away")


class GameAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """A game of a season keeps to it: its teams are the season's (a conference game's
    both of that conference); a game never joins, leaves or changes season here (its
    season's schedule made it, with its game, options and seed)."""

    class Meta:
        model = Game
        fields = (  # the admin gives the fields of its fieldsets less the read-only ones
            "label", "season", "round", "game_date", "home", "away", "neutral", "game",
            "options", "rules", "strategy", "kind", "seed",
        )  # fmt: skip
        help_texts = {
            "kind": "Real dice: simulations leave the game alone, for a result played by hand "
            "(at the table, or its score sheet or dice stored through the API).",
        }

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        game = self.instance
        if game.season_id is None:
            return data
        entries = {
            e.team_id: e.conference for e in SeasonTeam.objects.filter(season_id=game.season_id)
        }
        for side in ("home", "away"):
            team = data.get(side)
            if team is not None and team.pk not in entries:
                self.add_error(
                    side,
                    f"{team} is not a team of {game.season}: a season's games are played "
                    "between its own teams (they are fixed once it has games).",
                )
        if "round" in self.fields:
            self._round_check(data.get("round"))
        home, away = data.get("home"), data.get("away")
        if (
            game.conference_game
            and home is not None
            and away is not None
            and home.pk in entries
            and away.pk in entries
            and entries[home.pk] != entries[away.pk]
        ):
            raise ValidationError(
                f"This is a conference game of {entries[game.home_id] or 'no conference'}: "
                f"{home} ({entries[home.pk] or 'no conference'}) and {away} "
                f"({entries[away.pk] or 'no conference'}) are not of one conference."
            )
        return data

    def _round_check(self, chosen: int | None) -> None:
        """A season's game moves only between its schedule's rounds: round 999 made a
        round of one game on the season's page, between nothing."""
        game = self.instance
        last = (
            Game.objects.filter(season_id=game.season_id)
            .exclude(pk=game.pk)
            .aggregate(last=Max("round"))["last"]
        )
        if last is None:
            return  # a schedule without rounds (dates only): nothing to keep to
        if chosen is None or not 1 <= chosen <= last:
            self.add_error(
                "round",
                f"Choose a round of {game.season}'s schedule, 1 to {last}: a game moves "
                "between its season's rounds.",
            )


@admin.register(Game)
class GameAdmin(TeamLabelSearch[Game], CountedDeleteAdmin[Game], StoredTitleAdmin[Game]):
    """Games: a played one is history (only its label changes); a tournament's bracket game
    is never deleted alone (``tournaments.bracket_games_delete_check`` says why); a game
    never moves into, out of or between seasons (``GameAdminForm``)."""

    form = GameAdminForm

    list_display = (
        "__str__", "season", "round", "game_date", "status", "score", "neutral", "played_at",
    )  # fmt: skip
    list_filter = ("status", "kind", "game", "neutral", "rules", SeasonFilter)
    actions = ("simulate_selected", "retry_selected")
    search_fields = ("home__school", "away__school", "label")
    team_paths = ("home", "away")
    search_help_text = 'A school, a label, or a team as "School SEASON" ("Kentucky 2012").'
    list_select_related = ("home", "away", "result", "season__league")
    raw_id_fields = ("home", "away")
    readonly_fields = (
        "box", "status", "attempts", "played_at", "created_at", "error", "bracket_key",
    )  # fmt: skip

    def _delete_refused(self, request: HttpRequest, games: Any) -> bool:
        """Refuse to delete a tournament's bracket games, saying why (a message); tell
        whether it was refused."""
        try:
            tournaments.bracket_games_delete_check(games)
        except services.SeasonRefused as exc:
            self.message_user(request, sentence(str(exc)), messages.ERROR)
            return True
        return False

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        if game is not None and (
            runs_refused(self, request, _runs_playing(Game.objects.filter(pk=game.pk)))
            or self._delete_refused(request, [game])
        ):
            return HttpResponseRedirect(reverse("admin:league_game_change", args=[game.pk]))
        return super().delete_view(request, object_id, extra_context)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        def refused(request: HttpRequest, queryset: QuerySet[Game]) -> bool:
            if runs_refused(self, request, _runs_playing(queryset)):
                return True
            games = queryset.exclude(bracket_key="").select_related("season", "home", "away")
            return self._delete_refused(request, games)

        return guard_delete_selected(super().get_actions(request), refused)

    @admin.action(description="Simulate the selected games (on the workers)")
    def simulate_selected(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        selected = list(queryset.values_list("pk", flat=True))
        try:
            sent = services.games_send(game_ids=selected)
        except GamesNotSent as exc:
            self.message_user(request, sentence(str(exc)), messages.WARNING)
            return
        left = len(selected) - sent
        self.message_user(
            request,
            f"{counted(sent, 'game')} sent to be played {background.where()}; their results "
            "appear as they are stored."
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
        if not find_game(game.game).has_players:
            # Grid court's pieces, six dice's team figures: the fan page's box score in the
            # game's own columns, not VABG's player table of zeros and its 20-20 note.
            result = getattr(game, "result", None) if game.pk else None
            if result is None:
                return "Not played yet."
            return render_to_string(
                "pages/games/_box_score.html", {"box": replays.game_box(game, result)}
            )
        box = box_score(game) if game.pk else None
        if box is None:
            return "Not played yet."
        return render_to_string("league/box_score.html", {"box": box})

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            # A game added here is an exhibition: a season's games come from its schedule
            # (seeded from its master seed), a tournament's from its bracket.
            return (*self.readonly_fields, "season", "round")
        if obj.status == Game.Status.FINAL:
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
        if obj is not None and obj.bracket_key:
            # Drawn from the bracket: its teams, round and season are the bracket's.
            return (*self.readonly_fields, *GAME_OF_A_SEASON, *GAME_OF_A_BRACKET, "seed")
        if obj is not None and obj.season_id is not None:
            # A season plays one game: stats, leaders and pages read it from the season;
            # its seed comes from the season's master seed, so the season replays exactly;
            # it stays in its season (moved, it would change settled standings or play one
            # game's rules in another game's season).
            return (*self.readonly_fields, *GAME_OF_A_SEASON, "season", "seed")
        return (*self.readonly_fields, "season", "round")  # an exhibition stays one

    def get_fieldsets(self, request: HttpRequest, obj: Game | None = None) -> Any:
        fieldsets: Any = super().get_fieldsets(request, obj)
        if obj is not None and not find_game(obj.game).has_players:
            # VABG's rules preset and coach-policy switch mean nothing to another game: its
            # rules are its options.
            fields = tuple(f for f in fieldsets[1][1]["fields"] if f not in ("rules", "strategy"))
            fieldsets = (fieldsets[0], (fieldsets[1][0], dict(fieldsets[1][1], fields=fields)),
                         *fieldsets[2:])  # fmt: skip
        if obj is None or obj.status == Game.Status.FINAL or obj.season_id is None:
            return fieldsets
        why = (
            "Its teams, round and season come from the tournament's bracket, and its game "
            "and options from the season: they are fixed. "
            if obj.bracket_key
            else "Its game and options are the season's: a season plays one game. It stays "
            "in its season, between the season's teams. "
        )
        game_part = dict(fieldsets[1][1], description=why)
        return (fieldsets[0], (fieldsets[1][0], game_part), *fieldsets[2:])


# -- exhibitions, from the teams' list ---------------------------------------------------------


class ExhibitionForm(forms.Form):
    home = forms.ModelChoiceField(queryset=Team.objects.none(), empty_label=None)
    neutral = forms.BooleanField(required=False, help_text="Play on a neutral court.")
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=SEED_MAX,  # the bounds every seed column keeps (league.models.SEED_BOUNDS)
        help_text="Leave empty for fresh dice; fill to replay a game.",
    )

    def __init__(self, *args: Any, teams: QuerySet[Team], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        home = self.fields["home"]
        assert isinstance(home, forms.ModelChoiceField)
        home.queryset = teams


def _odds_follow(row: Team | Player | Card) -> None:
    """Saving (or deleting) a team, a player or a card changes its team's card version: the
    odds of the fields the team plays in with games to come are built again in the
    background at once, not inside the next page that shows them."""
    team_odds_enqueue(team_ids=[row.pk if isinstance(row, Team) else row.team_id])


class RevertFollows:
    """A row reverted from its History page (simple_history saves it with ``save_model``
    alone, never ``save_related``) rebuilds its team's odds as an edit does."""

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        response: HttpResponse = super().history_form_view(  # type: ignore[misc]
            request, object_id, version_id, extra_context
        )
        if request.method == "POST" and response.status_code == 302:
            row = self.model._base_manager.filter(pk=object_id).first()  # type: ignore[attr-defined]
            if row is not None:
                _odds_follow(row)
        return response


class LeagueCardAdmin(RevertFollows, CardAdmin):
    """The cards' admin; an edit rebuilds its team's odds in the background."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        _odds_follow(form.instance)

    def delete_model(self, request: HttpRequest, obj: Card) -> None:
        super().delete_model(request, obj)
        _odds_follow(obj)


class LeaguePlayerAdmin(RevertFollows, PlayerAdmin):
    """The players' admin; an edit (a rename) rebuilds his team's odds in the background."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        _odds_follow(form.instance)

    def delete_model(self, request: HttpRequest, obj: Player) -> None:
        super().delete_model(request, obj)
        _odds_follow(obj)


class LeagueTeamAdmin(RevertFollows, CountedDeleteAdmin[Team], TeamAdmin):
    """The teams' admin of ``cards`` with the league's own action: play an exhibition.

    The league builds on the cards app, not the other way round, so the action that plays
    a game is added here, to the one teams' admin the site shows, and so is the rebuild of
    the odds after an edit.
    """

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        _odds_follow(form.instance)

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
                messages.error(request, lines_html(sentence(str(exc), name_first=True)))
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


for model, model_admin in ((Team, LeagueTeamAdmin), (Player, LeaguePlayerAdmin),
                           (Card, LeagueCardAdmin)):  # fmt: skip
    admin.site.unregister(model)
    admin.site.register(model, model_admin)
