"""A VABG game in plain words: the play-by-play a fan reads, the runs, a short game story.

Pure: everything here is built from the engine's events (``simulator.vabg.events``) and the
figures handed in; nothing is invented. A line says who did what ("Davis dunks over
Robinson", his defender in the same slot; "Lamb blocks Case's shot"; "Chalmers fouls Lamb;
Lamb makes 2 of 2 free throws") with the running score after it; the dice that decided it
stay beside it in the table player's notation (``render.describe``) for whoever plays at the
table; given the game's dice in the order they were rolled (:class:`Die`, from
``simulator.vabg.dicelog``), every die stays beside the play it made, labelled as the table
labels it ("free throw 2 14" on the foul's line, "rebound d20 7" on the rebound's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from simulator.vabg.events import (
    Block,
    Call,
    Enter,
    Event,
    Foul,
    FreeThrow,
    Opening,
    PeriodEnd,
    Rebound,
    Shot,
    Steal,
    Trip,
    Turnover,
)
from simulator.vabg.render import describe

HOME, AWAY = "home", "away"


@dataclass(frozen=True)
class Die:
    """One die of a game as the table labels it, and the play it belongs to.

    ``step`` is the table's label ("d8", "d6 tens", "free throw 2", "rebound d6",
    "putback d20", "fast break d20", "shot-clock re-roll d8"), ``die`` the die ("d20"),
    ``event`` the index of the first event emitted after it was rolled: the event it made.
    """

    step: str
    value: int
    event: int
    die: str = ""

    @property
    def text(self) -> str:
        return f"{self.step} {self.value}"


@dataclass(frozen=True)
class Line:
    """One play in words, with the score after it.

    ``kind`` is ``"score"`` (points went up), ``"miss"``, ``"turnover"``, ``"rebound"``,
    ``"foul"`` (no point from it), ``"call"``, ``"sub"`` or ``"period"``. ``dice`` is the
    table notation of the trips that led to the play ("" when none); ``rolls`` every die
    rolled for it, in order, when the game's dice were given. ``lead_change`` is true when
    this play put the other team in front; ``tied`` when it tied the game.
    """

    period: int
    number: int | None
    side: str
    text: str
    home: int
    away: int
    points: int
    kind: str
    dice: str = ""
    lead_change: bool = False
    tied: bool = False
    rolls: tuple[Die, ...] = ()

    @property
    def when(self) -> str:
        name = period_name(self.period)
        return name if self.number is None else f"{name} {self.number}"

    @property
    def score(self) -> str:
        """The running score, away first as the box score reads: ``"22-24"``."""
        return f"{self.away}-{self.home}"


@dataclass(frozen=True)
class Run:
    """Points scored by one side while the other scored none."""

    side: str
    points: int
    start: Line  # the run's first scoring play
    end: Line  # its last
    before: tuple[int, int]  # (home, away) before the run

    @property
    def after(self) -> tuple[int, int]:
        return (self.end.home, self.end.away)


def period_name(period: int) -> str:
    """``"Reg"``, ``"OT"``, ``"2OT"``, ... as the box score and the final ("Final (2OT)")
    name periods."""
    return "Reg" if period == 0 else ("OT" if period == 1 else f"{period}OT")


def _span(start: Line, end: Line) -> str:
    """Where a run went, as a fan reads it: "possessions 30 to 26 of regulation" (the
    numbers count down, 44 to 1), or across periods "regulation's 3 to overtime's 8"."""

    def part(line: Line) -> str:
        if line.period == 0:
            return "regulation"
        return "overtime" if line.period == 1 else f"overtime {line.period}"

    if start.number is None or end.number is None:
        return f"{start.when} to {end.when}"
    if start.period == end.period:
        return f"possessions {start.number} to {end.number} of {part(start)}"
    return f"{part(start)}'s possession {start.number} to {part(end)}'s {end.number}"


def short_names(events: Iterable[Event]) -> dict[str, str]:
    """Return each player's name as a play-by-play says it: the surname, unless shared."""
    names: set[str] = set()
    for e in events:
        if isinstance(e, (Opening, Enter, Shot, FreeThrow, Rebound, Steal, Block)):
            names.add(e.player)
        elif isinstance(e, Foul):
            names.update((e.player, e.fouled))
        elif isinstance(e, (Trip, Turnover)) and e.player:
            names.add(e.player)
    surnames: dict[str, list[str]] = {}
    for name in names:
        surnames.setdefault(_surname(name), []).append(name)
    short = {}
    for surname, full in surnames.items():
        for name in full:
            short[name] = surname if len(full) == 1 else name
    return short


