"""Six dice's and grid court's own odds in the league: previews, win-probability charts,
season and bracket odds from the game's own odds, never VABG's; refusals name the game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from typing import Any
from unittest.mock import patch

import pytest
from django.core.cache import cache
from django.test import Client

from league import background, other_odds, services, tasks, tournaments
from league.models import Game, Season
from league.templatetags.odds_charts import score_chart
from simulator.games import find_game
from simulator.gridcourt import odds as gridcourt_odds
from tests import factories
from tests.factories import TeamFactory

make_season = partial(factories.make_season, seed=5)

pytestmark = pytest.mark.django_db


def first_game(season: Season) -> Game:
    return season.games.order_by("pk").first()  # type: ignore[return-value]


def test_a_six_dice_preview_is_the_exact_law_of_six_dice_not_a_vabg_score(client: Client) -> None:
    game = first_game(make_season(game="sixdice"))
    response = client.get(f"/api/games/{game.pk}/preview/")
    assert response.status_code == 200
    preview = response.json()
    exact = find_game("sixdice").odds()
    assert exact is not None
    assert preview["game"] == "sixdice" and preview["method"] == "exact"
    assert preview["p_home_win"] == pytest.approx(exact.p_home_win)
    assert preview["standard_error"] == 0.0
    # A game to 21: the winner's score is 21, 22 or 23, never a VABG 65-58.
    assert {row["x"] for row in preview["home_score"]} <= set(range(24))
    assert 18 <= preview["expected_home_pts"] <= 21
    assert sum(r["p"] for r in preview["final_score"]) == pytest.approx(1.0, abs=1e-5)
    if round(preview["spread"], 1) == 0:  # both on the default style: no favourite to name
        assert preview["spread_text"] == "even"
    # The odds are those of the styles the two teams play (derived: the default style).
    assert "Exact" in preview["note"] and "coach style" in preview["note"]
    assert preview["styles"]["home"]["sixdice"] == {
        "threes": "never",
        "inside": "shoot",
        "chip": "always",
    }


def test_a_played_six_dice_game_has_an_exact_win_probability_chart(client: Client) -> None:
    game = services.game_simulate(game_id=first_game(make_season(game="sixdice")).pk)
    for url in (f"/api/games/{game.pk}/preview/", f"/api/games/{game.pk}/win-probability/"):
        assert client.get(url).status_code == 200, url  # no more 400 about vabg-team/1
    series = client.get(f"/api/games/{game.pk}/win-probability/").json()
    points = series["points"]
    assert series["game"] == "sixdice"
    assert points[0]["p_home"] == pytest.approx(0.5)
    home_won = game.result.home_score > game.result.away_score
    assert points[-1]["p_home"] == (1.0 if home_won else 0.0)
    assert len(points) > 10 and all(0 <= p["p_home"] <= 1 for p in points)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="winprob"' in html and "before the jump ball" in html
    assert "trip" not in html.split('id="winprob"')[1].split("</section>")[0]


def test_a_scheduled_six_dice_game_page_shows_its_own_preview(client: Client) -> None:
    game = first_game(make_season(game="sixdice"))
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="preview"' in html and 'data-method="exact"' in html
    assert "Exact, from the dice math of six dice to 21" in html
    assert "overtime" not in html


def test_a_grid_court_preview_is_simulated_and_says_its_standard_error(client: Client) -> None:
    game = first_game(make_season(game="gridcourt"))
    preview = client.get(f"/api/games/{game.pk}/preview/").json()
    odds = find_game("gridcourt").odds()
    assert odds is not None and odds.method == "simulated"
    assert preview["method"] == "simulated" and preview["games_simulated"] == odds.games
    assert preview["p_home_win"] == pytest.approx(odds.p_home_win)
    assert preview["standard_error"] == pytest.approx(odds.standard_error)
    assert odds.standard_error > 0
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "one standard error" in html and "seeded games of grid court" in html


def test_grid_court_rules_of_the_commissioners_own_are_run_and_every_page_agrees(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A court 13 wide has no stored run: its own games, for the preview and for the
    # season's odds alike (a trial's bracket said "no odds" where the preview gave some).
    # The run is shortened to 100 games (the same code); no shortened run is left behind in
    # the per-process cache or the Django cache for a later test.
    monkeypatch.setattr(gridcourt_odds, "STYLE_GAMES", 100)
    gridcourt_odds.styled_odds.cache_clear()
    try:
        game = first_game(make_season(game="gridcourt", options={"width": 13}))
        preview = client.get(f"/api/games/{game.pk}/preview/").json()
        assert preview["method"] == "simulated" and preview["games_simulated"] == 100
        season_response = client.get(f"/api/seasons/{game.season_id}/odds/?seasons=100")
        assert season_response.status_code == 200
        assert season_response.json()["p_home_win"] == pytest.approx(preview["p_home_win"])
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert "No odds for this game" not in html and "seeded games of grid court" in html
    finally:
        gridcourt_odds.styled_odds.cache_clear()
        cache.clear()


def test_a_grid_court_bracket_counts_the_styles_of_the_pairs_that_can_meet_as_previews_do(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trial's README cup of four styled teams gave Kentucky 50.2% in its bracket (every
    ordered pair counted, 12 pairings of styles, past the 6 a page runs: the default coin)
    and 26.7% on the game's own preview. The pairs that can meet, the top team at home,
    are 6: the bracket counts every team's style, and a first-round game's chance to send
    its home team to the final is its preview's P(home wins)."""
    monkeypatch.setattr(gridcourt_odds, "STYLE_GAMES", 60)  # the same code, shorter runs
    gridcourt_odds.styled_odds.cache_clear()
    try:
        teams = [
            TeamFactory(styles={"gridcourt": {"threes": threes, "crashers": n % 3}})
            for n, threes in enumerate((50, 100, 150, 200))
        ]
        cup = tournaments.tournament_create(
            league=services.league_get_or_create(name="Grid League"),
            name="Cup",
            teams=teams,
            seed=3,
            game="gridcourt",
        )
        body = client.get(f"/api/tournaments/{cup.pk}/odds/").json()
        assert body["styles_counted"] is True and body["style_pairings"] == 6
        assert "default coach style" not in body["note"]
        final = {t["team_id"]: t["reach"][1] for t in body["teams"]}
        for game in cup.games.filter(round=1):
            preview = client.get(f"/api/games/{game.pk}/preview/").json()
            assert final[game.home_id] == pytest.approx(preview["p_home_win"], abs=1e-12)
    finally:
        gridcourt_odds.styled_odds.cache_clear()
        cache.clear()


