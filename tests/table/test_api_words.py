"""The table API names a value it refuses as the client sent it, in JSON: it echoed Python's
reprs (``True is not a die``, ``"True" is not a valid choice``) to a client that sent
``true``, words a JavaScript or command-line client never wrote."""

from __future__ import annotations

import pytest

from tests.table.test_api import start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("die", "said"),
    [(True, "true"), (1000.0, "1000.0"), ({"a": 1}, '{"a": 1}'), (None, None)],
)
def test_a_value_that_is_not_a_die_is_named_as_sent(player_client, teams, die, said) -> None:
    game = start(player_client, teams)
    answer = player_client.post(
        f"/table/api/games/{game['id']}/dice/",
        {"dice": [5, die], "expected": 0},
        content_type="application/json",
    )
    assert answer.status_code == 400
    text = str(answer.json()["dice"])
    assert "True" not in text and "{'a'" not in text
    if said is not None:
        assert answer.json()["dice"] == [
            f'{said} is not a die: give whole numbers ([5, 3, 4, 17]) or text ("5 3 4 17").'
        ]


def test_a_word_the_api_does_not_take_is_named_as_sent_with_the_words_it_takes(
    player_client, teams
) -> None:
    home, away = teams
    game = start(player_client, teams)
    undo = player_client.post(
        f"/table/api/games/{game['id']}/undo/",
        {"what": True, "expected": 0},
        content_type="application/json",
    )
    assert undo.status_code == 400
    assert undo.json() == {"what": ['true is not a choice here: give "die" or "trip".']}
    begun = player_client.post(
        "/table/api/games/",
        {"home": home.pk, "away": away.pk, "game": "sixdice", "hands": [True]},
        content_type="application/json",
    )
    assert begun.status_code == 400
    assert begun.json() == {"hands": {"0": ['true is not a choice here: give "home" or "away".']}}
    rules = player_client.post(
        "/table/api/games/",
        {"home": home.pk, "away": away.pk, "rules": 1000.0},
        content_type="application/json",
    )
    assert rules.status_code == 400 and rules.json()["rules"][0].startswith(
        "1000.0 is not a choice here: give "
    )
