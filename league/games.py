"""The league's side of each game: how it is played from the league's rows and stored.

``simulator.games`` says what a game is (its rules, teams, dice, box score, odds); what
needs Django lives here, one :class:`LeagueGame` per game, which :func:`league_game` finds
by the game's name (the one place in the league that maps a name to its game). Callers ask
its hooks, never the name:

- ``has_players``, ``has_odds``, ``odds_read_teams``: the engine's answers;
- ``tells_stories``: the league writes a game's story (headline, sentences) from its events;
- ``has_overtimes``: a score sheet typed in may name overtimes;
- ``rules_in_fields``: the rules are a preset in the row's ``rules`` and ``strategy`` fields
  (VABG), not its ``options``;
- ``named_on_pages`` and ``site_name``: what a page says the game is;
- the play path (:meth:`LeagueGame.teams_read`, :meth:`LeagueGame.play`), the store path's
  hooks (:meth:`LeagueGame.team_files`, :meth:`LeagueGame.result_fields`,
  :meth:`LeagueGame.rows_store`), a replay from the seed and a replay page.

The base class is any game's neutral answer (a game without players whose box score is
kept whole in ``GameResult.box``), so a game registered in ``simulator.games`` is played,
stored and replayed by the league as it is; VABG's adapter adds its cards, coach and
``BoxLine`` rows, and grid court and six dice name their replay pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from django.db import connection

from cards.mapping import team_card, teams_for_play
from cards.models import Player, Team
from cards.styles import played_team_file
from league import odds, replays
from league.coaches import coach_for
from league.digests import document_digest
from league.errors import GameNotPlayable
from league.models import BoxLine, Game, GameResult
from league.seeds import new_seed
from league.teamfiles import team_file
from simulator import SeededDice
from simulator.dice import DiceError, DiceSource
from simulator.games import Game as Engine
from simulator.games import InvalidOptionError, InvalidTeamError, find_game, game_choices
from simulator.results import LINE_FIELDS
from simulator.vabg import (
    GameRules,
    InvalidCardError,
    RulesVersionError,
    TeamCard,
    play_game,
    preset,
    team_from_json,
)


class TeamEntry(NamedTuple):
    """A team's engine card with its team file and that file's digest, taken once."""

    card: TeamCard
    document: dict[str, Any]
    digest: str


def team_entry(card: TeamCard) -> TeamEntry:
    """Return a card with its team file and the file's digest."""
    document = card.to_json()
    return TeamEntry(card, document, document_digest(document))


class Played(NamedTuple):
    """A game its engine has played, with the teams it played, to be stored.

    ``played`` is what the game's :meth:`LeagueGame.play` got from its engine (VABG's own
    result, another game's ``simulator.games.Result``); ``home`` and ``away`` are the teams
    as its adapter read them (VABG's :class:`TeamEntry`, another game's team file).
    """

    game: Game
    played: Any
    home: Any
    away: Any


