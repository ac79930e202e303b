"""The embedded default's own workers (league/background.py): with no broker, a web process
answers a run or a new field at once and plays it, or builds its odds, in its own threads.

On PostgreSQL: SQLite's in-memory test database refuses two threads writing (the ``lanes``
fixture); tests/commissioner runs the lanes on ``make run``'s SQLite file."""

from __future__ import annotations

import json
import threading
from datetime import date, timedelta
from functools import partial
from wsgiref.headers import Headers

import pytest
from django.core.cache import cache
from django.core.signals import request_started
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from cards.models import Card
from league import background, odds, services
from league.models import BoxLine, Game, GameChart, GameResult, SimulationRun
from simulator.vabg import InvalidCardError
from tests import factories
from tests.cards.test_admin import card_form_data
from tests.factories import commissioner, full_team
from tests.league.api import client_for, throttle_reset

make_season = partial(
    factories.make_season, league="Lane League", name="2005", seed=9, start_date=date(2005, 1, 1)
)

pytestmark = pytest.mark.postgres

WAIT = 120  # seconds: a lane that has not finished by then is stuck, not slow


@pytest.fixture(autouse=True)
def _no_throttle() -> None:
    throttle_reset()


def test_a_run_started_through_the_api_answers_at_once_and_its_lane_plays_it(lanes) -> None:
    season = make_season()
    api = client_for(commissioner())
    with lanes.held():
        answer = api.post(f"/api/seasons/{season.pk}/simulate/", {"scope": "all"}, format="json")
        assert answer.status_code == 202
        body = answer.json()
        # Nothing was played inside the request: the run is told as it starts.
        assert (body["status"], body["done"], body["total"]) == ("running", 0, 6)
        # A WSGI server refuses a header that is not a plain str (wsgiref asserts it).
        assert Headers(list(answer.items()))["Location"].endswith(f"/api/runs/{body['id']}/")
        assert not Game.objects.filter(season=season, status=Game.Status.FINAL).exists()
    assert lanes.wait_idle(WAIT)
    run = api.get(answer["Location"]).json()
    assert (run["status"], run["done"], run["failed"]) == ("done", 6, 0)
    assert GameResult.objects.filter(game__season=season).count() == 6


def test_a_game_handed_to_the_lane_twice_is_stored_and_counted_once(lanes) -> None:
    season = make_season()
    ids = list(season.games.values_list("pk", flat=True))
    with lanes.held():
        run = services.simulation_start(season=season, scope="all")
        # The same games sent again, as a sweep or a second click would.
        assert services.games_send(game_ids=ids) == len(ids)
    assert lanes.wait_idle(WAIT)
    run.refresh_from_db()
    assert (run.status, run.done, run.total) == ("done", 6, 6)
    assert GameResult.objects.filter(game__season=season).count() == 6
    lines = BoxLine.objects.filter(result__game__season=season)
    per_player = lines.values("result__game", "side", "name").annotate(n=Count("id"))
    assert per_player and {row["n"] for row in per_player} == {1}


def test_the_admins_simulate_action_opens_the_run_page_which_follows_the_run(lanes, client) -> None:
    season = make_season()
    client.force_login(commissioner())
    with lanes.held():
        answer = client.post(
            reverse("admin:league_season_changelist"),
            {"action": "simulate_rest", "_selected_action": [season.pk]},
        )
        run = SimulationRun.objects.get(season=season)
        assert answer.status_code == 302
        assert answer["Location"] == reverse("admin:league_simulationrun_change", args=[run.pk])
        page = client.get(answer["Location"]).content.decode()
        assert 'data-status="running"' in page
        assert '<span id="run-done">0</span> of <span id="run-total">6</span>' in page
        assert f'data-url="/api/runs/{run.pk}/"' in page  # what the page polls
    assert lanes.wait_idle(WAIT)
    page = client.get(answer["Location"]).content.decode()
    assert 'data-status="done"' in page
    assert '<span id="run-done">6</span> of <span id="run-total">6</span>' in page
    assert "<script>" not in page.split('id="run-progress"')[1].split("</fieldset>")[0]


