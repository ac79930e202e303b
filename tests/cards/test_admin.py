"""The commissioner's admin: what a commissioner sees and can do, and what nobody else can."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.mapping import team_card, teams_for_play
from cards.models import Card, Player, Team
from cards.services import team_import
from league.models import BoxLine, Game, GameResult
from tests.factories import CardFactory, PlayerFactory, TeamFactory, commissioner, fan, full_team

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
KENTUCKY = FIXTURES / "kentucky-2012.json"
KANSAS = FIXTURES / "kansas-2008.json"
TEAMS_URL = reverse("admin:cards_team_changelist")
IMPORT_URL = reverse("admin:cards_team_import")
# The card form's fields besides positions (the player is fixed once the card is saved).
CARD_FORM_FIELDS = [
    f.name for f in Card._meta.fields if f.editable and f.name not in {"id", "player", "positions"}
]


def load(*paths: Path) -> list[Team]:
    return [team_import(name=p.name, content=p.read_bytes()).team for p in paths]


def counts() -> tuple[int, int, int, int]:
    return Team.objects.count(), Player.objects.count(), Card.objects.count(), Game.objects.count()


def text(response: Any) -> str:
    """Return the page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    body = re.sub(r"<style.*?</style>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def listed(response: Any) -> set[str]:
    """Return the teams the changelist shows."""
    return {str(team) for team in response.context["cl"].result_list}


def preview(response: Any) -> dict[str, str]:
    """Return the rows of the card preview (label -> value) and its ball numbers."""
    body = response.content.decode()
    card = re.search(r'<div class="vabg-card".*?</table>\s*</div>\s*</div>', body, flags=re.S)
    assert card, "the card change page shows no card preview"
    rows = re.findall(r"<tr><th[^>]*>(.*?)</th><td>(.*?)</td></tr>", card.group(0))
    face = {html.unescape(k): html.unescape(v) for k, v in rows}
    ball = re.search(r'<span class="ball"[^>]*>(.*?)</span>', card.group(0))
    assert ball
    face["ball"] = html.unescape(ball.group(1))
    return face


def card_form_data(card: Card, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name in CARD_FORM_FIELDS:
        value = getattr(card, name)
        data[name] = "" if value is None else value
    data["positions"] = ", ".join(str(p) for p in card.positions)
    data.update(changes)
    return data


def action(
    client: Client, name: str, teams: list[Team], *, follow: bool = False, **extra: Any
) -> Any:
    data = {"action": name, "_selected_action": [t.pk for t in teams], **extra}
    return client.post(TEAMS_URL, data, follow=follow)


@pytest.fixture
def commish(client: Client) -> Client:
    client.force_login(commissioner())
    return client


# --- The team list ----------------------------------------------------------------------------


def test_the_team_list_shows_every_team_with_its_dunk_range_and_roster_size(
    commish: Client,
) -> None:
    load(KENTUCKY, KANSAS)
    response = commish.get(TEAMS_URL)
    assert response.status_code == 200
    assert listed(response) == {"Kentucky 2012", "Kansas 2008"}
    page = text(response)
    kentucky = json.loads(KENTUCKY.read_text(encoding="utf-8"))
    assert f"51-{kentucky['dunk_top']} ({kentucky['dunk_adjust']})" in page
    assert "Import team files" in page


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Kentucky", {"Kentucky 2012"}),
        ("Kentucky 2012", {"Kentucky 2012"}),
        ("2008", {"Kansas 2008"}),
        ("Big 12", {"Kansas 2008"}),
        ("Anthony Davis", {"Kentucky 2012"}),
        ("Duke", set()),
    ],
)
def test_the_team_list_finds_teams_by_school_season_conference_or_player(
    commish: Client, query: str, expected: set[str]
) -> None:
    load(KENTUCKY, KANSAS)
    response = commish.get(TEAMS_URL, {"q": query})
    assert response.status_code == 200
    assert listed(response) == expected
    # A team found through several of its players is still listed once.
    assert len(response.context["cl"].result_list) == len(expected)


def test_the_team_list_filters_by_conference(commish: Client) -> None:
    load(KENTUCKY, KANSAS)
    response = commish.get(TEAMS_URL, {"conference": "SEC"})
    assert listed(response) == {"Kentucky 2012"}
    assert "By conference" in text(response)


def test_the_team_list_filters_by_decade(commish: Client) -> None:
    load(KENTUCKY, KANSAS)
    TeamFactory(school="UCLA", season=1972)
    response = commish.get(TEAMS_URL)
    page = text(response)
    assert "By decade" in page
    assert "1970s" in page and "2000s" in page and "2010s" in page
    assert listed(commish.get(TEAMS_URL, {"decade": "2000"})) == {"Kansas 2008"}
    assert listed(commish.get(TEAMS_URL, {"decade": "2010"})) == {"Kentucky 2012"}
    assert listed(commish.get(TEAMS_URL, {"decade": "1970"})) == {"UCLA 1972"}


