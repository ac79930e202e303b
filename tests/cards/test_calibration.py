"""The calibration: the author's first-game predictions as pairs, played exactly.

No sampling: every game is the exact odds of simulator/vabg/odds.py. The command reads six
fixture team files (four predicted games) from a temporary directory; one test loads them
into the database.
"""

from __future__ import annotations

import doctest
import io
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

import cards.calibration
from cards.calibration import (
    ExactOdds,
    FirstGame,
    PairModel,
    Season,
    Seeded,
    aim,
    author_win_probability,
    first_games,
    fit_games,
    fit_model,
    folds,
    game_errors,
    game_key,
    measure_games,
)
from cards.calibration_run import MARKER
from cards.field import build, field_holdout, read_csv, read_field
from simulator.vabg import read_team_file

TEAMS = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
PAIRS = [
    TEAMS / f"{n}.json"
    for n in (
        "arkansas-1994", "auburn-2019", "george-mason-2006", "florida-2006",
        "west-virginia-1959", "auburn-1984",
    )
]  # fmt: skip
"""Six teams of the field whose first games the author predicted (four games)."""


@pytest.fixture
def field_files(tmp_path: Path) -> Path:
    teams_dir = tmp_path / "teams"
    teams_dir.mkdir()
    for path in PAIRS:
        shutil.copy(path, teams_dir / path.name)
    return teams_dir


def test_the_calibration_imports_no_django() -> None:
    code = "import sys, cards.calibration; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_calibrations_examples_hold() -> None:
    assert doctest.testmod(cards.calibration).failed == 0


def test_first_games_follow_the_bracket_and_merge_mirrored_rows() -> None:
    field = [
        Seeded("Arkansas 1994", 1994, "South", 6, 69, 67),
        Seeded("Auburn 2019", 2019, "South", 11, 65, 59),
        Seeded("George Mason 2006", 2006, "South", 22, 59, 65),
        Seeded("Tennessee 1977", 1977, "South", 17),
        Seeded("Kansas 2008", 2008, "South", 1, 80, 70),
    ]
    games, unplaced = first_games(field)
    pairs = {(g.first, g.second): (g.first_pts, g.second_pts, g.published) for g in games}
    assert pairs == {
        ("Arkansas 1994", "Auburn 2019"): (69, 67, ("Arkansas 1994",)),
        ("Auburn 2019", "George Mason 2006"): (65, 59, ("Auburn 2019", "George Mason 2006")),
    }
    # Kansas (#1) meets the winner of #16 v #17: #16 is not in this field, so it is unplaced
    assert unplaced and unplaced[0].startswith("Kansas 2008: its first opponent is not known")


def test_the_pair_model_compresses_the_srs_difference_and_scales_the_real_points() -> None:
    seasons = {
        "A": Season(2000, rating=10, pts=80, opp=60),
        "B": Season(2000, rating=0, pts=70, opp=70),
        "C": Season(2000, rating=-6, pts=75, opp=75),
        "D": Season(2000, rating=4, pts=66, opp=58),
        "E": Season(1950),  # no rating, no points: the field's average rating, its era's points
    }
    truth = PairModel(compression=0.6, scale=0.9)
    games = []
    for first, second in (("A", "B"), ("A", "C"), ("B", "C"), ("D", "C"), ("D", "A")):
        pts = truth.predict(seasons[first], seasons[second])
        games.append(FirstGame(first, second, *pts, (first,), "test"))
    model = fit_model(games, seasons, list(seasons))
    assert (model.compression, model.scale, model.games) == (
        pytest.approx(0.6), pytest.approx(0.9), 5,
    )  # fmt: skip
    one, two = model.predict(seasons["A"], seasons["C"])
    assert one - two == pytest.approx(0.6 * 16) and one + two == pytest.approx(0.9 * 145)
    assert model.rating_of(seasons["E"]) == pytest.approx(2.0)
    # too few games: the author's 0.63 and the field's average at 67
    default = fit_model(games[:3], seasons, list(seasons))
    assert default.compression == 0.63 and default.games == 0
    average = Season(2000, rating=default.rating_mean, pts=default.tempo_mean, opp=0.0)
    assert default.targets(average) == (pytest.approx(67.0), pytest.approx(67.0))


