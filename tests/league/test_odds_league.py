"""The league's exact odds (issue 13): the pair table, previews, win probability, brackets,
what-ifs and season odds, against the engine's own odds for the same cards."""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings

from cards.models import Card, Team
from cards.services import team_import
from league import bracket as brackets
from league import coaches, odds, services, tournaments
from league.models import Game, PairOdds, SolvedCoach
from league.tasks import odds_pair_table
from simulator.vabg import preset, read_team_file
from simulator.vabg.coachodds import coach_odds, exact_odds
from simulator.vabg.odds import game_odds, matchup_odds
from tests.factories import full_team, make_season

pytestmark = pytest.mark.django_db

TEAMS = Path(settings.BASE_DIR) / "fixtures" / "teams"
NAMES = ["kentucky-2012", "kansas-2008", "duke-1992", "arizona-1997", "auburn-1984"]


def load(name: str):  # type: ignore[no-untyped-def]
    return team_import(name=f"{name}.json", content=(TEAMS / f"{name}.json").read_bytes()).team


@pytest.fixture(scope="module")
def imported(module_world: None) -> list[int]:
    """The five fixture teams, imported once for the module."""
    return [load(name).pk for name in NAMES]


@pytest.fixture
def teams(imported: list[int]):  # type: ignore[no-untyped-def]
    by_pk = Team.objects.in_bulk(imported)
    return [by_pk[pk] for pk in imported]


def cup(teams, *, name="Cup", neutral=True, reseed=False, strategy=False):  # type: ignore[no-untyped-def]
    return tournaments.tournament_create(
        league=services.league_get_or_create(name="Odds League"),
        name=name,
        teams=teams,
        neutral=neutral,
        reseed=reseed,
        strategy=strategy,
        seed=5,
    )


def play(game: Game, capture) -> Game:  # type: ignore[no-untyped-def]
    with capture(execute=True):
        services.game_simulate(game_id=game.pk)
    return Game.objects.select_related("result", "home", "away").get(pk=game.pk)


