"""The commissioner's admin for teams, players and cards."""

from __future__ import annotations

import copy
from typing import Any, TypeVar
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    FieldDoesNotExist,
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
    ValidationError,
)
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Count, Model, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import to_historic

from cards.mapping import teams_for_play
from cards.models import Card, Player, Role, Team, notes_problem, validate_extra_object
from cards.presentation import card_face
from cards.services import (
    CardRefused,
    TeamFileError,
    TeamNotWritable,
    card_edit_check,
    left_out_notice,
    players_left_out,
    renamed_files,
    roster_change_check,
    team_duplicate,
    team_file_name,
    team_file_names,
    team_file_text,
    teams_zip,
    uploads_import,
)
from cards.styles import GAMES as STYLE_GAMES
from cards.styles import RULINGS_STYLE, team_styles
from core.admin import (
    LabelledInlineFormSet,
    StoredTitleAdmin,
    guard_delete_selected,
    lines_html,
)
from core.errors import sentence
from core.text import counted, size_text
from simulator.games import find_game
from simulator.vabg.cards import SLOT_NAMES, InvalidCardError

M = TypeVar("M", bound=Model)


class TeamLabelSearch(admin.ModelAdmin[M]):
    """A list searched by a team's label as the admin writes it, "Kentucky 2012", finds
    that team's rows, and only those (the school whatever its case, as ``team_named``
    reads it). Django's search wants every word in some field: "2012" is in no school, so
    it found nothing, and with the season searched too "Kentucky 1978" against a 2012 team
    would have matched. Any other search is Django's."""

    team_paths: tuple[str, ...] = ("team",)
    """The rows' teams: a player's or a card's team, a game's home and away."""

    search_help_text = 'A name, a school, or a team as "School SEASON" ("Kentucky 2012").'

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[M], search_term: str
    ) -> tuple[QuerySet[M], bool]:
        school, _, season = search_term.strip().rpartition(" ")
        school = school.strip()
        # A year: a longer number is no season, and no column holds it.
        if school and season.isdigit() and len(season) <= 4:
            named = Q()
            for team in self.team_paths:
                named |= Q(**{f"{team}__school__iexact": school, f"{team}__season": int(season)})
            found = queryset.filter(named)
            if found.exists():
                return found, False
        return super().get_search_results(request, queryset, search_term)


class DecadeFilter(admin.SimpleListFilter):
    title = "decade"
    parameter_name = "decade"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        seasons = Team.objects.values_list("season", flat=True).distinct()
        decades = sorted({s // 10 * 10 for s in seasons})
        return [(str(d), f"{d}s") for d in decades]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Team]) -> QuerySet[Team]:
        value = self.value()
        if value and value.isdigit():
            start = int(value)
            return queryset.filter(season__gte=start, season__lte=start + 9)
        return queryset


SLOT_CHOICES = [(n, f"{n} ({name})") for n, name in SLOT_NAMES.items()]