def test_the_team_list_filters_by_card_source(commish: Client) -> None:
    load(KENTUCKY)
    TeamFactory(school="UCLA", season=1972, card_source="published")
    response = commish.get(TEAMS_URL, {"card_source__exact": "published"})
    assert listed(response) == {"UCLA 1972"}
    assert "Published by the game's author" in text(response)
    estimated = commish.get(TEAMS_URL, {"card_source__exact": "estimated"})
    assert listed(estimated) == {"Kentucky 2012"}


# --- The team and card pages ------------------------------------------------------------------


def test_the_team_page_shows_the_roster_with_slots_roles_and_ball_numbers(
    commish: Client,
) -> None:
    (team,) = load(KENTUCKY)
    response = commish.get(reverse("admin:cards_team_change", args=[team.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    for player in team.players.all():
        assert f'value="{player.name}"' in body
        assert reverse("admin:cards_card_change", args=[player.card.pk]) in body
    (roster,) = response.context["inline_admin_formsets"]
    assert roster.formset.initial_form_count() == team.players.count() == 8
    page = text(response)
    assert "1 (PG)" in page and "5 (C)" in page and "Reserve" in page
    assert "1&7" in page  # Marquis Teague's ball numbers as printed


def test_each_roster_cell_says_its_column_and_player(commish: Client) -> None:
    # Django's tabular inline labels a column once, in its heading: a screen reader read
    # "edit text" for every cell of the roster.
    (team,) = load(KENTUCKY)
    body = commish.get(reverse("admin:cards_team_change", args=[team.pk])).content.decode()
    for column in ("Name", "Order", "Slot", "Role", "Delete"):
        assert f'aria-label="{column}, Anthony Davis"' in body, column
    assert 'aria-label="Name, new row"' in body  # the blank row "Add another" copies


def test_the_card_page_previews_the_card_as_printed(commish: Client) -> None:
    card = CardFactory(
        slot=5,
        extra_ball=1,
        steal_top=10,
        block_top=26,
        d20_made3_lo=None,
        d20_made3_hi=None,
        d20_made2_lo=1,
        d20_made2_hi=9,
        d20_fouled_lo=10,
        d20_fouled_hi=13,
        d20_miss3_lo=None,
        d20_miss3_hi=None,
        d20_miss2_lo=14,
        d20_miss2_hi=20,
        free_throw_top=11,
        player__name="Anthony Davis",
    )
    response = commish.get(reverse("admin:cards_card_change", args=[card.pk]))
    assert response.status_code == 200
    face = preview(response)
    assert face["ball"] == "5&7"
    assert face["2PM"] == "1-9"
    assert face["FOUL"] == "10-13"
    assert face["2PX"] == "14-20"
    assert face["3PM"] == face["3PX"] == "—"
    assert face["Block"] == "21-26"
    assert face["Steal"] == "—"
    assert face["FT"] == "1-11"
    assert face["Can play"] == "37"
    assert "Anthony Davis" in text(response)


def test_saving_the_card_form_updates_the_card_and_its_printed_ball_numbers(
    commish: Client,
) -> None:
    card = CardFactory(slot=2, extra_ball=0)
    url = reverse("admin:cards_card_change", args=[card.pk])
    response = commish.post(url, card_form_data(card, extra_ball=2, free_throw_top=17))
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.extra_ball, card.ball_numbers, card.free_throw_top) == (2, "2 6&8", 17)
    assert preview(commish.get(url))["ball"] == "2 6&8"


def test_the_card_form_refuses_a_d20_column_leaving_17_uncovered_and_saves_nothing(
    commish: Client,
) -> None:
    card = CardFactory()
    before = card_form_data(card)
    history = card.history.count()
    url = reverse("admin:cards_card_change", args=[card.pk])
    # 3PX 12-16 and 2PX 18-20 leave 17 without an outcome.
    data = card_form_data(card, d20_miss3_hi=16, d20_miss2_lo=18, free_throw_top=19)
    response = commish.post(url, data)
    assert response.status_code == 200
    assert "the d20 ranges leave 17 uncovered" in text(response).lower()
    card.refresh_from_db()
    assert card_form_data(card) == before
    assert card.history.count() == history


def test_the_card_form_refuses_a_second_starter_in_a_slot(commish: Client) -> None:
    team = full_team()
    reserve = Card.objects.get(team=team, role="reserve")
    url = reverse("admin:cards_card_change", args=[reserve.pk])
    response = commish.post(url, card_form_data(reserve, role="starter"))
    assert response.status_code == 200
    starter = Card.objects.get(team=team, slot=reserve.slot, role="starter")
    # The slot's starter named, and how to swap; said once (not the constraint's words too).
    assert f"already has a starter, {starter.player.name}: bench him first" in text(response)
    assert "swap the two on the team page" in text(response)
    assert "This team already has a starter in this slot." not in text(response)
    reserve.refresh_from_db()
    assert reserve.role == "reserve"


def test_the_card_form_refuses_benching_a_slot_s_only_starter(commish: Client) -> None:
    team = full_team()
    starter = Card.objects.get(team=team, role="starter", slot=2)
    url = reverse("admin:cards_card_change", args=[starter.pk])
    response = commish.post(url, card_form_data(starter, role="reserve"))
    assert response.status_code == 200
    assert f"{team} would be left unplayable: slot 2 (SG) has no starter" in text(response)
    starter.refresh_from_db()
    assert starter.role == "starter"
    # Another value of the same card saves as before.
    assert commish.post(url, card_form_data(starter, can_play=40)).status_code == 302


def test_adding_a_card_refuses_a_second_starter_and_accepts_a_reserve(commish: Client) -> None:
    team = full_team()
    newcomer = PlayerFactory(team=team, name="Newcomer", order=7)
    template = CardFactory.build(player=newcomer, slot=3)
    data = card_form_data(template, player=newcomer.pk, role="starter")
    url = reverse("admin:cards_card_add")
    response = commish.post(url, data)
    assert response.status_code == 200
    assert "Slot 3 (SF) already has a starter, " in text(response)
    assert not Card.objects.filter(player=newcomer).exists()
    response = commish.post(url, data | {"role": "reserve"})
    assert response.status_code == 302
    card = Card.objects.get(player=newcomer)
    assert (card.team, card.slot, card.role, card.ball_numbers) == (team, 3, "reserve", "3")


def test_a_card_added_with_no_positions_is_told_so_once(commish: Client) -> None:
    # One empty box got two errors: "This field is required." and "The positions must be a
    # non-empty list of distinct numbers 0-5, got []." (the card's check of a value never set).
    team = full_team()
    newcomer = PlayerFactory(team=team, name="Newcomer", order=7)
    template = CardFactory.build(player=newcomer, slot=3)
    url = reverse("admin:cards_card_add")
    data = card_form_data(template, player=newcomer.pk, role="reserve", positions="")
    response = commish.post(url, data)
    assert response.context["adminform"].form.errors["positions"] == [
        "Type his positions: numbers 0-5 separated by commas, such as 1, 2."
    ]
    assert "non-empty list" not in text(response)
    # A value typed and wrong is still the card's own check, said once.
    response = commish.post(url, data | {"positions": "7"})
    assert response.context["adminform"].form.errors["positions"] == [
        "The positions must be a non-empty list of distinct numbers 0-5, got [7]."
    ]
    assert not Card.objects.filter(player=newcomer).exists()


def test_the_card_form_refuses_a_value_off_the_card_naming_its_label_and_bounds(
    commish: Client,
) -> None:
    card = CardFactory()
    url = reverse("admin:cards_card_change", args=[card.pk])
    response = commish.post(url, card_form_data(card, turnover_top=47))
    assert response.status_code == 200
    assert "The turnover range top must be 40 to 46, as on a VABG card." in text(response)
    assert "turnover_top" not in " ".join(response.context["adminform"].form.errors["turnover_top"])
    card.refresh_from_db()
    assert card.turnover_top == 42
    # below zero too: the form's own "Ensure this value is greater than or equal to 0"
    # answered -5 where 5 got the card's rule
    response = commish.post(url, card_form_data(card, steal_top=-5))
    assert response.context["adminform"].form.errors["steal_top"] == [
        "The steal range top must be 10 to 30, as on a VABG card."
    ]


def test_a_refused_card_form_previews_the_card_as_saved_not_the_refused_value(
    commish: Client,
) -> None:
    card = CardFactory(steal_top=14)
    url = reverse("admin:cards_card_change", args=[card.pk])
    response = commish.post(url, card_form_data(card, steal_top=99))
    assert response.status_code == 200
    assert "The steal range top must be 10 to 30" in text(response)
    assert preview(response)["Steal"] == "11-14"


def test_the_rebound_help_says_how_a_number_above_6_reads(commish: Client) -> None:
    card = CardFactory(off_reb=10)
    page = text(commish.get(reverse("admin:cards_card_change", args=[card.pk])))
    assert "d6 of 1 to this number: 0 never, 6 or more always" in page
    assert "(0 = none)" not in page


# --- Importing --------------------------------------------------------------------------------


def test_the_import_page_imports_a_good_team_file(commish: Client) -> None:
    assert commish.get(IMPORT_URL).status_code == 200
    upload = SimpleUploadedFile("kentucky-2012.json", KENTUCKY.read_bytes())
    response = commish.post(IMPORT_URL, {"files": upload}, follow=True)
    assert response.redirect_chain[-1][0] == TEAMS_URL
    assert "Kentucky 2012: created" in text(response)
    team = teams_for_play().get(school="Kentucky", season=2012)
    assert team_card(team).to_json() == json.loads(KENTUCKY.read_text())


def test_the_import_page_imports_a_zip_of_team_files(commish: Client) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("teams/kentucky-2012.json", KENTUCKY.read_bytes())
        archive.writestr("teams/kansas-2008.json", KANSAS.read_bytes())
        archive.writestr("teams/README.txt", "not a team")
    upload = SimpleUploadedFile("teams.zip", buffer.getvalue())
    response = commish.post(IMPORT_URL, {"files": upload}, follow=True)
    assert response.status_code == 200
    assert {str(t) for t in Team.objects.all()} == {"Kentucky 2012", "Kansas 2008"}
    assert Player.objects.count() == Card.objects.count() == 18


def test_the_import_page_warns_of_a_key_one_slip_from_a_field(commish: Client) -> None:
    doc = json.loads(KENTUCKY.read_text())
    doc["players"][0]["pgg"] = doc["players"][0].pop("ppg")
    upload = SimpleUploadedFile("kentucky.json", json.dumps(doc).encode())
    response = commish.post(IMPORT_URL, {"files": upload}, follow=True)
    warning = response.content.decode().split('class="warning"', 1)[1].split("</li>", 1)[0]
    assert "Kentucky 2012: created" in html.unescape(warning)
    assert '"pgg" is not a team-file field and is not read: did you mean "ppg"?' in (
        html.unescape(warning)
    )


def test_the_import_page_refuses_a_bad_file_listing_every_problem_and_writes_nothing(
    commish: Client,
) -> None:
    bad = json.loads(KENTUCKY.read_text())
    bad["dunk_top"] = 70
    bad["players"][0]["can_play"] = 99
    bad["players"][4]["d20"]["2PX"] = "18-20"
    before = counts()
    response = commish.post(
        IMPORT_URL,
        {
            "files": [
                SimpleUploadedFile("kansas-2008.json", KANSAS.read_bytes()),
                SimpleUploadedFile("bad.json", json.dumps(bad).encode()),
            ]
        },
    )
    assert response.status_code == 200
    problems = [html.unescape(p) for p in re.findall(r"<li>(.*?)</li>", _problem_list(response))]
    assert "bad.json: dunk_top must be 34 to 66, got 70" in problems
    assert any("Marquis Teague" in p and "can_play must be 0 to 66, got 99" in p for p in problems)
    assert any(
        "Anthony Davis" in p and "the d20 ranges leave 15-17 uncovered" in p for p in problems
    )
    assert f"Nothing was imported. {len(problems)} problems:" in text(response)
    assert counts() == before == (0, 0, 0, 0)


def _problem_list(response: Any) -> str:
    match = re.search(
        r'<ul class="errorlist" id="import-problems">(.*?)</ul>',
        response.content.decode(),
        flags=re.S,
    )
    assert match, "the import page lists no problems"
    return match.group(1)


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("broken.zip", b"PK not really", "broken.zip: not a valid zip file"),
        ("team.json", b"{", "team.json: not valid JSON"),
    ],
)
def test_the_import_page_refuses_an_unreadable_upload(
    commish: Client, name: str, content: bytes, problem: str
) -> None:
    response = commish.post(IMPORT_URL, {"files": SimpleUploadedFile(name, content)})
    assert response.status_code == 200
    assert problem in html.unescape(_problem_list(response))
    assert counts() == (0, 0, 0, 0)


