"""The incremental answer of an entry (``?plays_since=N``): a finished six-dice game's state
is about 250 KB, nearly all of it its plays; each die sent need not bring them all back."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from simulator.vabg import read_team_file
from tests.table.conftest import AWAY_FILE, HOME_FILE
from tests.table.dice import rolled_game
from tests.table.test_api import start
from tests.table.test_boards import written_game

pytestmark = pytest.mark.django_db

VABG_HOME, VABG_AWAY = read_team_file(HOME_FILE), read_team_file(AWAY_FILE)


def test_each_entry_can_answer_only_the_plays_since_the_last_one_the_page_has(
    player_client, teams
) -> None:
    _played, values = written_game("sixdice", 5, {})
    state = start(player_client, teams, game="sixdice")
    assert (state["plays_from"], state["plays_count"]) == (0, len(state["plays"]))
    plays = state["plays"]  # what a page keeps
    dice_url = reverse("table:api-dice", args=[state["id"]])
    undo_url = reverse("table:api-undo", args=[state["id"]])
    sizes, said = [], []
    at = 0
    for n, chunk in enumerate((6, 6, 7, 5, 40, 3, 200, 1, 1, 60)):
        before = at
        since = max(0, len(plays) - 1)  # from the last play the page has: it may have grown
        if n == 7:  # an undo takes plays off the end
            url, body = undo_url, {"what": "trip", "expected": at}
        else:
            url, body = dice_url, {"dice": values[at : at + chunk], "expected": at}
        answer = player_client.post(f"{url}?plays_since={since}", body, "application/json")
        assert answer.status_code == 200, answer.json()
        part = answer.json()
        at = part["count"]
        plays = plays[: part["plays_from"]] + part["plays"]
        whole = player_client.get(reverse("table:api-game", args=[state["id"]])).json()
        assert plays == whole["plays"] and part["plays_count"] == len(whole["plays"])
        # The same state, but the entry's own note (the 7 dice run into the next roll).
        same = [k for k in whole if not k.startswith("plays") and k != "entry_note"]
        assert {k: part[k] for k in same} == {k: whole[k] for k in same}
        # dice that went to more than one roll (each roll's dice are named)
        went = {i for i, p in enumerate(whole["plays"]) for _ in p["dice"]}
        firsts = [len(p["dice"]) for p in whole["plays"]]
        edges = [sum(firsts[:i]) for i in range(len(firsts) + 1)]
        ran_over = n != 7 and sum(1 for i in went if edges[i] < at and edges[i + 1] > before) > 1
        assert whole["entry_note"] == "" and bool(part["entry_note"]) == ran_over, part
        said.append(ran_over)
        # (the note, a line of words at most, does not grow with the game)
        sizes.append((len(json.dumps({**part, "entry_note": ""})), len(json.dumps(whole))))
    assert said[2]  # the 7 dice after two whole rolls: the 7th begins the next roll
    assert sizes[-1][0] < sizes[-1][1] / 3  # the answer no longer grows with the game
    # Without it (the default) every play comes, as existing clients expect.
    full = player_client.post(
        dice_url, {"dice": values[at : at + 1], "expected": at}, "application/json"
    )
    assert (
        full.json()["plays_from"] == 0 and len(full.json()["plays"]) == full.json()["plays_count"]
    )
    bad = player_client.post(
        f"{dice_url}?plays_since=last", {"dice": [1], "expected": at + 1}, "application/json"
    )
    assert bad.status_code == 400 and "plays_since" in bad.json()["detail"]
    assert (
        player_client.get(reverse("table:api-game", args=[state["id"]])).json()["count"] == at + 1
    )


@pytest.mark.parametrize("game", ["vabg", "sixdice", "gridcourt"])
def test_after_any_undo_the_incremental_answer_makes_the_page_s_plays_whole(
    player_client, teams, game
) -> None:
    # An undo may change the play before the end too (a trip's last die taken back leaves
    # the trip's play shorter): a page asking from its last play kept the undone one.
    if game == "vabg":
        values = rolled_game(VABG_HOME, VABG_AWAY, 5)[1].values
        state = start(player_client, teams)
    else:
        values = written_game(game, 5, {})[1]
        state = start(player_client, teams, game=game)
    plays = state["plays"]
    dice_url = reverse("table:api-dice", args=[state["id"]])
    undo_url = reverse("table:api-undo", args=[state["id"]])
    at = 0
    steps = [("dice", 9), ("undo", "die"), ("dice", 30), ("undo", "trip"), ("undo", "die"),
             ("dice", 1), ("undo", "die"), ("undo", "die"), ("dice", 12), ("undo", "trip")]  # fmt: skip
    for kind, what in steps:
        since = max(0, len(plays) - 1)
        if kind == "undo":
            body = {"what": what, "expected": at}
            answer = player_client.post(f"{undo_url}?plays_since={since}", body, "application/json")
        else:
            body = {"dice": values[at : at + int(what)], "expected": at}
            answer = player_client.post(f"{dice_url}?plays_since={since}", body, "application/json")
        assert answer.status_code == 200, (kind, what, answer.json())
        part = answer.json()
        at = part["count"]
        plays = plays[: part["plays_from"]] + part["plays"]
        whole = player_client.get(reverse("table:api-game", args=[state["id"]])).json()
        assert plays == whole["plays"], (kind, what)
