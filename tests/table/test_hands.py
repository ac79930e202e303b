"""Six dice played by hand at the table: each side's choices, typed, refused, undone, stored.

A seeded game is written down as a player types it: its dice, and the choices the default
policy makes, as tokens (``tests.simulator.sixdice.hands``). Typed at the table with both
sides (or one) played by hand, it must be stored as the engine's game for those dice and
choices, with the choices kept beside the dice so that the stored game replays choice for
choice.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from league.models import Game
from simulator.games import TeamName, find_game
from simulator.sixdice.rules import STANDARD, SixDiceRules
from table import services
from table.models import TableGame
from tests.simulator.sixdice.hands import recorded

HOME, AWAY = TeamName("Kentucky", 2012), TeamName("Kansas", 2008)
GAME = find_game("sixdice")


def start(player, teams, hands):  # type: ignore[no-untyped-def]
    home, away = teams
    return services.table_start(
        owner=player, home=home, away=away, game="sixdice", options={}, hands=hands
    )


def type_game(player, table: TableGame, dice: list[int], tokens: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Enter a whole game as the sheet asks: a roll's dice at once, each choice when asked."""
    typed = chosen = 0
    position = services.position_of(table)
    while position.need is not None or position.question is not None:
        if position.question is not None:
            position = services.table_choose(
                game_id=table.pk, user=player, choice=tokens[chosen], expected=typed + chosen
            )
            chosen += 1
        else:
            need = position.need
            left = need.size - need.index + 1
            position = services.table_roll(
                game_id=table.pk,
                user=player,
                values=dice[typed : typed + left],
                expected=typed + chosen,
            )
            typed += left
    assert (typed, chosen) == (len(dice), len(tokens))


@pytest.mark.django_db
@pytest.mark.parametrize("hands", [["away", "home"], ["home"]], ids=["both", "home"])
def test_a_game_played_by_hand_is_stored_with_its_choices_and_replays_choice_for_choice(
    player, teams, hands
) -> None:
    played, dice, tokens = recorded(4, set(hands), STANDARD, HOME, AWAY)
    table = start(player, teams, hands)
    assert table.hands == hands
    type_game(player, table, dice, tokens)
    table.refresh_from_db()
    assert [c[1] for c in table.choices] == tokens
    game = services.table_finish(game_id=table.pk, user=player)
    game = Game.objects.select_related("result").get(pk=game.pk)
    stored = game.result
    assert stored.dice["d6"] == dice and not stored.dice["d8"] and not stored.dice["d20"]
    assert (stored.dice["choices"], stored.dice["hands"]) == (tokens, hands)
    assert stored.events == json.loads(json.dumps([e.to_json() for e in played.events]))
    # The stored dice and choices play the same game again, choice for choice.
    again = GAME.play(
        GAME.read_team(stored.home_team_file),
        GAME.read_team(stored.away_team_file),
        GAME.read_dice(stored.dice),
        GAME.rules_from_json(stored.rules),
        choices=stored.dice["choices"],
        hands=stored.dice["hands"],
    )
    assert json.loads(json.dumps([e.to_json() for e in again.events])) == stored.events
    # ...and so does the league's own replay, as README says (it refused: "played from a
    # dice script, not a seed").
    out = StringIO()
    call_command("simulate", "--replay", str(game.pk), stdout=out)
    assert "from its dice: identical, event for event." in out.getvalue()