def test_the_import_page_asks_for_a_file_when_none_is_given(commish: Client) -> None:
    response = commish.post(IMPORT_URL, {})
    assert response.status_code == 200
    assert "This field is required." in text(response)
    assert counts() == (0, 0, 0, 0)


# --- Actions ----------------------------------------------------------------------------------


def test_exporting_one_team_downloads_its_team_file(commish: Client) -> None:
    (team,) = load(KENTUCKY)
    response = action(commish, "export_files", [team])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="kentucky-2012.json"'
    document = json.loads(response.content)
    assert document["format"] == "vabg-team/1"
    assert document == json.loads(KENTUCKY.read_text())


def test_exporting_several_teams_downloads_a_zip_with_one_file_per_team(commish: Client) -> None:
    teams = load(KENTUCKY, KANSAS)
    for name in ("export_zip", "export_files"):
        response = action(commish, name, teams)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/zip"
        assert "attachment" in response["Content-Disposition"]
        with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
            assert sorted(archive.namelist()) == ["kansas-2008.json", "kentucky-2012.json"]
            for path in (KENTUCKY, KANSAS):
                document = json.loads(archive.read(path.name))
                assert document["format"] == "vabg-team/1"
                assert document == json.loads(path.read_text())


def test_duplicating_a_team_copies_its_whole_roster(commish: Client) -> None:
    (team,) = load(KENTUCKY)
    response = action(commish, "duplicate", [team], follow=True)
    assert response.status_code == 200
    assert "Kentucky 2012 duplicated as Kentucky (copy) 2012." in text(response)
    copy = teams_for_play().get(school="Kentucky (copy)")
    original = teams_for_play().get(pk=team.pk)
    assert team_card(copy).players == team_card(original).players
    assert Team.objects.count() == 2
    assert set(copy.players.values_list("pk", flat=True)).isdisjoint(
        original.players.values_list("pk", flat=True)
    )