# -- previews --------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "neutral"), [("advanced", False), ("basic", True)])
def test_a_matchup_preview_is_the_simulators_odds_for_the_same_cards(teams, rules, neutral) -> None:
    home, away = teams[0], teams[1]
    preview = odds.matchup_preview(home_id=home.pk, away_id=away.pk, rules=rules, neutral=neutral)
    exact = game_odds(
        read_team_file(TEAMS / "kentucky-2012.json"),
        read_team_file(TEAMS / "kansas-2008.json"),
        rules=preset(rules),
        neutral=neutral,
    )
    assert preview["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)
    assert preview["p_away_win"] == pytest.approx(exact.p_away_win, abs=1e-12)
    assert preview["expected_home_pts"] == pytest.approx(exact.expected_home_pts, abs=1e-9)
    spread = exact.expected_home_pts - exact.expected_away_pts
    assert preview["spread"] == pytest.approx(spread, abs=1e-9)
    assert preview["total"] == pytest.approx(
        exact.expected_home_pts + exact.expected_away_pts, abs=1e-9
    )
    law = {row["x"]: row["p"] for row in preview["home_score"]}
    assert law[80] == pytest.approx(exact.home_score[80], abs=1e-12)
    # Asked again, it comes from the table (one row, the laws kept), with the same numbers.
    again = odds.matchup_preview(home_id=home.pk, away_id=away.pk, rules=rules, neutral=neutral)
    assert again["p_home_win"] == preview["p_home_win"]
    assert PairOdds.objects.count() == 1


def test_a_neutral_pair_is_stored_once_and_read_mirrored(teams) -> None:
    a, b = sorted(teams[:2], key=lambda t: t.pk)
    ab = odds.matchup_preview(home_id=a.pk, away_id=b.pk, rules="advanced", neutral=True)
    ba = odds.matchup_preview(home_id=b.pk, away_id=a.pk, rules="advanced", neutral=True)
    assert PairOdds.objects.count() == 1
    assert ba["p_home_win"] == pytest.approx(ab["p_away_win"], abs=1e-12)
    assert ba["expected_home_pts"] == pytest.approx(ab["expected_away_pts"])
    exact = matchup_odds(
        odds.entries_for([b.pk])[b.pk].card,
        odds.entries_for([a.pk])[a.pk].card,
        rules=preset("advanced"),
        neutral=True,
    )
    assert ba["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)


def test_a_scheduled_games_preview_uses_its_rules_court_and_coach_policy(teams) -> None:
    season = cup(teams[:2], neutral=False, strategy=True)
    game = season.games.get()
    assert game.strategy
    preview = odds.game_preview(game)
    home = odds.entries_for([game.home_id])[game.home_id].card
    away = odds.entries_for([game.away_id])[game.away_id].card
    exact = coach_odds(home, away, rules=preset(game.rules, strategy=True), neutral=False)
    assert preview["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)
    assert preview["home_score"] == [
        {"x": s, "p": p} for s, p in sorted(exact.home_score.items()) if p >= 1e-6
    ]
    assert preview["coach_policy"] is True and "coach policy" in preview["note"]
    without = matchup_odds(home, away, rules=preset(game.rules), neutral=False)
    assert abs(preview["p_home_win"] - without.p_home_win) > 1e-6
    assert PairOdds.objects.get().strategy is True


def test_with_the_coach_policy_a_neutral_pair_is_stored_in_both_orders(teams) -> None:
    a, b = sorted(teams[:2], key=lambda t: t.pk)
    ab = odds.matchup_preview(home_id=a.pk, away_id=b.pk, neutral=True, strategy=True)
    ba = odds.matchup_preview(home_id=b.pk, away_id=a.pk, neutral=True, strategy=True)
    assert PairOdds.objects.filter(strategy=True).count() == 2
    rules = preset("advanced", strategy=True)
    cards = {t.pk: odds.entries_for([t.pk])[t.pk].card for t in (a, b)}
    for preview, (home, away) in ((ab, (a, b)), (ba, (b, a))):
        exact = coach_odds(cards[home.pk], cards[away.pk], rules=rules, neutral=True)
        assert preview["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-12)
        assert preview["coach_policy"] is True
    # The visitor has the ball first and the policy reads who leads: not a mirror image.
    assert ba["p_home_win"] != pytest.approx(ab["p_away_win"], abs=1e-9)
    plain = odds.matchup_preview(home_id=a.pk, away_id=b.pk, neutral=True)
    assert plain["coach_policy"] is False and plain["note"] == ""
    assert PairOdds.objects.filter(strategy=False).count() == 1
    assert preview["spread_text"].endswith(f"by {abs(preview['spread']):.1f}")


# -- the pair table --------------------------------------------------------------------------


def test_a_card_edit_invalidates_only_the_pairs_of_its_team(teams) -> None:
    season = cup(teams[:4])
    built = odds.pair_table_build(season_id=season.pk)
    assert built == {"computed": 6, "deleted": 0, "pairs": 6}  # neutral: each pair once
    assert odds.table_status(season) == {"pairs": 6, "ready": 6}
    edited = teams[1]
    card = Card.objects.filter(player__team=edited, slot=1).first()
    card.steal_top = 20 if card.steal_top != 20 else 19
    card.save()
    table = odds.season_table(season)
    missing = table.missing(table.all_pairs())
    assert len(missing) == 3 and all(edited.pk in pair for pair in missing)
    # A row of an older rules version is stale too; rows of teams outside the field are
    # another table's, never pruned by this one's build.
    row = PairOdds.objects.exclude(home=edited).exclude(away=edited).first()
    PairOdds.objects.filter(pk=row.pk).update(rules_version=row.rules_version - 1)
    outside = PairOdds.objects.get(pk=row.pk)
    outside.pk, outside.home, outside.away = None, teams[4], full_team()
    outside.save()
    rebuilt = odds.pair_table_build(season_id=season.pk)
    assert rebuilt == {"computed": 4, "deleted": 4, "pairs": 6}
    assert PairOdds.objects.count() == 7
    assert PairOdds.objects.filter(pk=outside.pk).exists()
    # The rebuilt pairs are the new cards' odds.
    a, b = sorted((edited.pk, teams[0].pk))
    cards = odds.entries_for([a, b])
    fresh = matchup_odds(cards[a].card, cards[b].card, rules=preset("advanced"), neutral=True)
    assert odds.season_table(season).p(a, b) == pytest.approx(fresh.p_home_win, abs=1e-12)


def test_a_coached_tournament_solves_only_the_pairs_that_can_meet_in_the_bracket_order(
    teams,
) -> None:
    season = cup(teams[:4], strategy=True)
    can_meet = brackets.possible_pairs(tournaments.season_bracket(season), {})
    assert can_meet is not None and len(can_meet) == 6  # of the 12 ordered pairs
    built = odds.pair_table_build(season_id=season.pk)
    assert built == {"computed": 6, "deleted": 0, "pairs": 6}
    stored = set(PairOdds.objects.values_list("home_id", "away_id"))
    assert stored == can_meet  # the top team at home, as the bracket plays it
    assert odds.table_status(season) == {"pairs": 6, "ready": 6}
    # The bracket's odds need nothing more.
    assert odds.bracket_odds(season)["method"] == "exact"
    assert PairOdds.objects.count() == 6


def never_solved(*args: object, **kwargs: object) -> None:
    raise AssertionError("a coach was solved again")


def test_a_coached_table_keeps_each_pairs_coach_for_its_games_and_walks_those_they_stored(
    teams, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """Solving a pair's coach is most of the cost of both its odds and its games: the table
    stores the coach it solved for the games, and a table built after the games walks the
    coaches they stored instead of solving them again."""
    season = cup(teams[:4], strategy=True)
    coaches.clear(stored=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert odds.pair_table_build(season_id=season.pk)["computed"] == 6
    assert SolvedCoach.objects.count() == 6
    table = odds.season_table(season)
    before = {pair: table.p(*pair) for pair in PairOdds.objects.values_list("home_id", "away_id")}
    # A game of the bracket, played by a new worker (nothing kept in memory): its coach is read.
    coaches.clear()
    monkeypatch.setattr(coaches, "rules_coach", never_solved)
    game = play(season.games.filter(round=1).first(), django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINAL
    # The table built again (its rows lost, say) walks the stored coaches: the same odds to
    # the last bit, no coach solved.
    PairOdds.objects.all().delete()
    monkeypatch.setattr(odds, "coach_and_odds", never_solved)
    assert odds.pair_table_build(season_id=season.pk)["computed"] == 6
    again = odds.season_table(season)
    assert {pair: again.p(*pair) for pair in before} == before
    coaches.clear(stored=True)


def test_a_coached_round_robins_games_play_with_the_coaches_its_table_solved(
    teams, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    season = make_season(
        teams=teams[:3], league="Odds League", name="Coached round robin", strategy=True
    )
    coaches.clear(stored=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert odds.pair_table_build(season_id=season.pk)["computed"] == 3
    coaches.clear()
    monkeypatch.setattr(coaches, "rules_coach", never_solved)
    for game in season.games.all():  # home court: each pair's coach as its table solved it
        assert play(game, django_capture_on_commit_callbacks).status == Game.Status.FINAL
    coaches.clear(stored=True)


def test_a_coached_games_preview_and_the_game_share_one_solved_coach(
    teams, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    season = cup(teams[:2], strategy=True)
    game = season.games.get()
    coaches.clear(stored=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert odds.game_law_build(game_id=game.pk)  # the preview's whole law
    assert SolvedCoach.objects.count() == 1
    home, away = (odds.entries_for([t])[t].card for t in (game.home_id, game.away_id))
    law = odds.season_table(season).game_law(game.home_id, game.away_id)
    assert law.p_home_win == pytest.approx(
        coach_odds(home, away, rules=preset("advanced", strategy=True), neutral=True).p_home_win,
        abs=1e-12,
    )
    coaches.clear()
    monkeypatch.setattr(coaches, "rules_coach", never_solved)
    assert play(game, django_capture_on_commit_callbacks).status == Game.Status.FINAL
    coaches.clear(stored=True)


def test_a_table_task_stopped_by_its_time_limit_keeps_what_it_solved_and_goes_on(
    teams, monkeypatch
) -> None:
    """An operator's review: on a loaded host a new 96-team tournament's odds tasks hit
    Celery's soft time limit and stored none of their pairs, asked again and again."""
    from celery.exceptions import SoftTimeLimitExceeded

    from league import tasks

    season = cup(teams[:4], strategy=True)
    monkeypatch.setattr(odds, "STORE_EVERY", 2)
    real, calls = odds.PairTable._solve, []

    def slow_host(self, todo):  # type: ignore[no-untyped-def]
        calls.append(list(todo))
        if len(calls) == 2:  # the time limit, in the second chunk of pairs
            raise SoftTimeLimitExceeded()
        return real(self, todo)

    monkeypatch.setattr(odds.PairTable, "_solve", slow_host)
    sent = []
    monkeypatch.setattr(tasks, "_send", lambda task, lane, **kw: sent.append((task, lane, kw)))
    answer = tasks.odds_pair_table(season_id=season.pk)
    assert PairOdds.objects.count() == 2  # the first chunk, stored before the limit
    assert sent == [(tasks.odds_pair_table, "odds", {"season_id": season.pk, "home_ids": None})]
    assert answer["continued"] == 1
    # The task sent again goes on from there: the four pairs left, none solved twice.
    monkeypatch.setattr(odds.PairTable, "_solve", real)
    assert odds.pair_table_build(season_id=season.pk)["computed"] == 4
    assert odds.table_status(season) == {"pairs": 6, "ready": 6}


def test_a_seasons_table_holds_its_schedules_games(teams) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Odds League"),
        name="Round robin",
        teams=teams[:3],
        start_date=date(2026, 1, 5),
    )
    scheduled = set(season.games.values_list("home_id", "away_id"))
    assert len(scheduled) == 3  # of the 6 ordered pairs: one game a pair, home court
    built = odds.pair_table_build(season_id=season.pk)
    assert built["pairs"] == 3
    assert set(PairOdds.objects.values_list("home_id", "away_id")) == scheduled


def test_card_versions_are_cached_and_any_edit_of_the_rows_renews_them(teams, monkeypatch) -> None:
    ids = [t.pk for t in teams[:3]]
    first = odds.card_versions(ids)
    built: list[int] = []
    real = odds.team_card

    def counting(team):  # type: ignore[no-untyped-def]
        built.append(team.pk)
        return real(team)

    monkeypatch.setattr(odds, "team_card", counting)
    again = odds.card_versions(ids)
    assert built == []  # nothing changed: no card is built to read the versions
    assert {t: e.version for t, e in again.items()} == {t: e.version for t, e in first.items()}
    # An edit that bypasses save() (and the history) is seen all the same.
    edited = teams[1]
    card = Card.objects.filter(player__team=edited, slot=2).first()
    Card.objects.filter(pk=card.pk).update(block_top=card.block_top - 1)
    renewed = odds.card_versions(ids)
    assert built == [edited.pk]
    assert renewed[edited.pk].version != first[edited.pk].version
    assert renewed[edited.pk].version == odds.card_version(
        real(odds.teams_for_play().get(pk=edited.pk))
    )
    for other in (ids[0], ids[2]):
        assert renewed[other].version == first[other].version
    # A version read from the cache still gives its card when one is needed.
    assert again[ids[0]].card.to_json() == first[ids[0]].card.to_json()
    assert again[ids[0]].version == first[ids[0]].version
    # A card edited after its version was read: the entry takes the card's own version.
    late = again[ids[2]]
    card = Card.objects.filter(player__team_id=ids[2], slot=3).first()
    Card.objects.filter(pk=card.pk).update(block_top=card.block_top - 1)
    assert odds.card_version(late.card) == late.version != first[ids[2]].version


def test_the_table_computed_in_one_batch_is_each_pairs_own_odds(teams) -> None:
    season = cup(teams, neutral=False)
    odds.season_table(season)  # takes the card versions
    table = odds.season_table(season)  # reads them from the cache: no card built yet
    assert all(entry._card is None for entry in table.entries.values())
    pairs = table.all_pairs()
    assert table.compute(pairs) == len(pairs) == 20
    fresh = odds.season_table(season)
    for home, away in pairs[::3]:
        exact = matchup_odds(
            table.entries[home].card, table.entries[away].card, rules=preset("advanced")
        )
        assert fresh.p(home, away) == pytest.approx(exact.p_home_win, abs=1e-12)


def test_a_page_with_the_table_far_from_built_is_told_to_wait(teams) -> None:
    season = cup(teams[:4])
    table = odds.season_table(season)
    with pytest.raises(odds.OddsPending) as pending:
        table.ensure(table.all_pairs(), limit=2)
    assert (pending.value.ready, pending.value.needed) == (0, 6)
    table.ensure(table.all_pairs(), limit=6)
    assert odds.table_status(season)["ready"] == 6


# -- win probability -------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", [False, True])
def test_the_win_probability_starts_at_the_pregame_odds_and_ends_at_the_result(
    teams, strategy, django_capture_on_commit_callbacks
) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="WP League"),
        name=f"WP {strategy}",
        teams=teams[:2],
        start_date=date(2001, 1, 1),
        strategy=strategy,
        seed=11,
    )
    game = play(season.games.first(), django_capture_on_commit_callbacks)
    series = odds.win_probability(game)
    points = series["points"]
    pregame = exact_odds(
        odds.entry_as_played(game.home_id, game.result.home_team_file).card,
        odds.entry_as_played(game.away_id, game.result.away_team_file).card,
        rules=preset(game.rules, strategy=strategy),
        neutral=game.neutral,
        scores=False,
    )
    assert points[0]["p_home"] == pytest.approx(pregame.p_home_win, abs=1e-9)
    assert series["pregame"] == points[0]["p_home"]
    home_won = game.result.home_score > game.result.away_score
    assert points[-1]["p_home"] == (1.0 if home_won else 0.0)
    assert points[-1]["margin"] == game.result.home_score - game.result.away_score
    assert len(points) >= 89  # 88 trips of regulation, then the result
    assert all(0.0 <= p["p_home"] <= 1.0 for p in points)
    assert 1 <= len(series["swings"]) <= odds.SWINGS
    biggest = max(abs(b["p_home"] - a["p_home"]) for a, b in itertools.pairwise(points))
    assert max(abs(s["delta"]) for s in series["swings"]) == pytest.approx(biggest)
    assert all(s["text"] for s in series["swings"])
    assert bool(series["note"]) is strategy


def test_a_game_not_played_has_no_win_probability(teams) -> None:
    game = cup(teams[:2]).games.get()
    with pytest.raises(odds.OddsUnavailable):
        odds.win_probability(game)


# -- bracket odds ----------------------------------------------------------------------------


def test_with_the_coach_policy_the_bracket_reads_each_game_in_its_order(teams) -> None:
    season = cup(teams[:4], strategy=True)
    result = odds.bracket_odds(season)
    table = odds.season_table(season)
    assert table.strategy and PairOdds.objects.filter(strategy=True).count() >= 4
    champion = {row["team_id"]: row["champion"] for row in result["teams"]}
    assert sum(champion.values()) == pytest.approx(1.0, abs=1e-12)
    games = {g.bracket_key: g for g in season.games.all()}
    first = min(games.values(), key=lambda g: g.pk)
    reach = {row["team_id"]: row["reach"] for row in result["teams"]}
    # Reaching round 2 is winning the first game, home team as scheduled.
    assert reach[first.home_id][1] == pytest.approx(
        table.p(first.home_id, first.away_id), abs=1e-12
    )
    rules = preset(season.rules, strategy=True)
    cards = odds.entries_for([first.home_id, first.away_id])
    exact = coach_odds(
        cards[first.home_id].card,
        cards[first.away_id].card,
        rules=rules,
        neutral=True,
        scores=False,
    )
    assert table.p(first.home_id, first.away_id) == pytest.approx(exact.p_home_win, abs=1e-12)
    assert "coach policy" in result["note"]


def test_a_two_team_bracket_is_the_pairs_p_win(teams) -> None:
    season = cup(teams[:2], neutral=False)
    game = season.games.get()
    result = odds.bracket_odds(season)
    champion = {row["team_id"]: row["champion"] for row in result["teams"]}
    p = odds.season_table(season).p(game.home_id, game.away_id)
    assert champion[game.home_id] == pytest.approx(p, abs=1e-12)
    assert champion[game.away_id] == pytest.approx(1 - p, abs=1e-12)
    assert result["method"] == "exact"


def assert_rounds_add_up(result) -> None:  # type: ignore[no-untyped-def]
    for r, round_ in enumerate(result["rounds"]):
        total = sum(row["reach"][r] for row in result["teams"])
        assert total == pytest.approx(round_["slots"], abs=1e-9)
    assert sum(row["champion"] for row in result["teams"]) == pytest.approx(1.0, abs=1e-9)


def test_bracket_odds_per_round_add_up_to_the_slots_and_agree_with_sampling(teams) -> None:
    season = cup(teams[:5])  # 5 teams: three byes, round 1 is 4 v 5
    result = odds.bracket_odds(season)
    assert [r["slots"] for r in result["rounds"]] == [2, 4, 2]
    assert_rounds_add_up(result)
    bracket = tournaments.season_bracket(season)
    ids = sorted(bracket.seeds, key=lambda t: bracket.seeds[t])
    index = {t: i for i, t in enumerate(ids)}
    p = odds.season_table(season).matrix(ids)
    reach, champion = odds._sampled(bracket, {}, index, p, samples=40_000)
    for row in result["teams"]:
        i = index[row["team_id"]]
        assert row["champion"] == pytest.approx(champion[i], abs=4.5 * 0.5 / 200)
        assert row["reach"] == pytest.approx(list(reach[i]), abs=4.5 * 0.5 / 200)


def test_reseeded_brackets_are_exact_over_the_survivors(teams) -> None:
    season = cup(teams[:5], reseed=True)
    result = odds.bracket_odds(season)
    assert result["method"] == "exact"
    assert_rounds_add_up(result)
    bracket = tournaments.season_bracket(season)
    ids = sorted(bracket.seeds, key=lambda t: bracket.seeds[t])
    index = {t: i for i, t in enumerate(ids)}
    p = odds.season_table(season).matrix(ids)
    reach, champion = odds._sampled(bracket, {}, index, p, samples=40_000)
    for row in result["teams"]:
        i = index[row["team_id"]]
        assert row["champion"] == pytest.approx(champion[i], abs=0.012)
        assert row["reach"] == pytest.approx(list(reach[i]), abs=0.012)
    # Set DP and plain DP agree on a bracket without reseeding.
    plain = cup(teams[:5], name="Plain")
    pb = tournaments.season_bracket(plain)
    pid = sorted(pb.seeds, key=lambda t: pb.seeds[t])
    pi = {t: i for i, t in enumerate(pid)}
    pm = odds.season_table(plain).matrix(pid)
    odds.season_table(plain).ensure(odds.season_table(plain).all_pairs())
    pm = odds.season_table(plain).matrix(pid)
    a = brackets.bracket_law(pb, {}, pi, pm)
    b = odds._set_dp(pb, {}, pi, pm)
    assert np.allclose(a[0], b[0], atol=1e-12) and np.allclose(a[1], b[1], atol=1e-12)


def test_stored_results_and_what_ifs_move_the_odds_without_writing(
    teams, django_capture_on_commit_callbacks
) -> None:
    season = cup(teams[:5])
    first = season.games.get()  # round 1: seed 4 v seed 5
    rows_before = PairOdds.objects.count()
    # Lock the round-1 game to its underdog: that team reaches round 2 for sure.
    locked = odds.bracket_odds(season, whatif={first.bracket_key: first.away_id})
    by_team = {row["team_id"]: row for row in locked["teams"]}
    assert by_team[first.away_id]["reach"][1] == 1.0
    assert by_team[first.home_id]["reach"][1] == 0.0
    assert locked["whatif"] == [
        {"key": first.bracket_key, "winner_id": first.away_id, "kind": "lock"}
    ]
    assert_rounds_add_up(locked)
    assert not Game.objects.filter(status=Game.Status.FINAL).exists()
    assert PairOdds.objects.count() >= rows_before
    # Storing the game moves the odds the same way.
    game = play(first, django_capture_on_commit_callbacks)
    winner = game.home_id if game.result.home_score > game.result.away_score else game.away_id
    loser = game.away_id if winner == game.home_id else game.home_id
    after = {row["team_id"]: row for row in odds.bracket_odds(season)["teams"]}
    assert after[winner]["reach"][1] == 1.0 and after[loser]["champion"] == 0.0
    # Flip the stored game: the other team goes through, and the round-2 game it drew is
    # open again.
    flipped = odds.bracket_odds(season, whatif={game.bracket_key: loser})
    by_team = {row["team_id"]: row for row in flipped["teams"]}
    assert by_team[loser]["reach"][1] == 1.0 and by_team[winner]["reach"][1] == 0.0
    assert flipped["whatif"][0]["kind"] == "flip"
    assert_rounds_add_up(flipped)
    choices = odds.whatif_choices(season, {game.bracket_key: loser})
    assert any(
        loser in (c["top"]["team_id"], c["bottom"]["team_id"]) for c in choices if c["round"] == 2
    )


def test_a_what_if_that_cannot_happen_is_refused(teams) -> None:
    season = cup(teams[:5])
    first = season.games.get()
    with pytest.raises(odds.WhatIfRefused, match="does not play"):
        odds.bracket_odds(season, whatif={first.bracket_key: teams[0].pk})
    with pytest.raises(odds.WhatIfRefused, match="not known yet"):
        odds.bracket_odds(season, whatif={"R3-1": teams[0].pk})
    with pytest.raises(odds.WhatIfRefused, match="no game"):
        odds.bracket_odds(season, whatif={"R9-9": teams[0].pk})


# -- season odds -----------------------------------------------------------------------------


def test_season_odds_sample_the_pair_table(teams) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Season Odds"),
        name="S",
        teams=teams[:4],
        start_date=date(2001, 1, 1),
        seed=3,
    )
    result = odds.season_odds(season, seasons=20_000)
    assert result["games_left"] == 6
    assert sum(r["p_first"] for r in result["teams"]) == pytest.approx(1.0)
    for row in result["teams"]:
        assert sum(row["places"]) == pytest.approx(1.0)
    assert sum(r["expected_wins"] for r in result["teams"]) == pytest.approx(6.0)
    # Each team's expected wins is the sum of its exact P(win) over its games.
    games = list(season.games.all())
    for row in result["teams"]:
        exact = 0.0
        for g in games:
            table = odds.PairTable.for_teams(
                [g.home_id, g.away_id], rules="advanced", neutral=g.neutral
            )
            p = table.p(g.home_id, g.away_id)
            exact += (
                p if g.home_id == row["team_id"] else (1 - p) if g.away_id == row["team_id"] else 0
            )
        assert row["expected_wins"] == pytest.approx(exact, abs=0.05)
    again = odds.season_odds(season, seasons=20_000)
    assert [r["p_first"] for r in again["teams"]] == [r["p_first"] for r in result["teams"]]


def test_with_no_workers_a_far_from_built_coached_field_shows_the_odds_without_the_policy(
    teams, settings, monkeypatch
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no workers: a first `make run`
    season = cup(teams[:4], strategy=True)
    monkeypatch.setattr(odds, "ON_DEMAND_COACHED_PAIRS", 0)
    monkeypatch.setattr(odds, "EAGER_COACHED_PAIRS", 2)  # the field counts as large
    shown = odds.with_table(season, lambda: odds.bracket_odds(season))
    assert shown["coach_policy"] is False and shown["note"] == odds.NO_WORKER_NOTE
    plain = cup(teams[:4], name="Plain", strategy=False)
    same = odds.with_table(plain, lambda: odds.bracket_odds(plain))
    by_seed = {row["seed"]: row["champion"] for row in same["teams"]}
    assert {row["seed"]: row["champion"] for row in shown["teams"]} == pytest.approx(by_seed)
    assert not PairOdds.objects.filter(strategy=True).exists()
    # A field small enough is solved with the policy in the request.
    monkeypatch.setattr(odds, "EAGER_COACHED_PAIRS", 400)
    exact = odds.with_table(season, lambda: odds.bracket_odds(season))
    assert exact["coach_policy"] is True and "coach policy" in exact["note"]
    assert PairOdds.objects.filter(strategy=True).exists()


def test_a_table_being_built_says_how_long_it_has_left_at_its_pace_or_that_it_waits() -> None:
    """A page waiting on a field's odds said "look again in a minute" for 13 minutes: it
    now times the table from its first sighting."""
    from django.core.cache import cache

    cache.delete_many([f"league.odds.pace.{n}.600" for n in (1, 2, 3)])
    assert odds.build_pace(1, 100, 600, now=1000.0) == ""  # the first sighting
    # 50 pairs in 30 s: the 450 left take 270 s
    assert odds.build_pace(1, 150, 600, now=1030.0) == "About 4 minutes left at the pace so far."
    assert odds.build_pace(1, 590, 600, now=1100.0) == "2 seconds left at the pace so far."
    # No progress for two minutes: queued behind other work.
    assert odds.build_pace(2, 89, 600, now=0.0) == ""
    assert odds.build_pace(2, 89, 600, now=120.0).startswith(
        "No pair was finished for about 2 minutes: the background is working on something"
    )
    # Started again (a card edit dropped its pairs): timed afresh.
    assert odds.build_pace(1, 10, 600, now=1200.0) == ""
    assert odds.build_pace(1, 70, 600, now=1260.0) == "About 9 minutes left at the pace so far."


def test_a_season_deleted_before_its_odds_tasks_ran_drops_them_quietly() -> None:
    # A review saw each queued task of a deleted season end in DoesNotExist's traceback.
    season = make_season(teams=3)
    season_id = season.pk
    season.delete()
    nothing = {"computed": 0, "deleted": 0, "pairs": 0}
    assert odds.pair_table_build(season_id=season_id) == nothing
    assert odds_pair_table.apply(kwargs={"season_id": season_id}).get() == nothing
