"""The fans' bracket challenge (issue 28): pools on a tournament and the fans' entries.

A :class:`Challenge` is a pool a commissioner opens on a tournament (a ``Season`` of kind
tournament) before its first game: points per round, a lock time, public or joined with
an invitation code. An :class:`Entry` is one fan's bracket in one pool: a pick for every
game (``{bracket key: team id}``) and the tie-breaker. Its score columns are written by
``challenge.services.challenge_rescore`` in the transaction that stores each game, never
on a page view. Both go with their tournament (``CASCADE``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.urls import reverse

from league.models import Season


class Challenge(models.Model):
    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        related_name="challenges",
        limit_choices_to={"kind": Season.Kind.TOURNAMENT},
        verbose_name="tournament",
    )
    name = models.CharField(max_length=100)
    round_points = models.JSONField(
        help_text="Points for a right pick, round by round (first round first), e.g. "
        "[1, 2, 4, 8, 16, 32, 64]; one number per round of the bracket."
    )
    lock_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Picks lock at this time, or when the tournament's first game is played, "
        "whichever comes first.",
    )
    public = models.BooleanField(
        default=True, help_text="Listed and open to every fan; off: joined by invitation code."
    )
    invite_code = models.CharField(
        max_length=32, blank=True, help_text="The code a fan gives to join a private pool."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    scored_games = models.PositiveIntegerField(
        default=0, editable=False, help_text="Stored games the entries' scores count."
    )
    entry_count = models.PositiveIntegerField(
        default=0, editable=False, help_text="Entries, as of the latest join or scoring."
    )
    best_expected = models.FloatField(
        null=True, blank=True, editable=False, help_text="The pool's best expected score."
    )
    odds_updated_at = models.DateTimeField(null=True, blank=True, editable=False)
    win_samples = models.PositiveIntegerField(
        default=0, editable=False, help_text="Simulated tournaments behind the win chances."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"

    def get_absolute_url(self) -> str:
        return reverse("challenge:pool", args=[self.pk])


class Entry(models.Model):
    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_entries"
    )
    name = models.CharField(max_length=60)
    picks = models.JSONField(default=dict, blank=True, help_text="{bracket key: team id}")
    pick_row = models.TextField(
        blank=True,
        editable=False,
        help_text="The picks as team ids in the bracket's game order, 0 for none: what the "
        "live scoring reads (one parse for a whole pool).",
    )
    tiebreak = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The final's total points (both teams)."
    )
    points = models.FloatField(default=0)
    max_points = models.FloatField(default=0)
    alive = models.PositiveSmallIntegerField(default=0)
    correct = models.PositiveSmallIntegerField(default=0)
    expected = models.FloatField(null=True, blank=True)
    win_probability = models.FloatField(null=True, blank=True)
    win_error = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-points", "-max_points", "id"]
        verbose_name_plural = "entries"
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["challenge", "user"],
                name="challenge_entry_one_per_fan",
                violation_error_message="You already have an entry in this pool.",
            ),
        ]
        indexes: ClassVar[list[Any]] = [
            models.Index(fields=["challenge", "-points", "-max_points", "id"]),
            models.Index(fields=["challenge", "-expected"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.user}) in {self.challenge.name}"

    def get_absolute_url(self) -> str:
        return reverse("challenge:entry", args=[self.pk])
