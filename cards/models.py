"""Teams, players and their VABG cards, with every rule of the ``vabg-team/1`` format.

Single-field bounds and one-starter-per-slot are database constraints; rules across fields
(the d20 column covers 1-20 exactly once, the roster size) live in ``clean()``. Both give the
same messages as the engine's own team-file reader, in the card's own terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from cards.styles import validate_styles
from simulator.jsonfile import kind, shown
from simulator.vabg.cards import (
    CARD_BOUNDS,
    D20_KEYS,
    SLOT_NAMES,
    TEAM_BOUNDS,
    D20Column,
    d20_coverage_problems,
)

# TEAM_BOUNDS and CARD_BOUNDS are the team file's own (interchange.md), so the validators,
# constraints and forms here bound what the engine reads.
ROSTER_SIZE = (5, 10)
# The d20 column's five outcomes: (file key, field prefix, label on the card).
D20_FIELDS = (
    ("3PM", "made3", "3-point make"),
    ("2PM", "made2", "2-point make"),
    ("FOUL", "fouled", "fouled"),
    ("3PX", "miss3", "3-point miss"),
    ("2PX", "miss2", "2-point miss"),
)
assert tuple(key for key, _, _ in D20_FIELDS) == D20_KEYS


def _bounded(name: str, bounds: dict[str, tuple[int, int]], label: str) -> list[Any]:
    """Bound a field, the refusal worded with the label a commissioner reads on the form."""
    lo, hi = bounds[name]
    message = f"{label} must be {lo} to {hi}, as on a VABG card."
    return [MinValueValidator(lo, message=message), MaxValueValidator(hi, message=message)]


def _between(name: str, bounds: dict[str, tuple[int, int]], label: str) -> models.CheckConstraint:
    lo, hi = bounds[name]
    return models.CheckConstraint(
        condition=Q(**{f"{name}__gte": lo, f"{name}__lte": hi}) | Q(**{f"{name}__isnull": True}),
        name=f"%(app_label)s_%(class)s_{name}_range",
        violation_error_message=f"{label} must be {lo} to {hi}.",
    )


def notes_problem(notes: object) -> str | None:
    """Say what is wrong with a team's or a player's notes: too long (``TEAM_NOTES_MAX_CHARS``).

    Notes are served to anyone who reads a team, so their length is bounded everywhere they
    are written: the admin forms, team files and the models themselves.
    """
    limit = settings.TEAM_NOTES_MAX_CHARS
    length = len(notes if isinstance(notes, str) else str(notes))
    if length <= limit:
        return None
    return f"the notes are {length:,} characters, more than the limit of {limit:,}"


def validate_notes(notes: object) -> None:
    """Refuse notes longer than ``TEAM_NOTES_MAX_CHARS`` (see :func:`notes_problem`)."""
    problem = notes_problem(notes)
    if problem:
        raise ValidationError(f"{problem[0].upper()}{problem[1:]}.", code="notes_too_long")


def validate_extra_object(extra: object) -> None:
    """Refuse an ``extra`` that is not a JSON object: its keys are written into the team
    file beside the card's own, so a list or a number there has no place to go."""
    if not isinstance(extra, dict):
        raise ValidationError(
            'Extra must be a JSON object of keys and values, such as {"college": "..."}, '
            f"or {{}} for none; got {kind(extra)}.",
            code="extra_not_object",
        )


def extra_keys(extra: object) -> dict[str, Any]:
    """Return a team's or a player's ``extra`` as the keys a team file carries.

    Every form refuses anything but a JSON object (:func:`validate_extra_object`), and
    migration 0006 kept any other value saved before that under ``EXTRA_KEPT_KEY``; a row
    written around the forms since is read the same way, never crashing a reader."""
    if isinstance(extra, dict):
        return dict(extra)
    if extra is None:
        return {}
    return {EXTRA_KEPT_KEY: extra}


EXTRA_KEPT_KEY = "extra_kept"
"""Where a non-object ``extra`` saved before the forms refused it is kept (see
:func:`extra_keys`)."""


def validate_player_extra(extra: object) -> None:
    """Refuse a player's ``extra`` that is not a JSON object, or whose notes (kept in
    ``extra`` as the team file has them) are over the limit.

    A validator of the field, not ``Player.clean``: a form without ``extra`` (the team's
    roster) then leaves the notes it does not show alone instead of failing on them.
    """
    validate_extra_object(extra)
    if isinstance(extra, dict) and "notes" in extra:
        validate_notes(extra["notes"])


