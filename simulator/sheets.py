"""A game at the table, as the table reads it: one small protocol every game's sheet keeps.

``Game.sheet(home, away, dice, rules=..., neutral=...)`` replays the dice typed so far
with the game's own engine and returns a :class:`Sheet`. The table (``table/``) reads only
this protocol: it never names a game, imports a game's modules or asks which game's
sheet it holds. Each game implements it in its own package (``simulator/vabg/sheet.py``,
``simulator/gridcourt/sheet.py``, ``simulator/sixdice/sheet.py``), where what its page
shows per game (a score sheet, pieces on a court, dice faces, live odds) is built too.

The helpers below are shared by the board games' sheets (grid court, six dice): the
rules of a stored rules version and the page state of a game without players.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from simulator.games import Game, Result


class Need(Protocol):
    """The die a game wants next: which die (``die``, 1-``faces``), whose roll and why."""

    @property
    def die(self) -> str: ...

    @property
    def faces(self) -> int: ...

    @property
    def team(self) -> str:
        """``"home"`` or ``"away"``: whose roll it is."""
        ...

    @property
    def step(self) -> str:
        """What the die is for, in words (``"d8 for ..."``, ``"Kansas 2008: offensive roll"``)."""
        ...

    @property
    def why(self) -> str: ...

    def to_json(self) -> dict[str, Any]:
        """Return the need as the page and the API show it (``die``, ``faces``, ``step``...)."""
        ...


class Question(Protocol):
    """A choice the rules leave to a side played by hand (``Game.has_hands``): whose
    (``side``), what kind, the question in words, the rule that gives it, the tokens it
    takes (``to_json()["options"]``)."""

    @property
    def side(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def prompt(self) -> str: ...

    @property
    def rule(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class ChoiceRefused(ValueError):
    """Raise for a typed choice the rules forbid; the message names the rule.

    ``index`` is its place among the game's choices, ``question`` what was asked there.
    """

    def __init__(self, index: int, token: object, question: Question, why: str) -> None:
        self.index = index
        self.token = token
        self.question = question
        super().__init__(why)


class ChoiceFirst(ValueError):
    """Raise for dice typed while the game waits for a side's choice: ``used`` dice were
    read before the question."""

    def __init__(self, used: int, question: Question) -> None:
        self.used = used
        self.question = question
        super().__init__(f"the game waits for a choice after {used} dice: {question.prompt}")


class NoChoiceWanted(ValueError):
    """Raise for a choice typed where the game asks none (it waits for a die, or is over):
    ``index`` is its place among the choices."""

    def __init__(self, index: int, why: str) -> None:
        self.index = index
        super().__init__(why)


class Sheet(Protocol):
    """A game at the table after the dice typed so far."""

    @property
    def rules(self) -> Any:
        """The game's rules object the dice are played under."""
        ...

    @property
    def values(self) -> tuple[int, ...]:
        """The dice typed so far, in the order rolled."""
        ...

    @property
    def need(self) -> Need | None:
        """The die needed next; ``None`` once the game is over."""
        ...

    @property
    def question(self) -> Question | None:
        """The choice a side played by hand must make next; ``None`` when the game waits
        for a die, is over, or has no side played by hand."""
        ...

    @property
    def undo_trip_to(self) -> int:
        """How many dice "undo the trip" (or roll) keeps: the current trip's first die, or
        on a trip's first die the trip before's."""
        ...

    @property
    def score(self) -> dict[str, int]:
        """The score so far: ``{"home": points, "away": points}``."""
        ...

    @property
    def waiting_for(self) -> str:
        """What the game waits for, in a sentence's words (``"the d8 for ..."``); empty
        once over."""
        ...

    def result(self) -> Result | None:
        """Return the finished game's result (exactly what ``Game.play`` gives for these
        dice); ``None`` while it is not over."""
        ...

    def dice_file(self) -> dict[str, Any]:
        """Return the ``vabg-dice/1`` file of the dice so far (the league stores it)."""
        ...

    def state(self) -> dict[str, Any]:
        """Return what the score sheet page and the API show of the game, JSON-ready:
        ``labels``, ``strategy``, ``neutral``, ``count``, ``dice``, ``need``, ``over``,
        ``score``, ``period``, ``overtimes``, ``undo_trip_to``, ``plays``, ``sheet``, ``box``,
        ``odds`` and the game's own keys (a board game's ``pieces``, ``faces``,
        ``policy_note``)."""
        ...


class PositionSheet:
    """What every game's sheet reads straight from its replayed position: the rules, the
    dice typed, the die needed next and the dice file (a game's sheet class, a dataclass
    with a ``position`` field, adds its undo point, result and page state)."""

    __slots__ = ()
    position: Any

    @property
    def rules(self) -> Any:
        return self.position.rules

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(self.position.values)

    @property
    def need(self) -> Any:
        return self.position.need

    @property
    def question(self) -> Question | None:
        return None

    @property
    def waiting_for(self) -> str:
        question = self.question
        if question is not None:
            return question.prompt
        need = self.position.need
        return "" if need is None else need.step

    @property
    def entry(self) -> Entry:
        return VABG_ENTRY

    def dice_file(self) -> dict[str, Any]:
        return dict(self.position.dice_file())


