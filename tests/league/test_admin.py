"""The commissioner's league admin: seasons, runs and games; refused to fans."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from league import services
from league.models import Game, Season, SimulationRun
from tests.factories import commissioner, fan, full_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    return services.season_create(
        league=services.league_get_or_create(name="Admin League"),
        name="2004",
        teams=[full_team() for _ in range(4)],
        start_date=date(2004, 1, 1),
        seed=4,
    )


def test_a_commissioner_sees_seasons_with_their_progress(client, season) -> None:
    client.force_login(commissioner())
    response = client.get(reverse("admin:league_season_changelist"))
    assert response.status_code == 200
    assert "0 of 6" in response.content.decode()
    page = client.get(reverse("admin:league_season_change", args=[season.pk]))
    assert page.status_code == 200
    for entry in season.entries.all():
        assert str(entry.team.pk) in page.content.decode()


def test_the_simulate_action_plays_the_rest_of_a_season(
    client, season, django_capture_on_commit_callbacks
) -> None:
    client.force_login(commissioner())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:league_season_changelist"),
            {"action": "simulate_rest", "_selected_action": [season.pk]},
            follow=True,
        )
    assert "run" in response.content.decode() and "6 games" in response.content.decode()
    assert season.games.filter(status="final").count() == 6
    run = SimulationRun.objects.get(season=season)
    assert (run.done, run.status) == (6, "done")


def test_selected_games_are_sent_to_the_workers_from_the_game_list(
    client, season, django_capture_on_commit_callbacks
) -> None:
    client.force_login(commissioner())
    games = list(season.games.filter(round=1))
    services.game_play(game_id=games[0].pk)  # one of them is final already
    picked = [*games, *season.games.filter(round=2)[:1]]
    with django_capture_on_commit_callbacks(execute=False) as sent:
        response = client.post(
            reverse("admin:league_game_changelist"),
            {"action": "simulate_selected", "_selected_action": [g.pk for g in picked]},
            follow=True,
        )
    page = response.content.decode()
    assert "2 game(s) sent to the workers" in page
    assert "1 not sent: final, played at the table or already running." in page
    # The request itself plays nothing: the workers do, once the transaction commits.
    assert Game.objects.filter(pk__in=[g.pk for g in picked], status="final").count() == 1
    for callback in sent:
        callback()  # Celery runs eagerly here: each game is played as it is sent
    assert Game.objects.filter(pk__in=[g.pk for g in picked], status="final").count() == 3
    change = client.get(reverse("admin:league_game_change", args=[games[1].pk]))
    assert 'class="box-score"' in change.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "fan"])
def test_the_league_admin_is_refused_to_everyone_else(client, season, who: str) -> None:
    if who == "fan":
        client.force_login(fan())
    for name in (
        "league_season_changelist",
        "league_game_changelist",
        "league_simulationrun_changelist",
    ):
        response = client.get(reverse(f"admin:{name}"))
        assert response.status_code == 302 and "/login/" in response["Location"]
    client.post(
        reverse("admin:league_season_changelist"),
        {"action": "simulate_rest", "_selected_action": [season.pk]},
    )
    assert not season.games.filter(status="final").exists()
    assert not SimulationRun.objects.exists()