def test_a_played_grid_court_game_has_no_chart_and_says_so(client: Client) -> None:
    game = services.game_simulate(game_id=first_game(make_season(game="gridcourt", teams=2)).pk)
    response = client.get(f"/api/games/{game.pk}/win-probability/")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Grid court has no win probability during a game")
    assert client.get(f"/api/games/{game.pk}/preview/").status_code == 200


@pytest.mark.parametrize("game", ["sixdice", "gridcourt"])
def test_season_odds_use_the_game_s_own_p_home_win(client: Client, game: str) -> None:
    season = make_season(game=game, teams=4)
    response = client.get(f"/api/seasons/{season.pk}/odds/?seasons=2000&seed=3")
    assert response.status_code == 200
    body = response.json()
    odds = find_game(game).odds()
    assert odds is not None
    assert body["game"] == game and body["p_home_win"] == pytest.approx(odds.p_home_win)
    assert body["games_left"] == season.games.count()
    assert "coach policy" not in body["note"]
    # Teams carry nothing into these games: each team's chance of first is about 1 in 4.
    assert sum(t["p_first"] for t in body["teams"]) == pytest.approx(1.0)
    assert all(0.15 < t["p_first"] < 0.35 for t in body["teams"])
    page = client.get(f"/seasons/{season.pk}/odds/")
    assert page.status_code == 200
    assert "plays it: its teams differ only by their coach styles" in page.content.decode()


def test_six_dice_bracket_odds_are_coin_flips_and_move_with_a_what_if(client: Client) -> None:
    league = services.league_get_or_create(name="dice cup")
    teams = [TeamFactory() for _ in range(4)]
    cup = tournaments.tournament_create(
        league=league, name="Cup", teams=teams, seed=1, game="sixdice"
    )
    body = client.get(f"/api/tournaments/{cup.pk}/odds/").json()
    assert body["game"] == "sixdice" and body["method"] == "exact"
    assert [t["champion"] for t in body["teams"]] == pytest.approx([0.25] * 4)
    first = cup.games.order_by("pk").first()
    assert first is not None
    locked = client.post(
        f"/api/tournaments/{cup.pk}/odds/",
        {"winners": {first.bracket_key: first.home_id}},
        content_type="application/json",
    ).json()
    champion = {t["team_id"]: t["champion"] for t in locked["teams"]}
    assert champion[first.home_id] == pytest.approx(0.5)
    assert champion[first.away_id] == 0.0
    html = client.get(f"/seasons/{cup.pk}/bracket/").content.decode()
    assert 'id="bracket-odds"' in html and "as Six dice to 21 plays it" in html


def test_a_six_dice_field_never_sends_vabg_pairs_to_the_workers() -> None:
    from league import odds
    from league.models import PairOdds

    sent: list[dict[str, Any]] = []

    def receiver(sender: Any, **kwargs: Any) -> None:
        sent.append(kwargs)

    odds.pairs_wanted.connect(receiver, sender=PairOdds, dispatch_uid="test-other-odds")
    try:
        dice = make_season(game="sixdice")
        odds.pair_table_refresh(season_id=dice.pk)
        assert sent == []
    finally:
        odds.pairs_wanted.disconnect(sender=PairOdds, dispatch_uid="test-other-odds")
    assert not PairOdds.objects.exists()


