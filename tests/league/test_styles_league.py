"""Coach styles in the league: played in seasons, kept with results, replayed, in the odds."""

from __future__ import annotations

import json
from functools import partial

import pytest
from django.test import Client

from cards.styles import styles_document
from league import other_odds, services, tournaments
from league.models import Game
from simulator.games import StyledTeam, find_game
from simulator.sixdice.odds import exact_odds
from simulator.sixdice.style import DEFAULT_STYLE, SixDiceStyle
from tests import factories
from tests.factories import TeamFactory

make_season = partial(factories.make_season, seed=7)

pytestmark = pytest.mark.django_db

SHOOTERS = {"sixdice": {"threes": "outside"}, "gridcourt": {"threes": 200, "patience": 20}}
TWOS = {"sixdice": {"threes": "never"}, "gridcourt": {"threes": 50}}


def events_of(played: object) -> list[dict[str, object]]:
    return json.loads(json.dumps([e.to_json() for e in played.events]))  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["sixdice", "gridcourt"])
def test_a_season_plays_each_team_s_style_keeps_it_and_replays_it(game: str) -> None:
    shooters = TeamFactory(school="Shooters", styles=SHOOTERS)
    rest = [TeamFactory(styles=TWOS) for _ in range(2)]
    # Level 1 for grid court: there a corner 3 needs a 9, and only a keen team takes it.
    options = {"level": 1} if game == "gridcourt" else {}
    season = make_season(game=game, teams=[shooters, *rest], options=options)
    for g in season.games.all():
        services.game_simulate(game_id=g.pk)
    kind = find_game(game)
    threes = {"shooters": 0, "others": 0}
    played = {"shooters": 0, "others": 0}
    for g in season.games.select_related("result", "home", "away"):
        result = g.result
        for team, doc in ((g.home, result.home_team_file), (g.away, result.away_team_file)):
            assert doc["styles"] == styles_document(team)
            side = "home" if team == g.home else "away"
            box = result.box[side]
            made = box["fg3a"] if game == "sixdice" else sum(p["tpa"] for p in box["pieces"])
            who = "shooters" if team == shooters else "others"
            threes[who] += made
            played[who] += 1
        assert events_of(services.game_replay(game_id=g.pk)) == result.events
    print(threes, played)
    assert threes["shooters"] / played["shooters"] > 2 * threes["others"] / played["others"]
    # A style changed afterwards changes nothing already played: the result keeps its own.
    shooters.styles = {}
    shooters.save()
    for g in season.games.filter(status=Game.Status.FINAL):
        assert events_of(services.game_replay(game_id=g.pk)) == g.result.events
    assert kind.name == game


def test_a_result_stored_before_styles_replays_with_the_rulings_policy() -> None:
    teams = [TeamFactory(styles={"gridcourt": "rulings"}) for _ in range(2)]
    season = make_season(game="gridcourt", teams=teams, options={"level": 1})
    game = services.game_simulate(game_id=season.games.get().pk)
    result = game.result
    for doc in (result.home_team_file, result.away_team_file):
        assert doc["styles"]["gridcourt"] == "rulings"
        del doc["styles"]  # as every result stored before styles has it
    result.save()
    assert events_of(services.game_replay(game_id=game.pk)) == result.events


