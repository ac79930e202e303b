"""The calibration: the field's cards played against each other beside the author's figures.

No database: the three fixture team files are played a few games a pair, and the command
reads them from a temporary directory.
"""

from __future__ import annotations

import doctest
import io
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

import cards.calibration
from cards.calibration import (
    FIELD_AVERAGE,
    PUBLISHED,
    RATING,
    Entry,
    Figure,
    TeamRow,
    calibrate,
    errors,
    game_seed,
    schedule,
)
from cards.management.commands.calibrate import MARKER
from simulator.vabg import TeamCard, read_team_file

TEAMS = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
# The rulebook's three sample teams: a small field that keeps these tests fast.
SAMPLE = [
    TEAMS / n for n in ("kansas-2008.json", "kentucky-2012.json", "san-diego-state-2011.json")
]


@pytest.fixture(scope="module")
def teams() -> list[TeamCard]:
    return [read_team_file(p) for p in SAMPLE]


@pytest.fixture
def field_files(tmp_path: Path) -> tuple[Path, Path]:
    teams_dir = tmp_path / "teams"
    teams_dir.mkdir()
    for path in SAMPLE:
        shutil.copy(path, teams_dir / path.name)
    field = tmp_path / "field.csv"
    field.write_text(
        "school,year,predicted_pts,predicted_allowed,srs\n"
        "Kansas,2008,74,61?,\n"
        "Kentucky,2012,,,37\n"
        "Utah,?,70,60,\n"
        "Arizona,1997,83,74,\n",
        encoding="utf-8",
    )
    return teams_dir, field


def test_the_calibration_imports_no_django() -> None:
    code = "import sys, cards.calibration; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_calibrations_examples_hold() -> None:
    assert doctest.testmod(cards.calibration).failed == 0


def test_the_same_seed_gives_the_same_figures(teams: list[TeamCard]) -> None:
    entries = [(t, None, None) for t in teams]
    first = calibrate(entries, games=2, seed=5)
    assert calibrate(list(reversed(entries)), games=2, seed=5) == first
    assert calibrate(entries, games=2, seed=6).rows != first.rows


def test_every_team_meets_every_other_and_points_for_are_the_opponents_points_against(
    teams: list[TeamCard],
) -> None:
    result = calibrate([(t, None, None) for t in teams], games=3, seed=1)
    assert result.games == 3 * 3
    assert [(r.games, r.opponents) for r in result.rows] == [(6, 2)] * 3
    a, b = teams[0].label, teams[1].label
    assert result.pair(a, b).points_for == result.pair(b, a).points_against
    assert result.pair(a, b).points_against == result.pair(b, a).points_for
    for row in result.rows:
        totals = [
            result.pair(row.label, other.label) for other in teams if other.label != row.label
        ]
        assert row.scored.simulated * row.games == sum(t.points_for for t in totals)
        assert row.allowed.simulated * row.games == sum(t.points_against for t in totals)
    points = sum(r.scored.simulated * r.games for r in result.rows)
    assert points == sum(r.allowed.simulated * r.games for r in result.rows)
    assert result.field_average == pytest.approx(points / (2 * result.games))


def test_a_pairs_games_do_not_change_when_a_team_joins_the_field(teams: list[TeamCard]) -> None:
    two = calibrate([(t, None, None) for t in teams[:2]], games=2, seed=3)
    three = calibrate([(t, None, None) for t in teams], games=2, seed=3)
    a, b = teams[0].label, teams[1].label
    assert two.pair(a, b) == three.pair(a, b)
    assert game_seed(3, a, b, 1) == game_seed(3, b, a, 1) != game_seed(3, a, b, 0)


def test_a_sampled_schedule_gives_every_team_the_same_number_of_opponents() -> None:
    labels = [f"Team {i}" for i in range(11)]
    pairs = schedule(labels, opponents=4, seed=9)
    met = {label: sum(label in pair for pair in pairs) for label in labels}
    assert set(met.values()) == {4}
    assert len(set(pairs)) == len(pairs) == 22
    assert schedule(labels, opponents=4, seed=9) == pairs != schedule(labels, opponents=4, seed=8)
    assert len(schedule(labels, opponents=10, seed=9)) == 55


def test_the_published_figures_become_the_targets_and_a_rating_the_others(
    teams: list[TeamCard],
) -> None:
    kansas, kentucky, sdsu = teams
    result = calibrate(
        [Entry(kansas, 74, 61), Entry(kentucky, None, None, 16.0), Entry(sdsu)], games=2, seed=1
    )
    rows = {r.label: r for r in result.rows}
    assert (rows["Kansas 2008"].scored.target, rows["Kansas 2008"].scored.source) == (74, PUBLISHED)
    assert (rows["Kentucky 2012"].scored.target, rows["Kentucky 2012"].allowed.target) == (75, 59)
    assert rows["Kentucky 2012"].scored.source == RATING
    assert (
        rows["San Diego State 2011"].allowed.target,
        rows["San Diego State 2011"].allowed.source,
    ) == (67, FIELD_AVERAGE)
    assert result.published.figures == 2 and result.targets.figures == 4