_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


def _surname(name: str) -> str:
    """ "Anthony Davis" -> "Davis", "Gary Trent Jr." -> "Trent Jr."; a name whose last word
    is not a word (a number, a slot "(to complete)") stays whole."""
    words = name.split()
    if len(words) < 2 or not any(c.isalpha() for c in words[-1]) or "(" in name:
        return name
    if words[-1].lower() in _SUFFIXES and len(words) > 2:
        return " ".join(words[-2:])
    return words[-1]


def _shot_text(shot: Shot, who: str, blocker: str | None) -> str:
    three = shot.value == 3
    if blocker is not None or shot.how == "blocked":
        return f"{blocker} blocks {who}'s shot" if blocker else f"{who}'s shot is blocked"
    how = shot.how
    if how == "dunk":
        text = f"{who} dunks" if shot.made else f"{who} misses a dunk"
    elif how == "putback":
        if three:
            return (
                f"{who} hits a second-chance three"
                if shot.made
                else f"{who} misses a second-chance three"
            )
        text = f"{who} puts it back in" if shot.made else f"{who} misses the putback"
    elif how == "fast break":
        text = f"{who} scores on the fast break" if shot.made else f"{who} misses on the break"
    elif how.startswith("jumper") or how == "3 on a dunk roll":
        if three:
            text = f"{who} hits a three" if shot.made else f"{who} misses a three"
        else:
            text = f"{who} hits a jumper" if shot.made else f"{who} misses a jumper"
        if how == "jumper (try for 3)":
            text += " (trying for three)"
        return text
    else:
        made = "makes" if shot.made else "misses"
        return f"{who} {made} a {shot.value}-pointer ({how})"
    if three and how != "3 on a dunk roll":
        text += " for three"
    return text


def _turnover_text(turnover: Turnover, who: str | None, stealer: str | None, team: str) -> str:
    if turnover.player is None:
        return f"{team}: shot-clock violation"
    if stealer is not None:
        return f"{stealer} steals the ball from {who}"
    if turnover.cause == "no call":
        return f"{who} loses the ball (no call on the road)"
    return f"{who} turns it over"


MISSED_CALL = "no call on the road"
"""The call a home court's missed call is recorded as (:class:`~simulator.vabg.events.Call`)."""

_CALLS = {
    "extra possession": "{team} take an extra possession",
    "intentional foul": "{team} foul on purpose to stop the clock",
    "no call on the road": "No call for {team} on the road",
}


