"""Print a six-dice game as text: the team box score and a play-by-play."""

from __future__ import annotations

from simulator.sixdice.engine import SixDiceResult
from simulator.sixdice.events import (
    Advance,
    ChipReroll,
    Dunk,
    FreeThrow,
    InboundRound,
    JumpBall,
    MainRoll,
    Pass,
    Push,
    Score,
    Shot,
    Steal,
)

_NAMES = {"away": "Orange", "home": "White"}
_OTHER = {"away": "home", "home": "away"}


def render_box_score(result: SixDiceResult) -> str:
    """Return the final score and every box-score column, one line per column."""
    away, home = result.away, result.home
    lines = [
        f"{away.label} (Orange) {away.score}, {home.label} (White) {home.score}",
        f"six dice to 21, {result.rules.name} rules, {result.main_rolls} main rolls",
        "",
    ]
    width = max(len(away.label), len(home.label), 12)
    rows = [
        ("points: dunk", "dunk"), ("points: slam", "slam"), ("points: 2", "two"),
        ("points: 3", "three"), ("points: FT", "ft"),
    ]  # fmt: skip
    lines.append(f"{'':18}{away.label:>{width}}  {home.label:>{width}}")
    for label, key in rows:
        lines.append(f"{label:18}{away.points[key]:>{width}}  {home.points[key]:>{width}}")
    for field, heading in _ROWS:
        a, h = getattr(away, field), getattr(home, field)
        lines.append(f"{heading:18}{a:>{width}}  {h:>{width}}")
    return "\n".join(lines)


_ROWS = (
    ("score", "PTS"), ("dunks", "dunks"), ("slams", "slam dunks"),
    ("fg2m", "2PM"), ("fg2a", "2PA"), ("fg3m", "3PM"), ("fg3a", "3PA"),
    ("ftm", "FTM"), ("fta", "FTA"), ("stl", "steals"), ("stl_s", "  S steals"),
    ("stl_push", "  push-back"), ("stl_inbound", "  inbound"), ("to", "turnovers"),
    ("rolls_won", "rolls won"), ("rolls_lost", "rolls lost"), ("rolls_won_chip", "  by the chip"),
    ("chip_plays", "chip plays"), ("chip_rerolls", "chip rerolls"), ("no_look", "no-look passes"),
    ("deflected", "deflected passes"), ("advanced", "sections advanced"),
    ("pushed", "sections pushed"), ("inbounds", "inbounds"), ("inbound_rounds", "inbound rounds"),
    ("penalties", "penalties"), ("poss", "possessions"),
)  # fmt: skip


def render_play_by_play(result: SixDiceResult) -> str:
    """Return one line per event worth telling, in order."""
    faces = result.rules.faces
    out: list[str] = []

    def show(dice: tuple[int, ...]) -> str:
        return "".join(faces[v - 1] for v in dice)

    rerolled = False  # the contest under way had a chip reroll: a tie then goes by rule

    def tie_words(played: bool, tie: bool) -> str:
        if played:
            return ", chip played"
        if tie and rerolled:  # §2.11: "you lose the tie", "your opponent keeps the chip"
            return ", a tie after the reroll: the chip's new holder wins it and keeps the chip"
        return ", chip kept" if tie else ""

    for e in result.events:
        if isinstance(e, JumpBall):
            who = "tied, again" if e.winner is None else f"{_NAMES[e.winner]} on offense"
            out.append(f"jump ball: O {show(e.away)} | W {show(e.home)}: {who}")
        elif isinstance(e, MainRoll):
            # a tie goes to the chip holder's choice (§2.2): played, or kept (the other wins)
            chip = tie_words(e.chip, e.away_n == e.home_n)
            rerolled = False
            out.append(
                f"roll {e.number} ({_NAMES[e.offense]} at d {e.depth}): "
                f"O {show(e.away)} {e.away_play}x{e.away_n} | "
                f"W {show(e.home)} {e.home_play}x{e.home_n}: {_NAMES[e.winner]} wins{chip}"
            )
        elif isinstance(e, ChipReroll):
            rerolled = True
            out.append(f"  {_NAMES[e.team]} hands over the chip and rerolls dice {e.dice}")
        elif isinstance(e, Advance | Push):
            verb = "advances" if isinstance(e, Advance) else "pushes back"
            # The section counts from Orange's basket; the prompts' d is the attack's own.
            attack = e.team if isinstance(e, Advance) else _OTHER[e.team]
            depth = e.section - 7 if attack == "away" else 8 - e.section
            where = f"d {depth}" if isinstance(e, Advance) else f"{_NAMES[attack]}'s d {depth}"
            where = f" ({where})" if 1 <= depth <= 7 else ""  # past the half line: a steal
            out.append(f"  {_NAMES[e.team]} {verb} {e.sections} to section {e.section}{where}")
        elif isinstance(e, Pass):
            after = "" if e.penalized is None else f": {_NAMES[e.penalized]} rolls five dice next"
            out.append(f"  {e.kind} pass{after}")
        elif isinstance(e, Steal):
            how = {"s": "on an S", "push": "pushing past half court", "inbound": "in the inbound"}
            out.append(
                f"  steal by {_NAMES[e.team]} {how.get(e.kind, e.kind)}, section {e.section}"
            )
        elif isinstance(e, Shot):
            result_word = "made" if e.made else "missed"
            tie = e.total == e.defense_total  # the chip holder's choice (§2.6, G16)
            chip = tie_words(e.chip, tie)
            rerolled = False
            out.append(
                f"  {_NAMES[e.team]} shoots a {e.points}: O {show(e.away)} | W {show(e.home)}: "
                f"{e.total} v {e.defense_total}, {result_word}{chip}"
            )
        elif isinstance(e, FreeThrow):
            out.append(
                f"  free throw {e.number} ({_NAMES[e.team]}): {show(e.dice)}, "
                f"{'made' if e.made else 'missed'}"
            )
        elif isinstance(e, Dunk):
            out.append(f"  {_NAMES[e.team]}: {'slam dunk' if e.kind == 'slam' else 'dunk'}")
        elif isinstance(e, InboundRound):
            out.append(
                f"  inbound round {e.round} ({_NAMES[e.team]}): O {show(e.away)} | "
                f"W {show(e.home)}: moved {e.moved}, {e.set_aside} S set aside"
                + (f", {e.result}" if e.result else "")
            )
        elif isinstance(e, Score):
            out.append(f"  score: Orange {e.away}, White {e.home}")
    return "\n".join(out)