def test_playing_an_exhibition_stores_the_game_and_opens_its_box_score(commish: Client) -> None:
    kentucky, kansas = load(KENTUCKY, KANSAS)
    form = action(commish, "play_exhibition", [kentucky, kansas])
    assert form.status_code == 200
    assert 'value="Play the game"' in form.content.decode()
    assert Game.objects.count() == 0
    response = action(
        commish, "play_exhibition", [kentucky, kansas], play="1", home=kentucky.pk, seed="2012"
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:league_game_change", args=[game.pk])
    assert (game.home, game.away, game.seed, game.status) == (kentucky, kansas, 2012, "final")
    result = GameResult.objects.get(game=game)
    assert result.home_score != result.away_score
    assert result.home_team_file["school"] == "Kentucky"
    page = commish.get(response["Location"])
    assert page.status_code == 200
    body = text(page)
    assert "Kansas 2008 (away)" in body and "Kentucky 2012 (home)" in body
    for line in BoxLine.objects.filter(result=result):
        assert line.name in body
    # The line score reads team, points by period, final: away first.
    for team, periods, score in (
        ("Kansas 2008", result.away_periods, result.away_score),
        ("Kentucky 2012", result.home_periods, result.home_score),
    ):
        assert sum(periods) == score
        assert f"{team} {' '.join(map(str, periods))} {score}" in body
    assert "seed 2012" in body


def test_an_exhibition_with_a_broken_roster_is_refused_and_leaves_no_game(
    commish: Client,
) -> None:
    home, away = full_team(school="Home U"), full_team(school="Away State")
    Card.objects.filter(team=away, slot=5).delete()
    response = action(
        commish, "play_exhibition", [home, away], play="1", home=home.pk, seed="3", follow=True
    )
    assert response.status_code == 200
    # The team at fault is named, not a game rolled back ("#6095").
    assert f"{away} cannot play Value Add Basketball Game" in text(response)
    assert "slot 5 (C) has no starter" in text(response)
    assert Game.objects.count() == 0


def test_play_exhibition_needs_exactly_two_teams(commish: Client) -> None:
    teams = load(KENTUCKY, KANSAS, FIXTURES / "san-diego-state-2011.json")
    response = action(commish, "play_exhibition", teams, follow=True)
    assert "Select exactly two teams to play an exhibition game." in text(response)
    assert Game.objects.count() == 0


# --- Who may do what --------------------------------------------------------------------------


@pytest.fixture
def plain_staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(
        username="staff", password="staff-password-1", is_staff=True
    )


def _pages(team: Team, card: Card) -> list[str]:
    return [
        reverse("admin:index"),
        TEAMS_URL,
        IMPORT_URL,
        reverse("admin:cards_team_change", args=[team.pk]),
        reverse("admin:cards_card_change", args=[card.pk]),
        reverse("admin:cards_card_changelist"),
        reverse("admin:league_game_changelist"),
    ]


def _attempt_every_change(client: Client, team: Team, other: Team, card: Card) -> list[Any]:
    """POST every change a commissioner could make; return the responses."""
    upload = SimpleUploadedFile("kansas-2008.json", KANSAS.read_bytes())
    return [
        client.post(IMPORT_URL, {"files": upload}),
        action(client, "duplicate", [team]),
        action(client, "export_files", [team]),
        action(client, "play_exhibition", [team, other], play="1", home=team.pk, seed="1"),
        client.post(
            reverse("admin:cards_card_change", args=[card.pk]),
            card_form_data(card, free_throw_top=20),
        ),
        client.post(reverse("admin:cards_team_delete", args=[team.pk]), {"post": "yes"}),
    ]


def _snapshot() -> tuple[Any, ...]:
    return (
        counts(),
        sorted(Card.objects.values_list("pk", "free_throw_top")),
        sorted(Team.objects.values_list("pk", "school", "season")),
    )


@pytest.fixture
def league() -> tuple[Team, Team, Card]:
    (team,) = load(KENTUCKY)
    card = Card.objects.get(player__name="Anthony Davis")
    return team, full_team(school="Other"), card


def test_a_fan_is_sent_to_the_login_page_and_changes_nothing(
    client: Client, league: tuple[Team, Team, Card]
) -> None:
    team, other, card = league
    client.force_login(fan())
    login = reverse("admin:login")
    for url in _pages(team, card):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(login), url
    before = _snapshot()
    for response in _attempt_every_change(client, team, other, card):
        assert response.status_code == 302
        assert response["Location"].startswith(login)
        assert "attachment" not in response.get("Content-Disposition", "")
    assert _snapshot() == before


def test_staff_outside_the_commissioner_group_are_refused(
    client: Client, plain_staff: Any, league: tuple[Team, Team, Card]
) -> None:
    team, other, card = league
    client.force_login(plain_staff)
    # The admin's front page opens (and offers nothing); every league page is refused.
    assert client.get(reverse("admin:index")).status_code == 200
    for url in _pages(team, card)[1:]:
        assert client.get(url).status_code == 403, url
    before = _snapshot()
    for response in _attempt_every_change(client, team, other, card):
        assert response.status_code == 403
        assert "attachment" not in response.get("Content-Disposition", "")
    assert _snapshot() == before


def test_an_anonymous_visitor_is_sent_to_the_login_page(
    client: Client, league: tuple[Team, Team, Card]
) -> None:
    team, other, card = league
    login = reverse("admin:login")
    for url in _pages(team, card):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"{login}?next={url}"
    before = _snapshot()
    for response in _attempt_every_change(client, team, other, card):
        assert response.status_code == 302
        assert response["Location"].startswith(login)
    assert _snapshot() == before


# --- Query counts -----------------------------------------------------------------------------


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "list_name",
    ["admin:cards_team_changelist", "admin:cards_player_changelist", "admin:cards_card_changelist"],
)
def test_admin_lists_cost_the_same_queries_for_one_team_or_three(
    commish: Client, list_name: str
) -> None:
    url = reverse(list_name)
    load(KENTUCKY)
    one = _queries(commish, url)
    load(KANSAS, FIXTURES / "san-diego-state-2011.json")
    assert _queries(commish, url) == one


