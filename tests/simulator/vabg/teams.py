"""Team files for the engine's tests: the rulebook's sample game and plain teams.

Kentucky 2012 and Kansas 2008 carry every card value the rulebook's worked
examples print (ball numbers, Davis's ranges, Chalmers' and Rush's steals,
Lamb's block, Arthur's rebounds, the dunk ranges 51-60 with adjustments -3 and
-2). Values the book does not print are plain, average ones.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

from simulator.vabg import TeamCard, read_team_file, team_from_json

AVERAGE_D20 = {"3PM": "1-2", "2PM": "3-8", "FOUL": "9-11", "3PX": "12-15", "2PX": "16-20"}


def player(name: str, slot: int, role: str = "starter", **fields: Any) -> dict[str, Any]:
    """Return a player object of a team file with average values, overridden by ``fields``."""
    card: dict[str, Any] = {
        "name": name,
        "slot": slot,
        "role": role,
        "positions": [slot],
        "extra_ball": 0,
        "can_play": 37 if role == "starter" else 7,
        "steal_top": 13,
        "block_top": 21,
        "foul_from": 35,
        "turnover_top": 42,
        "d20": dict(AVERAGE_D20),
        "free_throw_top": 14,
        "off_reb": 3,
        "def_reb": 4,
    }
    card.update(fields)
    return card


def team_json(
    school: str,
    season: int,
    players: list[dict[str, Any]],
    dunk_top: int = 56,
    dunk_adjust: int = 0,
) -> dict[str, Any]:
    """Return a ``vabg-team/1`` document."""
    return {
        "format": "vabg-team/1",
        "school": school,
        "season": season,
        "conference": "Test",
        "dunk_top": dunk_top,
        "dunk_adjust": dunk_adjust,
        "card_source": "estimated",
        "players": players,
    }


def kentucky_2012_json() -> dict[str, Any]:
    """Return the rulebook's Kentucky 2012 (the home side of the sample game)."""
    return team_json(
        "Kentucky",
        2012,
        [
            player("Marquis Teague", 1, positions=[1], extra_ball=1, steal_top=14, ppg=10.0),
            player("Doron Lamb", 2, positions=[2], block_top=21, ppg=13.7),
            player("Michael Kidd-Gilchrist", 3, positions=[3, 4], extra_ball=1, ppg=11.9),
            player("Terrence Jones", 4, positions=[4, 5], extra_ball=1, ppg=12.3),
            player(
                "Anthony Davis",
                5,
                positions=[5],
                extra_ball=1,
                block_top=31,
                turnover_top=40,
                foul_from=36,
                off_reb=6,
                def_reb=6,
                d20={"3PM": None, "2PM": "1-9", "FOUL": "10-14", "3PX": None, "2PX": "15-20"},
                free_throw_top=14,
                ppg=14.2,
            ),
            player("Darius Miller", 3, "reserve", positions=[2, 3], can_play=20, ppg=9.9),
            player("Kyle Wiltjer", 4, "reserve", positions=[4], can_play=7, ppg=5.0),
            player("Eloy Vargas", 5, "reserve", positions=[5], can_play=7, ppg=1.3),
        ],
        dunk_top=60,
        dunk_adjust=-3,
    )


def kansas_2008_json() -> dict[str, Any]:
    """Return the rulebook's Kansas 2008 (the visitor of the sample game)."""
    return team_json(
        "Kansas",
        2008,
        [
            player("Russell Robinson", 1, positions=[1], steal_top=14, ppg=7.3),
            player("Mario Chalmers", 2, positions=[1, 2], extra_ball=1, steal_top=20, ppg=12.8),
            player("Brandon Rush", 3, positions=[1, 3], extra_ball=1, steal_top=15, ppg=13.3),
            player("Darnell Jackson", 4, positions=[4, 5], extra_ball=1, ppg=11.2),
            player(
                "Darrell Arthur", 5, positions=[5], extra_ball=1, off_reb=6, def_reb=4, ppg=12.8
            ),
            player("Sherron Collins", 1, "reserve", positions=[1], can_play=15, ppg=9.3),
            player("Jeremy Case", 2, "reserve", positions=[2], can_play=3, ppg=1.6),
            player("Rodrick Stewart", 3, "reserve", positions=[3], can_play=4, ppg=1.4),
            player("Sasha Kaun", 4, "reserve", positions=[4, 5], can_play=10, ppg=5.0),
            player("Cole Aldrich", 5, "reserve", positions=[5], can_play=8, ppg=2.8),
        ],
        dunk_top=60,
        dunk_adjust=-2,
    )


def kentucky_2012() -> TeamCard:
    """Return Kentucky 2012 as a card."""
    return team_from_json(kentucky_2012_json())


def kansas_2008() -> TeamCard:
    """Return Kansas 2008 as a card."""
    return team_from_json(kansas_2008_json())


def twin_team_json(school: str = "Twin", season: int = 2010) -> dict[str, Any]:
    """Return an average ten-man team; two copies make two identical teams."""
    players = [
        player(f"{school} Starter {s}", s, positions=[s], extra_ball=1 if s in (1, 3, 4) else 0)
        for s in range(1, 6)
    ]
    players += [player(f"{school} Reserve {s}", s, "reserve", positions=[s]) for s in range(1, 6)]
    return team_json(school, season, players, dunk_top=56, dunk_adjust=0)


def modified(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Return a deep copy of a team document with top-level keys changed."""
    out = copy.deepcopy(doc)
    out.update(changes)
    return out


RULEBOOK_DUNKS = {
    "kentucky-2012": (60, -3),
    "kansas-2008": (60, -2),
    "san-diego-state-2011": (56, 0),
}
"""The team dunk numbers the rulebook prints for its three sample teams (their files' notes):
the field aims the files' own numbers like every team's (docs/field.md, one strength scale),
so a test that reads the rulebook's game, or a game recorded before that, sets them back."""


def rulebook_file_team(name: str) -> TeamCard:
    """Return a rulebook team file of ``fixtures/teams`` with the rulebook's dunk numbers."""
    path = Path(__file__).resolve().parents[3] / "fixtures" / "teams" / f"{name}.json"
    top, adjust = RULEBOOK_DUNKS[name]
    return replace(read_team_file(path), dunk_top=top, dunk_adjust=adjust)
