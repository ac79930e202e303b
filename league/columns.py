"""The stat columns of the fans' pages, defined once and derived from the engine's line.

The box score shows every field of ``simulator.results.LINE_FIELDS``, in its order, a made
count and its attempts as one column (``FG`` reads ``fgm-fga``); a field added to the line
without a label here stops the import. The season pages pick from the same labels. The
templates loop over these lists (``{% stat_columns "box_score" as columns %}`` and
``{{ row|cell:column }}``, ``league/templatetags/league_stats.py``), so a header and its
cells cannot go out of step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.template.defaultfilters import floatformat

from simulator.results import LINE_FIELDS

COUNT, MADE_ATTEMPTED, DECIMAL, PERCENT = "count", "made-attempted", "decimal", "percent"

ATTEMPTS = {"fgm": "fga", "tpm": "tpa", "ftm": "fta"}
"""Each made count and the attempts shown with it."""
LABELS = {
    "g": "G",
    "pts": "PTS",
    "fgm": "FG",
    "tpm": "3P",
    "ftm": "FT",
    "oreb": "ORB",
    "dreb": "DRB",
    "reb": "REB",
    "stl": "STL",
    "blk": "BLK",
    "to": "TOV",
    "pf": "PF",
    "poss": "POSS",
}
"""The header of each stat shown alone (made counts: of the made-attempted pair)."""
BOX_SCORE_LABELS = {**LABELS, "reb": "TRB"}
"""The box score says TRB, beside ORB and DRB."""
TITLES = {
    "G": "games played",
    "PTS": "points",
    "START": "opening points: every roster player starts the game with 2 (the rulebook, §1)",
    "FG": "field goals made-attempted",
    "3P": "3-pointers made-attempted",
    "FT": "free throws made-attempted",
    "ORB": "offensive rebounds",
    "DRB": "defensive rebounds",
    "TRB": "total rebounds (1 or 2 opening rebounds included)",
    "REB": "rebounds",
    "STL": "steals",
    "BLK": "blocks",
    "TOV": "turnovers",
    "PF": "personal fouls",
    "POSS": "possessions on the floor",
    "Poss": "possessions",
    "PPG": "points per game",
    "RPG": "rebounds per game",
    "SPG": "steals per game",
    "BPG": "blocks per game",
    "FG%": "field-goal percentage",
    "OPP": "opponents' points per game",
    "Pts/poss": "points per possession",
    "W": "wins",
    "L": "losses",
    "Pct": "winning percentage",
    "GB": "games behind the leader",
    "Conf": "conference record",
    "PA": "points against",
    "Diff": "point differential",
    "Strk": "current streak",
    "MPG": "minutes per game",
    "APG": "assists per game",
    "3P%": "3-point percentage",
    "FT%": "free-throw percentage",
    "SRS": "simple rating system: points better than an average team, schedule included",
    "SOS": "strength of schedule",
}
"""What each header abbreviates: the ``<abbr title>`` of every stat header."""


@dataclass(frozen=True)
class Column:
    """One stat column: its header, the row key it reads and how the cell is written."""

    label: str
    key: str
    kind: str = COUNT
    digits: int = 0
    """Decimal places of a ``DECIMAL`` column (as ``floatformat``; none shows blank)."""
    css: str = ""
    """The class of a player's cell in the box score (``pts``, which tests read)."""
    title: str = ""
    """What the header abbreviates (``TITLES`` by label when empty)."""

    def cell(self, row: Any) -> Any:
        """Return what the cell shows for a row: a dict or an object such as a ``BoxLine``."""
        value = _read(row, self.key)
        if self.kind == MADE_ATTEMPTED:
            attempts = _read(row, _attempts(self.key))
            if self.digits:  # per game: "9.5-20.1"
                return f"{floatformat(value, self.digits)}-{floatformat(attempts, self.digits)}"
            return f"{value}-{attempts}"
        if self.kind == DECIMAL:
            return floatformat(value, self.digits)
        if self.kind == PERCENT:
            return "" if value is None else f"{floatformat(100 * value, self.digits)}%"
        return value

    @property
    def abbr(self) -> str:
        """Return what the header stands for, or "" when it is a word already."""
        return self.title or TITLES.get(self.label, "")

    @property
    def keys(self) -> tuple[str, ...]:
        """Return the row keys the column reads."""
        return (self.key, _attempts(self.key)) if self.kind == MADE_ATTEMPTED else (self.key,)


