"""A season's team stats and leaders for the games other than VABG.

VABG's season figures are SQL over its ``BoxLine`` rows (``league.selectors``). Grid court
and six dice keep each game's box score whole in ``GameResult.box``, in the columns their
engine names (``simulator.games``: ``columns`` for a piece's line, with the team's sums in
``totals``; ``team_columns`` for the team's own figures). So their season figures are sums
over those stored documents, column by column, in the game's own columns and order:

- :func:`team_stats`: one row per team (games, won-lost, points for and against, and every
  line total and team figure), per game and in total;
- :func:`leaders`: the best lines (grid court's pieces) or, for a game without lines (six
  dice), the best teams, in one of :func:`leader_categories`.

Only numbers are summed; a figure that is itself a rate (grid court's points per
possession) is shown as its mean over the games.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from league import selectors
from league.games import league_game
from league.models import Game, Season
from simulator.games import Column, find_game

SIDES = ("home", "away")

POINTS_KEYS = frozenset({"pts", "score"})
"""The columns of a game's box score that hold a team's points (grid court's PTS, whose
team total is the team's score; six dice's ``score``). A season's team stats take them from
the games' scores, as the standings do: a score typed in has no box score, and summed from
the boxes its points were missing from PTS (and a grid-court team whose only game was typed
in had no points a game to sort by, a 500 on the season page)."""


@dataclass(frozen=True)
class StatsTable:
    """A season's team stats in its game's columns: per-game and total values by key."""

    columns: tuple[Column, ...]
    rows: list[dict[str, Any]]
    """``team_id``, ``team__school``, ``team__season``, ``g``, ``w``, ``l``, ``pts``,
    ``opp_pts`` and, for every column, ``KEY`` (the total) and ``KEY_pg`` (a game), sorted by
    points a game (the keys VABG's season rows use, so the same page columns read both)."""
    rates: frozenset[str] = frozenset()
    """The columns whose stored values are rates, not counts (grid court's ``ppp``)."""


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@dataclass(frozen=True)
class _Side:
    """A team as the season's figures name it."""

    pk: int
    school: str
    season: int

    def __str__(self) -> str:
        return f"{self.school} {self.season}"


@dataclass(frozen=True)
class _Final:
    """A final game's teams, scores and stored box score: plain values read in one query
    (a model instance for the game, both teams and the result cost more than the sums)."""

    home: _Side
    away: _Side
    home_score: int
    away_score: int
    box: dict[str, Any]


def _final_games(season: Season) -> Iterator[_Final]:
    rows = (
        Game.objects.filter(season=season, status=Game.Status.FINAL, result__isnull=False)
        .order_by("pk")
        .values_list(
            "home_id",
            "home__school",
            "home__season",
            "away_id",
            "away__school",
            "away__season",
            "result__home_score",
            "result__away_score",
            "result__box",
        )
    )
    teams: dict[int, _Side] = {}
    for home_id, home_school, home_season, away_id, away_school, away_season, *rest in rows:
        home = teams.get(home_id) or teams.setdefault(
            home_id, _Side(home_id, home_school, home_season)
        )
        away = teams.get(away_id) or teams.setdefault(
            away_id, _Side(away_id, away_school, away_season)
        )
        home_score, away_score, box = rest
        yield _Final(home, away, home_score, away_score, box or {})


def stat_columns(game_name: str) -> tuple[Column, ...]:
    """Return the columns a season's team stats show: the lines' totals, then the team's."""
    engine = find_game(game_name)
    seen = {c.key for c in engine.columns}
    return (*engine.columns, *(c for c in engine.team_columns if c.key not in seen))


def in_play(season: Season, columns: tuple[Column, ...]) -> tuple[Column, ...]:
    """Return the columns a season's rules can fill: without six dice's ``chip_reroll`` no
    team ever rerolls, so its REROLL column and board (all zeros) are not shown."""
    off = league_game(season.game).columns_not_in_play(season.options or {})
    return tuple(c for c in columns if c.key not in off)


def team_stats(season: Season, *, version: str = "") -> StatsTable:
    """Return every team's figures over the season's final games, in its game's columns
    (kept in the cache until a game is stored or a name changes: ``selectors.season_cached``,
    since each game's stored box score is read)."""
    return selectors.season_cached(
        season.pk, f"game-team-stats-2:{season.game}", lambda: _team_stats(season), version=version
    )


def _team_stats(season: Season) -> StatsTable:
    engine = find_game(season.game)
    columns = in_play(season, stat_columns(season.game))
    rows: dict[int, dict[str, Any]] = {}
    rates: set[str] = set()
    for game in _final_games(season):
        scores = {"home": game.home_score, "away": game.away_score}
        for side, other in (("home", "away"), ("away", "home")):
            team = game.home if side == "home" else game.away
            row = rows.setdefault(
                team.pk,
                {
                    "team_id": team.pk,
                    "team__school": team.school,
                    "team__season": team.season,
                    "g": 0,
                    "w": 0,
                    "l": 0,
                    "pts": 0,
                    "opp_pts": 0,
                    "totals": {},
                    "games_with": {},
                },
            )
            row["g"] += 1
            won = scores[side] > scores[other]
            row["w" if won else "l"] += 1
            row["pts"] += scores[side]
            row["opp_pts"] += scores[other]
            totals, games_with = row["totals"], row["games_with"]
            for key, value in engine.side_figures(game.box.get(side) or {}).items():
                if type(value) is float:
                    rates.add(key)
                totals[key] = totals.get(key, 0.0) + value
                games_with[key] = games_with.get(key, 0) + 1
    out = []
    for row in rows.values():
        totals, games_with = row.pop("totals"), row.pop("games_with")
        row["pts_pg"] = row["pts"] / row["g"]
        row["opp_pts_pg"] = row["opp_pts"] / row["g"]
        for column in columns:
            if column.key in POINTS_KEYS:  # every game's points, from the scores
                row[column.key], row[f"{column.key}_pg"] = row["pts"], row["pts_pg"]
                continue
            total = totals.get(column.key)
            # A rate's season total would be a sum of rates (grid court's ppp): none.
            row[column.key] = None if column.key in rates else _whole(total)
            row[f"{column.key}_pg"] = None if total is None else total / games_with[column.key]
        out.append(row)
    out.sort(key=lambda r: (-r["pts_pg"], r["team__school"], r["team__season"]))
    return StatsTable(columns, out, frozenset(rates))


def _whole(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 3)


def leader_categories(game_name: str) -> tuple[Column, ...]:
    """Return what a season's leaders are ranked by: the lines' columns (grid court's
    pieces) or, for a game whose box score has no lines (six dice), the team's figures."""
    engine = find_game(game_name)
    return engine.columns or engine.team_columns


def leaders(
    season: Season, category: str, *, per_game: bool = True, limit: int = 10
) -> list[dict[str, Any]]:
    """Return the season's best lines (or teams) in ``category``, best first.

    Lines (or teams) with none of it are left out. Each row: ``rank``, ``name`` (a piece,
    or the team), ``team_id``, ``team__school``, ``team__season``, ``g``, ``CATEGORY`` (the
    total), ``CATEGORY_pg`` (a game) and ``value`` (the one ranked by): the keys of VABG's
    leader rows, so the same boards show both. An unknown category is a ``ValueError``
    naming the game's categories.
    """
    engine = find_game(season.game)
    keys = [c.key for c in leader_categories(season.game)]
    if category not in keys:
        raise ValueError(
            f"unknown leader category {category!r} for {engine.title}: use one of "
            + ", ".join(keys)
        )
    return selectors.season_cached(
        season.pk,
        f"game-leaders-2:{season.game}:{category}:{per_game}:{limit}",
        lambda: _boards(season, [category], per_game=per_game, limit=limit)[category],
    )


def minimum_games(season: Season, *, version: str = "") -> int:
    """Return the games a player (or piece, or team) needs to rank on a per-game board: half
    of the most games any team of the season has played, rounded up (at least 1), as sports
    sites ask a share of the team's games; so a tournament team out after one big game does
    not lead. Totals boards rank everyone. (Kept in the cache: ``selectors.season_cached``.)"""
    return selectors.season_cached(
        season.pk, "minimum-games", lambda: _minimum_games(season), version=version
    )


def _minimum_games(season: Season) -> int:
    games = Game.objects.filter(season=season, status=Game.Status.FINAL)
    counts: dict[int, int] = {}
    for home, away in games.values_list("home_id", "away_id"):
        counts[home] = counts.get(home, 0) + 1
        counts[away] = counts.get(away, 0) + 1
    most = max(counts.values(), default=0)
    return max(1, -(-most // 2))


def _boards(
    season: Season, categories: list[str], *, per_game: bool, limit: int, min_games: int = 1
) -> dict[str, list[dict[str, Any]]]:
    """Rank the season's lines (or teams) in every one of ``categories``, reading each
    stored box score once.

    A line (or team) counts, in each category, the games that have the figure: a score
    typed in has no box score, so it counts in a six-dice team's points (from the score, as
    the team stats and standings count them) and in none of its other figures, never as a
    game of zeros; a grid-court piece has no line in it at all."""
    engine = find_game(season.game)
    totals: dict[tuple[int, str], dict[str, Any]] = {}
    for game in _final_games(season):
        for side in SIDES:
            team = game.home if side == "home" else game.away
            doc = game.box.get(side) or {}
            if engine.columns:
                entries = [
                    (f"{engine.name_key.capitalize()} {line.get(engine.name_key, '')}", line)
                    for line in doc.get(engine.lines_key, [])
                ]
            else:
                score = game.home_score if side == "home" else game.away_score
                points = {key: score for key in POINTS_KEYS if key in categories}
                entries = [(str(team), {**doc, **points})]
            for name, values in entries:
                row = totals.setdefault(
                    (team.pk, name),
                    {
                        "name": name,
                        "player_id": None,
                        "team_id": team.pk,
                        "team__school": team.school,
                        "team__season": team.season,
                        "is_team": not engine.columns,  # six dice ranks teams, not pieces
                        "sums": {c: 0.0 for c in categories},
                        "games": {c: 0 for c in categories},
                    },
                )
                for category in categories:
                    value = _number(values.get(category))
                    if value is not None:  # none: a game without the figure
                        row["sums"][category] += value
                        row["games"][category] += 1
    boards = {}
    for category in categories:
        # A piece (or team) with none of it leads nothing: a board of paint violations in a
        # season without one is empty, not a list of zeros.
        rows = []
        for entry in totals.values():
            total, games = entry["sums"][category], entry["games"][category]
            if not total or games < min_games:
                continue
            row = {k: v for k, v in entry.items() if k not in ("sums", "games")}
            row["g"] = games
            row[category] = _whole(total)
            row[f"{category}_pg"] = total / games
            row["value"] = row[f"{category}_pg"] if per_game else row[category]
            rows.append(row)
        rows.sort(key=lambda r: (-r["value"], r["team__school"], r["team__season"], r["name"]))
        boards[category] = selectors.with_ranks(rows[:limit], "value")
    return boards


def board_label(column: Column) -> str:
    """Return a leader board's heading: the column's long name, capitalised."""
    return (column.title or column.label)[:1].upper() + (column.title or column.label)[1:]


def leader_boards(
    season: Season,
    *,
    per_game: bool = True,
    limit: int = 10,
    vabg_categories: Any = None,
    version: str = "",
) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Return a season's leader boards, ``(heading, category, rows)``, whatever its game:
    VABG's players in ``vabg_categories`` (default: every one of
    ``selectors.LEADER_CATEGORIES``), another game's in :func:`leader_categories` (with
    ``vabg_categories``, a page's short list, only the game's ``headline_boards``). Kept in
    the cache until a game is stored or a name changes (``selectors.season_cached``)."""
    version = version or selectors.season_version(season.pk)
    what = f"boards-3:{season.game}:{per_game}:{limit}:{','.join(vabg_categories or ())}"
    return selectors.season_cached(
        season.pk,
        what,
        lambda: _leader_boards(season, per_game, limit, vabg_categories, version),
        version=version,
    )


def _leader_boards(
    season: Season, per_game: bool, limit: int, vabg_categories: Any, version: str
) -> list[tuple[str, str, list[dict[str, Any]]]]:
    least = minimum_games(season, version=version) if per_game else 1
    if find_game(season.game).has_players:
        keys = vabg_categories or list(selectors.LEADER_CATEGORIES)
        return [
            (
                selectors.LEADER_CATEGORIES[key],
                key,
                selectors.leaders(
                    season_id=season.pk,
                    category=key,
                    per_game=per_game,
                    limit=limit,
                    min_games=least,
                ),
            )
            for key in keys
        ]
    columns = in_play(season, leader_categories(season.game))
    headline = league_game(season.game).headline_boards
    if vabg_categories and headline:  # a page's few boards (a tournament's), not all
        columns = tuple(c for c in columns if c.key in headline)
    boards = _boards(
        season, [c.key for c in columns], per_game=per_game, limit=limit, min_games=least
    )
    return [(board_label(c), c.key, boards[c.key]) for c in columns]