def plain_lines(
    events: Sequence[Event], labels: dict[str, str], dice: Sequence[Die] = ()
) -> list[Line]:
    """Return a game's play-by-play in plain words, one line per play, the score after each.

    ``labels`` names the teams: ``{"home": "Kentucky 2012", "away": "Kansas 2008"}``. The
    score starts from the 20-20 opening (each side's ``Opening`` points). Free throws join
    the foul that gave them ("Chalmers fouls Lamb on the shot; Lamb makes 1 of 2").

    ``dice`` (the game's every die, in the order rolled: ``dicelog.game_dice``) puts each
    die on the line of the play it made (``Line.rolls``): a trip's four dice (and its
    shot-clock re-roll's) on the trip's first play, the free throws' d20s on the foul's
    line, a rebound's d20 and d6 on the rebound's, a putback's or a fast break's d20 on its
    shot; every die is on exactly one line.
    """
    names = short_names(events)
    score = {HOME: 0, AWAY: 0}
    for e in events:
        if isinstance(e, Opening):
            score[e.team] += e.pts
    state = {"leader": _leader(score)}  # the last side in front ("" before anyone was)
    lines: list[Line] = []
    trips: list[str] = []
    rolled: dict[int, list[Die]] = {}
    for die in dice:
        rolled.setdefault(min(die.event, len(events)), []).append(die)
    rolls: list[Die] = []  # the dice rolled since the last line, not yet on one
    blocker: str | None = None
    stealer: tuple[str, bool] | None = None
    fast_break = False
    foul: dict[str, int] | None = None  # the foul free throws join: its line, made, tried
    # Who plays each slot now (the Enter events): a made dunk is made over the carrier's
    # defender, the opponent in the same slot (vabg-rulings.md §4).
    floor: dict[str, dict[int, str]] = {HOME: {}, AWAY: {}}

    def scored(side: str, points: int) -> tuple[bool, bool]:
        """Add points; return (the lead changed hands, the game is tied)."""
        score[side] += points
        now = _leader(score)
        change = now != "" and state["leader"] not in ("", now)
        if now:
            state["leader"] = now
        return change, now == ""

    def add(e: Event, side: str, text: str, kind: str, points: int = 0) -> None:
        nonlocal trips, rolls
        change, tied = scored(side, points) if points else (False, False)
        lines.append(
            Line(
                period=getattr(e, "period", 0),
                number=getattr(e, "number", None),
                side=side,
                text=text,
                home=score[HOME],
                away=score[AWAY],
                points=points,
                kind="score" if points else kind,
                dice="; ".join(trips),
                lead_change=change,
                tied=tied,
                rolls=tuple(rolls),
            )
        )
        trips, rolls = [], []

    for index, e in enumerate(events):
        rolls.extend(rolled.get(index, ()))
        if isinstance(e, Trip):
            trips.append(describe(e, labels) or "")
            continue
        if isinstance(e, FreeThrow):
            who = names.get(e.player, e.player)
            if foul is not None and lines[foul["line"]].side == e.team:
                foul["tried"] += 1
                foul["made"] += int(e.made)
                line = lines[foul["line"]]
                change, tied = scored(e.team, 1) if e.made else (False, line.tied)
                head = line.text.partition("; ")[0]
                noun = "free throw" if foul["tried"] == 1 else "free throws"
                lines[foul["line"]] = replace(
                    line,
                    text=f"{head}; {who} makes {foul['made']} of {foul['tried']} {noun}",
                    home=score[HOME],
                    away=score[AWAY],
                    points=line.points + int(e.made),
                    kind="score" if line.points + int(e.made) else "foul",
                    lead_change=line.lead_change or change,
                    tied=tied,
                    rolls=line.rolls + tuple(rolls),
                )
                rolls = []
                continue
            made = "makes" if e.made else "misses"
            add(e, e.team, f"{who} {made} a free throw", "miss", int(e.made))
            continue
        foul = None
        if isinstance(e, Block):
            blocker = names.get(e.player, e.player)
        elif isinstance(e, Steal):
            stealer = (names.get(e.player, e.player), e.fast_break)
        elif isinstance(e, Shot):
            who = names.get(e.player, e.player)
            text = _shot_text(e, who, blocker)
            if e.how == "dunk" and e.made and blocker is None:
                defender = _slot_defender(floor, e.team, e.player)
                if defender is not None:
                    text += f" over {names.get(defender, defender)}"
            if fast_break and e.how == "fast break":
                text = text.replace(" on the fast break", " on the break after the steal")
            blocker, fast_break = None, False
            add(e, e.team, text, "miss", e.value if e.made else 0)
        elif isinstance(e, Turnover):
            loser = names.get(e.player, e.player) if e.player else None
            steal = stealer[0] if stealer else None
            text = _turnover_text(e, loser, steal, labels.get(e.team, e.team))
            fast_break = bool(stealer and stealer[1])
            if fast_break:
                text += ", and they run"
            stealer = None
            # A stolen ball is the stealing side's play.
            side = (AWAY if e.team == HOME else HOME) if steal else e.team
            add(e, side, text, "turnover")
        elif isinstance(e, Rebound):
            who = names.get(e.player, e.player)
            text = f"{who} {'offensive' if e.offensive else 'defensive'} rebound"
            add(e, e.team, text, "rebound")
        elif isinstance(e, Foul):
            who, fouled = names.get(e.player, e.player), names.get(e.fouled, e.fouled)
            how = {
                "and-one": "on the make: and one",
                "intentional": "on purpose",
                "one-and-one": "(one and one)",
            }.get(e.kind, "on the shot")
            add(e, AWAY if e.team == HOME else HOME, f"{who} fouls {fouled} {how}", "foul")
            foul = {"line": len(lines) - 1, "made": 0, "tried": 0}
        elif isinstance(e, Call):
            # A missed call is the home court's (the event's team): it goes against the
            # visitor, whom the words name.
            side = (AWAY if e.team == HOME else HOME) if e.call == MISSED_CALL else e.team
            text = _CALLS.get(e.call, "{team}: " + e.call).format(team=labels.get(side, side))
            add(e, side, text, "call")
        elif isinstance(e, Enter):
            floor.setdefault(e.team, {})[e.slot] = e.player
            who = names.get(e.player, e.player)
            team = labels.get(e.team, e.team)
            last = lines[-1] if lines else None
            starting = not any(x.kind != "sub" for x in lines)
            if (
                last is not None
                and last.kind == "sub"
                and last.side == e.team
                and (last.period, last.number) == (e.period, e.number)
            ):
                # Players entering together read as one line.
                players = [*last.text.split(": ", 1)[1].split(", "), who]
                head = last.text.split(": ", 1)[0]
                lines[-1] = replace(last, text=f"{head}: {', '.join(players)}")
            else:
                head = f"{team} start" if starting else f"In for {team}"
                add(e, e.team, f"{head}: {who}", "sub")
        elif isinstance(e, PeriodEnd):
            name = {0: "regulation", 1: "overtime"}.get(e.period, f"overtime {e.period}")
            away, home = labels.get(AWAY, AWAY), labels.get(HOME, HOME)
            add(e, "", f"End of {name}: {away} {e.away}, {home} {e.home}", "period")
    rolls.extend(rolled.get(len(events), ()))
    if rolls and lines:  # dice rolled after the last event (none in a finished game)
        lines[-1] = replace(lines[-1], rolls=lines[-1].rolls + tuple(rolls))
    return lines