def test_a_new_tournaments_odds_are_built_in_the_background_while_its_pages_say_how_far(
    lanes, client
) -> None:
    teams = [full_team() for _ in range(5)]
    api = client_for(commissioner())
    league = services.league_get_or_create(name="Lane League")
    with lanes.held():
        created = api.post(
            "/api/tournaments/",
            {
                "league": league.pk,
                "name": "Cup",
                "teams": [t.pk for t in teams],
                "strategy": False,
                "seed": 3,
            },
            format="json",
        )
        assert created.status_code == 201
        season_id = created.json()["id"]
        waiting = api.get(f"/api/tournaments/{season_id}/odds/").json()
        assert (waiting["pending"], waiting["pairs_ready"]) == (True, 0)
        assert waiting["pairs_needed"] > 0
        # No workers here: the message says who computes them, not "the workers".
        assert "being computed in the background by this server" in waiting["message"]
        page = client.get(f"/seasons/{season_id}/bracket/")
        assert page.status_code == 200 and "looks again in" in page.content.decode()
        # The waiting bracket reloads itself: no front cache may keep it (a fan's page is
        # otherwise public for a few seconds).
        assert "no-store" in page["Cache-Control"] and "public" not in page["Cache-Control"]
    assert lanes.wait_idle(WAIT)
    ready = api.get(f"/api/tournaments/{season_id}/odds/").json()
    assert "pending" not in ready
    assert "public" in client.get(f"/seasons/{season_id}/bracket/")["Cache-Control"]
    assert sorted(row["team_id"] for row in ready["teams"]) == sorted(t.pk for t in teams)
    assert sum(row["champion"] for row in ready["teams"]) == pytest.approx(1.0)


def test_a_card_edit_in_the_admin_rebuilds_its_fields_odds_in_the_background(lanes, client) -> None:
    teams = [full_team() for _ in range(4)]
    league = services.league_get_or_create(name="Lane League")
    season = services.season_create(league=league, name="Odds", teams=teams, seed=2)
    assert lanes.wait_idle(WAIT)  # the new season's odds, built as it was created
    table = odds.season_table(season)
    assert table.missing(odds.season_pairs(season, table)) == []
    client.force_login(commissioner())
    card = Card.objects.filter(team=teams[0], slot=1, role="starter").get()
    with lanes.held():
        answer = client.post(
            reverse("admin:cards_card_change", args=[card.pk]),
            card_form_data(card, steal_top=card.steal_top + 1),
        )
        assert answer.status_code == 302
        table = odds.season_table(season)
        stale = table.missing(odds.season_pairs(season, table))
        assert stale and all(teams[0].pk in pair for pair in stale)
        # A few pairs short, the season's odds are still not solved while the fan waits.
        waiting = client.get(f"/api/seasons/{season.pk}/odds/")
        assert waiting.status_code == 202 and waiting.json()["pending"] is True
        assert "being computed in the background by this server" in waiting.json()["message"]
        assert waiting["Retry-After"] == "1"  # a few pairs: a moment's work
        assert table.missing(odds.season_pairs(season, table)) == stale
    assert lanes.wait_idle(WAIT)
    table = odds.season_table(season)
    assert table.missing(odds.season_pairs(season, table)) == []
    # The table whole, the seasons are sampled by the background too, then read.
    sampling = client.get(f"/api/seasons/{season.pk}/odds/")
    assert sampling.status_code == 202 and "being sampled" in sampling.json()["message"]
    assert lanes.wait_idle(WAIT)
    ready = client.get(f"/api/seasons/{season.pk}/odds/")
    assert ready.status_code == 200 and "pending" not in ready.json()


def test_the_games_lane_plays_what_a_stopped_server_left_queued(lanes) -> None:
    season = make_season()
    left = services.simulation_start(season=season, scope="all", dispatch=False)
    lease = timedelta(seconds=61)
    Game.objects.filter(season=season).update(queued_at=timezone.now() - lease)
    # The first request of the restarted server starts the games lane, which sweeps.
    request_started.send(sender=None)
    assert lanes.wait_idle(WAIT)
    # The sweep sent the stale games again: the run the dead process held is finished.
    left.refresh_from_db()
    assert (left.status, left.done) == ("done", 6)


def test_a_six_dice_pairing_is_worked_out_while_a_vabg_field_s_table_is_still_building(
    lanes, client
) -> None:
    """A trial waited 3 minutes for one six-dice pairing queued behind a VABG field's 583
    pairs: the pairings have a lane of their own."""
    cache.clear()  # no pairing worked out by an earlier test
    release = threading.Event()
    lanes.lane("odds").submit(lambda: release.wait(WAIT))  # a long VABG table, still building
    try:
        # A new season sends its pairings at once (or the preview does, if asked first).
        game = make_season(game="sixdice", teams=2).games.first()
        client.get(f"/api/games/{game.pk}/preview/")
        assert lanes.lane("pairings").wait_idle(WAIT)
        ready = client.get(f"/api/games/{game.pk}/preview/")
        assert ready.status_code == 200 and ready.json()["method"] == "exact"
        assert not lanes.lane("odds").wait_idle(0)  # the VABG table was still on its way
    finally:
        release.set()


