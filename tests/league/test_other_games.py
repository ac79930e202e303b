"""Leagues of grid-court and six-dice games: chosen per season, played on the workers."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from league import services, tournaments
from league.models import BoxLine, Game, GameResult, Season
from league.replays import play_by_play
from league.selectors import standings_for_season
from simulator import SeededDice
from simulator.games import find_game
from tests import factories
from tests.factories import TeamFactory, commissioner, full_team
from tests.league.api import client_for, throttle_reset
from tests.openapi import check

make_season = partial(factories.make_season, seed=99)

pytestmark = pytest.mark.django_db

STORED_V1 = Path(__file__).resolve().parents[2] / "fixtures" / "games" / "sixdice-rules-v1.json"
"""A six-dice game as the league stored it under rules version 1 (before the G10 note)."""


def play_all(season: Season, capture) -> None:  # type: ignore[no-untyped-def]
    with capture(execute=True):
        run = services.simulation_start(season=season, scope="all")
    run.refresh_from_db()
    assert run.status == "done", run.error
    assert run.done == run.total == season.games.count()


@pytest.mark.parametrize(
    ("game", "options", "stored"),
    [
        ("sixdice", {}, {"faces": "BBBPSF", "chip_reroll": False}),
        ("sixdice", {"chip_reroll": True}, {"faces": "BBBPSF", "chip_reroll": True}),
        ("gridcourt", {"pieces": 3}, {"width": 14, "level": 0, "pieces": 3}),
    ],
)
def test_a_season_chooses_its_game_and_options_and_its_games_carry_them(
    game: str, options: dict[str, object], stored: dict[str, object]
) -> None:
    season = make_season(game=game, options=options)
    season.refresh_from_db()
    assert (season.game, season.options) == (game, stored)
    assert {(g.game, tuple(sorted(g.options.items()))) for g in season.games.all()} == {
        (game, tuple(sorted(stored.items())))
    }


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("sixdice", {"faces": "BBBBBB"}, "faces"),
        ("sixdice", {"chip_reroll": "yes"}, "chip_reroll"),
        ("sixdice", {"width": 14}, "no option 'width'"),
        ("gridcourt", {"width": 12}, "width must be one of 14, 13"),
        ("gridcourt", {"level": 3}, "level"),
        ("vabg", {"pieces": 3}, "rules and strategy"),
    ],
)
def test_options_the_game_does_not_allow_are_refused_and_nothing_is_stored(
    game: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        make_season(game=game, options=options)
    assert message in str(caught.value.message_dict["options"])
    assert not Season.objects.exists() and not Game.objects.exists()


def test_every_problem_of_the_options_is_named_at_once() -> None:
    with pytest.raises(ValidationError) as caught:
        make_season(game="gridcourt", options={"width": 12, "level": 9, "wide": 1, "tall": 2})
    assert caught.value.message_dict["options"] == [
        "gridcourt has no options 'wide', 'tall': its options are width, level, pieces",
        "gridcourt option width must be one of 14, 13, got 12",
        "gridcourt option level must be one of 0, 1, 2, got 9",
    ]
    assert not Season.objects.exists()


def test_a_league_s_game_is_its_seasons_default() -> None:
    league = services.league_get_or_create(name="Dice league")
    league.game = "sixdice"
    league.save()
    season = services.season_create(
        league=league, name="One", teams=[TeamFactory(), TeamFactory()], seed=1
    )
    assert season.game == "sixdice"
    assert season.games.get().game == "sixdice"


def test_a_six_dice_season_runs_on_the_workers_with_standings_and_box_scores(
    django_capture_on_commit_callbacks,
) -> None:
    season = make_season(game="sixdice", teams=4)
    play_all(season, django_capture_on_commit_callbacks)
    engine = find_game("sixdice")
    for game in season.games.select_related("result", "home", "away"):
        result = game.result
        assert max(result.home_score, result.away_score) == 21 or max(
            result.home_score, result.away_score
        ) in (22, 23)
        assert result.dice == {"seed": game.seed}
        assert result.rules == {
            "version": engine.rules_version,
            **season.options,
            "deflected_pass_penalty": False,
        }
        # The stored box score is the one the engine rebuilds from the stored events.
        events = [engine.event_from_json(e) for e in result.events]
        home, away = engine.box_score(events)
        assert result.box == {"home": home.to_json(), "away": away.to_json()}
        assert result.box["home"]["score"] == result.home_score
        assert result.home_possessions == result.box["home"]["poss"] > 0
        # The same seed plays the same game again.
        again = engine.play(
            engine.read_team(result.home_team_file),
            engine.read_team(result.away_team_file),
            SeededDice(game.seed),
            engine.rules_from_json(result.rules),
        )
        assert json.loads(json.dumps([e.to_json() for e in again.events])) == result.events
    assert not BoxLine.objects.exists()
    rows = standings_for_season(season_id=season.pk)
    flat = [row for _, group in rows for row in group]
    assert len(flat) == 4
    assert sum(_get(r, "wins") for r in flat) == 6
    assert sum(_get(r, "losses") for r in flat) == 6


def _get(row: object, key: str) -> int:
    value = row[key] if isinstance(row, dict) else getattr(row, key)
    assert isinstance(value, int)
    return value


def test_a_grid_court_season_plays_with_its_options(django_capture_on_commit_callbacks) -> None:
    season = make_season(game="gridcourt", teams=3, options={"width": 13, "level": 1, "pieces": 4})
    play_all(season, django_capture_on_commit_callbacks)
    result = GameResult.objects.filter(game__season=season).first()
    assert result is not None
    assert result.rules == {"version": 1, "width": 13, "level": 1, "pieces": 4}
    assert len(result.box["home"]["pieces"]) == 4
    assert sum(p["pts"] for p in result.box["home"]["pieces"]) == result.home_score


def test_a_six_dice_tournament_plays_every_round_through(
    django_capture_on_commit_callbacks,
) -> None:
    league = services.league_get_or_create(name="Bracket league")
    teams = [TeamFactory() for _ in range(4)]
    season = tournaments.tournament_create(
        league=league, name="Cup", teams=teams, seed=5, game="sixdice"
    )
    play_all(season, django_capture_on_commit_callbacks)
    assert season.games.count() == 3
    assert set(season.games.values_list("game", flat=True)) == {"sixdice"}


def test_a_vabg_season_is_unchanged() -> None:
    league = services.league_get_or_create(name="Test League")
    season = services.season_create(
        league=league, name="Old", teams=[full_team(), full_team()], seed=3
    )
    assert (season.game, season.options) == ("vabg", {})
    game = services.game_simulate(game_id=season.games.get().pk)
    assert game.result.box == {}
    assert BoxLine.objects.filter(result=game.result).exists()


def test_create_season_and_create_tournament_take_the_game(capsys) -> None:  # type: ignore[no-untyped-def]
    teams = [TeamFactory(school=f"School {n}", season=2000) for n in range(4)]
    names = [f"{t.school} {t.season}" for t in teams]
    call_command(
        "create_season", "Dice", "S1", *names, "--game", "sixdice", "--option", "chip_reroll=true"
    )
    season = Season.objects.get(name="S1")
    assert (season.game, season.options["chip_reroll"]) == ("sixdice", True)
    call_command("create_tournament", "Dice", "Cup", *names, "--game", "gridcourt",
                 "--option", "pieces=3")  # fmt: skip
    cup = Season.objects.get(name="Cup")
    assert (cup.game, cup.options["pieces"]) == ("gridcourt", 3)


def test_the_api_creates_a_six_dice_season_and_a_grid_court_tournament() -> None:
    throttle_reset()
    client = client_for(commissioner())
    league = services.league_get_or_create(name="Api league")
    teams = [TeamFactory() for _ in range(4)]
    body = {"league": league.pk, "name": "Dice", "teams": [t.pk for t in teams], "seed": 1}
    response = client.post(
        "/api/seasons/",
        {**body, "game": "sixdice", "options": {"chip_reroll": True}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["game"] == "sixdice"
    assert response.json()["options"] == {"faces": "BBBPSF", "chip_reroll": True}
    # VABG's preset and coach switch are not six dice's: null, not "advanced" and true
    assert (response.json()["rules"], response.json()["strategy"]) == (None, None)
    refused = client.post(
        "/api/seasons/",
        {**body, "name": "Bad", "game": "gridcourt", "options": {"pieces": 9}},
        format="json",
    )
    assert refused.status_code == 400
    assert "pieces must be one of 3, 4, 5" in str(refused.json())
    assert not Season.objects.filter(name="Bad").exists()
    cup = client.post(
        "/api/tournaments/",
        {**body, "name": "Cup", "game": "gridcourt", "options": {"level": 2}},
        format="json",
    )
    assert cup.status_code == 201, cup.json()
    season = Season.objects.get(pk=cup.json()["id"])
    assert (season.game, season.options["level"]) == ("gridcourt", 2)
    game = season.games.first()
    assert game is not None
    shown = client.get(f"/api/games/{game.pk}/").json()
    assert (shown["game"], shown["rules"], shown["strategy"]) == ("gridcourt", None, None)


def test_the_api_box_score_of_a_six_dice_game_carries_its_own_box() -> None:
    season = make_season(game="sixdice", teams=2)
    game = services.game_simulate(game_id=season.games.get().pk)
    body = client_for().get(f"/api/games/{game.pk}/box-score/").json()
    assert body["game"]["game"] == "sixdice"
    assert body["box"] == game.result.box
    assert body["box"]["away"]["score"] == game.result.away_score
    # VABG's player lines, totals, team turnovers and possessions are not this game's:
    # none, rather than a row of zeros a script would read as a game of no shots.
    for side in body["sides"]:
        assert (side["lines"], side["totals"]) == ([], None)
        assert side["team_turnovers"] is None and side["possessions"] is None
    assert [side["score"] for side in body["sides"]] == [
        game.result.away_score,
        game.result.home_score,
    ]
    check("/api/games/{id}/box-score/", body)


def test_simulate_replay_plays_a_six_dice_game_again_from_its_seed(capsys) -> None:  # type: ignore[no-untyped-def]
    season = make_season(game="sixdice", teams=2, options={"chip_reroll": True})
    game = services.game_simulate(game_id=season.games.get().pk)
    call_command("simulate", "--replay", str(game.pk))
    out = capsys.readouterr().out
    assert "identical, event for event." in out
    assert f"{game.result.away_score}-{game.result.home_score}" in out


class Recording:
    """Seeded dice that remember every d6 rolled (a six-dice game reads only the d6)."""

    def __init__(self, seed: int) -> None:
        self.dice, self.rolls = SeededDice(seed), []  # type: ignore[var-annotated]

    def d6(self) -> int:
        value = self.dice.d6()
        self.rolls.append(value)
        return value

    def __getattr__(self, name: str) -> object:
        return getattr(self.dice, name)


def test_a_six_dice_game_rolled_at_the_table_is_stored_from_its_letters() -> None:
    season = make_season(game="sixdice", teams=2)
    game = season.games.get()
    engine = find_game("sixdice")
    recording = Recording(5)
    home = engine.read_team({"school": game.home.school, "season": game.home.season})
    away = engine.read_team({"school": game.away.school, "season": game.away.season})
    expected = engine.play(home, away, recording, engine.make_rules())  # type: ignore[arg-type]
    letters = ["BBBPSF"[v - 1] for v in recording.rolls]
    services.game_replay_dice(game_id=game.pk, script={"format": "vabg-dice/1", "d6": letters})
    game.refresh_from_db()
    assert game.status == "final"
    assert (game.result.home_score, game.result.away_score) == (
        expected.home.score,
        expected.away.score,
    )
    assert game.result.box["home"]["rolls_won"] == expected.home.box.rolls_won


def test_a_typed_in_six_dice_score_is_stored_without_lines() -> None:
    season = make_season(game="sixdice", teams=2)
    game = season.games.get()
    with pytest.raises(services.ResultRefused) as refused:
        services.game_result_enter(
            game_id=game.pk, home_score=21, away_score=21, home_lines=[{"name": "x"}]
        )
    assert refused.value.problems[:2] == (
        "a Six dice to 21 game never ends tied (21-21)",
        "a Six dice to 21 game has no player lines and no overtime: enter its score only",
    )
    # Scores the game to 21 cannot end on, each refused in words (the sheet is kept).
    for home, away, words in (
        (5, 3, "a Six dice to 21 game is played to 21: the winner has 5"),
        (24, 17, "worth 3 at most: the winner has 23 at most, not 24"),
        (22, 21, "ends once a team reaches 21: the loser cannot have 21"),
    ):
        with pytest.raises(services.ResultRefused) as refused:
            services.game_result_enter(game_id=game.pk, home_score=home, away_score=away)
        assert any(words in problem for problem in refused.value.problems), (home, away)
    services.game_result_enter(game_id=game.pk, home_score=21, away_score=17)
    game.refresh_from_db()
    assert (game.status, game.result.rules) == (
        "final",
        {"version": 2, "faces": "BBBPSF", "chip_reroll": False, "deflected_pass_penalty": False},
    )
    rows = standings_for_season(season_id=season.pk)[0][1]
    assert next((r["team_id"], r["wins"]) for r in rows) == (game.home_id, 1)


def test_a_six_dice_game_stored_before_the_g10_ruling_replays_as_it_was_played(capsys) -> None:  # type: ignore[no-untyped-def]
    # The game of the fixture was played and stored by the engine before the note of
    # 2026-11-26: its two Deflected Passes each cost Kansas a die.
    stored = json.loads(STORED_V1.read_text())
    assert stored["rules"] == {"version": 1, "faces": "BBBPSF", "chip_reroll": False}
    deflected = [e for e in stored["events"] if e["type"] == "pass" and e["kind"] == "deflected"]
    assert [e["penalized"] for e in deflected] == ["away", "away"]
    season = make_season(game="sixdice", teams=2)
    game = season.games.get()
    GameResult.objects.create(
        game=game,
        home_score=stored["home_score"],
        away_score=stored["away_score"],
        overtimes=0,
        home_periods=[],
        away_periods=[],
        home_possessions=stored["box"]["home"]["poss"],
        away_possessions=stored["box"]["away"]["poss"],
        home_team_file=stored["home_team_file"],
        away_team_file=stored["away_team_file"],
        events=stored["events"],
        dice=stored["dice"],
        rules=stored["rules"],
        box=stored["box"],
    )
    Game.objects.filter(pk=game.pk).update(seed=stored["seed"], status=Game.Status.FINAL)

    words = [text for _, text in play_by_play(game, game.result)]
    passes = [text for text in words if " pass" in text]
    assert passes == [f"{game.home}: deflected pass; {game.away} rolls one die fewer next."] * 2

    again = services.game_replay(game_id=game.pk)
    assert json.loads(json.dumps([e.to_json() for e in again.events])) == stored["events"]
    assert (again.home.score, again.away.score) == (23, 4)
    call_command("simulate", "--replay", str(game.pk))
    assert "identical, event for event." in capsys.readouterr().out

    # A new game follows the ruling: the same seed under today's rules reads other dice.
    engine = find_game("sixdice")
    today = engine.play(
        engine.read_team(stored["home_team_file"]),
        engine.read_team(stored["away_team_file"]),
        SeededDice(stored["seed"]),
        engine.make_rules(**game.options),
    )
    assert today.rules.to_json()["version"] == 2
    events = json.loads(json.dumps([e.to_json() for e in today.events]))
    first = stored["events"].index(deflected[0])
    assert events[:first] == stored["events"][:first]  # the same game up to that pass
    assert events[first] == {**deflected[0], "penalized": None}  # no die penalty now
    assert events[first + 2 :] != stored["events"][first + 2 :]  # Kansas rolls six dice


def test_a_new_six_dice_game_s_words_say_a_deflected_pass_costs_no_die() -> None:
    home, away = TeamFactory(), TeamFactory()
    game = services.game_create(home=home, away=away, game="sixdice", seed=2494)
    game = services.game_simulate(game_id=game.pk)
    assert game.result.rules["version"] == 2
    words = [text for _, text in play_by_play(game, game.result)]
    assert f"{home}: deflected pass." in words
    assert f"{away}: no-look pass; {home} rolls one die fewer next." in words
    assert not any("deflected pass;" in text for text in words)


def test_a_grid_court_totals_row_says_what_no_piece_is_credited_with(client) -> None:  # type: ignore[no-untyped-def]
    """A trial (2026-11-29) read a grid-court box score whose pieces had no steal or
    turnover and whose Totals row said STL 2, TOV 2, with no word why: a steal on a movement
    roll and a shot-clock violation are the team's (gridcourt-rulings.md §7). The Totals row
    names what it counts beyond the pieces' sums."""
    season = make_season(teams=4, game="gridcourt")
    for game in season.games.all():
        services.game_simulate(game_id=game.pk)
    engine = find_game("gridcourt")
    noted = 0
    for result in GameResult.objects.filter(game__season=season).select_related("game"):
        page = client.get(f"/games/{result.game_id}/").content.decode()
        feet = page.split("<tfoot>")[1:]
        for side, foot in zip(("away", "home"), feet, strict=True):
            doc = result.box[side]
            beyond = [
                f"{c.label} {doc['totals'][c.key] - sum(p[c.key] for p in doc['pieces']):g}"
                for c in engine.columns
                if doc["totals"][c.key] != sum(p[c.key] for p in doc["pieces"])
            ]
            row = foot.split("</td>")[0]
            if beyond:
                noted += 1
                assert f"(team {', '.join(beyond)})" in row, row
            else:
                assert "(team" not in row
    assert noted  # the season met at least one team steal or turnover


def test_a_typed_in_grid_court_score_may_end_short_of_21_but_never_past_it() -> None:
    """Grid court's safety net (rulings §3: at turn 2,000 the leader wins) lets a game end
    short of 21; the basket that reaches 21 ends it, so the loser never has 21."""
    game = make_season(game="gridcourt", teams=2).games.get()
    with pytest.raises(services.ResultRefused) as refused:
        services.game_result_enter(game_id=game.pk, home_score=23, away_score=21)
    assert refused.value.problems == (
        "a Grid court game ends once a team reaches 21: the loser cannot have 21",
    )
    services.game_result_enter(game_id=game.pk, home_score=15, away_score=9)
    assert Game.objects.get(pk=game.pk).status == "final"