def _names(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


class CardBoundsMessages(forms.ModelForm[Any]):
    """A value off the card's bounds is refused with the card's own words ("The steal range
    top must be 10 to 30, as on a VABG card."), below zero as above it: the form's own
    non-negative check answered -5 with "Ensure this value is greater than or equal to 0",
    where 5 got the rule."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            try:
                model_field = self._meta.model._meta.get_field(name)
            except FieldDoesNotExist:  # a form's own field: no model bounds
                continue
            for validator in getattr(model_field, "validators", ()):
                if isinstance(validator, (MinValueValidator, MaxValueValidator)) and isinstance(
                    validator.message, str
                ):
                    code = "min_value" if isinstance(validator, MinValueValidator) else "max_value"
                    field.error_messages[code] = validator.message


class RosterForm(forms.ModelForm[Player]):
    """A roster row sized to its values, so the team page fits a laptop's width.

    Its slot and role are his card's: the team page changes them for the whole roster at
    once (a starter swapped with a reserve), checked together (:class:`RosterFormSet`). A
    player without a card has neither until his card is added."""

    slot = forms.TypedChoiceField(choices=SLOT_CHOICES, coerce=int, required=False)
    role = forms.ChoiceField(choices=Role.choices, required=False)
    # Blank (a new row's is): the roster puts him after every other player.
    order = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=32767,
        widget=forms.NumberInput(attrs={"style": "width: 4em"}),
        help_text="A slot's reserves play in this order; blank: after the others.",
    )

    class Meta:
        model = Player
        fields = ("name", "order", "height", "ppg")
        widgets = {
            "name": forms.TextInput(attrs={"size": 22}),
            "height": forms.TextInput(attrs={"size": 5}),
            "ppg": forms.NumberInput(attrs={"style": "width: 5em", "step": "0.1"}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        instance = self.instance
        card = getattr(instance, "card", None) if instance.pk is not None else None
        self._card: Card | None = card
        for name in ("slot", "role"):
            field = self.fields[name]
            if card is None and instance.pk is None:
                # A new player: where his card is to put him, carried to the card's page
                # (the save's message links to it filled in); he has no card until then.
                field.choices = [("", "---"), *field.choices]
            elif card is None:
                field.disabled = True
                field.choices = [("", "no card")] if name == "slot" else [("", "")]  # type: ignore[attr-defined]
            else:
                self.initial[name] = getattr(card, name)  # left empty: unchanged

    @property
    def card(self) -> Card | None:
        """The player's card as stored (``None`` for a new player or one without a card)."""
        return self._card

    def card_changes(self) -> dict[str, Any]:
        """Return the slot and role his card takes from this row, where they change."""
        card = self.card
        data = getattr(self, "cleaned_data", None) or {}
        if card is None:
            return {}
        return {
            name: data[name]
            for name in ("slot", "role")
            if data.get(name) not in (None, "") and data[name] != getattr(card, name)
        }


def played_deleted_words(name: str, games: int) -> str:
    """Say what deleting a player who has played does to his games (the roster's Delete
    box, his own delete page)."""
    return (
        f"{name} played {counted(games, 'game')}: deleted, his box lines keep his name, "
        "linked to no player (his page and stats go)."
    )


def same_but_capitals(name: str, other: str) -> str:
    """Say why two teammates' names differing only in capitals are refused."""
    return (
        f"{name} and {other} differ only in capitals: a box score and a team file would "
        "read them as one player; spell one of them otherwise."
    )


class RosterFormSet(LabelledInlineFormSet):
    """The roster as a whole: no two players share an order (a slot's reserves play in it),
    and the roster as it would be saved (players deleted, slots and roles changed) must be
    a team the engine plays, as the card form requires of one card."""

    def row_name(self, instance: Any) -> str:
        return str(instance.name)

    def clean(self) -> None:
        super().clean()
        self._order_blank_rows()
        by_order: dict[int, list[str]] = {}
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or data.get("order") is None:
                continue
            by_order.setdefault(data["order"], []).append(data.get("name") or "a player")
        by_name: dict[str, list[str]] = {}
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if data and not data.get("DELETE") and data.get("name"):
                by_name.setdefault(data["name"].casefold(), []).append(data["name"])
        for names in by_name.values():
            if len(set(names)) > 1:
                raise forms.ValidationError(same_but_capitals(names[1], names[0]))
        shared = [
            f"{', '.join(names[:-1])} and {names[-1]} have the same order, {order}"
            for order, names in sorted(by_order.items())
            if len(names) > 1
        ]
        if shared:
            raise forms.ValidationError(
                "; ".join(shared) + ": give each player an order of his own (a slot's "
                "reserves come on in this order)."
            )
        self._roster_check()

    def _order_blank_rows(self) -> None:
        """Give each row saved without an order (a new row's is blank) the next order after
        every other player's, in the page's order."""
        rows = [
            form
            for form in self.forms
            if getattr(form, "cleaned_data", None) and not form.cleaned_data.get("DELETE")
        ]
        blank = [form for form in rows if form.cleaned_data.get("order") is None]
        if not blank:
            return
        taken = [form.cleaned_data["order"] for form in rows if form not in blank]
        if self.instance.pk is not None:
            taken += Player.objects.filter(team=self.instance).values_list("order", flat=True)
        order = max(taken, default=-1) + 1
        for form in blank:
            form.cleaned_data["order"] = form.instance.order = order
            order += 1

    def _roster_check(self) -> None:
        """Refuse a roster the engine could not play (where the team could be played
        before), naming every problem; nothing is saved."""
        team = self.instance
        if team.pk is None or any(form.errors for form in self.forms):
            return
        # Every card of the team as stored, then each row's deletion or change on top (a
        # roster posted in part leaves the players it does not show as they are).
        stored = {c.pk: c for c in Card.objects.filter(player__team=team).select_related("player")}
        cards = dict(stored)
        deleted: list[str] = []
        moved: list[str] = []
        for form in self._rows():
            card = form.card
            if card is None:
                continue
            if self._deleting(form):
                cards.pop(card.pk, None)
                deleted.append(card.player.name)
                continue
            edited = copy.copy(card)
            # The row as it would be saved (name, order...): a copy, as setting a card's
            # player also caches the card on that player.
            edited.player = copy.copy(form.instance)
            changes = form.card_changes()
            for name, value in changes.items():
                setattr(edited, name, value)
            if changes:
                moved.append(
                    f"{form.instance.name} to slot {edited.get_slot_display()} "
                    f"{edited.get_role_display().lower()}"
                )
            cards[card.pk] = edited
        parts = ([f"deleting {_names(deleted)}"] if deleted else []) + moved
        change = "Saving the roster" + (f" ({'; '.join(parts)})" if parts else "")
        try:
            roster_change_check(team, list(cards.values()), change=change)
        except CardRefused as exc:
            raise forms.ValidationError(
                sentence(
                    f"{exc}. Each slot needs one starter and a roster 5 to 10 players with "
                    "cards: give the slot another starter in the same save (Slot and Role "
                    "below), or keep the player"
                )
            ) from exc

    def _rows(self) -> list[RosterForm]:
        return [form for form in self.forms if isinstance(form, RosterForm)]

    def _deleting(self, form: RosterForm) -> bool:
        data = getattr(form, "cleaned_data", None) or {}
        return bool(self.can_delete and data.get("DELETE"))

    def save_existing(self, form: Any, obj: Player, commit: bool = True) -> Player:
        if set(form.changed_data) <= {"slot", "role"}:
            return obj  # only his card changes (saved with the roster's cards): no new version
        saved: Player = super().save_existing(form, obj, commit=commit)
        return saved

    def save(self, commit: bool = True) -> Any:
        saved = super().save(commit=commit)
        if commit:
            self._save_cards()
        return saved

    def _save_cards(self) -> None:
        """Save the slots and roles changed on the roster, after its players (a deleted
        starter's place is free): starters leaving their place first, without a version of
        that step, so one starter per slot holds after every single save."""
        moving = [
            (card, changes.get("slot", card.slot), changes.get("role", card.role))
            for form in self._rows()
            if (card := form.card) is not None
            and not self._deleting(form)
            and (changes := form.card_changes())
        ]
        for card, _, _ in moving:
            if card.is_starter:
                card.role = Role.RESERVE
                # simple_history's documented switch, which the model's type does not declare.
                card.skip_history_when_saving = True  # type: ignore[attr-defined]
                card.save(update_fields=["role"])
                del card.skip_history_when_saving  # type: ignore[attr-defined]
        moving.sort(key=lambda m: m[2] == Role.STARTER)
        for card, slot, role in moving:
            card.slot, card.role = slot, role
            card._change_reason = "Changed on the team page"  # type: ignore[attr-defined]
            card.save()


class RosterInline(admin.TabularInline[Player, Team]):
    model = Player
    form = RosterForm
    formset = RosterFormSet
    fields = ("name", "order", "height", "ppg", "slot", "role", "ball", "edit_card")
    readonly_fields = ("ball", "edit_card")
    extra = 0
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).select_related("card")

    @admin.display(description="ball")
    def ball(self, player: Player) -> str:
        card = getattr(player, "card", None)
        return card.ball_numbers if card else ""

    @admin.display(description="card")
    def edit_card(self, player: Player) -> SafeString | str:
        card = getattr(player, "card", None)
        if card is None:
            if player.pk is None:
                return ""
            url = reverse("admin:cards_card_add") + f"?player={player.pk}"
            return format_html('<a href="{}">add card</a>', url)
        return format_html(
            '<a href="{}">edit card</a>', reverse("admin:cards_card_change", args=[card.pk])
        )


