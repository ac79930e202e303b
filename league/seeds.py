"""Dice seeds: a fresh one for a new game or season, and a season's seed for each game."""

from __future__ import annotations

import hashlib
import secrets


def new_seed() -> int:
    """Return a fresh dice seed that fits a signed 64-bit column."""
    return secrets.randbits(62)


def derived_seed(master: int, key: str) -> int:
    """Return the seed of the game ``key`` of a season whose master seed is ``master``.

    The same season seed always gives every game the same dice, whatever order the
    games are played in, so a tournament replays exactly.
    """
    digest = hashlib.blake2b(f"{master}/{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2
