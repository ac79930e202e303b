"""Games and their stored results: box-score lines, play-by-play, seed and the cards played.

A game is a schedule row with a status; its result is a separate row, one per game
(``OneToOneField``: the database refuses a second result), written with the box-score
lines in the same transaction that marks the game final.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.text import slugify

from cards.models import Player, Team
from league.digests import document_digest
from simulator.games import DEFAULT_GAME, InvalidOptionError, find_game, game_choices, game_names
from simulator.seeds import SEED_MAX

SMALL_MAX = MaxValueValidator(32767)
SEED_BOUNDS = [MinValueValidator(0), MaxValueValidator(SEED_MAX)]
"""A seed is a whole number from 0 to 2**63 - 1, as every form and the API take it."""
"""The most a small-integer column holds: PostgreSQL refuses more, SQLite would keep it, so
the forms (the admin's too) refuse it on both."""


class DocumentField(models.JSONField):
    """A JSON column for big documents (a game's play-by-play, a team file).

    Inserted many rows at once, Django 5.2 on PostgreSQL sends a column as one array
    (``INSERT ... SELECT * FROM UNNEST``), which psycopg's client-side binding quotes in
    Python, character by character: 2 s for a chunk of 16 games' play-by-play. A field
    with its own placeholder is left out of that, so each row's document is bound as its
    own parameter and quoted by libpq.
    """

    def get_placeholder(self, value: object, compiler: object, connection: object) -> str:
        return "%s"


class RulesPreset(models.TextChoices):
    ADVANCED = "advanced", "Advanced"
    BASIC = "basic", "Basic"


ROW_FIELDS = {"preset": "rules", "strategy": "strategy"}
"""The game options a league game keeps in fields of its own (VABG's rules preset and
coach switch), not in ``options``."""


def options_help() -> str:
    """Say what ``options`` each game takes (what :func:`game_options_clean` accepts), from
    the games' own option lists: names, values, defaults and meaning."""

    def value(v: object) -> str:
        return json.dumps(v)

    parts = []
    for name in game_names():
        engine = find_game(name)
        title = engine.label or engine.title
        own = [o for o in engine.options if o.name not in ROW_FIELDS]
        if not own:
            parts.append(f"{title} takes none (its rules and coach policy are fields of their own)")
            continue
        described = []
        for o in own:
            values = [value(c) for c in o.choices]
            head = f"{o.name} {', '.join(values[:-1])} or {values[-1]}" if values[1:] else o.name
            described.append(f"{head} (default {value(o.default)}): {o.help}")
        parts.append(f"{title}: " + "; ".join(described))
    return (
        "A JSON object of the game's rule options, each left out at its default. "
        + ". ".join(parts)
        + '. For example {"chip_reroll": true} or {"pieces": 3}.'
    )


def game_options_clean(game: str, options: object) -> dict[str, Any]:
    """Return a game's rule options checked by its own rules, every option filled in.

    VABG keeps its rules in the ``rules`` and ``strategy`` fields, so its options are
    empty; grid court takes ``width``, ``level`` and ``pieces``, six dice ``faces`` and
    ``chip_reroll``. Refused with a ``ValidationError`` on ``options`` saying why.
    """
    if not isinstance(options, dict):
        raise ValidationError({"options": "the options must be a JSON object"})
    if game not in game_names():
        raise ValidationError({"game": f"no game named {game!r}"})
    engine = find_game(game)
    if all(o.name in ROW_FIELDS for o in engine.options):
        if options:
            raise ValidationError(
                {"options": f"a {engine.label or engine.title} game takes its rules from the "
                 "rules and strategy fields, not options"}
            )  # fmt: skip
        return {}
    # Every problem at once: the options the game does not have, then each bad value
    # (the game's own check stops at the first), then what only the values together break.
    known = [o.name for o in engine.options]
    problems = []
    unknown = [name for name in options if name not in known]
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        problems.append(
            f"{engine.name} has no option{'s' if len(unknown) > 1 else ''} {names}: its "
            f"options are {', '.join(known)}"
        )
    for name, value in options.items():
        if name in known:
            try:
                engine.make_rules(**{name: value})
            except (InvalidOptionError, TypeError) as exc:
                problems.append(str(exc))
    if problems:
        raise ValidationError({"options": problems})
    try:
        rules = engine.make_rules(**options)
    except (InvalidOptionError, TypeError) as exc:
        raise ValidationError({"options": str(exc)}) from exc
    doc: dict[str, Any] = rules.to_json()
    # The options only: not the version, nor a reading an older version kept (six dice's
    # deflected_pass_penalty), which the stored result's rules carry instead.
    return {o.name: doc[o.name] for o in engine.options}


class League(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    game = models.CharField(
        max_length=12,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text="The game its new seasons play unless a season says otherwise.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A season of conference play or a tournament, inside a league.

    A tournament's bracket is stored whole in ``bracket`` (the pure structure of
    ``league.bracket``); its games are created round by round as the round before is stored.
    """

    class Kind(models.TextChoices):
        SEASON = "season", "Season"
        TOURNAMENT = "tournament", "Tournament"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SEASON)
    game = models.CharField(max_length=12, choices=game_choices, default=DEFAULT_GAME)
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The game's rule options (grid court: width, level, pieces; six dice: "
        "faces, chip_reroll); VABG uses rules and strategy instead.",
    )
    rules = models.CharField(max_length=10, choices=RulesPreset.choices, default="advanced")
    strategy = models.BooleanField(
        default=True, help_text="Let the coach policy foul late and try for 3 (vabg rules §10)."
    )
    home_court = models.BooleanField(
        default=True,
        help_text="Play games at the home team's court (seasons); off: every game neutral.",
    )
    reseed = models.BooleanField(
        default=False, help_text="Tournament: re-pair the remaining teams best v worst."
    )
    seed = models.BigIntegerField(
        validators=SEED_BOUNDS,
        help_text="The season's master seed: schedule order, game seeds and coin flips.",
    )
    start_date = models.DateField(null=True, blank=True)
    bracket = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["league", "slug"],
                name="league_season_unique_slug",
                violation_error_message="This league already has a season with this name or "
                "slug (the name in its web address).",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("season", args=[self.pk])

    def clean(self) -> None:
        self.options = game_options_clean(self.game, self.options)

    def validate_constraints(self, exclude: Any = None) -> None:
        """Name the season already at this address, on the name (the field an API client
        and the form's reader set; the constraint's own message said only "a season with
        this name or slug", above the form)."""
        taken = None
        if self.league_id and self.slug and "slug" not in (exclude or ()):
            taken = (
                Season.objects.filter(league_id=self.league_id, slug=self.slug)
                .exclude(pk=self.pk)
                .first()
            )
            exclude = {*(exclude or ()), "slug"}
        errors: dict[str, list[ValidationError]] = {}
        try:
            super().validate_constraints(exclude=exclude)
        except ValidationError as exc:
            errors = exc.update_error_dict(errors)
        if taken is not None:
            errors.setdefault("name", []).append(
                ValidationError(
                    f"{self.league} already has the season {taken.name!r} (its web address's "
                    f"slug {self.slug!r}): give this one another name."
                )
            )
        elif self.league_id and self.name and "name" not in (exclude or ()):
            # A season renamed (its slug kept) to another's name: two seasons the pages
            # and the API could not tell apart.
            twin = (
                Season.objects.filter(league_id=self.league_id, name__iexact=self.name.strip())
                .exclude(pk=self.pk)
                .first()
            )
            if twin is not None:
                errors.setdefault("name", []).append(
                    ValidationError(
                        f"{self.league} already has a season named {twin.name!r}: give this "
                        "one another name."
                    )
                )
        if errors:
            raise ValidationError(errors)


class SeasonTeam(models.Model):
    """A team's entry in a season: its conference (or none), region and seed."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries")
    conference = models.CharField(max_length=60, blank=True)
    region = models.CharField(max_length=30, blank=True)
    seed = models.PositiveSmallIntegerField(null=True, blank=True, validators=[SMALL_MAX])

    class Meta:
        ordering = ["season", "conference", "region", "seed", "team__school"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["season", "team"],
                name="league_seasonteam_once",
                violation_error_message="This team is already in this season.",
            ),
            models.UniqueConstraint(
                fields=["season", "region", "seed"],
                name="league_seasonteam_one_team_per_seed",
                condition=Q(seed__isnull=False),
                violation_error_message="Another team already has this seed in this region.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.season}"


class Game(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        RUNNING = "running", "Being simulated"
        FINAL = "final", "Final"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        SIMULATED = "simulated", "Simulated"
        REAL_DICE = "real_dice", "Real dice"

    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_games")
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_games")
    game = models.CharField(max_length=12, choices=game_choices, default=DEFAULT_GAME)
    options = models.JSONField(
        default=dict, blank=True, help_text="The game's rule options (see Season.options)."
    )
    neutral = models.BooleanField(
        default=False,
        help_text="Neutral court: neither team plays at home (VABG: no home-court foul ranges, "
        "rules §7).",
    )
    rules = models.CharField(max_length=10, choices=RulesPreset.choices, default="advanced")
    strategy = models.BooleanField(
        default=False, help_text="Let the coach policy foul late and try for 3 (vabg rules §10)."
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SIMULATED)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    seed = models.BigIntegerField(
        null=True,
        blank=True,
        validators=SEED_BOUNDS,
        help_text="The dice seed; the game replays exactly from it.",
    )
    label = models.CharField(max_length=120, blank=True, help_text='e.g. "Exhibition".')
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    round = models.PositiveSmallIntegerField(null=True, blank=True, validators=[SMALL_MAX])
    game_date = models.DateField(null=True, blank=True)
    conference_game = models.BooleanField(default=False)
    bracket_key = models.CharField(
        max_length=40, blank=True, help_text="The bracket game this is (tournaments)."
    )
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker was last asked to simulate it."
    )
    run = models.ForeignKey(
        "SimulationRun", on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(
        max_length=64,
        blank=True,
        help_text="The task that holds the game's lease: a redelivery of that same task "
        "(its worker died) may take the game back at once instead of waiting for the lease.",
    )
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes: ClassVar[list[Any]] = [
            models.Index(fields=["season", "round"]),
            models.Index(fields=["season", "game_date"]),
            models.Index(fields=["status", "queued_at"]),
            # the home page's latest results and the latest leaders: newest final games first
            models.Index(fields=["status", "-played_at", "-id"], name="league_game_latest_idx"),
        ]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=~Q(home=F("away")),
                name="league_game_two_different_teams",
                violation_error_message="A team cannot play itself.",
            ),
            models.UniqueConstraint(
                fields=["season", "bracket_key"],
                condition=~Q(bracket_key=""),
                name="league_game_one_per_bracket_slot",
                violation_error_message="This bracket game already exists.",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["scheduled", "running", "final", "failed"]),
                name="league_game_status_valid",
                violation_error_message="Unknown game status.",
            ),
        ]

    def __str__(self) -> str:
        where = " (neutral)" if self.neutral else ""
        return f"{self.away} at {self.home}{where} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def clean(self) -> None:
        self.options = game_options_clean(self.game, self.options)


class SimulationRun(models.Model):
    """A commissioner's request to simulate a set of games, with its progress.

    ``total`` is fixed when the run starts (for a tournament: every game still to come);
    ``done`` counts the run's games stored so far and is updated with each game.
    """

    class Scope(models.TextChoices):
        GAME = "game", "One game"
        ROUND = "round", "A round"
        DATE = "date", "A day"
        UNTIL = "until", "Up to a date"
        ALL = "all", "The rest"
        RETRY = "retry", "Failed games retried"

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="runs")
    scope = models.CharField(max_length=6, choices=Scope.choices)
    round = models.PositiveSmallIntegerField(null=True, blank=True, validators=[SMALL_MAX])
    game_date = models.DateField(null=True, blank=True)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    dispatch = models.BooleanField(
        default=True,
        help_text="Send the games to workers; off: the caller plays them one by one.",
    )
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(
        blank=True, help_text="Why a failed run failed: each failed game and its reason."
    )

    # Set (not stored) when a second simulation of the same games joined this run.
    joined: bool = False
    # Set (not stored) to the bracket games its start drew again (a deleted game's hole).
    redrawn: Sequence[Game] = ()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=Q(done__lte=F("total")),
                name="league_run_done_within_total",
                violation_error_message="A run cannot finish more games than it holds.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.get_scope_display()} #{self.pk}"

    @property
    def percent(self) -> int:
        return 100 if not self.total else round(100 * (self.done + self.failed) / self.total)


class TeamVersion(models.Model):
    """A team file as some game played it, stored once: every result that played these very
    cards points here (``GameResult.home_version``, ``away_version``) instead of a copy.

    Keyed by the SHA-256 of the document (:func:`document_digest`); a card edited later is a
    new version, and the games played before keep the old one. Never edited or deleted
    while a result points at it.
    """

    digest = models.CharField(max_length=64, unique=True)
    document = DocumentField(
        help_text="The team file (vabg-team/1; another game's school and season)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        school = self.document.get("school", "?") if isinstance(self.document, dict) else "?"
        return f"{school} {self.digest[:12]}"


def team_versions_store(documents: Mapping[str, dict[str, Any]]) -> dict[str, int]:
    """Return ``{digest: TeamVersion id}`` for team files given by their digests
    (:func:`document_digest`), storing those not stored yet.

    One statement when every version is known, three at most, whatever the number of
    games; safe beside another transaction storing the same version (the digest is unique).
    """
    found = dict(TeamVersion.objects.filter(digest__in=list(documents)).values_list("digest", "pk"))
    missing = [
        TeamVersion(digest=d, document=doc) for d, doc in documents.items() if d not in found
    ]
    if missing:
        TeamVersion.objects.bulk_create(missing, ignore_conflicts=True)
        found.update(
            TeamVersion.objects.filter(digest__in=[v.digest for v in missing]).values_list(
                "digest", "pk"
            )
        )
    return found


class GameResult(models.Model):
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    home_score = models.PositiveSmallIntegerField()
    away_score = models.PositiveSmallIntegerField()
    overtimes = models.PositiveSmallIntegerField(default=0)
    home_periods = models.JSONField(default=list)
    away_periods = models.JSONField(default=list)
    home_team_turnovers = models.PositiveSmallIntegerField(default=0)
    away_team_turnovers = models.PositiveSmallIntegerField(default=0)
    # Trips with the ball after the 20-20 start (44 + overtime + extras; re-rolls excluded).
    home_possessions = models.PositiveSmallIntegerField(default=0)
    away_possessions = models.PositiveSmallIntegerField(default=0)
    # The team files as played, each stored once (``TeamVersion``): editing a card later
    # never rewrites this game. Read them as ``home_team_file`` and ``away_team_file``.
    home_version = models.ForeignKey(TeamVersion, on_delete=models.PROTECT, related_name="+")
    away_version = models.ForeignKey(TeamVersion, on_delete=models.PROTECT, related_name="+")
    events = DocumentField(help_text="The play-by-play, one object per event.")
    dice = models.JSONField(help_text='{"seed": n} or the vabg-dice/1 script that was rolled.')
    rules = models.JSONField(help_text="Every rules switch the game was played with.")
    box = models.JSONField(
        default=dict,
        blank=True,
        help_text='Another game\'s own box score, {"home": ..., "away": ...} as its engine '
        "builds it from the events (VABG's player lines are BoxLine rows instead).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=~Q(home_score=F("away_score")),
                name="league_result_no_ties",
                violation_error_message="A VABG game never ends tied.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.away_score}-{self.home_score}"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._files: dict[str, dict[str, Any]] = {}
        super().__init__(*args, **kwargs)

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, storing a team file given as a document as its version first."""
        if self._files:
            digests = {side: document_digest(doc) for side, doc in self._files.items()}
            ids = team_versions_store({digests[side]: self._files[side] for side in digests})
            for side, digest in digests.items():
                setattr(self, f"{side}_version_id", ids[digest])
            self._files = {}
        super().save(*args, **kwargs)

    @property
    def home_team_file(self) -> dict[str, Any]:
        """The home team's file as played."""
        return self.team_file("home")

    @home_team_file.setter
    def home_team_file(self, document: dict[str, Any]) -> None:
        self._files["home"] = document

    @property
    def away_team_file(self) -> dict[str, Any]:
        """The visitors' team file as played."""
        return self.team_file("away")

    @away_team_file.setter
    def away_team_file(self, document: dict[str, Any]) -> None:
        self._files["away"] = document

    def team_file(self, side: str) -> dict[str, Any]:
        """Return the team file a side played with."""
        if side in self._files:
            return self._files[side]
        version: TeamVersion = self.home_version if side == "home" else self.away_version
        document: dict[str, Any] = version.document
        return document

    def card_as_played(self, side: str, name: str) -> dict[str, Any]:
        """Return a player's card exactly as it was when this game was played."""
        for player in self.team_file(side)["players"]:
            if player["name"] == name:
                return dict(player)
        raise KeyError(f"{name} did not play for the {side} side of {self.game}")


class GameChart(models.Model):
    """A played game's win-probability chart: P(home wins) at the start of each trip (VABG)
    or before each roll (six dice), worked out from its stored play-by-play and cards as
    played, once, in the background the first time a fan asks (``league.odds.win_probability``).

    It is kept beside the result rather than in it: a chart costs exact odds (tens of
    milliseconds a VABG game, more for a six-dice pairing's first) that most stored games
    never need, and the pages that read results never read it. A new result (a game
    stored again) has no chart until asked; the chart of a result that can have none says
    why in ``refused``.
    """

    result = models.OneToOneField(
        GameResult, on_delete=models.CASCADE, primary_key=True, related_name="chart"
    )
    chances = models.JSONField(
        null=True,
        blank=True,
        help_text="P(home wins) at each point of the chart, before the final result: one "
        "number a trip (VABG), [event index, P] a roll (six dice).",
    )
    refused = models.TextField(
        blank=True, help_text="Why this game can have no chart (its cards or rules cannot be read)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Chart of {self.result.game}"


class BoxLine(models.Model):
    class Side(models.TextChoices):
        HOME = "home", "Home"
        AWAY = "away", "Away"

    result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="lines")
    side = models.CharField(max_length=4, choices=Side.choices)
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="box_lines")
    # The player row may be edited or removed later; the line keeps the name played.
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="box_lines"
    )
    name = models.CharField(max_length=80)
    order = models.PositiveSmallIntegerField(default=0)
    # Opening credits of the 20-20 start count in pts, reb, stl, blk and pf (rulings §13).
    pts = models.PositiveSmallIntegerField(default=0)
    fgm = models.PositiveSmallIntegerField(default=0)
    fga = models.PositiveSmallIntegerField(default=0)
    tpm = models.PositiveSmallIntegerField(default=0)
    tpa = models.PositiveSmallIntegerField(default=0)
    ftm = models.PositiveSmallIntegerField(default=0)
    fta = models.PositiveSmallIntegerField(default=0)
    oreb = models.PositiveSmallIntegerField(default=0)
    dreb = models.PositiveSmallIntegerField(default=0)
    reb = models.PositiveSmallIntegerField(default=0)
    stl = models.PositiveSmallIntegerField(default=0)
    blk = models.PositiveSmallIntegerField(default=0)
    to = models.PositiveSmallIntegerField(default=0)
    pf = models.PositiveSmallIntegerField(default=0)
    poss = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["result", "side", "order"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["result", "side", "name"],
                name="league_boxline_one_line_per_player",
                violation_error_message="This player already has a line in this game.",
            ),
            models.CheckConstraint(
                condition=Q(fgm__lte=F("fga"), tpm__lte=F("tpa"), ftm__lte=F("fta"))
                & Q(tpm__lte=F("fgm"), reb__gte=F("oreb") + F("dreb")),
                name="league_boxline_consistent",
                violation_error_message="Makes cannot exceed attempts, 3-pointers cannot "
                "exceed field goals, and rebounds include the offensive and defensive ones.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}, {self.result.game}"


class SolvedCoach(models.Model):
    """An exact coach solved for two cards, the rules and the court, kept for every process
    (``league.coaches.coach_for``): solving one costs tens of milliseconds, most of what a
    stored game costs, and a league meets the same pairs again (a new season of the same
    field, a replay, a chart, a research run). Keyed by ``league.coaches.coach_key``: both
    cards' digests, the rules, the court and the simulator's source, so a card edit or a
    new engine is a new key, never a stale coach; derived data, solved again when missing.
    """

    key = models.CharField(max_length=64, primary_key=True)
    doc = models.BinaryField(
        help_text="The coach's choices (league.coaches.coach_doc), as zlib-compressed JSON: "
        "about 0.4 KB, where the JSON is about 4 KB."
    )
    solved_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Coach {self.key[:12]}"


class PairingOdds(models.Model):
    """The odds of one pairing of coach styles in six dice or grid court under a game's
    rule options, kept for every process (``league.other_odds``): six dice solves a pairing
    in up to a second, grid court simulates 1,000 games (10 s to a minute), and the cache
    alone lost them at every restart of its Redis (or of the process, with the embedded
    default's cache), the pages saying "being worked out" again. Keyed as in the cache (the
    game, its rules, both styles and the simulator's source fingerprint); derived data,
    worked out again when missing.
    """

    key = models.CharField(max_length=32, primary_key=True)
    game = models.CharField(max_length=20)
    odds = models.BinaryField(
        help_text="The pairing's MatchOdds (league.other_odds.odds_doc) as zlib-compressed JSON."
    )
    solved_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.game} odds {self.key[:12]}"


class PairOdds(models.Model):
    """One entry of a field's pairwise table: the exact odds of ``home`` v ``away``.

    Keyed by the rules (preset, rules version, coach policy), the court and each team's card version
    (a hash of its engine team document, ``league.odds.card_version``): editing a card
    changes its team's version, so only the pairs involving that team stop matching and
    are computed again. On a neutral court without the coach policy a pair is stored once,
    the lower team id as ``home``: the other order is its mirror image. ``laws`` holds the
    full score and margin laws once a preview has asked for them.
    """

    rules = models.CharField(max_length=10, choices=RulesPreset.choices)
    rules_version = models.PositiveSmallIntegerField()
    neutral = models.BooleanField()
    strategy = models.BooleanField(
        default=False, help_text="Solved with the coach policy on (vabg rules §10)."
    )
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    away = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    home_version = models.CharField(max_length=64)
    away_version = models.CharField(max_length=64)
    p_home_win = models.FloatField()
    p_overtime = models.FloatField()
    expected_overtimes = models.FloatField()
    expected_home_pts = models.FloatField()
    expected_away_pts = models.FloatField()
    margin = models.JSONField(help_text='The law of home minus away: {"m": p}.')
    laws = models.JSONField(
        null=True, blank=True, help_text="The whole game law (score laws too), once asked for."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=[
                    "rules",
                    "rules_version",
                    "neutral",
                    "strategy",
                    "home",
                    "away",
                    "home_version",
                    "away_version",
                ],
                name="league_pairodds_one_per_version_and_policy",
            ),
        ]
        indexes: ClassVar[list[Any]] = [
            models.Index(
                fields=["rules", "rules_version", "neutral", "strategy", "home", "away"],
                name="league_pair_lookup",
            ),
        ]

    def __str__(self) -> str:
        court = "neutral" if self.neutral else "home court"
        rules = f"{self.rules} v{self.rules_version}" + (", coach policy" if self.strategy else "")
        return f"{self.away_id} at {self.home_id} ({rules}, {court})"


