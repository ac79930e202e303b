"""Commissioners run challenges in the admin: open a pool on a tournament not started,
read its entries, and compute the pool's win chances again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms.fields import InvalidJSONInput
from django.http import HttpRequest
from django.utils import timezone
from django.utils.http import urlencode

from challenge import services
from challenge.models import Challenge, Entry
from core.admin import StoredTitleAdmin


class BlankJSONField(forms.JSONField):
    """A JSON box whose blank (spaces or a newline a browser sent) is empty, not invalid."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            value = ""
        return super().to_python(value)


class ChallengeForm(forms.ModelForm[Challenge]):
    class Meta:
        model = Challenge
        fields = ("season", "name", "round_points", "lock_at", "public", "invite_code")
        field_classes = {"round_points": BlankJSONField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        points = self.fields["round_points"]
        points.required = False
        if self.instance.pk is None and not self.is_bound:
            self.initial["round_points"] = InvalidJSONInput("")  # an empty box, not "null"
        points.help_text = (
            "Points for a right pick, round by round (first round first), e.g. [1, 2, 4, 8, "
            "16, 32, 64]; left empty, each round is worth twice the one before."
        )
        # "1,2,4,8" without brackets was refused with a bare "Enter a valid JSON."
        points.error_messages["invalid"] = (
            "Write the round points as a list in square brackets, e.g. [1, 2, 4, 8, 16, 32, 64]."
        )
        # Only tournaments can be picked: say so rather than "Select a valid choice".
        self.fields["season"].error_messages["invalid_choice"] = (
            "Pick a tournament of the list: a challenge needs a bracket to pick (a league "
            "season has none), before its first game."
        )

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        season = data.get("season")
        if season is None:
            return data
        if self.instance.pk is None and services.tournament_started(season):
            raise ValidationError(
                f"{season} has started: a challenge opens only before the first game."
            )
        before = self.instance
        if before.pk is not None and before.season_id != season.pk and before.entries.exists():
            raise ValidationError(
                f"This pool has entries: its entries picked {before.season}'s games, so it "
                "cannot move to another tournament. Open a new pool on that one."
            )
        if before.pk is not None and services.is_locked(before):
            # Its picks have been public since it locked: it never opens again, and its
            # scoring is what every fan picked against.
            moved = [
                label
                for name, label in (("lock_at", "lock time"), ("round_points", "round points"))
                if name in data and data[name] != getattr(before, name)
            ]
            if moved:
                raise ValidationError(
                    f"This pool is locked (its picks are public): its {' and '.join(moved)} "
                    "can no longer change. Open a new pool to pick again."
                )
        lock_at = data.get("lock_at")
        if (
            lock_at is not None
            and (before.pk is None or lock_at != before.lock_at)
            and lock_at <= timezone.now()
        ):
            raise ValidationError("The lock time must be in the future.")
        probe = Challenge(
            pk=self.instance.pk,
            name=data.get("name") or "",
            season=season,
            round_points=data.get("round_points"),
            public=data.get("public", True),
            invite_code=data.get("invite_code", ""),
        )
        try:
            services.challenge_check(probe)
        except services.ChallengeRefused as exc:
            raise ValidationError(str(exc)[:1].upper() + str(exc)[1:] + ".") from exc
        data["round_points"] = probe.round_points
        data["invite_code"] = probe.invite_code
        self.instance.invite_code = probe.invite_code
        return data


@admin.register(Challenge)
class ChallengeAdmin(StoredTitleAdmin[Challenge]):
    form = ChallengeForm
    list_display = ("name", "season", "public", "lock_at", "scored_games", "created_at")
    list_filter = ("public",)
    list_select_related = ("season__league",)
    search_fields = ("name", "season__name")
    raw_id_fields = ("season",)
    readonly_fields = (
        "invitation_link", "scored_games", "win_samples", "odds_updated_at", "created_at",
    )  # fmt: skip
    actions = ("rescore",)

    @admin.display(description="Invitation link")
    def invitation_link(self, obj: Challenge) -> str:
        """What a private pool's commissioner sends his fans: the pool's address with its
        code, which opens it to read and fills the code into its join form."""
        if obj.pk is None or obj.public:
            return "A public pool: its address is enough."
        path = f"{obj.get_absolute_url()}?{urlencode({'code': obj.invite_code})}"
        return f"{path} (after this site's address): opens the pool and fills in its code"

    def save_model(self, request: HttpRequest, obj: Challenge, form: Any, change: bool) -> None:
        if not change:
            obj.created_by_id = request.user.pk
        super().save_model(request, obj, form, change)
        services.challenge_rescore(challenge_ids=[obj.pk])

    @admin.action(description="Score the selected pools again and compute their win chances")
    def rescore(self, request: HttpRequest, queryset: QuerySet[Challenge]) -> None:
        for pool in queryset:
            services.challenge_rescore(challenge_ids=[pool.pk])
            result = services.challenge_win_odds(challenge_id=pool.pk)
            if "pending" in result:
                self.message_user(request, f"{pool.name}: {result['pending']}.", messages.WARNING)
            elif "winners" in result:
                won = ", ".join(result["winners"]) or "no entry"
                self.message_user(request, f"{pool.name}: the tournament is over, won by {won}.")
            else:
                self.message_user(
                    request,
                    f"{pool.name}: {result['entries']} entries, {result['samples']} simulated "
                    f"tournaments, {result['seconds']:.2f} s.",
                )


HIDDEN = "hidden until the pool locks"


@admin.register(Entry)
class EntryAdmin(StoredTitleAdmin[Entry]):
    list_display = (
        "name", "user", "challenge", "points", "shown_max_points", "shown_alive", "shown_expected",
    )  # fmt: skip
    list_filter = ("challenge",)
    list_select_related = ("user", "challenge")
    search_fields = ("name", "user__username")
    raw_id_fields = ("user", "challenge")
    # A fan's picks are his own: changed only by him before the lock, and read here only
    # after it (a commissioner may play in his own pool): "shown" blanks them before.
    fields = (
        "name", "user", "challenge", "shown_picks", "shown_tiebreak",
        "points", "correct", "shown_expected", "created_at", "updated_at",
    )  # fmt: skip
    readonly_fields = (
        "shown_picks", "shown_tiebreak", "points", "correct", "shown_expected",
        "created_at", "updated_at",
    )  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        """No entry is made here: a fan joins a pool himself (the lock, a private pool's code,
        one entry a fan and the name rules are checked there). A reviewer's entry added
        here, after the lock and under a name taken, was scored but left out of the pool's
        count and page."""
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Entry | None = None) -> Any:
        """An entry stays in its pool and with its fan: moved to another tournament's pool,
        its picks (15 teams for 8) stopped that tournament's games from being stored."""
        fields = tuple(super().get_readonly_fields(request, obj))
        return ("user", "challenge", *fields) if obj is not None else fields

    @admin.display(description="picks")
    def shown_picks(self, entry: Entry) -> Any:
        return entry.picks if services.is_locked(entry.challenge) else HIDDEN

    @admin.display(description="max points")
    def shown_max_points(self, entry: Entry) -> Any:
        """The most still reachable sums the rounds of the picks made: after the lock only."""
        return entry.max_points if services.is_locked(entry.challenge) else HIDDEN

    @admin.display(description="alive")
    def shown_alive(self, entry: Entry) -> Any:
        """Picks alive counts the picks made: after the lock only."""
        return entry.alive if services.is_locked(entry.challenge) else HIDDEN

    @admin.display(description="expected")
    def shown_expected(self, entry: Entry) -> Any:
        """The exact expected score tells a single pick's team: after the lock only."""
        return entry.expected if services.is_locked(entry.challenge) else HIDDEN

    @admin.display(description="tie-breaker")
    def shown_tiebreak(self, entry: Entry) -> Any:
        return entry.tiebreak if services.is_locked(entry.challenge) else HIDDEN
