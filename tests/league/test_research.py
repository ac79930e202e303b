"""Research runs: many games tallied, never stored, the same whoever plays the chunks."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.urls import reverse

from cards.models import Card
from league import gamestats, research_runs, services, tournaments
from league.games import league_game
from league.models import Game, ResearchChunk, ResearchRun
from league.research import BOX, Kind, Plan, PlanError, Tally, game_seed, play_chunk
from simulator import SeededDice
from simulator.games import find_game
from simulator.vabg import play_game, preset, read_team_file
from simulator.vabg.coachodds import exact_odds
from simulator.vabg.engine import rules_coach
from tests.brokers import own_broker
from tests.factories import commissioner, fan, full_team

TEAMS = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
RULES = preset("advanced", strategy=True)


@pytest.fixture(scope="module")
def three() -> tuple:  # type: ignore[type-arg]
    return tuple(
        read_team_file(TEAMS / name)
        for name in ("ucla-1972.json", "kentucky-2012.json", "indiana-1976.json")
    )


def matchups(teams: tuple, repetitions: int, seed: int = 100) -> Plan:  # type: ignore[type-arg]
    return Plan(
        kind=Kind.MATCHUPS, teams=teams, rules=RULES, repetitions=repetitions, seed=seed,
        games=((0, 1, True), (2, 0, False)),
    )  # fmt: skip


def test_a_run_tallies_exactly_the_games_its_seeds_play(three: tuple) -> None:  # type: ignore[type-arg]
    plan = matchups(three, 3)
    tally = play_chunk(plan, 0, 3)
    points = {0: 0, 1: 0, 2: 0}
    rebounds = {0: 0, 1: 0, 2: 0}
    k = 0  # game k of the run is played with game_seed(100, k)
    for _ in range(3):
        for home, away, neutral in plan.games:
            h, a = three[home], three[away]
            coach = rules_coach(h, a, rules=RULES, neutral=neutral)
            dice = SeededDice(game_seed(100, k))
            played = play_game(h, a, dice, rules=RULES, neutral=neutral, coach=coach)
            k += 1
            for i, box in ((home, played.home), (away, played.away)):
                points[i] += box.score
                rebounds[i] += sum(line.reb for line in box.players)
    assert tally.games == 6
    assert {i: t.box[BOX.index("pts")] for i, t in tally.teams.items()} == points
    assert {i: t.box[BOX.index("reb")] for i, t in tally.teams.items()} == rebounds
    assert sum(p.box[0] for (i, _), p in tally.players.items() if i == 0) == points[0]


def test_runs_of_neighbouring_seeds_share_no_game_and_an_older_run_keeps_its_seeds(
    three: tuple,  # type: ignore[type-arg]
) -> None:
    """A research reviewer's replicates seeded 1 and 2 shared 9,999 of 10,000 games (game k
    was seed + k): their figures agreed to the fourth digit. Now no game is shared; a plan
    stored before (no "seeding") still plays seed + k, so its resumed chunks match the old."""
    one, two = matchups(three, 5, seed=1), matchups(three, 5, seed=2)
    seeds = [{p.game_seed(k) for k in range(p.total_games)} for p in (one, two)]
    assert len(seeds[0]) == one.total_games and not seeds[0] & seeds[1]
    stored = one.to_json()
    assert stored["seeding"] == 2 and Plan.from_json(stored).game_seed(3) == game_seed(1, 3)
    del stored["seeding"]  # as a run made before 2026-11-30 was stored
    older = Plan.from_json(stored)
    assert [older.game_seed(k) for k in range(3)] == [1, 2, 3]
    assert play_chunk(older, 0, 1).to_json() != play_chunk(one, 0, 1).to_json()


def test_chunks_add_up_to_the_whole_run_wherever_it_is_cut(three: tuple) -> None:  # type: ignore[type-arg]
    plan = matchups(three, 7)
    whole = play_chunk(plan, 0, 7)
    cut = Tally()
    for first, stop in ((0, 3), (3, 4), (4, 7)):
        cut.add(Tally.from_json(play_chunk(plan, first, stop).to_json()))  # through storage
    assert cut.to_json() == whole.to_json()
    assert plan.chunks(games_per_chunk=4) == [(0, 2), (2, 4), (4, 6), (6, 7)]


def test_a_long_run_agrees_with_the_exact_odds(three: tuple) -> None:  # type: ignore[type-arg]
    plan = Plan(kind=Kind.MATCHUPS, teams=three, rules=RULES, repetitions=1500, seed=9,
                games=((1, 2, True),))  # fmt: skip
    pair = play_chunk(plan, 0, 1500).pairs[1, 2, True]
    exact = exact_odds(three[1], three[2], rules=RULES, neutral=True, scores=False)
    share = pair.home_wins / pair.games
    se = (exact.p_home_win * (1 - exact.p_home_win) / pair.games) ** 0.5
    assert abs(share - exact.p_home_win) < 4 * se


def test_a_bracket_run_crowns_one_champion_each_time(three: tuple) -> None:  # type: ignore[type-arg]
    from league.bracket import bracket_for_field

    plan = Plan(kind=Kind.BRACKET, teams=three, rules=RULES, repetitions=20, seed=3,
                bracket=bracket_for_field([0, 1, 2]))  # fmt: skip
    tally = play_chunk(plan, 0, 20)
    assert sum(t.titles for t in tally.teams.values()) == 20
    assert tally.games == 40  # two games a bracket of three
    assert tally.teams[0].reached == [0, 20]  # the top seed's bye, then the final every time
    assert sum(t.reached[1] for t in tally.teams.values()) == 40


def test_every_group_of_a_season_has_its_first_place_each_time(three: tuple) -> None:  # type: ignore[type-arg]
    """A season's first places are counted within each group (its conference), by win
    percentage: a small conference's winner is first however many games a bigger one's
    teams won, and a cross-conference game does not rank a named conference's teams."""
    five = (
        *three,
        read_team_file(TEAMS / "duke-1992.json"),
        read_team_file(TEAMS / "unlv-1991.json"),
    )
    plan = Plan(
        kind=Kind.SEASON, teams=five, rules=RULES, repetitions=12, seed=4,
        games=((0, 1, True), (2, 3, True), (3, 4, True), (4, 2, True), (0, 2, True)),
        conferences=("Small", "Small", "Big", "Big", "Big"),
    )  # fmt: skip
    assert Plan.from_json(plan.to_json()) == plan
    tally = play_chunk(plan, 0, 12)
    small = [tally.teams[i].firsts for i in (0, 1)]
    big = [tally.teams[i].firsts for i in (2, 3, 4)]
    assert sum(small) == 12  # one conference game a season: one first, never a tie
    assert sum(big) >= 12 and all(n <= 12 for n in big)  # 2-0 first, or a three-way tie


