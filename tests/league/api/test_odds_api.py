"""The exact odds in the API: previews, win probability, bracket odds and what-ifs (POST,
nothing written), season odds; each the numbers of ``league.odds`` and the engine."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import odds, services
from league.api import odds as odds_api
from league.models import Game, GameResult
from simulator.vabg import preset
from simulator.vabg.coachodds import coach_odds, exact_odds
from simulator.vabg.odds import matchup_odds
from tests.factories import commissioner, fan
from tests.league.api import client_for, season_scheduled, throttle_reset, tournament_drawn

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    throttle_reset()


def test_a_scheduled_games_preview(django_capture_on_commit_callbacks) -> None:
    season = season_scheduled(teams=2)
    game = season.games.first()
    response = client_for().get(reverse("api:game-preview", args=[game.pk]))
    assert response.status_code == 200
    body = response.json()
    cards = odds.entries_for([game.home_id, game.away_id])
    exact = exact_odds(
        cards[game.home_id].card,
        cards[game.away_id].card,
        rules=preset(game.rules, strategy=game.strategy),
        scores=False,
    )
    assert body["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)
    assert body["coach_policy"] is game.strategy
    assert body["spread"] == pytest.approx(exact.expected_home_pts - exact.expected_away_pts)
    assert body["cards"] == "current" and body["game_id"] == game.pk
    assert sum(row["p"] for row in body["margin"]) == pytest.approx(1.0, abs=1e-4)


def test_a_matchup_and_its_refusals() -> None:
    season = season_scheduled(teams=2)
    a, b = (e.team_id for e in season.entries.all())
    url = reverse("api:matchup")
    body = client_for().get(url, {"home": a, "away": b, "neutral": "true"}).json()
    cards = odds.entries_for([a, b])
    exact = matchup_odds(cards[a].card, cards[b].card, rules=preset("advanced"), neutral=True)
    assert body["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)
    assert body["neutral"] is True
    assert client_for().get(url, {"home": a, "away": a}).status_code == 400
    # A team id refused as the API's other ids are: naming the id, or what an id is.
    for away, said in [
        (999999, "No team 999999."),
        ("x", "'x' is not a team id: an id is a whole number."),
        ("-3", "'-3' is not a team id: an id is a whole number."),
        (2**70, f"No team {2**70}."),
        ("", "Give an id: a whole number."),
    ]:
        refused = client_for().get(url, {"home": a, "away": away})
        assert (refused.status_code, refused.json()) == (400, {"away": [said]}), away
    assert client_for().get(url, {"home": a, "away": b, "rules": "nope"}).status_code == 400
    # A misspelt parameter is refused naming those it reads (it answered home-court odds).
    misspelt = client_for().get(url, {"home": a, "away": b, "nuetral": "true"})
    assert misspelt.status_code == 400 and "neutral" in misspelt.json()["nuetral"][0]
    # Another game reads the teams' coach styles, under its options (JSON); bad ones refused.
    dice = client_for().get(
        url, {"home": a, "away": b, "game": "sixdice", "options": '{"chip_reroll": true}'}
    )
    assert dice.status_code == 200
    assert (dice.json()["game"], dice.json()["options"]) == (
        "sixdice",
        {"faces": "BBBPSF", "chip_reroll": True},
    )
    refused = client_for().get(
        url, {"home": a, "away": b, "game": "gridcourt", "options": '{"pieces": 9}'}
    )
    assert refused.status_code == 400
    assert "pieces must be one of 3, 4, 5, got 9" in str(refused.json())
    # VABG's rules or coach asked of six dice: refused as a season's are, not ignored.
    for asked in ({"rules": "basic"}, {"strategy": "true"}):
        refused = client_for().get(url, {"home": a, "away": b, "game": "sixdice", **asked})
        assert refused.status_code == 400, asked
        assert refused.json() == {
            name: ["Not a setting of Six dice to 21: its rules are given in options."]
            for name in asked
        }
    coached = client_for().get(url, {"home": a, "away": b, "strategy": "true"}).json()
    exact = coach_odds(cards[a].card, cards[b].card, rules=preset("advanced", strategy=True))
    assert coached["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)
    assert coached["coach_policy"] is True


def test_a_played_games_win_probability(django_capture_on_commit_callbacks) -> None:
    season = season_scheduled(teams=2)
    game = season.games.first()
    url = reverse("api:game-win-probability", args=[game.pk])
    unplayed = client_for().get(url)  # not played yet: as its box score says, a 404
    assert unplayed.status_code == 404
    assert unplayed.json() == {
        "detail": f"Game {game.pk} has not been played yet: it is scheduled."
    }
    with django_capture_on_commit_callbacks(execute=True):
        services.game_simulate(game_id=game.pk)
    body = client_for().get(url).json()
    result = GameResult.objects.get(game=game)
    points = body["points"]
    assert points[0]["p_home"] == pytest.approx(body["pregame"])
    assert points[-1]["p_home"] == (1.0 if result.home_score > result.away_score else 0.0)
    preview = client_for().get(reverse("api:game-preview", args=[game.pk])).json()
    assert preview["cards"] == "as played"
    assert points[0]["p_home"] == pytest.approx(preview["p_home_win"], abs=1e-9)


def test_tournament_odds_and_a_what_if_post_that_writes_nothing() -> None:
    season = tournament_drawn(teams=5)
    url = reverse("api:tournament-odds", args=[season.pk])
    body = client_for().get(url).json()
    for r, round_ in enumerate(body["rounds"]):
        assert sum(t["reach"][r] for t in body["teams"]) == pytest.approx(round_["slots"])
    game = season.games.get()
    games_before = list(Game.objects.values_list("pk", "status"))
    response = client_for().post(
        url, {"winners": {game.bracket_key: game.away_id}}, format="json"
    )  # anonymous: a what-if writes nothing
    assert response.status_code == 200
    teams = {t["team_id"]: t for t in response.json()["teams"]}
    assert teams[game.away_id]["reach"][1] == 1.0
    assert teams[game.home_id]["reach"][1] == 0.0 and teams[game.home_id]["champion"] == 0.0
    assert list(Game.objects.values_list("pk", "status")) == games_before
    refused = client_for().post(url, {"winners": {game.bracket_key: 999999}}, format="json")
    assert refused.status_code == 400 and "does not play" in refused.json()["detail"]
    assert client_for().post(url, {"winners": "x"}, format="json").status_code == 400
    other = season_scheduled(teams=2, name="not a cup")
    assert client_for().get(reverse("api:tournament-odds", args=[other.pk])).status_code == 404


def test_a_field_far_from_built_answers_202_until_the_workers_have_it(monkeypatch) -> None:
    season = tournament_drawn(teams=5)
    monkeypatch.setattr(odds, "ON_DEMAND_PAIRS", 0)
    monkeypatch.setattr(odds, "ON_DEMAND_COACHED_PAIRS", 0)
    sent = []
    monkeypatch.setattr(
        odds.pairs_wanted, "send", lambda sender, **kwargs: sent.append(kwargs) or []
    )
    url = reverse("api:tournament-odds", args=[season.pk])
    response = client_for().get(url)
    assert response.status_code == 202
    assert response.json()["pairs_ready"] == 0 and sent
    assert sorted(h for s in sent for h in s["home_ids"])  # the rows to build
    odds.pair_table_build(season_id=season.pk)  # what the workers do
    assert client_for().get(url).status_code == 200


def test_season_odds_are_seeded() -> None:
    season = season_scheduled(teams=4)
    url = reverse("api:season-odds", args=[season.pk])
    first = client_for().get(url, {"seasons": 2000, "seed": 5}).json()
    again = client_for().get(url, {"seasons": 2000, "seed": 5}).json()
    assert first["teams"] == again["teams"] and first["seasons"] == 2000
    assert sum(t["p_first"] for t in first["teams"]) == pytest.approx(1.0)
    assert client_for().get(url, {"seasons": 10**9}).status_code == 400
    # Anyone may ask, so an anonymous client's request is bounded by what it costs.
    anonymous = client_for().get(url, {"seasons": 20_001})
    assert anonymous.status_code == 400
    assert "20000 without signing in as a commissioner" in anonymous.json()["seasons"][0]
    assert client_for(fan("asker")).get(url, {"seasons": 20_001}).status_code == 400
    assert client_for(commissioner()).get(url, {"seasons": 20_001}).status_code == 200


def test_a_request_s_season_odds_are_bounded_by_the_games_they_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """20,000 seasons of a 96-team double round robin (9,120 games left) took 4 s of the web
    process for anyone who asked: the seasons alone were capped, not the games sampled."""
    season = season_scheduled(teams=4)
    left = Game.objects.filter(season=season).count()
    monkeypatch.setattr(odds_api, "ANON_DRAWS_MAX", 300 * left)  # a small season's scale
    monkeypatch.setattr(odds_api, "DRAWS_MAX", 600 * left)
    url = reverse("api:season-odds", args=[season.pk])
    assert client_for().get(url, {"seasons": 300}).status_code == 200
    refused = client_for().get(url, {"seasons": 301})
    assert refused.status_code == 400
    assert refused.json()["seasons"] == [
        f"301 seasons of the {left} games left would sample {301 * left:,} games; a request "
        f"may sample at most {300 * left:,} ({600 * left:,} for a commissioner: 600 "
        "seasons here): at most 300 seasons here. Without seasons and seed the season's own "
        "odds (10,000 seasons) are sampled by the background and kept."
    ]
    # A fan signs himself up: his requests are bounded as anyone's.
    assert client_for(fan("sampler")).get(url, {"seasons": 301}).status_code == 400
    commissioner_client = client_for(commissioner())
    assert commissioner_client.get(url, {"seasons": 600}).status_code == 200
    assert commissioner_client.get(url, {"seasons": 601}).status_code == 400
    # The page's own odds are not sampled in the request: no bound applies.
    assert client_for().get(url).status_code in (200, 202)


def test_a_league_season_s_tournament_odds_say_where_its_odds_are() -> None:
    season = season_scheduled(teams=4)
    response = client_for().get(reverse("api:tournament-odds", args=[season.pk]))
    assert response.status_code == 404
    assert response.json()["detail"] == (
        f"{season} is a league season, not a tournament: it has no bracket. Its odds are at "
        f"/api/seasons/{season.pk}/odds/."
    )