class CardSource(models.TextChoices):
    PUBLISHED = "published", "Published by the game's author"
    CALCULATED = "calculated", "Calculated from the season's statistics"
    ESTIMATED = "estimated", "Estimated where statistics are missing"


class Team(models.Model):
    school = models.CharField(max_length=80)
    season = models.PositiveSmallIntegerField(
        help_text="The year the season ended (UCLA 1972 is the 1971-72 team).",
        validators=_bounded("season", TEAM_BOUNDS, "The season"),
    )
    conference = models.CharField(max_length=80, blank=True)
    dunk_top = models.SmallIntegerField(
        "dunk range top",
        help_text="The team's dunk range is 51 to this number on the 11-66 dice (vabg rules §5).",
        validators=_bounded("dunk_top", TEAM_BOUNDS, "The dunk range top"),
    )
    dunk_adjust = models.SmallIntegerField(
        "opponent dunk adjustment",
        help_text="Added to the opponent's dunk range top when they play this team.",
        validators=_bounded("dunk_adjust", TEAM_BOUNDS, "The opponent dunk adjustment"),
    )
    card_source = models.CharField(
        max_length=12,
        choices=CardSource.choices,
        default=CardSource.ESTIMATED,
        error_messages={
            "invalid_choice": "The card source must be published, calculated or estimated."
        },
    )
    notes = models.TextField(blank=True, validators=[validate_notes])
    extra = models.JSONField(
        default=dict,
        blank=True,
        help_text="Keys of the team file this product does not use, kept for export: a JSON "
        'object, such as {"coach": "..."}.',
        validators=[validate_extra_object],
    )
    styles = models.JSONField(
        "coach styles",
        default=dict,
        blank=True,
        validators=[validate_styles],
        help_text='The coach\'s style by board game, e.g. {"gridcourt": {"threes": 150}, '
        '"sixdice": {"threes": "top"}}; a game left out plays the style derived from the '
        'real season; "rulings" plays the rulings\' own policy (docs/cards.md).',
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["school", "season"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["school", "season"],
                name="cards_team_unique_school_season",
                violation_error_message="A team for this school and season already exists.",
            ),
            _between("season", TEAM_BOUNDS, "The season"),
            _between("dunk_top", TEAM_BOUNDS, "The dunk range top"),
            _between("dunk_adjust", TEAM_BOUNDS, "The opponent dunk adjustment"),
            models.CheckConstraint(
                condition=Q(card_source__in=CardSource.values),
                name="cards_team_card_source_valid",
                violation_error_message="The card source must be published, calculated or "
                "estimated.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.school} {self.season}"

    def get_absolute_url(self) -> str:
        return reverse("team", args=[self.pk])

    @property
    def decade(self) -> int:
        return self.season // 10 * 10

    def roster_problems(
        self, replacing: Card | None = None, cards: list[Card] | None = None
    ) -> list[str]:
        """Return the roster rules this team breaks (size, one starter per slot); with
        ``replacing``, as they would stand with that card (edited, not saved) in its place;
        with ``cards``, those of a roster as it would stand (each with its ``player``)."""
        if cards is None:
            cards = list(Card.objects.filter(player__team=self).select_related("player"))
        if replacing is not None:
            cards = [c for c in cards if c.pk != replacing.pk or replacing.pk is None]
            cards.append(replacing)
        problems = []
        lo, hi = ROSTER_SIZE
        if not lo <= len(cards) <= hi:
            problems.append(f"a roster holds {lo} to {hi} players, this one has {len(cards)}")
        for slot in range(1, 6):
            starters = [c.player.name for c in cards if c.slot == slot and c.is_starter]
            if not starters:
                problems.append(f"slot {slot} ({SLOT_NAMES[slot]}) has no starter")
            elif len(starters) > 1:
                problems.append(
                    f"slot {slot} ({SLOT_NAMES[slot]}) has {len(starters)} starters "
                    f"({', '.join(starters)})"
                )
        return problems


class Player(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    order = models.PositiveSmallIntegerField(
        default=0, help_text="Order in the team file; a slot's reserves play in this order."
    )
    height = models.CharField(max_length=10, blank=True, help_text='As printed, e.g. "6-10".')
    ppg = models.DecimalField(
        "points per game",
        max_digits=4,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(200)],
    )
    extra = models.JSONField(
        default=dict,
        blank=True,
        help_text="Keys of the team file this product does not use (statistics, sources...): "
        'a JSON object, such as {"college": "..."}.',
        validators=[validate_player_extra],
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["team", "order", "id"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["team", "name"],
                name="cards_player_unique_name_per_team",
                violation_error_message="A player with this name is already on this team.",
            ),
            models.CheckConstraint(
                condition=Q(ppg__gte=0) | Q(ppg__isnull=True),
                name="cards_player_ppg_not_negative",
                violation_error_message="Points per game cannot be negative.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.team})"

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])


class Role(models.TextChoices):
    STARTER = "starter", "Starter"
    RESERVE = "reserve", "Reserve"


def _d20_constraints() -> list[models.CheckConstraint]:
    out = []
    for key, prefix, _label in D20_FIELDS:
        lo, hi = f"d20_{prefix}_lo", f"d20_{prefix}_hi"
        out.append(
            models.CheckConstraint(
                condition=(Q(**{f"{lo}__isnull": True}) & Q(**{f"{hi}__isnull": True}))
                | (Q(**{f"{lo}__gte": 1, f"{hi}__lte": 20}) & Q(**{f"{lo}__lte": F(hi)})),
                name=f"cards_card_d20_{prefix}_range",
                violation_error_message=f"The d20 {key} range must be a-b within 1-20 with a "
                "not above b, or empty for an outcome the card does not have.",
            )
        )
    return out


class Card(models.Model):
    """A player's printed VABG card. Ranges are stored by their open end, as in team files."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="card")
    # The player's team again, so the database can enforce one starter per slot.
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="cards", editable=False)
    slot = models.PositiveSmallIntegerField(
        choices=[(n, f"{n} ({name})") for n, name in SLOT_NAMES.items()],
        validators=_bounded("slot", CARD_BOUNDS, "The slot"),
        error_messages={"invalid_choice": "The slot must be 1 to 5 (PG, SG, SF, PF, C)."},
    )
    role = models.CharField(
        max_length=8,
        choices=Role.choices,
        default=Role.STARTER,
        error_messages={"invalid_choice": "The role must be starter or reserve."},
    )
    positions = models.JSONField(
        default=list, help_text="Suggested positions 0-5; 0 or 1 means he can run the point."
    )
    extra_ball = models.PositiveSmallIntegerField(
        "extra ball numbers",
        default=0,
        validators=_bounded("extra_ball", CARD_BOUNDS, "The extra ball numbers"),
        help_text="0 = only his slot number; 1 = also 7 (printed 5&7); 2 = also 6 and 8.",
    )
    ball_numbers = models.CharField(
        max_length=12, editable=False, help_text='As printed on the card, e.g. "5&7".'
    )
    can_play = models.PositiveSmallIntegerField(
        "possessions he can play",
        validators=_bounded("can_play", CARD_BOUNDS, "The possessions he can play"),
        help_text="Endurance: possessions before he is tired (0-66).",
    )
    steal_top = models.PositiveSmallIntegerField(
        "steal range top",
        validators=_bounded("steal_top", CARD_BOUNDS, "The steal range top"),
        help_text="Steal range 11 to this number on the 11-66 dice (10 = none).",
    )
    block_top = models.PositiveSmallIntegerField(
        "block range top",
        validators=_bounded("block_top", CARD_BOUNDS, "The block range top"),
        help_text="Block range 21 to this number (20 = none).",
    )
    foul_from = models.PositiveSmallIntegerField(
        "foul range start",
        validators=_bounded("foul_from", CARD_BOUNDS, "The foul range start"),
        help_text="Foul range from this number to 36 (37 = none).",
    )
    turnover_top = models.PositiveSmallIntegerField(
        "turnover range top",
        validators=_bounded("turnover_top", CARD_BOUNDS, "The turnover range top"),
        help_text="Turnover range 41 to this number (40 = none).",
    )
    d20_made3_lo = models.PositiveSmallIntegerField("3PM from", null=True, blank=True)
    d20_made3_hi = models.PositiveSmallIntegerField("3PM to", null=True, blank=True)
    d20_made2_lo = models.PositiveSmallIntegerField("2PM from", null=True, blank=True)
    d20_made2_hi = models.PositiveSmallIntegerField("2PM to", null=True, blank=True)
    d20_fouled_lo = models.PositiveSmallIntegerField("FOUL from", null=True, blank=True)
    d20_fouled_hi = models.PositiveSmallIntegerField("FOUL to", null=True, blank=True)
    d20_miss3_lo = models.PositiveSmallIntegerField("3PX from", null=True, blank=True)
    d20_miss3_hi = models.PositiveSmallIntegerField("3PX to", null=True, blank=True)
    d20_miss2_lo = models.PositiveSmallIntegerField("2PX from", null=True, blank=True)
    d20_miss2_hi = models.PositiveSmallIntegerField("2PX to", null=True, blank=True)
    free_throw_top = models.PositiveSmallIntegerField(
        "free throw range top",
        validators=_bounded("free_throw_top", CARD_BOUNDS, "The free throw range top"),
        help_text="Makes a free throw on a d20 of 1 to this number (0 = never).",
    )
    off_reb = models.PositiveSmallIntegerField(
        "offensive rebound top",
        validators=_bounded("off_reb", CARD_BOUNDS, "The offensive rebound top"),
        help_text="When the rebound chart's d20 gives him the first chance, he rebounds on a "
        "d6 of 1 to this number: 0 never, 6 or more always; the higher number also wins a d20 "
        "of 10 or 20 (vabg rules §7).",
    )
    def_reb = models.PositiveSmallIntegerField(
        "defensive rebound top",
        validators=_bounded("def_reb", CARD_BOUNDS, "The defensive rebound top"),
        help_text="When the rebound chart's d20 gives him the first chance, he rebounds on a "
        "d6 of 1 to this number: 0 never, 6 or more always; the higher number also wins a d20 "
        "of 10 or 20 (vabg rules §7).",
    )
    dunk_top = models.SmallIntegerField(
        "own dunk range top",
        null=True,
        blank=True,
        validators=_bounded("dunk_top", CARD_BOUNDS, "His own dunk range top"),
        help_text="Only for a player whose dunk range differs from his team's.",
    )
    dunk_adjust = models.SmallIntegerField(
        "own opponent dunk adjustment",
        null=True,
        blank=True,
        validators=_bounded("dunk_adjust", CARD_BOUNDS, "His own opponent dunk adjustment"),
        help_text="Only for a player whose adjustment differs from his team's.",
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["team", "slot", "role", "player__order"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["team", "slot"],
                condition=Q(role="starter"),
                name="cards_card_one_starter_per_slot",
                violation_error_message="This team already has a starter in this slot.",
            ),
            models.CheckConstraint(
                condition=Q(role__in=Role.values),
                name="cards_card_role_valid",
                violation_error_message="The role must be starter or reserve.",
            ),
            _between("slot", CARD_BOUNDS, "The slot"),
            _between("extra_ball", CARD_BOUNDS, "The extra ball numbers"),
            _between("can_play", CARD_BOUNDS, "The possessions he can play"),
            _between("steal_top", CARD_BOUNDS, "The steal range top"),
            _between("block_top", CARD_BOUNDS, "The block range top"),
            _between("foul_from", CARD_BOUNDS, "The foul range start"),
            _between("turnover_top", CARD_BOUNDS, "The turnover range top"),
            _between("free_throw_top", CARD_BOUNDS, "The free throw range top"),
            _between("off_reb", CARD_BOUNDS, "The offensive rebound top"),
            _between("def_reb", CARD_BOUNDS, "The defensive rebound top"),
            _between("dunk_top", CARD_BOUNDS, "His own dunk range top"),
            _between("dunk_adjust", CARD_BOUNDS, "His own opponent dunk adjustment"),
            *_d20_constraints(),
        ]

    def __str__(self) -> str:
        try:
            player = self.player
        except Player.DoesNotExist:
            return self.deleted_player_label()
        return f"{player.name} card ({player.team})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.derive()
        super().save(*args, **kwargs)

    def derive(self) -> None:
        """Set what the card's other fields decide: its team (its player's) and its ball
        numbers as printed. Every save does; a bulk insert (an import's new team) calls it."""
        self.team_id = self.player.team_id
        self.ball_numbers = self.printed_ball_numbers()

    def deleted_player_label(self) -> str:
        """Name a card whose player is gone (a version in the History outlives both): by
        the player's last stored version, "Anthony Davis card (Kentucky 2012; player
        deleted)"."""
        last = Player.history.filter(id=self.player_id).order_by("-history_date").first()
        if last is None:
            return f"card of player #{self.player_id} (player deleted)"
        team = Team.objects.filter(pk=last.team_id).first()
        if team is None:
            old = Team.history.filter(id=last.team_id).order_by("-history_date").first()
            where = f"{old.school} {old.season}, deleted" if old else f"team #{last.team_id}"
        else:
            where = str(team)
        return f"{last.name} card ({where}; player deleted)"

    @property
    def is_starter(self) -> bool:
        return self.role == Role.STARTER

    def printed_ball_numbers(self) -> str:
        """Return the ball numbers as the printed card shows them: ``"5&7"``, ``"2 6&8"``."""
        return f"{self.slot}" + {0: "", 1: "&7", 2: " 6&8"}.get(self.extra_ball, "")

    def d20_ranges(self) -> dict[str, tuple[int, int] | None]:
        """Return the d20 column as ``{"3PM": (lo, hi) or None, ...}``."""
        out: dict[str, tuple[int, int] | None] = {}
        for key, prefix, _ in D20_FIELDS:
            lo, hi = getattr(self, f"d20_{prefix}_lo"), getattr(self, f"d20_{prefix}_hi")
            out[key] = None if lo is None and hi is None else (lo, hi)
        return out

    def set_d20_ranges(self, ranges: dict[str, tuple[int, int] | None]) -> None:
        """Set the d20 column from ``{"3PM": (lo, hi) or None, ...}``."""
        for key, prefix, _ in D20_FIELDS:
            rng = ranges.get(key)
            setattr(self, f"d20_{prefix}_lo", None if rng is None else rng[0])
            setattr(self, f"d20_{prefix}_hi", None if rng is None else rng[1])

    def clean(self) -> None:
        """Check the rules across fields, in the card's own terms."""
        errors: dict[str, list[str]] = {}
        positions = self.positions
        if (
            not isinstance(positions, list)
            or not positions
            or any(
                isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 5 for p in positions
            )
            or len(set(positions)) != len(positions)
        ):
            errors.setdefault("positions", []).append(
                "The positions must be a non-empty list of distinct numbers 0-5, "
                f"got {shown(positions)}."
            )
        for problem in d20_problems(self.d20_ranges()):
            errors.setdefault("__all__", []).append(problem)
        if errors:
            raise ValidationError(errors)

    def validate_constraints(self, exclude: Any = None) -> None:
        """Check the table's constraints, less the d20 ranges' own where ``clean`` has
        already said what is wrong with them in words (the form said it twice: "The d20
        2PX range 17-21 must lie within 1-20, low end first. The d20 2PX range must be
        a-b within 1-20...")."""
        try:
            super().validate_constraints(exclude)
        except ValidationError as exc:
            if not d20_problems(self.d20_ranges()):
                raise
            errors = exc.update_error_dict({})
            said = [
                e
                for e in errors.get(NON_FIELD_ERRORS, [])
                if not (isinstance(e, ValidationError)
                        and "range must be a-b within 1-20" in " ".join(e.messages))
            ]  # fmt: skip
            if said:
                errors[NON_FIELD_ERRORS] = said
            else:
                errors.pop(NON_FIELD_ERRORS, None)
            if errors:
                raise ValidationError(errors) from exc


def d20_problems(ranges: Mapping[str, tuple[int | None, int | None] | None]) -> list[str]:
    """Return what is wrong with a d20 column, e.g. "The d20 ranges leave 17 uncovered."."""
    problems = []
    checked: list[tuple[int, int] | None] = []
    for key, rng in ranges.items():
        if rng is None:
            checked.append(None)
            continue
        lo, hi = rng
        if lo is None or hi is None:
            problems.append(f"The d20 {key} range needs both ends (or neither).")
        elif not 1 <= lo <= hi <= 20:
            problems.append(f"The d20 {key} range {lo}-{hi} must lie within 1-20, low end first.")
        else:
            checked.append((lo, hi))
    if problems:
        return problems
    # The engine's own reader words the coverage rules; one wording for files and forms.
    return [f"{p[0].upper()}{p[1:]}." for p in d20_coverage_problems(D20Column(*checked))]