def test_a_plan_refuses_what_it_cannot_play(three: tuple) -> None:  # type: ignore[type-arg]
    with pytest.raises(PlanError, match="at least one repetition"):
        matchups(three, 0)
    with pytest.raises(PlanError, match="not in a run of 3"):
        play_chunk(matchups(three, 3), 2, 5)


# --- in the league ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_command_writes_means_as_csv_and_parquet(tmp_path: Path) -> None:
    a, b = full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "30",
                 "--seed", "5", "--chunk", "7", "--out", str(tmp_path), "--no-progress")  # fmt: skip
    run = ResearchRun.objects.get()
    assert (run.total_games, len(run.chunks)) == (30, 5)
    assert Game.objects.count() == 0  # nothing stored game by game
    with (tmp_path / "teams.csv").open() as f:
        rows = {r["team"]: r for r in csv.DictReader(f)}
    assert {int(rows[t]["games"]) for t in ("Alpha 2001", "Beta 2002")} == {30}
    assert int(rows["Alpha 2001"]["wins"]) + int(rows["Beta 2002"]["wins"]) == 30
    expected = play_chunk(Plan.from_json(run.plan), 0, 30)
    assert float(rows["Alpha 2001"]["points"]) == pytest.approx(expected.teams[0].box[0] / 30)
    parquet = pq.read_table(tmp_path / "players.parquet").to_pylist()
    with (tmp_path / "players.csv").open() as f:
        assert len(parquet) == len(list(csv.DictReader(f))) == 12
    assert {p["team"] for p in parquet} == {"Alpha 2001", "Beta 2002"}
    assert a.pk in {int(r["team_id"]) for r in rows.values()} and b.pk
    # The folder says what made its figures, enough to play them again without the database.
    made = json.loads((tmp_path / "run.json").read_text())
    assert (made["id"], made["seed"], made["seed_str"]) == (run.pk, 5, "5")
    assert (made["repetitions"], made["total_games"], made["kind"]) == (30, 30, "matchups")
    assert made["rules"] == RULES.to_json()
    assert made["teams"] == [{"id": a.pk, "name": "Alpha 2001"}, {"id": b.pk, "name": "Beta 2002"}]
    assert made["games"] == [{"home": a.pk, "away": b.pk, "neutral": True}]
    with (tmp_path / "pairs.csv").open() as f:
        (pair,) = csv.DictReader(f)
    assert (int(pair["home_id"]), pair["home"], int(pair["away_id"])) == (a.pk, "Alpha 2001", b.pk)


