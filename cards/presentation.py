"""How a card reads when printed: the ranges as the VABG card shows them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.models import D20_FIELDS, Card
from simulator.vabg.cards import SLOT_NAMES

NONE = "—"


def _span(lo: int, hi: int) -> str:
    if hi < lo:
        return NONE
    return str(lo) if lo == hi else f"{lo}-{hi}"


@dataclass(frozen=True)
class CardFace:
    name: str
    team: str
    height: str
    ppg: str
    slot: str
    role: str
    positions: str
    ball_numbers: str
    can_play: int
    steal: str
    block: str
    foul: str
    turnover: str
    d20: list[tuple[str, str, str]]
    free_throw: str
    off_reb: str
    def_reb: str
    dunk: str


def card_face(card: Card, *, team_label: str | None = None) -> CardFace:
    """Return the printed face of a card (the preview in the admin and on fan pages)."""
    player = card.player
    team = player.team
    ranges = card.d20_ranges()
    dunk = []
    if card.dunk_top is not None:
        dunk.append(f"own dunk range 51-{card.dunk_top}")
    if card.dunk_adjust is not None:
        dunk.append(f"opponent dunk adjustment {card.dunk_adjust:+d}")
    return CardFace(
        name=player.name,
        team=team_label or str(team),
        height=player.height,
        ppg="" if player.ppg is None else f"{player.ppg}",
        slot=f"{card.slot} {SLOT_NAMES.get(card.slot, '?')}",
        role=card.get_role_display(),
        positions=", ".join(str(p) for p in card.positions or []),
        ball_numbers=card.printed_ball_numbers(),
        can_play=card.can_play,
        steal=_span(11, card.steal_top),
        block=_span(21, card.block_top),
        foul=_span(card.foul_from, 36),
        turnover=_span(41, card.turnover_top),
        d20=[
            (key, label, NONE if (span := ranges[key]) is None else _span(*span))
            for key, _, label in D20_FIELDS
        ],
        free_throw=_span(1, card.free_throw_top),
        off_reb=_span(1, card.off_reb),
        def_reb=_span(1, card.def_reb),
        dunk="; ".join(dunk),
    )


def card_face_context(card: Card) -> dict[str, Any]:
    """Return the template context of ``cards/card_face.html``."""
    return {"face": card_face(card)}
