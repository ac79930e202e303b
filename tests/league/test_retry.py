"""Faults that must not stick: a failed game is retried once fixed, a run always ends, a
second simulation of the same games follows the first, and a database outage while
following a run is waited out and reported in one line (issue 12)."""

from __future__ import annotations

import io
from datetime import date

import pytest
from celery import current_app
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.db.models import Q
from django.test import override_settings
from django.urls import reverse

from cards.models import Card, Player, Team
from league import services, tournaments
from league.models import Game, Season, SimulationRun
from tests.factories import CardFactory, commissioner, full_team

pytestmark = pytest.mark.django_db


def break_team(team: Team) -> Player:
    """Take the team's center card away: its games cannot be played. Return the center."""
    card = Card.objects.get(team=team, slot=5)
    player = card.player
    card.delete()
    return player


def repair(player: Player) -> None:
    CardFactory(player=player, team=player.team, slot=5)


def cup(teams: list[Team], name: str = "Cup") -> Season:
    league = services.league_get_or_create(name="Faults")
    return tournaments.tournament_create(league=league, name=name, teams=teams, seed=8)


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, "--no-progress", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_broken_team_fails_its_tournament_run_with_the_reason_and_a_retry_finishes_it() -> None:
    teams = [full_team() for _ in range(4)]
    season = cup(teams)  # a season refuses a team that cannot play: broken afterwards
    center = break_team(teams[3])  # seed 4: plays seed 1 in the first round
    with pytest.raises(CommandError) as refused:
        run("simulate", str(season.pk), "--all")
    assert "1 game(s) could not be played and 1 wait for them" in str(refused.value)
    assert "--retry-failed" in str(refused.value)
    failed = season.games.get(status=Game.Status.FAILED)
    assert "slot 5 (C) has no starter" in failed.error
    first = SimulationRun.objects.get(season=season)
    assert first.status == SimulationRun.Status.FAILED
    assert f"game {failed.pk}" in first.error and "slot 5 (C) has no starter" in first.error
    assert "1 game(s) after it wait for it" in first.error
    assert season.games.count() == 2  # the final is not drawn while a semi-final failed

    # Asking for the rest again says what it waits for instead of pretending all is played.
    with pytest.raises(CommandError, match=rf"waits for failed game\(s\) {failed.pk}"):
        run("simulate", str(season.pk), "--all")

    repair(center)
    record = (first.status, first.done, first.failed, first.total, first.finished_at, first.error)
    out, _ = run("simulate", str(season.pk), "--retry-failed")
    # A new run plays the retried semi-final, then the final it draws (README: "a new run").
    again = season.runs.exclude(pk=first.pk).get()
    assert f"Run {again.pk}: 2 of 2 games stored, 0 failed." in out
    assert (again.scope, again.status, again.done, again.total) == ("all", "done", 2, 2)
    assert set(season.games.values_list("run", flat=True)) == {first.pk, again.pk}
    assert season.games.filter(status=Game.Status.FINAL).count() == 3
    assert tournaments.champion(season) is not None
    first.refresh_from_db()  # the run they failed in stays as it ended, with its reason
    assert (first.status, first.done, first.failed, first.total, first.finished_at,
            first.error) == record  # fmt: skip


def test_a_retry_waits_for_the_run_still_playing_the_rest_of_the_round() -> None:
    teams = [full_team() for _ in range(4)]
    season = cup(teams, name="Busy cup")
    center = break_team(teams[3])
    first = services.simulation_start(season=season, scope="all", dispatch=False)
    broken = season.games.get(Q(home=teams[3]) | Q(away=teams[3]))
    services.game_play(game_id=broken.pk)  # it fails while the other semi-final waits
    repair(center)
    with pytest.raises(CommandError, match=rf"run {first.pk} of .+ is still playing: retry"):
        run("simulate", str(season.pk), "--retry-failed")
    broken.refresh_from_db()
    assert (broken.status, broken.run_id) == (Game.Status.FAILED, first.pk)  # untouched

    while services.run_next_game(run=first) is not None:
        pass  # the other semi-final is stored; the run ends, failed, waiting for the retry
    first.refresh_from_db()
    assert (first.status, first.done, first.failed) == ("failed", 1, 1)
    out, _ = run("simulate", str(season.pk), "--retry-failed")
    assert "2 of 2 games stored, 0 failed." in out
    assert tournaments.champion(season) is not None


def test_a_retry_with_nothing_failed_is_refused_by_name() -> None:
    season = cup([full_team() for _ in range(2)], name="Calm")
    with pytest.raises(CommandError, match=r"has no failed game to retry"):
        run("simulate", str(season.pk), "--retry-failed")