def test_a_preview_and_the_season_odds_are_those_of_the_styles_played(client: Client) -> None:
    shooters = TeamFactory(school="Shooters", styles=SHOOTERS)
    plain = TeamFactory(school="Plain", styles={"sixdice": "rulings"})
    season = make_season(game="sixdice", teams=[shooters, plain])
    home_first = season.games.filter(home=shooters).first()
    assert home_first is not None
    preview = client.get(f"/api/games/{home_first.pk}/preview/").json()
    exact = exact_odds(home=SixDiceStyle(threes="outside"), away=DEFAULT_STYLE)
    assert preview["p_home_win"] == pytest.approx(exact.p_home_win)
    assert preview["p_home_win"] < 0.45  # shooting 3s with every Ball outside costs games
    assert preview["styles"]["home"]["sixdice"] == {
        "threes": "outside",
        "inside": "shoot",
        "chip": "always",
    }
    odds = other_odds.season_odds(season, seasons=2_000, seed=1)
    rows = {r["team"]: r for r in odds["teams"]}
    assert odds["style_pairings"] == season.games.count()  # each game its own pairing
    assert odds["styles_counted"] is True
    assert rows["Plain 2000"]["expected_wins"] > rows["Shooters 2000"]["expected_wins"]
    # The game's own odds of that pairing, as the interface gives them.
    pairing = find_game("sixdice").odds(
        None,
        StyledTeam("Shooters", 2000, SixDiceStyle(threes="outside")),
        StyledTeam("Plain", 2000, DEFAULT_STYLE),
    )
    assert pairing.p_home_win == pytest.approx(exact.p_home_win)


def test_grid_court_season_odds_say_when_the_styles_are_too_many_to_simulate() -> None:
    teams = [
        TeamFactory(styles={"gridcourt": {"threes": threes}}) for threes in (50, 75, 100, 150, 200)
    ]
    season = make_season(game="gridcourt", teams=teams)
    odds = other_odds.season_odds(season, seasons=500, seed=1)
    assert odds["styles_counted"] is False and odds["style_pairings"] == 0
    assert "more than the 6 a season's odds simulate" in odds["note"]
    # Every game is then the default styles' coin, the stored run of the level.
    assert odds["p_home_win"] == pytest.approx(find_game("gridcourt").odds().p_home_win)


def test_with_workers_a_grid_court_season_s_odds_wait_for_every_pairing_of_its_styles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reviewer's 8-team grid court bracket gave every team 12.4-12.7% (its 28 pairings of
    styles were past the 6 a page simulated: every game a coin) while a research run of the
    same bracket had UCLA 1972 at 46%. With workers every pairing is sent to them and the
    odds wait for all of them, saying how many are ready."""
    from league import background
    from league.errors import PairingsPending

    teams = [
        TeamFactory(styles={"gridcourt": {"threes": threes}}) for threes in (50, 75, 100, 150, 200)
    ]
    season = make_season(game="gridcourt", teams=teams)
    monkeypatch.setattr(background, "available", lambda: True)
    sent: list[dict[str, object]] = []
    monkeypatch.setattr(
        other_odds.pairings_wanted, "send", lambda sender, **message: sent.append(message)
    )
    assert other_odds.pairings_limit() == other_odds.BACKGROUND_PAIRINGS >= 66
    with pytest.raises(PairingsPending) as pending:
        other_odds.season_odds(season, seasons=500, seed=1)
    # the default pairing is kept already (the stored run of the level); the 10 of the
    # season's styles are all sent, not 6 of them
    assert pending.value.needed - pending.value.ready == 10
    assert sum(len(m["pairings"]) for m in sent) == 10  # type: ignore[arg-type]


def test_bracket_odds_are_those_of_each_pairing_of_styles(client: Client) -> None:
    league = services.league_get_or_create(name="styled cup")
    # One team keeps the Power Chip for shots: it hands every tied main roll away.
    saver = TeamFactory(school="Savers", styles={"sixdice": {"chip": "shots"}})
    teams = [saver, *(TeamFactory() for _ in range(3))]
    cup = tournaments.tournament_create(
        league=league, name="Cup", teams=teams, seed=1, game="sixdice"
    )
    body = client.get(f"/api/tournaments/{cup.pk}/odds/").json()
    # The pairs the bracket lets meet, the top team at home: default against default, and
    # the savers (the top seed) at home; never away.
    assert body["styles_counted"] is True and body["style_pairings"] == 2
    champion = {t["team_id"]: t["champion"] for t in body["teams"]}
    others = [champion[t.pk] for t in teams[1:]]
    assert champion[saver.pk] < 0.01
    assert sum(others) == pytest.approx(1 - champion[saver.pk])
    # The savers' first opponent all but walks into the final: about twice the others' odds.
    assert sorted(others)[-1] > 1.8 * sorted(others)[0] > 0.4
