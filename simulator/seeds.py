"""The one range of a dice seed, shared by the simulator's command line and the league's.

A seed is a whole number from 0 to ``SEED_MAX``: a database seed column's range, which
every form and the API keep too. ``random.Random`` would take any integer, but it reads a
negative seed as its absolute value (``--seed -5`` would replay ``--seed 5``), so the
commands refuse what a stored game could not keep.
"""

from __future__ import annotations

import argparse
import re

SEED_MAX = 2**63 - 1
"""A seed column's largest value (and the API's)."""


def seed_argument(text: str) -> int:
    """Read a ``--seed``: a whole number from 0 to ``SEED_MAX`` (argparse names the option
    and the value when this raises)."""
    # Digits only (Python's int() also reads "1_000", " 5" and other scripts' digits).
    if not re.fullmatch(r"-?[0-9]+", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    seed = int(text)
    if not 0 <= seed <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"{seed} is not a seed: give 0 to {SEED_MAX}")
    return seed