@pytest.mark.django_db
def test_a_random_seed_is_said_and_a_seed_no_game_can_take_is_refused(tmp_path: Path) -> None:
    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    args = ("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "3", "--no-progress")
    for wrong, why in (("-1", "-1 is not a seed: give 0 to 9223372036854775807"),
                       (str(2**63), f"{2**63} is not a seed: give 0 to 9223372036854775807"),
                       ("x", "'x' is not a whole number"),
                       ("1_000", "'1_000' is not a whole number"),
                       (" 5", "' 5' is not a whole number")):  # fmt: skip
        with pytest.raises(CommandError, match=re.escape(f"argument --seed: {why}")):
            call_command(*args, "--seed", wrong, "--out", str(tmp_path / "never"))
    assert not ResearchRun.objects.exists()
    out = io.StringIO()
    call_command(*args, "--out", str(tmp_path / "random"), stdout=out)
    seed = json.loads((tmp_path / "random" / "run.json").read_text())["seed"]
    assert f"seed {seed} (game k of the run, from 0, is played with seed game_seed(seed, k)" in (
        out.getvalue()
    )
    again = io.StringIO()  # played again from the seed it said: the same figures
    call_command(*args, "--seed", str(seed), "--out", str(tmp_path / "again"), stdout=again)
    assert (tmp_path / "again" / "teams.csv").read_bytes() == (
        tmp_path / "random" / "teams.csv"
    ).read_bytes()


@pytest.mark.django_db
def test_a_run_never_writes_over_another_runs_figures(tmp_path: Path, settings) -> None:  # type: ignore[no-untyped-def]
    """A database started afresh numbers its runs from 1 again: research/run-1 may hold an
    older run's figures, which the new run refuses to touch (and keeps itself resumable)."""
    settings.RESEARCH_DIR = tmp_path
    alpha, beta = full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    args = ("--matchup", "Alpha 2001", "Beta 2002", "--times", "4", "--no-progress")
    call_command("research", *args, "--seed", "1")
    first = ResearchRun.objects.get()
    folder = tmp_path / f"run-{first.pk}"
    before = (folder / "teams.csv").read_bytes()
    assert f"research run #{first.pk}" in (folder / "run.json").read_text()
    out = io.StringIO()
    call_command("research", "--resume", str(first.pk), "--no-progress", stdout=out)
    assert (folder / "teams.csv").read_bytes() == before  # its own: rewritten, the same
    assert f"its {first.total_games} games were already played" in out.getvalue()

    # As if the database were new: its first run gets id 1 again.
    ResearchRun.objects.all().delete()
    again = research_runs.research_start(
        season=None, pairs=[(alpha, beta)], repetitions=4, rules=RULES, neutral=True, seed=2,
        games_per_chunk=2000,
    )  # fmt: skip
    ResearchRun.objects.filter(pk=again.pk).update(id=first.pk)
    again = ResearchRun.objects.get(pk=first.pk)
    with pytest.raises(CommandError) as refused:
        call_command("research", "--resume", str(again.pk), "--no-progress")
    assert f"{folder} holds the figures of research run #{first.pk}" in str(refused.value)
    assert f"--resume {again.pk} --out DIR" in str(refused.value)
    assert (folder / "teams.csv").read_bytes() == before

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "teams.csv").write_text("my own figures")
    with pytest.raises(CommandError, match=r"already holds teams\.csv of an unknown run"):
        call_command("research", "--resume", str(again.pk), "--out", str(tmp_path / "mine"),
                     "--no-progress")  # fmt: skip
    assert (tmp_path / "mine" / "teams.csv").read_text() == "my own figures"
    call_command("research", "--resume", str(again.pk), "--out", str(tmp_path / "new"),
                 "--no-progress")  # fmt: skip
    assert (tmp_path / "new" / "teams.csv").exists()


@pytest.mark.django_db
def test_a_chunk_delivered_twice_counts_once_and_cards_are_fixed_when_the_run_is_made() -> None:
    a, b = full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    plan = research_runs.plan_for_matchups(pairs=[(a, b)], repetitions=10, rules=RULES,
                                           neutral=True, seed=1)  # fmt: skip
    run = research_runs.research_run_create(plan=plan, label="twice", games_per_chunk=5)
    Card.objects.filter(player__team=a).update(turnover_top=46)  # an edit during the run
    assert research_runs.research_chunk_play(run_id=run.pk, index=0) is True
    assert research_runs.research_chunk_play(run_id=run.pk, index=0) is False
    assert research_runs.research_missing(run) == [1]
    research_runs.research_chunk_play(run_id=run.pk, index=1)
    assert ResearchChunk.objects.filter(run=run).count() == 2
    assert research_runs.research_tally(run).to_json() == play_chunk(plan, 0, 10).to_json()
    edited = research_runs.plan_for_matchups(pairs=[(a, b)], repetitions=10, rules=RULES,
                                             neutral=True, seed=1)  # fmt: skip
    assert play_chunk(edited, 0, 10).to_json() != play_chunk(plan, 0, 10).to_json()


