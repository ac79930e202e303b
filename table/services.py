"""Playing at the table: start a game, enter dice, undo, finish it into the league, abandon.

Every write locks the table game's row, replays the dice with the one it adds through the
game interface (``Game.sheet``: each game's own sheet, with its rules and its teams'
coaches or styles; the table reads it only as the :class:`simulator.sheets.Sheet`
protocol and never names a game) and saves them only if the engine accepts them, so a die
that is not a face of the die wanted is never stored. ``expected`` (how many dice the
caller saw) refuses an entry made from a stale page: two devices on one game cannot
interleave their dice unseen.

Finishing stores the game through ``league.services.game_replay_dice``, the path every
dice file takes, so the stored result, box score and play-by-play are the engine's own
for these dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cards.mapping import team_card, teams_for_play
from cards.models import Team
from cards.styles import played_team_file
from core.errors import Refused
from core.roles import is_commissioner
from league import services as league_services
from league.errors import GameNotPlayable
from league.models import Game, SimulationRun, game_options_clean
from league.teamfiles import team_file
from simulator.dice import DiceError, DiceScriptExhausted, DieRefused, GameOverError
from simulator.games import DEFAULT_GAME, SETTINGS, InvalidTeamError, find_game, game_names
from simulator.games import Game as Engine
from simulator.hands import ChoiceNeeded
from simulator.recording import RecordingDice
from simulator.sheets import (
    ChoiceFirst,
    ChoiceRefused,
    EntryRefused,
    NoChoiceWanted,
    Sheet,
    entry_of,
)
from table.models import TableGame


class TableRefused(Refused, ValueError):
    """Raise for an entry or a request the game cannot take; the message says why.

    ``conflict`` marks a request that is fine in itself but comes too late (a stale page, a
    game already finished): the API answers 409 rather than 400. A refused die carries its
    place in the entry (``index``) and what the game wanted there (``need``).
    """

    def __init__(
        self,
        message: str,
        *,
        conflict: bool = False,
        index: int | None = None,
        need: dict[str, Any] | None = None,
    ) -> None:
        self.conflict = conflict
        self.status = 409 if conflict else 400
        self.index = index
        self.need = need
        super().__init__(message)

    def answer(self) -> dict[str, Any]:
        body = super().answer()
        if self.index is not None:
            body["index"] = self.index
        if self.need is not None:
            body["need"] = self.need
        return body


def engine_of(game: TableGame) -> Engine:
    """Return the game interface of the game played (``simulator.games``)."""
    return find_game(game.game)


def team_files(game: TableGame) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the home and away team files the game is played with, as it began (a game
    whose teams bring a coach style, begun before styles: the rulings' policy, which it
    was played with)."""
    home, away = game.home_team_file, game.away_team_file
    if engine_of(game).has_styles:
        return played_team_file(game.game, home), played_team_file(game.game, away)
    return dict(home), dict(away)


def teams_of(game: TableGame) -> tuple[Any, Any]:
    """Return the home and away teams as the game reads them (``Game.read_team``: VABG's
    cards; a board game's school, season and coach style)."""
    home, away = team_files(game)
    engine = engine_of(game)
    try:
        return engine.read_team(home), engine.read_team(away)
    except InvalidTeamError as exc:
        raise TableRefused(f"This game cannot be played here: {exc}.") from exc


def rule_options(game: TableGame) -> dict[str, Any]:
    """Return the game's rule options as its engine names them: the stored ``options``,
    and the preset and strategy switch the ``rules`` and ``strategy`` fields keep (VABG's
    options) for a game that has such options."""
    names = {o.name for o in engine_of(game).options}
    fields = {"preset": game.rules, "strategy": game.strategy}
    return {k: v for k, v in {**fields, **game.options}.items() if k in names}


def rules_of(game: TableGame) -> Any:
    """Return the game's rules: its options, by its rules version (``Game.sheet_rules``).

    A game begun under an older version of its rulings is played by that version's rules
    to the end (six dice before the G10 note: a Deflected Pass costs the offense a die; VABG
    before version 3 with the strategy on: the fixed thresholds' coach).
    """
    try:
        return engine_of(game).sheet_rules(rule_options(game), game.rules_version)
    except ValueError as exc:
        raise TableRefused(f"This game cannot be played here: {exc}.") from exc


