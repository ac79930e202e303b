"""Simulating games: one stored result per game however often or concurrently it is asked."""

from __future__ import annotations

import threading
from datetime import date, timedelta
from functools import partial

import pytest
from django.db import connection, transaction
from django.utils import timezone

from cards.mapping import team_card
from league import games, services
from league.models import BoxLine, Game, GameResult, SimulationRun
from league.tasks import simulate_game
from simulator import SeededDice
from simulator.vabg import play_game, preset
from tests import factories

make_season = partial(
    factories.make_season,
    league="Test League",
    name="1999-2000",
    seed=1234,
    start_date=date(2000, 1, 1),
)

pytestmark = [pytest.mark.django_db, pytest.mark.first_run]


def result_store(*, game: Game, played: object, home: object, away: object) -> None:
    """Store an engine result played with these cards, as the league's store path does."""
    entries = games.team_entry(home), games.team_entry(away)  # type: ignore[arg-type]
    services.results_store(plays=[games.Played(game, played, *entries)])


def test_a_season_schedules_every_pair_with_a_fixed_seed_per_game() -> None:
    season = make_season(teams=4)
    games = list(season.games.all())
    assert len(games) == 6
    pairs = {frozenset((g.home_id, g.away_id)) for g in games}
    assert len(pairs) == 6
    assert {g.round for g in games} == {1, 2, 3}
    assert all(g.seed is not None and not g.neutral for g in games)
    assert {g.game_date for g in games} == {date(2000, 1, d) for d in (1, 2, 3)}


def test_the_same_season_seed_gives_the_same_game_seeds() -> None:
    first = make_season(teams=4)
    second_league = services.league_get_or_create(name="Other League")
    teams = [e.team for e in first.entries.order_by("team__school")]
    second = services.season_create(
        league=second_league, name="Again", teams=teams, start_date=date(2000, 1, 1), seed=1234
    )
    seeds = lambda s: sorted((g.round, g.home_id, g.away_id, g.seed) for g in s.games.all())  # noqa: E731
    assert seeds(first) == seeds(second)


def test_a_round_is_simulated_and_counted_in_its_run(django_capture_on_commit_callbacks) -> None:
    season = make_season(teams=4)
    with django_capture_on_commit_callbacks(execute=True):
        run = services.simulation_start(season=season, scope="round", round=1)
    run.refresh_from_db()
    assert (run.total, run.done, run.status) == (2, 2, SimulationRun.Status.DONE)
    assert run.percent == 100
    statuses = dict(season.games.values_list("round", "status").distinct())
    assert season.games.filter(round=1, status="final").count() == 2
    assert season.games.filter(round=2, status="scheduled").count() == 2
    assert statuses[3] == "scheduled"


def test_a_stored_game_holds_score_box_lines_and_play_by_play() -> None:
    season = make_season(teams=2)
    game = season.games.get()
    services.game_play(game_id=game.pk)
    game.refresh_from_db()
    result = game.result
    assert game.status == "final" and game.attempts == 1
    lines = BoxLine.objects.filter(result=result)
    assert sum(line.pts for line in lines if line.side == "home") == result.home_score
    assert sum(line.pts for line in lines if line.side == "away") == result.away_score
    assert result.events and result.dice == {"seed": game.seed}


def test_the_task_run_twice_stores_one_result() -> None:
    game = make_season(teams=2).games.get()
    simulate_game.apply(kwargs={"game_id": game.pk})
    first = GameResult.objects.get(game=game)
    lines = BoxLine.objects.count()
    simulate_game.apply(kwargs={"game_id": game.pk})
    services.game_simulate(game_id=game.pk)
    assert GameResult.objects.get(game=game).pk == first.pk
    assert BoxLine.objects.count() == lines
    game.refresh_from_db()
    assert game.attempts == 1


