"""``python -m simulator play|odds ...`` (interchange.md, "Command line" and "Exact odds")."""

from __future__ import annotations

import argparse
import csv
import io
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from simulator.dice import (
    DiceError,
    DiceFileError,
    DiceScriptExhausted,
    DiceSource,
    ScriptedDice,
    SeededDice,
)
from simulator.games import (
    DEFAULT_GAME,
    InvalidOptionError,
    InvalidTeamError,
    find_game,
    game_names,
)
from simulator.jsonfile import JsonFileError, read_json_file
from simulator.seeds import seed_argument
from simulator.vabg.cards import InvalidCardError, read_team_file
from simulator.vabg.engine import play_game
from simulator.vabg.render import render_box_score, render_play_by_play
from simulator.vabg.rules import GameRules, preset

EXIT_BAD_INPUT = 2
GAME_FLAGS = ("width", "level", "pieces", "faces", "chip_reroll")
"""The ``play`` options of games other than VABG (interchange.md, "Other games")."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    parser = _Parser(prog="python -m simulator", description="Play dice basketball games.")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser(
        "play",
        help="play one game between two team files, with no database",
        description="Play one Value Add Basketball Game between two vabg-team/1 files "
        "(or, with --game, another game: a team file then gives only its school and season).",
    )
    play.add_argument("home", type=Path, help="home team file (vabg-team/1 JSON)")
    play.add_argument("away", type=Path, help="visiting team file; it plays first")
    play.add_argument(
        "--game", choices=game_names(), default=DEFAULT_GAME, help="which game (default: vabg)"
    )
    play.add_argument("--width", type=int, help="gridcourt: columns of the grid, 14 or 13")
    play.add_argument("--level", type=int, help="gridcourt: grid level, 0, 1 or 2")
    play.add_argument("--pieces", type=int, help="gridcourt: pieces a team, 3, 4 or 5")
    play.add_argument(
        "--faces", help="sixdice: what die values 1-6 show, six of B/P/S/F (default BBBPSF)"
    )
    play.add_argument(
        "--chip-reroll",
        action="store_true",
        default=None,
        help="sixdice: the advanced Power Chip reroll (rulings §2.11)",
    )
    dice = play.add_mutually_exclusive_group()
    dice.add_argument(
        "--seed",
        type=seed_argument,
        help="seed for reproducible dice, 0 to 2**63 - 1 (default: random)",
    )
    dice.add_argument("--dice", type=Path, help="replay rolls from a vabg-dice/1 file")
    play.add_argument("--neutral", action="store_true", help="neutral site: no home court")
    play.add_argument(
        "--rules", choices=("basic", "advanced"), default="advanced", help="rules preset"
    )
    play.add_argument(
        "--strategy", action="store_true", help="let the exact coach foul, try for 3, etc."
    )
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument(
        "--play-by-play", action="store_true", help="print the play-by-play after the box score"
    )
    odds = commands.add_parser(
        "odds",
        help="the exact law of a game from the dice math, no sampling",
        description="Exact odds of a Value Add Basketball Game (docs/odds.md).",
    )
    odds.add_argument("home", type=Path, nargs="?", help="home team file (vabg-team/1 JSON)")
    odds.add_argument("away", type=Path, nargs="?", help="visiting team file; it plays first")
    odds.add_argument("--pairs", type=Path, metavar="DIR", help="every pair of team files in DIR")
    odds.add_argument("--out", type=Path, metavar="FILE.csv", help="where --pairs writes its rows")
    odds.add_argument("--neutral", action="store_true", help="neutral site: no home court")
    odds.add_argument(
        "--rules", choices=("basic", "advanced"), default="advanced", help="rules preset"
    )
    odds.add_argument(
        "--strategy",
        action="store_true",
        help="the exact coach on (fouls, tries for 3, extra possessions), solved exactly",
    )
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _ran_out(dice: Path | None, exc: DiceError) -> str:
    """Say which file ran out of which die, and whether it had that die's list at all (a
    file without a "d8" key reads as no d8 rolls)."""
    if dice is None or not isinstance(exc, DiceScriptExhausted):
        return str(exc)
    message = f"{dice}: {exc}"
    try:
        document = read_json_file(dice)
    except JsonFileError:
        return message
    if isinstance(document, dict) and exc.stream not in document:
        message += f' (the file has no "{exc.stream}" list)'
    return message


SHOWN_PROBLEMS = 5
"""A bad dice file's problems shown in full; the rest are counted (a file of 3,000 letters
listed every one, a 130 KB line)."""


def _dice_problems(exc: DiceError) -> str:
    """Say what is wrong with a dice file: its first problems, and how many more."""
    if not isinstance(exc, DiceFileError) or len(exc.problems) <= SHOWN_PROBLEMS:
        return str(exc)
    more = len(exc.problems) - SHOWN_PROBLEMS
    return (
        "bad dice file: "
        + "; ".join(exc.problems[:SHOWN_PROBLEMS])
        + f"; and {more:,} more problem{'s' * (more != 1)} like these"
    )


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for bad files or dice)."""
    args = build_parser().parse_args(argv)
    if args.command == "odds":
        return _odds(args)
    if args.game != DEFAULT_GAME:
        return _play_other(args)
    given = [f"--{name}" for name in GAME_FLAGS if getattr(args, name) is not None]
    if given:
        return _fail(f"--{given[0][2:].replace('_', '-')} is not a vabg option")
    try:
        home = read_team_file(args.home)
        away = read_team_file(args.away)
    except InvalidCardError as exc:
        return _fail("bad team file:\n  " + "\n  ".join(exc.problems))
    source: DiceSource
    if args.dice is not None:
        try:
            source = ScriptedDice.from_json(read_json_file(args.dice))
        except JsonFileError as exc:
            return _fail(str(exc))
        except DiceError as exc:
            return _fail(f"{args.dice}: {_dice_problems(exc)}")
    else:
        seed = args.seed
        if seed is None:
            seed = secrets.randbelow(2**31)
        source = SeededDice(seed)
    rules = preset(args.rules, strategy=args.strategy)
    try:
        result = play_game(home, away, source, rules=rules, neutral=args.neutral)
    except DiceError as exc:
        return _fail(_ran_out(args.dice, exc))
    except InvalidCardError as exc:
        return _fail("\n  ".join(exc.problems))
    if args.json:
        json.dump(result.to_json(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(render_box_score(result))
        if args.play_by_play:
            print()
            print(render_play_by_play(result))
    return 0


def _play_other(args: argparse.Namespace) -> int:
    """Play one game of another kind through the game interface (``--game gridcourt``)."""
    game = find_game(args.game)
    vabg_only = [
        flag
        for flag, on in (
            ("--neutral", args.neutral),
            ("--rules", args.rules != "advanced"),
            ("--strategy", args.strategy),
            ("--play-by-play", args.play_by_play),
        )
        if on
    ]
    if vabg_only:
        return _fail(f"{vabg_only[0]} is a vabg option, not a {game.name} one")
    options = {name: getattr(args, name) for name in GAME_FLAGS if getattr(args, name) is not None}
    try:
        rules = game.make_rules(**options)
        home = game.read_team_file(args.home)
        away = game.read_team_file(args.away)
    except InvalidOptionError as exc:
        return _fail(str(exc))
    except InvalidTeamError as exc:
        return _fail("bad team file:\n  " + "\n  ".join(exc.problems))
    source: DiceSource
    if args.dice is not None:
        try:
            source = game.read_dice(read_json_file(args.dice))
        except JsonFileError as exc:
            return _fail(str(exc))
        except DiceError as exc:
            return _fail(f"{args.dice}: {_dice_problems(exc)}")
    else:
        source = SeededDice(secrets.randbelow(2**31) if args.seed is None else args.seed)
    try:
        result = game.play(home, away, source, rules)
    except DiceError as exc:
        return _fail(_ran_out(args.dice, exc))
    if args.json:
        json.dump(result.to_json(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(game.render(result))
    return 0


def _odds(args: argparse.Namespace) -> int:
    """Run ``odds``: one game's exact law, or a CSV row for every pair of a folder."""
    # Imported here: the odds need NumPy, which ``play`` does not.
    from simulator.vabg.coachodds import exact_odds

    rules: GameRules = preset(args.rules, strategy=args.strategy)
    if args.pairs is not None:
        if args.home is not None or args.away is not None:
            return _fail("give either HOME.json AWAY.json or --pairs DIR, not both")
        if args.out is None:
            return _fail("--pairs needs --out FILE.csv")
        return _odds_pairs(args.pairs, args.out, rules, args.neutral)
    if args.home is None or args.away is None:
        return _fail("odds needs HOME.json and AWAY.json (or --pairs DIR --out FILE.csv)")
    try:
        home = read_team_file(args.home)
        away = read_team_file(args.away)
        result = exact_odds(home, away, rules=rules, neutral=args.neutral)
    except InvalidCardError as exc:
        return _fail("bad team file:\n  " + "\n  ".join(exc.problems))
    if args.json:
        json.dump(result.to_json(), sys.stdout)
        sys.stdout.write("\n")
        return 0
    where = "no home court" if args.neutral or not rules.home_court else "home court"
    print(f"{away.label} at {home.label}" if not args.neutral else f"{away.label} v {home.label}")
    policy = ", the coach policy on (the exact coach)" if rules.strategy else ""
    print(f"{args.rules} rules, {where}{policy}; exact, from the dice math")
    width = max(len(home.label), len(away.label))
    print(f"  P({home.label} wins){'':{width - len(home.label)}}  {result.p_home_win:8.4%}")
    print(f"  P({away.label} wins){'':{width - len(away.label)}}  {result.p_away_win:8.4%}")
    print(f"  P(overtime){'':{width}}  {result.p_overtime:8.4%}")
    print(f"  expected overtimes {result.expected_overtimes:.4f}")
    spread = result.expected_home_pts - result.expected_away_pts
    print(
        f"  expected score: {home.label} {result.expected_home_pts:.2f}, "
        f"{away.label} {result.expected_away_pts:.2f} (home by {spread:+.2f})"
    )
    likely = sorted(result.margin.items(), key=lambda item: -item[1])[:5]
    print(
        "  likeliest margins (home - away): "
        + ", ".join(f"{m:+d} ({p:.2%})" for m, p in sorted(likely))
    )
    return 0


def _odds_pairs(folder: Path, out: Path, rules: GameRules, neutral: bool) -> int:
    """Write one CSV row per pair of team files in ``folder`` (each home once unless neutral)."""

    from simulator.vabg.coachodds import exact_field_odds

    if not folder.is_dir():
        return _fail(
            f"{folder}: no such folder" if not folder.exists() else f"{folder}: not a folder"
        )
    files = sorted(folder.glob("*.json"))
    if not files:
        return _fail(f"{folder}: no team files (*.json) in that folder")
    teams = []
    problems: list[str] = []
    for path in files:
        try:
            teams.append((path.stem, read_team_file(path)))
        except InvalidCardError as exc:
            problems.extend(exc.problems)
    if problems:
        return _fail("bad team file:\n  " + "\n  ".join(problems))
    if len(teams) < 2:
        return _fail(f"{folder}: one team file ({files[0].name}): a pair needs two")
    # On a neutral court a pair's other order is its mirror image: each pair once. Not
    # with the coach policy: the visitor has the ball first, and the policy reads who leads.
    once = neutral and not rules.strategy
    pairs = [
        (i, j)
        for i in range(len(teams))
        for j in range(len(teams))
        if i != j and not (once and j < i)
    ]
    rows = []
    try:
        solved = exact_field_odds([card for _, card in teams], pairs, rules=rules, neutral=neutral)
        for i, j in pairs:
            odds = solved[(i, j)]
            rows.append(
                [
                    teams[i][0],
                    teams[j][0],
                    f"{odds.p_home_win:.12f}",
                    f"{odds.p_overtime:.12f}",
                    f"{odds.expected_home_pts:.9f}",
                    f"{odds.expected_away_pts:.9f}",
                    f"{odds.p_away_win:.12f}",
                    f"{odds.expected_overtimes:.12f}",
                ]
            )
    except InvalidCardError as exc:
        return _fail("\n  ".join(exc.problems))
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(
        [
            "home",
            "away",
            # interchange.md's columns in its order; the two it does not name after them
            "p_home_win",
            "p_overtime",
            "expected_home_pts",
            "expected_away_pts",
            "p_away_win",
            "expected_overtimes",
        ]
    )
    writer.writerows(rows)
    try:
        out.write_text(text.getvalue(), encoding="utf-8")
    except OSError as exc:
        return _fail(f"{out}: cannot be written ({exc.strerror})")
    print(f"{len(rows)} pairs written to {out}")
    return 0
