"""Dice sources shared by every game the simulator hosts.

A game never touches the module-level ``random``: it draws every roll through a
:class:`DiceSource`. Two sources exist. :class:`SeededDice` is reproducible from
an integer seed; :class:`ScriptedDice` replays rolls typed in from a table-top
game (the ``vabg-dice/1`` file of ``interchange.md``) and says which die it ran
out of.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Protocol

from simulator.jsonfile import format_problem, kind, shown

STREAMS: dict[str, int] = {"d8": 8, "d6": 6, "d20": 20}
DICE_FORMAT = "vabg-dice/1"


class DiceError(ValueError):
    """Raise for a dice script that cannot be used."""


class DiceFileError(DiceError):
    """Raise for a dice file that breaks the ``vabg-dice/1`` format; lists every problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("bad dice file: " + "; ".join(self.problems))


class DieRefused(DiceError):
    """Raise for a value a game's score sheet cannot take: not a face of the die the game
    asks for at that point. ``index`` is its place in the dice typed so far; ``need`` is
    what the game wanted there (each game's sheet ``Need``, with its ``die``, ``faces`` and
    ``step``)."""

    def __init__(self, index: int, value: object, need: Any) -> None:
        self.index = index
        self.value = value
        self.need = need
        super().__init__(
            f"{value!r} is not a face of a {need.die} (1-{need.faces}): "
            f"die {index + 1}, {need.step}"
        )


class GameOverError(DiceError):
    """Raise for dice typed into a score sheet after its game has ended."""

    def __init__(self, used: int, extra: int) -> None:
        self.used = used
        self.extra = extra
        super().__init__(
            f"the game is over after {used} dice; {extra} more "
            f"{'die was' if extra == 1 else 'dice were'} entered"
        )


class DiceScriptExhausted(DiceError):
    """Raise when a scripted game wants a roll the script does not have."""

    def __init__(self, stream: str, used: int) -> None:
        self.stream = stream
        self.used = used
        super().__init__(
            f"the dice script ran out: a {stream} was wanted after all {used} "
            f"{stream} rolls were used"
        )


class DiceSource(Protocol):
    """Give rolls of the three dice a game reads; an 11-66 read is two ``d6()`` calls."""

    def d8(self) -> int: ...

    def d6(self) -> int: ...

    def d20(self) -> int: ...

    def record(self) -> DiceRecord: ...