@pytest.mark.django_db
def test_a_slow_chunk_is_played_by_one_worker_and_its_follow_waits_without_giving_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An operator's review: on a loaded host a 2,000-game chunk took minutes; each 30 s
    with nothing stored the follow sent every missing chunk again (copies played beside
    the first) and, after three, said "start workers" while both were busy."""
    a, b = full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    plan = research_runs.plan_for_matchups(pairs=[(a, b)], repetitions=10, rules=RULES,
                                           neutral=True, seed=1)  # fmt: skip
    run = research_runs.research_run_create(plan=plan, label="slow", games_per_chunk=5)
    # A worker is playing chunk 0: a copy delivered meanwhile leaves it to that worker.
    cache.set(research_runs._held_key(run.pk, 0), "another-host", 60)
    assert research_runs.research_chunk_held(run.pk, 0)
    assert research_runs.research_chunk_play(run_id=run.pk, index=0) is False
    assert research_runs.research_missing(run) == [0, 1]
    # The follow: nothing stored, chunk 0 held. Far more stalls than GIVE_UP go by, and
    # only the chunk no worker holds is sent again; then the holder stores its chunk.
    sent: list[int] = []
    polls = iter(range(10_000))
    clock = iter(float(i) for i in range(10_000))
    monkeypatch.setattr(research_runs.time, "sleep", lambda s: None)
    monkeypatch.setattr(research_runs.time, "monotonic", lambda: next(clock))

    def progress(stored: int) -> None:
        pass

    def send(run_id: int, index: int) -> None:
        sent.append(index)
        if len(sent) > 3 * research_runs.GIVE_UP:  # the slow worker stores it at last
            cache.delete(research_runs._held_key(run_id, 0))
            research_runs.research_chunk_play(run_id=run_id, index=0)
            research_runs.research_chunk_play(run_id=run_id, index=1)
        next(polls)

    ended = research_runs.research_follow(run, send=send, progress=progress, stall=1.0)
    assert ended.done and research_runs.research_missing(run) == []
    assert 0 not in sent[2:]  # after the first sending, never a copy of the held chunk
    assert sent.count(1) > research_runs.GIVE_UP  # no give-up while a chunk was held


@pytest.mark.django_db
def test_a_tournament_plays_its_bracket_again_and_again(tmp_path: Path) -> None:
    teams = [full_team(school=f"T{i}", season=2000 + i) for i in range(4)]
    league = services.league_get_or_create(name="Research cup")
    cup = tournaments.tournament_create(league=league, name="Cup", teams=teams, seed=4)
    call_command("research", "--season", str(cup.pk), "--times", "25", "--seed", "2",
                 "--out", str(tmp_path), "--no-progress")  # fmt: skip
    with (tmp_path / "teams.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert sum(float(r["title_share"]) for r in rows) == pytest.approx(1.0)
    assert all(float(r["reached_round_1"]) == 1.0 for r in rows)
    assert ResearchRun.objects.get().kind == "bracket"


@pytest.mark.django_db
def test_a_season_run_names_each_teams_conference_and_its_share_of_firsts_there(
    tmp_path: Path,
) -> None:
    teams = [full_team(school=f"C{i}", season=2000 + i) for i in range(5)]
    groups = {t.pk: ("East" if i < 2 else "West") for i, t in enumerate(teams)}
    league = services.league_get_or_create(name="Research league")
    season = services.season_create(league=league, name="Groups", teams=teams,
                                    conferences=groups, seed=3)  # fmt: skip
    call_command("research", "--season", str(season.pk), "--times", "10", "--seed", "1",
                 "--out", str(tmp_path), "--no-progress")  # fmt: skip
    rows = pq.read_table(tmp_path / "teams.parquet").to_pylist()
    assert {r["team"]: r["conference"] for r in rows} == {str(t): groups[t.pk] for t in teams}
    for conference in ("East", "West"):  # a first place in each, every season
        assert sum(r["first_share"] for r in rows if r["conference"] == conference) >= 1


@pytest.mark.django_db
def test_a_folder_the_figures_cannot_go_into_is_refused_before_a_game_is_played(
    tmp_path: Path,
) -> None:
    """A million games take a quarter of an hour: a bad --out is named before the first,
    not after the last, and no run is made."""
    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    args = ("--matchup", "Alpha 2001", "Beta 2002", "--times", "3", "--no-progress")
    a_file = tmp_path / "figures"
    a_file.write_text("not a folder")
    with pytest.raises(CommandError, match=r"--out .*figures is a file, not a folder"):
        call_command("research", *args, "--out", str(a_file))
    with pytest.raises(CommandError, match=r"cannot write the figures into .*figures/run"):
        call_command("research", *args, "--out", str(a_file / "run"))
    taken = tmp_path / "taken"
    call_command("research", *args, "--out", str(taken))
    first = ResearchRun.objects.get()
    with pytest.raises(CommandError, match=f"holds the figures of research run #{first.pk}"):
        call_command("research", *args, "--out", str(taken))
    assert list(ResearchRun.objects.all()) == [first]


@pytest.mark.django_db
def test_a_refused_or_stopped_run_leaves_no_empty_folder_and_a_stop_says_how_to_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """A research reviewer's findings: each refused command (a season that does not
    exist, --times 0) made its --out folder and its parents; --out "" wrote the figures
    where the command ran; --times 10**12 built its chunks until 5 GB of memory; a
    run.json that cannot be read was a traceback; Ctrl-C thirty lines of frames and no
    resume command."""
    settings.RESEARCH_DIR = str(tmp_path / "research")  # never the project's own
    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    args = ("--matchup", "Alpha 2001", "Beta 2002", "--no-progress")
    deep = tmp_path / "deep" / "er"
    for wrong, why in (
        (("--season", "nope"), "nope"),
        (("--times", "0"), "repetition"),
        (("--times", str(10**12)), "a run plays at most 1,000,000,000 games"),
        (("--times", str(10**6), "--chunk", "1"), "at most 100,000; give a larger --chunk"),
    ):
        given = wrong if wrong[0] == "--season" else (*args, *wrong)
        with pytest.raises(CommandError, match=why):
            call_command("research", *given, "--out", str(deep))
        assert not (tmp_path / "deep").exists(), wrong
    assert not ResearchRun.objects.exists()
    with pytest.raises(CommandError, match="an empty --out names no folder"):
        call_command("research", *args, "--times", "2", "--out", "")
    unreadable = tmp_path / "unreadable"
    unreadable.mkdir()
    (unreadable / "run.json").write_text("{not json")
    with pytest.raises(CommandError, match=r"run.json cannot be read \(.*move that one away"):
        call_command("research", *args, "--times", "2", "--out", str(unreadable))

    def interrupted(run, **kwargs):  # type: ignore[no-untyped-def]
        research_runs.research_chunk_play(run_id=run.pk, index=0)
        raise KeyboardInterrupt

    monkeypatch.setattr(research_runs, "research_follow", interrupted)
    stopped = tmp_path / "stopped"
    with pytest.raises(CommandError) as caught:
        call_command("research", *args, "--times", "6", "--chunk", "4", "--out", str(stopped))
    run = ResearchRun.objects.get()
    assert str(caught.value) == (
        f"run {run.pk} stopped: 4 of 6 games played and kept; to go on: "
        f"manage.py research --resume {run.pk} --out {stopped}"
    )
    assert caught.value.returncode == 130
    assert not stopped.exists()  # nothing written: the figures come when the run ends
    # Resumed without --out, it goes on in the folder first named (it went to
    # RESEARCH_DIR/run-N, the reviewer's folder left empty).
    monkeypatch.undo()
    call_command("research", "--resume", str(run.pk), "--no-progress", stdout=io.StringIO())
    assert (stopped / "teams.csv").is_file()


@pytest.mark.django_db
def test_a_broker_that_cannot_be_reached_is_named_with_the_command_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.celery import app

    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    # Nothing listens there (Celery reads the variable before its own setting).
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    with own_broker(app), pytest.raises(CommandError) as refused:
        call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "2",
                     "--out", str(tmp_path), "--no-progress")  # fmt: skip
    run = ResearchRun.objects.get()
    assert "cannot send its chunks to the broker (redis://127.0.0.1:1/0)" in str(refused.value)
    # With the folder the run was started with (a review: a resume without it wrote the
    # figures into research/run-ID instead).
    assert str(refused.value).endswith(f"manage.py research --resume {run.pk} --out {tmp_path}")


@pytest.mark.django_db
def test_a_run_no_worker_answers_for_says_so_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broker with no worker: the command says so when it starts, not only after three
    stalls (a minute and a half by default) of a bar standing at 0%."""
    from config.celery import app

    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    monkeypatch.setenv("CELERY_BROKER_URL", "memory://")  # a broker of this process, no worker
    log = io.StringIO()
    with (
        own_broker(app),
        pytest.raises(CommandError, match=r"start workers, then: manage\.py research --resume"),
    ):
        call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "2",
                     "--stall", "0.2", "--out", str(tmp_path), stderr=log)  # fmt: skip
    run = ResearchRun.objects.get()
    assert log.getvalue().startswith(f"{run}: no worker answers a ping: its chunks wait")


