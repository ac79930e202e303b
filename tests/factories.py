"""Factories for the models: a valid team is five starters and a reserve, cards all valid."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory
from simple_history.utils import bulk_create_with_history

from cards.models import Card, Player, Team
from core.roles import commissioner_create
from league.models import Season


class TeamFactory(DjangoModelFactory[Team]):
    class Meta:
        model = Team

    school = factory.Sequence(lambda n: f"State {n}")
    season = 2000
    conference = "Test 10"
    dunk_top = 58
    dunk_adjust = -2
    card_source = "estimated"


class PlayerFactory(DjangoModelFactory[Player]):
    class Meta:
        model = Player

    team = factory.SubFactory(TeamFactory)
    name = factory.Sequence(lambda n: f"Player {n}")
    height = "6-5"


class CardFactory(DjangoModelFactory[Card]):
    class Meta:
        model = Card

    player = factory.SubFactory(PlayerFactory)
    team = factory.LazyAttribute(lambda card: card.player.team)
    slot = 1
    role = "starter"
    positions = factory.LazyAttribute(lambda card: [card.slot])
    extra_ball = 0
    can_play = 37
    steal_top = 14
    block_top = 21
    foul_from = 35
    turnover_top = 42
    d20_made3_lo, d20_made3_hi = 1, 2
    d20_made2_lo, d20_made2_hi = 3, 8
    d20_fouled_lo, d20_fouled_hi = 9, 11
    d20_miss3_lo, d20_miss3_hi = 12, 15
    d20_miss2_lo, d20_miss2_hi = 16, 20
    free_throw_top = 14
    off_reb = 3
    def_reb = 4


def full_team(**kwargs: object) -> Team:
    """Create a playable team: five starters (slots 1-5) and a reserve guard.

    Its players and cards go in with one statement each, and their history rows too
    (simple_history's own bulk path): the rows are those of a card-by-card save, at a
    quarter of the cost, and most database tests make several teams."""
    team = TeamFactory(**kwargs)
    players = [PlayerFactory.build(team=team, order=order) for order in range(1, 7)]
    players = bulk_create_with_history(players, Player)
    cards = [CardFactory.build(player=p, slot=p.order) for p in players[:5]]
    cards.append(CardFactory.build(player=players[5], slot=1, role="reserve", can_play=7))
    for card in cards:  # what Card.save sets
        card.team_id = team.pk
        card.ball_numbers = card.printed_ball_numbers()
    bulk_create_with_history(cards, Card)
    return team


def fan(username: str = "fan"):  # type: ignore[no-untyped-def]
    """Create a signed-up fan: no staff access, no group."""
    return get_user_model().objects.create_user(username=username, password="fan-password-1")


def commissioner(username: str = "commish"):  # type: ignore[no-untyped-def]
    """Create a commissioner account."""
    user, _ = commissioner_create(username=username, password="commish-password-1")
    return user


def make_season(
    *,
    teams: int | Sequence[Team] = 4,
    game: str | None = None,
    league: str | None = None,
    name: str = "2026",
    seed: int = 7,
    start_date: date | None = date(2026, 1, 1),
    **kwargs: Any,
) -> Season:
    """Create a season of ``teams``: that many new teams (playable VABG teams when the game
    has players, plain ones otherwise) or the teams given; every pair once unless
    ``kwargs`` (``season_create``'s) say otherwise. The league is ``league`` or the game's
    test league; a module keeps its own seed and dates with ``functools.partial``."""
    from league import services
    from simulator.games import DEFAULT_GAME, find_game

    if isinstance(teams, int):
        make = full_team if find_game(game or DEFAULT_GAME).has_players else TeamFactory
        teams = [make() for _ in range(teams)]
    return services.season_create(
        league=services.league_get_or_create(name=league or f"{game or DEFAULT_GAME} league"),
        name=name,
        teams=list(teams),
        start_date=start_date,
        seed=seed,
        game=game,
        **kwargs,
    )


def uncoached_cup(*, league: str, name: str, teams: int, seed: int) -> Any:
    """Create a knockout tournament of ``teams`` new playable teams, coach choices off (its
    odds are the fast sums of independent trips), with its exact pair odds built, as a
    bracket challenge needs them before its pools open."""
    from league import odds, services, tournaments

    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name=league),
        name=name,
        teams=[full_team() for _ in range(teams)],
        strategy=False,
        seed=seed,
    )
    odds.pair_table_build(season_id=cup.pk)  # the pairs that can meet, solved and stored
    return cup