class ImportForm(forms.Form):
    class MultipleFileInput(forms.ClearableFileInput):
        allow_multiple_selected = True

    class MultipleFileField(forms.FileField):
        def clean(self, data: Any, initial: Any = None) -> list[Any]:
            single = super().clean
            # No file chosen arrives as an empty list: FileField then says it is required.
            items = list(data) if isinstance(data, list | tuple) and data else [data or None]
            files, problems = [], []
            for item in items:
                name = getattr(item, "name", None)
                try:
                    upload = single(item, initial)
                except ValidationError as exc:
                    if name is None:
                        raise
                    problems += [f"{name}: {message}" for message in exc.messages]
                    continue
                if name and not name.lower().endswith((".json", ".zip")):
                    problems.append(
                        f"{name}: the import takes team files (.json) and zips of them (.zip)"
                    )
                files.append(upload)
            if problems:  # every file named with what is wrong; none imported
                raise ValidationError(problems)
            return files

    # The field is named as the API's and the command's: the form metaclass moves it into
    # base_fields, so it does not shadow BaseForm.files at run time (mypy cannot tell).
    files = MultipleFileField(  # type: ignore[assignment]
        widget=MultipleFileInput(attrs={"accept": ".json,.zip"}),
        help_text="vabg-team/1 JSON files, or a zip of them. Any problem refuses them all.",
    )


def _uploaded_files(uploads: list[Any]) -> list[tuple[str, Any]]:
    """Return the uploads as ``(name, stream)`` for :func:`cards.services.uploads_import`,
    which reads them within the upload limits (``cards/uploads.py``)."""
    return [(upload.name, upload) for upload in uploads]


def _request_problem(exc: Exception) -> str:
    """Say why Django refused to read the import's request at all."""
    if isinstance(exc, TooManyFilesSent):
        return (
            f"More than {settings.DATA_UPLOAD_MAX_NUMBER_FILES:,} files were sent at once; "
            "put them in a zip."
        )
    if isinstance(exc, TooManyFieldsSent):
        return f"More than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} form fields were sent."
    return (
        "The form (besides its files) is more than "
        f"{size_text(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}."
    )


def old_notes_warning(*, owner: str, notes: object, where: str, kept: bool) -> str | None:
    """Say what to do about notes saved before their limit (or before it was lowered).

    Their form refuses them as they are, so nothing else on it can be saved until they are
    cut: the commissioner is told so on opening it, with how much to cut and where, and
    whether an earlier version (the History) keeps the whole text.
    """
    problem = notes_problem(notes)
    if problem is None:
        return None
    cut = len(notes if isinstance(notes, str) else str(notes)) - settings.TEAM_NOTES_MAX_CHARS
    keep = (
        "The History keeps their whole text as it is now."
        if kept
        else "No earlier version keeps their whole text: copy it first to keep it."
    )
    return (
        f"{owner}: {problem} (TEAM_NOTES_MAX_CHARS), saved before that limit. Nothing on "
        f"this page can be saved until they are cut by at least {cut:,} characters, in "
        f"{where}. {keep}"
    )


