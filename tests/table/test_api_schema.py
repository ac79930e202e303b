"""A game at the table answers in the shape the OpenAPI schema documents (table/schema.py),
key for key: a client generated from the schema reads every field of VABG's, grid court's
and six dice's states (a question to answer by hand, a refused die, an undo, an abandoned
game), and no undocumented one."""

from __future__ import annotations

import pytest

from tests.openapi import check, problems
from tests.table.dice import rolled_game
from tests.table.test_api import AWAY, HOME, play_through, start

pytestmark = pytest.mark.django_db

GAMES = "/table/api/games/"
GAME = "/table/api/games/{id}/"


def post(client, url: str, body: dict) -> object:  # type: ignore[no-untyped-def]
    return client.post(url, body, content_type="application/json")


def test_a_vabg_game_answers_as_documented_as_dice_are_entered_and_undone(
    player_client, teams
) -> None:
    _, written = rolled_game(HOME, AWAY, 21)  # dice the engine wrote, the coach policy off
    state = start(player_client, teams)
    check(GAMES, state, "201", "post")
    url = f"{GAMES}{state['id']}/"
    refused = post(player_client, url + "dice/", {"dice": [9], "expected": 0})
    assert refused.status_code == 400 and refused.json()["need"]["die"] == "d8"
    check(GAME + "dice/", refused.json(), "400", "post")
    state = play_through(player_client, state, written.values[:12])
    check(GAME + "dice/", state, method="post")
    assert state["plays"] and state["sheet"] is not None and state["odds"]["available"]
    check(GAME, player_client.get(url).json())
    undone = post(player_client, url + "undo/", {"what": "die", "expected": state["count"]})
    assert undone.json()["count"] == state["count"] - 1
    check(GAME + "undo/", undone.json(), method="post")
    # A finished game's state and its finish: checked in the whole game of test_api.py.


def test_board_games_played_by_hand_answer_as_documented(player_client, teams) -> None:
    home, away = teams
    ids = {}
    for game in ("sixdice", "gridcourt"):
        started = post(
            player_client,
            GAMES,
            {"game": game, "home": home.pk, "away": away.pk, "hands": ["away"]},
        )
        assert started.status_code == 201
        check(GAMES, started.json(), "201", "post")
        ids[game] = started.json()["id"]
    # Six dice: the jump ball, then dice tying Ball and Pass ask Kansas 2008 to choose.
    url = f"{GAMES}{ids['sixdice']}/"
    tie = [1, 1, 4, 4, 5, 6]
    state = post(
        player_client, url + "dice/", {"dice": [1, 2, 3, 4, 5, 6, *tie * 3], "expected": 0}
    )
    assert state.json()["question"]["options"]
    check(GAME + "dice/", state.json(), method="post")
    chose = post(player_client, url + "choice/", {"choice": "B", "expected": 24})
    assert chose.json()["choices"] and chose.json()["faces"]
    check(GAME + "choice/", chose.json(), method="post")
    abandoned = player_client.post(url + "abandon/")
    assert abandoned.json()["status"] == "abandoned"
    check(GAME + "abandon/", abandoned.json(), method="post")
    # Grid court: the visitors place their pieces on a court the state draws.
    board = player_client.get(f"{GAMES}{ids['gridcourt']}/").json()
    assert board["question"]["board"]["cells"] and board["court"]["width"] == 14
    check(GAME, board)


def test_an_undocumented_key_is_found(player_client, teams) -> None:
    state = start(player_client, teams)
    assert not problems(GAMES, state, "201", "post")
    assert problems(GAMES, {**state, "secret": 1}, "201", "post")
    assert problems(GAMES, {**state, "need": {**state["need"], "faces": "eight"}}, "201", "post")