@pytest.mark.django_db
def test_the_api_asks_each_choice_refuses_a_forbidden_one_and_undoes_it(
    player_client, teams
) -> None:
    home, away = teams
    started = player_client.post(
        "/table/api/games/",
        {"game": "sixdice", "home": home.pk, "away": away.pk, "hands": ["away"]},
        content_type="application/json",
    )
    assert started.status_code == 201 and started.json()["hands"] == ["away"]
    url = f"/table/api/games/{started.json()['id']}/"
    # The jump ball (Orange 3 Balls), then Orange's and White's dice tie Ball and Pass.
    tie = [1, 1, 4, 4, 5, 6]
    # One die too many runs past the roll into the choice: refused, saying where it ends.
    past = player_client.post(
        url + "dice/",
        {"dice": [1, 2, 3, 4, 5, 6, *tie, *tie, *tie, 3], "expected": 0},
        "application/json",
    )
    assert past.status_code == 400 and past.json()["index"] == 24
    assert past.json()["detail"].startswith(
        "Only the first 24 dice of these 25 belong here: then Kansas 2008 must choose "
        "(Kansas 2008 on offense (d 1): your dice tie"
    )
    state = player_client.post(
        url + "dice/",
        {"dice": [1, 2, 3, 4, 5, 6, *tie, *tie, *tie], "expected": 0},
        "application/json",
    ).json()
    question = state["question"]
    assert question["side"] == "away" and question["kind"] == "play"
    assert [o["token"] for o in question["options"]] == ["B", "P"]
    assert state["need"] is None and state["count"] == 24
    assert state["period"] == "Next: Kansas 2008 chooses"  # the prompt is the panel's alone

    more_dice = player_client.post(url + "dice/", {"dice": [1], "expected": 24}, "application/json")
    assert more_dice.status_code == 400
    assert more_dice.json()["detail"].startswith(
        "Kansas 2008 must choose first: Kansas 2008 on offense (d 1): your dice tie"
    )
    forbidden = player_client.post(
        url + "choice/", {"choice": "S", "expected": 24}, "application/json"
    )
    assert forbidden.status_code == 400
    assert "G6" in forbidden.json()["detail"] and "(B, P)" in forbidden.json()["detail"]
    stale = player_client.post(url + "choice/", {"choice": "B", "expected": 3}, "application/json")
    assert stale.status_code == 409

    chose = player_client.post(url + "choice/", {"choice": "B", "expected": 24}, "application/json")
    assert chose.status_code == 200
    state = chose.json()
    assert state["question"] is None and state["need"] is not None
    assert state["choices"] == [{"after": 24, "choice": "B"}] and state["count"] == 25
    no_choice = player_client.post(
        url + "choice/", {"choice": "B", "expected": 25}, "application/json"
    )
    assert no_choice.status_code == 400
    assert no_choice.json()["detail"].startswith("No choice is asked now: the game waits for")

    undone = player_client.post(
        url + "undo/", {"what": "die", "expected": 25}, "application/json"
    ).json()
    assert undone["choices"] == [] and undone["count"] == 24 and undone["question"] is not None


@pytest.mark.django_db
def test_only_a_game_with_choices_takes_hands(player, teams) -> None:
    home, away = teams
    with pytest.raises(services.TableRefused, match="has no choices made by hand"):
        services.table_start(owner=player, home=home, away=away, game="vabg", hands=["home"])
    with pytest.raises(services.TableRefused, match="home or away, not 'both'"):
        services.table_start(owner=player, home=home, away=away, game="sixdice", hands=["both"])


@pytest.mark.django_db
def test_grid_court_by_hand_through_the_api_asks_places_and_refuses_an_illegal_step(
    player_client, teams
) -> None:
    home, away = teams
    started = player_client.post(
        "/table/api/games/",
        {"game": "gridcourt", "home": home.pk, "away": away.pk, "hands": ["away"]},
        content_type="application/json",
    ).json()
    url = f"/table/api/games/{started['id']}/"
    question = started["question"]
    assert (question["side"], question["kind"]) == ("away", "place")
    # The sheet names the teams (the engine's words are the rulings' "Team 1 (visitors)").
    assert question["prompt"].startswith(f"{away} on offense: place pieces 1-5")
    assert "Team 1" not in str(started) and "Team 2" not in str(started)
    assert "Orange" not in str(started) and "White" not in str(started)
    assert started["court"]["width"] == 14 and len(started["court"]["value"]) == 10
    assert [1, 1] in question["board"]["cells"] and [1, 7] not in question["board"]["cells"]
    inside = player_client.post(
        url + "choice/", {"choice": "place:1,7 1,1 1,14 9,6 7,4", "expected": 0}, "application/json"
    )
    assert inside.status_code == 400
    assert inside.json()["detail"].startswith("'place:1,7 1,1 1,14 9,6 7,4' is refused: ")
    assert "(1, 7) is not outside the arc (§2.2" in inside.json()["detail"]
    placed = player_client.post(
        url + "choice/",
        {"choice": "place:1,1 1,14 9,6 7,4 7,11", "expected": 0},
        "application/json",
    ).json()
    # Kentucky (home, the computer) placed its defense by its coach style; Kansas announces.
    assert placed["question"]["kind"] == "announce" and len(placed["pieces"]["home"]) == 5
    moved = player_client.post(
        url + "choice/", {"choice": "move", "expected": placed["count"]}, "application/json"
    ).json()
    assert moved["question"] is None and moved["need"]["size"] == 2
    rolled = player_client.post(
        url + "dice/", {"dice": [3, 4], "expected": moved["count"]}, "application/json"
    ).json()
    board = rolled["question"]["board"]
    assert rolled["question"]["kind"] == "steps" and board["allowed"] == 7
    r5, c5 = board["pieces"]["away"][4]
    assert sorted(board["moves"]["5"]) == sorted(
        [r5 + dr, c5 + dc]
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if [r5 + dr, c5 + dc] not in board["pieces"]["home"] + board["pieces"]["away"]
        and 1 <= r5 + dr <= 10
        and 1 <= c5 + dc <= 14
    )  # the legal first steps of piece 5, for a client that draws its own court
    r, c = board["pieces"]["away"][4]  # piece 5, at (7, 11)
    diagonal = player_client.post(
        url + "choice/",
        {"choice": f"steps:5>{r - 1},{c - 1}", "expected": rolled["count"]},
        "application/json",
    )
    assert (
        diagonal.status_code == 400
        and "offense pieces step orthogonally" in diagonal.json()["detail"]
    )
    same = f"steps:5>{r},{c}"
    onto_itself = player_client.post(
        url + "choice/", {"choice": same, "expected": rolled["count"]}, "application/json"
    )
    detail = onto_itself.json()["detail"]
    assert onto_itself.status_code == 400 and detail.count(same) == 1, detail
    assert detail.startswith(
        f"{same!r} is refused: step 1: piece 5 is already on ({r}, {c}): a step goes to a "
        "neighbouring cell (§2.6"
    )
    stepped = player_client.post(
        url + "choice/",
        {"choice": f"steps:5>{r - 1},{c}", "expected": rolled["count"]},
        "application/json",
    ).json()
    assert stepped["pieces"]["away"][4] == [r - 1, c] and stepped["need"]["team"] == "home"


