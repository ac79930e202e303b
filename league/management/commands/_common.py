"""What the league's commands share: finding seasons and teams by the names users type."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from datetime import date
from typing import Any, TextIO

from django.core.management.base import CommandError, CommandParser
from tqdm import tqdm

from cards.lookup import TeamNotFound, team_named
from cards.models import Team
from league import services
from league.models import League, Season
from simulator.games import game_names


def teams_anywhere(parser: CommandParser) -> CommandParser:
    """Let a command's TEAM ... arguments come after its options as well as before them
    (``create_season LEAGUE NAME --conferences none "Kentucky 2012" ...``): argparse hands
    an optional list of positionals out empty at the first option and then refuses the
    teams after it as "unrecognized arguments"."""
    parser.parse_args = parser.parse_intermixed_args  # type: ignore[method-assign]
    return parser


def date_argument(text: str) -> date:
    """Read a command's date (``--date``, ``--until``, ``--start``), refusing anything but
    YYYY-MM-DD in words (argparse's own said "invalid fromisoformat value")."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date: write YYYY-MM-DD, e.g. 2026-03-15"
        ) from None


def season_find(text: str) -> Season:
    """Find a season by id, by "League/season-slug" or by a unique season name or slug."""
    seasons = Season.objects.select_related("league")
    if text.isdigit():
        found = seasons.filter(pk=int(text))
    elif "/" in text:
        league, _, name = text.partition("/")
        found = seasons.filter(league__slug=league, slug=name) | seasons.filter(
            league__name=league, name=name
        )
    else:
        found = seasons.filter(slug=text) | seasons.filter(name=text)
    found = found.distinct()
    if not found:
        known = ", ".join(f"{s.league.slug}/{s.slug}" for s in seasons[:20]) or "none yet"
        raise CommandError(f"no season {text!r} (known: {known})")
    if len(found) > 1:
        names = ", ".join(f"{s.league.slug}/{s.slug}" for s in found)
        raise CommandError(f"{text!r} names several seasons: {names}; say league/season")
    return found[0]


def team_find(text: str) -> Team:
    """Find a team written "School SEASON", e.g. "Kentucky 2012" (the school in any case, as
    ``export_team`` reads it)."""
    try:
        return team_named(text)
    except TeamNotFound as exc:
        raise CommandError(str(exc)) from exc


def league_for(name: str) -> League:
    """Find or create the league a command names; a bad name is a clear CommandError."""
    try:
        return services.league_get_or_create(name=name)
    except services.SeasonRefused as exc:
        raise CommandError(str(exc)) from exc


def add_game_arguments(parser: CommandParser) -> None:
    """Add ``--game`` and ``--option NAME=VALUE`` (repeatable) to a command."""
    parser.add_argument(
        "--game",
        choices=game_names(),
        default=None,
        help="the game its games play (default: the league's game, vabg for a new league)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option of the game, e.g. pieces=3 (grid court) or chip_reroll=true "
        "(six dice); values are read as JSON when they can be",
    )


def game_choice(options: dict[str, Any]) -> dict[str, Any]:
    """Return the ``game`` and ``options`` keywords of a season or tournament service."""
    values: dict[str, object] = {}
    for text in options["option"]:
        name, sep, raw = text.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"write an option as NAME=VALUE, e.g. pieces=3; got {text!r}")
        try:
            value: object = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        values[name.strip()] = value
    return {"game": options["game"], "options": values}


PROGRESS_EVERY = 10.0
"""Seconds between two progress lines when a command writes to a log, not a terminal."""


def progress_report(
    label: str,
    total: int,
    stream: TextIO,
    *,
    quiet: bool,
    already: int = 0,
    unit: str = "game",
) -> tuple[Callable[[int], object], Callable[[], object]]:
    """Return how a command reports ``n`` games (or other ``unit``) done of ``total``, and
    what ends the report.

    On a terminal, a progress bar. Written to a file or a pipe (nohup, cron, a job's log), a
    bar's redraws would be one endless line of carriage returns: there, a plain line every
    :data:`PROGRESS_EVERY` seconds and one at the end ("LABEL: 1,200 of 3,800 games (32%),
    95 a second"), its rate counting the games done since it began (not the ``already``
    done of a run it resumes or follows)."""
    if quiet:
        return (lambda n: None), (lambda: None)
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        bar = tqdm(total=total, initial=already, unit=unit, desc=label, file=stream)
        return (lambda n: bar.update(n - bar.n)), bar.close
    start = time.monotonic()
    shown = {"games": -1, "pending": -1}
    shown_at = [-PROGRESS_EVERY]

    def line(n: int) -> None:
        seconds = time.monotonic() - start
        done = n - already
        rate = f", {done / seconds:,.0f} a second" if done and seconds > 0 else ""
        share = n / total if total else 1
        stream.write(f"{label}: {n:,} of {total:,} {unit}s ({share:.0%}){rate}\n")
        stream.flush()
        shown["games"], shown_at[0] = n, seconds

    def report(n: int) -> None:
        shown["pending"] = n
        if time.monotonic() - start - shown_at[0] >= PROGRESS_EVERY:
            line(n)

    def close() -> None:
        if shown["pending"] != shown["games"]:
            line(shown["pending"])

    return report, close