def _player_notes(extra: object) -> object:
    return extra.get("notes", "") if isinstance(extra, dict) else ""


def clean_extra_object(form: forms.ModelForm[Any]) -> Any:
    """Return a form's ``extra`` (a team's or a player's): an empty field is ``{}``, and
    anything but a JSON object, ``null`` too, is refused naming the field."""
    value = form.cleaned_data.get("extra")
    if value is None:
        if str(form.data.get(form.add_prefix("extra"), "")).strip():
            validate_extra_object(value)  # "null" typed: refused, as a list or a number
        return {}
    # The model's validator is skipped for what Django counts as empty ([], ""): refused here.
    validate_extra_object(value)
    return value


class TeamForm(CardBoundsMessages):
    class Meta:
        model = Team
        fields = "__all__"  # noqa: DJ007 - the admin's fieldsets choose the fields shown

    def clean_extra(self) -> Any:
        return clean_extra_object(self)


@admin.register(Team)
class ReasonedHistoryAdmin(StoredTitleAdmin[Any], SimpleHistoryAdmin):
    """The History page says why each version was made: "Changed in the admin", or, for a
    revert from the History, which version it went back to (simple_history left the reason
    empty, shown as "None", and a revert read as any change). A form saved unchanged makes
    no version (a trial's "Save" pressed twice left one per press)."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        match = request.resolver_match
        # simple_history's revert page: ``<id>/history/<version>/``, its arguments positional.
        reverting = match is not None and (match.url_name or "").endswith("_simple_history")
        version = match.args[-1] if reverting and match is not None and match.args else None
        if version is not None:
            old = obj.history.filter(history_id=version).values_list("history_date", flat=True)
            when = old.first()
            reason = f"Reverted to version {version}" + (
                f" of {when:%Y-%m-%d %H:%M}" if when is not None else ""
            )
        elif change and not form.has_changed():
            return  # saved unchanged: no new version in the History, no write at all
        else:
            reason = "Changed in the admin" if change else "Added in the admin"
        obj._change_reason = reason[:100]  # simple_history's documented hook
        super().save_model(request, obj, form, change)


class TeamAdmin(ReasonedHistoryAdmin):
    form = TeamForm
    list_display = (
        "__str__",
        "conference",
        "card_source",
        "dunk_range",
        "player_count",
        "updated_at",
    )
    list_filter = ("conference", DecadeFilter, "card_source")
    search_fields = ("school", "conference", "season", "players__name")
    ordering = ("school", "season")
    inlines = (RosterInline,)
    fieldsets = (
        ("Team", {"fields": ("school", "season", "conference", "card_source")}),
        ("Dunks (vabg rules §5)", {"fields": ("dunk_top", "dunk_adjust")}),
        (
            "Coach styles (grid court, six dice)",
            {"fields": ("styles", "styles_played", "styles_accepted")},
        ),
        ("Notes", {"fields": ("notes", "extra"), "classes": ("collapse",)}),
    )
    readonly_fields = ("styles_played", "styles_accepted")
    actions = ["export_files", "export_zip", "duplicate"]
    change_list_template = "admin/cards/team/change_list.html"

    @admin.display(description="styles played")
    def styles_played(self, team: Team) -> SafeString | str:
        """Show the style the team plays in each board game, and where it comes from."""
        if team.pk is None:
            return "Derived from the real season once the team is saved."
        rows = format_html_join(
            "",
            "<li><b>{}</b> ({}): {}</li>",
            (
                (game, style.source, "; ".join(f"{name} {text}" for name, text in style.describe()))
                for game, style in team_styles(team).items()
            ),
        )
        return format_html("<ul>{}</ul>", rows)

    @admin.display(description="what a style accepts")
    def styles_accepted(self, team: Team) -> SafeString:
        """List each game's style parameters, the values they take and their defaults, so
        the styles field can be filled in without a refusal first."""
        games = format_html_join(
            "",
            "<li><b>{}</b> ({}): {}; or {}</li>",
            (
                (
                    name,
                    find_game(name).title,
                    "; ".join(
                        f"{parameter}: {values} (default {default})"
                        for parameter, values, default in find_game(name).style_parameters()
                    ),
                    f'"{RULINGS_STYLE}" for the rulings\' own policy',
                )
                for name in STYLE_GAMES
            ),
        )
        return format_html(
            "<ul>{}</ul><p>A parameter left out takes its default; a game left out plays the "
            "style derived from the real season.</p>",
            games,
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Team]:
        teams: QuerySet[Team] = super().get_queryset(request)
        return teams.annotate(n_players=Count("players", distinct=True))

    def get_fieldsets(self, request: HttpRequest, obj: Team | None = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or notes_problem(obj.notes) is None:
            return fieldsets
        # Notes over the limit are the first thing to fix: shown open, not collapsed.
        return [
            (name, {**opts, "classes": ()} if "notes" in opts["fields"] else opts)
            for name, opts in fieldsets
        ]

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Team | None = None,
    ) -> HttpResponse:
        if obj is not None and obj.pk is not None:
            for warning in self.old_notes_warnings(obj.pk):
                messages.warning(request, warning)
        response: HttpResponse = super().render_change_form(
            request, context, add, change, form_url, obj
        )
        return response

    @staticmethod
    def old_notes_warnings(team_id: int) -> list[str]:
        """Warn of the team's and its players' notes over the limit, as stored (a refused
        form has already written the posted notes onto its instance)."""
        team = Team.objects.get(pk=team_id)
        warning = old_notes_warning(
            owner=str(team),
            notes=team.notes,
            where="Notes below",
            kept=team.history.filter(notes=team.notes).exists(),
        )
        warnings = [warning] if warning else []
        for player in team.players.only("name", "extra"):
            problem = notes_problem(_player_notes(player.extra))
            if problem:
                warnings.append(
                    f"{player.name}: {problem} (TEAM_NOTES_MAX_CHARS), saved before that "
                    "limit. This page saves the roster without them, but his own page "
                    "cannot save him until they are cut."
                )
        return warnings

    @admin.display(description="dunk range")
    def dunk_range(self, team: Team) -> str:
        return f"51-{team.dunk_top} ({team.dunk_adjust:+d})"

    @admin.display(description="players", ordering="n_players")
    def player_count(self, team: Team) -> int:
        count: int = team.n_players  # type: ignore[attr-defined]  # get_queryset's annotation
        return count

    def get_urls(self) -> list[Any]:
        urls: list[Any] = [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="cards_team_import",
            )
        ]
        urls += super().get_urls()
        return urls

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Import team files: all or nothing, every problem listed."""
        if not self.has_add_permission(request) or not self.has_change_permission(request):
            raise PermissionDenied
        problems: list[str] = []
        form = ImportForm()
        if request.method == "POST":
            # Bound on every POST, even an empty one, so "Import" with no file says what is
            # missing. Django refuses a request it will not read (too many files...) here.
            try:
                form = ImportForm(request.POST, request.FILES)
            except (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent) as exc:
                problems = [_request_problem(exc)]
        if form.is_bound and form.is_valid():
            try:
                outcomes = uploads_import(
                    uploads=_uploaded_files(form.cleaned_data["files"]),
                    source="Imported in the admin",
                )
            except TeamFileError as exc:
                problems = list(exc.problems)
            else:
                for outcome in outcomes:
                    said = messages.warning if outcome.slips else messages.success
                    said(request, outcome.describe())
                return redirect("admin:cards_team_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Import team files",
            "form": form,
            "problems": problems,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/cards/team/import.html", context)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Counted before they go: a deleted player's lines keep his name, linked to no one.
        played = [
            (row.instance.name, row.instance.box_lines.count())
            for formset in formsets
            if isinstance(formset, RosterFormSet)
            for row in formset.deleted_forms
            if row.instance.pk is not None
        ]
        super().save_related(request, form, formsets, change)
        for name, games in played:
            if games:
                messages.warning(request, played_deleted_words(name, games))
        team = teams_for_play().get(pk=form.instance.pk)
        added = [
            row
            for formset in formsets
            if isinstance(formset, RosterFormSet)
            for row in formset.forms
            if row.instance.pk is not None and row.instance in formset.new_objects
        ]
        for row in added:  # a new player: the link to his card, where the row put him
            player, data = row.instance, getattr(row, "cleaned_data", None) or {}
            wanted = {k: data[k] for k in ("slot", "role") if data.get(k) not in (None, "")}
            url = reverse("admin:cards_card_add") + "?" + urlencode({"player": player.pk, **wanted})
            messages.warning(
                request,
                format_html(
                    "{} was added without a card: he plays no game and the team file leaves "
                    'him out until <a href="{}">his card is added</a>{}.',
                    player.name,
                    url,
                    " (its slot and role as chosen here)" if wanted else "",
                ),
            )
        others = [n for n in players_left_out(team) if n not in {r.instance.name for r in added}]
        if others:
            notice = left_out_notice(team)
            messages.warning(
                request, sentence(f"{notice}; until then he plays no game", name_first=True)
            )

    def _exportable(self, request: HttpRequest, teams: list[Team]) -> bool:
        """Refuse (an error message, nothing downloaded) teams whose file would leave out a
        player without a card, or that the engine cannot write, naming every one."""
        problems = [notice for team in teams if (notice := left_out_notice(team))]
        for team in teams:
            try:
                team_file_text(team)
            except TeamNotWritable as exc:
                problems.append(str(exc))
        for problem in problems:
            messages.error(request, lines_html(sentence(problem, name_first=True)))
        if problems:
            messages.error(request, "Nothing was exported.")
        return not problems

    @admin.action(description="Export selected teams as team files (JSON; zip if several)")
    def export_files(self, request: HttpRequest, queryset: QuerySet[Team]) -> HttpResponse | None:
        teams = list(teams_for_play().filter(pk__in=queryset.values("pk")))
        if len(teams) == 1:
            if not self._exportable(request, teams):
                return None
            response = HttpResponse(team_file_text(teams[0]), content_type="application/json")
            response["Content-Disposition"] = f'attachment; filename="{team_file_name(teams[0])}"'
            return response
        return self.export_zip(request, queryset)

    @admin.action(description="Export selected teams as one zip of team files")
    def export_zip(self, request: HttpRequest, queryset: QuerySet[Team]) -> HttpResponse | None:
        teams = list(teams_for_play().filter(pk__in=queryset.values("pk")))
        if not self._exportable(request, teams):
            return None
        for renamed in renamed_files(team_file_names(teams)):
            messages.info(request, sentence(f"In vabg-teams.zip, {renamed}"))
        response = HttpResponse(teams_zip(teams), content_type="application/zip")
        response["Content-Disposition"] = 'attachment; filename="vabg-teams.zip"'
        return response

    @admin.action(description="Duplicate selected teams", permissions=["add"])
    def duplicate(self, request: HttpRequest, queryset: QuerySet[Team]) -> None:
        for team in teams_for_play().filter(pk__in=queryset.values("pk")):
            try:
                copy = team_duplicate(team=team)
            except InvalidCardError as exc:
                messages.error(request, f"{team} was not duplicated: {'; '.join(exc.problems)}.")
                continue
            messages.success(request, f"{team} duplicated as {copy}.")
            notice = left_out_notice(team)
            if notice:
                messages.warning(request, sentence(f"The copy leaves them out too. {notice}"))


class PlayerForm(forms.ModelForm[Player]):
    """A player; moving him to another team moves his card, so both rosters are checked."""

    class Meta:
        model = Player
        fields = ("team", "name", "order", "height", "ppg", "extra")

    def clean_extra(self) -> Any:
        return clean_extra_object(self)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        player = self.instance
        new_team = cleaned.get("team")
        name = cleaned.get("name")
        order = cleaned.get("order")
        if new_team is not None and order is not None:
            taken = Player.objects.filter(team=new_team).exclude(pk=player.pk)
            holder = taken.filter(order=order).first()
            if holder is not None:
                free = max(taken.values_list("order", flat=True), default=-1) + 1
                self.add_error(
                    "order",
                    f"{holder.name} has the order {order} on {new_team}: give each player an "
                    f"order of his own (a slot's reserves come on in this order); the next "
                    f"free one is {free}.",
                )
        if new_team is not None and name:
            twin = (
                Player.objects.filter(team=new_team, name__iexact=name)
                .exclude(name=name)
                .exclude(pk=player.pk)
                .first()
            )
            if twin is not None:
                self.add_error("name", same_but_capitals(name, twin.name))
        if player.pk is None or new_team is None:
            return cleaned
        stored = Player.objects.select_related("team", "card").get(pk=player.pk)
        card = getattr(stored, "card", None)
        if card is None or new_team.pk == stored.team_id:
            return cleaned
        old_team = stored.team
        # His card goes with him: the team he leaves loses it, the one he joins gains it.
        stays = Card.objects.filter(player__team=old_team).exclude(pk=card.pk)
        leaving = list(stays.select_related("player"))
        moved = copy.copy(card)
        moved.player = copy.copy(stored)
        moved.player.team, moved.player.name = new_team, cleaned.get("name") or stored.name
        joining = [*Card.objects.filter(player__team=new_team).select_related("player"), moved]
        change = (
            f"Moving {stored.name} ({card.get_role_display().lower()}, slot "
            f"{card.get_slot_display()}) to {new_team}"
        )
        problems, advice = [], []
        for team, cards in ((old_team, leaving), (new_team, joining)):
            try:
                roster_change_check(team, cards, change=change)
            except CardRefused as exc:
                problems.append(sentence(str(exc)))
                advice.append(self._move_advice(card, team is old_team, old_team, new_team))
        if problems:
            raise forms.ValidationError(
                [
                    *problems,
                    "His card goes with him, and both teams must stay playable: "
                    + "; ".join(advice)
                    + ".",
                ]
            )
        return cleaned

    @staticmethod
    def _move_advice(card: Card, leaving: bool, old_team: Team, new_team: Team) -> str:
        """What the commissioner does first so that a refused move can be made."""
        if leaving and card.role == Role.STARTER:
            return (
                f"to move a starter, first give slot {card.get_slot_display()} another "
                f"starter on {old_team}'s team page and make him a reserve there"
            )
        if leaving:
            return f"first mend {old_team}'s roster on its team page so that it can do without him"
        return f"first make room for him on {new_team}'s team page"


@admin.register(Player)
class RosterDeleteCheck(ReasonedHistoryAdmin):
    """Deleting players or cards (a change page's Delete, or the list's "Delete selected")
    is refused where it would leave a playable team unplayable, as a roster save is
    (``roster_change_check``): it names every problem and deletes nothing."""

    def cards_gone(self, objs: list[Any]) -> QuerySet[Card]:
        """Return the cards deleting ``objs`` takes off their teams."""
        raise NotImplementedError

    def roster_refusal(self, objs: list[Any]) -> str | None:
        gone = list(self.cards_gone(objs).select_related("team", "player"))
        ids = {card.pk for card in gone}
        for team in {card.team for card in gone}:
            after = [
                card
                for card in Card.objects.filter(team=team).select_related("player")
                if card.pk not in ids
            ]
            names = ", ".join(sorted(c.player.name for c in gone if c.team_id == team.pk))
            try:
                roster_change_check(team, after, change=f"Deleting {names}")
            except CardRefused as exc:
                return sentence(str(exc))
        return None

    delete_confirmation_template = "admin/cards/roster_delete_confirmation.html"

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        obj = self.get_object(request, object_id)
        refusal = self.roster_refusal([obj]) if obj is not None else None
        if refusal and request.method == "POST":
            self.message_user(request, refusal, messages.ERROR)
            opts = self.model._meta
            return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", object_id)
        if refusal:  # the page says why, with no button to confirm
            team = getattr(obj, "team_id", None)
            extra_context = {
                **(extra_context or {}),
                "roster_refusal": refusal,
                "team_url": reverse("admin:cards_team_change", args=[team]) if team else "",
            }
        elif obj is not None:
            extra_context = {**(extra_context or {}), "played_note": self.played_note(obj)}
        return super().delete_view(request, object_id, extra_context)

    def played_note(self, obj: Any) -> str:
        """What deleting ``obj`` does to the games already played: nothing, by default."""
        return ""

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        def refused(request: HttpRequest, queryset: Any) -> bool:
            refusal = self.roster_refusal(list(queryset))
            if refusal:
                self.message_user(request, refusal, messages.ERROR)
            return bool(refusal)

        return guard_delete_selected(super().get_actions(request), refused)


class PlayerAdmin(TeamLabelSearch[Any], RosterDeleteCheck):
    def cards_gone(self, objs: list[Any]) -> QuerySet[Card]:
        return Card.objects.filter(player__in=[p.pk for p in objs])

    def played_note(self, obj: Any) -> str:
        """A player who has played: his lines stay, linked to no player (as an import that
        drops him says)."""
        games = obj.box_lines.count()
        if not games:
            return ""
        return (
            f"{played_deleted_words(obj.name, games)} To keep them his, rename or move him instead."
        )

    list_display = ("name", "team", "slot", "role", "ball", "height", "ppg")
    list_filter = ("card__slot", "card__role", "team__card_source")
    search_fields = ("name", "team__school")
    list_select_related = ("team", "card")
    autocomplete_fields = ("team",)
    form = PlayerForm
    fields = ("team", "name", "order", "height", "ppg", "extra", "card_link")
    readonly_fields = ("card_link",)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        card = Card.objects.filter(player=obj).first()
        if card is not None and card.team_id != obj.team_id:
            # Moved to another team (PlayerForm checked both rosters): his card goes too.
            card._change_reason = f"Moved with its player to {obj.team}"[:100]  # type: ignore[attr-defined]
            card.save()

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Player | None = None,
    ) -> HttpResponse:
        if obj is not None and obj.pk is not None:
            stored = Player.objects.get(pk=obj.pk)  # as stored, not as a refused form left it
            notes = _player_notes(stored.extra)
            warning = old_notes_warning(
                owner=str(stored),
                notes=notes,
                where='the "notes" of Extra below',
                kept=any(
                    _player_notes(extra) == notes
                    for extra in stored.history.values_list("extra", flat=True)
                ),
            )
            if warning:
                messages.warning(request, warning)
        response: HttpResponse = super().render_change_form(
            request, context, add, change, form_url, obj
        )
        return response

    @admin.display(description="slot", ordering="card__slot")
    def slot(self, player: Player) -> str:
        card = getattr(player, "card", None)
        return card.get_slot_display() if card else "no card"

    @admin.display(description="role", ordering="card__role")
    def role(self, player: Player) -> str:
        card = getattr(player, "card", None)
        return card.get_role_display() if card else ""

    @admin.display(description="ball")
    def ball(self, player: Player) -> str:
        card = getattr(player, "card", None)
        return card.ball_numbers if card else ""

    @admin.display(description="card")
    def card_link(self, player: Player) -> SafeString | str:
        card = getattr(player, "card", None)
        if card is None:
            if player.pk is None:
                return "Save the player, then add his card."
            url = reverse("admin:cards_card_add") + f"?player={player.pk}"
            return format_html('<a href="{}">Add his card</a>', url)
        return format_html(
            '<a href="{}">Edit his card</a>', reverse("admin:cards_card_change", args=[card.pk])
        )


