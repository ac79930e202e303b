"""A team's coach style in the board games: stored, or derived from the real season.

``Team.styles`` holds the styles a commissioner set (or a team file brought), by game:
``{"gridcourt": {...} | "rulings", "sixdice": {...} | "rulings"}``. A game the team has
no stored style for plays a style derived from the real team's season:

- its players' per-game lines in the shared data (``alltime96_player_seasons.csv``, the
  rows with attempts): the share of shots that were 3s, offensive rebounds, steals, and
  the pace (possessions estimated as FGA + 0.44 FTA + TOV - ORB), the sums scaled up
  from the listed players' minutes to the team's 200;
- else its VABG card: the share of the d20 column that is a 3-point shot (the card is
  made from the season's shooting), the steal ranges; the pace is unknown;
- a season before 1987 had no 3-point line, so its team never looks for the 3.

The mapping to each game's parameters is :func:`derive`; ``docs/cards.md`` states it.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError

from simulator.games import GAME_MODULES, InvalidTeamError, find_game
from simulator.jsonfile import shown

GAMES = tuple(name for name in GAME_MODULES if find_game(name).has_styles)
"""The games a team brings a coach's style into (grid court and six dice)."""
FIRST_THREE_POINT_SEASON = 1987
"""The NCAA's 3-point line came in for the 1986-87 season."""
PLAYER_SEASONS = "alltime96_player_seasons.csv"
TEAM_MINUTES = 200.0
"""Five players for 40 minutes: the listed players' figures are scaled up to this."""
RULINGS_STYLE = "rulings"
"""A game's style written as this plays the rulings' own policy (each game's ``RULINGS_NAME``)."""
CARD_TRAP = 9.0
"""A card's starters averaging this many steal numbers trap (the field's: 7.6-9.8, mean 8.0)."""


@dataclass(frozen=True)
class Season:
    """What a team's real season says about its style (``None``: not known)."""

    three_rate: float | None
    """3-point attempts as a share of all shots."""
    pace: float | None
    """Possessions a game (estimated from the players' lines)."""
    orb: float | None
    """Offensive rebounds a game."""
    steals: float | None
    """Steals a game (or, from the card, the starters' mean steal numbers of 36)."""
    source: str


@dataclass(frozen=True)
class TeamStyle:
    """A team's style in one game, and where it comes from."""

    game: str
    style: Any
    """The game's style object (grid court: ``None`` is the rulings' §4 policy)."""
    source: str

    def to_json(self) -> Any:
        return find_game(self.game).style_to_json(self.style)

    def describe(self) -> list[tuple[str, str]]:
        return find_game(self.game).describe_style(self.style)


def styles_problems(value: object) -> list[str]:
    """Return every problem of a ``styles`` object (a team file's key or the admin's field)."""
    if not isinstance(value, Mapping):
        return [f"styles: must be an object by game ({', '.join(GAMES)}), got {shown(value)}"]
    problems = [
        f"styles.{key}: not a game with styles (they are: {', '.join(GAMES)})"
        for key in value
        if key not in GAMES
    ]
    for game in GAMES:
        if value.get(game) is None:
            continue
        try:
            find_game(game).read_style(value[game])
        except InvalidTeamError as exc:
            problems.extend(exc.problems)
    return problems


def validate_styles(value: object) -> None:
    """Refuse a ``styles`` value a game cannot play, naming every parameter at fault."""
    problems = styles_problems(value)
    if problems:
        raise ValidationError([f"{p}." for p in problems], code="invalid_style")


@functools.cache
def _player_lines(path: Path) -> dict[tuple[str, int], list[dict[str, str]]]:
    out: dict[tuple[str, int], list[dict[str, str]]] = {}
    if not path.exists():
        return out
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row.get("fga") and row.get("stl"):
                out.setdefault((row["school"], int(row["season"])), []).append(row)
    return out


def _number(row: Mapping[str, str], key: str) -> float:
    text = row.get(key) or ""
    try:
        return float(text)
    except ValueError:
        return 0.0