def test_a_scheduled_games_page_never_solves_its_odds_while_the_fan_waits(lanes, client) -> None:
    """A scheduled VABG game's first view solved its pair's whole law in the request (a
    tenth to half a second, more with the coach): with a background, the page and the API
    say the odds are being worked out and look again; the pairings lane solves them, once
    however often the page is asked meanwhile."""
    cache.clear()
    game = make_season(teams=2, strategy=True).games.first()
    assert game is not None
    with lanes.held():  # the lane has not started on it when the fan looks
        page = client.get(f"/games/{game.pk}/")
        again = client.get(f"/api/games/{game.pk}/preview/")
        assert not odds.PairTable.for_teams(
            [game.home_id, game.away_id], rules=game.rules, neutral=game.neutral,
            strategy=game.strategy,
        ).has_law(game.home_id, game.away_id)  # fmt: skip
    body = page.content.decode()
    assert (
        "The exact odds of this game are being worked out in the background by this server" in body
    )
    assert "location.reload" in body and "Predicted" not in body
    assert again.status_code == 202 and again.json()["pending"] is True
    assert lanes.lane("pairings").wait_idle(WAIT)
    ready = client.get(f"/api/games/{game.pk}/preview/")
    assert ready.status_code == 200 and 0 < ready.json()["p_home_win"] < 1
    assert "Predicted" in client.get(f"/games/{game.pk}/").content.decode()


def test_the_matchup_page_never_solves_two_teams_odds_while_the_fan_waits(lanes, client) -> None:
    """Any two teams a fan picks: with a background, the page and the API say the odds are
    being worked out and look again; the pairings lane solves the pair once."""
    cache.clear()
    home, away = full_team(), full_team()
    query = f"home={home.pk}&away={away.pk}&rules=advanced&strategy=true"
    with lanes.held():
        page = client.get(f"/matchup/?{query}&court=neutral")
        api = client.get(f"/api/matchup/?{query}&neutral=true")
        table = odds.PairTable.for_teams(
            [home.pk, away.pk], rules="advanced", neutral=True, strategy=True
        )
        assert not table.has_law(home.pk, away.pk)
    body = page.content.decode()
    assert "The exact odds of this matchup are being worked out" in body
    # One pair's law takes a tenth of a second or so: the page and a client look again soon.
    assert "looks again in 1 second." in body and "location.reload()))(1000),1000)" in body
    assert api.status_code == 202 and api.json()["pending"] is True
    assert api.json()["retry_after"] == 1 and api["Retry-After"] == "1"
    assert lanes.lane("pairings").wait_idle(WAIT)
    assert table.has_law(home.pk, away.pk)
    ready = client.get(f"/api/matchup/?{query}&neutral=true")
    assert ready.status_code == 200 and 0 < ready.json()["p_home_win"] < 1
    assert ready.json()["coach_policy"] is True
    assert "Predicted" in client.get(f"/matchup/?{query}&court=neutral").content.decode()


def test_a_played_games_chart_is_drawn_in_the_background_once_and_kept(lanes, client) -> None:
    """A played game's win-probability chart solved exact odds from every trip in the
    request (30-40 ms a coached game; the first six-dice game of a pairing half a second):
    with a background the page and the API say it is being drawn, nothing keeps that page,
    and the pairings lane draws it once; then both read it kept, the page cacheable again."""
    cache.clear()
    season = make_season(teams=2, strategy=True)
    game = services.game_simulate(game_id=season.games.first().pk)
    assert not GameChart.objects.exists()  # storing a game draws no chart: most are never asked
    with lanes.held():  # the lane has not started on it when the fan looks
        page = client.get(f"/games/{game.pk}/")
        api = client.get(f"/api/games/{game.pk}/win-probability/")
        again = client.get(f"/games/{game.pk}/")
    body = page.content.decode()
    assert "win-probability chart are being worked out" in body and "location.reload" in body
    assert "Play-by-play" in body  # the rest of the played game is there meanwhile
    for waiting in (page, again):
        assert "no-store" in waiting["Cache-Control"] and not waiting.has_header("Last-Modified")
    assert api.status_code == 202 and api["Retry-After"] == "1"
    assert lanes.lane("pairings").wait_idle(WAIT)
    chart = GameChart.objects.get()  # drawn once, however often it was asked meanwhile
    assert chart.result.game_id == game.pk and chart.chances and not chart.refused
    drawn = client.get(f"/api/games/{game.pk}/win-probability/").json()
    assert [p["p_home"] for p in drawn["points"][:-1]] == chart.chances
    assert drawn["points"][-1]["p_home"] == float(game.result.home_score > game.result.away_score)
    page = client.get(f"/games/{game.pk}/")
    assert (
        'id="winprob"' in page.content.decode() and "location.reload" not in page.content.decode()
    )
    assert "public" in page["Cache-Control"] and page.has_header("Last-Modified")