def test_the_authors_win_probability_follows_his_guide() -> None:
    assert author_win_probability(-5.5) == pytest.approx(1 / 3)
    assert author_win_probability(5.5) == pytest.approx(2 / 3)
    assert author_win_probability(0) == 0.5


def test_exact_odds_are_symmetric_and_dunk_numbers_move_the_score() -> None:
    teams = [read_team_file(p) for p in PAIRS[:2]]
    odds = ExactOdds(teams)
    a, b = (t.label for t in teams)
    dunks = odds.dunks()
    one = odds.game(a, b, dunks)
    two = odds.game(b, a, dunks)
    assert (one[0], one[1]) == (two[1], two[0]) and one[2] == pytest.approx(1 - two[2])
    more = dict(dunks, **{a: (dunks[a][0] + 3, dunks[a][1])})
    assert odds.game(a, b, more)[0] > one[0] + 2  # three more numbers, about a point each
    assert odds.evaluated == 2


def test_a_store_gives_back_the_games_computed_before_and_only_those() -> None:
    teams = [read_team_file(p) for p in PAIRS[:2]]
    a, b = (t.label for t in teams)
    store: dict[str, tuple[float, float, float]] = {}
    first = ExactOdds(teams, store=store)
    dunks = first.dunks()
    played = first.game(a, b, dunks)
    assert (first.evaluated, first.stored, len(store)) == (1, 0, 1)
    again = ExactOdds(teams, store=store)
    assert again.game(b, a, dunks) == (played[1], played[0], pytest.approx(1 - played[2]))
    assert (again.evaluated, again.stored) == (1, 1)  # read, not computed
    (key,) = store
    assert key == game_key(again.card(a, dunks[a]), again.card(b, dunks[b]), again.rules)
    store[key] = (1.0, 2.0, 0.25)  # what the store says is what it gives
    assert ExactOdds(teams, store=store).game(a, b, dunks) == (1.0, 2.0, 0.25)
    # other dunk numbers are another game: computed and added
    more = dict(dunks, **{a: (dunks[a][0] + 1, dunks[a][1])})
    other = ExactOdds(teams, store=store)
    assert other.game(a, b, more) == ExactOdds(teams).game(a, b, more)
    assert (other.stored, len(store)) == (0, 2)


def test_aim_plays_teams_to_their_targets_and_fit_games_to_the_authors_scores() -> None:
    teams = [read_team_file(p) for p in PAIRS]
    odds = ExactOdds(teams)
    labels = [t.label for t in teams]
    free = {x: (True, True) for x in labels}
    targets = {x: (66.0 + i, 71.0 - i) for i, x in enumerate(labels)}  # for = against overall
    dunks = aim(odds, odds.dunks(), targets, free, labels)
    for x in labels:
        pf, pa = odds.means(x, dunks, labels)
        assert abs(pf - targets[x][0]) < 2.5 and abs(pa - targets[x][1]) < 2.5
    game = FirstGame("Auburn 2019", "George Mason 2006", 65, 59, ("Auburn 2019",), "test")
    before = measure_games(odds, [game], dunks)[0]
    fitted = fit_games(odds, [game], dunks, free)
    after = measure_games(odds, [game], fitted)[0]
    assert max(map(abs, after.errors)) < 1.0 <= max(map(abs, before.errors))
    errors_ = game_errors([after])
    assert errors_.games == 1 and errors_.mae is not None and errors_.mae < 1.0
    assert errors_.slope == pytest.approx(after.margin / 6)
    # the opponent (not published) hardly moves: the published team closes the gap
    moved = {x for x in labels if fitted[x] != dunks[x]}
    assert "Auburn 2019" in moved and "George Mason 2006" not in moved


class _SteepNumbers:
    """A team whose points move 1.7 a number of its dunk top (the exact odds give 0.9-1.7),
    allowed points 1.7 a number of its adjustment."""

    teams = ("Steep U",)

    def means(self, label, dunks, reference=None):  # type: ignore[no-untyped-def]
        top, adjust = dunks[label]
        return 1.7 * top, 1.7 * adjust


