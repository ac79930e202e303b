"""The league's management commands, as a commissioner types them."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from league import services
from league.errors import GamesNotSent
from league.models import Game, Season
from tests.brokers import own_broker
from tests.factories import full_team

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def teams():  # type: ignore[no-untyped-def]
    return [full_team(school=f"School {n}", season=1990 + n, conference=c)
            for n, c in enumerate(["East", "East", "East", "West", "West", "West"])]  # fmt: skip


def test_the_teams_of_a_season_or_a_tournament_may_follow_the_options(teams) -> None:
    """argparse handed TEAM ... out empty at the first option and refused the teams after it
    as "unrecognized arguments", though the usage line puts them last."""
    names = [str(t) for t in teams[:4]]
    out = run("create_season", "Order League", "Fall", "--conferences", "none", *names)
    assert "4 teams, 6 games" in out
    out = run("create_tournament", "Order League", "Cup", "--seed", "3", *names)
    assert "4 teams, 3 games" in out
    with pytest.raises(CommandError, match="unrecognized arguments: --bogus"):
        run("create_season", "Order League", "Spring", "--bogus", *names)


def test_a_season_is_created_simulated_and_its_standings_printed(teams) -> None:
    out = run("create_season", "Commish League", "1995-96", "--all", "--cross", "2", "--seed", "1")
    assert "6 teams, 12 games" in out
    season = Season.objects.get()
    assert season.games.filter(conference_game=True).count() == 6
    assert "12 of 12 games stored" in run(
        "simulate", "commish-league/1995-96", "--all", "--no-progress"
    )
    table = run("standings", str(season.pk))
    assert "East" in table and "West" in table
    for team in teams:
        assert str(team) in table
    assert "Conf" in table and "Neut" not in table  # home courts: no neutral record to show
    assert "Nothing to simulate" in run("simulate", "1995-96", "--all", "--no-progress")


def test_create_season_puts_teams_alone_in_their_conference_with_the_independents() -> None:
    lonely = [full_team(school=f"Lone {n}", season=2000 + n, conference=f"Conf {n}")
              for n in range(3)]  # fmt: skip
    sec = [full_team(school=f"SEC {n}", season=2000, conference="SEC") for n in range(3)]
    out = run("create_season", "L", "Mixed", "--all", "--cross", "1", "--seed", "2")
    assert "6 teams, 9 games" in out
    assert (
        "Alone in their conference, these play in Independent: "
        "Lone 0 2000 (Conf 0), Lone 1 2001 (Conf 1), Lone 2 2002 (Conf 2)." in out
    )
    season = Season.objects.get()
    groups = dict(season.entries.values_list("team_id", "conference"))
    assert {groups[t.pk] for t in lonely} == {"Independent"}
    assert {groups[t.pk] for t in sec} == {"SEC"}
    assert season.games.filter(conference_game=True).count() == 3 + 3


def test_create_season_and_simulate_refuse_values_their_columns_cannot_hold(teams) -> None:
    with pytest.raises(CommandError, match="days_between_rounds must be 1 to 365, got 400"):
        run("create_season", "L", "S", "--all", "--days-between", "400")
    assert not Season.objects.exists()
    run("create_season", "L", "S", "--all", "--seed", "1")
    with pytest.raises(CommandError, match="round must be 1 to 32767, got 40000"):
        run("simulate", "L/S", "--round", "40000")


def test_simulate_finishes_a_run_whose_player_died_taking_back_its_game(teams) -> None:
    run("create_season", "L", "S", *(str(t) for t in teams[:4]), "--conferences", "none")
    season = Season.objects.get()
    left = services.simulation_start(season=season, scope="all", dispatch=False)
    held = season.games.order_by("pk").first()
    assert held is not None
    # A server stopped mid-game: its game is running, its lease run out.
    Game.objects.filter(pk=held.pk).update(
        status=Game.Status.RUNNING,
        attempts=1,
        lease_expires_at=timezone.now() - timedelta(seconds=1),
        claimed_by="a-process-that-died",
    )
    out = run("simulate", "L/S", "--all", "--no-progress")
    assert f"Run {left.pk} is already simulating these games" in out
    assert f"Run {left.pk}: 6 of 6 games stored, 0 failed." in out
    left.refresh_from_db()
    assert (left.status, left.done) == ("done", 6)
    assert Game.objects.get(pk=held.pk).status == Game.Status.FINAL


def test_simulate_by_round_and_replay_a_game(teams) -> None:
    run(
        "create_season",
        "L",
        "S",
        *(str(t) for t in teams[:4]),
        "--conferences",
        "none",
        "--seed",
        "2",
    )
    assert "2 of 2 games stored" in run("simulate", "s", "--round", "1", "--no-progress")
    game = Game.objects.filter(status="final").first()
    assert "identical, event for event" in run("simulate", "--replay", str(game.pk))


def test_a_replay_names_the_team_that_took_the_extra_possessions_and_old_games_still_match(
    teams,
) -> None:
    """The engine named the visitor for every extra possession's call until 2026-11-30: a
    game stored then replays identical but for that name, which the check leaves out."""
    league = services.league_get_or_create(name="Extra League")
    for seed in range(40):
        season = services.season_create(
            league=league, name=f"S{seed}", teams=teams[:4], seed=seed, double_round_robin=True
        )
        run("simulate", season.slug, "--all", "--no-progress")
        taken = [
            (game, e)
            for game in Game.objects.filter(season=season).select_related("result")
            for e in game.result.events
            if e["type"] == "call" and e["call"] == "extra possession" and e["team"] == "home"
        ]
        if taken:
            break
    assert taken, "no home team took the extra possessions in 40 seasons"
    game, call = taken[0]
    assert "identical, event for event" in run("simulate", "--replay", str(game.pk))
    result = game.result
    result.events = [{**e, "team": "away"} if e == call else e for e in result.events]
    result.save(update_fields=["events"])  # as the engine stored it before
    assert "identical, event for event" in run("simulate", "--replay", str(game.pk))
    result.events = [
        {**e, "pts": e["pts"] + 1} if e["type"] == "opening" else e for e in result.events
    ]
    result.save(update_fields=["events"])  # anything else still differs
    with pytest.raises(CommandError, match="the replay differs"):
        run("simulate", "--replay", str(game.pk))


def test_bad_requests_name_what_is_wrong(teams) -> None:
    with pytest.raises(CommandError, match='No team "Nowhere 1900"; load or import it first'):
        run("create_season", "L", "S", "Nowhere 1900", str(teams[0]))
    with pytest.raises(CommandError, match='name a team as "School SEASON"'):
        run("create_season", "L", "S", "Kentucky", str(teams[0]))
    with pytest.raises(CommandError, match="no season 'missing'"):
        run("simulate", "missing", "--all")
    assert not Season.objects.exists()


def test_a_refused_season_or_tournament_leaves_no_new_league_behind(teams) -> None:
    from league.models import League

    refused = [
        ("create_tournament", "Leak A", "Cup", str(teams[0]), str(teams[1]), "Nowhere 1900"),
        ("create_tournament", "Leak B", "Cup", str(teams[0]), str(teams[1]),
         "--game", "gridcourt", "--option", "pieces=99"),
        ("create_season", "Leak C", "Winter", "--all", "--game", "sixdice",
         "--option", "chip_rerol=true"),
        ("create_season", "Leak D", "Winter", "--all", "--cross", "-1"),
    ]  # fmt: skip
    for args in refused:
        with pytest.raises(CommandError):
            run(*args)
    assert not League.objects.filter(name__startswith="Leak").exists()
    run("create_season", "Leak E", "Winter", "--all", "--seed", "1")
    assert League.objects.filter(name="Leak E").exists()


def test_a_season_said_made_stays_made_when_its_output_is_cut_short(teams) -> None:
    """An operator's review: `create_season ... | head -1` printed "Created ...", then the
    closed pipe rolled the season back."""

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    for args in (("create_season", "Piped", "Winter", "--all", "--seed", "1"),
                 ("create_tournament", "Piped", "Cup", str(teams[0]), str(teams[1]))):  # fmt: skip
        with pytest.raises(BrokenPipeError):
            call_command(*args, stdout=ClosedPipe(), stderr=io.StringIO())
    assert set(Season.objects.filter(league__name="Piped").values_list("name", flat=True)) == {
        "Winter",
        "Cup",
    }


def test_a_tournament_is_created_played_and_its_bracket_printed(teams) -> None:
    out = run("create_tournament", "Cups", "Open", *(str(t) for t in teams), "--seed", "6")
    assert "6 teams, 5 games; first round drawn (2 games)" in out
    run("simulate", "open", "--all", "--no-progress")
    printed = run("bracket", "open")
    assert "Final Four (round 2)" in printed and "Championship (round 3)" in printed
    assert "Champion: #" in printed and "not decided" not in printed


def test_a_two_team_tournament_says_one_game(teams) -> None:
    out = run("create_tournament", "Cups", "Duel", str(teams[0]), str(teams[3]), "--seed", "6")
    assert "2 teams, 1 game; first round drawn (1 game)" in out


def test_simulate_written_to_a_log_reports_its_progress_in_lines(teams) -> None:
    """Under cron or nohup the progress goes to a file: lines, not a bar's carriage
    returns (the bar's redraws made one endless line)."""
    run("create_season", "Logged", "Winter", "--all", "--conferences", "none", "--seed", "2")
    log = io.StringIO()
    call_command("simulate", "logged/winter", "--all", stdout=io.StringIO(), stderr=log)
    assert "\r" not in log.getvalue()
    last = log.getvalue().splitlines()[-1]
    assert re.fullmatch(r"Logged Winter: 15 of 15 games \(100%\), [\d,]+ a second", last), last


def test_a_report_of_other_things_than_games_names_them_in_its_lines() -> None:
    # field_report counts the exact odds' pairs: in a log, lines of pairs (its own
    # carriage-return counter made one endless line there)
    from league.management.commands._common import progress_report

    log = io.StringIO()
    update, close = progress_report("exact odds", 4_560, log, quiet=False, unit="pair")
    update(200)
    update(4_560)
    close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and lines[0].startswith("exact odds: 200 of 4,560 pairs (4%)")
    assert lines[-1].startswith("exact odds: 4,560 of 4,560 pairs (100%)")


def test_simulate_names_a_broker_it_cannot_reach_and_what_to_do(teams, monkeypatch) -> None:
    from config.celery import app

    run("create_season", "Brokered", "Winter", str(teams[0]), str(teams[1]), "--seed", "2")
    # Nothing listens there (Celery reads the variable before its own setting).
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    with own_broker(app), pytest.raises(CommandError) as refused:
        run("simulate", "brokered/winter", "--all", "--no-progress", "--stall", "0.2")
    said = str(refused.value)
    assert said.startswith("the broker (redis://127.0.0.1:1/0) cannot be reached: ")
    assert said.endswith("then run the same command again to follow them")
    assert Game.objects.get(season__slug="winter").status == Game.Status.SCHEDULED


def test_a_group_stage_feeds_a_bracket(teams) -> None:
    run("create_season", "Groups", "Stage", "--all", "--seed", "3")
    with pytest.raises(CommandError, match="is not finished"):
        run("create_tournament", "Groups", "Knockout", "--from-season", "stage", "--advance", "2")
    run("simulate", "stage", "--all", "--no-progress")
    out = run("create_tournament", "Groups", "Knockout", "--from-season", "stage", "--advance", "2")
    assert "4 teams, 3 games" in out
    knockout = Season.objects.get(slug="knockout")
    stage = Season.objects.get(slug="stage")
    from league.selectors import standings_for_season

    tables = dict(standings_for_season(season_id=stage.pk))
    winners = {tables["East"][0]["team_id"], tables["West"][0]["team_id"]}
    seeded = dict(knockout.entries.values_list("seed", "team_id"))
    assert {seeded[1], seeded[2]} == winners
    # group winners meet runners-up of the other group in the semifinals
    for game in knockout.games.all():
        assert {game.home_id, game.away_id} & winners


def test_the_alltime_field_names_every_team_that_is_not_loaded(
    teams, tmp_path, monkeypatch
) -> None:
    from league import tournaments

    field = tmp_path / "field.csv"
    field.write_text("school,season,region,seed\nNowhere,1950,East,1\nSchool 0,1990,East,2\n")
    monkeypatch.setitem(tournaments.FIELDS, "alltime-96", ("the all-time field", field))
    with pytest.raises(
        CommandError,
        match=r"1 teams of the all-time field are not loaded: Nowhere 1950 \(East #1\)",
    ):
        run("create_tournament", "Cups", "All-time", "--field", "alltime-96")
    assert not Season.objects.filter(name="All-time").exists()


def test_a_three_way_tie_typed_in_from_the_table_is_broken_and_noted(teams) -> None:
    from league import services
    from league.selectors import standings_for_season

    a, b, c = teams[:3]
    season = services.season_create(
        league=services.league_get_or_create(name="Table"), name="Tie", teams=[a, b, c], seed=5
    )
    scores = {(a.pk, b.pk): (70, 60), (b.pk, c.pk): (65, 64), (c.pk, a.pk): (80, 79)}
    for game in season.games.all():
        winner_first = scores.get((game.home_id, game.away_id))
        if winner_first is None:
            loser, winner = scores[(game.away_id, game.home_id)]
            home, away = winner, loser
        else:
            home, away = winner_first
        services.game_result_enter(game_id=game.pk, home_score=home, away_score=away)
    ((_, rows),) = standings_for_season(season_id=season.pk)
    # Each is 1-1 and 1-1 head to head; all conference games; A is +9, B -9, C 0.
    assert [r["team_id"] for r in rows] == [a.pk, c.pk, b.pk]
    assert [r["tiebreaker"] for r in rows] == ["point difference"] * 3
    printed = run("standings", str(season.pk))
    assert f"{a} placed by point difference" in printed


def test_simulate_says_which_games_are_being_played_at_the_table(teams) -> None:
    from table import services as table_services
    from tests.factories import commissioner

    run("create_season", "L", "S", *(str(t) for t in teams[:2]), "--conferences", "none")
    season = Season.objects.get()
    game = season.games.get()
    table_services.table_open_scheduled(owner=commissioner(), league_game=game)
    out = run("simulate", "L/S", "--all", "--no-progress")
    assert (
        f"1 game of {season} still to play: 1 is being played at the table (game {game.pk}): "
        "finish or abandon it there (/table/)." in out
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.SCHEDULED
    # Marked "Real dice" in the admin with no table game: it said "being played at the
    # table", where there was none
    game.table_games.all().delete()
    assert Game.objects.get(pk=game.pk).kind == Game.Kind.REAL_DICE
    out = run("simulate", "L/S", "--all", "--no-progress")
    assert f"1 is marked to be played with real dice (game {game.pk}): store its score" in out
    assert "set its kind back to Simulated in the admin." in out
    with pytest.raises(CommandError, match="there is no game 999999"):
        run("simulate", "--replay", "999999")


def test_a_season_made_while_the_broker_is_down_is_said_made_and_its_odds_wait(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any, caplog: Any
) -> None:
    """An operator's review: with Redis down, create_season stored the season, then died on
    a 153-line traceback sending the field's odds (so a second try said the name was taken)."""
    from kombu.exceptions import OperationalError as BrokerError

    from league import background, tasks

    def down(**kwargs: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(background, "available", lambda: True)
    monkeypatch.setattr(background, "in_process", lambda: False)
    monkeypatch.setattr(tasks.odds_pair_table, "delay", down)
    teams = [full_team() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        out = run("create_season", "Down League", "Spring", *[str(t) for t in teams])
    assert "Created down-league/spring" in out
    assert "not sent: the broker cannot be reached" in caplog.text
    # Games still refuse loudly: their callers say the broker is down and what to do.
    monkeypatch.setattr(tasks.simulate_games, "delay", down)
    with pytest.raises(GamesNotSent, match=r"cannot be reached \(Error 111 connecting"):
        tasks._send(tasks.simulate_games, "games", game_ids=[1])


def test_a_date_not_written_yyyy_mm_dd_is_refused_in_words(teams) -> None:
    with pytest.raises(CommandError, match=r"'notadate' is not a date: write YYYY-MM-DD"):
        call_command("simulate", "any", "--date", "notadate")
