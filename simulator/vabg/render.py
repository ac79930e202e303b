"""Render a VABG result as text: box score and play-by-play."""

from __future__ import annotations

from simulator.results import GameResult, PlayerLine, TeamBox
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

_HEADER = f"{'':24} {'PTS':>3} {'FG':>5} {'3P':>5} {'FT':>5} {'OR':>3} {'DR':>3} {'REB':>3} " + (
    f"{'STL':>3} {'BLK':>3} {'TO':>3} {'PF':>3} {'POS':>3}"
)


def _row(line: PlayerLine) -> str:
    return (
        f"{line.name[:24]:24} {line.pts:>3} {line.fgm:>2}-{line.fga:<2} "
        f"{line.tpm:>2}-{line.tpa:<2} {line.ftm:>2}-{line.fta:<2} "
        f"{line.oreb:>3} {line.dreb:>3} {line.reb:>3} {line.stl:>3} {line.blk:>3} "
        f"{line.to:>3} {line.pf:>3} {line.poss:>3}"
    )


def _period_names(overtimes: int) -> list[str]:
    return ["Reg", *[("OT" if i == 1 else f"{i}OT") for i in range(1, overtimes + 1)]]


def render_box_score(result: GameResult) -> str:
    """Return a readable box score: the final by period, then both teams' lines."""
    names = _period_names(result.overtimes)
    width = max(len(result.away.label), len(result.home.label))
    out = [
        f"{result.away.label} {result.away.score}, {result.home.label} {result.home.score}"
        + (f" ({names[-1]})" if result.overtimes else "")
        + (" at a neutral site" if result.neutral else f" at {result.home.school}"),
        "",
        f"{'':{width}} " + " ".join(f"{n:>4}" for n in names) + "    T",
    ]
    for team in (result.away, result.home):
        cells = " ".join(f"{p:>4}" for p in team.periods)
        out.append(f"{team.label:{width}} {cells} {team.score:>4}")
    for team in (result.away, result.home):
        out += ["", _team_block(team)]
    out += ["", f"Rules: {result.rules.name}. Dice: {_dice_text(result)}."]
    return "\n".join(out)


def _team_block(team: TeamBox) -> str:
    lines = [team.label, _HEADER, *(_row(p) for p in team.players), _row(team.totals)]
    if team.team_turnovers:
        lines.append(f"Team turnovers (shot clock): {team.team_turnovers}")
    return "\n".join(lines)


def _dice_text(result: GameResult) -> str:
    if result.dice.seed is not None:
        return f"seed {result.dice.seed}"
    script = result.dice.script or {}
    return "script (" + ", ".join(f"{len(v)} {k}" for k, v in script.items()) + ")"


def describe(event: Event, labels: dict[str, str]) -> str | None:
    """Return one play-by-play line for an event, or ``None`` for bookkeeping events."""
    if isinstance(event, Shot):
        made = "makes" if event.made else "misses"
        return f"{event.player} {made} a {event.value}-pointer ({event.how})"
    if isinstance(event, FreeThrow):
        return f"{event.player} {'makes' if event.made else 'misses'} a free throw"
    if isinstance(event, Rebound):
        side = "offensive" if event.offensive else "defensive"
        return f"{event.player} {side} rebound"
    if isinstance(event, Steal):
        return f"{event.player} steal" + (", fast break" if event.fast_break else "")
    if isinstance(event, Block):
        return f"{event.player} blocks the shot"
    if isinstance(event, Turnover):
        who = event.player or labels[event.team]
        # The 11-66 roll's own turnover range needs no cause beside the word.
        return f"{who} turnover" + ("" if event.cause == "turnover" else f" ({event.cause})")
    if isinstance(event, Foul):
        if event.kind == "one-and-one":  # a first free throw, a second only if it is made
            bonus = "one-and-one: a second FT if the first is made"
            return f"{event.player} fouls {event.fouled} ({bonus})"
        return f"{event.player} fouls {event.fouled} ({event.kind}, {event.shots} FT)"
    if isinstance(event, Call):
        if event.call == "no call on the road":  # the home court's call, against the visitor
            return f"no call for {labels['away' if event.team == 'home' else 'home']} on the road"
        return f"{labels[event.team]}: {event.call}"
    if isinstance(event, Enter):
        return f"{event.player} enters for {labels[event.team]} (slot {event.slot})"
    if isinstance(event, Trip):
        who = event.player or "nobody (shot clock)"
        extra = f", {event.kind}" if event.kind else ""
        return (
            f"{labels[event.team]} ball: d8 {event.d8} -> {who}; "
            f"11-66 {event.roll}; d20 {event.d20}{extra}"
        )
    if isinstance(event, PeriodEnd):
        return f"End of period: {labels['home']} {event.home}, {labels['away']} {event.away}"
    return None


def render_play_by_play(result: GameResult) -> str:
    """Return the play-by-play, one line per event, numbered as on the score sheet; a
    scoring play ends with the running score, visitors first as the box score reads."""
    labels = {"home": result.home.label, "away": result.away.label}
    names = _period_names(result.overtimes)
    score = {"home": 0, "away": 0}
    out = []
    for event in result.events:
        scored = 0
        if isinstance(event, Opening):
            scored = event.pts  # the 20-20 start's credits (§1): on no line of their own
        elif isinstance(event, Shot) and event.made:
            scored = event.value
        elif isinstance(event, FreeThrow) and event.made:
            scored = 1
        if scored:
            score[event.team] += scored
        text = describe(event, labels)
        if text is None:
            continue
        if scored:
            text += f"  ({score['away']}-{score['home']})"
        period = getattr(event, "period", 0)
        number = getattr(event, "number", None)
        where = f"{names[period]} {number:>2}" if number is not None else names[period]
        out.append(f"{where:>8}  {text}")
    return "\n".join(out)
