"""``manage.py calibrate``: play the field's cards and compare them with the author's scores."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm  # type: ignore[import-untyped]

from cards.calibration import (
    FIELD_AVERAGE,
    SRS_OFFSET,
    Calibration,
    Entry,
    Errors,
    Figure,
    TeamRow,
    calibrate,
    schedule,
)
from cards.mapping import team_card, teams_for_play
from simulator.vabg import InvalidCardError, TeamCard, read_team_file

BASE = Path(settings.BASE_DIR)
TEAMS_DIR = BASE / "fixtures" / "teams"
FIELD_CSV = BASE / "fixtures" / "field" / "alltime96.csv"
SHARED_FIELD_CSV = Path(settings.SHARED_DIR) / "data" / "alltime96_teams.csv"
OUT = BASE / "docs" / "calibration.md"
MARKER = "<!-- Everything below is written by `manage.py calibrate`; edit only above this line. -->"
MAE_GOAL = 2.0

HEADER = """\
# Calibration: the field's cards against the author's predicted scores

For the 96-team all-time field (November 2019) the author published, for 22 teams, the
points a game the team's cards score and allow against the rest of the field
(`predicted_pts`, `predicted_allowed` in `fixtures/field/alltime96.csv`). Our cards,
calculated by `cards/calculator.py` (docs/cards.md) and played by our engine, should give
the same figures. This page plays them and says how close they come.

## How it is measured

Every team plays every other team of the field (or, with `--opponents K`, the same K
opponents each, drawn by the seed), `--games G` games a pair, with the **advanced** rules on
a **neutral** court (`simulator.vabg.play_game(..., rules=preset("advanced"), neutral=True)`),
the two teams taking turns to be listed first. Each game's dice seed comes from the master
seed and the two teams' names (`cards.calibration.game_seed`), so the same teams and seed
give the same page, and a pair's games do not change when teams join the field. For each
team: its points for and against a game (mean ± standard error), the published figure, and
the difference (simulated - published: positive means the cards score, or allow, too much).
The **mean absolute error** (MAE) over the published figures is the headline; the goal is
under 2 points. The bias is the mean signed difference.

## Teams without published figures

The card calculator aims every team's dunk range at a target (docs/cards.md §10.1):
`predicted_pts` and `predicted_allowed` when published, else **67 + rating/2** points for
and **67 - rating/2** against. 67 is the field's average (the 22 published predictions
average 68.0 scored and 66.5 allowed); the rating is the team's net points a game against
the field of great teams (0 = an average great team). It comes from the team's real season:
its **SRS** (average scoring margin plus strength of schedule), less **21**, the author's
offset for how much better the average great team is than an average Division I team
(`../shared/data/card_method_notes.md` §7: "the sheet's SRS is the real SRS minus 21").
The command reads it from the field file's optional `rating` column (already net against
the field) or `srs` column (the real SRS, 21 subtracted); a team with neither is aimed at
the field average, 67-67, as the calculator does (its rating counts as 0). These teams are
listed with their targets and a separate MAE; they do not count in the headline.

## How to run it

```
.venv/bin/python manage.py calibrate                      # fixtures/teams, every pair, 2 games
.venv/bin/python manage.py calibrate --from-db --games 4  # the teams loaded in the database
.venv/bin/python manage.py calibrate --opponents 20 --games 10 --seed 7 --out cal.md
.venv/bin/python bench/calibration.py --out docs/calibration.md   # the full run, timed
```

Options: `--teams-dir DIR` (team files, default `fixtures/teams`) or `--from-db`;
`--field CSV` (columns `school`, `season` or `year`, `predicted_pts`, `predicted_allowed`,
optional `rating`, `srs`; default `fixtures/field/alltime96.csv`, else the shared
`alltime96_teams.csv`; a value ending in `?` is used without it and marked inferred);
`--opponents K`, `--games G`, `--seed S`, `--strategy` (the coach policy on) and `--out`
(default `docs/calibration.md`). The command keeps whatever is above the marker line below
and rewrites the rest; it prints the MAE. The full field round robin (96 teams, 4,560 pairs)
at the bench's 10 games a pair is 45,600 games: under half a minute at about 2,500 games a
second on one core. The test suite runs the command on three teams with two games a pair.