def test_a_failed_round_robin_game_is_retried_alone(django_capture_on_commit_callbacks) -> None:
    teams = [full_team() for _ in range(3)]
    league = services.league_get_or_create(name="Faults")
    season = services.season_create(
        league=league, name="RR", teams=teams, start_date=date(2024, 1, 1), seed=3
    )
    center = break_team(teams[0])
    with django_capture_on_commit_callbacks(execute=True):
        first = services.simulation_start(season=season, scope="all")
    first.refresh_from_db()
    assert (first.status, first.done, first.failed) == ("failed", 1, 2)
    repair(center)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.simulation_retry(season=season)
    again.refresh_from_db()
    assert (again.scope, again.status, again.done, again.total) == ("retry", "done", 2, 2)
    first.refresh_from_db()
    assert (first.status, first.done, first.failed) == ("failed", 1, 2)
    assert season.games.filter(status=Game.Status.FINAL).count() == 3
    for game in season.games.all():
        assert (game.attempts, game.error) == (1, "")


def test_the_api_retries_failed_games_for_commissioners_only(
    client, django_capture_on_commit_callbacks
) -> None:
    teams = [full_team() for _ in range(2)]
    season = cup(teams, name="Api cup")
    center = break_team(teams[1])
    game = season.games.get()
    services.game_play(game_id=game.pk)
    url = f"/api/seasons/{season.pk}/retry-failed/"
    assert client.post(url, {}, content_type="application/json").status_code in (401, 403)
    client.force_login(commissioner())
    repair(center)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"games": [game.pk]}, content_type="application/json")
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["scope"], body["total"], body["joined"]) == ("all", 1, False)
    game.refresh_from_db()  # the worker (eager here) played it once the request committed
    assert game.status == Game.Status.FINAL
    assert SimulationRun.objects.get(pk=body["id"]).status == SimulationRun.Status.DONE
    again = client.post(url, {}, content_type="application/json")
    assert again.status_code == 400
    assert again.json() == {"detail": f"{season} has no failed game to retry."}


def test_the_admin_retries_the_selected_failed_games(
    client, django_capture_on_commit_callbacks
) -> None:
    teams = [full_team() for _ in range(2)]
    season = cup(teams, name="Admin cup")
    center = break_team(teams[0])
    game = season.games.get()
    services.game_play(game_id=game.pk)
    repair(center)
    client.force_login(commissioner())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:league_game_changelist"),
            {"action": "retry_selected", "_selected_action": [game.pk]},
            follow=True,
        )
    page = response.content.decode()
    assert "failed games played again on the workers" in page and "its page follows it" in page
    game.refresh_from_db()
    assert game.status == Game.Status.FINAL


def test_the_same_games_asked_for_twice_join_one_run_and_count_each_game_once() -> None:
    teams = [full_team() for _ in range(4)]
    season = services.season_create(
        league=services.league_get_or_create(name="Twice"),
        name="S",
        teams=teams,
        start_date=date(2024, 1, 1),
        seed=5,
    )
    first = services.simulation_start(season=season, scope="all", dispatch=False)
    services.run_next_game(run=first)  # the first command plays one game, then is killed
    second = services.simulation_start(season=season, scope="all", dispatch=False)
    assert (second.pk, second.joined) == (first.pk, True)
    with pytest.raises(
        services.SimulationRefused, match=rf"by run {first.pk} \(the rest\): wait"
    ) as refused:
        services.simulation_start(season=season, scope="round", round=2, dispatch=False)
    assert refused.value.status == 409
    out, _ = run("simulate", str(season.pk), "--all")  # the second command follows the run
    assert f"Run {first.pk} is already simulating these games (1 of 6 so far)" in out
    assert f"Run {first.pk}: 6 of 6 games stored, 0 failed." in out
    first.refresh_from_db()
    assert (first.status, first.done, first.failed) == ("done", 6, 0)
    assert SimulationRun.objects.filter(season=season).count() == 1


def test_simulate_returns_with_the_reason_when_no_worker_answers(monkeypatch) -> None:
    season = cup([full_team() for _ in range(2)], name="Nobody")
    # A broker and no worker (the autouse eager fixture puts eagerness back afterwards).
    current_app.conf.task_always_eager = False
    monkeypatch.setattr(services, "workers_answering", lambda: 0)
    with pytest.raises(CommandError, match=r"no worker answers and run \d+ has not moved"):
        run("simulate", str(season.pk), "--all", "--stall", "0.2")


@pytest.mark.django_db(transaction=True)
def test_a_database_outage_while_following_a_run_is_waited_out_and_said_in_one_line(
    monkeypatch,
) -> None:
    season = cup([full_team() for _ in range(2)], name="Outage")
    run_ = services.simulation_start(season=season, scope="all", dispatch=False)
    services.run_next_game(run=run_)
    real = SimulationRun.refresh_from_db
    calls = {"n": 0}

    def flaky(self: SimulationRun, *args: object, **kwargs: object) -> None:
        calls["n"] += 1
        if calls["n"] <= 2:
            raise OperationalError("server closed the connection unexpectedly\n\tThis probably")
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(SimulationRun, "refresh_from_db", flaky)
    said: list[str] = []
    done = services.run_wait(run=run_, poll=0.01, on_progress=lambda r: None, on_outage=said.append)
    assert done.status == SimulationRun.Status.DONE
    assert said == [
        "database unreachable (OperationalError: server closed the connection unexpectedly); "
        "retrying for up to 60 s"
    ]