# --- Notes ------------------------------------------------------------------------------------


def team_form_data(team: Team, **changes: Any) -> dict[str, Any]:
    """The team change form as the admin posts it (an empty roster inline)."""
    data: dict[str, Any] = {
        name: getattr(team, name)
        for name in ("school", "season", "conference", "card_source", "dunk_top", "dunk_adjust")
    }
    data |= {"notes": team.notes, "extra": json.dumps(team.extra)}
    data |= {f"players-{k}": v for k, v in (("TOTAL_FORMS", 0), ("INITIAL_FORMS", 0))}
    return data | changes


def roster_form_data(team: Team, new: Sequence[str] = ()) -> dict[str, Any]:
    """The team change form with its whole roster as stored, as a browser posts it, and a
    row for each of the ``new`` players' names, its order left blank."""
    players = list(team.players.order_by("order"))
    data = team_form_data(team, styles="{}", **{"initial-styles": "{}", "initial-extra": "{}"})
    data |= {"players-TOTAL_FORMS": len(players) + len(new), "players-INITIAL_FORMS": len(players)}
    for n, p in enumerate(players):
        data |= {f"players-{n}-id": p.pk, f"players-{n}-team": team.pk,
                 f"players-{n}-name": p.name, f"players-{n}-order": p.order,
                 f"players-{n}-height": p.height, f"players-{n}-ppg": p.ppg or ""}  # fmt: skip
    for n, name in enumerate(new, start=len(players)):
        data |= {f"players-{n}-team": team.pk, f"players-{n}-name": name,
                 f"players-{n}-order": "", f"players-{n}-height": "", f"players-{n}-ppg": ""}  # fmt: skip
    return data