def _rules_version(game: str) -> int:
    """Return the rules version a new table game of ``game`` begins under."""
    return find_game(game).rules_version


def position_of(
    game: TableGame,
    dice: Sequence[int] | None = None,
    choices: Sequence[str] | None = None,
) -> Sheet:
    """Return where the game stands after its dice and choices (or ``dice`` and
    ``choices`` instead): its sheet."""
    home, away = teams_of(game)
    hands: dict[str, Any] = {
        "choices": game.choice_tokens if choices is None else list(choices),
        "hands": list(game.hands),
        "questions": game.questions,
    }
    sheet: Sheet = engine_of(game).sheet(
        home,
        away,
        list(game.dice if dice is None else dice),
        rules=rules_of(game),
        neutral=game.neutral,
        **(hands if game.hands else {}),
    )
    return sheet


GAME_FIELDS = SETTINGS
"""A new game's fields that only some games have: VABG's preset, coach policy and home
court; the other games' rule ``options`` (``Game.settings``)."""


def fields_not_in(game: str) -> list[str]:
    """Return the fields of a new game (:data:`GAME_FIELDS`) that ``game`` does not have:
    a board game has no preset, coach switch or home court; VABG no ``options`` (its rules
    are its preset and switch)."""
    has = find_game(game).settings()
    return [f for f in GAME_FIELDS if f not in has]


def not_in_game(game: str, fields: Sequence[str]) -> str:
    """Say that ``fields`` are not fields of ``game`` (a new game is refused with them)."""
    engine = find_game(game)
    named = " and ".join(repr(f) for f in fields)
    verb = "is" if len(fields) == 1 else "are"
    kept = [f for f in GAME_FIELDS if f not in fields_not_in(game)]
    has = f"its settings are {' and '.join(repr(f) for f in kept)}" if kept else "it has none"
    return f"{named} {verb} not a setting of {engine.title}: {has}."


SIDE_NAMES = ("home", "away")


def hands_clean(engine: Engine, hands: Sequence[str]) -> list[str]:
    """Return the sides played by hand, checked: home and/or away, in a game that has
    choices made by hand (``Game.has_hands``)."""
    hands = list(dict.fromkeys(hands))
    wrong = [h for h in hands if h not in SIDE_NAMES]
    if wrong:
        raise TableRefused(
            f"Hands name the sides that choose by hand: home or away, not {wrong[0]!r}."
        )
    if hands and not engine.has_hands:
        raise TableRefused(
            f"{engine.title} has no choices made by hand: its teams play their coach policy."
        )
    return sorted(hands)


def _team_file(team: Team, game: str = DEFAULT_GAME) -> dict[str, Any]:
    if not find_game(game).has_players:  # a board game reads the school, season and styles
        return team_file(game, team)
    try:
        card = team_card(teams_for_play().get(pk=team.pk))
    except ValueError as exc:  # a card the engine refuses (``InvalidCardError``)
        raise TableRefused(f"{team} cannot play: {exc}") from exc
    return card.to_json()


