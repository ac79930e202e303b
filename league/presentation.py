"""How a stored game reads: the one box score the admin, the fans' pages and the API show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F

from cards.models import Team
from league.models import BoxLine, Game
from simulator.games import DEFAULT_GAME
from simulator.results import LINE_FIELDS
from simulator.vabg.events import event_from_json
from simulator.vabg.render import describe
from simulator.vabg.words import period_name


@dataclass
class Side:
    """One team's half of a box score: its lines (a dict per player) and its totals."""

    key: str  # "home" or "away"
    team: Team
    where: str  # "home", "away", or "" on a neutral court
    score: int
    periods: list[int]
    team_turnovers: int
    possessions: int
    lines: list[dict[str, Any]] = field(default_factory=list)
    game: str = DEFAULT_GAME
    """Which game was played: only VABG counts team turnovers and possessions."""

    @property
    def label(self) -> str:
        return str(self.team)

    @property
    def line_totals(self) -> dict[str, int] | None:
        """The totals of the player lines; ``None`` for a side without any (a grid-court or
        six-dice game, whose own box score is the result's ``box``; a score typed in)."""
        return self.totals if self.lines else None

    @property
    def counted_team_turnovers(self) -> int | None:
        return self.team_turnovers if self.game == DEFAULT_GAME else None

    @property
    def counted_possessions(self) -> int | None:
        return self.possessions if self.game == DEFAULT_GAME else None

    @property
    def totals(self) -> dict[str, int]:
        sums = {name: sum(line[name] for line in self.lines) for name in (*LINE_FIELDS, "start")}
        sums["to"] += self.team_turnovers
        return sums

    @property
    def starters(self) -> list[dict[str, Any]]:
        """The lines of the five who started (all of them when the roles are not known)."""
        return [line for line in self.lines if line.get("starter", True)]

    @property
    def bench(self) -> list[dict[str, Any]]:
        return [line for line in self.lines if not line.get("starter", True)]

    @property
    def groups(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The starters, then the bench, as a box score lists them."""
        return [("Starters", self.starters), ("Bench", self.bench)]

    @property
    def won(self) -> bool:
        return self.score > self.opponent_score

    opponent_score: int = 0


@dataclass
class BoxScore:
    game: Game
    sides: list[Side]
    period_labels: list[str]
    rules: str
    neutral: bool
    dice: str


def opening_points(line: Any) -> int:
    """Return the points a line was credited before the tip: every roster player starts with
    2 (4 on a short roster) and the team with 20 (vabg-rulings.md §1, §13), so a line's
    points are these plus 2 a field goal, 1 more a three and 1 a free throw."""

    def read(key: str) -> int:
        return int(line[key] if isinstance(line, dict) else getattr(line, key))

    return read("pts") - 2 * read("fgm") - read("tpm") - read("ftm")


def box_score(game: Game, *, player_url: Any = None, starters: bool = False) -> BoxScore | None:
    """Return the box score of a final game (away first, as box scores read), else ``None``.

    Players are named as they are named now (a rename in the admin reaches every stored
    game); a line whose player was removed keeps the name played. With ``starters`` each
    line says whether he started, from the team file the game was played with.
    """
    result = getattr(game, "result", None)
    if result is None:
        return None
    lines = list(
        BoxLine.objects.filter(result=result).select_related("player").order_by("side", "order")
    )
    started = _starters(result) if starters else {}
    sides = []
    for key, team, score, periods, tov, poss in (
        ("away", game.away, result.away_score, result.away_periods,
         result.away_team_turnovers, result.away_possessions),
        ("home", game.home, result.home_score, result.home_periods,
         result.home_team_turnovers, result.home_possessions),
    ):  # fmt: skip
        where = "" if game.neutral else key
        side = Side(key, team, where, score, list(periods), tov, poss, game=game.game)
        for line in lines:
            if line.side == key:
                row: dict[str, Any] = {name: getattr(line, name) for name in LINE_FIELDS}
                row["start"] = opening_points(line)
                row["name"] = line.player.name if line.player is not None else line.name
                row["played_as"] = line.name
                if started:
                    row["starter"] = line.name in started[key]
                row["player"] = line.player_id
                row["order"] = line.order
                row["url"] = player_url(line) if player_url and line.player_id else ""
                side.lines.append(row)
        sides.append(side)
    sides[0].opponent_score, sides[1].opponent_score = sides[1].score, sides[0].score
    labels = [period_name(n) for n in range(result.overtimes + 1)]
    dice_text = dice_words(game, result.dice)
    return BoxScore(game, sides, labels, game.get_rules_display(), game.neutral, dice_text)


def dice_words(game: Any, dice: dict[str, Any]) -> str:
    """Say where a stored game's dice came from ("dice seed 12", "real dice, rolled at the
    table" or "dice from a file"), as its box score ends."""
    if dice.get("seed") is not None:
        return f"dice seed {dice['seed']}"
    return "real dice, rolled at the table" if game.kind == "real_dice" else "dice from a file"


def _starters(result: Any) -> dict[str, set[str]]:
    """Return who started for each side: the players the team file the game was played with
    names starters (``role``). Not who was on the floor first: under both rotations of the
    rulings (§2) a slot's reserve plays the opening numbers 44-38, so the opening lineup is
    mostly the bench."""
    out: dict[str, set[str]] = {}
    for side in ("home", "away"):
        team_file = result.team_file(side)
        out[side] = {p["name"] for p in team_file.get("players", ()) if p.get("role") == "starter"}
    return out


def current_names(result: Any) -> dict[str, str]:
    """Return the stored names of a game's players that were renamed since, to their new ones."""
    renamed = BoxLine.objects.filter(result=result, player__isnull=False).exclude(
        player__name=F("name")
    )
    return dict(renamed.values_list("name", "player__name"))


def renamed_events(events: list[dict[str, Any]], names: dict[str, str]) -> list[dict[str, Any]]:
    """Return a game's stored events with its renamed players under their new names."""
    if not names:
        return events
    return [
        {k: names.get(v, v) if isinstance(v, str) and k not in ("type", "team") else v
         for k, v in event.items()}
        for event in events
    ]  # fmt: skip


@dataclass(frozen=True)
class Play:
    when: str
    team: str
    text: str
    kind: str


def play_by_play(game: Game) -> list[Play]:
    """Return a stored game's play-by-play as fans read it, numbered as on the score sheet."""
    result = getattr(game, "result", None)
    if result is None:
        return []
    labels = {"home": str(game.home), "away": str(game.away)}
    plays = []
    for data in renamed_events(result.events, current_names(result)):
        event = event_from_json(data)
        text = describe(event, labels)
        if text is None:
            continue
        period = data.get("period", 0)
        name = period_name(period)
        number = data.get("number")
        when = f"{name} {number}" if number is not None else name
        plays.append(Play(when, labels.get(data.get("team", ""), ""), text, data["type"]))
    return plays