@pytest.mark.parametrize("rounds", [5, 6, 40])
def test_aim_ends_on_the_whole_number_nearest_the_target_when_one_number_oversteps(
    rounds: int,
) -> None:
    # 40 plays 68.0 against a target of 68.7 (+0.7): one number up oversteps to 69.7
    # (-1.0), one down comes back; the aim stops there and keeps 40, the nearer, whatever
    # the number of rounds; the adjustment likewise keeps 10 (17.0, target 17.6: +0.6 / -1.1).
    odds = _SteepNumbers()
    dunks = aim(
        odds,  # type: ignore[arg-type]
        {"Steep U": (40, 10)},
        {"Steep U": (68.7, 17.6)},
        {"Steep U": (True, True)},
        ["Steep U", "Other"],
        rounds=rounds,
    )
    assert dunks == {"Steep U": (40, 10)}
    # a target the numbers reach is reached
    assert aim(
        odds,  # type: ignore[arg-type]
        {"Steep U": (40, 10)},
        {"Steep U": (1.7 * 43, 1.7 * 8)},
        {"Steep U": (True, True)},
        ["Steep U", "Other"],
    ) == {"Steep U": (43, 8)}


def test_folds_keep_games_that_share_a_team_together() -> None:
    games = [
        FirstGame("A", "B", 70, 60, ("A",), ""),
        FirstGame("C", "A", 70, 60, ("C",), ""),
        FirstGame("D", "E", 70, 60, ("D",), ""),
        FirstGame("F", "G", 70, 60, ("F",), ""),
    ]
    one, two = folds(games, ["A", "B", "C", "D", "E", "F", "G"])
    assert [(g.first, g.second) for g in one] == [("A", "B"), ("C", "A"), ("F", "G")]
    assert [(g.first, g.second) for g in two] == [("D", "E")]


def test_the_command_writes_the_pair_errors_in_and_out_of_sample(
    field_files: Path, tmp_path: Path
) -> None:
    out = tmp_path / "calibration.md"
    stdout = io.StringIO()
    args = ["--teams-dir", str(field_files), "--out", str(out)]
    call_command("calibrate", *args, stdout=stdout)
    page = out.read_text(encoding="utf-8")
    for game in (
        "Arkansas 1994 v Auburn 2019 | 69-67",
        "Auburn 2019 v George Mason 2006 | 65-59",
        "Florida 2006 v West Virginia 1959 | 78-72",
        "Auburn 1984 v West Virginia 1959 | 75-77",
    ):
        assert f"| {game} |" in page
    assert "**In sample: the field as built (4 games, 8 team scores): MAE " in page
    assert "margin slope" in page and "win-probability error" in page
    # out of sample needs the field rebuilt for each half: only with --holdout
    assert "Out of sample: not measured in this run (`manage.py calibrate --holdout`" in page
    assert "## Out of sample: the first half" not in page
    assert "fitted on 4 games" in page  # the four games fit the model
    assert "coach policy on (what tournaments play)" in page
    assert "| Auburn 2019 |" in page and "| fitted |" in page  # one scale: its numbers aimed
    assert "in sample (4 games, 8 team scores): MAE" in stdout.getvalue()

    # the hand-written part above the marker is kept; the same inputs give the same page
    out.write_text("# My notes\n\nKept.\n" + MARKER + "\nold table\n", encoding="utf-8")
    call_command("calibrate", *args, stdout=io.StringIO())
    again = out.read_text(encoding="utf-8")
    assert again.startswith("# My notes\n\nKept.\n" + MARKER)
    assert "old table" not in again
    assert again.split(MARKER)[1] == page.split(MARKER)[1]


def test_the_command_refuses_a_bad_team_file(field_files: Path, tmp_path: Path) -> None:
    (field_files / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match=r"broken\.json: not valid JSON"):
        call_command(
            "calibrate", "--teams-dir", str(field_files), "--out", str(tmp_path / "x.md"),
        )  # fmt: skip
    assert not (tmp_path / "x.md").exists()


