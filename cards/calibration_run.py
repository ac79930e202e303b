"""``manage.py calibrate`` as a module: the author's first-game predictions played exactly,
pair by pair, and the page docs/calibration.md that shows them (the command is its shell).

:func:`run_calibration` reads the teams (files or the database), the field, the real seasons
and the printed numbers, plays every predicted game exactly as tournaments play it
(advanced rules, the coach policy on, neutral court), optionally rebuilds the field once
for each half of the games without that half's predictions (the out-of-sample figure), and
writes the page; it returns the lines the command prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from cards.calibration import (
    MARGIN_SIGMA,
    ExactOdds,
    FirstGame,
    Fold,
    GameErrors,
    GameResult,
    PairModel,
    field_targets,
    fit_model,
    game_errors,
    measure_games,
)
from cards.field import (
    FieldError,
    field_games,
    field_holdout,
    field_ratings,
    field_seasons,
    kept_files,
    read_csv,
    read_field,
    read_printed,
)
from cards.mapping import team_card, teams_for_play
from cards.oddscache import read_odds_cache, write_odds_cache
from simulator.vabg import InvalidCardError, TeamCard, read_team_file

BASE = Path(settings.BASE_DIR)
TEAMS_DIR = BASE / "fixtures" / "teams"
FIELD_CSV = BASE / "fixtures" / "field" / "alltime96.csv"
OUT = BASE / "docs" / "calibration.md"
MARKER = "<!-- Everything below is written by `manage.py calibrate`; edit only above this line. -->"
GOAL_IN, GOAL_OUT = 2.0, 3.0
GOAL_SLOPE = (0.9, 1.1)
"""Issue 11: MAE within 2 points a team score in sample, 3 out of sample; slope 0.9-1.1."""

HEADER = """\
# Calibration: the author's first-game predictions, pair by pair

See the hand-written part of this page in the repository for how it is measured.