@transaction.atomic
def table_start(
    *,
    owner: Any,
    home: Team,
    away: Team,
    rules: str = "advanced",
    neutral: bool = False,
    strategy: bool = False,
    game: str = DEFAULT_GAME,
    options: dict[str, Any] | None = None,
    hands: Sequence[str] = (),
) -> TableGame:
    """Start a game at the table between two teams; it belongs to ``owner``.

    ``game`` is VABG (``rules``, ``neutral``, ``strategy``), or grid court or six dice with
    that game's rule ``options`` (checked by the game's own rules). ``hands`` are the sides
    whose choices the players make (six dice); the others play their coach style.
    """
    if home.pk == away.pk:
        raise TableRefused("A team cannot play itself.")
    if game not in game_names():
        raise TableRefused(f"Unknown game {game!r}: use {', '.join(game_names())}.")
    try:  # the league's own check: every option filled in, as a league game stores them
        options = game_options_clean(game, options or {})
    except ValidationError as exc:
        raise TableRefused("; ".join(exc.messages)) from exc
    engine = find_game(game)
    names = {o.name for o in engine.options}
    if "preset" in names and rules not in engine.presets:
        raise TableRefused(f"Unknown rules preset {rules!r}: use {' or '.join(engine.presets)}.")
    if "preset" not in names:  # a game without presets: its rules are its options
        rules = str(TableGame._meta.get_field("rules").default)
    if "strategy" not in names:
        strategy = False  # a game without a coach policy (grid court, six dice)
    if not engine.neutral_matters:
        neutral = False  # nor a home court
    hands = hands_clean(engine, hands)
    table = TableGame(
        owner=owner,
        game=game,
        options=options or {},
        rules_version=_rules_version(game),
        questions_version=find_game(game).questions_version,
        home=home,
        away=away,
        rules=rules,
        neutral=neutral,
        strategy=strategy,
        home_team_file=_team_file(home, game),
        away_team_file=_team_file(away, game),
        hands=hands,
    )
    table.full_clean()
    table.save()
    # The engine accepts the cards and the rotation before a die is rolled, and gives the
    # opening score the list shows (VABG's 20-20, not 0-0).
    _save(table, position_of(table))
    return table


def _commissioner_only(user: Any, message: str) -> None:
    """Refuse (403, in ``message``'s words) a user who is not a commissioner: a fan plays at
    the table, but a season's games are the commissioners'."""
    if not is_commissioner(user):
        refused = TableRefused(message)
        refused.status = 403
        raise refused


@transaction.atomic
def table_open_scheduled(*, owner: Any, league_game: Game, hands: Sequence[str] = ()) -> TableGame:
    """Open a season's scheduled game at the table (commissioners only), ``hands`` its
    sides whose choices the players make (as :func:`table_start`).

    The league game is marked a real-dice game at once, so no simulation run plays it
    meanwhile; abandoning the table game gives it back as it was.
    """
    _commissioner_only(owner, "Only a commissioner can play a season's game at the table.")
    game = Game.objects.select_for_update().select_related("home", "away").get(pk=league_game.pk)
    if game.status != Game.Status.SCHEDULED:
        raise TableRefused(
            f"{game} is {game.get_status_display().lower()}, not scheduled.", conflict=True
        )
    if game.run is not None and game.run.status == SimulationRun.Status.RUNNING:
        raise TableRefused(
            f"{game} is queued in a simulation run (#{game.run_id}); play it at the table "
            "once the run is over, or another game.",
            conflict=True,
        )
    if TableGame.objects.filter(league_game=game, status=TableGame.Status.PLAYING).exists():
        raise TableRefused(f"{game} is already being played at the table.", conflict=True)
    hands = hands_clean(find_game(game.game), hands)
    table = TableGame(
        owner=owner,
        game=game.game,
        options=dict(game.options),
        rules_version=_rules_version(game.game),
        questions_version=find_game(game.game).questions_version,
        home=game.home,
        away=game.away,
        rules=game.rules,
        neutral=game.neutral,
        strategy=game.strategy,
        home_team_file=_team_file(game.home, game.game),
        away_team_file=_team_file(game.away, game.game),
        league_game=game,
        attached_kind=game.kind,
        hands=hands,
    )
    table.full_clean()
    table.save()
    _save(table, position_of(table))  # the opening score: VABG's 20-20
    Game.objects.filter(pk=game.pk).update(kind=Game.Kind.REAL_DICE)
    return table


def _is_11_66(value: int) -> bool:
    """Whether ``value`` reads as an 11-66 roll (two d6 as tens and ones)."""
    return 11 <= value <= 66 and 1 <= value % 10 <= 6


def _locked(game_id: int, user: Any) -> TableGame:
    game = TableGame.objects.select_for_update().filter(pk=game_id, owner=user).first()
    if game is None:
        raise TableGame.DoesNotExist(f"no table game {game_id} of yours")
    return game