@pytest.mark.django_db
def test_a_dice_file_enters_the_dice_up_to_the_first_choice_made_by_hand(player, teams) -> None:
    _played, dice, tokens = recorded(4, {"away"}, STANDARD, HOME, AWAY)
    table = start(player, teams, ["away"])
    position = services.table_roll_file(
        game_id=table.pk, user=player, doc={"format": "vabg-dice/1", "d6": dice}
    )
    # The file's dice up to Orange's first question, which the sheet asks now.
    assert position.question is not None and position.question.side == "away"
    table.refresh_from_db()
    assert table.dice == dice[: len(table.dice)] and 0 < len(table.dice) < len(dice)
    # The rest typed as asked plays the recorded game to its end.
    first = services.table_choose(
        game_id=table.pk, user=player, choice=tokens[0], expected=len(table.dice)
    )
    assert first.question is not None or first.need is not None


@pytest.mark.django_db
@pytest.mark.parametrize("questions", [None, 2], ids=["begun-before-versions", "today"])
def test_a_game_keeps_the_questions_it_began_with_to_the_end_and_in_the_league(
    player, teams, questions
) -> None:
    """The Power Chip reroll is asked only of a holder who trails since questions version 2;
    a game begun before (no version kept: 1) is asked as it began, its choices answer those
    questions, and it is stored and replayed by them."""
    rules = SixDiceRules(chip_reroll=True)
    version = 1 if questions is None else questions
    played, dice, tokens = recorded(2, {"home", "away"}, rules, HOME, AWAY, questions=version)
    home, away = teams
    table = services.table_start(
        owner=player,
        home=home,
        away=away,
        game="sixdice",
        options={"chip_reroll": True},
        hands=["home", "away"],
    )
    assert table.questions_version == GAME.questions_version == 2
    if questions is None:
        TableGame.objects.filter(pk=table.pk).update(questions_version=None)
        table.refresh_from_db()
    type_game(player, table, dice, tokens)
    game = services.table_finish(game_id=table.pk, user=player)
    stored = Game.objects.select_related("result").get(pk=game.pk).result
    assert stored.dice["questions"] == version
    assert stored.events == json.loads(json.dumps([e.to_json() for e in played.events]))
    if questions is None:  # a result stored before versions were kept names none: 1
        del stored.dice["questions"]
        stored.save(update_fields=["dice"])
    out = StringIO()
    call_command("simulate", "--replay", str(game.pk), stdout=out)
    assert "from its dice: identical, event for event." in out.getvalue()


@pytest.mark.django_db
def test_the_api_says_which_questions_a_game_asks(player_client, teams) -> None:
    home, away = teams
    started = player_client.post(
        "/table/api/games/",
        {"game": "sixdice", "home": home.pk, "away": away.pk, "hands": ["away"]},
        content_type="application/json",
    )
    assert started.status_code == 201 and started.json()["questions"] == 2


@pytest.mark.django_db
def test_the_admin_shows_a_games_choices_and_their_questions_and_never_edits_them(
    player, teams
) -> None:
    """A commissioner looks at a game at the table; its dice, choices made by hand, the sides
    that made them and the questions' version are the players' record: editing one would
    make another game, so the change form shows them and takes none of them."""
    table = start(player, teams, ["home"])
    boss = get_user_model().objects.create_superuser(username="boss", password="boss-pass-1")
    client = Client()
    client.force_login(boss)
    page = client.get(reverse("admin:table_tablegame_change", args=[table.pk]))
    assert page.status_code == 200
    form = page.context["adminform"].form
    for field in ("dice", "choices", "hands", "questions_version", "rules_version"):
        assert field not in form.fields
        assert field in page.context["adminform"].readonly_fields
    assert "Questions version" in page.content.decode()