@pytest.mark.django_db
def test_a_run_written_to_a_log_reports_its_progress_in_lines(tmp_path: Path) -> None:
    """Under nohup or a scheduler the progress goes to a file: lines, not a bar's carriage
    returns."""
    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    log = io.StringIO()
    call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "6",
                 "--chunk", "2", "--out", str(tmp_path), stderr=log)  # fmt: skip
    run = ResearchRun.objects.get()
    assert "\r" not in log.getvalue()
    last = log.getvalue().splitlines()[-1]
    assert re.fullmatch(rf"{re.escape(str(run))}: 6 of 6 games \(100%\), [\d,]+ a second", last)


@pytest.mark.django_db
def test_a_resumed_run_s_rate_counts_only_the_games_it_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resumed once all played, a run plays nothing: its progress shows no rate made of
    the games stored before (it said thousands a second)."""
    from config.celery import app

    full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "6",
                 "--out", str(tmp_path), "--no-progress")  # fmt: skip
    run = ResearchRun.objects.get()
    monkeypatch.setenv("CELERY_BROKER_URL", "memory://")  # followed as with workers
    log, out = io.StringIO(), io.StringIO()
    with own_broker(app):
        call_command("research", "--resume", str(run.pk), "--out", str(tmp_path),
                     stderr=log, stdout=out)  # fmt: skip
    assert log.getvalue().splitlines() == [f"{run}: 6 of 6 games (100%)"]
    assert f"{run}: its 6 games were already played" in out.getvalue()


@pytest.mark.django_db
def test_shares_come_with_their_standard_errors_and_players_join_their_teams(
    tmp_path: Path,
) -> None:
    """A title share of 0.12 over 40 brackets is 0.12 +- 0.05: the figure a researcher
    needs to tell two teams apart; and a player's row names his team's id, as teams does."""
    teams = [full_team(school=f"T{i}", season=2000 + i) for i in range(4)]
    league = services.league_get_or_create(name="Research cup")
    cup = tournaments.tournament_create(league=league, name="Cup", teams=teams, seed=4)
    call_command("research", "--season", str(cup.pk), "--times", "40", "--seed", "2",
                 "--out", str(tmp_path), "--no-progress")  # fmt: skip
    rows = pq.read_table(tmp_path / "teams.parquet").to_pylist()
    for r in rows:
        p = r["title_share"]
        assert r["title_share_se"] == pytest.approx((p * (1 - p) / 40) ** 0.5)
    assert any(r["title_share_se"] > 0 for r in rows)
    players = pq.read_table(tmp_path / "players.parquet").to_pylist()
    ids = {r["team"]: r["team_id"] for r in rows}
    assert {(p["team"], p["team_id"]) for p in players} == set(ids.items())
    assert set(ids.values()) == {t.pk for t in teams}


@pytest.mark.django_db
def test_options_a_run_would_ignore_are_refused_by_name(tmp_path: Path) -> None:
    """A season plays its own rules and courts and a resumed run is the run it was made
    as: --rules basic there would be silently dropped, and the figures taken for basic's."""
    teams = [full_team(school=f"T{i}", season=2000 + i) for i in range(2)]
    league = services.league_get_or_create(name="Research league")
    season = services.season_create(league=league, name="Own rules", teams=teams, seed=3)
    with pytest.raises(CommandError, match=r"^--rules, --home-court: a season or tournament"):
        call_command("research", "--season", str(season.pk), "--rules", "basic",
                     "--home-court", "--times", "2", "--out", str(tmp_path / "a"))  # fmt: skip
    assert not ResearchRun.objects.exists()
    call_command("research", "--season", str(season.pk), "--times", "2", "--seed", "1",
                 "--out", str(tmp_path / "b"), "--no-progress")  # fmt: skip
    run = ResearchRun.objects.get()
    with pytest.raises(CommandError, match=rf"^--times, --seed: run {run.pk} plays as it was"):
        call_command("research", "--resume", str(run.pk), "--times", "5", "--seed", "2")
    call_command("research", "--resume", str(run.pk), "--out", str(tmp_path / "b"),
                 "--no-progress")  # fmt: skip
    assert ResearchRun.objects.get().repetitions == 2