class PositionsField(forms.CharField):
    """Positions typed as on the card, "1, 2", stored as a list of numbers."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        parts = [p.strip() for p in str(text).replace(";", ",").split(",") if p.strip()]
        if not all(p.isdigit() for p in parts):
            raise forms.ValidationError(
                "Positions are numbers 0-5 separated by commas, such as 1, 2."
            )
        return [int(p) for p in parts]


class CardForm(CardBoundsMessages):
    positions = PositionsField(
        help_text="Suggested positions 0-5, separated by commas; 0 or 1 can run the point.",
        error_messages={
            "required": "Type his positions: numbers 0-5 separated by commas, such as 1, 2."
        },
    )

    class Meta:
        model = Card
        fields = "__all__"  # noqa: DJ007 - every card field is edited; the admin groups them

    def add_error(self, field: str | None, error: Any) -> None:
        """One error a field: the card's own checks (``Card.clean``) read the value the row
        holds, not one the form already refused, so they are dropped for such a field (an
        empty Positions said "This field is required." and "The positions must be a
        non-empty list of distinct numbers 0-5, got []." for one empty box)."""
        if field is None and isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            refused = [
                name for name in error.error_dict if name in self.fields and name in self.errors
            ]
            for name in refused:
                del error.error_dict[name]
            if not error.error_dict:
                return
        super().add_error(field, error)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        player = cleaned.get("player")
        if player is None and self.instance.player_id is not None:
            player = self.instance.player  # read-only once the card is saved
        if player is not None:
            self.instance.team_id = player.team_id
            # The card as edited must leave its team playable (a starter in each slot): a
            # starter benched here would stop every season, matchup and team file of it.
            edited = copy.copy(self.instance)
            for name in ("slot", "role"):
                if name in cleaned:
                    setattr(edited, name, cleaned[name])
            edited.player = player
            if edited.role == Role.STARTER:
                # The slot's starter named, and the way to swap (the table's one-starter
                # constraint alone said "already has a starter in this slot" beside a
                # message about the slot the card left).
                other = (
                    Card.objects.filter(team_id=player.team_id, slot=edited.slot, role=Role.STARTER)
                    .exclude(pk=self.instance.pk)
                    .select_related("player")
                    .first()
                )
                if other is not None:
                    raise forms.ValidationError(
                        f"Slot {edited.slot} ({SLOT_NAMES[edited.slot]}) already has a starter, "
                        f"{other.player.name}: bench him first (his card's Role: reserve), or "
                        "swap the two on the team page, whose Slot and Role columns change both "
                        "in one save."
                    )
            try:
                card_edit_check(edited)
            except CardRefused as exc:
                raise forms.ValidationError(sentence(str(exc))) from exc
        return cleaned

    def _post_clean(self) -> None:
        # A private hook of Django's BaseModelForm: after the model's own checks. Where
        # ``clean`` named the slot's starter, the one-starter constraint's words go.
        super()._post_clean()  # type: ignore[misc]
        said = self.errors.get(NON_FIELD_ERRORS)
        if said and any("already has a starter," in m for m in said):
            kept = [str(m) for m in said if m != "This team already has a starter in this slot."]
            self.errors[NON_FIELD_ERRORS] = self.error_class(kept, error_class="nonfield")

    def _get_validation_exclusions(self) -> set[str]:
        # A private hook of Django's BaseModelForm, absent from django-stubs.
        exclude: set[str] = super()._get_validation_exclusions()  # type: ignore[misc]
        # The team is no form field but the player's; Django would skip the constraints that
        # name it, and a second starter in a slot would crash on save instead of being refused.
        if self.instance.team_id is not None:
            exclude.discard("team")
        return exclude


D20_PAIRS = (
    ("d20_made3_lo", "d20_made3_hi"),
    ("d20_made2_lo", "d20_made2_hi"),
    ("d20_fouled_lo", "d20_fouled_hi"),
    ("d20_miss3_lo", "d20_miss3_hi"),
    ("d20_miss2_lo", "d20_miss2_hi"),
)


@admin.register(Card)
class CardAdmin(TeamLabelSearch[Any], RosterDeleteCheck):
    def cards_gone(self, objs: list[Any]) -> QuerySet[Card]:
        return Card.objects.filter(pk__in=[c.pk for c in objs])

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """A new card starts as a reserve: a team has its five starters already, so a
        starter's card is refused until one of them goes to the bench."""
        return {"role": Role.RESERVE, **super().get_changeform_initial_data(request)}

    form = CardForm
    list_display = ("player", "team", "slot", "role", "ball_numbers", "can_play", "free_throw_top")
    list_filter = ("slot", "role", "team__card_source", "team__conference")
    search_fields = ("player__name", "team__school")
    list_select_related = ("player__team", "team")  # the player column names his team
    autocomplete_fields = ("player",)
    readonly_fields = ("preview", "ball_numbers")
    fieldsets = (
        ("The card as printed", {"fields": ("preview",)}),
        ("Identity", {"fields": ("player", "slot", "role", "positions")}),
        ("Ball and endurance", {"fields": ("extra_ball", "ball_numbers", "can_play")}),
        (
            "Defense on the 11-66 dice",
            {"fields": ("steal_top", "block_top", "foul_from", "turnover_top")},
        ),
        (
            "The d20 column (leave both ends empty for an outcome the card does not have)",
            {"fields": D20_PAIRS},
        ),
        ("Free throws and rebounds", {"fields": ("free_throw_top", "off_reb", "def_reb")}),
        (
            "His own dunk numbers (only for a mixed team)",
            {"fields": ("dunk_top", "dunk_adjust"), "classes": ("collapse",)},
        ),
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Card | None = None) -> Any:
        # A card belongs to one player for life; move a player by editing the player.
        return (*self.readonly_fields, "player") if obj else self.readonly_fields

    @admin.display(description="preview")
    def preview(self, card: Card) -> SafeString | str:
        if card.pk is None:
            return "The preview appears once the card is saved."
        historic = to_historic(card)
        if historic is not None:
            # The History's revert page: the version being restored, as it was saved (a
            # refused revert has written the posted values onto ``card``).
            shown = historic.instance
        else:
            # The card as saved: a refused form has already written its values onto ``card``.
            found = Card.objects.select_related("player__team").filter(pk=card.pk).first()
            if found is None:
                return "This card was deleted."
            shown = found
        try:
            shown.player.team  # noqa: B018 - the player, and his team, must still be there
        except (Player.DoesNotExist, Team.DoesNotExist):
            return f"No preview: {shown}. The version's values are in the fields below."
        return render_to_string("cards/card_face.html", {"face": card_face(shown)})