def test_the_team_form_refuses_notes_over_the_limit_and_saves_nothing(
    commish: Client, settings: Any
) -> None:
    team = TeamFactory(notes="short")
    url = reverse("admin:cards_team_change", args=[team.pk])
    history = team.history.count()
    response = commish.post(url, team_form_data(team, notes="n" * 4_001))
    assert response.status_code == 200
    assert "The notes are 4,001 characters, more than the limit of 4,000." in text(response)
    team.refresh_from_db()
    assert (team.notes, team.history.count()) == ("short", history)
    assert commish.post(url, team_form_data(team, notes="n" * 4_000)).status_code == 302
    team.refresh_from_db()
    assert len(team.notes) == 4_000
    settings.TEAM_NOTES_MAX_CHARS = 100
    response = commish.post(url, team_form_data(team, notes="n" * 101))
    assert "The notes are 101 characters, more than the limit of 100." in text(response)


def test_the_player_form_refuses_notes_over_the_limit_and_saves_nothing(commish: Client) -> None:
    player = PlayerFactory(extra={"notes": "short"})
    url = reverse("admin:cards_player_change", args=[player.pk])
    data = {"team": player.team.pk, "name": player.name, "order": player.order,
            "height": player.height, "ppg": player.ppg or ""}  # fmt: skip
    response = commish.post(url, data | {"extra": json.dumps({"notes": "n" * 4_001})})
    assert response.status_code == 200
    assert "The notes are 4,001 characters, more than the limit of 4,000." in text(response)
    player.refresh_from_db()
    assert player.extra == {"notes": "short"}
    response = commish.post(url, data | {"extra": json.dumps({"notes": "n" * 4_000})})
    assert response.status_code == 302
    player.refresh_from_db()
    assert len(player.extra["notes"]) == 4_000


def test_the_player_form_refuses_a_teammate_s_name_in_other_capitals(commish: Client) -> None:
    player = PlayerFactory(name="Paul Hogue")
    other = PlayerFactory(team=player.team, name="Oscar Robertson", order=player.order + 1)
    url = reverse("admin:cards_player_change", args=[other.pk])
    data = {"team": other.team.pk, "name": "paul hogue", "order": other.order,
            "height": other.height, "ppg": other.ppg or "", "extra": "{}"}  # fmt: skip
    response = commish.post(url, data)
    assert response.status_code == 200
    assert (
        "paul hogue and Paul Hogue differ only in capitals: a box score and a team file "
        "would read them as one player; spell one of them otherwise." in text(response)
    )
    other.refresh_from_db()
    assert other.name == "Oscar Robertson"


def written_before_the_limit(row: Team | Player) -> None:
    """Save a row as an import or the admin did before notes had a limit: validated, with
    its history kept."""
    with override_settings(TEAM_NOTES_MAX_CHARS=1_000_000):
        row.full_clean()
        row.save()