"""


@dataclass(frozen=True)
class CalibrationRequest:
    """What to calibrate: the teams (``teams_dir`` or ``from_db``), the field's files (each
    ``None`` for the default), the page, and whether to measure out of sample."""

    teams_dir: str | None = None
    from_db: bool = False
    field: str | None = None
    ratings: str | None = None
    printed: str | None = None
    out: str = str(OUT)
    holdout: bool = False
    odds_cache: str | None = None


def run_calibration(options: CalibrationRequest) -> list[str]:
    """Play the predicted games, write the page and return the lines to print; a source
    that cannot be read is a :class:`FieldError` naming it, and nothing is written."""
    if options.from_db:
        teams = [team_card(t) for t in teams_for_play().order_by("school", "season")]
        teams_source = "the teams in the database"
    else:
        teams_dir = Path(options.teams_dir or TEAMS_DIR)
        teams = _read_teams(teams_dir)
        teams_source = f"the team files of `{_shown(teams_dir)}`"
    if len(teams) < 2:
        raise FieldError(f"The field needs at least 2 teams; {teams_source} has {len(teams)}.")
    labels = [t.label for t in teams]
    if len(set(labels)) != len(labels):
        raise FieldError("A team is in the field twice.")
    field_path = Path(options.field or FIELD_CSV)
    field = read_field(field_path)
    ratings_path = Path(options.ratings or field_path.with_name("ratings.csv"))
    rating_rows = read_csv(ratings_path) if ratings_path.exists() else []
    printed_path = Path(options.printed or field_path.with_name("printed.csv"))
    team_facts = (
        read_printed(read_csv(printed_path), field, printed_path.name)[0]
        if printed_path.exists()
        else {}
    )
    ratings = field_ratings(field, rating_rows, ratings_path.name)
    seasons = field_seasons(field, ratings, rating_rows)
    playing = set(labels)
    games_all, unplaced = field_games(field)
    games = [g for g in games_all if g.first in playing and g.second in playing]
    not_played = [g for g in games_all if g not in games]
    # one strength scale (docs/field.md): every team's dunk numbers are aimed, the whole
    # field is the reference
    reference = labels
    odds = ExactOdds(teams)
    dunks = odds.dunks()
    model = fit_model(games, seasons, labels)
    results = measure_games(odds, games, dunks)
    halves = None
    if options.holdout:
        cache = Path(options.odds_cache) if options.odds_cache else None
        store = read_odds_cache(cache) if cache is not None else None
        halves = field_holdout(
            field=field,
            roster_rows=read_csv(field_path.with_name("rosters.csv")),
            rating_rows=rating_rows or None,
            keep=kept_files(TEAMS_DIR, field)[0],
            printed=team_facts,
            store=store,
        )
        if cache is not None and store is not None:
            write_odds_cache(cache, store)
    targets = field_targets(model, seasons, labels, reference)
    means = {x: odds.means(x, dunks, reference) for x in labels}
    run = [
        f"Teams: {len(teams)}, {teams_source}.",
        f"Field: `{_shown(field_path)}`; real seasons: `{_shown(ratings_path)}`"
        + ("" if rating_rows else " (not found: every team rated average)")
        + ".",
        "Rules: advanced, neutral court, coach policy on (what tournaments play); exact "
        "odds (simulator/vabg/coachodds.py), no sampling.",
        f"Games computed exactly: {odds.evaluated:,}.",
        f"Command: `manage.py calibrate {_command_line(options)}`.",
    ]
    page = render(
        results=results,
        halves=halves,
        model=model,
        targets=targets,
        means=means,
        reference=reference,
        seasons_known={x: seasons[x].rating is not None for x in seasons},
        run=run,
        not_played=not_played,
        unplaced=unplaced,
    )
    out = Path(options.out)
    write_report(out, page)
    printed = [
        f"{len(teams)} teams, {len(games)} predicted games",
        errors_line("in sample", game_errors(results)),
    ]
    if halves is not None:
        pooled = [r for h in halves for r in h.results]
        printed.append(errors_line("out of sample", game_errors(pooled)))
    return [*printed, f"wrote {out}"]


def _shown(path: Path) -> str:
    """Return a path relative to the project when it is inside it, so the page stays the same."""
    try:
        return str(path.resolve().relative_to(BASE.resolve()))
    except ValueError:
        return str(path)


def _command_line(options: CalibrationRequest) -> str:
    parts = []
    if options.holdout:
        parts.append("--holdout")
    if options.from_db:
        parts.append("--from-db")
    elif options.teams_dir:
        parts.append(f"--teams-dir {_shown(Path(options.teams_dir))}")
    for name in ("field", "ratings", "printed"):
        value = getattr(options, name)
        if value:
            parts.append(f"--{name} {_shown(Path(value))}")
    return " ".join(parts)


def _read_teams(directory: Path) -> list[TeamCard]:
    paths = sorted(directory.glob("*.json"))
    if not paths:
        raise FieldError(f"No team files (*.json) in {directory}.")
    teams: list[TeamCard] = []
    problems: list[str] = []
    for path in paths:
        try:
            teams.append(read_team_file(path))
        except InvalidCardError as exc:
            problems.extend(exc.problems)
    if problems:
        raise FieldError("Nothing was played:\n  " + "\n  ".join(problems))
    return teams


# -- the page --------------------------------------------------------------------------------


def _n(x: float | None, sign: bool = False, digits: int = 1) -> str:
    if x is None:
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def errors_line(name: str, e: GameErrors) -> str:
    """Return one line of errors (the same on the page and on stdout)."""
    if not e.games:
        return f"{name}: no game"
    win = "n/a" if e.win_error is None else f"{100 * e.win_error:.1f}"
    return (
        f"{name} ({e.games} games, {2 * e.games} team scores): MAE {_n(e.mae)} points a team "
        f"score, bias {_n(e.bias, True)}; margin slope {_n(e.slope, digits=2)} "
        f"(played on predicted, 1 = his); win-probability error {win} points"
    )


def _verdict(e: GameErrors, goal: float) -> str:
    if e.mae is None or e.slope is None:
        return "not measured"
    lo, hi = GOAL_SLOPE
    mae = "within" if e.mae <= goal else "NOT within"
    slope = "within" if lo <= e.slope <= hi else "NOT within"
    return f"MAE {mae} {goal:g}, slope {slope} {lo:g}-{hi:g}"


def _model(m: PairModel) -> str:
    fitted = f"fitted on {m.games} games" if m.games else "defaults (fewer than 4 rated games)"
    return (
        f"compression {m.compression:.3f}, scale {m.scale:.3f} ({fitted}; field averages: "
        f"rating {m.rating_mean:+.1f}, points both ways {m.tempo_mean:.1f})"
    )


def _game_row(r: GameResult) -> str:
    g = r.game
    e1, e2 = r.errors
    mark = "?" if g.inferred else ""
    return (
        f"| {g.first} v {g.second} | {g.first_pts:g}-{g.second_pts:g}{mark} | "
        f"{r.first_pts:.1f}-{r.second_pts:.1f} | {e1:+.1f} | {e2:+.1f} | "
        f"{g.margin:+g} | {r.margin:+.1f} | {100 * r.author_p_first:.0f}% | "
        f"{100 * r.p_first:.0f}% |"
    )


GAME_HEADER = [
    "| game | predicted | played | diff 1st | diff 2nd | margin predicted | margin played "
    "| P(1st wins) his | P(1st wins) played |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
]


def render(
    *,
    results: list[GameResult],
    halves: tuple[Fold, Fold] | None,
    model: PairModel,
    targets: dict[str, tuple[float, float]],
    means: dict[str, tuple[float, float]],
    reference: list[str],
    seasons_known: dict[str, bool],
    run: list[str],
    not_played: list[FirstGame],
    unplaced: list[str],
) -> str:
    """Return the generated part of the page."""
    inside = game_errors(results)
    fitted = {x for r in results for x in (r.game.first, r.game.second)}
    lines = ["## Run", ""]
    lines += [f"- {line}" for line in run]
    lines += [
        f"- Pair model, all games: {_model(model)}.",
        f"- The author's win probability: Phi(margin / {MARGIN_SIGMA:.1f}), his guide "
        "'a 5-6 point underdog wins about 1 in 3'.",
        "",
        "## Result",
        "",
        f"- **In sample: {errors_line('the field as built', inside)}; "
        f"{_verdict(inside, GOAL_IN)}.**",
    ]
    if halves is None:
        lines.append(
            "- Out of sample: not measured in this run (`manage.py calibrate --holdout` "
            "rebuilds the field once for each half)."
        )
    else:
        pooled = game_errors([r for h in halves for r in h.results])
        lines.append(
            f"- **Out of sample: {errors_line('both halves', pooled)}; "
            f"{_verdict(pooled, GOAL_OUT)}.**"
        )
        for name, half in zip(("first", "second"), halves, strict=True):
            lines.append(
                f"- The {name} half, the field rebuilt without its predictions, the model "
                f"fitted on the other's {len(half.fitted_on)} games ({_model(half.model)}): "
                f"{errors_line('measured', game_errors(list(half.results)))}"
                + (
                    "; not measured (a team without a rating): "
                    + ", ".join(f"{g.first} v {g.second}" for g in half.left_out)
                    if half.left_out
                    else ""
                )
                + "."
            )
    lines += ["", "## The predicted games, in sample", ""]
    if results:
        lines += GAME_HEADER + [_game_row(r) for r in results]
        lines += ["", "A prediction marked `?` is inferred in the source.", ""]
    else:
        lines += ["None of the teams played has a predicted game.", ""]
    for name, half in zip(("first", "second"), halves or (), strict=False):
        lines += [f"## Out of sample: the {name} half", ""]
        if half.results:
            lines += GAME_HEADER + [_game_row(r) for r in half.results] + [""]
        else:
            lines += ["No game measured.", ""]
    if not_played or unplaced:
        lines += ["## Predictions not measured", ""]
        lines += [
            f"- {g.first} {g.first_pts:g}-{g.second_pts:g} {g.second}: a team is not played"
            for g in not_played
        ]
        lines += [f"- {u}" for u in unplaced]
        lines.append("")
    lines += [
        "## Every team against the pair model's targets",
        "",
        f"Mean expected points for and against over the field's {len(reference)} teams (one "
        "strength scale: every team's dunk numbers are aimed), beside the pair model's mean "
        "prediction over the same teams. `fitted` marks a team of a predicted game, fitted to "
        "the author's score of it instead.",
        "",
        "| team | PF played | PF target | diff | PA played | PA target | diff | rated "
        "| dunk numbers |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    aimed_errors = []
    for label in sorted(targets):
        (pf, pa), (tf, ta) = means[label], targets[label]
        numbers = "fitted" if label in fitted else "aimed"
        if label not in fitted:
            aimed_errors += [abs(pf - tf), abs(pa - ta)]
        lines.append(
            f"| {label} | {pf:.1f} | {tf:.1f} | {pf - tf:+.1f} | {pa:.1f} | {ta:.1f} | "
            f"{pa - ta:+.1f} | {'yes' if seasons_known.get(label) else 'no: average'} | "
            f"{numbers} |"
        )
    if aimed_errors:
        lines += [
            "",
            f"MAE of the teams aimed at the model (not fitted to a game): "
            f"{sum(aimed_errors) / len(aimed_errors):.2f} points ({len(aimed_errors)} figures; "
            "the teams of predicted games are off their field targets by design).",
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