def test_a_pairing_s_odds_are_worked_out_once_and_kept_until_the_engine_changes(
    monkeypatch: Any,
) -> None:
    from django.core.cache import cache

    from league import other_odds

    cache.clear()
    kind = find_game("sixdice")
    solved: list[tuple[Any, Any]] = []
    real = type(kind).odds

    def counted(self: Any, rules: Any, home: Any = None, away: Any = None) -> Any:
        solved.append((home, away))
        return real(self, rules, home, away)

    monkeypatch.setattr(type(kind), "odds", counted)
    doc = {"school": "A", "season": 2000, "styles": {}}
    first = other_odds.match_odds("sixdice", {}, doc, {**doc, "school": "B"})[1]
    # Another pair of teams with the same (default) styles reads the kept law.
    again = other_odds.match_odds("sixdice", {}, {**doc, "school": "C"}, doc)[1]
    assert len(solved) == 1 and again == first
    monkeypatch.setattr(other_odds, "engine_fingerprint", lambda: "a changed engine")
    assert other_odds.match_odds("sixdice", {}, doc, doc)[1] == first
    assert len(solved) == 2


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Workers in the background: the pairings sent to them, kept instead of played (a
    test plays them with ``other_odds.pairings_build``, as the task does)."""
    monkeypatch.setattr(background, "available", lambda: True)
    kept: list[dict[str, Any]] = []

    def worker(sender: Any, **message: Any) -> None:
        kept.append({k: message[k] for k in ("game", "options", "pairings")})

    other_odds.pairings_wanted.disconnect(sender=Game, dispatch_uid="league.send_pairings")
    other_odds.pairings_wanted.connect(worker, sender=Game, dispatch_uid="test.worker")
    try:
        yield kept
    finally:
        other_odds.pairings_wanted.disconnect(sender=Game, dispatch_uid="test.worker")
        other_odds.pairings_wanted.connect(
            tasks.send_pairings, sender=Game, dispatch_uid="league.send_pairings"
        )


def test_a_pairing_not_worked_out_yet_goes_to_the_workers_while_the_pages_wait(
    client: Client, sent: list[dict[str, Any]]
) -> None:
    # Grid court runs 1,000 games for a pairing (seconds): no page may do that while its
    # reader waits (a trial's preview took 8.7 s). With workers, the pages say how far the
    # pairings are, the workers work them out into the cache, and then the pages read them.
    # (Six dice here: the same path as grid court's, the cheaper work; rules no other test
    # uses, so nothing is in the cache yet.)
    season = make_season(game="sixdice", options={"faces": "BBPPSF", "chip_reroll": True}, teams=3)
    game = first_game(season)
    with patch.object(find_game("sixdice"), "odds", side_effect=AssertionError("solved")):
        response = client.get(f"/api/games/{game.pk}/preview/")
        assert response.status_code == 202 and response.json()["pending"] is True
        assert "being worked out in the background" in response.json()["message"]
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert "being worked out in the background" in html
        season_odds = client.get(f"/api/seasons/{season.pk}/odds/?seasons=100")
        assert season_odds.status_code == 202
        page = client.get(f"/seasons/{season.pk}/odds/").content.decode()
        assert "pairings of coach styles are ready" in page
    # The game's pairing (from its preview) and the default styles' (the season's
    # odds read it first): each sent once, not again on every reload.
    pairings = [json.dumps(p, sort_keys=True) for m in sent for p in m["pairings"]]
    assert len(pairings) == len(set(pairings)) == 2
    for message in sent:
        other_odds.pairings_build(**message)  # what the worker's task runs
    preview = client.get(f"/api/games/{game.pk}/preview/")
    assert preview.status_code == 200 and preview.json()["method"] == "exact"
    assert client.get(f"/api/seasons/{season.pk}/odds/?seasons=100").status_code == 200


def test_a_new_season_sends_its_pairings_to_the_workers_before_anyone_asks(
    client: Client, sent: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    # The first reader of a new six-dice season's previews finds them worked out, instead
    # of a "being worked out" page: the season's creation sends them.
    with django_capture_on_commit_callbacks(execute=True):
        season = make_season(game="sixdice", options={"faces": "BBPPPF"}, teams=3)
    pairings = [p for m in sent for p in m["pairings"]]
    assert [None, None] in pairings and len(pairings) >= 2
    for message in sent:
        other_odds.pairings_build(**message)
    with patch.object(find_game("sixdice"), "odds", side_effect=AssertionError("solved")):
        preview = client.get(f"/api/games/{first_game(season).pk}/preview/")
        assert preview.status_code == 200 and preview.json()["method"] == "exact"


@pytest.mark.parametrize(
    ("game", "said"), [("sixdice", False), ("gridcourt", False), ("vabg", True)]
)
def test_a_score_chart_names_a_neutral_court_only_for_a_game_it_changes(
    game: str, said: bool
) -> None:
    """A six-dice preview's chart read "Kentucky 2012 (home, neutral court)": six dice and
    grid court play a neutral court as a home one, and their preview's table says neither."""
    law = [{"x": 20, "p": 0.5}, {"x": 21, "p": 0.5}]
    preview = {"home": {"team": "Home U"}, "away": {"team": "Away U"}, "neutral": True,
               "home_score": law, "away_score": law}  # fmt: skip
    if game != "vabg":
        preview["game"] = game  # a VABG preview names no game: the site's own
    chart = str(score_chart(preview))
    assert ("Home U (home, neutral court)" in chart) is said
    assert ("Home U (home)" in chart) is not said