@pytest.mark.django_db
def test_bad_requests_are_refused_by_name() -> None:
    full_team(school="Alpha", season=2001)
    with pytest.raises(CommandError, match='No team "Gamma 1999"'):
        call_command("research", "--matchup", "Alpha 2001", "Gamma 1999")
    # The school in any case, as export_team reads it (a review's "ucla 1972" found nothing).
    with pytest.raises(CommandError, match="cannot play itself"):
        call_command("research", "--matchup", "alpha 2001", "ALPHA 2001")
    with pytest.raises(CommandError, match="cannot play itself"):
        call_command("research", "--matchup", "Alpha 2001", "Alpha 2001")
    full_team(school="Beta", season=2002)
    with pytest.raises(CommandError, match="at least one repetition"):
        call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--times", "0")
    with pytest.raises(CommandError, match="no research run 99"):
        call_command("research", "--resume", "99")


@pytest.mark.django_db
def test_the_commissioner_follows_research_runs_in_the_admin(client) -> None:  # type: ignore[no-untyped-def]
    a, b = full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    plan = research_runs.plan_for_matchups(pairs=[(a, b)], repetitions=4, rules=RULES,
                                           neutral=True, seed=1)  # fmt: skip
    run = research_runs.research_run_create(plan=plan, label="Alpha v Beta", games_per_chunk=2)
    research_runs.research_chunk_play(run_id=run.pk, index=0)
    client.force_login(commissioner())
    listing = client.get(reverse("admin:league_researchrun_changelist")).content.decode()
    assert "Alpha v Beta" in listing and "1 of 2" in listing
    page = client.get(reverse("admin:league_researchrun_change", args=[run.pk]))
    assert page.status_code == 200 and "dunk_top" not in page.content.decode()  # no plan
    client.force_login(fan())
    assert client.get(reverse("admin:league_researchrun_changelist")).status_code == 302