class BoardSheet(PositionSheet):
    """The sheet of a board game (grid court, six dice): its position keeps the rolls (undo
    goes back to the first die of the roll under way, or the roll before) and the choice a
    side played by hand makes next."""

    __slots__ = ()

    @property
    def score(self) -> dict[str, int]:
        return dict(self.position.score)

    @property
    def question(self) -> Question | None:
        question: Question | None = self.position.question
        return question

    @property
    def undo_trip_to(self) -> int:
        start: int = self.position.last_roll_start()
        return start

    @property
    def entry(self) -> Entry:
        return d6_entry(str(getattr(self.position.rules, "faces", "") or ""))


def rules_by_version(game: Game, options: Mapping[str, Any], rules_version: int | None) -> Any:
    """Return a board game's rules of its ``options`` as ``rules_version`` had them (six
    dice before the G10 note: a Deflected Pass costs the offense a die)."""
    known = {o.name for o in game.options}
    options = {k: v for k, v in options.items() if k in known}
    rules = game.make_rules(**options)
    if rules_version is None or rules_version == game.rules_version:
        return rules
    return game.rules_from_json({**options, "version": rules_version})


def roll_dice(values: Sequence[int], faces: str) -> list[dict[str, Any]]:
    """Return one roll's dice as the page lists them (each die's face when it has one)."""
    return [
        {"die": "d6", "value": v, "step": "", "face": faces[v - 1] if faces else ""} for v in values
    ]