def _playing(game: TableGame, expected: int | None) -> None:
    if game.status != TableGame.Status.PLAYING:
        raise TableRefused(
            f"This game is {game.get_status_display().lower()}: no more dice.", conflict=True
        )
    if expected is not None and expected != game.entries:
        what = f"{len(game.dice)} dice"
        if game.choices:
            what = f"{game.entries} entries ({what} and {len(game.choices)} choices)"
        raise TableRefused(
            f"This game has {what}, not {expected}: it changed elsewhere "
            "(another device?). Reload to see it.",
            conflict=True,
        )


@transaction.atomic
def table_roll(
    *, game_id: int, user: Any, values: Sequence[object], expected: int | None = None
) -> Sheet:
    """Add dice to a game in progress, in the order rolled; all or nothing.

    A die is a number, or text the game reads as dice (``Sheet.entry``: numbers apart by
    spaces, commas, full stops or dashes; six dice's face letters; a d6 game's run of one
    character a die, ``112245``).

    A value that is not a face of the die the game wants there refuses the whole entry,
    naming its place; so do dice past the end of the game.
    """
    game = _locked(game_id, user)
    _playing(game, expected)
    if not values:
        raise TableRefused("Enter at least one die.")
    before = len(game.dice)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        # Typed as the dice look (six dice's B/P/S/F, a roll as one run "112245"), or
        # apart by the separators a phone's keypad has: read as the game reads them.
        try:
            values = entry_of(position_of(game)).read(values)
        except EntryRefused as exc:
            raise TableRefused(str(exc), index=exc.index) from exc
    dice = [*game.dice, *values]
    try:
        position = position_of(game, dice)
    except DieRefused as exc:
        need = exc.need
        # VABG's steps name a die ("the d6 tens"), the board games' a team's roll
        # ("Kansas 2008: jump ball": "Kansas 2008's jump ball")
        who, _, what = need.step.partition(": ")
        step = f"{who}'s {what}" if what else f"the {need.step}"
        said = f"{exc.value} is not a face of a {need.die}: {step} is 1-{need.faces}."
        if need.step == "d6 tens" and isinstance(exc.value, int) and _is_11_66(exc.value):
            # the rulebook writes the 11-66 as one number ("34"): it is two dice here
            said += f" The 11-66 is two dice: type {exc.value // 10} {exc.value % 10}."
        raise TableRefused(
            said,
            index=exc.index - before,
            need=need.to_json(),
        ) from exc
    except GameOverError as exc:
        raise TableRefused(
            _too_many(exc.used - before, len(values)), index=exc.used - before
        ) from exc
    except ChoiceFirst as exc:
        question = exc.question
        used, side = exc.used - before, _side_label(game, question.side)
        if used > 0:  # the entry runs past the end of a roll, into a choice
            first = "die" if used == 1 else f"{used} dice"
            raise TableRefused(
                f"Only the first {first} of these {len(values)} belong here: then {side} "
                f"must choose ({question.prompt}). None was stored: send the first {first} "
                "alone.",
                index=used,
            ) from exc
        raise TableRefused(f"{side} must choose first: {question.prompt}", index=used) from exc
    except ValueError as exc:  # a DiceError, or the engine's own (a card it cannot play)
        raise TableRefused(f"The engine refuses these dice: {exc}.") from exc
    game.dice = dice
    _save(game, position, "dice")
    return position


def _possessive(step: str) -> str:
    """Return a roll's step as a team's ("Kansas 2008: main roll": "Kansas 2008's main roll")."""
    who, _, what = step.partition(": ")
    return f"{who}'s {what}" if what else f"the {step}"


def _play_name(play: dict[str, Any]) -> str:
    """Name a play of the state: VABG's possession ("Kansas 2008's possession 44"), a board
    game's roll by what it is ("Kentucky 2012's main roll", grid court's "defense roll")."""
    if "number" in play:
        return f"{play['team_label']}'s possession {play['label']}"
    kind = play.get("kind") or "roll"
    return f"{play['team_label']}'s {kind}" + ("" if " " in kind or kind == "roll" else " roll")


# An entry over more rolls than this names the first two and the last, and counts the rest.
NOTE_ROLLS = 4