def test_a_team_whose_notes_predate_the_limit_says_what_to_cut_and_saves_once_cut(
    commish: Client,
) -> None:
    team = TeamFactory.build(notes="n" * 5_000)
    written_before_the_limit(team)
    player = PlayerFactory.build(team=team, name="Old Timer", extra={"notes": "p" * 4_500})
    written_before_the_limit(player)
    url = reverse("admin:cards_team_change", args=[team.pk])
    history = team.history.count()
    warning = (
        f"{team}: the notes are 5,000 characters, more than the limit of 4,000 "
        "(TEAM_NOTES_MAX_CHARS), saved before that limit. Nothing on this page can be saved "
        "until they are cut by at least 1,000 characters, in Notes below. The History keeps "
        "their whole text as it is now."
    )
    opened = commish.get(url)
    assert warning in text(opened)
    assert (
        "Old Timer: the notes are 4,500 characters, more than the limit of 4,000 "
        "(TEAM_NOTES_MAX_CHARS), saved before that limit. This page saves the roster without "
        "them, but his own page cannot save him until they are cut."
    ) in text(opened)
    assert [fieldset.classes for fieldset in opened.context["adminform"]] == ["", "", "", ""]

    roster = {"players-TOTAL_FORMS": 1, "players-INITIAL_FORMS": 1, "players-0-id": player.pk,
              "players-0-team": team.pk, "players-0-name": "Old Timer Sr", "players-0-order": 1,
              "players-0-height": player.height, "players-0-ppg": ""}  # fmt: skip
    refused = commish.post(url, team_form_data(team, conference="New 10") | roster)
    assert refused.status_code == 200
    assert "The notes are 5,000 characters, more than the limit of 4,000." in text(refused)
    assert warning in text(refused)
    team.refresh_from_db()
    assert (team.conference, team.history.count()) == ("Test 10", history)

    cut = team_form_data(team, conference="New 10", notes="n" * 4_000) | roster
    assert commish.post(url, cut).status_code == 302
    team.refresh_from_db()
    player.refresh_from_db()
    assert (team.conference, len(team.notes)) == ("New 10", 4_000)
    assert (player.name, len(player.extra["notes"])) == ("Old Timer Sr", 4_500)
    assert warning not in text(commish.get(url))
    # The whole text stays readable: the team's History shows the version before the cut.
    before = team.history.get(notes="n" * 5_000)
    version = reverse("admin:cards_team_simple_history", args=[team.pk, before.history_id])
    assert "n" * 5_000 in commish.get(version).content.decode()


def test_a_player_whose_notes_predate_the_limit_says_what_to_cut(commish: Client) -> None:
    player = PlayerFactory.build(
        team=TeamFactory(), name="Old Timer", extra={"notes": "p" * 4_001, "college": "X"}
    )
    written_before_the_limit(player)
    # Written with no version kept (a bulk update): the warning says to copy the text first.
    Player.objects.filter(pk=player.pk).update(extra={"notes": "q" * 4_002, "college": "X"})
    url = reverse("admin:cards_player_change", args=[player.pk])
    warning = (
        f"{player}: the notes are 4,002 characters, more than the limit of 4,000 "
        "(TEAM_NOTES_MAX_CHARS), saved before that limit. Nothing on this page can be saved "
        'until they are cut by at least 2 characters, in the "notes" of Extra below. No '
        "earlier version keeps their whole text: copy it first to keep it."
    )
    assert warning in text(commish.get(url))
    data = {"team": player.team.pk, "name": player.name, "order": player.order,
            "height": player.height, "ppg": ""}  # fmt: skip
    long = data | {"extra": json.dumps({"notes": "q" * 4_002, "college": "X"})}
    refused = commish.post(url, long)
    assert "The notes are 4,002 characters, more than the limit of 4,000." in text(refused)
    assert warning in text(refused)
    cut = data | {"extra": json.dumps({"notes": "q" * 4_000, "college": "X"})}
    assert commish.post(url, cut).status_code == 302
    player.refresh_from_db()
    assert player.extra == {"notes": "q" * 4_000, "college": "X"}
    assert warning not in text(commish.get(url))


def test_a_card_or_team_saved_unchanged_adds_no_version_to_its_history(client) -> None:
    """A trial pressed "Save and continue editing" with nothing changed on a card and a
    team: each got a new "Changed in the admin" version."""
    team = full_team()
    card = team.cards.first()
    client.force_login(commissioner())
    cards, teams = card.history.count(), team.history.count()
    card_url = reverse("admin:cards_card_change", args=[card.pk])
    assert client.post(card_url, card_form_data(card)).status_code == 302
    team_url = reverse("admin:cards_team_change", args=[team.pk])
    # As a browser posts it: the JSON fields with their hidden initial values.
    unchanged = team_form_data(team, styles="{}", **{"initial-styles": "{}", "initial-extra": "{}"})
    assert client.post(team_url, unchanged).status_code == 302
    assert (card.history.count(), team.history.count()) == (cards, teams)
    # A real change still makes its version.
    assert client.post(card_url, card_form_data(card, free_throw_top=15)).status_code == 302
    assert card.history.count() == cards + 1


