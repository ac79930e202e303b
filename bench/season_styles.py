"""How a played grid-court or six-dice season's results split by the teams' coach styles.

    DATABASE_URL=... .venv/bin/python bench/season_styles.py SEASON [PARAMETER ...]

SEASON is a season's id or "league/season" slug. For each parameter (default: every
parameter of the game's style) it prints, for each value, the team-games played with it,
their share of wins and 3-point attempts a game, each with its standard error, as
Markdown rows. The styles are those stored with each result (what was played), so the
report reads only the stored games.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from league.models import Game, Season  # noqa: E402


def _season(ref: str) -> Season:
    if ref.isdigit():
        return Season.objects.get(pk=int(ref))
    league, _, name = ref.partition("/")
    return Season.objects.get(league__slug=league, slug=name)


def _threes(game: str, box: dict[str, object]) -> float:
    if game == "sixdice":
        return float(box["fg3a"])  # type: ignore[arg-type]
    return float(sum(p["tpa"] for p in box["pieces"]))  # type: ignore[attr-defined,index]


def main() -> None:
    season = _season(sys.argv[1])
    wanted = sys.argv[2:]
    rows: dict[str, dict[object, list[tuple[int, float]]]] = defaultdict(lambda: defaultdict(list))
    games = Game.objects.filter(season=season, status=Game.Status.FINAL).select_related("result")
    played = 0
    for game in games:
        result = game.result
        played += 1
        for side, doc, won in (
            ("home", result.home_team_file, result.home_score > result.away_score),
            ("away", result.away_team_file, result.away_score > result.home_score),
        ):
            style = (doc.get("styles") or {}).get(season.game)
            if not isinstance(style, dict):
                continue
            for name, value in style.items():
                if not wanted or name in wanted:
                    rows[name][value].append((int(won), _threes(season.game, result.box[side])))
    print(f"{season} ({season.game}): {played:,} games\n")
    print("| parameter | value | team-games | wins (se) | 3PA a game (se) |")
    print("|---|---|---|---|---|")
    for name in sorted(rows):
        for value in sorted(rows[name], key=lambda v: (isinstance(v, str), v)):
            cells = rows[name][value]
            n = len(cells)
            p = sum(w for w, _ in cells) / n
            tpa = [t for _, t in cells]
            se_t = statistics.stdev(tpa) / math.sqrt(n) if n > 1 else 0.0
            print(
                f"| {name} | {value} | {n:,} | {p:.1%} ({math.sqrt(p * (1 - p) / n):.1%}) | "
                f"{statistics.fmean(tpa):.2f} ({se_t:.2f}) |"
            )


if __name__ == "__main__":
    main()