"""


@dataclass(frozen=True, slots=True)
class FieldRow:
    """One row of the field file: the author's figures and the team's rating."""

    school: str
    season: int
    published_pts: float | None
    published_allowed: float | None
    rating: float | None
    pts_inferred: bool
    allowed_inferred: bool


class Command(BaseCommand):
    help = (
        "Play every team of the field against the rest (advanced rules, neutral court) and "
        "write docs/calibration.md: each team's simulated points for and against beside the "
        "author's published predicted_pts/predicted_allowed, and the mean absolute error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--teams-dir", help="a directory of vabg-team/1 files (default: fixtures/teams)"
        )
        source.add_argument("--from-db", action="store_true", help="the teams in the database")
        parser.add_argument(
            "--field",
            help="school, season (or year), predicted_pts, predicted_allowed[, rating, srs] "
            "(default: fixtures/field/alltime96.csv, else the shared alltime96_teams.csv)",
        )
        parser.add_argument(
            "--opponents", type=int, help="opponents a team (default: every other team)"
        )
        parser.add_argument("--games", type=int, default=2, help="games a pair (default: 2)")
        parser.add_argument("--seed", type=int, default=0, help="master seed (default: 0)")
        parser.add_argument("--strategy", action="store_true", help="the coach policy on")
        parser.add_argument("--out", default=str(OUT), help="default: docs/calibration.md")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if options["opponents"] is not None and options["opponents"] < 1:
            raise CommandError("--opponents must be at least 1.")
        if options["from_db"]:
            teams = [team_card(t) for t in teams_for_play().order_by("school", "season")]
            teams_source = "the teams in the database"
        else:
            teams_dir = Path(options["teams_dir"] or TEAMS_DIR)
            teams = _read_teams(teams_dir)
            teams_source = f"the team files of `{_shown(teams_dir)}`"
        if len(teams) < 2:
            raise CommandError(
                f"The field needs at least 2 teams; {teams_source} has {len(teams)}."
            )
        field_path = Path(options["field"]) if options["field"] else _default_field()
        field = read_field(field_path)
        entries = []
        for card in teams:
            row = field.get(field_key(card.school, card.season))
            if row is None:
                entries.append(Entry(card))
            else:
                published = (row.published_pts, row.published_allowed)
                inferred = (row.pts_inferred, row.allowed_inferred)
                entries.append(Entry(card, *published, row.rating, *inferred))
        labels = [card.label for card in teams]
        pairs = schedule(labels, opponents=options["opponents"], seed=options["seed"])
        with tqdm(
            total=len(pairs) * options["games"], unit="game", desc="calibrate", disable=None
        ) as bar:
            try:
                result = calibrate(
                    entries,
                    games=options["games"],
                    opponents=options["opponents"],
                    seed=options["seed"],
                    strategy=options["strategy"],
                    progress=bar.update,
                )
            except ValueError as exc:
                raise CommandError(f"{exc}.") from exc
        played = {field_key(card.school, card.season) for card in teams}
        not_played = [
            r for key, r in field.items()
            if key not in played and not (r.published_pts is None is r.published_allowed)
        ]  # fmt: skip
        run = [
            f"Teams: {len(teams)}, {teams_source}.",
            f"Field figures: `{_shown(field_path)}`.",
            f"Rules: {result.rules}, neutral court"
            + (", coach policy on." if options["strategy"] else ", coach policy off."),
            "Schedule: "
            + (
                "every team against every other"
                if options["opponents"] is None or options["opponents"] >= len(teams) - 1
                else f"{options['opponents']} opponents a team, drawn by the seed"
            )
            + f", {options['games']} games a pair, first-listed team alternating; "
            f"{len(pairs):,} pairs, {result.games:,} games.",
            f"Seed: {options['seed']}.",
            f"Command: `manage.py calibrate {_command_line(options)}`.",
        ]
        out = Path(options["out"])
        write_report(out, render(result, run=run, not_played=not_played))
        self.stdout.write(f"{result.games:,} games, {len(teams)} teams")
        self.stdout.write(mae_line(result.published, len(result.rows)))
        if result.targets.figures:
            self.stdout.write(targets_line(result.targets))
        self.stdout.write(f"wrote {out}")


def _default_field() -> Path:
    if FIELD_CSV.exists():
        return FIELD_CSV
    if SHARED_FIELD_CSV.exists():
        return SHARED_FIELD_CSV
    raise CommandError(f"No field file: neither {FIELD_CSV} nor {SHARED_FIELD_CSV} exists.")


def _shown(path: Path) -> str:
    """Return a path relative to the project when it is inside it, so the page stays the same."""
    try:
        return str(path.resolve().relative_to(BASE.resolve()))
    except ValueError:
        return str(path)


def _command_line(options: dict[str, Any]) -> str:
    parts = []
    if options["from_db"]:
        parts.append("--from-db")
    elif options["teams_dir"]:
        parts.append(f"--teams-dir {_shown(Path(options['teams_dir']))}")
    if options["field"]:
        parts.append(f"--field {_shown(Path(options['field']))}")
    if options["opponents"] is not None:
        parts.append(f"--opponents {options['opponents']}")
    parts.append(f"--games {options['games']} --seed {options['seed']}")
    if options["strategy"]:
        parts.append("--strategy")
    return " ".join(parts)


def _read_teams(directory: Path) -> list[TeamCard]:
    paths = sorted(directory.glob("*.json"))
    if not paths:
        raise CommandError(f"No team files (*.json) in {directory}.")
    teams: list[TeamCard] = []
    problems: list[str] = []
    for path in paths:
        try:
            teams.append(read_team_file(path))
        except InvalidCardError as exc:
            problems.extend(exc.problems)
    if problems:
        raise CommandError("Nothing was played:\n  " + "\n  ".join(problems))
    return teams


# -- the field file ------------------------------------------------------------------------


def field_key(school: str, season: int) -> tuple[str, int]:
    """Return the key a team is matched on: the school without case or punctuation."""
    name = re.sub(r"\bst\.?$", "state", school.strip().casefold())
    return re.sub(r"[^0-9a-z]+", "", name.replace("&", "and")), season


def _value(text: str | None, where: str) -> tuple[float | None, bool]:
    """Return a number and whether it was marked inferred (``67?``); ``None`` when empty."""
    text = (text or "").strip()
    inferred = text.endswith("?")
    text = text.rstrip("?").strip()
    if not text:
        return None, False
    try:
        return float(text), inferred
    except ValueError:
        raise CommandError(f"{where}: {text!r} is not a number.") from None


def read_field(path: Path) -> dict[tuple[str, int], FieldRow]:
    """Read the field file; rows without a readable season (``?``, notes) are skipped."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            header = [name.strip().lower() for name in reader.fieldnames or ()]
            reader.fieldnames = header
            rows = list(reader)
    except OSError as exc:
        raise CommandError(f"{path}: cannot be read ({exc.strerror}).") from exc
    season_column = "season" if "season" in header else "year"
    missing = [c for c in ("school", season_column) if c not in header]
    if missing:
        raise CommandError(f"{path}: there is no column {', '.join(missing)}.")
    field: dict[tuple[str, int], FieldRow] = {}
    for number, row in enumerate(rows, start=2):
        where = f"{path.name} row {number}"
        school = (row.get("school") or "").strip()
        season_text = (row.get(season_column) or "").strip()
        year = re.match(r"\d{4}", season_text)
        if not school or school == "?" or year is None:
            continue  # the shared file's rows whose season is not known yet
        pts, pts_inferred = _value(row.get("predicted_pts"), f"{where}, column predicted_pts")
        allowed, allowed_inferred = _value(
            row.get("predicted_allowed"), f"{where}, column predicted_allowed"
        )
        rating, _ = _value(row.get("rating"), f"{where}, column rating")
        if rating is None:
            srs, _ = _value(row.get("srs"), f"{where}, column srs")
            rating = None if srs is None else srs - SRS_OFFSET
        key = field_key(school, int(year.group()))
        if key in field:
            continue  # the first row of a team wins, as the field lists it
        field[key] = FieldRow(
            school=school,
            season=int(year.group()),
            published_pts=pts,
            published_allowed=allowed,
            rating=rating,
            # a season marked '?' makes the figures' team itself a guess
            pts_inferred=pts_inferred or "?" in season_text,
            allowed_inferred=allowed_inferred or "?" in season_text,
        )
    return field