def test_a_six_dice_games_chart_is_drawn_in_the_background_too(lanes, client) -> None:
    cache.clear()
    season = make_season(game="sixdice", teams=2)
    game = services.game_simulate(game_id=season.games.first().pk)
    with lanes.held():
        page = client.get(f"/games/{game.pk}/")
    assert "win-probability chart are being worked out" in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    assert lanes.lane("pairings").wait_idle(WAIT)
    drawn = client.get(f"/api/games/{game.pk}/win-probability/").json()
    assert (
        drawn["game"] == "sixdice"
        and len(drawn["points"]) == len(GameChart.objects.get(result__game=game).chances) + 1
    )
    page = client.get(f"/games/{game.pk}/")
    assert 'id="winprob"' in page.content.decode() and "public" in page["Cache-Control"]


def test_a_kept_chart_is_the_one_solved_in_place_and_shows_a_rename_at_once(db, client) -> None:
    """With no background (a command, a test) the chart is drawn in the request, as before,
    and kept: the same numbers; names and plays are read afresh from the stored events."""
    season = make_season(teams=2, strategy=True)
    game = services.game_simulate(game_id=season.games.first().pk)
    game = Game.objects.select_related("home", "away", "result").get(pk=game.pk)
    live = odds._vabg_chart(game, game.result, [], odds._live_odds(game, game.result))
    first = client.get(f"/api/games/{game.pk}/win-probability/").json()
    assert first == json.loads(json.dumps(live))  # drawn here, the exact odds themselves
    assert GameChart.objects.filter(result=game.result).count() == 1
    home = game.home
    home.school = "Renamed State"
    home.save()
    kept = client.get(f"/api/games/{game.pk}/win-probability/").json()
    assert kept["home"].startswith("Renamed State")
    assert [p["p_home"] for p in kept["points"]] == [p["p_home"] for p in first["points"]]


def test_cards_the_engine_refuses_end_a_matchup_s_wait_with_the_reason(
    lanes, client, monkeypatch
) -> None:
    """A pair whose cards cannot end a game is refused when the background solves it: the
    page then says why instead of waiting for ever (before, the request solved it and said
    so at once)."""
    cache.clear()
    home, away = full_team(), full_team()

    def refuse(*args: object, **kwargs: object) -> None:
        raise InvalidCardError(["these cards can never end a game"])

    monkeypatch.setattr(odds, "exact_odds", refuse)
    url = f"/matchup/?home={home.pk}&away={away.pk}&rules=advanced&court=home"
    assert "being worked out" in client.get(url).content.decode()
    assert lanes.lane("pairings").wait_idle(WAIT)
    body = client.get(url).content.decode()
    assert "No odds for this game" in body and "can never end a game" in body
    assert "location.reload" not in body


def test_work_is_still_sent_when_the_cache_cannot_say_it_was(monkeypatch) -> None:
    """With the cache out of reach its ``add`` answers False and nothing reads back: the
    work is sent rather than never."""
    monkeypatch.setattr(background.cache, "add", lambda *args, **kwargs: False)
    monkeypatch.setattr(background.cache, "get", lambda *args, **kwargs: None)
    assert background.ask_once("law-asked:x", 120)


def test_work_asked_for_a_moment_ago_is_not_sent_again() -> None:
    cache.delete("law-asked:y")
    assert background.ask_once("law-asked:y", 120)
    assert not background.ask_once("law-asked:y", 120)