def _row(label: str, scored: Figure, allowed: Figure) -> TeamRow:
    return TeamRow(label, label, 2000, 10, 9, scored, allowed, None)


def test_the_mean_absolute_error_counts_only_published_figures() -> None:
    rows = [
        _row("A", Figure(70, 0.5, 68, PUBLISHED), Figure(60, 0.5, 63, PUBLISHED)),  # +2, -3
        _row("B", Figure(65, 0.5, 66, PUBLISHED), Figure(71, 0.5, 67, RATING)),  # -1; +4 not
        _row("C", Figure(80, 0.5, 67, FIELD_AVERAGE), Figure(50, 0.5, 67, FIELD_AVERAGE)),
    ]
    published = errors(rows, PUBLISHED)
    assert published.scored == pytest.approx(1.5)
    assert published.allowed == pytest.approx(3.0)
    assert published.both == pytest.approx(2.0)
    assert published.bias_scored == pytest.approx(0.5)
    assert published.bias_allowed == pytest.approx(-3.0)
    assert published.figures == 3
    others = errors(rows, RATING, FIELD_AVERAGE)
    assert others.scored == 13
    assert others.allowed == pytest.approx(10.5)
    assert others.both == pytest.approx(34 / 3)
    assert errors(rows[2:], PUBLISHED).both is None


def test_it_refuses_a_team_twice_and_a_field_of_one(teams: list[TeamCard]) -> None:
    with pytest.raises(ValueError, match="Kansas 2008 is in the field twice"):
        calibrate([(teams[0], None, None), (replace(teams[0]), None, None)])
    with pytest.raises(ValueError, match="at least 2 teams"):
        calibrate([(teams[0], None, None)])


def test_the_command_writes_every_team_and_the_mae(
    field_files: tuple[Path, Path], tmp_path: Path
) -> None:
    teams_dir, field = field_files
    out = tmp_path / "calibration.md"
    stdout = io.StringIO()
    args = ["--teams-dir", str(teams_dir), "--field", str(field), "--games", "2", "--out", str(out)]
    call_command("calibrate", *args, stdout=stdout)
    page = out.read_text(encoding="utf-8")
    for label in ("Kansas 2008", "Kentucky 2012", "San Diego State 2011"):
        assert f"| {label} | 4 |" in page
    assert "**MAE against published figures (2 figures): for " in page
    assert "| 74 |" in page and "| 61? |" in page
    assert "| +16 |" in page  # Kentucky's SRS 37, less 21
    assert "none: field average" in page  # San Diego State
    assert "- Arizona 1997: 83-74" in page and "Utah" not in page
    assert "2 games a pair" in page and "Seed: 0." in page
    assert "MAE against published figures (2 figures)" in stdout.getvalue()

    # the hand-written part above the marker is kept; the same inputs give the same page
    out.write_text("# My notes\n\nKept.\n" + MARKER + "\nold table\n", encoding="utf-8")
    call_command("calibrate", *args, stdout=io.StringIO())
    again = out.read_text(encoding="utf-8")
    assert again.startswith("# My notes\n\nKept.\n" + MARKER)
    assert "old table" not in again
    assert again.split(MARKER)[1] == page.split(MARKER)[1]


def test_the_command_refuses_a_bad_team_file(
    field_files: tuple[Path, Path], tmp_path: Path
) -> None:
    teams_dir, field = field_files
    (teams_dir / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match=r"broken\.json: not valid JSON"):
        call_command(
            "calibrate", "--teams-dir", str(teams_dir), "--field", str(field),
            "--out", str(tmp_path / "x.md"),
        )  # fmt: skip
    assert not (tmp_path / "x.md").exists()


@pytest.mark.django_db
def test_the_command_plays_the_teams_in_the_database_like_their_files(
    field_files: tuple[Path, Path], tmp_path: Path
) -> None:
    from cards.services import teams_import

    teams_dir, field = field_files
    teams_import(files=[(p.name, p.read_text()) for p in sorted(teams_dir.glob("*.json"))])
    common = ["--field", str(field), "--games", "2"]
    call_command(
        "calibrate", "--from-db", *common, "--out", str(tmp_path / "db.md"), stdout=io.StringIO()
    )
    call_command(
        "calibrate",
        "--teams-dir",
        str(teams_dir),
        *common,
        "--out",
        str(tmp_path / "files.md"),
        stdout=io.StringIO(),
    )
    tables = [(tmp_path / n).read_text().split("## Result")[1] for n in ("db.md", "files.md")]
    assert tables[0] == tables[1]
    assert "Teams: 3, the teams in the database." in (tmp_path / "db.md").read_text()
