"""A research run's figures: means per team, per player and per pairing, as CSV and Parquet.

Read from a run's :class:`~league.research.Tally` (integer sums) and its plan. Kept apart
from ``league.research`` so the workers that play chunks never load pyarrow.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from league.games import league_game
from league.research import Kind, Plan, Tally


def team_rows(plan: Plan, tally: Tally) -> list[dict[str, Any]]:
    """Return one row per team: record, means per game (of the game's own counts:
    ``research.research_columns``, but those of a rule option the run leaves off), and
    firsts or bracket reach."""
    rows = []
    reps = plan.repetitions
    columns = plan.columns
    game = league_game(plan.game)
    off, overtimes = game.columns_off(plan.rules), game.has_overtimes  # six dice's rerolls
    for i in range(len(plan.teams)):
        t = tally.teams.get(i)
        if t is None or t.games == 0:
            continue
        row: dict[str, Any] = {
            "team_id": plan.team_ids[i] if plan.team_ids else None,
            "team": plan.label(i),
        }
        if plan.kind == Kind.SEASON and plan.conferences:
            row["conference"] = plan.conferences[i]  # the group its first_share is within
        row |= {
            "games": t.games,
            "wins": t.wins,
            "losses": t.games - t.wins,
            "win_pct": t.wins / t.games,
            "points": t.box[0] / t.games,
            "points_against": t.points_against / t.games,
            "margin": (t.box[0] - t.points_against) / t.games,
        }
        if overtimes:
            row["overtime_share"] = t.overtimes / t.games
        row.update(
            {
                f"{name}_pg": v / t.games
                for name, v in zip(columns[1:], t.box[1:], strict=True)
                if name not in off
            }
        )
        if plan.kind == Kind.SEASON:
            row["first_share"] = t.firsts / reps  # first in its group, a tie counted for each
            row["first_share_se"] = _share_se(t.firsts, reps)
        if plan.bracket is not None:
            for r in range(plan.bracket.rounds):
                row[f"reached_round_{r + 1}"] = (t.reached[r] if r < len(t.reached) else 0) / reps
            row["title_share"] = t.titles / reps
            row["title_share_se"] = _share_se(t.titles, reps)
        rows.append(row)
    return sorted(rows, key=lambda r: (-r.get("title_share", 0), -r["win_pct"], r["team"]))


def _share_se(hits: int, repetitions: int) -> float:
    """Return the standard error of a share of independent repetitions (a binomial's)."""
    share = hits / repetitions
    return math.sqrt(share * (1 - share) / repetitions)


def player_rows(plan: Plan, tally: Tally) -> list[dict[str, Any]]:
    """Return one row per player (grid court: per piece, "piece N"): games and means per
    game of every count of his line."""
    rows = []
    for (i, name), p in sorted(
        tally.players.items(), key=lambda kv: (plan.label(kv[0][0]), kv[0][1])
    ):
        row: dict[str, Any] = {
            "team_id": plan.team_ids[i] if plan.team_ids else None,  # as in teams
            "team": plan.label(i),
            "player": name,
            "games": p.games,
        }
        row.update({f"{b}_pg": v / p.games for b, v in zip(plan.line_columns, p.box, strict=True)})
        rows.append(row)
    return rows


def pair_rows(plan: Plan, tally: Tally) -> list[dict[str, Any]]:
    """Return one row per pairing: home wins, scores, margin mean and spread, overtimes
    (a game that has them)."""
    rows = []
    overtimes = league_game(plan.game).has_overtimes
    for (h, a, neutral), q in sorted(tally.pairs.items()):
        n = q.games
        mean = sum(m * c for m, c in q.margins.items()) / n
        var = sum(c * (m - mean) ** 2 for m, c in q.margins.items()) / n
        close = sum(c for m, c in q.margins.items() if abs(m) <= 3)
        row = {
            "home_id": plan.team_ids[h] if plan.team_ids else None,  # as in teams
            "home": plan.label(h),
            "away_id": plan.team_ids[a] if plan.team_ids else None,
            "away": plan.label(a),
            "neutral": neutral,
            "games": n,
            "home_win_pct": q.home_wins / n,
            "home_win_se": math.sqrt(q.home_wins / n * (1 - q.home_wins / n) / n),
            "home_points": q.home_points / n,
            "away_points": q.away_points / n,
            "margin": mean,
            "margin_sd": math.sqrt(var),
            "within_3_share": close / n,
        }
        if overtimes:
            row["overtime_share"] = q.overtimes / n
        rows.append(row)
    return rows


OUTPUTS = ("teams", "players", "pairs")


class OutputsTaken(ValueError):
    """Raise when ``out`` holds another run's figures: they are never written over."""


class OutputsUnwritable(ValueError):
    """Raise when ``out`` is not a folder the figures can be written into."""


OWNER = "run.json"


def outputs_check(out: Path, *, run: dict[str, Any] | None = None, keep: bool = False) -> None:
    """Refuse ``out`` before a run plays, as :func:`write_outputs` would after it.

    ``run`` is the run's own ``run.json`` (None: a run not made yet, whose figures no
    folder holds). Raises :class:`OutputsTaken` for a folder holding another run's figures
    (or a ``run.json`` that cannot be read) and :class:`OutputsUnwritable` for one that is
    a file, lies under a file or cannot be written (the folder is made, and a file written
    in it and removed, to know; the folders made for that are removed again unless
    ``keep``: a refused or stopped command leaves no empty folder behind).
    """
    owner = out / OWNER
    if out.exists() and not out.is_dir():
        raise OutputsUnwritable(f"--out {out} is a file, not a folder")
    if owner.is_file():
        try:
            theirs = json.loads(owner.read_text(encoding="utf-8"))
            if not isinstance(theirs, dict):
                raise ValueError("not a JSON object")
        except (ValueError, UnicodeDecodeError) as exc:
            raise OutputsTaken(
                f"{owner} cannot be read ({exc}): it names no run, so the folder may hold "
                "another's figures; name another folder with --out, or move that one away"
            ) from exc
        if run is None or _identity(theirs) != _identity(run):
            raise OutputsTaken(
                f"{out} holds the figures of {theirs.get('label', 'another run')} "
                f"(made {theirs.get('created_at', 'at an unknown time')}), not of this run: "
                "name another folder with --out, or move that one away"
            )
    elif out.is_dir():
        found = sorted(p.name for p in out.iterdir() if p.stem in OUTPUTS)
        if found:
            raise OutputsTaken(
                f"{out} already holds {', '.join(found)} of an unknown run: name another "
                "folder with --out, or move that one away"
            )
    made = [folder for folder in (out, *out.parents) if not folder.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputsUnwritable(
            f"cannot write the figures into {out}: {exc.strerror or exc}"
        ) from exc
    finally:
        if not keep:
            for folder in made:  # deepest first
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _identity(record: dict[str, Any]) -> tuple[object, object]:
    """Return which run a ``run.json`` names: its id and when it was made (an id alone
    comes back in a database started afresh)."""
    return record.get("id"), record.get("created_at")


def write_outputs(
    plan: Plan, tally: Tally, out: Path, *, run: dict[str, Any] | None = None
) -> list[Path]:
    """Write teams, players and pairs as CSV and Parquet into ``out``; return the files.

    ``run`` (``research_runs.run_record``: which run, all it was made with) is written
    beside them as ``run.json``; a
    folder whose ``run.json`` names another run, or that holds such files with no
    ``run.json``, is refused with :class:`OutputsTaken` before anything is written (a
    database started afresh numbers its runs from 1 again, so ``research/run-1`` may hold
    an older run's figures); one that cannot be written, with :class:`OutputsUnwritable`.
    """
    outputs_check(out, run=run or {}, keep=True)
    owner = out / OWNER
    owner.write_text(json.dumps(run or {}, indent=2) + "\n", encoding="utf-8")
    written = [owner]
    for name, rows in zip(
        OUTPUTS,
        (team_rows(plan, tally), player_rows(plan, tally), pair_rows(plan, tally)),
        strict=True,
    ):
        if not rows:
            continue
        columns = list(rows[0])
        for r in rows[1:]:
            columns += [c for c in r if c not in columns]
        path = out / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
        written.append(path)
        table = pa.Table.from_pylist([{c: r.get(c) for c in columns} for r in rows])
        pq.write_table(table, out / f"{name}.parquet")
        written.append(out / f"{name}.parquet")
    return written