# -- the page --------------------------------------------------------------------------------


def _n(x: float | None, sign: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{x:+.1f}" if sign else f"{x:.1f}"


def _g(x: float | None) -> str:
    return "?" if x is None else f"{x:g}"


def mae_line(errors: Errors, teams: int) -> str:
    """Return the headline MAE line (the same on the page and on stdout)."""
    if errors.both is None:
        return (
            f"MAE against published figures: n/a (none of the {teams} teams has a published "
            "predicted_pts or predicted_allowed)"
        )
    verdict = "under" if errors.both < MAE_GOAL else "not under"
    return (
        f"MAE against published figures ({errors.figures} figures): for {_n(errors.scored)}, "
        f"against {_n(errors.allowed)}, together {_n(errors.both)} points "
        f"({verdict} the goal of {MAE_GOAL:g}); bias for {_n(errors.bias_scored, True)}, "
        f"against {_n(errors.bias_allowed, True)}"
    )


def targets_line(errors: Errors) -> str:
    """Return the MAE line of the teams aimed at a rating or the field average."""
    return (
        f"MAE against the calculator's targets for the other teams ({errors.figures} figures): "
        f"for {_n(errors.scored)}, against {_n(errors.allowed)}, together {_n(errors.both)}; "
        f"bias for {_n(errors.bias_scored, True)}, against {_n(errors.bias_allowed, True)}"
    )


def _figure(f: Figure) -> list[str]:
    mark = "?" if f.inferred else ""
    return [f"{f.simulated:.1f} ± {f.stderr:.1f}", f"{f.target:g}{mark}", _n(f.error, True)]


def _rating(row: TeamRow) -> str:
    if row.rating is None:
        return "none: field average"
    return f"{row.rating:+g}"


def render(result: Calibration, *, run: list[str], not_played: list[FieldRow]) -> str:
    """Return the generated part of the page: how it was run, the MAE and every team."""
    published = [r for r in result.rows if r.published]
    others = [r for r in result.rows if not r.published]
    lines = ["## Run", ""]
    lines += [f"- {line}" for line in run]
    lines += [
        f"- Field average: {result.field_average:.1f} points a team a game "
        f"(the calculator aims at 67).",
        "",
        "## Result",
        "",
        f"**{mae_line(result.published, len(result.rows))}.**",
        "",
    ]
    if result.targets.figures:
        lines += [f"{targets_line(result.targets)}.", ""]
    lines += ["## Teams with published figures", ""]
    if published:
        lines += [
            "| team | games | PF simulated | PF published | diff "
            "| PA simulated | PA published | diff |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in published:
            cells = [r.label, str(r.games), *_figure(r.scored), *_figure(r.allowed)]
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "A published figure marked `?` is inferred in the source.", ""]
    else:
        lines += ["None of the teams played has a published figure.", ""]
    lines += ["## Teams without published figures", ""]
    if others:
        lines += [
            "Calibrated to 67 ± rating/2 (docs/cards.md §10.1; the rating is the real "
            "season's SRS - 21, see above).",
            "",
            "| team | games | PF simulated | PF target | diff | PA simulated | PA target | diff "
            "| rating |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for r in others:
            cells = [r.label, str(r.games), *_figure(r.scored), *_figure(r.allowed), _rating(r)]
            lines.append("| " + " | ".join(cells) + " |")
        if any(r.scored.source == FIELD_AVERAGE for r in others):
            lines += [
                "",
                "A team with no rating in the field file is aimed at the field average "
                "(67-67), as the calculator aims it; add its `rating` or `srs` to measure it "
                "against its real season.",
            ]
        lines.append("")
    else:
        lines += ["Every team played has published figures.", ""]
    if not_played:
        lines += [
            "## Published figures with no team played",
            "",
            "These teams of the field file have published figures but were not in the "
            "teams played:",
            "",
        ]
        lines += [
            f"- {r.school} {r.season}: {_g(r.published_pts)}-{_g(r.published_allowed)}"
            + (" (inferred)" if r.pts_inferred or r.allowed_inferred else "")
            for r in sorted(not_played, key=lambda r: (r.school, r.season))
        ]
        lines.append("")
    return "\n".join(lines)


def write_report(path: Path, generated: str) -> None:
    """Write the page: the hand-written part above the marker kept (or the default one)."""
    header = HEADER
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if MARKER in text:
            header = text.split(MARKER, 1)[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + MARKER + "\n\n" + generated, encoding="utf-8")
