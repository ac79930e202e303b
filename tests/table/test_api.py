"""Games at the table through the JSON API: enter dice, undo, finish into the league, abandon."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from cards.models import Card, Team
from league import services as league_services
from league.models import BoxLine, Game, SimulationRun
from simulator import cli
from simulator.vabg import (
    ADVANCED,
    RULES_VERSION,
    GameRules,
    preset,
    read_team_file,
    team_from_json,
)
from simulator.vabg.coachodds import CoachLiveOdds, coach_odds
from simulator.vabg.sheet import replay
from table.models import TableGame
from tests.openapi import check
from tests.table.conftest import AWAY_FILE, HOME_FILE
from tests.table.dice import rolled_game

pytestmark = pytest.mark.django_db

HOME = read_team_file(HOME_FILE)
AWAY = read_team_file(AWAY_FILE)


def start(client, teams, **options):  # type: ignore[no-untyped-def]
    home, away = teams
    answer = client.post(
        reverse("table:api-games"),
        {"home": home.pk, "away": away.pk, **options},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def entries(game_id):  # type: ignore[no-untyped-def]
    """How many entries the game has now (what a page that is up to date sends)."""
    game = TableGame.objects.filter(pk=game_id).first()
    return 0 if game is None else game.entries


def roll(client, game_id, dice, expected=None):  # type: ignore[no-untyped-def]
    """Enter dice as an up-to-date page does (``expected``: the game's count), or with
    the ``expected`` given."""
    body = {"dice": list(dice), "expected": entries(game_id) if expected is None else expected}
    return client.post(
        reverse("table:api-dice", args=[game_id]), body, content_type="application/json"
    )


def play_through(client, state, values):  # type: ignore[no-untyped-def]
    """Enter the values trip by trip, as a person at the table does."""
    i = 0
    while i < len(values):
        n = 4 if state["need"]["trip_start"] else 1
        answer = roll(client, state["id"], values[i : i + n], expected=state["count"])
        assert answer.status_code == 200, answer.json()
        state = answer.json()
        i += n
    return state


def test_a_whole_game_entered_trip_by_trip_is_stored_as_the_engine_plays_those_dice(
    player_client, teams
):
    played, written = rolled_game(HOME, AWAY, 21)
    state = start(player_client, teams)
    assert state["need"]["die"] == "d8" and state["need"]["team"] == "away"
    assert state["odds"]["available"] and 0 < state["odds"]["p_home"] < 1
    state = play_through(player_client, state, written.values)
    assert state["over"] and state["need"] is None
    assert state["score"] == {"home": played.home.score, "away": played.away.score}
    assert state["box"]["home"] == played.home.to_json()
    assert state["odds"]["p_home"] == (1.0 if played.home.score > played.away.score else 0.0)

    check("/table/api/games/{id}/dice/", state, method="post")  # as the schema documents

    answer = player_client.post(reverse("table:api-finish", args=[state["id"]]))
    assert answer.status_code == 200, answer.json()
    done = answer.json()
    check("/table/api/games/{id}/finish/", done, method="post")
    assert done["status"] == "finished"
    game = Game.objects.select_related("result").get(pk=TableGame.objects.get().league_game_id)
    assert done["urls"]["league_game"] == f"/games/{game.pk}/"
    assert (game.status, game.kind, game.seed) == ("final", "real_dice", None)
    assert game.result.events == played.to_json()["events"]
    assert game.result.dice == {
        "format": "vabg-dice/1",
        **{
            die: [v for v, d in zip(written.values, written.dice, strict=True) if d == die]
            for die in ("d8", "d6", "d20")
        },
    }
    lines = {(b.side, b.name): b for b in BoxLine.objects.filter(result=game.result)}
    for side, box in (("home", played.home), ("away", played.away)):
        for line in box.players:
            stored = lines[(side, line.name)]
            assert {f: getattr(stored, f) for f in line.to_json() if f != "name"} == {
                f: v for f, v in line.to_json().items() if f != "name"
            }
    again = roll(player_client, state["id"], [1])
    assert again.status_code == 409


def test_a_die_outside_its_faces_is_refused_in_place_and_nothing_is_written(player_client, teams):
    state = start(player_client, teams)
    answer = roll(player_client, state["id"], [5, 3, 9, 17], expected=0)
    assert answer.status_code == 400
    body = answer.json()
    assert body["index"] == 2
    assert body["need"]["die"] == "d6" and body["need"]["step"] == "d6 ones"
    assert body["detail"] == "9 is not a face of a d6: the d6 ones is 1-6."
    assert TableGame.objects.get().dice == []
    assert roll(player_client, state["id"], [0]).json()["index"] == 0
    # The 11-66 typed as the rulebook writes it, one number: told it is two dice.
    answer = roll(player_client, state["id"], [5, 34, 17], expected=0)
    assert answer.json()["detail"] == (
        "34 is not a face of a d6: the d6 tens is 1-6. The 11-66 is two dice: type 3 4."
    )


def test_dice_past_the_end_of_the_game_say_where_it_ended_and_nothing_is_stored(
    player_client, teams
):
    _played, written = rolled_game(HOME, AWAY, 21)
    state = start(player_client, teams)
    values = written.values
    too_many = roll(player_client, state["id"], [*values, *([1] * (5000 - len(values)))])
    assert too_many.status_code == 400
    left = 5000 - len(values)
    assert too_many.json() == {
        "detail": f"The game ends after {len(values):,} of these 5,000 dice: the other "
        f"{left:,} come after its end, so none of them was stored (send the first "
        f"{len(values):,} alone).",
        "index": len(values),
    }
    one_more = roll(player_client, state["id"], [*values, 4]).json()["detail"]
    assert "the last one comes after its end" in one_more
    assert TableGame.objects.get().dice == []
    assert roll(player_client, state["id"], values).status_code == 200
    over = roll(player_client, state["id"], [3, 4])
    assert over.json()["detail"] == "The game is already over: these 2 dice were not stored."


def test_an_entry_from_a_stale_page_is_refused_with_409(player_client, teams):
    state = start(player_client, teams)
    assert roll(player_client, state["id"], [5, 3, 4, 17], expected=0).status_code == 200
    stale = roll(player_client, state["id"], [5, 3, 4, 17], expected=0)
    assert stale.status_code == 409
    assert "changed elsewhere" in stale.json()["detail"]
    assert len(TableGame.objects.get().dice) == 4


def test_every_entry_must_say_how_many_entries_the_page_knew_of(player_client, teams):
    # The stale-page check cannot be skipped: an entry without ``expected`` is refused (400,
    # naming the field) and nothing is written.
    state = start(player_client, teams)
    game_id = state["id"]
    for name, body in (
        ("api-dice", {"dice": [5, 3, 4, 17]}),
        ("api-choice", {"choice": "B"}),
        ("api-undo", {"what": "die"}),
    ):
        answer = player_client.post(
            reverse(f"table:{name}", args=[game_id]), body, content_type="application/json"
        )
        assert answer.status_code == 400, (name, answer.json())
        assert answer.json()["expected"] == [
            "Give expected: how many entries (dice and choices) the game had when you looked "
            "(state.count), so that an entry from a stale page is refused instead of mixed in."
        ]
        nulled = player_client.post(
            reverse(f"table:{name}", args=[game_id]),
            {**body, "expected": None},
            content_type="application/json",
        )
        assert nulled.status_code == 400 and "expected" in nulled.json()
    assert TableGame.objects.get().dice == []
    assert roll(player_client, game_id, [5, 3, 4, 17], expected=0).status_code == 200


def test_undo_takes_back_the_last_die_or_the_whole_last_trip(player_client, teams):
    _played, written = rolled_game(HOME, AWAY, 22)
    state = start(player_client, teams)
    state = roll(player_client, state["id"], written.values[:30]).json()
    undo = reverse("table:api-undo", args=[state["id"]])
    one = player_client.post(undo, {"what": "die", "expected": 30}, "application/json").json()
    assert one["count"] == 29 and one["dice"] == written.values[:29]
    trip = player_client.post(undo, {"what": "trip", "expected": 29}, "application/json").json()
    assert trip["count"] == one["undo_trip_to"] < 29
    assert trip["need"]["trip_start"] and trip["need"]["die"] == "d8"
    body = {"what": "trip", "expected": trip["count"]}
    again = player_client.post(undo, body, content_type="application/json").json()
    assert again["count"] < trip["count"] and again["need"]["trip_start"]


def test_the_list_of_games_shows_each_games_score_as_it_stands(player_client, teams):
    played, written = rolled_game(HOME, AWAY, 21)
    state = start(player_client, teams)
    listed = reverse("table:api-games")
    # Before a die, the game's opening score (VABG's 20-20), as its sheet says: it was
    # listed 0-0.
    opening = {"home": 20, "away": 20}
    assert state["score"] == opening
    assert player_client.get(listed).json()[0]["score"] == opening
    state = roll(player_client, state["id"], written.values[:120]).json()
    assert state["score"] != opening  # some points by then
    assert player_client.get(listed).json()[0]["score"] == state["score"]
    state = player_client.post(
        reverse("table:api-undo", args=[state["id"]]),
        {"what": "trip", "expected": 120},
        content_type="application/json",
    ).json()
    assert player_client.get(listed).json()[0]["score"] == state["score"]
    # The page lists it with the score, away team first as in its title.
    page = player_client.get(reverse("table:index")).content.decode()
    home, away = teams
    assert f"{away} {state['score']['away']} at {home} {state['score']['home']}" in page
    # A game saved before scores were kept is replayed once and its score saved.
    TableGame.objects.update(home_score=None, away_score=None)
    assert player_client.get(listed).json()[0]["score"] == state["score"]
    assert TableGame.objects.get().home_score == state["score"]["home"]
    assert player_client.get(listed).json()[0]["over"] is False
    state = play_through(player_client, state, written.values[state["count"] :])
    # Every die in, not stored yet: the list says so (it read like any game in play).
    assert player_client.get(listed).json()[0]["over"] is True
    page = player_client.get(reverse("table:index")).content.decode()
    assert "over: not stored yet, open it to store it in the league" in page
    assert player_client.post(reverse("table:api-finish", args=[state["id"]])).status_code == 200
    assert player_client.get(listed).json()[0]["over"] is False  # stored: finished, not waiting
    final = {"home": played.home.score, "away": played.away.score}
    assert player_client.get(listed).json()[0]["score"] == final
    check("/table/api/games/", player_client.get(listed).json())


def test_a_game_belongs_to_whoever_started_it(player_client, teams, client, commish):
    state = start(player_client, teams)
    # His pages are kept by no cache, the browser's included: Back after signing out on a
    # shared computer must not show his games.
    for url in (reverse("table:index"), reverse("table:sheet", args=[state["id"]])):
        kept = player_client.get(url)
        assert kept.status_code == 200, url
        assert "no-store" in kept["Cache-Control"] and "private" in kept["Cache-Control"], url
    client.force_login(commish)
    assert client.get(reverse("table:api-game", args=[state["id"]])).status_code == 404
    assert roll(client, state["id"], [1]).status_code == 404
    client.logout()
    assert client.get(reverse("table:api-game", args=[state["id"]])).status_code in (401, 403)
    page = client.get(reverse("table:sheet", args=[state["id"]]))
    assert page.status_code == 302 and page.url.startswith(reverse("table:sign-in"))


def test_a_game_that_is_not_over_cannot_be_stored(player_client, teams):
    state = start(player_client, teams)
    roll(player_client, state["id"], [5, 3, 4, 17])
    answer = player_client.post(reverse("table:api-finish", args=[state["id"]]))
    assert answer.status_code == 409
    assert "not over yet" in answer.json()["detail"]
    assert not Game.objects.exists()


def test_a_card_edited_during_the_game_leaves_the_game_as_the_table_played_it(player_client, teams):
    """A table-top review: a typo fixed on a card in the admin refused the finish of a game
    of some 200 dice (409). The game is stored with the cards it was played with."""
    played, written = rolled_game(HOME, AWAY, 23)
    state = start(player_client, teams)
    roll(player_client, state["id"], written.values)
    # A team renamed since: its files would name another team than the game's
    school = teams[0].school
    Team.objects.filter(pk=teams[0].pk).update(school="Renamed U")
    answer = player_client.post(reverse("table:api-finish", args=[state["id"]]))
    assert answer.status_code == 409
    assert "when this game began; its files name that team" in answer.json()["detail"]
    assert not Game.objects.exists() and TableGame.objects.get().status == "playing"
    Team.objects.filter(pk=teams[0].pk).update(school=school)
    # A card edited since: the game is stored as the table played it
    card = Card.objects.filter(team=teams[0]).first()
    card.free_throw_top = 1 if card.free_throw_top != 1 else 2
    card.save()
    answer = player_client.post(reverse("table:api-finish", args=[state["id"]]))
    assert answer.status_code == 200, answer.json()
    game = Game.objects.select_related("result").get()
    assert game.result.events == played.to_json()["events"]  # the cards as played
    assert game.result.home_team_file == TableGame.objects.get().home_team_file


def test_a_commissioner_plays_a_scheduled_season_game_at_the_table(client, commish, teams):
    home, away = teams
    league = league_services.league_get_or_create(name="Table League")
    season = league_services.season_create(
        league=league, name="Winter", teams=[home, away], seed=5, strategy=False
    )
    game = Game.objects.filter(season=season).select_related("home").first()
    client.force_login(commish)
    answer = client.post(
        reverse("table:api-games"), {"league_game": game.pk}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.json()
    state = answer.json()
    game.refresh_from_db()
    assert game.kind == "real_dice"  # no simulation run plays it meanwhile
    assert (state["home"]["label"], state["neutral"]) == (str(game.home), game.neutral)
    twice = client.post(
        reverse("table:api-games"), {"league_game": game.pk}, content_type="application/json"
    )
    assert twice.status_code == 409

    cards = (HOME, AWAY) if game.home == home else (AWAY, HOME)
    played, written = rolled_game(*cards, 24, ADVANCED, game.neutral)
    state = roll(client, state["id"], written.values).json()
    assert state["over"]
    # Demoted meanwhile (out of the Commissioner group): his dice stay, the season's game is
    # not his to store; back in the group, the same game is stored.
    group = commish.groups.get()
    commish.groups.remove(group)
    refused = client.post(reverse("table:api-finish", args=[state["id"]]))
    assert refused.status_code == 403 and "no longer one" in refused.json()["detail"]
    game.refresh_from_db()
    assert game.status == "scheduled" and TableGame.objects.get().status == "playing"
    commish.groups.add(group)
    assert client.post(reverse("table:api-finish", args=[state["id"]])).status_code == 200
    game.refresh_from_db()
    assert game.status == "final" and game.result.events == played.to_json()["events"]
    assert game.result.home_score == played.home.score


def test_a_fan_cannot_open_a_season_game_and_abandoning_frees_it(
    player_client, client, commish, teams
):
    home, away = teams
    league = league_services.league_get_or_create(name="Table League")
    season = league_services.season_create(league=league, name="Spring", teams=[home, away], seed=6)
    game = Game.objects.filter(season=season).first()
    refused = player_client.post(
        reverse("table:api-games"), {"league_game": game.pk}, content_type="application/json"
    )
    assert refused.status_code == 403 and "commissioner" in refused.json()["detail"]
    client.force_login(commish)
    state = client.post(
        reverse("table:api-games"), {"league_game": game.pk}, content_type="application/json"
    ).json()
    answer = client.post(reverse("table:api-abandon", args=[state["id"]]))
    assert answer.status_code == 200 and answer.json()["status"] == "abandoned"
    # Its sheet says what happened, not what to do next.
    assert answer.json()["period"] == "Abandoned: no more dice are taken"
    game.refresh_from_db()
    assert (game.kind, game.status) == ("simulated", "scheduled")
    assert roll(client, state["id"], [1]).status_code == 409


def test_the_coach_policy_game_shows_its_exact_win_probability(player_client, teams):
    state = start(player_client, teams, strategy=True)
    assert state["odds"]["available"] is True
    assert "coach policy" in state["odds"]["note"]
    game = TableGame.objects.get(pk=state["id"])
    home = team_from_json(dict(game.home_team_file))
    away = team_from_json(dict(game.away_team_file))
    exact = coach_odds(home, away, rules=preset(game.rules, strategy=True), neutral=game.neutral)
    assert state["odds"]["pregame_home"] == pytest.approx(exact.p_home_win, abs=1e-12)
    assert state["odds"]["p_home"] == pytest.approx(exact.p_home_win, abs=1e-12)
    _, written = rolled_game(home, away, 31)
    first = next(len(p.rolls) for p in replay(home, away, written.values).plays() if p.rolls)
    after = roll(player_client, state["id"], written.values[:first]).json()  # the visitor's
    live = CoachLiveOdds(home, away, rules=preset(game.rules, strategy=True))
    margin = after["score"]["home"] - after["score"]["away"]
    assert after["odds"]["p_home"] == pytest.approx(live.p_home_win(0, 1, margin), abs=1e-12)


def test_the_dice_file_download_is_the_vabg_dice_file_of_the_game_so_far(player_client, teams):
    state = start(player_client, teams)
    roll(player_client, state["id"], [5, 3, 4, 17])
    answer = player_client.get(reverse("table:api-dice-file", args=[state["id"]]))
    assert answer.json() == {"format": "vabg-dice/1", "d8": [5], "d6": [3, 4], "d20": [17]}


def test_a_game_begins_from_a_dice_file_read_as_the_command_line_reads_it(player_client, teams):
    played, written = rolled_game(HOME, AWAY, 23)
    whole = {"format": "vabg-dice/1", "d8": [], "d6": [], "d20": []}
    for die, value in zip(written.dice, written.values, strict=True):
        whole[die].append(value)
    url = lambda game: reverse("table:api-dice-file", args=[game])  # noqa: E731
    # The whole game: over, exactly the engine's game from that file, ready to store.
    state = start(player_client, teams)
    answer = player_client.post(url(state["id"]), whole, content_type="application/json")
    assert answer.status_code == 200, answer.json()
    state = answer.json()
    assert state["over"] and state["dice"] == written.values
    assert state["score"] == {"home": played.home.score, "away": played.away.score}
    check("/table/api/games/{id}/dice-file/", state, method="post")
    # A file that stops early: the game so far, waiting for the next die as typed.
    part = {die: values[:20] for die, values in whole.items() if die != "format"}
    state = start(player_client, teams)
    answer = player_client.post(
        url(state["id"]), {"format": "vabg-dice/1", **part}, content_type="application/json"
    )
    assert answer.status_code == 200 and not answer.json()["over"]
    typed = answer.json()["count"]
    assert 0 < typed < 60 and answer.json()["dice"] == written.values[:typed]
    # Refused: a second file on a game with dice, a die outside its faces, another format.
    again = player_client.post(url(state["id"]), whole, content_type="application/json")
    assert again.status_code == 409 and "begins a game" in again.json()["detail"]
    fresh = start(player_client, teams)["id"]
    bad = player_client.post(
        url(fresh), {**whole, "d8": [9, *whole["d8"][1:]]}, content_type="application/json"
    )
    assert bad.status_code == 400 and bad.json()["detail"].startswith("The dice file is refused:")
    assert "9" in bad.json()["detail"]
    other = player_client.post(url(fresh), {"dice": [1, 2]}, content_type="application/json")
    assert other.status_code == 400 and "vabg-dice/1" in other.json()["detail"]
    # d6 dice alone: dice of this game, but not its first (a d8), named as such.
    no_d8 = {"format": "vabg-dice/1", "d6": [1, 2, 3]}
    short = player_client.post(url(fresh), no_d8, content_type="application/json")
    assert short.status_code == 400
    assert short.json()["detail"] == (
        "The dice file has no d8 dice, and the game's first die is a d8: none of its dice "
        "could be read."
    )
    assert TableGame.objects.get(pk=fresh).dice == []  # nothing half-written


def test_a_game_queued_in_a_running_simulation_cannot_be_opened_at_the_table(
    client, commish, teams
):
    home, away = teams
    league = league_services.league_get_or_create(name="Queued League")
    season = league_services.season_create(league=league, name="Busy", teams=[home, away], seed=8)
    game = Game.objects.filter(season=season).first()
    run = SimulationRun.objects.create(season=season, scope="all", total=1, dispatch=False)
    Game.objects.filter(pk=game.pk).update(run=run)
    client.force_login(commish)
    answer = client.post(
        reverse("table:api-games"), {"league_game": game.pk}, content_type="application/json"
    )
    assert answer.status_code == 409 and "simulation run" in answer.json()["detail"]
    game.refresh_from_db()
    assert game.kind == "simulated" and not TableGame.objects.exists()


def test_a_game_begun_under_an_older_rules_version_is_played_and_stored_by_it(player_client, teams):
    # Rolled with the strategy on under version 2 (the fixed thresholds' coach), before
    # version 3 brought the exact coach: the same dice read by today's rules go astray.
    old = preset("advanced", strategy=True, version=2)
    played, written = rolled_game(HOME, AWAY, 1, rules=old)
    today = start(player_client, teams, strategy=True)
    assert TableGame.objects.get(pk=today["id"]).rules_version == RULES_VERSION
    assert roll(player_client, today["id"], written.values).status_code == 400

    state = start(player_client, teams, strategy=True)
    TableGame.objects.filter(pk=state["id"]).update(rules_version=2)  # begun before v3
    state = play_through(player_client, state, written.values)
    assert state["over"]
    assert state["score"] == {"home": played.home.score, "away": played.away.score}
    sheet = player_client.get(reverse("table:sheet", args=[state["id"]])).content.decode()
    assert "begun under rules version 2" in sheet and "simulator play table-" not in sheet
    answer = player_client.post(reverse("table:api-finish", args=[state["id"]]))
    assert answer.status_code == 200, answer.json()
    table = TableGame.objects.get(pk=state["id"])
    game = Game.objects.select_related("result").get(pk=table.league_game_id)
    assert game.result.events == played.to_json()["events"]
    assert GameRules.from_json(game.result.rules) == old


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
"""What Chromium asks for when a link is followed."""


@pytest.mark.parametrize(
    ("options", "rules", "neutral"),
    [({"rules": "basic", "neutral": True}, preset("basic"), True),
     ({"strategy": True}, preset("advanced", strategy=True), False)],
)  # fmt: skip
def test_the_command_the_sheet_prints_plays_the_very_game_from_its_downloaded_files(
    player_client, teams, tmp_path, capsys, options, rules, neutral
):
    # The sheet said "python -m simulator play" alone: a basic-rules game on a neutral
    # court ran out of dice, and a home game read as neutral gave another score.
    played, written = rolled_game(HOME, AWAY, 9, rules=rules, neutral=neutral)
    state = play_through(player_client, start(player_client, teams, **options), written.values)
    assert state["over"]
    game = TableGame.objects.get(pk=state["id"])
    page = player_client.get(reverse("table:sheet", args=[game.pk])).content.decode()
    assert f"<code>{game.cli_command}</code>" in page
    for name, url in ((f"table-{game.pk}-home-team.json", state["urls"]["team_files"]["home"]),
                      (f"table-{game.pk}-away-team.json", state["urls"]["team_files"]["away"]),
                      (f"table-{game.pk}-dice.json", state["urls"]["dice_file"])):  # fmt: skip
        # As a browser's link asks for it: the browsable API's page was saved as the file.
        answer = player_client.get(url, HTTP_ACCEPT=BROWSER_ACCEPT)
        assert f'filename="{name}"' in answer["Content-Disposition"]
        assert answer["Content-Type"] == "application/json"
        assert answer.content.startswith(b"{\n") and answer.content.endswith(b"}\n")
        (tmp_path / name).write_bytes(answer.content)
    words = game.cli_command.split()
    assert words[:3] == ["python", "-m", "simulator"]
    args = [str(tmp_path / w) if w.endswith(".json") else w for w in words[3:]]
    assert cli.main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["home"]["score"], out["away"]["score"]) == (played.home.score, played.away.score)
    assert (out["home"]["score"], out["away"]["score"]) == (
        state["score"]["home"],
        state["score"]["away"],
    )


def test_an_entry_of_no_die_or_too_many_is_refused_in_words(player_client, teams):
    state = start(player_client, teams)
    url = reverse("table:api-dice", args=[state["id"]])
    empty = player_client.post(url, {"dice": [], "expected": 0}, "application/json")
    assert empty.status_code == 400
    assert empty.json() == {"dice": ["Give at least one die."]}  # not "at least 1 elements"
    many = player_client.post(url, {"dice": [1] * 5001, "expected": 0}, "application/json")
    assert many.json() == {"dice": ["Give at most 5000 dice at a time."]}
