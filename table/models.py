"""A game played at the table with real dice: its teams as dealt, its rules and every die.

The dice are the game: ``dice`` holds the values in the order they were rolled (and, for a
side played by hand, ``choices`` its choices, each with the number of dice typed before
it), and the engine replays them (``simulator.vabg.sheet``; a grid-court or six-dice
game: that game's ``sheet``) to know the score, the sheet and the die it wants next. The
team files are kept as the game began, so a card edited in the admin meanwhile does not
change a game in progress (finishing refuses one whose cards changed); so is a grid-court
or six-dice game's rules version, so a ruling changed meanwhile does not change its dice's
game.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from cards.models import Team
from league.models import ROW_FIELDS, Game, RulesPreset
from simulator.games import DEFAULT_GAME, find_game, game_choices


class TableGame(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "In progress"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_games"
    )
    game = models.CharField(
        max_length=12,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text="Which game is played: VABG, grid court or six dice.",
    )
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text="A grid-court or six-dice game's rule options (VABG: rules and strategy).",
    )
    rules_version = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The game's rules version as it began: its dice are replayed by those "
        "rules to the end (empty: a VABG game begun before versions were kept).",
    )
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    rules = models.CharField(max_length=10, choices=RulesPreset.choices, default="advanced")
    strategy = models.BooleanField(
        default=False, help_text="Let the coach policy foul late and try for 3 (vabg rules §10)."
    )
    neutral = models.BooleanField(default=False, help_text="Neutral court: no home court.")
    home_team_file = models.JSONField(help_text="The home team's file as the game began.")
    away_team_file = models.JSONField(help_text="The visitors' team file as the game began.")
    dice = models.JSONField(
        default=list, blank=True, help_text="Every die rolled, in the order rolled."
    )
    hands = models.JSONField(
        default=list,
        blank=True,
        help_text='The sides ("home", "away") that make their own choices (a game that has '
        "them: six dice); the others play their coach style.",
    )
    choices = models.JSONField(
        default=list,
        blank=True,
        help_text="Every choice made by hand, in the order made: [dice typed before it, "
        "the choice].",
    )
    questions_version = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The version of the questions a side played by hand is asked, as the game "
        "began: its choices answer them in order (empty: a game begun before versions were "
        "kept, version 1).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    home_score = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The home team's points after the dice and choices entered so far (kept "
        "with every entry and undo; empty for a game saved before scores were kept, until "
        "it is next listed).",
    )
    away_score = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The visitors' points, kept the same way."
    )
    over = models.BooleanField(
        default=False,
        help_text="Every die of a game in progress is in: it waits to be stored in the league "
        "(kept with the score; the list says so).",
    )
    league_game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="table_games",
        help_text="The league game this is played for (a scheduled one, or the stored one).",
    )
    attached_kind = models.CharField(
        max_length=10,
        blank=True,
        help_text="What the scheduled game was before it was opened at the table.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["league_game"],
                condition=Q(status="playing"),
                name="table_one_game_in_progress_per_league_game",
                violation_error_message="This game is already being played at the table.",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished", "abandoned"]),
                name="table_game_status_valid",
                violation_error_message="Unknown table game status.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.away} at {self.home} (table #{self.pk})"

    def get_absolute_url(self) -> str:
        return reverse("table:sheet", args=[self.pk])

    @property
    def rules_in_fields(self) -> bool:
        """Return whether the game's rules are the ``rules`` preset and the ``strategy``
        switch (VABG), rather than ``options`` (a board game)."""
        return all(o.name in ROW_FIELDS for o in find_game(self.game).options)

    @property
    def cli_command(self) -> str:
        """Return the command line that plays this game again from the files the sheet
        downloads (their names as downloaded), with its rules, court and options: bare
        ``python -m simulator play`` played another game, or ran out of dice, for any game
        not on advanced rules at home."""
        words = ["python -m simulator play", *(f"table-{self.pk}-{side}-team.json"
                                             for side in ("home", "away"))]  # fmt: skip
        words.append(f"--dice table-{self.pk}-dice.json")
        if self.game != "vabg":
            words.append(f"--game {self.game}")
        if self.rules_in_fields:
            words.append(f"--rules {self.rules}")
            if self.strategy:
                words.append("--strategy")
        for name, value in sorted(self.options.items()):
            flag = "--" + name.replace("_", "-")
            if isinstance(value, bool):
                words += [flag] if value else []
            else:
                words.append(f"{flag} {value}")
        if self.neutral and self.rules_in_fields:  # the board games have no home court
            words.append("--neutral")
        return " ".join(words)

    @property
    def older_rules(self) -> int | None:
        """Return the rules version a VABG game began under when it is not today's (the
        command line plays today's: it would play another game), else None."""
        today = find_game(self.game).rules_version
        if self.rules_in_fields and self.rules_version not in (None, today):
            return self.rules_version
        return None

    @property
    def entries(self) -> int:
        """Return how many entries the game has: its dice and its choices."""
        return len(self.dice) + len(self.choices)

    @property
    def choice_tokens(self) -> list[str]:
        """Return the choices made by hand, in order (without where each was made)."""
        return [token for _, token in self.choices]

    @property
    def questions(self) -> int:
        """Return the version of the hand questions the game's choices answer (1 for a game
        begun before versions were kept)."""
        return 1 if self.questions_version is None else self.questions_version