def test_fill_by_the_odds_sends_a_missing_pair_to_the_background_and_asks_to_wait(lanes) -> None:
    """A fan's "fill by the odds" never solves a pair in his request: a missing one goes to
    the background and he is asked to try again in a minute (503); then it fills."""
    from challenge import services as challenge
    from challenge.models import Entry
    from league.models import PairOdds, SeasonTeam

    cup = factories.uncoached_cup(league="Lane League", name="Fill cup", teams=4, seed=7)
    assert lanes.wait_idle(WAIT)  # what the new cup sent to the background
    pool = challenge.challenge_create(season=cup, name="Lane pool", round_points=[1, 2])
    carol = factories.fan("carol")
    entry = challenge.entry_join(challenge=pool, user=carol)
    teams = SeasonTeam.objects.filter(season=cup).values("team_id")
    PairOdds.objects.filter(home_id__in=teams).delete()  # as a card edit leaves them
    with lanes.held():
        with pytest.raises(challenge.ChallengeRefused, match="try again") as refused:
            challenge.entry_save(entry=entry, user=carol, picks={}, fill="odds")
        assert refused.value.status == 503
    assert lanes.wait_idle(WAIT)
    challenge.entry_save(entry=entry, user=carol, picks={}, fill="odds")
    assert len(Entry.objects.get(pk=entry.pk).picks) == 3


def test_a_lane_s_groups_take_turns_so_a_small_field_is_not_held_behind_a_large_one() -> None:
    """Chunks of a 96-team table queued first and a small field's after: the small field's
    run between them, a job each in turn, each group's own in its order (the Winter 2026
    table waited 13 minutes behind March Madness's in a trial)."""
    lane = background.Lane("test-turns", on_idle=None, idle_seconds=0.05)
    ran: list[str] = []
    with background.held():  # every job queued before the first runs
        for n in range(5):
            lane.submit(partial(ran.append, f"big{n}"), "big")
        for n in range(2):
            lane.submit(partial(ran.append, f"small{n}"), "small")
        lane.submit(partial(ran.append, "other"))
    assert lane.wait_idle(WAIT)
    lane.stop(WAIT)
    # (the thread may take big0 before the others are queued: then big1 comes next too)
    assert [r for r in ran if r.startswith("big")] == [f"big{n}" for n in range(5)]
    assert [r for r in ran if r.startswith("small")] == ["small0", "small1"]
    assert max(ran.index("small1"), ran.index("other")) < ran.index("big3")


def test_a_seasons_odds_are_sampled_in_the_background_never_while_the_fan_waits(
    lanes, client
) -> None:
    """A season's odds sampled 10,000 seasons in the request on the first visit after every
    stored game (seconds for a 96-team double round robin): with a background the first
    visit says they are being worked out, a later change shows the odds as they stood,
    marked, and the page is kept by no front cache until the new ones are in."""
    cache.clear()
    season = make_season(teams=3)
    url = reverse("season-odds", args=[season.pk])
    assert lanes.wait_idle(WAIT)  # the new season's pair table
    with lanes.held():
        first = client.get(url)
        body = first.content.decode()
        assert "odds are being sampled (10,000 seasons from each game" in body
        assert "exact odds) in the background by this server" in body
        assert "location.reload" in body and "seasons sampled" not in body
        assert "no-store" in first["Cache-Control"]
        api = client.get(f"/api/seasons/{season.pk}/odds/")  # the page's odds: the same
        assert api.status_code == 202 and api.json()["pending"] is True
    assert lanes.lane("pairings").wait_idle(WAIT)
    ready = client.get(url)
    assert "10,000 seasons sampled" in ready.content.decode()
    assert "odds-updating" not in ready.content.decode()
    before = ready.content.decode().count('<tr data-team="')
    game = season.games.order_by("pk").first()
    assert game is not None
    with lanes.held():
        services.game_simulate(game_id=game.pk)
        stale = client.get(url)
        body = stale.content.decode()
        assert 'id="odds-updating"' in body and "as they stood before the latest change" in body
        assert body.count('<tr data-team="') == before  # the last odds, not a blank page
        assert "no-store" in stale["Cache-Control"]
        api = client.get(f"/api/seasons/{season.pk}/odds/")
        assert api.status_code == 200 and api.json()["updating"] is True
        # Odds asked with their own size or seed are sampled for the asker, as asked.
        asked = client.get(f"/api/seasons/{season.pk}/odds/?seasons=500")
        assert asked.status_code == 200 and "updating" not in asked.json()
        assert asked.json()["seasons"] == 500
    assert lanes.wait_idle(WAIT)
    fresh = client.get(url).content.decode()
    assert "odds-updating" not in fresh and "10,000 seasons sampled" in fresh
