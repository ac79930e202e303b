"""The author's printed card values against the calculator's (docs/cards.md §14, issue 11).

``pytest -s`` prints the table, field by field. The floors below are the rates the
calculator reaches today: a change that loses a match fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from cards import printed
from tests.shared_data import shared_file


@pytest.fixture(scope="module")
def files() -> tuple[Path, Path]:
    return shared_file("data/alltime96_player_seasons.csv"), shared_file("data/cards_known.csv")


@pytest.fixture(scope="module")
def rows(files: tuple[Path, Path]) -> list[printed.Row]:
    compared, _skipped = printed.compare(*files)
    return compared


def test_the_table_prints_every_printed_value_against_the_calculated(
    rows: list[printed.Row], capsys: pytest.CaptureFixture[str]
) -> None:
    with capsys.disabled():
        print()
        print(f"{'team':<22} {'player':<24} {'slot':>4} {'field':<26} printed  calc  error")
        for r in rows:
            print(
                f"{r.school + ' ' + str(r.season):<22} {r.player:<24} {r.slot or '':>4} "
                f"{printed.FIELD_LABELS[r.field]:<26} {r.printed:>7} {r.calculated:>5} "
                f"{r.error:+6d}"
            )
        for field, rt in printed.by_field(rows).items():
            print(
                f"{printed.FIELD_LABELS[field]:<26} exact {rt.exact}/{rt.n}, within one "
                f"{rt.within_one}/{rt.n}, mean error {rt.mean_error:+.2f}"
            )
    # the rulebook's 34 values (11 ball numbers, 23 ranges) and 4 of cards_known.csv
    book = [r for r in rows if r.source == printed.RULEBOOK]
    assert len(book) == 34
    assert sum(r.kind == "ball" for r in book) == 11
    assert len(rows) == 38


def test_the_rates_do_not_fall_below_what_the_calculator_reaches(rows: list[printed.Row]) -> None:
    book = [r for r in rows if r.source == printed.RULEBOOK]
    ball = printed.rates(r for r in book if r.kind == "ball")
    ranges = printed.rates(r for r in book if r.kind == "range")
    # A lineup shares the d8's three extra numbers by its players' shares (docs/cards.md §3):
    # the rulebook's Kentucky prints four (Davis's "5&7" is never claimed) and Kansas's
    # Chalmers loses his to Rush and the bigs. Every other ball number is exact.
    assert ball.exact >= 9 and ball.within_one == ball.n == 11
    # The steal, block and turnover ranges follow the author's box scores (issue 23: 13-19
    # turnovers, 8-14 steals a game), about twice the rulebook's printed steal ranges (§4):
    # the d20, free-throw and rebound values stay exact.
    assert ranges.exact >= 13
    assert ranges.within_one >= 16
    assert printed.rates(rows).exact >= 26


def test_the_report_holds_every_table(files: tuple[Path, Path]) -> None:
    text = printed.report(*files)
    assert text.startswith(printed.BEGIN) and text.rstrip().endswith(printed.END)
    for needle in ("| rulebook, ranges |", "| steal numbers | slot 1 |", "| fill-in |"):
        assert needle in text


def test_the_report_replaces_only_its_own_section() -> None:
    doc = f"before\n{printed.BEGIN}\nold\n{printed.END}\nafter\n"
    new = printed.replace_report(doc, f"{printed.BEGIN}\nnew\n{printed.END}\n")
    assert new == f"before\n{printed.BEGIN}\nnew\n{printed.END}\nafter\n"


def test_the_rates_in_docs_cards_md_are_the_ones_the_calculator_gives(
    files: tuple[Path, Path],
) -> None:
    # everything of the report above the range-length tables, which also read the field's
    # team files (rebuilt by build_field): run `manage.py printed_cards --write` when it fails
    doc = (Path(settings.BASE_DIR) / "docs" / "cards.md").read_text(encoding="utf-8")
    text = printed.report(*files)
    head = text[: text.index("Range lengths by slot")]
    assert head in doc
