"""Tournaments in the database: drawn round by round, one champion, replayable."""

from __future__ import annotations

import pytest

from league import services, tournaments
from league.models import Game
from tests.factories import full_team

pytestmark = pytest.mark.django_db


def league():  # type: ignore[no-untyped-def]
    return services.league_get_or_create(name="Cup League")


def play_all(season, capture) -> None:  # type: ignore[no-untyped-def]
    with capture(execute=True):
        services.simulation_start(season=season, scope="all")


def test_an_eight_team_tournament_plays_to_one_champion(django_capture_on_commit_callbacks) -> None:
    teams = [full_team() for _ in range(8)]
    cup = tournaments.tournament_create(league=league(), name="Cup", teams=teams, seed=8)
    first = list(cup.games.order_by("bracket_key"))
    assert len(first) == 4 and {g.round for g in first} == {1}
    assert {frozenset((g.home_id, g.away_id)) for g in first} == {
        frozenset((teams[a].pk, teams[b].pk)) for a, b in ((0, 7), (3, 4), (1, 6), (2, 5))
    }
    assert all(g.neutral for g in first)
    play_all(cup, django_capture_on_commit_callbacks)
    assert cup.games.count() == 7 and not cup.games.exclude(status="final").exists()
    assert sorted(cup.games.values_list("round", flat=True)) == [1, 1, 1, 1, 2, 2, 3]
    final = cup.games.get(round=3)
    champion = tournaments.champion(cup)
    assert champion is not None
    assert champion.pk == (
        final.home_id if final.result.home_score > final.result.away_score else final.away_id
    )
    view = tournaments.bracket_view(cup)
    assert [r["name"] for r in view["rounds"]] == ["Round 1", "Final Four", "Championship"]
    assert view["champion"]["team_id"] == champion.pk


def test_the_next_round_waits_for_the_last_game_of_this_one() -> None:
    cup = tournaments.tournament_create(
        league=league(), name="Barrier", teams=[full_team() for _ in range(8)], seed=1
    )
    first = list(cup.games.all())
    for game in first[:3]:
        services.game_play(game_id=game.pk)
    assert cup.games.count() == 4
    services.game_play(game_id=first[3].pk)
    assert cup.games.filter(round=2).count() == 2


def test_byes_go_to_the_top_seeds() -> None:
    teams = [full_team() for _ in range(5)]
    cup = tournaments.tournament_create(league=league(), name="Five", teams=teams, seed=2)
    (opener,) = cup.games.all()
    assert {opener.home_id, opener.away_id} == {teams[3].pk, teams[4].pk}
    services.game_play(game_id=opener.pk)
    second = cup.games.filter(round=2)
    assert second.count() == 2
    assert {g.home_id for g in second} == {teams[0].pk, teams[1].pk}


def test_reseeding_pairs_the_best_survivor_with_the_worst() -> None:
    teams = [full_team() for _ in range(8)]
    cup = tournaments.tournament_create(
        league=league(), name="Reseeded", teams=teams, reseed=True, seed=5
    )
    for game in list(cup.games.all()):
        services.game_play(game_id=game.pk)
    seed_of = {t.pk: n for n, t in enumerate(teams, start=1)}
    alive = sorted(seed_of[w] for w in tournaments.winners_of(cup).values())
    pairs = {
        tuple(sorted((seed_of[g.home_id], seed_of[g.away_id]))) for g in cup.games.filter(round=2)
    }
    assert pairs == {(alive[0], alive[3]), (alive[1], alive[2])}


def test_the_same_seed_gives_the_same_tournament(django_capture_on_commit_callbacks) -> None:
    teams = [full_team() for _ in range(6)]
    outcomes = []
    for name in ("First", "Second"):
        cup = tournaments.tournament_create(league=league(), name=name, teams=teams, seed=42)
        play_all(cup, django_capture_on_commit_callbacks)
        outcomes.append(
            sorted(
                (g.bracket_key, g.home_id, g.away_id, g.result.home_score, g.result.away_score)
                for g in cup.games.select_related("result")
            )
        )
    assert outcomes[0] == outcomes[1]


def test_a_tournament_refuses_a_bad_field() -> None:
    team = full_team()
    with pytest.raises(services.SeasonRefused, match="at least 2 teams"):
        tournaments.tournament_create(league=league(), name="Lonely", teams=[team])
    assert not Game.objects.exists()


@pytest.mark.slow
def test_the_alltime_96_bracket_plays_95_games_with_the_regions_paired_as_set(
    django_capture_on_commit_callbacks,
) -> None:
    regions = {
        name: [full_team() for _ in range(24)] for name in ("East", "West", "Midwest", "South")
    }
    cup = tournaments.tournament_create(
        league=league(), name="All-time 96", regions=regions, seed=96
    )
    first = cup.games.all()
    assert first.count() == 32
    seed_of = {e.team_id: (e.region, e.seed) for e in cup.entries.all()}
    assert {
        (seed_of[g.home_id][0], seed_of[g.home_id][1], seed_of[g.away_id][1]) for g in first
    } == {(r, s, 33 - s) for r in regions for s in range(9, 17)}
    play_all(cup, django_capture_on_commit_callbacks)
    assert cup.games.count() == 95 and not cup.games.exclude(status="final").exists()
    second = cup.games.filter(round=2)
    winners = tournaments.winners_of(cup)
    for game in second:
        region, top = seed_of[game.home_id]
        assert top <= 8
        feeder = [
            g
            for g in first
            if {seed_of[g.home_id][1], seed_of[g.away_id][1]} == {17 - top, 16 + top}
            and seed_of[g.home_id][0] == region
        ]
        assert len(feeder) == 1 and winners[feeder[0].bracket_key] == game.away_id
    semis = {
        frozenset((seed_of[g.home_id][0], seed_of[g.away_id][0])) for g in cup.games.filter(round=6)
    }
    assert semis == {frozenset(("West", "East")), frozenset(("Midwest", "South"))}
    assert tournaments.champion(cup) is not None
    # Each game's label names its round as the pages do (the API read "round 7" for the final).
    labels = {g.round: g.label.split(":")[0] for g in cup.games.all()}
    assert labels[1].endswith(" Round 1") and labels[4].endswith(" Sweet 16")
    assert labels[5].endswith(" Elite 8") and labels[6] == "Final Four"
    assert labels[7] == "Championship"
