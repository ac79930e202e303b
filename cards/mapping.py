"""The one mapping between the ``cards`` models and the engine's frozen card types.

Everything that turns rows into a :class:`~simulator.vabg.cards.TeamCard` (to play, to
export) or a ``TeamCard`` into rows (to import) goes through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet

from cards.models import D20_FIELDS, Card, Player, Team, extra_keys
from simulator.vabg.cards import CARD_BOUNDS, D20Column, PlayerCard, TeamCard

# Card fields whose names and meaning are the same in the model and in the team file.
CARD_INT_FIELDS = tuple(k for k in CARD_BOUNDS if k not in {"dunk_top", "dunk_adjust"})
# Team-file keys the models hold in their own columns, besides the card's fields.
TEAM_COLUMNS = {"school", "season", "conference", "dunk_top", "dunk_adjust", "card_source"}
TEAM_NOTES_KEY = "notes"


def teams_for_play() -> QuerySet[Team]:
    """Return teams with players and cards prefetched, in roster order."""
    return Team.objects.prefetch_related(
        Prefetch("players", queryset=Player.objects.select_related("card").order_by("order", "id"))
    )


def team_card(team: Team, roster: Sequence[tuple[Player, Card]] | None = None) -> TeamCard:
    """Build the engine's :class:`TeamCard` of a team (validated by the engine's own rules):
    its stored players and cards, or ``roster``, the players and cards it would have (a
    roster edit checked before it is saved)."""
    if roster is None:
        roster = [(p, p.card) for p in team.players.all() if hasattr(p, "card")]
    extra = extra_keys(team.extra)
    if team.notes:
        extra[TEAM_NOTES_KEY] = team.notes
    return TeamCard(
        school=team.school,
        season=team.season,
        conference=team.conference or None,
        dunk_top=team.dunk_top,
        dunk_adjust=team.dunk_adjust,
        card_source=team.card_source,
        players=tuple(player_card(p, card) for p, card in roster),
        extra=extra,
    )


def player_card(player: Player, card: Card) -> PlayerCard:
    """Build the engine's :class:`PlayerCard` of one player."""
    ranges = card.d20_ranges()
    return PlayerCard(
        name=player.name,
        role=card.role,
        positions=tuple(card.positions),
        height=player.height or None,
        ppg=None if player.ppg is None else float(player.ppg),
        d20=D20Column(*(ranges[key] for key, _, _ in D20_FIELDS)),
        dunk_top=card.dunk_top,
        dunk_adjust=card.dunk_adjust,
        extra=extra_keys(player.extra),
        **{name: getattr(card, name) for name in CARD_INT_FIELDS},
    )


TEAM_STYLES_KEY = "styles"


def team_document(team: Team) -> dict[str, Any]:
    """Return the team as a ``vabg-team/1`` document, as ``manage.py export_team`` writes it:
    the card, and the coach styles set for the board games (``styles``) when there are any
    (a file without them plays the styles derived from the season, ``cards.styles``)."""
    document = team_card(team).to_json()
    if team.styles:
        document[TEAM_STYLES_KEY] = dict(team.styles)
    return document


def team_values(card: TeamCard) -> dict[str, Any]:
    """Return the ``Team`` column values of an engine team."""
    extra = dict(card.extra)
    notes = extra.pop(TEAM_NOTES_KEY, "")
    styles = extra.pop(TEAM_STYLES_KEY, {})
    return {
        "school": card.school,
        "season": card.season,
        "conference": card.conference or "",
        "dunk_top": card.dunk_top,
        "dunk_adjust": card.dunk_adjust,
        "card_source": card.card_source or "estimated",
        "notes": notes if isinstance(notes, str) else str(notes),
        "extra": extra,
        "styles": styles,
    }


def player_values(card: PlayerCard, order: int) -> dict[str, Any]:
    """Return the ``Player`` column values of an engine player card."""
    return {
        "name": card.name,
        "order": order,
        "height": card.height or "",
        "ppg": None if card.ppg is None else Decimal(str(round(card.ppg, 1))),
        "extra": dict(card.extra),
    }


def card_values(card: PlayerCard) -> dict[str, Any]:
    """Return the ``Card`` column values of an engine player card (d20 split into ends)."""
    values: dict[str, Any] = {name: getattr(card, name) for name in CARD_INT_FIELDS}
    values.update(
        role=card.role,
        positions=list(card.positions),
        dunk_top=card.dunk_top,
        dunk_adjust=card.dunk_adjust,
    )
    for (_, prefix, _), rng in zip(D20_FIELDS, card.d20.ranges(), strict=True):
        values[f"d20_{prefix}_lo"] = None if rng is None else rng[0]
        values[f"d20_{prefix}_hi"] = None if rng is None else rng[1]
    return values
