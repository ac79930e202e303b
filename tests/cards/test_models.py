"""Every rule of the vabg-team/1 format, enforced by the models in the card's own terms."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cards.models import Card, Team
from tests.factories import CardFactory, PlayerFactory, TeamFactory, full_team

pytestmark = pytest.mark.django_db

# (field, bad value, expected message fragment)
CARD_FIELD_RULES = [
    ("slot", 0, "The slot must be 1 to 5"),
    ("slot", 6, "The slot must be 1 to 5"),
    ("extra_ball", 3, "The extra ball numbers must be 0 to 2"),
    ("can_play", 67, "The possessions he can play must be 0 to 66"),
    ("steal_top", 9, "The steal range top must be 10 to 30"),
    ("steal_top", 31, "The steal range top must be 10 to 30"),
    ("block_top", 19, "The block range top must be 20 to 40"),
    ("block_top", 41, "The block range top must be 20 to 40"),
    ("foul_from", 32, "The foul range start must be 33 to 37"),
    ("foul_from", 38, "The foul range start must be 33 to 37"),
    ("turnover_top", 39, "The turnover range top must be 40 to 46"),
    ("turnover_top", 47, "The turnover range top must be 40 to 46"),
    ("free_throw_top", 21, "The free throw range top must be 0 to 20"),
    ("off_reb", 21, "The offensive rebound top must be 0 to 20"),
    ("def_reb", 21, "The defensive rebound top must be 0 to 20"),
    ("dunk_top", 33, "His own dunk range top must be 34 to 66"),
    ("dunk_adjust", 33, "His own opponent dunk adjustment must be -32 to 32"),
]

D20_RULES = [
    ({"d20_miss2_lo": 18}, "The d20 ranges leave 16-17 uncovered."),
    ({"d20_made2_hi": 9}, "The d20 ranges cover 9 more than once (2PM and FOUL)."),
    ({"d20_made3_lo": None}, "The d20 3PM range needs both ends (or neither)."),
    ({"d20_miss2_hi": 21}, "The d20 2PX range 16-21 must lie within 1-20, low end first."),
    ({"d20_miss3_lo": 15, "d20_miss3_hi": 12}, "The d20 3PX range 15-12 must lie within 1-20"),
    ({"d20_made3_lo": None, "d20_made3_hi": None}, "The d20 ranges leave 1-2 uncovered."),
]


def card_errors(card: Card) -> list[str]:
    with pytest.raises(ValidationError) as excinfo:
        card.full_clean()
    return excinfo.value.messages


@pytest.mark.parametrize(("field", "value", "message"), CARD_FIELD_RULES)
def test_a_card_field_out_of_bounds_is_refused_with_its_bounds(
    field: str, value: int, message: str
) -> None:
    card = CardFactory.build(player=PlayerFactory())
    setattr(card, field, value)
    assert any(message in m for m in card_errors(card))


@pytest.mark.parametrize(("field", "value", "message"), CARD_FIELD_RULES)
def test_the_database_refuses_the_same_bounds(field: str, value: int, message: str) -> None:
    card = CardFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(pk=card.pk).update(**{field: value})


@pytest.mark.parametrize(("changes", "message"), D20_RULES)
def test_a_d20_column_that_does_not_cover_1_to_20_once_is_refused(
    changes: dict, message: str
) -> None:
    card = CardFactory.build(player=PlayerFactory())
    for field, value in changes.items():
        setattr(card, field, value)
    assert any(m.startswith(message) for m in card_errors(card)), card_errors(card)
    # said once: not again in the database constraint's words
    assert not any("must be a-b within 1-20" in m for m in card_errors(card)), card_errors(card)


def test_a_card_without_an_outcome_is_valid_when_the_rest_covers_1_to_20() -> None:
    card = CardFactory.build(player=PlayerFactory())
    card.set_d20_ranges({"3PM": None, "2PM": (1, 8), "FOUL": (9, 11), "3PX": None, "2PX": (12, 20)})
    card.full_clean()


@pytest.mark.parametrize("positions", [[], [6], [1, 1], ["1"], "1"])
def test_positions_must_be_distinct_numbers_0_to_5(positions: object) -> None:
    card = CardFactory.build(player=PlayerFactory(), positions=positions)
    assert any(
        "positions must be a non-empty list of distinct numbers 0-5" in m for m in card_errors(card)
    )


def test_a_second_starter_in_a_slot_is_refused_by_clean_and_by_the_database() -> None:
    team = full_team()
    reserve = Card.objects.get(team=team, role="reserve")
    reserve.role = "starter"
    assert "This team already has a starter in this slot." in card_errors(reserve)
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(pk=reserve.pk).update(role="starter")


def test_any_number_of_reserves_may_share_a_slot() -> None:
    team = full_team()
    CardFactory(player__team=team, slot=1, role="reserve").full_clean()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("season", 1799, "The season must be 1800 to 2200"),
        ("dunk_top", 67, "The dunk range top must be 34 to 66"),
        ("dunk_adjust", -33, "The opponent dunk adjustment must be -32 to 32"),
        ("card_source", "guessed", "The card source must be published, calculated or estimated."),
    ],
)
def test_team_fields_out_of_bounds_are_refused(field: str, value: object, message: str) -> None:
    team = TeamFactory.build(**{field: value})
    with pytest.raises(ValidationError) as excinfo:
        team.full_clean()
    assert any(message in m for m in excinfo.value.messages)


def test_a_school_and_season_exist_once() -> None:
    TeamFactory(school="UCLA", season=1972)
    with pytest.raises(ValidationError) as excinfo:
        TeamFactory.build(school="UCLA", season=1972).full_clean()
    assert "A team for this school and season already exists." in excinfo.value.messages


def test_roster_problems_name_the_slot_without_a_starter_and_the_roster_size() -> None:
    team = TeamFactory()
    for slot in (1, 2, 3, 5):
        CardFactory(player__team=team, slot=slot)
    assert team.roster_problems() == [
        "a roster holds 5 to 10 players, this one has 4",
        "slot 4 (PF) has no starter",
    ]


def test_ball_numbers_are_stored_as_printed() -> None:
    assert CardFactory(slot=5, extra_ball=1).ball_numbers == "5&7"
    assert CardFactory(slot=2, extra_ball=2).ball_numbers == "2 6&8"
    assert CardFactory(slot=3, extra_ball=0).ball_numbers == "3"


def test_str_identifies_each_row() -> None:
    card = CardFactory(
        player__name="Bill Walton", player__team__school="UCLA", player__team__season=1973
    )
    assert str(card.player.team) == "UCLA 1973"
    assert str(card) == "Bill Walton card (UCLA 1973)"
    assert Team.objects.get().decade == 1970