@pytest.mark.django_db
def test_a_grid_court_season_s_run_counts_what_its_games_store_when_played_with_its_seeds(
    tmp_path: Path,
) -> None:
    # A trial (2026-11-29) was refused a research run of a six dice tournament: every game
    # the league hosts now has them. Played with the run's seeds, the season's own stored
    # games give the very figures the run wrote: its points, its pieces' totals and its
    # team figures, each team's a game.
    teams = [full_team(school=f"G{i}", season=2000 + i) for i in range(4)]
    league = services.league_get_or_create(name="Grid research")
    season = services.season_create(league=league, name="Grid", teams=teams, seed=5,
                                    game="gridcourt", options={"pieces": 3})  # fmt: skip
    games = list(Game.objects.filter(season=season).order_by("round", "game_date", "pk"))
    for k, game in enumerate(games):
        game.seed = game_seed(700, k)  # game k of a run is played with game_seed(seed, k)
        game.save(update_fields=["seed"])
    call_command("research", "--season", str(season.pk), "--times", "1", "--seed", "700",
                 "--out", str(tmp_path), "--no-progress")  # fmt: skip
    call_command("simulate", str(season.pk), "--all", stdout=io.StringIO())
    stored = {row["team_id"]: row for row in gamestats.team_stats(season).rows}
    with (tmp_path / "teams.csv").open() as f:
        rows = {int(r["team_id"]): r for r in csv.DictReader(f)}
    assert set(rows) == {t.pk for t in teams}
    for pk, row in rows.items():
        mine = stored[pk]
        assert (int(row["games"]), int(row["wins"])) == (mine["g"], mine["w"])
        assert float(row["points"]) == pytest.approx(mine["pts_pg"])
        assert float(row["points_against"]) == pytest.approx(mine["opp_pts_pg"])
        for key in ("fga", "tpm", "dreb", "to", "possessions", "steps", "shot_clock_violations"):
            assert float(row[f"{key}_pg"]) == pytest.approx(mine[f"{key}_pg"]), key
    # No sum of a rate (points a possession), no overtime in a game played to 21, and
    # run.json names the game.
    assert "ppp_pg" not in next(iter(rows.values())) and "overtime_share" not in rows[pk]
    # Each team's pieces, "piece 1" to "piece 3", add up to its points and shots.
    with (tmp_path / "players.csv").open() as f:
        pieces = list(csv.DictReader(f))
    for pk, row in rows.items():
        mine = [p for p in pieces if int(p["team_id"]) == pk]
        assert sorted(p["player"] for p in mine) == ["piece 1", "piece 2", "piece 3"]
        for key, team_key in (("pts", "points"), ("fga", "fga_pg")):
            total = sum(float(p[f"{key}_pg"]) * int(p["games"]) for p in mine)
            assert total == pytest.approx(float(row[team_key]) * int(row["games"])), key
    made = json.loads((tmp_path / "run.json").read_text())
    assert made["game"] == "gridcourt" and made["rules"]["pieces"] == 3
    assert {t["name"] for t in made["teams"]} == {str(t) for t in teams}