class DiceRecord:
    """Describe where a game's dice came from: a seed or a script, enough to replay it."""

    __slots__ = ("script", "seed")

    def __init__(
        self, *, seed: int | None = None, script: Mapping[str, Sequence[int]] | None = None
    ) -> None:
        self.seed = seed
        self.script = None if script is None else {k: tuple(v) for k, v in script.items()}

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict: ``{"seed": n}`` or the ``vabg-dice/1`` script."""
        if self.script is not None:
            return {"format": DICE_FORMAT, **{k: list(v) for k, v in self.script.items()}}
        return {"seed": self.seed}

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, DiceRecord)
            and self.seed == other.seed
            and self.script == other.script
        )

    def __hash__(self) -> int:
        return hash(self.seed)

    def __repr__(self) -> str:
        return f"DiceRecord(seed={self.seed!r}, script={'...' if self.script else None})"


def _face_table(faces: int) -> bytes:
    """Map a random byte to a face; bytes past the last whole multiple of ``faces`` map
    to 0 and are dropped, so every face stays exactly equally likely."""
    keep = 256 - 256 % faces
    return bytes(b % faces + 1 if b < keep else 0 for b in range(256))


_FACE_TABLES = {faces: _face_table(faces) for faces in STREAMS.values()}


class SeededDice:
    """Roll reproducibly from an integer seed with a private ``random.Random``.

    Each die draws its rolls in small blocks from the one generator, so a game
    is a pure function of its seed; the rolls are handed out through C-level
    iterators, which keeps a dice call as cheap as a list read.

    >>> a, b = SeededDice(7), SeededDice(7)
    >>> [a.d20() for _ in range(5)] == [b.d20() for _ in range(5)]
    True
    """

    __slots__ = ("d6", "d8", "d20", "seed")

    BLOCK: ClassVar[int] = 64

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise DiceError(f"a seed must be an integer, got {seed!r}")
        self.seed = seed
        rng = random.Random(seed)
        self.d8: Callable[[], int] = self._stream(rng, 8)
        self.d6: Callable[[], int] = self._stream(rng, 6)
        self.d20: Callable[[], int] = self._stream(rng, 20)

    @classmethod
    def _stream(cls, rng: random.Random, faces: int) -> Callable[[], int]:
        table = _FACE_TABLES[faces]

        def blocks() -> Iterator[bytes]:
            while True:
                yield rng.randbytes(cls.BLOCK).translate(table).replace(b"\0", b"")

        return itertools.chain.from_iterable(blocks()).__next__

    def record(self) -> DiceRecord:
        """Return the seed that replays this game."""
        return DiceRecord(seed=self.seed)


class ScriptedDice:
    """Replay given rolls, one list per die, each read in order.

    >>> dice = ScriptedDice(d8=[3], d6=[2, 5], d20=[14])
    >>> dice.d8(), 10 * dice.d6() + dice.d6(), dice.d20()
    (3, 25, 14)
    >>> dice.d8()  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    simulator.dice.DiceScriptExhausted: the dice script ran out: a d8 was wanted after ...
    """

    __slots__ = ("_d6", "_d8", "_d20", "_script")

    def __init__(
        self, *, d8: Iterable[int] = (), d6: Iterable[int] = (), d20: Iterable[int] = ()
    ) -> None:
        script = {"d8": tuple(d8), "d6": tuple(d6), "d20": tuple(d20)}
        problems = _check_faces(script)
        if problems:
            raise DiceFileError(problems)
        self._script = script
        self._d8 = iter(script["d8"])
        self._d6 = iter(script["d6"])
        self._d20 = iter(script["d20"])

    def d8(self) -> int:
        """Return the next scripted d8."""
        for roll in self._d8:
            return roll
        raise DiceScriptExhausted("d8", len(self._script["d8"]))

    def d6(self) -> int:
        """Return the next scripted d6."""
        for roll in self._d6:
            return roll
        raise DiceScriptExhausted("d6", len(self._script["d6"]))

    def d20(self) -> int:
        """Return the next scripted d20."""
        for roll in self._d20:
            return roll
        raise DiceScriptExhausted("d20", len(self._script["d20"]))

    def record(self) -> DiceRecord:
        """Return the whole script that replays this game."""
        return DiceRecord(script=self._script)

    @classmethod
    def from_json(cls, data: object) -> ScriptedDice:
        """Build a source from a parsed ``vabg-dice/1`` document, listing every problem."""
        if not isinstance(data, dict):
            raise DiceFileError(["a dice file must be a JSON object"])
        problems: list[str] = []
        if wrong := format_problem(data, DICE_FORMAT, "a dice file"):
            problems.append(wrong)
        streams: dict[str, list[int]] = {}
        for name in STREAMS:
            rolls = data.get(name, [])
            if not isinstance(rolls, list):
                problems.append(f"{name} must be a list of rolls, got {kind(rolls)}")
                continue
            streams[name] = rolls
        problems.extend(_check_faces(streams))
        if problems:
            raise DiceFileError(problems)
        return cls(d8=streams["d8"], d6=streams["d6"], d20=streams["d20"])


def _check_faces(streams: Mapping[str, Sequence[object]]) -> list[str]:
    problems = []
    for name, rolls in streams.items():
        faces = STREAMS[name]
        for i, roll in enumerate(rolls):
            if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= faces:
                problems.append(
                    f"{name}[{i}] (roll {i + 1}) = {shown(roll)} is not a face of a {name} "
                    f"(1-{faces})"
                )
    return problems


class OrderedDice:
    """Hand out rolls from one list in the order the game asks for them, whatever the die.

    At the table the dice are rolled and written down in the order the rules call for them
    (vabg-rulings.md §11), so one list of values says it all: the game decides which die
    each value is. :attr:`draws` keeps ``(die, value)`` for each roll handed out, and
    :meth:`record` splits them into the ``vabg-dice/1`` streams, which replay the same game
    through :class:`ScriptedDice`. A value that is not a face of the die asked for raises
    :class:`DiceError`; running out raises :class:`DiceScriptExhausted` naming the die.

    >>> dice = OrderedDice([3, 2, 5, 14])
    >>> dice.d8(), 10 * dice.d6() + dice.d6(), dice.d20()
    (3, 25, 14)
    >>> dice.record().to_json()
    {'format': 'vabg-dice/1', 'd8': [3], 'd6': [2, 5], 'd20': [14]}
    >>> dice.d6()  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    simulator.dice.DiceScriptExhausted: the dice script ran out: a d6 was wanted after ...
    """

    __slots__ = ("_values", "draws")

    def __init__(self, values: Iterable[int]) -> None:
        self._values = tuple(values)
        self.draws: list[tuple[str, int]] = []

    def _next(self, die: str) -> int:
        index = len(self.draws)
        if index >= len(self._values):
            used = sum(1 for name, _ in self.draws if name == die)
            raise DiceScriptExhausted(die, used)
        value = self._values[index]
        faces = STREAMS[die]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
            raise DiceError(
                f"roll {index + 1} = {shown(value)} is not a face of a {die} (1-{faces}), "
                f"which the game asks for there"
            )
        self.draws.append((die, value))
        return value

    def d8(self) -> int:
        """Return the next value as a d8."""
        return self._next("d8")

    def d6(self) -> int:
        """Return the next value as a d6."""
        return self._next("d6")

    def d20(self) -> int:
        """Return the next value as a d20."""
        return self._next("d20")

    @property
    def unused(self) -> int:
        """Return how many values were never asked for."""
        return len(self._values) - len(self.draws)

    def record(self) -> DiceRecord:
        """Return the rolls handed out, split into the ``vabg-dice/1`` streams."""
        script: dict[str, list[int]] = {name: [] for name in STREAMS}
        for die, value in self.draws:
            script[die].append(value)
        return DiceRecord(script=script)