def board_state(
    game: Game,
    *,
    labels: Mapping[str, str],
    values: Sequence[int],
    need: Need | None,
    over: bool,
    score: Mapping[str, int],
    undo_trip_to: int,
    plays: list[dict[str, Any]],
    boxes: tuple[Any, Any],
    pieces: dict[str, Any] | None,
    faces: str,
    policy_note: str,
    question: Question | None = None,
    hands: Collection[str] = (),
    odds: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Return the page's state of a game without players (grid court, six dice): a game
    played by hand also names the sides that choose (``hands``) and the choice it waits
    for (``question``); ``odds`` are its live odds, when it has exact ones (six dice)."""
    if over:
        period = "Final"
    elif question is not None:
        # The prompt itself is the entry panel's, under the board: said once on a phone.
        period = f"Next: {labels.get(question.side, question.side)} chooses"
    else:
        period = "Final" if need is None else f"Next: {need.step}"
    return {
        "labels": dict(labels),
        "strategy": False,
        "neutral": False,
        "count": len(values),
        "dice": list(values),
        "need": None if need is None else need.to_json(),
        "over": over,
        "score": dict(score),
        "period": period,
        "question": None if question is None else question.to_json(),
        "hands": sorted(hands),
        "overtimes": 0,
        "undo_trip_to": undo_trip_to,
        "plays": plays,
        "sheet": None,
        "pieces": pieces,
        "faces": faces,
        "policy_note": policy_note,
        "box": {
            "columns": [{"key": c.key, "label": c.label, "title": c.title} for c in game.columns],
            "team_columns": [
                {"key": c.key, "label": c.label, "title": c.title} for c in game.team_columns
            ],
            "lines_key": game.lines_key,
            "name_key": game.name_key,
            "home": boxes[0].to_json(),
            "away": boxes[1].to_json(),
        },
        "odds": dict(odds)
        if odds is not None
        else {
            "available": False,
            "note": f"No live win probability in {game.title.lower()}: its odds are "
            "simulated, not solved exactly (docs/odds.md).",
        },
    }


# -- typing the dice: how a game's dice may be written (the page and the API read them alike) --

SEPARATORS = " \t\r\n,;.-"
"""What may stand between dice typed in one entry: spaces, commas, semicolons, full stops
(a phone's decimal keypad has a "." or a "," and no space) and dashes (``5-3-4-17``)."""


class EntryRefused(ValueError):
    """Raise for typed dice that cannot be read as dice of the game: ``index`` is the die's
    place among the dice read before it, ``token`` what was typed."""

    def __init__(self, index: int, token: str, why: str) -> None:
        self.index = index
        self.token = token
        super().__init__(why)


@dataclass(frozen=True, slots=True)
class Entry:
    """How a game's dice may be typed: as numbers always; as the letters of its faces
    (``letters``: six dice's B/P/S/F, read as the first value showing that face, 1/4/5/6);
    and, where every die is read from one character (``runs``: a game of d6 only), a run
    of them for a roll (``112245``, ``BBPPSF``). ``example`` is an entry of the game's own
    dice, for the messages."""

    example: str
    runs: bool = False
    letters: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "example": self.example,
            "runs": self.runs,
            "letters": dict(self.letters),
            "separators": SEPARATORS,
        }

    def words(self) -> str:
        """Say how dice are typed in this game, for a message."""
        how = "type the numbers rolled"
        if self.letters:
            how += " or the faces (" + "/".join(self.letters) + ")"
        return f"{how}, e.g. {self.example}"

    def read(self, typed: Sequence[object]) -> list[int]:
        """Return the dice of an entry: each item a number, or a text of one or more dice
        (numbers or, in a game with faces, letters, apart by :data:`SEPARATORS`; a run of
        characters one die each where the game allows it).

        Raise :class:`EntryRefused` for what cannot be read as dice of this game (a value
        outside a die's faces is the sheet's to refuse, naming the die wanted there).
        """
        out: list[int] = []
        for item in typed:
            if isinstance(item, bool):
                raise EntryRefused(len(out), str(item), f"{item} is not a die: {self.words()}.")
            if isinstance(item, int):
                out.append(item)
                continue
            text = str(item)
            negative = _NEGATIVE.search(text)
            if negative:
                shown, before = negative.group(1), text[: negative.start(1)]
                at = len(out) + (len(self.read([before])) if before.strip() else 0)
                raise EntryRefused(
                    at, shown, f"{shown} is not a die: no die shows a negative number."
                )
            tokens = [t for t in _split(text) if t]
            if not tokens:
                raise EntryRefused(len(out), text, f"{text!r} is not a die: {self.words()}.")
            for token in tokens:
                out.extend(self._token(token, len(out)))
        return out

    def _token(self, token: str, at: int) -> list[int]:
        upper = token.upper()
        if token.isdigit() and ((len(token) <= 2 and not self.runs) or len(token) == 1):
            return [int(token)]
        if self.runs and all(c.isdigit() or c in self.letters for c in upper):
            return [int(c) if c.isdigit() else self.letters[c] for c in upper]
        if upper in self.letters:
            return [self.letters[upper]]
        raise EntryRefused(at, token, f"{token} is not a die: {self.words()}.")


_NEGATIVE = re.compile(r"(?:^|\s)(-\d+)")
"""A dash before a number at the start of a word: a negative number, never a separator
(``5-3`` is two dice, ``-3`` and ``5 -3`` hold a -3)."""


def _split(text: str) -> list[str]:
    token, out = "", []
    for c in text:
        if c in SEPARATORS:
            out.append(token)
            token = ""
        else:
            token += c
    out.append(token)
    return out


VABG_ENTRY = Entry("5 3 4 17")
"""VABG: numbers only (a d20 has two digits, so a run could not be read)."""

NUMBERS = Entry("3 5 1")
"""A game whose sheet does not say how its dice are typed: numbers only."""


def entry_of(sheet: object) -> Entry:
    """Return how a sheet's dice are typed: its ``entry``, or numbers only for a sheet
    without one (a game's sheet need not have it)."""
    entry = getattr(sheet, "entry", None)
    return entry if isinstance(entry, Entry) else NUMBERS


def d6_entry(faces: str = "") -> Entry:
    """Return how a game of d6 rolls only is typed: a run is one die a character, and a
    game with faces (six dice's ``BBBPSF``) takes each face's letter as its first value."""
    letters: dict[str, int] = {}
    for value, face in enumerate(faces.upper(), 1):
        if face.isalpha():
            letters.setdefault(face, value)
    example = "".join(faces[v - 1] for v in (1, 1, 4, 5, 2, 6)) if faces else "3 5 1 6 2 4"
    return Entry(f"1 1 4 5 2 6 or {example}" if faces else example, runs=True, letters=letters)


Position = TypeVar("Position")


def in_teams_names(play: Callable[[], Position], named: Callable[[str], str]) -> Position:
    """Run a board game's replay (``play``) with the engine's words for the sides (grid
    court's "Team 1 (visitors)", six dice's Orange and White) turned into the teams' names
    by ``named``: in the question it waits for, and in a refused or early choice's."""

    def asked(question: Any) -> Any:
        if not dataclasses.is_dataclass(question) or isinstance(question, type):
            return question
        prompt, options = getattr(question, "prompt"), getattr(question, "options")  # noqa: B009
        return dataclasses.replace(
            question,
            prompt=named(prompt),
            options=tuple((token, named(words)) for token, words in options),
        )

    try:
        position = play()
    except ChoiceFirst as exc:
        raise ChoiceFirst(exc.used, asked(exc.question)) from exc
    except ChoiceRefused as exc:
        raise ChoiceRefused(exc.index, exc.token, asked(exc.question), named(str(exc))) from exc
    question = getattr(position, "question", None)
    if question is not None:
        position = dataclasses.replace(position, question=asked(question))  # type: ignore[type-var]
    return position
