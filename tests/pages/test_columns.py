"""The stat columns are defined once (the engine's line, ``league.columns``) and every page agrees.

A field added to the engine's box-score line must reach the stored lines, the selectors and
the box score page; a column a page shows must be read from a key its rows have; and each
rendered table has exactly one header and one cell per column.
"""

from __future__ import annotations

import re
from dataclasses import fields
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from league import columns, presentation, selectors
from league.columns import BOX_SCORE, DECIMAL, MADE_ATTEMPTED, PERCENT, Column
from league.models import BoxLine, Game, Season
from simulator.results import LINE_FIELDS, PlayerLine

Rows = list[list[tuple[str, str]]]


class Tables(HTMLParser):
    """Collect each table's rows as lists of (tag, text) cells, by the table's class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, Rows]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append((dict(attrs).get("class") or "", []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("th", "td") and self.tables:
            self.cell = [tag]

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td") and self.cell is not None:
            self.tables[-1][1][-1].append((self.cell[0], "".join(self.cell[1:]).strip()))
            self.cell = None


def tables(html: str, css: str) -> list[Rows]:
    parser = Tables()
    parser.feed(html)
    return [rows for cls, rows in parser.tables if css in cls.split()]


def without_groups(rows: Rows) -> Rows:
    """The rows less the group headings ("Starters", "Bench"): one header cell alone."""
    return [row for row in rows if not (len(row) == 1 and row[0][0] == "th")]


def assert_table_follows(rows: Rows, cols: tuple[Column, ...], leading: list[str]) -> None:
    """One header per column after the leading ones, and every row as wide."""
    header, *body = without_groups(rows)
    assert [text for tag, text in header] == [*leading, *(c.label for c in cols)]
    assert all(tag == "th" for tag, _ in header)
    assert body, "the table has no rows"
    for row in body:
        assert len(row) == len(leading) + len(cols), row


def test_the_engines_line_is_the_one_list_of_box_score_fields() -> None:
    assert tuple(f.name for f in fields(PlayerLine))[1:] == LINE_FIELDS
    assert selectors.STAT_FIELDS is LINE_FIELDS
    stored = {f.name for f in BoxLine._meta.get_fields()}
    assert set(LINE_FIELDS) <= stored


def test_the_box_score_shows_every_field_of_the_line_once_in_order() -> None:
    shown = [key for column in BOX_SCORE for key in column.keys]
    # The opening points come first, so that a row reads START + the shots = PTS.
    assert tuple(shown) == ("start", *LINE_FIELDS)
    assert [c.label for c in BOX_SCORE] == (
        ["START", "PTS", "FG", "3P", "FT", "ORB", "DRB", "TRB", "STL", "BLK", "TOV", "PF", "POSS"]
    )
    assert all(c.abbr for c in BOX_SCORE), "every header says what it abbreviates"


def test_a_column_writes_pairs_counts_and_decimals_as_the_pages_did() -> None:
    row = {"fgm": 4, "fga": 9, "pts": 11, "pts_pg": 5.5, "fg_pct": None}
    assert Column("FG", "fgm", MADE_ATTEMPTED).cell(row) == "4-9"
    assert Column("PTS", "pts").cell(row) == 11
    assert columns.per_game("pts", "PPG").cell(row) == "5.5"
    assert Column("FG%", "fg_pct", DECIMAL, 3).cell(row) == ""  # no attempts: blank
    assert Column("FG%", "fg_pct", PERCENT, 1).cell({"fg_pct": 0.7012}) == "70.1%"
    assert Column("FG%", "fg_pct", PERCENT, 1).cell(row) == ""
    assert columns.per_game_pair("fgm").cell({"fgm_pg": 9.5, "fga_pg": 20.125}) == "9.5-20.1"
    assert columns.leader_column("tpm", "3s", per_game_values=False).keys == ("tpm",)


def test_an_unknown_column_list_fails_loudly() -> None:
    with pytest.raises(KeyError):
        columns.TABLES["box"]


@pytest.mark.django_db
def test_every_column_reads_a_key_its_rows_have(season: Season) -> None:
    player_row = selectors.player_season_stats(season_id=season.pk)[0]
    for cols in (columns.PLAYER_SEASON, columns.TEAM_PLAYERS):
        assert {k for c in cols for k in c.keys} <= set(player_row)
    team_row = selectors.team_season_stats(season_id=season.pk)[0]
    assert {k for c in columns.TEAM_SEASON for k in c.keys} <= set(team_row)
    line = BoxLine.objects.filter(result__game__season=season).first()
    assert line is not None
    for c in columns.GAME_LOG:
        assert all(hasattr(line, k) for k in c.keys)
    for key, label in selectors.LEADER_CATEGORIES.items():
        for per_game in (True, False):
            column = columns.leader_column(key, label, per_game_values=per_game)
            assert set(column.keys) <= set(player_row)


@pytest.mark.django_db
def test_a_box_score_has_one_header_and_one_cell_per_column(
    client: Client,
    season: Season,
) -> None:
    game = Game.objects.filter(season=season).first()
    assert game is not None
    html = client.get(game.get_absolute_url()).content.decode()
    sides = tables(html, "lines")
    assert len(sides) == 2
    for rows in sides:
        assert_table_follows(rows, BOX_SCORE, ["Player"])
        assert rows[-1][0][1].startswith("Totals")
    # The admin shows the same template with the box alone in its context.
    box = presentation.box_score(game)
    assert box is not None
    admin_html = render_to_string("league/box_score.html", {"box": box})
    # The same lines, though the game page groups who started (the team file's starters)
    # before the bench.
    assert [sorted(without_groups(t)) for t in tables(admin_html, "lines")] == [
        sorted(without_groups(t)) for t in sides
    ]
    for side in box.sides:
        assert set(LINE_FIELDS) <= set(side.lines[0])
        assert set(side.totals) == {*LINE_FIELDS, "start"}
        for row in [*side.lines, side.totals]:
            shots = 2 * row["fgm"] + row["tpm"] + row["ftm"]
            assert row["pts"] == row["start"] + shots, row
        assert side.totals["start"] == 20  # the 20-20 opening, rulings §1


@pytest.mark.django_db
def test_the_stat_pages_have_one_header_and_one_cell_per_column(
    client: Client,
    season: Season,
) -> None:
    line = BoxLine.objects.filter(result__game__season=season).order_by("-pts").first()
    assert line is not None
    player_html = client.get(reverse("player", args=[line.player_id])).content.decode()
    assert_table_follows(tables(player_html, "season-stats")[0], columns.PLAYER_SEASON, [])
    assert_table_follows(
        tables(player_html, "game-log")[0],
        columns.GAME_LOG,
        ["When", "Season", "Opponent", "Result"],
    )
    team_html = client.get(line.team.get_absolute_url()).content.decode()
    player_tables = [t for t in tables(team_html, "data") if t[0][0][1] == "Player"]
    assert_table_follows(player_tables[0], columns.TEAM_PLAYERS, ["Player"])
    season_html = client.get(reverse("season", args=[season.pk])).content.decode()
    team_tables = [t for t in tables(season_html, "data") if t[0][0][1] == "Team"]
    assert_table_follows(team_tables[-1], columns.TEAM_SEASON, ["Team"])
    # Each leader board shows the rank and name, then the value (per game or in totals).
    for query, value in (({}, r"^\d+\.\d$"), ({"totals": "1"}, r"^\d+$")):
        html = client.get(reverse("leaders", args=[season.pk]), query).content.decode()
        boards = tables(html, "data")
        assert len(boards) == len(selectors.LEADER_CATEGORIES)
        for header, *rows in boards:
            assert [text for _, text in header] == [
                "Player",
                "GP",
                "Per game" if not query else "Total",
            ]
            for row in rows:
                assert len(row) == 3
                assert re.match(r"^\d+$", row[1][1]), row
                assert re.match(value, row[2][1]), row