def _attempts(key: str) -> str:
    """Return the attempts key of a made key: ``fga`` of ``fgm``, ``fga_pg`` of ``fgm_pg``."""
    made, _, suffix = key.partition("_")
    return ATTEMPTS[made] + (f"_{suffix}" if suffix else "")


def _read(row: Any, key: str) -> Any:
    return row[key] if isinstance(row, Mapping) else getattr(row, key)


def total(key: str, label: str | None = None) -> Column:
    """Return the column of a stat's count, or of its made-attempted pair for a made count."""
    return Column(label or LABELS[key], key, MADE_ATTEMPTED if key in ATTEMPTS else COUNT)


def per_game(key: str, label: str) -> Column:
    """Return the column of a stat's per-game average (``<key>_pg``), one decimal."""
    return Column(label, f"{key}_pg", DECIMAL, 1)


def per_game_pair(key: str) -> Column:
    """Return the column of a made-attempted pair per game ("9.5-20.1"), one decimal."""
    return Column(
        LABELS[key], f"{key}_pg", MADE_ATTEMPTED, 1, title=f"{TITLES[LABELS[key]]} per game"
    )


def leader_column(category: str, label: str, *, per_game_values: bool) -> Column:
    """Return the value column of a leader board (``selectors.LEADER_CATEGORIES``).

    A board ranks by one count, made 3s or free throws included, never a pair.
    """
    return per_game(category, label) if per_game_values else Column(label, category)


def _box_score() -> tuple[Column, ...]:
    attempts = set(ATTEMPTS.values())
    unlabelled = [k for k in LINE_FIELDS if k not in BOX_SCORE_LABELS and k not in attempts]
    if unlabelled:
        raise ImproperlyConfigured(f"give the box-score column of {unlabelled} a label here")
    columns = []
    for key in LINE_FIELDS:
        if key in attempts:
            continue
        if key == "pts":  # the opening points first, so that PTS = START + the shots
            columns.append(Column("START", "start", css="start"))
        kind = MADE_ATTEMPTED if key in ATTEMPTS else COUNT
        columns.append(Column(BOX_SCORE_LABELS[key], key, kind, css="pts" if key == "pts" else ""))
    return tuple(columns)


BOX_SCORE = _box_score()
"""A game's lines and totals: every field of the engine's line, in its order, and the
opening points (``presentation.opening_points``) before the points."""
PLAYER_SEASON = (
    total("g"),
    total("pts"),
    per_game("pts", "PPG"),
    total("fgm"),
    Column("FG%", "fg_pct", PERCENT, 1),
    total("tpm"),
    total("ftm"),
    total("reb"),
    per_game("reb", "RPG"),
    total("stl"),
    total("blk"),
    total("to"),
    total("pf"),
)
"""A player's season line (``selectors.player_season_stats``)."""
GAME_LOG = tuple(
    total(key) for key in ("pts", "fgm", "tpm", "ftm", "reb", "stl", "blk", "to", "pf")
)
"""A player's game-by-game lines (``BoxLine`` rows), after the game."""
TEAM_PLAYERS = (
    total("g"),
    total("pts"),
    per_game("pts", "PPG"),
    total("fgm"),
    total("tpm"),
    total("ftm"),
    per_game("reb", "RPG"),
    per_game("stl", "SPG"),
    per_game("blk", "BPG"),
)
"""A team's players over a season (``selectors.player_season_stats``), after the name."""
TEAM_SEASON = (
    total("g"),
    per_game("pts", "PTS"),
    per_game("opp_pts", "OPP"),
    per_game("possessions", "Poss"),
    Column("Pts/poss", "pts_per_poss", DECIMAL, 2),
    per_game_pair("fgm"),
    per_game_pair("tpm"),
    per_game_pair("ftm"),
    per_game("reb", "REB"),
    per_game("stl", "STL"),
    per_game("blk", "BLK"),
    per_game("to", "TOV"),
)
"""The season's team stats, per game (``selectors.team_season_stats``), after the team."""

TABLES = {
    "box_score": BOX_SCORE,
    "player_season": PLAYER_SEASON,
    "game_log": GAME_LOG,
    "team_players": TEAM_PLAYERS,
    "team_season": TEAM_SEASON,
}
"""Every column list by the name a template asks for."""
