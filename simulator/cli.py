"""``python -m simulator play HOME.json AWAY.json ...`` (interchange.md, "Command line")."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from simulator.dice import DiceError, DiceSource, ScriptedDice, SeededDice
from simulator.vabg.cards import InvalidCardError, read_team_file
from simulator.vabg.engine import play_game
from simulator.vabg.render import render_box_score, render_play_by_play
from simulator.vabg.rules import preset

EXIT_BAD_INPUT = 2


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
        help="play one VABG game between two team files, with no database",
        description="Play one Value Add Basketball Game between two vabg-team/1 files.",
    )
    play.add_argument("home", type=Path, help="home team file (vabg-team/1 JSON)")
    play.add_argument("away", type=Path, help="visiting team file; it plays first")
    dice = play.add_mutually_exclusive_group()
    dice.add_argument("--seed", type=int, help="seed for reproducible dice (default: random)")
    dice.add_argument("--dice", type=Path, help="replay rolls from a vabg-dice/1 file")
    play.add_argument("--neutral", action="store_true", help="neutral site: no home court")
    play.add_argument(
        "--rules", choices=("basic", "advanced"), default="advanced", help="rules preset"
    )
    play.add_argument(
        "--strategy", action="store_true", help="let the coach policy foul, try for 3, etc."
    )
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument(
        "--play-by-play", action="store_true", help="print the play-by-play after the box score"
    )
    return parser


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for bad files or dice)."""
    args = build_parser().parse_args(argv)
    try:
        home = read_team_file(args.home)
        away = read_team_file(args.away)
    except InvalidCardError as exc:
        return _fail("bad team file:\n  " + "\n  ".join(exc.problems))
    source: DiceSource
    if args.dice is not None:
        try:
            data = json.loads(args.dice.read_text(encoding="utf-8"))
            source = ScriptedDice.from_json(data)
        except OSError as exc:
            return _fail(f"{args.dice}: cannot be read ({exc.strerror})")
        except json.JSONDecodeError as exc:
            return _fail(f"{args.dice}: not valid JSON ({exc.msg}, line {exc.lineno})")
        except DiceError as exc:
            return _fail(f"{args.dice}: {exc}")
    else:
        seed = args.seed
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**31)
        source = SeededDice(seed)
    rules = preset(args.rules, strategy=args.strategy)
    try:
        result = play_game(home, away, source, rules=rules, neutral=args.neutral)
    except DiceError as exc:
        return _fail(str(exc))
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