def test_a_refused_save_names_the_team_as_it_is_stored(client) -> None:
    """A trial renamed a team and blanked a field: the save was refused, yet the heading
    and the breadcrumb showed the new name of a team still stored under the old one."""
    team = full_team(school="Alabama")
    client.force_login(commissioner())
    url = reverse("admin:cards_team_change", args=[team.pk])
    refused = client.post(url, team_form_data(team, school="Alabama Z", dunk_top=""))
    assert refused.status_code == 200 and "Please correct the error below" in text(refused)
    page = refused.content.decode()
    heading = page.split('<div id="content"', 1)[1].split("</h2>", 1)[0]
    breadcrumbs = page.split('class="breadcrumbs"', 1)[1].split("</div>", 1)[0]
    assert "Alabama Z" not in heading and "Alabama Z" not in breadcrumbs
    assert f"Alabama {team.season}" in heading and f"Alabama {team.season}" in breadcrumbs
    assert 'value="Alabama Z"' in page  # what was typed stays in the field, to correct
    team.refresh_from_db()
    assert team.school == "Alabama"


def test_two_players_of_one_roster_at_the_same_order_are_refused_naming_them(client) -> None:
    team = full_team()
    players = list(team.players.order_by("order"))
    client.force_login(commissioner())
    data = roster_form_data(team)
    url = reverse("admin:cards_team_change", args=[team.pk])
    assert client.post(url, data).status_code == 302  # as stored: fine
    data["players-1-order"] = players[0].order
    refused = client.post(url, data)
    assert refused.status_code == 200
    assert (
        f"{players[0].name} and {players[1].name} have the same order, {players[0].order}: "
        "give each player an order of his own"
    ) in text(refused)
    assert team.players.get(pk=players[1].pk).order == players[1].order


def test_a_new_roster_row_left_without_an_order_comes_after_every_player(client) -> None:
    """A review: "Add another Player" gave the new row order 0, the first player's, so the
    roster could never be saved as the page offered it."""
    team = full_team()
    players = list(team.players.order_by("order"))
    client.force_login(commissioner())
    url = reverse("admin:cards_team_change", args=[team.pk])
    page = client.get(url).content.decode()
    empty_row = page.split('id="players-empty"', 1)[1].split("</tr>", 1)[0]
    assert re.search(r'name="players-__prefix__-order"(?![^>]*value=)', empty_row)
    assert client.post(url, roster_form_data(team, new=["New Guy", "Newer Guy"])).status_code == 302
    last = max(p.order for p in players)
    assert list(team.players.order_by("order").values_list("name", "order"))[-2:] == [
        ("New Guy", last + 1),
        ("Newer Guy", last + 2),
    ]


def test_a_player_moved_onto_another_players_order_is_refused_naming_the_next_free_one(
    client,
) -> None:
    """A review: moving a reserve to a team with a player at his order was saved, and the
    team he joined could then not be saved at all (two players at one order)."""
    first, second = full_team(), full_team()
    mover = first.players.get(card__role="reserve")
    holder = second.players.get(order=mover.order)
    client.force_login(commissioner())
    url = reverse("admin:cards_player_change", args=[mover.pk])
    data = {"team": second.pk, "name": mover.name, "order": mover.order,
            "height": mover.height, "ppg": "", "extra": "{}"}  # fmt: skip
    refused = client.post(url, data)
    assert refused.status_code == 200
    free = max(second.players.values_list("order", flat=True)) + 1
    assert (
        f"{holder.name} has the order {mover.order} on {second}: give each player an order "
        f"of his own (a slot's reserves come on in this order); the next free one is {free}."
    ) in text(refused)
    assert Player.objects.get(pk=mover.pk).team_id == first.pk
    assert client.post(url, data | {"order": free}).status_code == 302
    assert Player.objects.get(pk=mover.pk).team_id == second.pk
    # The team he joined saves as its page shows it.
    team_url = reverse("admin:cards_team_change", args=[second.pk])
    assert client.post(team_url, roster_form_data(second)).status_code == 302


def test_an_import_names_an_empty_upload_and_a_file_that_is_no_team_file(commish: Client) -> None:
    """A review: an empty upload said "The submitted file is empty." without naming it, and a
    .txt was called "not valid JSON"."""
    empty = SimpleUploadedFile("kentucky.json", b"", content_type="application/json")
    notes = SimpleUploadedFile("notes.txt", b"a roster", content_type="text/plain")
    response = commish.post(IMPORT_URL, {"files": [empty, notes]})
    page = text(response)
    assert response.status_code == 200
    assert "kentucky.json: The submitted file is empty." in page
    assert "notes.txt: the import takes team files (.json) and zips of them (.zip)" in page
    assert not Team.objects.exists()


def test_a_new_card_starts_as_a_reserve(commish: Client) -> None:
    """A review: Add card offered Starter, which a team with its five starters refuses."""
    page = commish.get(reverse("admin:cards_card_add")).content.decode()
    assert re.search(r'<option value="reserve" selected>', page)
