"""Grid court and six dice at the table: the services, the sheets' needs and the stored game.

A seeded game's dice are written down in the order the engine asks for them, typed die
by die through ``table.services``, and the stored league game must be the engine's game
for the same dice (what ``python -m simulator play --game X --dice FILE`` prints).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from cards.styles import styles_document
from league import services as league_services
from league.models import Game
from simulator.cli import main as simulator_main
from simulator.dice import ScriptedDice
from simulator.games import TeamName, find_game
from simulator.gridcourt import sheet as grid_sheet
from simulator.sixdice import sheet as six_sheet
from table import services
from table.models import TableGame
from table.presentation import table_state
from tests.table.dice import Written

HOME = TeamName("Kentucky", 2012)
AWAY = TeamName("Kansas", 2008)
STORED_V1 = Path(__file__).resolve().parents[2] / "fixtures" / "games" / "sixdice-rules-v1.json"
"""A six-dice game as the league stored it under rules version 1 (before the G10 note)."""


def written_game(
    name: str, seed: int, options: dict[str, object], home: TeamName = HOME, away: TeamName = AWAY
) -> tuple[object, list[int]]:
    """Play a seeded game and return its result and its dice in the order rolled."""
    engine = find_game(name)
    written = Written(seed)
    played = engine.play(home, away, written, engine.make_rules(**options))
    assert set(written.dice) == {"d6"}
    return played, written.values


def as_json(value: object) -> object:
    return json.loads(json.dumps(value))


def start(player, teams, name: str, options: dict[str, object]) -> TableGame:  # type: ignore[no-untyped-def]
    home, away = teams
    return services.table_start(owner=player, home=home, away=away, game=name, options=options)


DIE_BY_DIE = 60
"""Dice typed one at a time at the start of a whole game; each entry replays the game so
far, so a whole game typed die by die costs O(dice²)."""


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "seed", "options"),
    [
        ("gridcourt", 3, {}),
        ("gridcourt", 8, {"width": 13, "level": 1, "pieces": 4}),
        ("sixdice", 5, {}),
        ("sixdice", 6, {"chip_reroll": True}),
    ],
)
def test_a_whole_game_typed_at_the_table_is_stored_as_the_engine_plays_those_dice(
    player, teams, name, seed, options
) -> None:
    table = start(player, teams, name, options)
    # Each team plays the coach style it has when the game begins (derived from its season).
    assert table.game == name and table.home_team_file == {
        "school": "Kentucky",
        "season": 2012,
        "styles": styles_document(teams[0]),
    }
    home, away = services.teams_of(table)
    assert (
        home.style is not None
        and home.style == find_game(name).read_team(table.home_team_file).style
    )
    played, values = written_game(name, seed, options, home, away)
    engine = find_game(name)
    position = services.position_of(table)
    i = 0
    while i < len(values):
        need = position.need
        assert need is not None and need.faces == 6
        assert need.start <= i < need.start + need.size  # the die wanted is in the roll named
        assert need.index == i - need.start + 1
        # The first rolls die by die; then the rest of a roll in one entry, as a player
        # types it (each entry replays the game so far).
        step = 1 if i < DIE_BY_DIE else need.start + need.size - i
        position = services.table_roll(
            game_id=table.pk, user=player, values=values[i : i + step], expected=i
        )
        i += step
    table.refresh_from_db()
    assert position.need is None and position.result() is not None
    state = table_state(table, position)
    assert state["over"] and state["score"] == {
        "home": played.home.score,
        "away": played.away.score,
    }  # type: ignore[attr-defined]
    assert [c["key"] for c in state["box"]["columns"]] == [c.key for c in engine.columns]

    game = services.table_finish(game_id=table.pk, user=player)
    game = Game.objects.select_related("result").get(pk=game.pk)
    assert game.game == name and game.kind == Game.Kind.REAL_DICE and game.seed is None
    rules = engine.make_rules(**options).to_json()
    assert game.options == table.options == {o.name: rules[o.name] for o in engine.options}
    expected = engine.play(
        home, away, engine.read_dice({"format": "vabg-dice/1", "d6": values}),
        engine.make_rules(**options),
    ).to_json()  # fmt: skip
    expected = as_json(expected)
    assert game.result.events == expected["events"]
    assert expected["events"] == as_json([e.to_json() for e in played.events])  # type: ignore[attr-defined]
    assert (game.result.home_score, game.result.away_score) == (
        expected["home"]["score"],
        expected["away"]["score"],
    )
    assert game.result.dice == expected["dice"] and game.result.dice["d6"] == values
    assert game.result.rules == expected["rules"]
    for side in ("home", "away"):
        box = {k: v for k, v in expected[side].items() if k not in ("school", "season")}
        assert {k: game.result.box[side][k] for k in box if k != "score"} == {
            k: v for k, v in box.items() if k != "score"
        }
    table.refresh_from_db()
    assert table.status == "finished" and table.league_game_id == game.pk
    # The player's list tells finished games apart: the game, the score, when.
    client = Client()
    client.force_login(player)
    listed = client.get("/table/").content.decode()
    score = f"{table.away} {game.result.away_score} at {table.home} {game.result.home_score}"
    assert score in listed and f"{engine.title} · Finished " in listed
    # Its box score says where its dice came from (it said "dice scripted rolls").
    assert "real dice, rolled at the table." in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_grid_court_says_whose_roll_it_is_and_undo_takes_back_a_die_or_a_roll(
    player, teams
) -> None:
    _played, values = written_game("gridcourt", 3, {})
    table = start(player, teams, "gridcourt", {})
    state = table_state(table, services.position_of(table))
    assert state["need"]["step"] == "Kansas 2008: offensive roll"
    assert state["need"]["size"] == 2 and state["need"]["index"] == 1
    assert "coach style" in state["policy_note"]
    services.table_roll(game_id=table.pk, user=player, values=values[:2])
    sheet = services.position_of(TableGame.objects.get(pk=table.pk))
    position = sheet.position  # the game's own sheet underneath the table's protocol
    assert isinstance(position, grid_sheet.Position)
    roles = [(t.team, t.role, len(t.dice)) for t in position.turns]
    assert roles == [("away", "offense", 2)]
    # a later offensive roll: its first die typed, its second wanted
    n = 2
    while True:
        position = services.table_roll(game_id=table.pk, user=player, values=values[n : n + 1])
        n += 1
        assert position.need is not None
        if position.need.index == 2 and n > 4:
            break
        if position.need.role == "defense":
            assert (
                position.need.step
                == f"{'Kentucky 2012' if position.need.team == 'home' else 'Kansas 2008'}: defensive roll"
            )
    start_of_roll = n - 1
    assert position.need.start == start_of_roll and position.need.role == "offense"
    position = services.table_undo(game_id=table.pk, user=player, what="trip").position
    assert list(position.values) == values[:start_of_roll]  # back to the roll's first die
    assert isinstance(position, grid_sheet.Position) and position.need is not None
    assert position.need.index == 1
    last = position.turns[-1]
    assert last.start + len(last.dice) == start_of_roll and len(last.dice) in (1, 2)
    position = services.table_undo(game_id=table.pk, user=player, what="trip")
    assert list(position.values) == values[: last.start]  # on a first die: the roll before
    position = services.table_undo(game_id=table.pk, user=player, what="die")
    assert list(position.values) == values[: last.start - 1]


@pytest.mark.django_db
def test_six_dice_names_the_roll_and_its_dice_and_undo_takes_back_a_roll(player, teams) -> None:
    _played, values = written_game("sixdice", 5, {})
    table = start(player, teams, "sixdice", {})
    services.table_roll(game_id=table.pk, user=player, values=values[:8])
    sheet = services.position_of(TableGame.objects.get(pk=table.pk))
    assert isinstance(sheet.position, six_sheet.Position)
    need = sheet.position.need
    assert need is not None
    assert (need.what, need.team, need.index, need.size) == ("jump ball", "home", 3, 6)
    assert need.step == "Kentucky 2012: jump ball"  # the team named, not the rulings' White
    state = table_state(table, sheet)
    assert state["faces"] == "BBBPSF" and state["plays"][0]["dice"][0]["face"] in "BPSF"
    position = services.table_undo(game_id=table.pk, user=player, what="trip")
    assert list(position.values) == values[:6]
    position = services.table_undo(game_id=table.pk, user=player, what="trip")
    assert list(position.values) == []


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["gridcourt", "sixdice"])
def test_a_die_outside_one_to_six_or_after_the_end_is_refused_and_nothing_is_stored(
    player, teams, name
) -> None:
    _played, values = written_game(name, 4, {})
    table = start(player, teams, name, {})
    for bad in (7, 0, 20):
        with pytest.raises(services.TableRefused) as refused:
            services.table_roll(game_id=table.pk, user=player, values=[values[0], bad])
        assert refused.value.index == 1 and refused.value.need is not None
        assert f"{bad} is not a face of a d6" in str(refused.value)
    with pytest.raises(services.TableRefused) as refused:
        services.table_roll(game_id=table.pk, user=player, values=[*values, 3])
    assert refused.value.index == len(values)
    assert str(refused.value).startswith(
        f"The game ends after {len(values):,} of these {len(values) + 1:,} dice: the last one "
        "comes after its end, so none of them was stored"
    )
    with pytest.raises(services.TableRefused):
        services.table_roll(game_id=table.pk, user=player, values=[True])
    assert TableGame.objects.get(pk=table.pk).dice == []
    services.table_roll(game_id=table.pk, user=player, values=values[:-1], expected=0)
    with pytest.raises(services.TableRefused) as refused:
        services.table_finish(game_id=table.pk, user=player)
    assert refused.value.conflict and "not over yet" in str(refused.value)
    with pytest.raises(services.TableRefused) as refused:
        services.table_roll(game_id=table.pk, user=player, values=values[-1:], expected=3)
    assert refused.value.conflict
    services.table_abandon(game_id=table.pk, user=player)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_game_s_options_are_checked_by_its_own_rules(player, teams) -> None:
    home, away = teams
    with pytest.raises(services.TableRefused, match="width"):
        services.table_start(
            owner=player, home=home, away=away, game="gridcourt", options={"width": 15}
        )
    with pytest.raises(services.TableRefused, match="no option"):
        services.table_start(
            owner=player, home=home, away=away, game="sixdice", options={"pieces": 3}
        )
    table = services.table_start(
        owner=player, home=home, away=away, game="sixdice", options={"faces": "BBPPSF"}
    )  # another printing of the dice: any the rules allow
    assert table.options == {"faces": "BBPPSF", "chip_reroll": False}
    table.delete()
    with pytest.raises(services.TableRefused, match="not options"):
        services.table_start(owner=player, home=home, away=away, options={"pieces": 3})
    with pytest.raises(services.TableRefused, match="Unknown game"):
        services.table_start(owner=player, home=home, away=away, game="chess")
    assert not TableGame.objects.exists()


@pytest.mark.django_db
def test_a_scheduled_grid_court_game_is_played_at_the_table_with_its_own_options(
    client, commish, teams
) -> None:
    home, away = teams
    options = {"width": 13, "level": 2, "pieces": 3}
    scheduled = league_services.game_create(home=home, away=away, game="gridcourt", options=options)
    table = services.table_open_scheduled(owner=commish, league_game=scheduled)
    assert (table.game, table.options) == ("gridcourt", options)
    played, values = written_game("gridcourt", 9, options)
    services.table_roll(game_id=table.pk, user=commish, values=values)
    game = services.table_finish(game_id=table.pk, user=commish)
    assert game.pk == scheduled.pk
    game.refresh_from_db()
    assert game.status == Game.Status.FINAL
    assert game.result.events == as_json([e.to_json() for e in played.events])  # type: ignore[attr-defined]
    assert game.result.dice == ScriptedDice(d6=values).record().to_json()
    assert game.result.dice["d6"] == values
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and "Kansas 2008" in page.content.decode()


def test_the_page_opens_a_scheduled_six_dice_game_with_the_sides_played_by_hand(
    client, commish, teams
) -> None:
    """The scheduled-game form had no "Who makes the choices": a league game opened from
    the page always left both sides to the computer (the API took hands)."""
    league = league_services.league_get_or_create(name="Kitchen Table")
    season = league_services.season_create(
        league=league, name="Fall", teams=list(teams), seed=7, game="sixdice"
    )
    scheduled = season.games.get()
    client.force_login(commish)
    for chosen, hands in (("home", ["home"]), (None, ["away", "home"]), ("none", [])):
        form = {"league_game": scheduled.pk} | ({"scheduled_hands": chosen} if chosen else {})
        assert 'name="scheduled_hands"' in client.get("/table/").content.decode()
        answer = client.post("/table/", form)
        assert answer.status_code == 302, answer.content
        table = TableGame.objects.get(league_game=scheduled, status=TableGame.Status.PLAYING)
        assert sorted(table.hands) == hands
        services.table_abandon(game_id=table.pk, user=commish)


@pytest.mark.django_db
def test_the_api_and_the_form_start_a_board_game_and_the_sheet_page_shows_it(
    player_client, teams
) -> None:
    home, away = teams
    answer = player_client.post(
        "/table/api/games/",
        {"home": home.pk, "away": away.pk, "game": "sixdice", "options": {"chip_reroll": True}},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    state = answer.json()
    assert state["game"] == "sixdice" and state["options"] == {
        "faces": "BBBPSF",
        "chip_reroll": True,
    }
    assert state["need"]["step"] == "Kansas 2008: jump ball" and state["sheet"] is None
    # Six dice's live odds are exact: before the jump ball either team wins it half the time.
    assert state["odds"]["available"] and state["odds"]["as_of"] == "before the jump ball"
    assert state["odds"]["p_home"] == pytest.approx(state["odds"]["pregame_home"])
    answer = player_client.post(
        state["urls"]["dice"], {"dice": [1, 2, 9], "expected": 0}, content_type="application/json"
    )
    assert answer.status_code == 400 and answer.json()["index"] == 2
    assert answer.json()["need"]["what"] == "jump ball"
    bad = player_client.post(
        "/table/api/games/",
        {"home": home.pk, "away": away.pk, "game": "gridcourt", "options": {"pieces": 6}},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "pieces" in bad.json()["detail"]

    page = player_client.post(
        "/table/",
        {"game": "gridcourt", "home": home.pk, "away": away.pk, "rules": "advanced",
         "court": "home", "width": 13, "level": 1, "pieces": 4},
    )  # fmt: skip
    table = TableGame.objects.get(game="gridcourt")
    assert page.status_code == 302 and page["Location"] == f"/table/{table.pk}/"
    assert table.options == {"width": 13, "level": 1, "pieces": 4}
    sheet = player_client.get(f"/table/{table.pk}/")
    assert sheet.status_code == 200
    assert b"Grid court" in sheet.content and b"width</abbr> 13" in sheet.content
    listed = player_client.get("/table/api/games/").json()
    assert {g["game"] for g in listed} == {"sixdice", "gridcourt"}
    dice_file = player_client.get(f"/table/api/games/{table.pk}/dice-file/").json()
    assert dice_file == {"format": "vabg-dice/1", "d6": []}


@pytest.mark.django_db
def test_a_six_dice_game_begun_before_the_g10_ruling_is_played_and_stored_by_its_rules(
    player, teams
) -> None:
    # A game of the fixture, played by the engine before the note of 2026-11-26: its two
    # Deflected Passes each cost Kansas (Orange) a die. Typed at a table game begun then
    # (rules version 1, as the migration marks every board game of that time), it plays
    # and stores exactly that game.
    stored = json.loads(STORED_V1.read_text())
    engine = find_game("sixdice")
    old_rules = engine.rules_from_json(stored["rules"])
    written = Written(stored["seed"])
    engine.play(HOME, AWAY, written, old_rules)
    values = written.values
    table = start(player, teams, "sixdice", {})
    assert table.rules_version == 2
    TableGame.objects.filter(pk=table.pk).update(rules_version=1)
    sheet = services.table_roll(game_id=table.pk, user=player, values=values)
    position = sheet.position
    assert position.result is not None
    assert as_json([e.to_json() for e in position.events]) == stored["events"]
    lines = [line for play in table_state(table, sheet)["plays"] for line in play["lines"]]
    assert lines.count("deflected pass: Kansas 2008 rolls five dice next") == 2
    assert not any(re.search(r"\b(Orange|White)\b", line) for line in lines)
    game = services.table_finish(game_id=table.pk, user=player)
    game = Game.objects.select_related("result").get(pk=game.pk)
    assert game.result.events == stored["events"]
    assert game.result.rules == {**old_rules.to_json(), "deflected_pass_penalty": True}
    assert engine.rules_from_json(game.result.rules) == old_rules

    # A table game begun today follows the ruling: the same dice make another game, one
    # not over yet, whose Deflected Passes penalize no one.
    today = start(player, teams, "sixdice", {})
    position = services.position_of(today, values).position
    assert position.result is None and position.need is not None
    passes = [e for e in position.events if type(e).__name__ == "Pass"]
    assert {(e.kind, e.penalized) for e in passes} == {
        ("deflected", None), ("no-look", "home"),
    }  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "styles"),
    [
        ("sixdice", ({"threes": "outside"}, {"chip": "shots", "inside": "drive"})),
        ("gridcourt", ({"threes": 150, "crashers": 0}, {"patience": 80, "trap": True})),
    ],
)
def test_a_board_game_s_dice_file_and_team_files_as_played_replay_it_on_the_command_line(
    player_client, player, teams, tmp_path, capsys, name, styles
) -> None:
    """A trial replayed a six-dice table game from its dice file with the team files it could
    get (the fixtures, an export): another game, since those hold none of the coach styles
    the table played. The sheet gives each side's team file as played."""
    for team, style in zip(teams, styles, strict=True):
        team.styles = {name: style}
        team.save()
    table = start(player, teams, name, {})
    home, away = services.teams_of(table)
    played, values = written_game(name, 11, {}, home, away)
    i = 0
    while i < len(values):  # a roll an entry, as a player types it
        need = services.position_of(TableGame.objects.get(pk=table.pk)).need
        assert need is not None
        step = need.start + need.size - i
        services.table_roll(game_id=table.pk, user=player, values=values[i : i + step], expected=i)
        i += step
    stored = services.table_finish(game_id=table.pk, user=player)
    sheet = player_client.get(f"/table/{table.pk}/").content.decode()
    files = {}
    for link in ("dice-file", "home-team-file", "away-team-file"):
        url = sheet.split(f'id="{link}" href="', 1)[1].split('"', 1)[0]
        answer = player_client.get(url)
        assert answer.status_code == 200 and "attachment" in answer["Content-Disposition"]
        files[link] = tmp_path / f"{link}.json"
        files[link].write_text(json.dumps(answer.json()))
    as_played = json.loads(files["home-team-file"].read_text())["styles"][name]
    assert styles[0].items() <= as_played.items()  # the style it played, every choice named
    argv = [
        "play", str(files["home-team-file"]), str(files["away-team-file"]),
        "--game", name, "--dice", str(files["dice-file"]), "--json",
    ]  # fmt: skip
    assert simulator_main(argv) == 0
    replayed = json.loads(capsys.readouterr().out)
    result = Game.objects.select_related("result").get(pk=stored.pk).result
    assert (
        (replayed["home"]["score"], replayed["away"]["score"])
        == (
            result.home_score,
            result.away_score,
        )
        == (played.home.score, played.away.score)
    )  # type: ignore[attr-defined]
    assert player_client.get(f"/table/api/games/{table.pk}/team-file/umpire/").status_code == 404


@pytest.mark.django_db
def test_a_grid_court_sheet_gives_the_teams_chances_before_the_game_once_worked_out(
    player, teams
) -> None:
    """Grid court has no live odds; its sheet said nothing of who was favoured, though the
    matchup page had the pairing's simulated odds. It reads them from the cache, never
    working them out while the player waits."""
    from django.core.cache import cache

    from league import other_odds
    from simulator.games import MatchOdds

    table = start(player, teams, "gridcourt", {})
    position = services.position_of(table)
    assert "pregame_note" not in table_state(table, position)["odds"]  # not worked out yet
    kind = find_game("gridcourt")
    key = other_odds._odds_key(kind, kind.make_rules(), table.home_team_file, table.away_team_file)
    cache.set(key, MatchOdds(0.801, {(21, 15): 1.0}, "simulated", 0.0126, 1000, 1))
    odds = table_state(table, position)["odds"]
    assert odds["available"] is False and odds["pregame_home"] == pytest.approx(0.801)
    assert odds["pregame_note"] == (
        f"Before the game: {table.home} 80.1%, {table.away} 19.9% (each team's coach style; "
        "1,000 games simulated, one standard error 1.3%)."
    )
    cache.delete(key)