def _slot_defender(floor: dict[str, dict[int, str]], team: str, player: str) -> str | None:
    """Return the player in the other team's slot matching ``player``'s, if both are known."""
    slot = next((k for k, v in floor.get(team, {}).items() if v == player), None)
    other = AWAY if team == HOME else HOME
    return None if slot is None else floor.get(other, {}).get(slot)


def _leader(score: dict[str, int]) -> str:
    if score[HOME] == score[AWAY]:
        return ""
    return HOME if score[HOME] > score[AWAY] else AWAY


def scoring_lines(lines: Iterable[Line]) -> list[Line]:
    return [line for line in lines if line.points]


def runs(lines: Sequence[Line]) -> list[Run]:
    """Return every unanswered run (a side's points while the other scored none), in order."""
    found: list[Run] = []
    current: list[Line] = []
    before = (0, 0)
    for line in scoring_lines(lines):
        if current and current[0].side != line.side:
            found.append(_run(current, before))
            last = current[-1]
            before = (last.home, last.away)
            current = []
        if not current and not found and before == (0, 0):
            before = (line.home - (line.points if line.side == HOME else 0),
                      line.away - (line.points if line.side == AWAY else 0))  # fmt: skip
        current.append(line)
    if current:
        found.append(_run(current, before))
    return found


def _run(lines: list[Line], before: tuple[int, int]) -> Run:
    return Run(lines[0].side, sum(x.points for x in lines), lines[0], lines[-1], before)


def decisive_run(lines: Sequence[Line], winner: str) -> Run | None:
    """The game's largest unanswered run; on a tie, the winner's, then the latest."""
    found = runs(lines)
    if not found:
        return None
    return max(
        enumerate(found), key=lambda pair: (pair[1].points, pair[1].side == winner, pair[0])
    )[1]


def lead_changes(lines: Iterable[Line]) -> int:
    return sum(1 for line in lines if line.lead_change)


# -- the game story ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Star:
    """A player's line the story may quote: who, for which side, points and rebounds."""

    side: str
    name: str
    pts: int
    reb: int
    fgm: int = 0
    fga: int = 0


@dataclass(frozen=True)
class Facts:
    """What a game story is built from: the final, the box score's lines, seeds, the plays."""

    labels: dict[str, str]  # side -> team name
    home: int
    away: int
    overtimes: int
    stars: Sequence[Star]
    lines: Sequence[Line] = ()
    seeds: dict[str, int] = field(default_factory=dict)  # side -> seed, in a tournament
    round_name: str = ""


def winner_side(facts: Facts) -> str:
    return HOME if facts.home > facts.away else AWAY


UPSET_SEED_GAP = 2
"""An upset, as sports sites count them: the winner was seeded at least this many lines
below the loser (No. 10 over No. 8 is one; No. 9 over No. 8, or No. 17 over No. 16, a
coin flip of neighbours, is not)."""


