"""A team's coach styles: in team files, in the admin with its history, on the team page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cards.mapping import team_document
from cards.models import Team
from cards.services import TeamFileError, team_file_text, team_import
from cards.styles import Season, derive, season_of, team_styles
from simulator.gridcourt.style import GridStyle
from simulator.sixdice.style import SixDiceStyle
from tests.cards.test_admin import team_form_data, text
from tests.factories import TeamFactory, commissioner, full_team

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
KENTUCKY = FIXTURES / "kentucky-2012.json"
STYLES = {"gridcourt": {"threes": 175, "patience": 35, "crashers": 2, "trap": True},
          "sixdice": {"threes": "top", "inside": "drive", "chip": "always"}}  # fmt: skip


def with_styles(styles: object) -> bytes:
    doc = json.loads(KENTUCKY.read_text())
    doc["styles"] = styles
    return json.dumps(doc).encode()


def test_styles_in_a_team_file_are_stored_exported_and_read_back_the_same() -> None:
    team = team_import(name="kentucky.json", content=with_styles(STYLES)).team
    assert team.styles == STYLES
    assert "styles" not in team.extra  # a column of its own, not an unknown key
    exported = json.loads(team_file_text(team))
    assert exported["styles"] == STYLES
    # Read back, the file changes nothing; the styles are the ones the team plays.
    again = team_import(name="again.json", content=json.dumps(exported).encode())
    assert (again.created, again.changed) == (False, False)
    played = team_styles(team)
    assert played["gridcourt"].style == GridStyle(threes=175, patience=35, crashers=2, trap=True)
    assert played["sixdice"].style == SixDiceStyle(threes="top", inside="drive")
    assert played["gridcourt"].source.startswith("set for this team")


def test_a_file_without_styles_exports_without_them() -> None:
    team = team_import(name=KENTUCKY.name, content=KENTUCKY.read_bytes()).team
    assert team.styles == {}
    assert team_document(team) == json.loads(KENTUCKY.read_text())


@pytest.mark.parametrize(
    ("styles", "problems"),
    [
        (
            {"gridcourt": {"threes": 500, "crashers": -1}},
            [
                "styles.gridcourt.threes: must be an integer from 50 to 200, got 500",
                "styles.gridcourt.crashers: must be an integer from 0 to 2, got -1",
            ],
        ),
        (
            {"sixdice": {"chip": "sometimes"}, "vabg": {}},
            [
                "styles.vabg: not a game with styles (they are: gridcourt, sixdice)",
                'styles.sixdice.chip: must be one of always, shots, got "sometimes"',
            ],
        ),
        ("fast", ['styles: must be an object by game (gridcourt, sixdice), got "fast"']),
    ],
)
def test_a_file_with_bad_styles_is_refused_naming_each_and_nothing_is_written(
    styles: object, problems: list[str]
) -> None:
    with pytest.raises(TeamFileError) as caught:
        team_import(name="bad.json", content=with_styles(styles))
    assert list(caught.value.problems) == [f"bad.json: {p}" for p in problems]
    assert not Team.objects.exists()


def test_the_admin_edits_a_style_with_history_and_refuses_a_bad_one(client: Client) -> None:
    team = full_team()
    client.force_login(commissioner())
    url = reverse("admin:cards_team_change", args=[team.pk])
    page = client.get(url)
    assert "Styles played" in text(page) and "derived from" in text(page)
    # What each game's style accepts is on the form before any refusal says it.
    assert "threes: an integer from 50 to 200 (default 100)" in text(page)
    assert 'chip: one of "always", "shots" (default "always")' in text(page)
    assert '"rulings" for the rulings\' own policy' in text(page)
    before = team.history.count()
    bad = team_form_data(team, styles=json.dumps({"gridcourt": {"threes": 20}}))
    refused = client.post(url, bad)
    assert refused.status_code == 200
    assert "styles.gridcourt.threes: must be an integer from 50 to 200, got 20." in text(refused)
    assert team.history.count() == before
    good = team_form_data(team, styles=json.dumps({"gridcourt": {"threes": 200}}))
    assert client.post(url, good).status_code == 302
    team.refresh_from_db()
    assert team.styles == {"gridcourt": {"threes": 200}}
    latest, previous = team.history.order_by("-history_id")[:2]
    assert latest.styles == {"gridcourt": {"threes": 200}} and previous.styles == {}
    # The style a team plays now, and in its exported file.
    assert team_styles(team)["gridcourt"].style == GridStyle(threes=200)
    assert json.loads(team_file_text(team))["styles"] == {"gridcourt": {"threes": 200}}


def test_the_team_page_shows_each_game_s_style_and_where_it_comes_from(client: Client) -> None:
    team = TeamFactory(season=1975, styles={"sixdice": {"threes": "outside"}})
    page = text(client.get(reverse("team", args=[team.pk])))
    assert "Coach styles" in page
    assert "outside: shoots a 3 with any Ball won outside the arc" in page
    assert "set for this team" in page
    # No 3-point line in 1975: the derived grid-court style keeps to the 2s.
    assert "3-point appetite 50: values a 3 at 50% of its expected points" in page
    assert "derived from" in page


def test_a_style_is_derived_from_the_real_season() -> None:
    keen = derive(Season(0.40, 58.0, 13.0, 9.0, "lines"))
    assert keen["gridcourt"] == {"threes": 200, "patience": 80, "crashers": 2, "trap": True}
    assert keen["sixdice"] == {"threes": "outside", "inside": "drive", "chip": "always"}
    quick = derive(Season(0.05, 82.0, 5.0, 5.0, "lines"))
    assert quick["gridcourt"] == {"threes": 75, "patience": 20, "crashers": 0, "trap": False}
    assert quick["sixdice"] == {"threes": "never", "inside": "shoot", "chip": "always"}
    unknown = derive(Season(None, None, None, None, "nothing"))
    assert unknown == {"gridcourt": GridStyle().to_json(), "sixdice": SixDiceStyle().to_json()}


def test_a_real_team_s_style_comes_from_its_players_lines(settings: Any) -> None:
    # Kentucky 2012 has its players' per-game lines in the shared data.
    team = team_import(name=KENTUCKY.name, content=KENTUCKY.read_bytes()).team
    season = season_of(team)
    assert season.source.endswith("players' lines of the season (shared data)")
    assert season.three_rate is not None and 0.05 < season.three_rate < 0.5
    assert season.pace is not None and 55 < season.pace < 90
    styles = team_styles(team)
    assert styles["gridcourt"].source.startswith("derived from")
    assert styles["gridcourt"].style == GridStyle(**derive(season)["gridcourt"])