def test_a_claimed_game_is_not_claimed_again_while_its_lease_runs() -> None:
    game = make_season(teams=2).games.get()
    assert services.game_claim(game_id=game.pk) is True
    assert services.game_claim(game_id=game.pk) is False
    Game.objects.filter(pk=game.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert services.game_claim(game_id=game.pk) is True


def test_a_failure_part_way_leaves_nothing_behind(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    game = make_season(teams=2).games.get()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(games, "box_lines_insert", broken)  # the last write of a game
    with pytest.raises(RuntimeError):
        services.game_play(game_id=game.pk)
    assert not GameResult.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.status == "running"  # claimed, then lost: the sweeper hands it out again
    monkeypatch.undo()
    Game.objects.filter(pk=game.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.games_sweep() == {"requeued": 1, "failed": 0}
    game.refresh_from_db()
    assert game.status == "final"  # eager: the requeued task ran at once
    assert GameResult.objects.filter(game=game).count() == 1


def test_a_game_whose_worker_is_lost_too_often_is_marked_failed(settings) -> None:
    season = make_season(teams=2)
    game = season.games.get()
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    Game.objects.filter(pk=game.pk).update(
        status="running",
        attempts=settings.LEAGUE_MAX_ATTEMPTS,
        lease_expires_at=timezone.now() - timedelta(seconds=1),
    )
    assert services.games_sweep() == {"requeued": 0, "failed": 1}
    game.refresh_from_db()
    run.refresh_from_db()
    assert game.status == "failed" and "3 attempts" in game.error
    assert (run.failed, run.status) == (1, SimulationRun.Status.FAILED)


def test_a_lost_message_is_sent_again_by_the_sweeper(django_capture_on_commit_callbacks) -> None:
    game = make_season(teams=2).games.get()
    Game.objects.filter(pk=game.pk).update(queued_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.games_sweep()["requeued"] == 1
    game.refresh_from_db()
    assert game.status == "final"


def test_a_game_replays_exactly_from_its_stored_seed() -> None:
    game = make_season(teams=2).games.get()
    services.game_play(game_id=game.pk)
    again = services.game_replay(game_id=game.pk)
    stored = GameResult.objects.get(game=game)
    assert (again.home.score, again.away.score) == (stored.home_score, stored.away_score)
    assert [e.to_json() for e in again.events] == stored.events


def tied_game_seed(home, away, *, rules) -> int:
    """Return the first seed with which these two teams go to overtime under ``rules``."""
    for seed in range(10_000):
        if play_game(home, away, SeededDice(seed), rules=rules).overtimes:
            return seed
    raise AssertionError("no overtime in 10,000 seeds")


def test_a_game_played_under_older_rules_replays_with_them_after_a_rules_change() -> None:
    from dataclasses import replace

    from cards.mapping import team_card
    from simulator.vabg import ADVANCED

    game = make_season(teams=2).games.get()
    home, away = team_card(game.home), team_card(game.away)
    # Version 1 of the rulings: 5-possession overtimes. Store an overtime game played so.
    old_rules = replace(ADVANCED, strategy=game.strategy, overtime_possessions=5)
    seed = tied_game_seed(home, away, rules=old_rules)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    played = play_game(home, away, SeededDice(seed), rules=old_rules)
    game.refresh_from_db()
    with transaction.atomic():
        result_store(game=game, played=played, home=home, away=away)
    stored = GameResult.objects.get(game=game)
    stored.rules = {k: v for k, v in stored.rules.items() if k != "version"}  # as v1 stored it
    stored.save()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINAL)

    again = services.game_replay(game_id=game.pk)
    assert again.rules.overtime_possessions == 5
    assert [e.to_json() for e in again.events] == stored.events
    today = play_game(
        home, away, SeededDice(seed), rules=replace(old_rules, overtime_possessions=10)
    )
    assert [e.to_json() for e in today.events] != stored.events  # the change is real


def test_a_pre_1987_game_played_before_the_2026_11_26_note_replays_by_its_own_rules() -> None:
    from dataclasses import replace

    from cards.mapping import team_card
    from cards.models import Card
    from simulator.vabg import ADVANCED

    season = make_season(teams=2)
    game = season.games.get()
    for team in (game.home, game.away):
        # 1975: PG, SF and PF claim 6, 7 and 8; the center's card lists an extra number
        # that the lineup never gives him (version 2 read the card, version 3 the floor).
        team.season = 1975
        team.save()
        Card.objects.filter(team=team, role="starter", slot__in=(1, 3, 4, 5)).update(extra_ball=1)
    home, away = team_card(game.home), team_card(game.away)
    old_rules = replace(ADVANCED, strategy=game.strategy, pre_1987_claimed_extra=False)
    new_rules = replace(old_rules, pre_1987_claimed_extra=True)

    def events(seed: int, rules: object) -> list[object]:
        return [e.to_json() for e in play_game(home, away, SeededDice(seed), rules=rules).events]

    seed = next(s for s in range(100) if events(s, old_rules) != events(s, new_rules))
    Game.objects.filter(pk=game.pk).update(seed=seed)
    game.refresh_from_db()
    with transaction.atomic():
        result_store(
            game=game,
            played=play_game(home, away, SeededDice(seed), rules=old_rules),
            home=home,
            away=away,
        )
    stored = GameResult.objects.get(game=game)
    # As version 2 stored it: no version-3 switch in the document.
    stored.rules = {
        **{k: v for k, v in stored.rules.items() if k != "pre_1987_claimed_extra"},
        "version": 2,
    }
    stored.save()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINAL)

    again = services.game_replay(game_id=game.pk)
    assert again.rules.pre_1987_claimed_extra is False
    assert [e.to_json() for e in again.events] == stored.events


def test_a_game_played_by_the_coach_of_older_rules_replays_and_charts_with_it() -> None:
    from cards.mapping import team_card
    from league import odds
    from simulator.vabg import DEFAULT_POLICY, GameRules
    from simulator.vabg.coachodds import coach_odds

    game = make_season(teams=2, strategy=True).games.get()
    home, away = team_card(game.home), team_card(game.away)
    # Rules version 2: the strategy choices made by fixed thresholds. Store such a game.
    doc = preset(game.rules, strategy=True).to_json()
    old = {**{k: v for k, v in doc.items() if k != "coach"}, "version": 2}
    old_rules = GameRules.from_json(old)
    seed = next(
        seed
        for seed in range(200)
        if play_game(home, away, SeededDice(seed), rules=old_rules).events
        != play_game(home, away, SeededDice(seed), rules=preset(game.rules, strategy=True)).events
    )
    Game.objects.filter(pk=game.pk).update(seed=seed)
    played = play_game(home, away, SeededDice(seed), rules=old_rules)
    game.refresh_from_db()
    with transaction.atomic():
        result_store(game=game, played=played, home=home, away=away)
    stored = GameResult.objects.get(game=game)
    stored.rules = old  # as version 2 stored it
    stored.save()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINAL)
    game.refresh_from_db()

    again = services.game_replay(game_id=game.pk)
    assert [e.to_json() for e in again.events] == stored.events
    chart = odds.win_probability(game)
    then = coach_odds(home, away, rules=old_rules, neutral=game.neutral, scores=False)
    assert chart["points"][0]["p_home"] == pytest.approx(then.p_home_win, abs=1e-9)
    assert then.p_home_win == pytest.approx(
        coach_odds(home, away, rules=old_rules, coach=DEFAULT_POLICY, scores=False).p_home_win
    )
    now = coach_odds(home, away, rules=preset(game.rules, strategy=True), scores=False)
    assert abs(now.p_home_win - then.p_home_win) > 1e-6  # the coach changed the game


def test_a_game_whose_rules_this_engine_cannot_play_is_refused_with_the_reason() -> None:
    game = make_season(teams=2).games.get()
    services.game_play(game_id=game.pk)
    GameResult.objects.filter(game=game).update(rules={"version": 99})
    with pytest.raises(services.GameNotPlayable, match="rules version 99, newer than"):
        services.game_replay(game_id=game.pk)


def test_a_dispatch_free_run_is_played_by_its_caller_one_game_at_a_time() -> None:
    season = make_season(teams=4)
    run = services.simulation_start(
        season=season, scope="until", game_date=date(2000, 1, 2), dispatch=False
    )
    played = []
    while (game := services.run_next_game(run=run)) is not None:
        played.append(game.pk)
    run.refresh_from_db()
    assert len(played) == 4 and run.status == SimulationRun.Status.DONE
    assert season.games.filter(status="final").count() == 4


def test_a_table_top_dice_file_replays_into_a_stored_game() -> None:
    season = make_season(teams=2)
    game = season.games.get()
    Game.objects.filter(pk=game.pk).update(kind="real_dice")
    home = team_card(game.home)
    away = team_card(game.away)
    recorder = RecordingDice(SeededDice(99))
    expected = play_game(home, away, recorder, rules=preset("advanced", strategy=True))
    script = {"format": "vabg-dice/1", **recorder.rolls}
    services.game_replay_dice(game_id=game.pk, script=script)
    stored = GameResult.objects.get(game=game)
    assert (stored.home_score, stored.away_score) == (expected.home.score, expected.away.score)
    assert stored.dice["format"] == "vabg-dice/1"


def test_a_dice_file_that_runs_out_stores_nothing() -> None:
    game = make_season(teams=2).games.get()
    Game.objects.filter(pk=game.pk).update(kind="real_dice")
    with pytest.raises(services.GameNotPlayable, match="ran out"):
        services.game_replay_dice(
            game_id=game.pk, script={"format": "vabg-dice/1", "d8": [1], "d6": [], "d20": []}
        )
    assert not GameResult.objects.exists()


def test_a_typed_in_score_sheet_is_checked_and_stored() -> None:
    game = make_season(teams=2).games.get()
    names = {side: list(t.players.values_list("name", flat=True)) for side, t in
             (("home", game.home), ("away", game.away))}  # fmt: skip
    with pytest.raises(services.ResultRefused) as refused:
        services.game_result_enter(
            game_id=game.pk,
            home_score=70,
            away_score=70,
            home_lines=[{"name": "Nobody", "pts": 10, "fgm": 6, "fga": 5}],
        )
    problems = refused.value.problems
    assert any("never ends tied" in p for p in problems)
    assert any("'Nobody' is not on the" in p for p in problems)
    assert any("fgm is more than fga" in p for p in problems)
    assert any("add up to 10, not the score 70" in p for p in problems)
    assert not GameResult.objects.exists()
    # A player given two lines is refused by name, with the rest (it was a database error).
    twice = {"name": names["home"][0], "pts": 35, "fgm": 15, "fga": 30, "ftm": 5, "fta": 6}
    with pytest.raises(services.ResultRefused) as refused:
        services.game_result_enter(
            game_id=game.pk, home_score=70, away_score=68, home_lines=[twice, twice]
        )
    assert f"home: {names['home'][0]!r} has two lines: give him one" in refused.value.problems
    assert not GameResult.objects.exists()
    services.game_result_enter(
        game_id=game.pk,
        home_score=71,
        away_score=68,
        home_lines=[
            {"name": names["home"][0], "pts": 71, "fgm": 30, "fga": 60, "ftm": 11, "fta": 15}
        ],
        away_lines=[
            {"name": names["away"][0], "pts": 68, "fgm": 29, "fga": 61, "ftm": 10, "fta": 12}
        ],
    )
    game.refresh_from_db()
    assert game.status == "final" and game.kind == "real_dice"
    assert game.result.lines.get(side="home").pts == 71


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_simulations_of_one_game_store_one_result() -> None:
    game = make_season(teams=2).games.get()
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            services.game_simulate(game_id=game.pk)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert GameResult.objects.filter(game=game).count() == 1
    assert BoxLine.objects.filter(result__game=game).count() == BoxLine.objects.count()


class RecordingDice:
    """Pass a seeded source's rolls through and keep them as a dice file would."""

    def __init__(self, source: SeededDice) -> None:
        self.source = source
        self.rolls: dict[str, list[int]] = {"d8": [], "d6": [], "d20": []}

    def d8(self) -> int:
        self.rolls["d8"].append(roll := self.source.d8())
        return roll

    def d6(self) -> int:
        self.rolls["d6"].append(roll := self.source.d6())
        return roll

    def d20(self) -> int:
        self.rolls["d20"].append(roll := self.source.d20())
        return roll

    def record(self):  # type: ignore[no-untyped-def]
        return self.source.record()


def test_a_typed_in_count_too_big_for_the_box_score_is_refused() -> None:
    game = make_season(teams=2).games.get()
    name = game.home.players.first().name
    with pytest.raises(services.ResultRefused) as refused:
        services.game_result_enter(
            game_id=game.pk,
            home_score=40000,
            away_score=60,
            home_lines=[{"name": name, "pts": 3, "fga": 10**30}],
        )
    assert "scores and overtimes must be at most 32767" in refused.value.problems
    assert f"home: {name}: fga must be a whole number 0-32767" in refused.value.problems
    assert not GameResult.objects.exists()


def test_a_league_name_too_close_to_another_is_refused() -> None:
    services.league_get_or_create(name="A B")
    assert services.league_get_or_create(name="A B").name == "A B"
    with pytest.raises(services.SeasonRefused, match="too close to an existing one"):
        services.league_get_or_create(name="a-b")
    with pytest.raises(services.SeasonRefused, match="needs letters or digits"):
        services.league_get_or_create(name="!!!")


def test_playing_a_run_here_waits_for_the_game_another_player_holds() -> None:
    season = make_season(teams=4)
    run = services.simulation_start(season=season, scope="all", dispatch=False)
    held = season.games.order_by("pk").first()
    assert held is not None and services.game_claim(game_id=held.pk, token="the-servers-lane")
    seen: list[int] = []

    def progress(now: SimulationRun) -> None:
        seen.append(now.done)
        if now.done == now.total - 1 and len(seen) > 6:
            # Meanwhile the web server's lane stores the game it holds.
            services.game_play(game_id=held.pk, token="the-servers-lane")

    finished = services.run_play(run=run, on_progress=progress, poll=0)
    assert (finished.status, finished.done, finished.total) == ("done", 6, 6)
    # The five games free to take are played here as one chunk; the held one is waited for.
    assert seen[0] == 5 and seen[-1] == 6
    assert GameResult.objects.filter(game__season=season).count() == 6


def test_a_lost_worker_s_game_is_scheduled_again_once_not_sent_on_every_sweep(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """An operator's review: a killed worker's 32 games were sent again on 22 sweeps in a row
    (704 messages) while a long backlog waited in the broker: sent again, the game is
    scheduled, and a later sweep sends it only as a lost message (nothing waiting)."""
    game = make_season(teams=2).games.get()
    Game.objects.filter(pk=game.pk).update(
        status="running", attempts=1, lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert services.games_sweep() == {"requeued": 1, "failed": 0}
    game.refresh_from_db()
    assert (game.status, game.lease_expires_at, game.claimed_by) == ("scheduled", None, "")
    monkeypatch.setattr(services, "games_waiting_in_broker", lambda: 5_000)  # a long backlog
    later = timezone.now() + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=False):
        assert services.games_sweep(now=later) == {"requeued": 0, "failed": 0}


def test_a_game_rolled_with_real_dice_replays_from_its_dice_and_a_typed_score_says_why_not(
    capsys,
) -> None:  # type: ignore[no-untyped-def]
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from tests.table.dice import rolled_game

    season = factories.make_season(teams=3)
    rolled, typed = season.games.all()[:2]
    Game.objects.filter(pk=rolled.pk).update(strategy=False)  # no coach to solve here
    rolled.refresh_from_db()
    rules = preset(rolled.rules)
    home, away = team_card(rolled.home), team_card(rolled.away)
    _played, written = rolled_game(home, away, 8, rules=rules, neutral=rolled.neutral)
    dice = {"format": "vabg-dice/1", "d8": [], "d6": [], "d20": []}
    for die, value in zip(written.dice, written.values, strict=True):
        dice[die].append(value)
    services.game_replay_dice(game_id=rolled.pk, script=dice)
    rolled.refresh_from_db()
    assert (rolled.status, rolled.kind, rolled.seed) == ("final", "real_dice", None)
    call_command("simulate", "--replay", str(rolled.pk))
    assert "from its dice: identical, event for event." in capsys.readouterr().out
    services.game_result_enter(game_id=typed.pk, home_score=70, away_score=64)
    with pytest.raises(CommandError, match="was entered as a score: it has no dice to play again"):
        call_command("simulate", "--replay", str(typed.pk))
