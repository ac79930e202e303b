"""The commissioner's league admin: seasons, runs and games; refused to fans."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.models import Card, Player, Team
from core.deletion import deletion_summary
from league import services
from league.dispatch import field_odds_wanted
from league.models import BoxLine, Game, League, Season, SimulationRun
from tests.cards.test_admin import card_form_data
from tests.factories import TeamFactory, commissioner, fan, full_team, make_season

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
    run = SimulationRun.objects.get(season=season)
    # One season: its run's page, which follows the run (played here once the request's
    # transaction commits, after the page was shown).
    assert response.redirect_chain[-1][0] == reverse(
        "admin:league_simulationrun_change", args=[run.pk]
    )
    page = response.content.decode()
    assert f"run {run.pk}</a> started for 6 games" in page
    assert 'data-status="running"' in page and '<span id="run-total">6</span>' in page
    assert season.games.filter(status="final").count() == 6
    run.refresh_from_db()
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
    assert "2 games sent to be played on the workers" in page
    assert "1 not sent: final, played at the table or already running." in page
    # The request itself plays nothing: the workers do, once the transaction commits.
    assert Game.objects.filter(pk__in=[g.pk for g in picked], status="final").count() == 1
    for callback in sent:
        callback()  # Celery runs eagerly here: each game is played as it is sent
    assert Game.objects.filter(pk__in=[g.pk for g in picked], status="final").count() == 3
    change = client.get(reverse("admin:league_game_change", args=[games[1].pk]))
    assert 'class="box-score"' in change.content.decode()


def season_form(**changes: object) -> dict[str, object]:
    teams = [full_team() for _ in range(4)]
    data: dict[str, object] = {
        "league": services.league_get_or_create(name="Admin League").pk,
        "name": "Winter 2027",
        "teams": [t.pk for t in teams],
        "grouping": "team",
        "cross_conference_games": 0,
        "start_date": "2027-01-05",
        "days_between_rounds": 2,
        "home_court": "on",
        "game": "vabg",
        "rules": "advanced",
        "strategy": "on",
        "seed": 12,
    }
    data.update(changes)
    return data


def test_a_commissioner_adds_a_season_with_its_whole_schedule(client) -> None:
    client.force_login(commissioner())
    url = reverse("admin:league_season_add")
    form = client.get(url)
    assert form.status_code == 200
    for field in ("league", "name", "teams", "every_team", "grouping", "cross_conference_games"):
        assert f'name="{field}"' in form.content.decode()
    # A first league can be added from here (the "+" of a model's own form).
    assert f'href="{reverse("admin:league_league_add")}?_to_field=id&amp;_popup=1"' in (
        form.content.decode()
    )
    response = client.post(url, season_form(), follow=True)
    season = Season.objects.get(name="Winter 2027")
    assert response.redirect_chain[-1][0] == reverse("admin:league_season_change", args=[season.pk])
    assert "Admin League Winter 2027 was added: 4 teams, 6 games." in response.content.decode()
    assert (season.entries.count(), season.games.count(), season.seed) == (4, 6, 12)
    assert {g.game_date for g in season.games.all()} == {date(2027, 1, d) for d in (5, 7, 9)}


def test_adding_a_season_of_every_team_groups_the_lone_ones_as_independents(client) -> None:
    client.force_login(commissioner())
    for n in range(3):
        full_team(school=f"Big {n}", conference="Big")
    alone = full_team(school="Solo", conference="Solo Conference")
    other = full_team(school="Other", conference="Other Conference")
    data = season_form(teams=[], every_team="on", seed=1)
    response = client.post(reverse("admin:league_season_add"), data, follow=True)
    assert response.status_code == 200
    season = Season.objects.get(name="Winter 2027")
    groups = dict(season.entries.values_list("team_id", "conference"))
    assert len(groups) == Team.objects.count() == 9  # season_form's four teams too
    assert groups[alone.pk] == groups[other.pk] == "Independent"
    # The commissioner is told which teams left their conference, and where they went.
    text = response.content.decode().replace("&#x27;", "'")
    moved = [f"{t} ({groups_own} → {groups[t.pk]})" for t, groups_own in
             ((other, "Other Conference"), (alone, "Solo Conference"))]  # fmt: skip
    moved_others = [e for e in season.entries.select_related("team")
                    if e.conference != e.team.conference]  # fmt: skip
    assert (
        f"{len(moved_others)} teams alone in their conference this season play in another" in text
    )
    for line in moved:
        assert line in text


def test_a_six_dice_season_is_added_with_its_options_and_without_vabg_s_switch(client) -> None:
    """A trial found no way to set another game's options in the admin, as README's
    ``--option chip_reroll=true`` and the API do; the form lists each game's options."""
    client.force_login(commissioner())
    form = client.get(reverse("admin:league_season_add")).content.decode()
    assert 'name="options"' in form
    assert "chip_reroll false or true (default false)" in form
    assert "pieces 3, 4 or 5 (default 5)" in form
    data = season_form(game="sixdice", options='{"chip_reroll": true}')
    assert client.post(reverse("admin:league_season_add"), data).status_code == 302
    season = Season.objects.get(name="Winter 2027")
    assert season.game == "sixdice" and season.options["chip_reroll"] is True
    assert season.strategy is False  # ticked, but six dice has no coach policy to switch
    assert all(g.options["chip_reroll"] for g in season.games.all())


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"game": "gridcourt", "options": '{"pieces": 7}'},
            "pieces",
        ),
        (
            {"game": "vabg", "options": '{"pieces": 3}'},
            "takes its rules from the rules and strategy fields, not options",
        ),
        ({"game": "sixdice", "options": "chip_reroll"}, "Write the options as a JSON object"),
        (
            {"cross_conference_games": 9},
            "9 cross-conference games a team is more than the 2 teams outside conference",
        ),
        ({"teams": []}, "Choose at least two teams, or tick every team loaded."),
        ({"days_between_rounds": 400}, "Ensure this value is less than or equal to 365."),
        ({"name": ""}, "This field is required."),
    ],
)
def test_a_season_the_admin_cannot_make_is_refused_saying_why_and_nothing_is_written(
    client, changes, message
) -> None:
    client.force_login(commissioner())
    data = season_form(**changes)
    if "cross_conference_games" in changes:  # two conferences of two
        for pk, conference in zip(data["teams"], ["A", "A", "B", "B"], strict=True):  # type: ignore[call-overload]
            Team.objects.filter(pk=pk).update(conference=conference)
    response = client.post(reverse("admin:league_season_add"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Season.objects.exists()


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
    client.post(reverse("admin:league_season_add"), season_form())
    assert Season.objects.count() == 1


def test_a_round_no_small_column_holds_is_refused_by_the_admin_on_every_database(season) -> None:
    # SQLite would store 40,000 where PostgreSQL refuses it: the form says so on both.
    from django.core.exceptions import ValidationError

    game = season.games.first()
    assert game is not None
    game.round = 40000
    with pytest.raises(ValidationError) as refused:
        game.full_clean()
    assert "less than or equal to 32767" in " ".join(refused.value.message_dict["round"])
    game.round = 32767
    game.full_clean()


def test_a_season_game_s_seed_is_the_season_s_and_no_seed_is_negative(client, season) -> None:
    """A trial set a scheduled game's seed to -5 in the admin: saved, played, and replayed
    "from seed -5", though README says every game's seed is fixed when the season is made."""
    from django.core.exceptions import ValidationError

    client.force_login(commissioner())
    game = season.games.first()
    assert game is not None
    page = client.get(reverse("admin:league_game_change", args=[game.pk])).content.decode()
    assert 'name="seed"' not in page and str(game.seed) in page  # shown, not editable
    for seed, message in ((-5, "greater than or equal to 0"), (2**63, "less than or equal to")):
        game.seed = seed
        with pytest.raises(ValidationError) as refused:
            game.full_clean()
        assert message in " ".join(refused.value.message_dict["seed"])


def test_a_season_s_change_page_costs_the_same_queries_for_3_teams_as_for_12(client) -> None:
    """A trial's 96-team season took 1.1 s to open: each team's row fetched its season and
    league again (310 queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(commissioner())
    counts = []
    for n in (3, 12):
        season = services.season_create(
            league=services.league_get_or_create(name="Admin League"),
            name=f"{n} teams",
            teams=[full_team() for _ in range(n)],
            start_date=date(2004, 1, 1),
            seed=4,
        )
        url = reverse("admin:league_season_change", args=[season.pk])
        client.get(url)  # the session's and permissions' first reads
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_season_and_game_lists_cost_the_same_queries_for_1_season_as_for_4(client) -> None:
    """A trial's game list made 210 queries: each row's season read its league, and so did
    each choice of the season filter; the season list counted each row's games apart."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(commissioner())
    counts: dict[str, list[int]] = {"season": [], "game": []}
    for n in range(4):
        services.season_create(
            league=services.league_get_or_create(name=f"League {n}"),
            name=f"Season {n}",
            teams=[full_team() for _ in range(3)],
            start_date=date(2004, 1, 1),
            seed=n,
        )
        if n not in (0, 3):
            continue
        for model in counts:
            url = reverse(f"admin:league_{model}_changelist")
            client.get(url)
            with CaptureQueriesContext(connection) as queries:
                page = client.get(url).content.decode()
            counts[model].append(len(queries))
    assert counts["season"][0] == counts["season"][1], counts
    assert counts["game"][0] == counts["game"][1], counts
    assert "League 3 Season 3" in page  # the season filter names each season
    first = Season.objects.get(name="Season 0")
    filtered = client.get(reverse("admin:league_game_changelist"), {"season__id__exact": first.pk})
    assert "3 games" in filtered.content.decode()
    seasons = client.get(reverse("admin:league_season_changelist")).content.decode()
    assert seasons.count("0 of 3") == 4  # games played, counted in the list's query


def test_a_played_season_s_delete_counts_what_goes_and_deletes_it_at_once(
    client, season, django_capture_on_commit_callbacks
) -> None:
    """A review waited 96 s for the delete page of a 1,141-game season (1.7 MB listing every
    box line), past any server's timeout: it counts them now, in a few queries."""
    client.force_login(commissioner())
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    lines = BoxLine.objects.filter(result__game__season=season).count()
    assert lines > 0
    page = client.get(reverse("admin:league_season_delete", args=[season.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and f"Box lines: {lines:,}" in body and "Games: 6" in body
    assert "Box line:" not in body  # no row listed one by one
    with CaptureQueriesContext(connection) as counted:
        client.get(reverse("admin:league_season_delete", args=[season.pk]))
    assert len(counted) < 40
    done = client.post(reverse("admin:league_season_delete", args=[season.pk]), {"post": "yes"})
    assert done.status_code == 302 and not Season.objects.filter(pk=season.pk).exists()
    assert not BoxLine.objects.filter(
        name__isnull=False, result__game__season_id=season.pk
    ).exists()


def test_a_team_in_a_season_is_not_deleted_and_the_page_says_what_to_do_instead(
    client, season
) -> None:
    """A trial commissioner read only "protected related objects: Season teams: 5,
    Games: 45" and was left to guess."""
    client.force_login(commissioner())
    team = season.entries.first().team
    page = client.get(reverse("admin:cards_team_delete", args=[team.pk])).content.decode()
    assert "Games: " in page and 'id="protected-help"' in page
    assert "delete the seasons and exhibitions it plays in first" in page
    assert "leave it out of the next season or tournament you add" in page
    selected = client.post(
        reverse("admin:cards_team_changelist"),
        {"action": "delete_selected", "_selected_action": [team.pk]},
    ).content.decode()
    assert 'id="protected-help"' in selected
    client.post(reverse("admin:cards_team_delete", args=[team.pk]), {"post": "yes"})
    assert Team.objects.filter(pk=team.pk).exists()


def _inline_form(season: Season, conferences: dict[int, str]) -> dict[str, str]:
    rows = list(season.entries.order_by("pk"))
    data = {
        "name": season.name, "slug": season.slug, "league": str(season.league_id),
        "start_date": season.start_date.isoformat(),
        "entries-TOTAL_FORMS": str(len(rows)), "entries-INITIAL_FORMS": str(len(rows)),
        "entries-MIN_NUM_FORMS": "0", "entries-MAX_NUM_FORMS": "1000",
        "runs-TOTAL_FORMS": "0", "runs-INITIAL_FORMS": "0",
        "runs-MIN_NUM_FORMS": "0", "runs-MAX_NUM_FORMS": "1000",
    }  # fmt: skip
    for i, row in enumerate(rows):
        data[f"entries-{i}-id"] = str(row.pk)
        data[f"entries-{i}-season"] = str(season.pk)
        data[f"entries-{i}-conference"] = conferences.get(row.pk, row.conference)
    return data


def test_a_conference_of_a_season_with_games_is_renamed_but_keeps_its_teams(client) -> None:
    """A review moved Duke 1992 from the ACC to the Big Ten of a played season: it topped the
    Big Ten with a "Conf 3-0" made of ACC games. Its teams stay; a name may change."""
    teams = [full_team() for _ in range(4)]
    season = services.season_create(
        league=services.league_get_or_create(name="Conf League"),
        name="1992",
        teams=teams,
        conferences=dict(
            zip([t.pk for t in teams], ["ACC", "ACC", "Big Ten", "Big Ten"], strict=True)
        ),
        start_date=date(1992, 1, 1),
        seed=3,
    )
    client.force_login(commissioner())
    url = reverse("admin:league_season_change", args=[season.pk])
    rows = list(season.entries.order_by("pk"))
    acc = [r for r in rows if r.conference == "ACC"]
    moved = client.post(url, _inline_form(season, {acc[0].pk: "Big Ten"}))
    assert moved.status_code == 200
    assert "its conferences keep their teams" in moved.content.decode()
    assert set(season.entries.values_list("conference", flat=True)) == {"ACC", "Big Ten"}
    renamed = client.post(url, _inline_form(season, {r.pk: "Atlantic Coast" for r in acc}))
    assert renamed.status_code == 302, renamed.content.decode()[:2000]
    assert set(season.entries.values_list("conference", flat=True)) == {
        "Atlantic Coast", "Big Ten"
    }  # fmt: skip


def test_simulating_a_finished_season_from_the_admin_says_so_and_keeps_no_empty_run(
    client, season, django_capture_on_commit_callbacks
) -> None:
    client.force_login(commissioner())
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    runs = SimulationRun.objects.filter(season=season).count()
    again = client.post(
        reverse("admin:league_season_changelist"),
        {"action": "simulate_rest", "_selected_action": [season.pk]},
        follow=True,
    )
    assert "Nothing to simulate: those games are already played." in again.content.decode()
    assert SimulationRun.objects.filter(season=season).count() == runs


def test_the_add_season_form_starts_with_no_options_and_refuses_teams_chosen_and_every_team(
    client,
) -> None:
    """A review found "null" in the empty options box, and teams chosen with "every team
    loaded" ticked silently played all of them."""
    client.force_login(commissioner())
    url = reverse("admin:league_season_add")
    form = client.get(url).content.decode()
    assert "null</textarea>" not in form and "{}</textarea>" in form
    both = client.post(url, season_form(every_team="on"))
    assert both.status_code == 200
    assert "Either choose the teams or tick every team loaded, not both" in both.content.decode()
    assert not Season.objects.filter(name="Winter 2027").exists()


def test_a_run_s_page_reads_with_no_save_button(client, season) -> None:
    client.force_login(commissioner())
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    page = client.get(reverse("admin:league_simulationrun_change", args=[run.pk])).content.decode()
    assert 'name="_save"' not in page and "run-total" in page


def test_the_season_list_counts_a_tournament_s_whole_bracket(client) -> None:
    """A review read "0 of 32" for a 96-team bracket of 95 games: only the first round drawn."""
    from league import tournaments

    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="List League"),
        name="Cup",
        teams=[full_team() for _ in range(4)],
        seed=2,
        strategy=False,
    )
    assert cup.games.count() == 2  # the first round, drawn
    client.force_login(commissioner())
    page = client.get(reverse("admin:league_season_changelist")).content.decode()
    assert "0 of 3" in page


def test_a_team_that_played_says_what_keeps_it_counted_not_listed(
    client, season, django_capture_on_commit_callbacks
) -> None:
    """A review waited 4.3 s for a team's delete refusal listing every box line one by one:
    what keeps the team (its games, box lines, seasons) is counted."""
    with django_capture_on_commit_callbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    team = season.entries.first().team
    client.force_login(commissioner())
    page = client.get(reverse("admin:cards_team_delete", args=[team.pk])).content.decode()
    lines = BoxLine.objects.filter(team=team).count()
    assert f"Box lines: {lines:,}" in page and "Season team: 1" in page
    assert 'type="submit"' not in page.split("deleted-objects")[1]  # nothing to confirm
    # A card is reached through its team and through its player: counted once.
    deleted, _ = deletion_summary(Team.objects.filter(pk=team.pk))
    assert deleted[Card] == deleted[Player] == team.players.count()


def test_a_running_run_is_not_deleted_until_it_has_ended(client, season) -> None:
    # Deleted while running, a run left its tournament half played with nothing to say so.
    client.force_login(commissioner())
    running = SimulationRun.objects.create(season=season, scope="all", total=6, dispatch=False)
    ended = SimulationRun.objects.create(
        season=season, scope="all", total=6, dispatch=False, status=SimulationRun.Status.DONE
    )
    page = client.get(reverse("admin:league_simulationrun_change", args=[running.pk]))
    assert page.status_code == 200 and "deletelink" not in page.content.decode()
    refused = client.post(reverse("admin:league_simulationrun_delete", args=[running.pk]),
                          {"post": "yes"})  # fmt: skip
    assert refused.status_code == 403 and SimulationRun.objects.filter(pk=running.pk).exists()
    changelist = reverse("admin:league_simulationrun_changelist")
    both = {"action": "delete_selected", "_selected_action": [running.pk, ended.pk]}
    asked = client.post(changelist, both, follow=True)
    assert asked.status_code == 200
    assert f"Nothing deleted: {running} still running" in asked.content.decode()
    assert SimulationRun.objects.count() == 2
    done = client.post(changelist, {"action": "delete_selected", "_selected_action": [ended.pk],
                                    "post": "yes"}, follow=True)  # fmt: skip
    assert done.status_code == 200
    assert SimulationRun.objects.filter(pk=running.pk).exists()


def test_nothing_a_running_run_plays_is_deleted_until_it_has_ended(client, season) -> None:
    """A review deleted a season under its run (a server error: a worker stored a game into
    the rows being deleted) and a game under it (the run "running" for ever, one short)."""
    client.force_login(commissioner())
    run = SimulationRun.objects.create(season=season, scope="all", total=6, dispatch=False)
    game = season.games.first()
    said = f"Nothing deleted: {run} (0 of 6 games) still playing these games"
    for model, pk in (("season", season.pk), ("league", season.league_id), ("game", game.pk)):
        asked = client.post(reverse(f"admin:league_{model}_delete", args=[pk]), {"post": "yes"},
                            follow=True)  # fmt: skip
        assert asked.status_code == 200 and said in asked.content.decode(), model
        listed = {"action": "delete_selected", "_selected_action": [pk], "post": "yes"}
        asked = client.post(reverse(f"admin:league_{model}_changelist"), listed, follow=True)
        assert said in asked.content.decode(), model
    assert Season.objects.filter(pk=season.pk).exists() and season.games.count() == 6
    other = services.season_create(  # another season's game is no business of the run's
        league=season.league, name="2005", teams=[full_team() for _ in range(2)], seed=5
    )
    gone = client.post(reverse("admin:league_game_delete", args=[other.games.get().pk]),
                       {"post": "yes"})  # fmt: skip
    assert gone.status_code == 302 and not other.games.exists()
    SimulationRun.objects.filter(pk=run.pk).update(status=SimulationRun.Status.DONE)
    done = client.post(reverse("admin:league_game_delete", args=[game.pk]), {"post": "yes"})
    assert done.status_code == 302 and season.games.count() == 5


def test_a_refused_action_names_the_season_once(client, season) -> None:
    client.force_login(commissioner())
    answer = client.post(
        reverse("admin:league_season_changelist"),
        {"action": "retry_failed", "_selected_action": [season.pk]},
        follow=True,
    )
    text = answer.content.decode()
    assert f"{season} has no failed game to retry" in text
    assert f"{season}: {season}" not in text  # it said the season's name twice
    again = client.post(
        reverse("admin:league_season_changelist"),
        {"action": "play_again", "_selected_action": [season.pk]},
        follow=True,
    ).content.decode()
    assert f"{season} is not a tournament: only a bracket is played again." in again
    assert f"{season}: {season}" not in again


def test_a_season_game_moves_only_between_its_schedule_s_rounds(season) -> None:
    """A trial set a scheduled game's round to 999 in the admin: saved, and the season's
    page showed a round of one game after all the others."""
    import json

    from django.forms.models import model_to_dict

    from league.admin import GameAdminForm

    games = list(season.games.order_by("round", "pk"))
    last = max(g.round for g in games)
    game = games[0]

    def form_with(round_: int | None) -> GameAdminForm:
        data = {k: v for k, v in model_to_dict(game).items() if v is not None}
        data["options"] = json.dumps(game.options or {})
        if round_ is not None:
            data["round"] = round_
        else:
            data.pop("round", None)
        return GameAdminForm(data=data, instance=game)

    for wrong in (999, 0, None):
        refused = form_with(wrong)
        assert not refused.is_valid()
        assert refused.errors["round"] == [
            f"Choose a round of {season}'s schedule, 1 to {last}: a game moves between its "
            "season's rounds."
        ], wrong
    moved = form_with(last)
    assert moved.is_valid(), moved.errors


def test_a_league_name_too_close_to_another_s_is_refused_by_the_admin_as_by_the_command(
    client,
) -> None:
    # The admin saved "all-time league" (another slug) next to "All-time League", which
    # create_season refuses; the command then picked either league by how it was written.
    existing = services.league_get_or_create(name="All-time League")
    client.force_login(commissioner())
    url = reverse("admin:league_league_add")
    form = {"name": "all-time league", "slug": "all-time-league-2", "game": "vabg"}
    page = client.post(url, form).content.decode()
    said = "The league name &#x27;all-time league&#x27; is too close to an existing one: "
    assert f"{said}All-time League (all-time-league)." in page
    assert list(League.objects.values_list("name", flat=True)) == [existing.name]
    # A league keeps its own name, and is renamed to one no other league reads as.
    change = reverse("admin:league_league_change", args=[existing.pk])
    form = {"name": "All-Time League", "slug": existing.slug, "game": "vabg"}
    assert client.post(change, form).status_code == 302
    assert client.post(url, {**form, "name": "Other League", "slug": "x"}).status_code == 302
    # The command says the same of a name too close to a league with a slug of its own.
    with pytest.raises(services.SeasonRefused, match=r"too close to an existing one: Other"):
        services.league_get_or_create(name="other league")


def test_a_team_that_cannot_play_is_refused_one_problem_a_line_naming_no_game_not_kept(
    client,
) -> None:
    # Each refusal ran a team's problems together on one line ("has 0: slot 1 (PG) has no
    # starter: slot 2 ..."), and the exhibition's named "#6095", a game rolled back.
    client.force_login(commissioner())
    empty = TeamFactory(school="Empty", season=2000)
    ok = full_team(school="Ready", season=2001)
    problems = "<br>".join(
        ["players: a roster holds 5 to 10 players, this one has 0"]
        + [f"players: slot {n} ({pos}) has no starter" for n, pos in enumerate(
            ("PG", "SG", "SF", "PF", "C"), start=1)]
    )  # fmt: skip
    teams = [empty.pk, ok.pk, *(full_team().pk for _ in range(2))]
    page = client.post(reverse("admin:league_season_add"), season_form(teams=teams))
    assert (
        f"Empty 2000 cannot play Value Add Basketball Game: {problems}<br>"
        "Complete their cards in the admin, or leave them out.</li>"
    ) in page.content.decode()
    url = reverse("admin:cards_team_changelist")
    play = {"action": "play_exhibition", "_selected_action": [empty.pk, ok.pk], "play": "1"}
    page = client.post(url, {**play, "home": empty.pk}, follow=True).content.decode()
    assert f"Empty 2000 cannot play Value Add Basketball Game: {problems}.</li>" in page
    assert "#" not in page.split("cannot play", 1)[0].rsplit("<li", 1)[1]
    assert not Game.objects.exists()
    export = {"action": "export_files", "_selected_action": [empty.pk]}
    page = client.post(url, export, follow=True).content.decode()
    assert f"Empty 2000 cannot be written as a team file: {problems}.</li>" in page


def test_games_players_and_cards_are_searched_by_a_team_as_the_admin_writes_it(client) -> None:
    # "Kentucky 2012" found nothing ("2012" is in no school), and a season searched as a
    # word of its own would have found Kentucky 1978's game against a 2012 team too.
    client.force_login(commissioner())
    kentucky = full_team(school="Kentucky", season=2012)
    old = full_team(school="Kentucky", season=1978)
    duke = full_team(school="Duke", season=2012)
    mine = services.game_create(home=kentucky, away=duke)
    services.game_create(home=duke, away=old)

    def found(model: str, q: str) -> list[object]:
        page = client.get(reverse(f"admin:{model}_changelist"), {"q": q})
        assert "or a team as &quot;School SEASON&quot;" in page.content.decode()  # the help
        return list(page.context["cl"].result_list)

    assert found("league_game", "Kentucky 2012") == [mine]
    assert set(found("cards_player", "kentucky 2012")) == set(kentucky.players.all())
    assert set(found("cards_card", "Kentucky 2012")) == set(Card.objects.filter(team=kentucky))
    # Any other search is as before: a school finds both its teams' games.
    assert len(found("league_game", "Kentucky")) == 2
    assert found("league_game", "Kentucky 2013") == []


@pytest.mark.parametrize("name", ["sixdice", "gridcourt"])
def test_a_board_game_s_admin_page_shows_its_own_box_score_and_no_vabg_rules(
    client, name: str
) -> None:
    """A trial (2026-11-29) found a grid-court game's admin page showing VABG's box score: a
    Player table of zeros (START, FG, BLK, PF ...), "Every game starts 20-20" and VABG's rules
    preset and coach-policy switch, none of which the game has."""
    from league.models import GameResult

    season = make_season(game=name, teams=2, seed=5)
    game = season.games.get()
    services.game_simulate(game_id=game.pk)
    result = GameResult.objects.get(game=game)
    client.force_login(commissioner())
    page = client.get(reverse("admin:league_game_change", args=[game.pk])).content.decode()
    assert "20-20" not in page and ">START<" not in page and "BLK" not in page
    assert 'class="box-score game-box"' in page  # the fan page's box score, its own columns
    assert f"<strong>{result.home_score}</strong>" in page
    assert f"<strong>{result.away_score}</strong>" in page
    assert "Advanced rules" not in page
    assert "Strategy:" not in page and "Rules:" not in page  # VABG's preset and switch
    # nor does its season's page, once its games fix how they are played
    page = client.get(reverse("admin:league_season_change", args=[season.pk])).content.decode()
    assert "Options:" in page and "Strategy:" not in page and "Rules:" not in page
    # a VABG game keeps its box score and rules
    vabg = make_season(teams=2, seed=5, league="Plain")
    plain = vabg.games.get()
    services.game_simulate(game_id=plain.pk)
    page = client.get(reverse("admin:league_game_change", args=[plain.pk])).content.decode()
    assert "20-20" in page and "Strategy:" in page
    page = client.get(reverse("admin:league_season_change", args=[vabg.pk])).content.decode()
    assert "Strategy:" in page and "Rules:" in page


def test_a_card_reverted_from_its_history_rebuilds_its_fields_odds_as_an_edit_does(
    client, season, django_capture_on_commit_callbacks
) -> None:
    """simple_history's revert saves the row alone (never save_related): the fields' odds
    went unbuilt until a page asked for them."""
    client.force_login(commissioner())
    card = Card.objects.filter(team=season.entries.first().team).first()
    before = card.history.latest()
    asked: list[list[int]] = []

    def heard(sender: Any, *, season_ids: list[int], **kwargs: Any) -> None:
        asked.append(list(season_ids))

    field_odds_wanted.connect(heard, dispatch_uid="test-revert-follows")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            edited = client.post(
                reverse("admin:cards_card_change", args=[card.pk]),
                card_form_data(card, steal_top=card.steal_top + 1),
            )
        assert edited.status_code == 302 and asked == [[season.pk]]
        version = reverse("admin:cards_card_simple_history", args=[card.pk, before.history_id])
        with django_capture_on_commit_callbacks(execute=True):
            reverted = client.post(version, card_form_data(before.instance))
        assert reverted.status_code == 302
        card.refresh_from_db()
        assert card.steal_top == before.steal_top and asked == [[season.pk], [season.pk]]
    finally:
        field_odds_wanted.disconnect(dispatch_uid="test-revert-follows")