def seed_gap(facts: Facts) -> int:
    """Return how many seed lines the winner stood below the loser (negative: above; 0
    when either is unseeded)."""
    win = winner_side(facts)
    lose = AWAY if win == HOME else HOME
    if win not in facts.seeds or lose not in facts.seeds:
        return 0
    return facts.seeds[win] - facts.seeds[lose]


def is_upset(facts: Facts) -> bool:
    """Say whether the winner was seeded :data:`UPSET_SEED_GAP` lines or more below the loser."""
    return seed_gap(facts) >= UPSET_SEED_GAP


def _team(facts: Facts, side: str) -> str:
    seed = facts.seeds.get(side)
    return f"No. {seed} {facts.labels[side]}" if seed is not None else facts.labels[side]


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def headline(facts: Facts) -> str:
    """One sentence: who beat whom, the final, overtime, the upset."""
    win = winner_side(facts)
    lose = AWAY if win == HOME else HOME
    high, low = max(facts.home, facts.away), min(facts.home, facts.away)
    verb = "upset" if is_upset(facts) else "beat"
    text = f"{_team(facts, win)} {verb} {_team(facts, lose)} {high}-{low}"
    if facts.overtimes:
        text += " in overtime" if facts.overtimes == 1 else f" in {facts.overtimes} overtimes"
    if facts.round_name:
        text += f" ({facts.round_name})"
    return text + "."


def story(facts: Facts, *, short: bool = False) -> list[str]:
    """Return a short game story, sentence by sentence, from the facts alone.

    Who won and by how much, overtime, an upset by seed, the top scorer of each side and the
    top rebounder, the decisive run and the lead changes. ``short`` keeps the first two
    sentences (for a list of games).
    """
    win = winner_side(facts)
    lose = AWAY if win == HOME else HOME
    margin = abs(facts.home - facts.away)
    sentences = [headline(facts)]
    if facts.overtimes:
        regulation = next((x for x in facts.lines if x.kind == "period" and x.period == 0), None)
        if regulation is not None:
            sentences.append(
                f"It was {regulation.away}-{regulation.home} at the end of regulation; "
                f"{facts.labels[win]} won by {_points(margin)}."
            )
    if is_upset(facts):
        gap = facts.seeds[win] - facts.seeds[lose]
        sentences.append(
            f"The No. {facts.seeds[win]} seed knocked out the No. {facts.seeds[lose]}, "
            f"{gap} seed line{'s' if gap != 1 else ''} apart."
        )
    best = {side: _top(facts.stars, side, "pts") for side in (win, lose)}
    star = best[win]
    if star is not None:
        shooting = f" on {star.fgm}-of-{star.fga} shooting" if star.fga else ""
        sentences.append(
            f"{star.name} led {facts.labels[win]} with {_points(star.pts)}{shooting}"
            + (f" and {star.reb} rebounds." if star.reb >= 5 else ".")
        )
    if short:
        return sentences[:2] if not facts.overtimes and not is_upset(facts) else sentences[:3]
    other = best[lose]
    if other is not None:
        sentences.append(f"{other.name} had {_points(other.pts)} for {facts.labels[lose]}.")
    boards = max(facts.stars, key=lambda s: (s.reb, s.pts), default=None)
    if boards is not None and boards.reb >= 8 and boards not in best.values():
        sentences.append(f"{boards.name} pulled down {boards.reb} rebounds.")
    elif boards is not None and boards.reb >= 8 and boards in best.values():
        pass  # already quoted with his rebounds, or the story would repeat him
    run = decisive_run(facts.lines, win)
    if run is not None and run.points >= 6:
        (h0, a0), (h1, a1) = run.before, run.after
        if run.side == HOME:  # the running side's score first
            a0, h0, a1, h1 = h0, a0, h1, a1
        sentences.append(
            f"The biggest run was {facts.labels[run.side]}'s {run.points}-0, "
            f"from {a0}-{h0} to {a1}-{h1} ({_span(run.start, run.end)})."
        )
    changes = lead_changes(facts.lines)
    if facts.lines:
        if changes == 0:
            ahead = facts.labels[win]
            sentences.append(f"The lead never changed hands once {ahead} went in front.")
        elif changes >= 3:
            sentences.append(f"The lead changed hands {changes} times.")
    return sentences


def _top(stars: Sequence[Star], side: str, key: str) -> Star | None:
    mine = [s for s in stars if s.side == side]
    if not mine:
        return None
    return max(mine, key=lambda s: (getattr(s, key), s.reb, -len(s.name)))
