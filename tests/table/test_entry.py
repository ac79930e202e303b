"""Typing the dice as they look and as a phone's keypad allows, and starting a game only
with the settings it has (a table-top player's review)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from simulator.sheets import VABG_ENTRY, EntryRefused, d6_entry
from table.models import TableGame
from tests.table.test_api import entries, roll, start

pytestmark = pytest.mark.django_db

SIX_DICE = d6_entry("BBBPSF")


@pytest.mark.parametrize(
    ("typed", "dice"),
    [
        (["B B B P S F"], [1, 1, 1, 4, 5, 6]),  # the faces, as the dice show them
        (["bbbpsf"], [1, 1, 1, 4, 5, 6]),  # any case, one roll as one run
        (["112245"], [1, 1, 2, 2, 4, 5]),  # a d6 game: each digit is one die
        (["1.1.2.2.4.5"], [1, 1, 2, 2, 4, 5]),  # a phone's decimal keypad
        (["1,1;2-2 4 5"], [1, 1, 2, 2, 4, 5]),
        (["B", "P", 3], [1, 4, 3]),
    ],
)
def test_six_dice_are_typed_as_they_look(typed, dice) -> None:  # type: ignore[no-untyped-def]
    assert SIX_DICE.read(typed) == dice


def test_vabg_dice_are_numbers_apart_by_what_a_phone_keypad_has() -> None:
    assert VABG_ENTRY.read(["5.3.4.17"]) == [5, 3, 4, 17]
    assert VABG_ENTRY.read(["5-3-4-17 2,16"]) == [5, 3, 4, 17, 2, 16]
    assert VABG_ENTRY.read(["2.5"]) == [2, 5]  # read as two dice, never as a decimal
    for typed in ("B", "534", "5x"):  # a d20 has two digits: no runs in VABG
        with pytest.raises(EntryRefused, match=r"type the numbers rolled, e\.g\. 5 3 4 17"):
            VABG_ENTRY.read([typed])


def test_the_error_example_names_the_games_own_dice() -> None:
    with pytest.raises(EntryRefused) as refused:
        SIX_DICE.read(["B B X"])
    assert refused.value.index == 2
    message = str(refused.value)
    assert message.startswith("X is not a die: type the numbers rolled or the faces (B/P/S/F)")
    assert "17" not in message  # six dice has no d20


def test_the_api_takes_six_dice_as_letters_and_runs(player_client, teams) -> None:
    state = start(player_client, teams, game="sixdice")
    game = state["id"]
    assert state["entry"]["letters"] == {"B": 1, "P": 4, "S": 5, "F": 6}
    assert state["entry"]["runs"] is True
    answer = roll(player_client, game, ["B B B P S F"])
    assert answer.status_code == 200, answer.json()
    assert answer.json()["dice"] == [1, 1, 1, 4, 5, 6]
    answer = roll(player_client, game, ["B", "P"])
    assert answer.status_code == 200, answer.json()
    answer = roll(player_client, game, ["1234"])
    assert answer.status_code == 200, answer.json()
    assert answer.json()["dice"][6:] == [1, 4, 1, 2, 3, 4]
    refused = roll(player_client, game, ["bbq"])
    assert refused.status_code == 400
    assert (
        refused.json()["detail"].lower().startswith("bbq is not a die: type the numbers rolled or")
    )
    assert TableGame.objects.get(pk=game).dice == [1, 1, 1, 4, 5, 6, 1, 4, 1, 2, 3, 4]


def test_the_api_reads_a_vabg_trip_typed_on_a_phone(player_client, teams) -> None:
    state = start(player_client, teams)
    assert state["entry"] == {
        "example": "5 3 4 17",
        "runs": False,
        "letters": {},
        "separators": " \t\r\n,;.-",
    }
    answer = roll(player_client, state["id"], ["5.3.4.17"])
    assert answer.status_code == 200, answer.json()
    assert answer.json()["dice"] == [5, 3, 4, 17]
    refused = roll(player_client, state["id"], ["B", "P"])
    assert refused.status_code == 400
    assert refused.json()["detail"] == "B is not a die: type the numbers rolled, e.g. 5 3 4 17."
    assert entries(state["id"]) == 4


def test_a_game_refuses_the_settings_it_does_not_have(player_client, teams) -> None:
    home, away = teams
    url = reverse("table:api-games")
    body = {"home": home.pk, "away": away.pk, "game": "sixdice"}
    vabg_only = {"rules": "basic", "strategy": True, "neutral": True}
    answer = player_client.post(url, {**body, **vabg_only}, content_type="application/json")
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert detail.startswith("'rules' and 'strategy' and 'neutral' are not a setting of Six dice")
    assert "options" in detail
    answer = player_client.post(url, {**body, "rules": "basic"}, content_type="application/json")
    assert answer.status_code == 400 and "'rules' is not a setting" in answer.json()["detail"]
    grid = {**body, "game": "gridcourt", "neutral": True}
    answer = player_client.post(url, grid, content_type="application/json")
    assert answer.status_code == 400 and "'neutral'" in answer.json()["detail"]
    assert not TableGame.objects.exists()
    # Saying nothing is no setting: false, null and {} are taken, as VABG takes {} options.
    quiet = {**body, "strategy": False, "neutral": False, "options": {}}
    answer = player_client.post(url, quiet, content_type="application/json")
    assert answer.status_code == 201 and answer.json()["rules"] == "advanced"
    vabg = {"home": home.pk, "away": away.pk, "options": {"width": 13}}
    answer = player_client.post(url, vabg, content_type="application/json")
    assert answer.status_code == 400 and "'options'" in answer.json()["detail"]


def test_the_six_dice_page_says_its_options_in_words_and_keys_in_any_dice(
    player_client, teams
) -> None:
    state = start(player_client, teams, game="sixdice", options={"chip_reroll": True})
    page = player_client.get(state["urls"]["page"]).content.decode()
    header = re.sub(r"<[^>]+>", "", page.split('id="game-title"', 1)[1].split("·", 1)[0])
    assert header == ">Six dice to 21: faces BBBPSF, chip reroll on "
    assert "chip_reroll" not in header and "True" not in header
    entry = re.search(r'<input id="entry"[^>]*>', page)
    assert entry is not None
    assert 'inputmode="decimal"' in entry[0]  # a keypad with a separator on a phone
    assert 'placeholder="1 1 4 5 2 6 or BBPSBF"' in entry[0]


@pytest.mark.parametrize(("typed", "index"), [("-3", 0), ("5 -3", 1), ("2,4, -16", 2)])
def test_a_minus_sign_is_refused_not_read_as_a_separator(typed, index) -> None:  # type: ignore[no-untyped-def]
    # a dash between dice separates them (5-3-4-17); before a number it is a minus sign,
    # and no die shows a negative number: "-3" was read as a 3
    assert VABG_ENTRY.read(["5-3"]) == [5, 3]
    with pytest.raises(EntryRefused) as refused:
        VABG_ENTRY.read([typed])
    assert refused.value.index == index
    assert (
        str(refused.value) == f"{typed.split()[-1]} is not a die: no die shows a negative number."
    )