def entry_overrun(
    dice_before: Sequence[int], position: Sheet, plays: Sequence[dict[str, Any]]
) -> str:
    """Say which roll (a VABG trip) each die of an entry went to, when they went to more
    than one; else "".

    Several rolls typed in one entry are taken as typed (a trip with its rebound, both
    teams' dice of a main roll, a whole game); but a die past a roll's end begins the next
    roll, often the other team's, and a die typed too many went there silently. So the
    answer names each roll the entry's dice went to ("These 5 dice went to 2 rolls: Kansas
    2008, possession 44: 5 3 4 17; Kentucky 2012, possession 44: 6."), and a board game's
    roll left part-way says how many it needs more. ``dice_before`` are the game's dice
    before the entry, ``position`` the game after it and ``plays`` its state's plays.
    """
    before, after = len(dice_before), len(position.values)
    groups: list[tuple[dict[str, Any], list[int]]] = []
    at = 0
    for play in plays:
        dice = [d["value"] for d in play.get("dice") or []]
        mine = dice[max(0, before - at) : max(0, after - at)]
        if mine:
            groups.append((play, mine))
        at += len(dice)
    if at != after or len(groups) < 2:
        return ""  # one roll (or a game whose plays do not hold its dice): nothing to say
    said = [f"{_play_name(play)}: {' '.join(map(str, dice))}" for play, dice in groups]
    if len(said) > NOTE_ROLLS:
        said = [*said[:2], f"... {len(said) - 3} more ...", said[-1]]
    rolls = "trips" if "number" in groups[0][0] else "rolls"  # VABG's "Undo trip"
    note = f"{after - before} dice to {len(groups)} {rolls}: {'; '.join(said)}."
    need = position.need
    now = need.to_json() if need is not None and position.question is None else {}
    start, index, size = now.get("start"), now.get("index"), now.get("size")
    if (
        need is not None
        and isinstance(index, int)
        and isinstance(size, int)
        and isinstance(start, int)
        and index > 1
        and start > before
    ):
        # the entry ends part-way into a roll begun in it
        note += f" {_possessive(need.step)} needs {size - index + 1} more."
    return note + " Too many? Undo die."


@transaction.atomic
def table_roll_file(*, game_id: int, user: Any, doc: object, expected: int | None = None) -> Sheet:
    """Enter a game's dice from a ``vabg-dice/1`` file (the command line's, or one a dice
    app wrote): its streams are read in the order the game asks for them, as the command
    line plays them, up to the end of the game, the end of the file or the first choice a
    side played by hand makes; then entered as one entry, all or nothing (``table_roll``).

    A file begins a game: one with dice entered already is refused (its streams cannot
    say which of their dice were typed).
    """
    game = _locked(game_id, user)
    _playing(game, expected)
    if game.dice or game.choices:
        raise TableRefused(
            "A dice file begins a game: this one has entries already. Start a new game "
            "for the file, or type the rest of this one.",
            conflict=True,
        )
    engine = engine_of(game)
    try:
        script = engine.read_dice(doc)
    except DiceError as exc:
        raise TableRefused(f"The dice file is refused: {exc}") from exc
    home, away = teams_of(game)
    dice = RecordingDice(script)
    ran_out: DiceScriptExhausted | None = None
    try:
        engine.play(
            home,
            away,
            dice,
            rules_of(game),
            neutral=game.neutral,
            hands=tuple(game.hands),
            questions=game.questions,
        )
    except DiceScriptExhausted as exc:
        ran_out = exc  # the file ends: the dice so far go in
    except (ChoiceNeeded, NoChoiceWanted):
        pass  # a side played by hand chooses: the dice so far go in
    except ValueError as exc:  # the engine's own (a card it cannot play, an endless game)
        raise TableRefused(f"The engine refuses these dice: {exc}.") from exc
    values = [draw.value for draw in dice.draws]
    if not values:
        if ran_out is not None:
            # Say which die: a file of d6 dice alone holds dice of this game, but not its
            # first one (a VABG game begins with a d8).
            raise TableRefused(
                f"The dice file has no {ran_out.stream} dice, and the game's first die is a "
                f"{ran_out.stream}: none of its dice could be read."
            )
        raise TableRefused("The dice file holds none of this game's dice.")
    return table_roll(game_id=game_id, user=user, values=values, expected=0)


