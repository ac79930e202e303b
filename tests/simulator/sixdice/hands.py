"""A six-dice game's choices written down as a player at the table types them."""

from __future__ import annotations

from collections.abc import Set

from simulator.games import TeamName
from simulator.sixdice.engine import SixDiceResult, play_game
from simulator.sixdice.hand import QUESTIONS_VERSION
from simulator.sixdice.policy import DEFAULT_POLICY, Contest, Policy, Tie
from simulator.sixdice.rules import STANDARD, SixDiceRules
from simulator.sixdice.state import DEFENSE, GameState, other
from tests.table.dice import Written

HOME_TEAM, AWAY_TEAM = TeamName("Kansas", 2008), TeamName("Memphis", 2008)


class Recorder:
    """The default policy, writing each answer of the ``hands`` sides as a typed token, as
    the hand questions of version ``questions`` ask them (simulator.sixdice.hand)."""

    def __init__(
        self, hands: Set[str], policy: Policy = DEFAULT_POLICY, questions: int = QUESTIONS_VERSION
    ) -> None:
        self.hands, self.policy, self.questions = hands, policy, questions
        self.tokens: list[str] = []

    def _note(self, side: str | None, token: str) -> None:
        if side in self.hands:
            self.tokens.append(token)

    def choose_play(self, tied: Tie, role: str, state: GameState) -> str:
        play = self.policy.choose_play(tied, role, state)
        assert state.offense is not None
        if not tied.moot:  # a pick that cannot matter is not asked at the table
            self._note(other(state.offense) if role == DEFENSE else state.offense, play)
        return play

    def ball_action(self, n: int, state: GameState) -> str:
        action = self.policy.ball_action(n, state)
        self._note(state.offense, action)
        return action

    def push_out(self, state: GameState) -> bool:
        answer = self.policy.push_out(state)
        self._note(state.offense, "push" if answer else "stay")
        return answer

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        answer = self.policy.use_chip(contest, state)
        self._note(contest.side, "chip" if answer else "keep")
        return answer

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        dice = self.policy.reroll(contest, state)
        token = "reroll:" + ",".join(map(str, sorted(dice))) if dice else "keep"
        if self.questions < 2 or contest.value < contest.opponent_value:
            self._note(contest.side, token)  # version 2 asks a holder who trails alone
        return dice


def recorded(
    seed: int,
    hands: Set[str],
    rules: SixDiceRules = STANDARD,
    home: TeamName = HOME_TEAM,
    away: TeamName = AWAY_TEAM,
    *,
    policy: Policy = DEFAULT_POLICY,
    questions: int = QUESTIONS_VERSION,
) -> tuple[SixDiceResult, list[int], list[str]]:
    """Play a seeded game with ``policy``; return it, its d6 stream in the order rolled and
    the tokens the ``hands`` sides would type for the same choices, asked as version
    ``questions`` asks them."""
    recorder, dice = Recorder(hands, policy, questions), Written(seed)
    played = play_game(home, away, dice, rules=rules, policy=recorder)
    return played, dice.values, recorder.tokens
