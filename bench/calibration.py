"""Time the pair calibration: ``manage.py calibrate`` and ``manage.py build_field``.

    .venv/bin/python bench/calibration.py                     # both, on fixtures/
    .venv/bin/python bench/calibration.py --skip-build-field  # calibrate only (about 1 minute)

Both commands play games with the exact odds of the coached game
(simulator/vabg/coachodds.py, advanced rules, neutral court; docs/calibration.md), so
there is nothing to sample and no seed: the
figures are the same every run and only the time varies.

- ``calibrate --out FILE`` on the committed team files (``fixtures/teams``): the author's
  predicted first games in and out of sample, each team against the pair model's targets.
  The page goes to a scratch file; docs/calibration.md is left alone. Prints the command's
  error lines and the exact games it computed.
- ``build_field --out DIR`` into a scratch directory holding the rulebook's three hand-made
  teams (as the field-rebuild test does): every field team's cards, its dunk numbers aimed
  at the pair model exactly, the predicted games fitted; fixtures/teams is left alone. Says
  whether the files it wrote are the committed ones.

Each is timed by the wall clock and by CPU time (``time.process_time``, this process
only; the steadier figure on a shared machine). Nothing is asserted: timing never goes in
tests.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, without installing
HAND_MADE = ("kansas-2008.json", "kentucky-2012.json", "san-diego-state-2011.json")


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """Return the wall and CPU seconds ``run`` takes."""
    start, cpu_start = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - start, time.process_time() - cpu_start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-calibrate", action="store_true")
    parser.add_argument("--skip-build-field", action="store_true")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    teams = ROOT / "fixtures" / "teams"
    with tempfile.TemporaryDirectory(prefix="vabg-bench-") as scratch:
        if not args.skip_calibrate:
            out = Path(scratch) / "calibration.md"
            stdout = io.StringIO()
            wall, cpu = timed(lambda: call_command("calibrate", "--out", str(out), stdout=stdout))
            print(stdout.getvalue(), end="")
            page = out.read_text(encoding="utf-8")
            games = re.search(r"Games computed exactly: ([\d,]+)", page)
            print(
                f"calibrate: {wall:.1f} s wall, {cpu:.1f} s CPU"
                + (f" ({games.group(1)} exact games)" if games else "")
            )
        if not args.skip_build_field:
            built = Path(scratch) / "teams"
            built.mkdir()
            for name in HAND_MADE:
                shutil.copy(teams / name, built / name)
            stdout = io.StringIO()
            wall, cpu = timed(
                lambda: call_command(
                    "build_field", "--out", str(built), stdout=stdout, stderr=io.StringIO()
                )
            )
            files = sorted(built.glob("*.json"))
            stale = [p.name for p in files if p.read_bytes() != (teams / p.name).read_bytes()]
            print(
                f"build_field: {len(files)} team files in {wall:.1f} s wall, {cpu:.1f} s CPU; "
                + (f"{len(stale)} differ from fixtures/teams" if stale else "as committed")
            )


if __name__ == "__main__":
    main()