def _waits_to_be_stored(position: Sheet) -> bool:
    """Whether every die of the game is in: no die and no choice is asked for any more."""
    return position.need is None and getattr(position, "question", None) is None


def _save(game: TableGame, position: Sheet, *fields: str) -> None:
    """Save ``fields`` of a game that has reached ``position``, with its score (the list
    of games shows it without replaying them)."""
    game.home_score, game.away_score = position.score["home"], position.score["away"]
    game.over = _waits_to_be_stored(position)
    game.save(update_fields=[*fields, "home_score", "away_score", "over", "updated_at"])


def scores_filled(games: Iterable[TableGame]) -> list[TableGame]:
    """Return ``games`` with every score known: a game saved before scores were kept is
    replayed once and its score saved, with whether every die is in (``over``)."""
    games = list(games)
    for game in games:
        if game.home_score is None or game.away_score is None:
            try:
                position = position_of(game)
            except ValueError:  # dice an engine of today no longer plays: no score to show
                continue
            game.home_score, game.away_score = position.score["home"], position.score["away"]
            game.over = _waits_to_be_stored(position)
            TableGame.objects.filter(pk=game.pk).update(
                home_score=game.home_score, away_score=game.away_score, over=game.over
            )
    return games


def _too_many(used: int, sent: int) -> str:
    """Say where the game ends among the ``sent`` dice of an entry: an entry is all or
    nothing, so none of them was stored."""
    if used == 0:
        what = "this die was" if sent == 1 else f"these {sent:,} dice were"
        return f"The game is already over: {what} not stored."
    left = sent - used
    after = "the last one comes" if left == 1 else f"the other {left:,} come"
    return (
        f"The game ends after {used:,} of these {sent:,} dice: {after} after its end, so "
        f"none of them was stored (send the first {used:,} alone)."
    )


def _refused_choice(choice: str, why: str) -> str:
    """Say that ``choice`` is refused and why, naming the choice once (a game's own reason
    may begin with it: ``'steps:1>1,1': step 1: ...``, ``S is not one of ...``)."""
    for lead in (f"{choice!r}: ", f"{choice}: "):
        if why.startswith(lead):
            why = why[len(lead) :]
            break
    else:
        if why.startswith((f"{choice!r} ", f"{choice} ")):
            return f"{why}."  # the reason names the choice itself
    return f"{choice!r} is refused: {why}."


def _side_label(game: TableGame, side: str) -> str:
    return str(game.home if side == "home" else game.away)


@transaction.atomic
def table_choose(*, game_id: int, user: Any, choice: str, expected: int | None = None) -> Sheet:
    """Make the choice the game waits for (a side played by hand: ``Sheet.question``).

    A choice the rules forbid is refused naming the rule; so is any choice while the game
    waits for a die, or once it is over.
    """
    game = _locked(game_id, user)
    _playing(game, expected)
    now = position_of(game)
    if now.question is None:
        waits = "the game is over" if now.need is None else f"the game waits for {now.waiting_for}"
        raise TableRefused(f"No choice is asked now: {waits}.")
    choices = [*game.choices, [len(game.dice), choice]]
    try:
        position = position_of(game, choices=[token for _, token in choices])
    except ChoiceRefused as exc:
        raise TableRefused(_refused_choice(choice, str(exc))) from exc
    game.choices = choices
    _save(game, position, "choices")
    return position


@transaction.atomic
def table_undo(*, game_id: int, user: Any, what: str = "die", expected: int | None = None) -> Sheet:
    """Take back the last entry (a die, or a choice made by hand after it), or the whole
    last trip (back to its d8) with the choices made since.

    In grid court and six dice a "trip" is a roll: an offensive roll's two dice, a team's
    six (or five) dice; on a roll's first die, the roll before.
    """
    game = _locked(game_id, user)
    _playing(game, expected)
    if not game.dice and not game.choices:
        raise TableRefused("No dice to take back yet.")
    if what not in ("die", "trip"):
        raise TableRefused(f"Undo takes back a die or a trip, not {what!r}.")
    if what == "die" and game.choices and game.choices[-1][0] == len(game.dice):
        game.choices = game.choices[:-1]  # the last entry was a choice
    else:
        keep = len(game.dice) - 1 if what == "die" else position_of(game).undo_trip_to
        game.dice = game.dice[:keep]
        game.choices = [c for c in game.choices if c[0] <= keep]
    position = position_of(game)
    _save(game, position, "dice", "choices")
    return position


