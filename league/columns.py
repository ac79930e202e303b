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

COUNT, MADE_ATTEMPTED, DECIMAL = "count", "made-attempted", "decimal"

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

    def cell(self, row: Any) -> Any:
        """Return what the cell shows for a row: a dict or an object such as a ``BoxLine``."""
        value = _read(row, self.key)
        if self.kind == MADE_ATTEMPTED:
            return f"{value}-{_read(row, ATTEMPTS[self.key])}"
        if self.kind == DECIMAL:
            return floatformat(value, self.digits)
        return value

    @property
    def keys(self) -> tuple[str, ...]:
        """Return the row keys the column reads."""
        return (self.key, ATTEMPTS[self.key]) if self.kind == MADE_ATTEMPTED else (self.key,)


def _read(row: Any, key: str) -> Any:
    return row[key] if isinstance(row, Mapping) else getattr(row, key)


def total(key: str, label: str | None = None) -> Column:
    """Return the column of a stat's count, or of its made-attempted pair for a made count."""
    return Column(label or LABELS[key], key, MADE_ATTEMPTED if key in ATTEMPTS else COUNT)


def per_game(key: str, label: str) -> Column:
    """Return the column of a stat's per-game average (``<key>_pg``), one decimal."""
    return Column(label, f"{key}_pg", DECIMAL, 1)


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
    return tuple(
        Column(
            BOX_SCORE_LABELS[key],
            key,
            MADE_ATTEMPTED if key in ATTEMPTS else COUNT,
            css="pts" if key == "pts" else "",
        )
        for key in LINE_FIELDS
        if key not in attempts
    )


BOX_SCORE = _box_score()
"""A game's lines and totals: every field of the engine's line, in its order."""
PLAYER_SEASON = (
    total("g"),
    total("pts"),
    per_game("pts", "PPG"),
    total("fgm"),
    Column("FG%", "fg_pct", DECIMAL, 3),
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
    total("fgm"),
    total("tpm"),
    total("ftm"),
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
