"""The six-dice game on the game interface of :mod:`simulator.games`: a thin adapter.

It calls :func:`simulator.sixdice.play_game` and :func:`simulator.sixdice.box_score`
unchanged; the six-dice :class:`SixDiceResult` rides along as :attr:`Result.native`.
The game has no players, so every box-score column is a team column.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from simulator.dice import DiceSource, ScriptedDice
from simulator.games import (
    Column,
    InvalidOptionError,
    MatchOdds,
    Option,
    Result,
    Side,
    StyledGame,
    StyledTeam,
    TeamName,
    race_problems,
    register,
)
from simulator.hands import play_by_hand
from simulator.sixdice import style
from simulator.sixdice.engine import SixDiceResult, play_game
from simulator.sixdice.events import COLUMNS, Event, SixDiceBox, box_score, event_from_json
from simulator.sixdice.hand import QUESTIONS_VERSION, Hands
from simulator.sixdice.inputs import dice_from_json
from simulator.sixdice.odds import exact_odds, solved, states_before_rolls
from simulator.sixdice.render import render_box_score
from simulator.sixdice.rules import (
    PRESETS,
    RULES_VERSION,
    STANDARD,
    InvalidRulesError,
    SixDiceRules,
)
from simulator.sixdice.state import TARGET
from simulator.sixdice.style import (
    DEFAULT_STYLE,
    SixDiceStyle,
    game_policy,
)

_TITLES = {
    "score": "points",
    "dunks": "dunks, advancing or passing past the last section",
    "slams": "slam dunks (six Balls)",
    "fg2m": "2-point shots made",
    "fg2a": "2-point shots taken",
    "fg3m": "3-point shots made",
    "fg3a": "3-point shots taken",
    "ftm": "free throws made",
    "fta": "free throws taken",
    "stl": "steals",
    "stl_s": "steals on an S",
    "stl_push": "steals by pushing back past half court",
    "stl_inbound": "steals in an inbound race (six S's)",
    "to": "turnovers (the opponent's steals)",
    "rolls_won": "main rolls won",
    "rolls_lost": "main rolls lost",
    "rolls_won_chip": "main rolls won by playing the Power Chip",
    "chip_plays": "ties won by playing the Power Chip (main rolls and shots)",
    "chip_rerolls": "Power Chip rerolls",
    "no_look": "no-look passes",
    "deflected": "deflected passes",
    "advanced": "sections advanced",
    "pushed": "sections pushed back",
    "inbounds": "inbounds",
    "inbound_rounds": "inbound rounds",
    "penalties": "penalties suffered (one die fewer)",
    "poss": "possessions: the jump ball, every inbound and every steal",
}


def _side(box: SixDiceBox) -> Side:
    return Side(box.school, box.season, box.score, (), box)


class SixDiceGame(StyledGame):
    """The six-dice game to 21 (sixdice-rulings.md), on the shared interface."""

    name = "sixdice"
    title = "Six dice to 21"
    table_note = (
        "Type the dice (1-6; faces B B B P S F), a team's six at once if you like (BBPSBF or "
        "1 1 4 5 2 6); where both teams throw, the visitors' dice come first. A side played "
        "by hand makes every choice the "
        "rules give it (which play on a tie, advance or shoot, push out for a 3, the Power "
        "Chip) when the sheet asks; a side left to the computer plays its team's coach style "
        "(its team page shows it)."
    )
    rules_version = RULES_VERSION
    questions_version = QUESTIONS_VERSION
    options = (
        Option(
            "faces",
            (STANDARD.faces,),
            STANDARD.faces,
            "what die values 1-6 show (§1.1): any six of B, P, S, F with some Balls",
        ),
        Option("chip_reroll", (False, True), False, "the advanced Power Chip reroll (§2.11)"),
    )
    rules_type = SixDiceRules
    presets = PRESETS
    columns = ()
    team_columns = tuple(Column(key, label, _TITLES[key]) for key, label in COLUMNS)
    event_types = Event.__args__
    dice_streams = ("d6",)
    has_odds = True
    live_odds = True

    def odds(self, rules: Any = None, home: Any = None, away: Any = None) -> MatchOdds:
        """Return the exact law of a game under ``rules`` between the two teams' styles
        (``simulator.sixdice.odds``)."""
        return exact_odds(STANDARD if rules is None else rules, _style(home), _style(away))

    def win_probability(
        self,
        events: Sequence[Mapping[str, Any]],
        rules: Any,
        home: Any = None,
        away: Any = None,
    ) -> list[tuple[int, float]]:
        """Return the exact P(home wins) before the jump ball and each main roll and
        inbound race of a stored game, each team playing its style for the rest of it."""
        home_style, away_style = _style(home), _style(away)
        chain = solved(
            rules,
            None if home_style == DEFAULT_STYLE else home_style,
            None if away_style == DEFAULT_STYLE else away_style,
        )
        return [(i, chain.p_home_win(state)) for i, state in states_before_rolls(events)]

    def make_rules(self, **options: Any) -> SixDiceRules:
        """Return the rules for these options; ``faces`` may be any printing of the dice, its
        letters in any case (as a dice file's and the table's are read)."""
        faces = options.pop("faces", STANDARD.faces)
        if isinstance(faces, str):
            faces = faces.strip().upper()
        values = self.check_options(options)
        try:
            return SixDiceRules(faces=faces, chip_reroll=values["chip_reroll"])
        except InvalidRulesError as exc:
            raise InvalidOptionError(f"sixdice option {exc}") from exc

    def rules_from_json(self, doc: Mapping[str, Any]) -> SixDiceRules:
        """Return :meth:`SixDiceRules.from_json` of the stored rules."""
        return SixDiceRules.from_json(doc)

    style_module: ClassVar[ModuleType] = style

    def read_dice(self, data: object) -> ScriptedDice:
        """Return the d6 script of a parsed dice file, which may use the letters B/P/S/F."""
        return dice_from_json(data)

    def render(self, result: Result) -> str:
        """Return the text box score: the score, then one row per column, both teams."""
        native = result.native
        if not isinstance(native, SixDiceResult):
            raise TypeError("a six-dice result keeps its SixDiceResult as native")
        return render_box_score(native)

    def play_rules(
        self, home: Any, away: Any, dice: DiceSource, rules: SixDiceRules, *, neutral: bool
    ) -> Result:
        """Play one game to 21, each team with its own style (a plain :class:`TeamName`
        plays the default); ``neutral`` changes nothing."""
        policy = game_policy(_style(home), _style(away))
        return self.wrap(play_game(home, away, dice, rules=rules, policy=policy))

    has_hands = True

    def play_by_hand(
        self,
        home: Any,
        away: Any,
        dice: DiceSource,
        rules: SixDiceRules,
        *,
        choices: tuple[str, ...],
        hands: frozenset[str],
        questions: int,
    ) -> Result:
        """Play one game to 21 whose ``hands`` sides made their own ``choices``
        (:mod:`simulator.sixdice.hand`), answering the ``questions`` of that version, the
        other sides their styles; raise ``ValueError`` for a choice the rules forbid, one
        missing or one left over."""
        played = Hands(choices, hands, game_policy(_style(home), _style(away)), questions=questions)
        result = play_by_hand(
            lambda: play_game(home, away, dice, rules=rules, policy=played.policy), played
        )
        return self.wrap(result, choices=choices, hands=hands, questions=questions)

    def wrap(
        self,
        result: SixDiceResult,
        *,
        choices: tuple[str, ...] = (),
        hands: frozenset[str] = frozenset(),
        questions: int = QUESTIONS_VERSION,
    ) -> Result:
        """Return the shared result of a ``SixDiceResult`` (kept as ``native``), with the
        choices the sides played by hand made and the version of the questions they
        answered."""
        return Result(
            game=self.name,
            home=_side(result.home),
            away=_side(result.away),
            events=result.events,
            dice=result.dice,
            rules=result.rules,
            rules_version=RULES_VERSION,
            native=result,
            choices=tuple(choices),
            hands=frozenset(hands),
            questions=questions,
        )

    def final_score_problems(self, home: int, away: int) -> list[str]:
        # Rulings §3: the first team to reach 21 wins at once; no cap ends a game short.
        return race_problems(self.title, TARGET, home, away, may_end_short=False)

    def box_score(self, events: Iterable[Any], rules: Any = None) -> tuple[SixDiceBox, SixDiceBox]:
        """Return the ``(home, away)`` team box scores rebuilt from the events alone (§7)."""
        return box_score(events)

    def event_from_json(self, data: Mapping[str, Any]) -> Event:
        """Return a six-dice event from its ``to_json()`` form."""
        return event_from_json(dict(data))


def _style(team: TeamName | None) -> SixDiceStyle:
    style = team.style if isinstance(team, StyledTeam) else None
    return style if isinstance(style, SixDiceStyle) else DEFAULT_STYLE


GAME = register(SixDiceGame())