def season_of(team: Any) -> Season:
    """Return what the real season (the shared data, else the card) says of a team."""
    path = Path(settings.SHARED_DIR) / "data" / PLAYER_SEASONS
    lines = _player_lines(path).get((team.school, team.season), [])
    no_line = team.season < FIRST_THREE_POINT_SEASON
    if len(lines) >= 5:
        keys = ("fga", "fg3a", "fta", "tov", "orb", "stl", "mp")
        total = {k: sum(_number(r, k) for r in lines) for k in keys}
        # The listed players play part of the team's 200 minutes: scale them up to a team.
        scale = TEAM_MINUTES / total["mp"] if total["mp"] > 0 else 1.0
        rate = 0.0 if no_line else (total["fg3a"] / total["fga"] if total["fga"] else None)
        pace = (total["fga"] + 0.44 * total["fta"] + total["tov"] - total["orb"]) * scale
        return Season(
            rate,
            pace,
            total["orb"] * scale,
            total["stl"] * scale,
            f"{len(lines)} players' lines of the season (shared data)",
        )
    starters = [c for c in team.cards.all() if c.role == "starter"]
    if not starters:
        return Season(0.0 if no_line else None, None, None, None, "no season data")
    shares = []
    for card in starters:
        covered = 0
        for prefix in ("made3", "miss3"):
            lo, hi = getattr(card, f"d20_{prefix}_lo"), getattr(card, f"d20_{prefix}_hi")
            if lo is not None and hi is not None:
                covered += hi - lo + 1
        shot = 0
        for prefix in ("made3", "miss3", "made2", "miss2"):
            lo, hi = getattr(card, f"d20_{prefix}_lo"), getattr(card, f"d20_{prefix}_hi")
            if lo is not None and hi is not None:
                shot += hi - lo + 1
        shares.append(covered / shot if shot else 0.0)
    rate = 0.0 if no_line else sum(shares) / len(shares)
    steals = sum(max(c.steal_top - 10, 0) for c in starters) / len(starters)
    return Season(rate, None, None, steals, "the team's VABG card (its shooting and steals)")


def _step(value: float, lo: int, hi: int, step: int) -> int:
    return int(min(max(round(value / step) * step, lo), hi))


def derive(season: Season) -> dict[str, Any]:
    """Return the styles a season maps to (``docs/cards.md``, "Coach styles"):

    - grid court: ``threes`` = 50 + 400 x the 3-point share (steps of 25, 50-200: a team
      with no 3s keeps to the 2s, a quarter of its shots from 3 is 150); ``patience`` from
      the pace (80 possessions a game or more: 20, 60 or fewer: 80, steps of 15; unknown:
      50); ``crashers`` 2 from 12 offensive rebounds a game, 0 under 8 (unknown: 2);
      ``trap`` from 9 steals a game (or a card's starters averaging 9 steal numbers);
    - six dice: ``threes`` never under a 10% share, top under 25%, outside from 25%;
      ``inside`` drive for a pace under 66, else shoot; ``chip`` always.
    """
    rate = season.three_rate
    grid: dict[str, Any] = {}
    dice: dict[str, Any] = {}
    if rate is not None:
        grid["threes"] = _step(50 + 400 * rate, 50, 200, 25)
        dice["threes"] = "never" if rate < 0.10 else "top" if rate < 0.25 else "outside"
    if season.pace is not None:
        grid["patience"] = _step(80 - (season.pace - 60) * 3, 20, 80, 15)
        dice["inside"] = "drive" if season.pace < 66 else "shoot"
    if season.orb is not None:
        grid["crashers"] = 2 if season.orb >= 12 else 0 if season.orb < 8 else 1
    if season.steals is not None:
        from_lines = season.pace is not None
        grid["trap"] = season.steals >= (9 if from_lines else CARD_TRAP)
    grid_court, six_dice = find_game("gridcourt"), find_game("sixdice")
    return {
        "gridcourt": grid_court.style_to_json(grid_court.read_style(grid)),
        "sixdice": six_dice.style_to_json(six_dice.read_style(dice)),
    }


def team_styles(team: Any) -> dict[str, TeamStyle]:
    """Return the style a team plays in each board game: stored, else derived."""
    stored = team.styles if isinstance(team.styles, Mapping) else {}
    derived: dict[str, Any] | None = None
    season: Season | None = None
    out = {}
    for game in GAMES:
        if game in stored:
            value = stored[game]
            source = "set for this team (the admin or its team file)"
        else:
            if derived is None:
                season = season_of(team)
                derived = derive(season)
            value = derived[game]
            assert season is not None
            source = f"derived from {season.source}"
        out[game] = TeamStyle(game, find_game(game).read_style(value), source)
    return out


def styles_document(team: Any) -> dict[str, Any]:
    """Return the ``styles`` object of the styles a team plays (as a stored result keeps)."""
    return {game: s.to_json() for game, s in team_styles(team).items()}


def played_team_file(game: str, document: Mapping[str, Any]) -> dict[str, Any]:
    """Return a stored result's team file as the game reads it again: a result stored
    before teams had styles was played with the rulings' own policy, and replays with it."""
    doc = dict(document)
    doc.setdefault("styles", {game: RULINGS_STYLE})
    return doc
