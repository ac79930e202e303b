"""Play games whose first trips use given rolls; the rest of the game rolls on from a seed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from simulator import GameResult, SeededDice
from simulator.dice import DiceRecord
from simulator.vabg import ADVANCED, GameRules, Plan, TeamCard, play_game
from simulator.vabg.events import (
    Block,
    Enter,
    Foul,
    FreeThrow,
    Opening,
    PeriodEnd,
    Rebound,
    Shot,
    Steal,
    Tipoff,
    Trip,
    Turnover,
)


class ThenSeeded:
    """Give the scripted rolls of each die first, then seeded ones, so any game can finish."""

    def __init__(
        self, d8: Iterable[int] = (), d6: Iterable[int] = (), d20: Iterable[int] = (), seed: int = 0
    ) -> None:
        self._d8, self._d6, self._d20 = list(d8), list(d6), list(d20)
        self._rest = SeededDice(seed)

    def d8(self) -> int:
        return self._d8.pop(0) if self._d8 else self._rest.d8()

    def d6(self) -> int:
        return self._d6.pop(0) if self._d6 else self._rest.d6()

    def d20(self) -> int:
        return self._d20.pop(0) if self._d20 else self._rest.d20()

    def record(self) -> DiceRecord:
        return DiceRecord(seed=None)

    def unused(self) -> tuple[int, int, int]:
        return len(self._d8), len(self._d6), len(self._d20)


def starters_all_game(team: TeamCard) -> Plan:
    """Return a plan that keeps the five starters on the floor for all 44 possessions."""
    return {slot: [(team.starter(slot).name, 44, 1)] for slot in range(1, 6)}


def trips(
    *rolls: tuple[int, int, int] | tuple[int, int, int, Sequence[int], Sequence[int]],
) -> dict[str, list[int]]:
    """Turn trips ``(d8, roll 11-66, d20[, more d20s, more d6s])`` into the three streams."""
    d8: list[int] = []
    d6: list[int] = []
    d20: list[int] = []
    for trip in rolls:
        d8.append(trip[0])
        d6 += [trip[1] // 10, trip[1] % 10]
        d20.append(trip[2])
        if len(trip) > 3:
            d20 += list(trip[3])  # type: ignore[misc]
            d6 += list(trip[4])  # type: ignore[misc]
    return {"d8": d8, "d6": d6, "d20": d20}


def play(
    home: TeamCard,
    away: TeamCard,
    streams: dict[str, list[int]],
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = True,
    plans: bool = True,
    **kwargs: Any,
) -> GameResult:
    """Play a game whose first rolls are ``streams``; starters play all game unless told."""
    dice = ThenSeeded(**streams)
    result = play_game(
        home,
        away,
        dice,
        rules=rules,
        neutral=neutral,
        home_plan=starters_all_game(home) if plans else None,
        away_plan=starters_all_game(away) if plans else None,
        **kwargs,
    )
    assert dice.unused() == (0, 0, 0), f"scripted rolls left unused: {dice.unused()}"
    return result


def brief(event: object) -> str | None:
    """Return a short text for a play event (bookkeeping events give ``None``)."""
    if isinstance(event, Trip):
        return f"trip {event.player} {event.kind}".rstrip()
    if isinstance(event, Shot):
        return f"{'make' if event.made else 'miss'} {event.value} {event.player} ({event.how})"
    if isinstance(event, FreeThrow):
        return f"ft {'make' if event.made else 'miss'} {event.player}"
    if isinstance(event, Rebound):
        return f"{'oreb' if event.offensive else 'dreb'} {event.player}"
    if isinstance(event, Steal):
        return f"steal {event.player}" + (" fast break" if event.fast_break else "")
    if isinstance(event, Block):
        return f"block {event.player}"
    if isinstance(event, Turnover):
        return f"turnover {event.player} ({event.cause})"
    if isinstance(event, Foul):
        return f"foul {event.player} on {event.fouled} {event.shots} ({event.kind})"
    if isinstance(event, Tipoff | Opening | Enter | PeriodEnd):
        return None
    return f"{type(event).__name__.lower()} {getattr(event, 'call', '')}".strip()


def trip_story(result: GameResult, trip: int = 0) -> list[str]:
    """Return the brief texts of one trip (0 = the game's first), fast breaks included."""
    stories: list[list[str]] = []
    for event in result.events:
        text = brief(event)
        if text is None:
            continue
        if isinstance(event, Trip) and event.kind != "reroll":
            stories.append([])
        if stories:
            stories[-1].append(text)
    return stories[trip]