@pytest.mark.django_db
def test_a_six_dice_tournament_s_run_plays_its_bracket_by_its_options_and_adds_up(
    tmp_path: Path,
) -> None:
    teams = [full_team(school=f"S{i}", season=2000 + i) for i in range(4)]
    league = services.league_get_or_create(name="Dice")
    six = tournaments.tournament_create(league=league, name="Six", teams=teams, seed=1,
                                        game="sixdice", options={"chip_reroll": True})  # fmt: skip
    run = research_runs.research_start(season=six, repetitions=30, rules=RULES, seed=9,
                                       games_per_chunk=20)  # fmt: skip
    plan = Plan.from_json(run.plan)
    assert plan.game == "sixdice" and plan.rules.chip_reroll and len(run.chunks) == 5
    whole = play_chunk(plan, 0, 30)
    cut = Tally()
    for index, (first, stop) in enumerate(run.chunks):  # as the workers store them
        research_runs.research_chunk_play(run_id=run.pk, index=index)
        cut.add(play_chunk(plan, first, stop))
    stored = research_runs.research_tally(run)
    assert cut.teams == whole.teams == stored.teams and cut.pairs == whole.pairs == stored.pairs
    assert whole.games == 90 and sum(t.titles for t in whole.teams.values()) == 30
    rerolls = plan.columns.index("chip_rerolls")
    assert sum(t.box[rerolls] for t in whole.teams.values()) > 0  # the option is in play
    call_command("research", "--resume", str(run.pk), "--out", str(tmp_path), "--no-progress")
    with (tmp_path / "teams.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert sum(float(r["title_share"]) for r in rows) == pytest.approx(1.0)
    assert {"dunks_pg", "rolls_won_pg", "chip_rerolls_pg"} <= set(rows[0])
    assert sum(int(r["wins"]) for r in rows) == 90  # first to 21: a winner every game
    assert sum(float(r["points"]) * int(r["games"]) for r in rows) >= 21 * 90


@pytest.mark.django_db
def test_matchups_of_another_game_play_its_rule_options_and_refuse_vabg_s(
    tmp_path: Path,
) -> None:
    a, b = full_team(school="Alpha", season=2001), full_team(school="Beta", season=2002)
    call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--game", "gridcourt",
                 "--option", "pieces=4", "--times", "40", "--seed", "5", "--out",
                 str(tmp_path), "--no-progress")  # fmt: skip
    run = ResearchRun.objects.get()
    plan = Plan.from_json(run.plan)
    assert plan.game == "gridcourt" and plan.rules.pieces == 4 and "(Grid court" in run.label
    engine = find_game("gridcourt")  # the games the seeds play, one by one
    home, away = (engine.read_team(league_game("gridcourt").team_file(t)) for t in (a, b))
    games = [engine.play(home, away, SeededDice(game_seed(5, k)), plan.rules) for k in range(40)]
    with (tmp_path / "pairs.csv").open() as f:
        (pair,) = csv.DictReader(f)
    assert float(pair["home_win_pct"]) == sum(g.home.score > g.away.score for g in games) / 40
    assert float(pair["away_points"]) == pytest.approx(sum(g.away.score for g in games) / 40)
    refused = {
        ("--game", "gridcourt", "--rules", "basic"): "--rules: Grid court plays by its rule",
        ("--game", "gridcourt", "--home-court"): "no court changes it",
        ("--game", "gridcourt", "--option", "pieces=9"): "pieces must be one of 3, 4, 5",
        ("--game", "sixdice", "--option", "chip_reroll"): "chip_reroll",
        ("--option", "pieces=3"): "--option is another game's rule option",
    }
    call_command("research", "--matchup", "Alpha 2001", "Beta 2002", "--game", "sixdice",
                 "--times", "20", "--out", str(tmp_path / "dice"), "--no-progress")  # fmt: skip
    with (tmp_path / "dice" / "teams.csv").open() as f:
        columns = set(next(csv.DictReader(f)))
    # chip_reroll left off: no column counts its rerolls (as the season pages show none)
    assert "chip_plays_pg" in columns and "chip_rerolls_pg" not in columns
    assert not (tmp_path / "dice" / "players.csv").exists()  # six dice's box has no lines
    for extra, words in refused.items():
        with pytest.raises(CommandError, match=re.escape(words)):
            call_command("research", "--matchup", "Alpha 2001", "Beta 2002", *extra)
    assert ResearchRun.objects.count() == 2