@pytest.mark.django_db
def test_the_command_plays_the_teams_in_the_database_like_their_files(
    field_files: Path, tmp_path: Path
) -> None:
    from cards.services import teams_import

    teams_import(files=[(p.name, p.read_text()) for p in sorted(field_files.glob("*.json"))])
    call_command("calibrate", "--from-db", "--out", str(tmp_path / "db.md"), stdout=io.StringIO())
    call_command(
        "calibrate", "--teams-dir", str(field_files), "--out", str(tmp_path / "files.md"),
        stdout=io.StringIO(),
    )  # fmt: skip
    pages = [(tmp_path / n).read_text() for n in ("db.md", "files.md")]
    assert pages[0].split("## Result")[1] == pages[1].split("## Result")[1]
    assert "Teams: 6, the teams in the database." in pages[0]


# -- the honest hold-out (issue 23.5) ----------------------------------------------------------

HOLDOUT_FIELD = """school,season,conference,region,seed,predicted_pts,predicted_allowed
Alpha,1990,Big,West,9,{alpha},{beta}
Beta,2003,Small,West,24,{beta},{alpha}
Gamma,1982,Big,West,10,68,66
Delta,2011,Small,West,23,66,68
"""


def _holdout_sources(tmp_path: Path, alpha: int, beta: int) -> dict[str, Any]:
    (tmp_path / "field.csv").write_text(
        HOLDOUT_FIELD.format(alpha=alpha, beta=beta), encoding="utf-8"
    )
    rosters = ["school,season,player,pos,height,role,ppg,source_url"]
    for school, season in (("Alpha", 1990), ("Beta", 2003), ("Gamma", 1982), ("Delta", 2011)):
        for n, (pos, height) in enumerate(
            (("G", "6-1"), ("G", "6-4"), ("F", "6-7"), ("F", "6-8"), ("C", "6-11")), start=1
        ):
            rosters.append(f"{school},{season},{school[0]}{n},{pos},{height},starter,{8 + n},x")
    (tmp_path / "rosters.csv").write_text("\n".join(rosters) + "\n", encoding="utf-8")
    ratings = (
        "school,season,srs,pts,opp\nAlpha,1990,25,80,70\nBeta,2003,18,72,68\n"
        "Gamma,1982,22,75,68\nDelta,2011,20,70,66\n"
    )
    (tmp_path / "ratings.csv").write_text(ratings, encoding="utf-8")
    return {
        "field": read_field(tmp_path / "field.csv"),
        "roster_rows": read_csv(tmp_path / "rosters.csv"),
        "rating_rows": read_csv(tmp_path / "ratings.csv"),
        "keep": {},
    }


def test_a_held_out_prediction_reaches_no_step_of_its_halfs_rebuild(tmp_path: Path) -> None:
    store: dict[str, Any] = {}
    first, second = field_holdout(**_holdout_sources(tmp_path, 70, 64), store=store)
    # the two games share no team: each half is one game, fitted on the other
    assert [(r.game.first, r.game.second) for r in first.results] == [("Alpha 1990", "Beta 2003")]
    assert [(g.first, g.second) for g in first.fitted_on] == [("Gamma 1982", "Delta 2011")]
    assert [(r.game.first, r.game.second) for r in second.results] == [("Gamma 1982", "Delta 2011")]
    # The author's score of Alpha v Beta changes: its own half plays exactly as before
    # (its prediction reached nothing of the rebuild); the other half, fitted on it, moves.
    again = field_holdout(**_holdout_sources(tmp_path, 85, 55), store=store)
    assert [(r.first_pts, r.second_pts, r.p_first) for r in again[0].results] == [
        (r.first_pts, r.second_pts, r.p_first) for r in first.results
    ]
    assert again[0].results[0].game.first_pts == 85  # measured against the new prediction

    # while in sample (the field as build_field writes it) the prediction moves Alpha's numbers
    def alpha(a: int, b: int) -> tuple[int, int]:
        team = build(**_holdout_sources(tmp_path, a, b), store=store)[0].team
        return team["dunk_top"], team["dunk_adjust"]

    assert alpha(85, 55) != alpha(70, 64)