class ResearchRun(models.Model):
    """Many games of chosen matchups, a season or a bracket, tallied, not stored one by one.

    ``plan`` fixes everything the run plays (``league.research.Plan``: the cards as they
    stood, the rules, the games, the repetitions, the first seed), so a run gives the same
    figures whoever plays its chunks. Each chunk of whole repetitions is stored once, as
    its tally (:class:`ResearchChunk`).
    """

    label = models.CharField(max_length=200, help_text="What the run plays, in words.")
    kind = models.CharField(max_length=10)
    plan = models.JSONField(editable=False)
    repetitions = models.PositiveIntegerField()
    total_games = models.PositiveBigIntegerField()
    chunks = models.JSONField(
        editable=False, help_text="The chunks as [first repetition, last + 1) ranges."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"research run #{self.pk}: {self.label}"


class ResearchChunk(models.Model):
    """One chunk of a research run, played: its tally (``league.research.Tally``)."""

    run = models.ForeignKey(ResearchRun, on_delete=models.CASCADE, related_name="played")
    index = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    tally = models.JSONField()
    played_by = models.CharField(max_length=200, blank=True)
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "index"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["run", "index"],
                name="league_research_chunk_once",
                violation_error_message="A research chunk is stored once.",
            ),
        ]

    def __str__(self) -> str:
        return f"research run #{self.run_id} chunk {self.index}"


def season_name_checked(name: str) -> None:
    """Refuse a season's or tournament's name with no letter or digit, as the name's error:
    its web address's slug is made from it (the model's own check spoke of ``slug``, a
    field no form or request has)."""
    if not slugify(name):
        raise ValidationError(
            {"name": [f"{name!r} has no letter or digit to make the web address from."]}
        )