class LeagueGame:
    """The league's side of one game; the base answers for a game without players (the
    board games, any game registered in ``simulator.games``): each team enters as its school,
    season and coach styles, and the box score is kept whole in ``GameResult.box``."""

    tells_stories: ClassVar[bool] = False
    has_overtimes: ClassVar[bool] = False
    rules_in_fields: ClassVar[bool] = False
    named_on_pages: ClassVar[bool] = True
    away_starts: ClassVar[bool] = False
    """Whether the away team (team 1) always makes the game's first play, as a preview
    says ("starts"): grid court's visitor has the ball first, six dice opens with a jump
    ball that either team may win."""
    home_court: ClassVar[bool] = False
    """Whether the court changes the game (VABG's home-court rules): False, a neutral court
    plays as a home one, so a page does not say which (six dice and grid court ignore it)."""
    replay_template: ClassVar[str] = ""
    """The template of the game's replay page, turn by turn; empty: the game has none."""
    about: ClassVar[str] = ""
    """What the game is, in a sentence or two, for a fan on a season's page who has never
    played it (empty: the site's own game, VABG, needs none)."""
    odds_during_game: ClassVar[bool] = True
    """Whether a played game's page charts the odds roll by roll (six dice's exact odds);
    False (grid court, whose odds are simulated before the start only): the page shows
    the odds as they stood before the game."""
    headline_boards: ClassVar[tuple[str, ...]] = ()
    """The leader boards a page with room for a few (a tournament's) shows, by column key;
    empty: every board. The leaders page always shows every one."""
    option_columns: ClassVar[dict[str, tuple[str, ...]]] = {}
    """The box-score columns that count what only a rule option allows, by the option: a
    season that leaves the option off shows no such column or leader board (zeros of a rule
    not in play)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def final_score_problems(self, home: int, away: int) -> list[str]:
        """Say why ``home``-``away`` (not tied) cannot be how one of the game's games ends,
        for a score sheet typed in (the engine's rule: ``Game.final_score_problems``)."""
        return self.engine.final_score_problems(home, away)

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def has_players(self) -> bool:
        return self.engine.has_players

    @property
    def has_odds(self) -> bool:
        return self.engine.has_odds

    @property
    def odds_read_teams(self) -> bool:
        return self.engine.odds_read_teams

    @property
    def label(self) -> str:
        """Return the game's name as the league's choices write it (else its title)."""
        return str(dict(game_choices()).get(self.name, self.engine.title))

    @property
    def site_name(self) -> str:
        """Return what a page's title ends with: the league of the game."""
        return f"{self.label} league"

    @property
    def leader_noun(self) -> str:
        """Return what the game's leader boards rank, as a page names it: a player (VABG),
        a line's holder (grid court's piece), or a team (six dice, whose box has no lines)."""
        if self.has_players:
            return "player"
        return str(self.engine.name_key) if self.engine.columns else "team"

    @property
    def option_words(self) -> list[dict[str, str]]:
        """Return the game's rule options as a page names them: ``name``, ``label`` (words,
        "chip reroll") and ``help`` (what it means)."""
        return [
            {"name": o.name, "label": o.name.replace("_", " "), "help": o.help}
            for o in self.engine.options
        ]

    def rules(self, game: Game) -> Any:
        """Return the rules a game row is played with today."""
        return self.engine.make_rules(**game.options)

    def columns_not_in_play(self, options: Mapping[str, Any]) -> frozenset[str]:
        """Return the keys of the columns that count what an option these ``options`` leave
        off would allow (six dice's REROLL without ``chip_reroll``)."""
        if not self.option_columns:
            return frozenset()
        return self.columns_off(self.engine.make_rules(**dict(options)))

    def columns_off(self, rules: Any) -> frozenset[str]:
        """Return :meth:`columns_not_in_play` of the game's ``rules`` themselves."""
        return frozenset(
            key
            for option, keys in self.option_columns.items()
            if not getattr(rules, option, True)
            for key in keys
        )

    def team_file(self, team: Team) -> dict[str, Any]:
        """Return what the game reads of a team: its school and season, and the coach styles
        it plays (stored or derived, ``cards.styles``), kept with the result so a replay
        plays them again (``league.teamfiles``)."""
        return team_file(self.name, team)

    def teams_read(self, games: Sequence[Game]) -> Any:
        """Read the teams of ``games`` once, for :meth:`play` (a game's cards); ``None``
        when the game reads them one by one."""
        return None

    def play(
        self,
        game: Game,
        *,
        teams_read: Any = None,
        dice: DiceSource | None = None,
        rules: Any = None,
        files: tuple[dict[str, Any], dict[str, Any]] | None = None,
        choices: Sequence[str] = (),
        hands: Sequence[str] = (),
        questions: int | None = None,
    ) -> Played:
        """Play a game row with its engine: its seed (one drawn now when it has none, set on
        the row) or ``dice``, its rules or ``rules``, its teams or the team ``files`` given
        (the coach styles a table game was played with), the ``choices`` of the sides
        played by hand (``hands``) answering the hand ``questions`` of that version.
        Raise :class:`GameNotPlayable`."""
        engine = self.engine
        if files is None:
            docs = {"home": self.team_file(game.home), "away": self.team_file(game.away)}
        else:
            docs = {"home": dict(files[0]), "away": dict(files[1])}
        try:
            if rules is None:
                rules = self.rules(game)
            home, away = engine.read_team(docs["home"]), engine.read_team(docs["away"])
        except (InvalidOptionError, InvalidTeamError) as exc:
            raise GameNotPlayable(f"{game} cannot be played: {exc}") from exc
        try:
            played = engine.play(
                home,
                away,
                _dice(game, dice),
                rules,
                neutral=game.neutral,
                choices=choices,
                hands=hands,
                questions=questions,
            )
        except DiceError as exc:
            raise GameNotPlayable(f"{game}: {exc}") from exc
        except (ValueError, RuntimeError) as exc:  # an endless game, a policy error
            raise GameNotPlayable(f"{game} cannot be played: {exc}") from exc
        return Played(game, played, docs["home"], docs["away"])

    def dice_json(self, play: Played) -> dict[str, Any]:
        """Return what the result row keeps of the dice: the seed or script, and a game
        played by hand's choices (``Result.dice_to_json``)."""
        dice: dict[str, Any] = play.played.dice_to_json()
        return dice

    def team_files(self, play: Played) -> tuple[tuple[str, dict[str, Any]], ...]:
        """Return ``(digest, team file)`` of the home and away teams as they played."""
        return tuple((document_digest(doc), doc) for doc in (play.home, play.away))

    def result_fields(self, play: Played, events: list[dict[str, Any]]) -> dict[str, Any]:
        """Return the fields of the result row, but the game, team files, events (given, as
        stored) and dice:
        the score, the rules and their version, and the game's own box score as its engine
        rebuilds it from the events (grid court's piece lines and figures, six dice's
        figures), kept whole in ``box``."""
        played = play.played
        boxes = {
            side: (box.box.to_json() if box.box is not None else {})
            for side, box in (("home", played.home), ("away", played.away))
        }
        rules = played.rules.to_json()
        rules.setdefault("version", played.rules_version)
        return {
            "home_score": played.home.score,
            "away_score": played.away.score,
            "overtimes": 0,
            "home_periods": list(played.home.periods),
            "away_periods": list(played.away.periods),
            "home_possessions": _possessions(boxes["home"]),
            "away_possessions": _possessions(boxes["away"]),
            "rules": rules,
            "box": boxes,
        }

    def rows_store(self, plays: Sequence[Played], results: Sequence[GameResult]) -> None:
        """Store what a game keeps beside its result rows (none: its box is in the row)."""

    def replay(self, game: Game, result: GameResult) -> Any:
        """Play a stored game again from its seed (or the dice rolled at the table, with the
        choices made there by hand), the teams and rules it was played with."""
        engine = self.engine
        try:
            rules = engine.rules_from_json(result.rules)
        except ValueError as exc:
            raise GameNotPlayable(f"{game} cannot be replayed: {exc}") from exc
        dice, choices, hands, questions = replay_dice(engine, game, result)
        return engine.play(
            engine.read_team(played_team_file(game.game, result.home_team_file)),
            engine.read_team(played_team_file(game.game, result.away_team_file)),
            dice,
            rules,
            neutral=game.neutral,
            choices=choices,
            hands=hands,
            questions=questions,
        )

    def replay_view(self, game: Game, result: GameResult, turn: int) -> Any:
        """Return the replay page's view of a played game at ``turn`` (``replay_template``)."""
        raise NotImplementedError(f"{self.engine.title} has no replay")


def replay_dice(
    engine: Engine, game: Game, result: GameResult
) -> tuple[DiceSource, tuple[str, ...], tuple[str, ...], int]:
    """Return the dice a stored game replays from, with the choices made by hand, the
    sides that made them and the version of the questions they answer (1 for a game stored
    before versions were kept): its seed's, or the dice file rolled at the table (read as
    the game reads a dice file). A score typed in has no dice: refused, saying so."""
    if game.seed is not None and "seed" in result.dice:
        return SeededDice(game.seed), (), (), 1
    if not any(result.dice.get(stream) for stream in engine.dice_streams):
        raise GameNotPlayable(f"{game} was entered as a score: it has no dice to play again")
    try:
        dice = engine.read_dice(result.dice)
    except DiceError as exc:
        raise GameNotPlayable(
            f"{game} cannot be replayed: its dice file is refused: {exc}"
        ) from exc
    return (
        dice,
        tuple(result.dice.get("choices", ())),
        tuple(result.dice.get("hands", ())),
        result.dice.get("questions", 1),
    )


def _possessions(doc: dict[str, object]) -> int:
    value = doc.get("poss", doc.get("possessions", 0))
    return value if isinstance(value, int) else 0


def _dice(game: Game, dice: DiceSource | None) -> DiceSource:
    """Return ``dice``, or the game's seed's (one drawn now, set on the row, when it has none)."""
    if dice is not None:
        return dice
    if game.seed is None:
        game.seed = new_seed()
    return SeededDice(game.seed)


class GridCourt(LeagueGame):
    """Grid court: a board game; its replay draws the board turn by turn."""

    replay_template = "pages/games/gridcourt_replay.html"
    away_starts = True  # rulings §2.1: team 1, the visitor, is on offense first
    odds_during_game = False
    about = (
        "Grid court is a board game on a drawn court: each team moves its pieces over a grid"
        " of values, and a shot goes in when two dice total at least the value of the"
        " shooter's cell (2 points inside the arc, 3 outside). The first team to 21 wins."
    )

    def replay_view(self, game: Game, result: GameResult, turn: int) -> Any:
        return replays.gridcourt_replay(game, result, turn)


class SixDice(LeagueGame):
    """Six dice to 21: its replay shows the court strip, pawn, chip and dice."""

    replay_template = "pages/games/sixdice_replay.html"
    option_columns = {"chip_reroll": ("chip_rerolls",)}  # REROLL: the advanced rule §2.11
    # of its 27 team figures, those a fan follows (a tournament page showed all 27 boards)
    headline_boards = ("score", "dunks", "fg3m", "ftm", "stl", "rolls_won", "chip_plays")
    about = (
        "Six dice to 21 is a dice game: both teams roll six dice at once and the face more"
        " of a team's dice show (Ball, Pass, Shot or Steal, Free throw) is its play; the"
        " better roll moves a pawn along a 14-section court, shoots or steals. The first"
        " team to 21 wins."
    )

    def replay_view(self, game: Game, result: GameResult, turn: int) -> Any:
        return replays.sixdice_replay(game, result, turn)


_ENTRIES: dict[str, TeamEntry] = {}
"""Team entries by card version, kept by a process that plays many chunks of one field."""
_ENTRIES_KEPT = 2_000


class Vabg(LeagueGame):
    """VABG: teams play their cards (each card version read once per chunk), coached by the
    league's coach; the rules are a preset; a player's box line is a ``BoxLine`` row."""

    tells_stories = True
    has_overtimes = True
    rules_in_fields = True
    home_court = True
    named_on_pages = False

    @property
    def site_name(self) -> str:
        return "VABG League"

    def rules(self, game: Game) -> GameRules:
        return preset(game.rules, strategy=game.strategy)

    def teams_read(self, games: Sequence[Game]) -> dict[int, TeamEntry | InvalidCardError]:
        """Read the games' teams' cards in one go: each team's entry, or why the engine
        refuses its card.

        The teams' current card versions are read first (``odds.card_versions``: their
        rows' fingerprint, nothing built); a card this process built before for the same
        version is used again, and only the others are built.
        """
        ids = sorted({t for g in games for t in (g.home_id, g.away_id)})
        cards: dict[int, TeamEntry | InvalidCardError] = {}
        try:
            versions = odds.card_versions(ids)
        except odds.OddsUnavailable:
            versions = {}  # a card the engine refuses: build each team below, to say which
        todo = []
        for team_id in ids:
            kept = _ENTRIES.get(versions[team_id].version) if team_id in versions else None
            if kept is not None:
                cards[team_id] = kept
            else:
                todo.append(team_id)
        if len(_ENTRIES) > _ENTRIES_KEPT:
            _ENTRIES.clear()
        for team in teams_for_play().filter(pk__in=todo):
            try:
                entry = cards[team.pk] = team_entry(team_card(team))
            except InvalidCardError as exc:
                cards[team.pk] = exc
            else:
                _ENTRIES[entry.digest] = entry
        return cards

    def play(
        self,
        game: Game,
        *,
        teams_read: Any = None,
        dice: DiceSource | None = None,
        rules: Any = None,
        files: tuple[dict[str, Any], dict[str, Any]] | None = None,
        choices: Sequence[str] = (),
        hands: Sequence[str] = (),
        questions: int | None = None,
    ) -> Played:
        """Play a VABG game with the engine: its seed (or ``dice``), rules (its preset's, or
        ``rules``: a table game begun under an older rules version), court and coach; its
        teams are the cards :meth:`teams_read` read, or the team ``files`` given (the cards
        a table game was played with, kept since it began: a card edited meanwhile does
        not change the game the table played). VABG has no choices made by hand: its coach
        policy makes them."""
        if choices or hands:
            raise GameNotPlayable(f"{game}: VABG has no choices made by hand")
        if files is not None:
            try:
                entries: tuple[TeamEntry | InvalidCardError, ...] = tuple(
                    team_entry(self.engine.read_team(doc)) for doc in files
                )
            except (InvalidTeamError, InvalidCardError) as exc:
                raise GameNotPlayable(f"{game} cannot be played: {exc}") from exc
        else:
            cards = teams_read if teams_read is not None else self.teams_read([game])
            entries = cards[game.home_id], cards[game.away_id]
        for entry in entries:
            if isinstance(entry, InvalidCardError):
                raise GameNotPlayable(f"{game} cannot be played: {entry}")
        home_entry, away_entry = entries
        assert isinstance(home_entry, TeamEntry) and isinstance(away_entry, TeamEntry)
        home, away = home_entry.card, away_entry.card
        dice = _dice(game, dice)
        if rules is None:
            rules = self.rules(game)
        try:
            played = play_game(
                home,
                away,
                dice,
                rules=rules,
                neutral=game.neutral,
                coach=coach_for(
                    home=home,
                    away=away,
                    rules=rules,
                    neutral=game.neutral,
                    digests=(home_entry.digest, away_entry.digest),
                ),
            )
        except InvalidCardError as exc:  # a rotation that does not fit, an endless game
            raise GameNotPlayable(f"{game} cannot be played: {exc}") from exc
        except DiceError as exc:
            raise GameNotPlayable(f"{game}: {exc}") from exc
        return Played(game, played, home_entry, away_entry)

    def team_files(self, play: Played) -> tuple[tuple[str, dict[str, Any]], ...]:
        return tuple((entry.digest, entry.document) for entry in (play.home, play.away))

    def dice_json(self, play: Played) -> dict[str, Any]:
        dice: dict[str, Any] = play.played.dice.to_json()
        return dice

    def result_fields(self, play: Played, events: list[dict[str, Any]]) -> dict[str, Any]:
        """Return the score, overtimes, team turnovers, trips (re-rolls aside) and rules."""
        played = play.played
        trips = {"home": 0, "away": 0}
        for event in events:
            if event["type"] == "trip" and event.get("kind") != "reroll":
                trips[event["team"]] += 1
        return {
            "home_score": played.home.score,
            "away_score": played.away.score,
            "overtimes": played.overtimes,
            "home_periods": list(played.home.periods),
            "away_periods": list(played.away.periods),
            "home_team_turnovers": played.home.team_turnovers,
            "away_team_turnovers": played.away.team_turnovers,
            "home_possessions": trips["home"],
            "away_possessions": trips["away"],
            "rules": played.rules.to_json(),
        }

    def rows_store(self, plays: Sequence[Played], results: Sequence[GameResult]) -> None:
        """Store each player's box line as a ``BoxLine`` row, linked to the player by name."""
        team_ids = {t for play in plays for t in (play.game.home_id, play.game.away_id)}
        players = {
            (team_id, name): pk
            for pk, team_id, name in Player.objects.filter(team__in=team_ids).values_list(
                "pk", "team_id", "name"
            )
        }
        lines: list[tuple[int | str | None, ...]] = []
        for play, result in zip(plays, results, strict=True):
            for side, box, team_id in (
                (BoxLine.Side.HOME, play.played.home, play.game.home_id),
                (BoxLine.Side.AWAY, play.played.away, play.game.away_id),
            ):
                for order, line in enumerate(box.players):
                    values = line.to_json()
                    lines.append(
                        (result.pk, side, team_id, players.get((team_id, line.name)), line.name,
                         order, *(values[field] for field in LINE_FIELDS))
                    )  # fmt: skip
        box_lines_insert(lines)

    def replay(self, game: Game, result: GameResult) -> Any:
        try:
            rules = GameRules.from_json(result.rules)
        except RulesVersionError as exc:
            raise GameNotPlayable(f"{game} cannot be replayed: {exc}") from exc
        home = team_from_json(result.home_team_file)
        away = team_from_json(result.away_team_file)
        dice, _, _, _ = replay_dice(self.engine, game, result)  # VABG: no choices by hand
        return play_game(
            home,
            away,
            dice,
            rules=rules,
            neutral=game.neutral,
            coach=coach_for(home=home, away=away, rules=rules, neutral=game.neutral),
        )


BOX_LINE_COLUMNS = ("result", "side", "team", "player", "name", "order", *LINE_FIELDS)


def box_lines_insert(rows: list[tuple[int | str | None, ...]]) -> None:
    """Insert box lines, each a tuple of ``BOX_LINE_COLUMNS``, with one prepared statement.

    A stored game has 20-odd lines of 22 numbers: Django's ``bulk_create`` prepares each
    value in Python (about 2 ms a game, a third of what storing a game cost), where the
    driver's ``executemany`` binds them as they are. The database checks them as always
    (the box line's constraints, its keys).
    """
    if not rows:
        return
    quote = connection.ops.quote_name
    column = {f.name: str(f.column) for f in BoxLine._meta.concrete_fields}
    columns = ", ".join(quote(column[name]) for name in BOX_LINE_COLUMNS)
    marks = ", ".join(["%s"] * len(BOX_LINE_COLUMNS))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(BoxLine._meta.db_table)} ({columns}) VALUES ({marks})", rows
        )


ADAPTERS: dict[str, type[LeagueGame]] = {
    "vabg": Vabg,
    "gridcourt": GridCourt,
    "sixdice": SixDice,
}
"""The league's adapter of each game that needs more than :class:`LeagueGame`'s answers."""

_FOUND: dict[str, LeagueGame] = {}


def league_game(name: str) -> LeagueGame:
    """Return the league's side of the game called ``name`` (a game registered in
    ``simulator.games`` without an adapter here gets :class:`LeagueGame`'s answers).
    Raise ``simulator.games.UnknownGameError`` for a game the simulator does not host."""
    found = _FOUND.get(name)
    if found is None:
        found = _FOUND[name] = ADAPTERS.get(name, LeagueGame)(find_game(name))
    return found