@transaction.atomic
def table_finish(*, game_id: int, user: Any) -> Game:
    """Store a game that is over as a league game, exactly as a simulated one is stored.

    The league game is the scheduled one it was opened for, or a new exhibition. The
    dice go through ``league.services.game_replay_dice`` with the team files the game began
    with: a card or style edited since changes nothing; a team renamed since refuses it
    (the stored files would name another team than the game's).
    """
    table = _locked(game_id, user)
    _playing(table, None)
    if table.league_game_id is not None:
        # Opening a season's game was a commissioner's act; storing it in the season is too,
        # checked again now: a commissioner demoted since keeps his dice, not the right.
        _commissioner_only(
            user,
            "Only a commissioner can store a season's game, and you are no longer one: ask a "
            "commissioner to finish it, or abandon it (the season's game is freed).",
        )
    position = position_of(table)
    played_result = position.result()
    if played_result is None:
        raise TableRefused(
            f"The game is not over yet: {position.waiting_for} is next.", conflict=True
        )
    # The game is stored with the team files it began with (cards, styles): a card or a
    # style edited since changes nothing the table played (a typo fixed in the admin cost a
    # whole game of dice). Only a team renamed since is refused: the stored files would
    # name another team than the game's.
    for team, played in ((table.home, table.home_team_file), (table.away, table.away_team_file)):
        now = _team_file(team, table.game)
        if (now["school"], now["season"]) != (played["school"], played["season"]):
            raise TableRefused(
                f"{team} was {played['school']} {played['season']} when this game began; its "
                "files name that team. Ask a commissioner to put the name back, or play it "
                "again.",
                conflict=True,
            )
    if table.league_game_id is not None:
        game = Game.objects.select_for_update().get(pk=table.league_game_id)
        if game.status == Game.Status.FINAL:
            raise TableRefused(f"{game} already has a result.", conflict=True)
    else:
        game = league_services.game_create(
            home=table.home,
            away=table.away,
            neutral=table.neutral,
            rules=table.rules,
            strategy=table.strategy,
            label="At the table",
            game=table.game,
            options=dict(table.options),
        )
        Game.objects.filter(pk=game.pk).update(kind=Game.Kind.REAL_DICE, seed=None)
    try:
        league_services.game_replay_dice(
            game_id=game.pk,
            script=position.dice_file(),
            rules=rules_of(table),
            teams=team_files(table),
            choices=table.choice_tokens,
            hands=table.hands,
            questions=table.questions,
        )
    except GameNotPlayable as exc:
        raise TableRefused(f"The league refused the game: {exc}.") from exc
    game.refresh_from_db()
    result = game.result
    if (result.home_score, result.away_score) != (
        played_result.home.score,
        played_result.away.score,
    ):  # the same cards, rules and dice: never expected
        raise TableRefused("The stored game does not match the table's; nothing was stored.")
    table.status = TableGame.Status.FINISHED
    table.league_game = game
    table.finished_at = timezone.now()
    table.save(update_fields=["status", "league_game", "finished_at", "updated_at"])
    return game


@transaction.atomic
def table_abandon(*, game_id: int, user: Any) -> TableGame:
    """Abandon a game in progress; a scheduled league game it was opened for is freed."""
    table = _locked(game_id, user)
    _playing(table, None)
    if table.league_game_id is not None:
        Game.objects.filter(pk=table.league_game_id, status=Game.Status.SCHEDULED).update(
            kind=table.attached_kind or Game.Kind.SIMULATED
        )
    table.status = TableGame.Status.ABANDONED
    table.finished_at = timezone.now()
    table.save(update_fields=["status", "finished_at", "updated_at"])
    return table