@pytest.mark.django_db(transaction=True)
def test_a_long_database_outage_stops_following_with_one_line(monkeypatch) -> None:
    season = cup([full_team() for _ in range(2)], name="Long outage")
    run_ = services.simulation_start(season=season, scope="all", dispatch=False)

    def down(self: SimulationRun, *args: object, **kwargs: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(SimulationRun, "refresh_from_db", down)
    with (
        override_settings(LEAGUE_OUTAGE_SECONDS=0.3),
        pytest.raises(services.RunNotFollowed) as stopped,
    ):
        services.run_wait(run=run_, poll=0.01, on_progress=lambda r: None)
    assert str(stopped.value).count("\n") == 0
    assert f"the workers carry on with run {run_.pk}" in str(stopped.value)


def test_a_redelivered_task_takes_its_game_back_at_once_and_no_one_else_can() -> None:
    season = cup([full_team() for _ in range(2)], name="Lease")
    game = season.games.get()
    assert services.game_claim(game_id=game.pk, token="task-1")
    # The lease is fresh: another message for the game (a duplicate) must wait for it...
    assert not services.game_claim(game_id=game.pk, token="task-2")
    # ...but task-1 delivered again means its pool process died: it takes the game back.
    assert services.game_claim(game_id=game.pk, token="task-1")
    game.refresh_from_db()
    assert (game.status, game.attempts, game.claimed_by) == ("running", 2, "task-1")


def test_each_kind_of_work_has_its_own_queue_that_every_worker_also_reads() -> None:
    """The sweep, the odds a page waits for, pair tables and research chunks each on a
    queue of their own (a worker started without -Q reads every one, in turn): a backlog of
    one kind never holds up another (the drill: tests/drills/test_queues.py)."""

    def queue(task: str) -> str:
        return str(current_app.amqp.router.route({}, task)["queue"].name)

    assert queue("league.simulate_games") == queue("league.simulate_game") == "celery"
    assert queue("league.sweep") == "sweeper"
    assert queue("league.odds_game_chart") == queue("league.other_odds_pairings") == "pairings"
    assert queue("league.odds_game_law") == queue("league.odds_pair_law") == "pairings"
    assert queue("league.odds_season_places") == "pairings"
    assert queue("league.odds_pair_table") == "odds"
    assert queue("league.research_chunk") == "research"
    names = {q.name for q in current_app.conf.task_queues}
    assert names == {"celery", "sweeper", "pairings", "odds", "research"}
    # Every task the project defines goes to one of them.
    project = [name for name in current_app.tasks if name.startswith("league.")]
    assert project and all(queue(name) in names for name in project)
    assert current_app.conf.worker_cancel_long_running_tasks_on_connection_loss is False


def test_retrying_a_season_s_failed_games_in_the_admin_opens_its_run_page(
    client, django_capture_on_commit_callbacks
) -> None:
    """A review: "Retry failed" said what it started but, unlike "Simulate the rest", did not
    open the run's page that follows it."""
    teams = [full_team() for _ in range(2)]
    season = cup(teams, name="Retry cup")
    center = break_team(teams[0])
    services.game_play(game_id=season.games.get().pk)
    repair(center)
    client.force_login(commissioner())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:league_season_changelist"),
            {"action": "retry_failed", "_selected_action": [season.pk]},
        )
    run = SimulationRun.objects.filter(season=season).latest("pk")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:league_simulationrun_change", args=[run.pk])


def test_a_season_or_tournament_refuses_a_team_that_cannot_play_and_writes_nothing() -> None:
    """A commissioner's review: a team without a center was scheduled, 568 games, and its
    games failed only when simulated; its season's teams are fixed once it has games."""
    teams = [full_team() for _ in range(3)]
    break_team(teams[1])
    league = services.league_get_or_create(name="Faults")
    why = rf"{teams[1]} cannot play Value Add Basketball Game: .*slot 5 \(C\) has no starter"
    with pytest.raises(services.SeasonRefused, match=why):
        services.season_create(league=league, name="RR", teams=teams, seed=3)
    with pytest.raises(services.SeasonRefused, match=why):
        cup(teams)
    assert not Season.objects.exists() and not Game.objects.exists()
    # a board game plays the team's styles, not its cards: the same teams are taken
    dice = services.season_create(league=league, name="Dice", teams=teams, game="sixdice")
    assert dice.games.count() == 3


def test_every_team_loaded_leaves_out_a_team_that_cannot_play_and_names_it() -> None:
    teams = [full_team() for _ in range(3)]
    break_team(teams[1])
    printed = io.StringIO()
    call_command("create_season", "Faults", "Everyone", "--all", "--conferences", "none",
                 stdout=printed)  # fmt: skip
    out = printed.getvalue()
    season = Season.objects.get(name="Everyone")
    assert set(season.entries.values_list("team_id", flat=True)) == {teams[0].pk, teams[2].pk}
    assert f"Left out: {teams[1]} cannot play Value Add Basketball Game:" in out
