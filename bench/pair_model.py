"""Print the pair model's errors with and without a constant term (docs/calibration.md,
"The pair model"): why the model has none, and how well it alone predicts the held-out half.

    .venv/bin/python bench/pair_model.py

The pair model predicts each team's score of one of the author's first games from the two
real seasons (``cards.calibration.fit_model``: compression and scale, least squares). With
a constant term added (``pts = c * diff + s * tempo + k``) it fits the games it is fitted
on a little better and predicts the other half worse. Printed: the mean absolute error of a
team score in sample over the games whose both teams have a real-season line, then each
half predicted by the model fitted on the other (``cards.calibration.folds``, as ``manage.py
calibrate --holdout`` splits them), with and without the constant, and the pair model's
error alone over both halves' team scores. Nothing here is random: the figures are the same
every run on the same ``fixtures/field/``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from cards.calibration import _complete, fit_model, folds  # noqa: E402
from cards.field import (  # noqa: E402
    FIELD_DIR,
    FirstGame,
    _rated,
    field_games,
    field_ratings,
    field_seasons,
    read_csv,
    read_field,
)


def main() -> None:
    field = read_field(FIELD_DIR / "alltime96.csv")
    rating_rows = read_csv(FIELD_DIR / "ratings.csv")
    seasons = field_seasons(field, field_ratings(field, rating_rows, "ratings.csv"), rating_rows)
    games, _ = field_games(field)
    order = [team.label for team in field.values()]

    def both_known(gs: Sequence[FirstGame]) -> list[FirstGame]:
        return [
            g for g in gs if _complete(seasons.get(g.first)) and _complete(seasons.get(g.second))
        ]

    def errors(gs: Sequence[FirstGame], predict: object) -> list[float]:
        out: list[float] = []
        for g in gs:
            first, second = predict(g)  # type: ignore[operator]
            out += [abs(first - g.first_pts), abs(second - g.second_pts)]
        return out

    def with_constant(gs: Sequence[FirstGame]) -> object:
        rows, values = [], []
        for g in gs:
            a, b = seasons[g.first], seasons[g.second]
            tempo, diff = (a.tempo + b.tempo) / 4, (a.rating - b.rating) / 2
            rows += [[diff, tempo, 1.0], [-diff, tempo, 1.0]]
            values += [g.first_pts, g.second_pts]
        (c, s, k), *_ = np.linalg.lstsq(np.array(rows), np.array(values), rcond=None)

        def predict(g: FirstGame) -> tuple[float, float]:
            a, b = seasons[g.first], seasons[g.second]
            tempo, diff = (a.tempo + b.tempo) / 4, (a.rating - b.rating) / 2
            return c * diff + s * tempo + k, -c * diff + s * tempo + k

        return predict

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    usable = both_known(games)
    model = fit_model(games, seasons, order)
    plain = errors(usable, lambda g: model.predict(seasons[g.first], seasons[g.second]))
    print(f"in sample, {len(usable)} games with both real seasons:")
    print(f"  pair model      MAE {mean(plain):.2f} a team score "
          f"(compression {model.compression:.3f}, scale {model.scale:.3f})")  # fmt: skip
    print(f"  with a constant MAE {mean(errors(usable, with_constant(usable))):.2f}")
    alone: list[float] = []
    for name, (test, train) in (
        ("first half", folds(games, order)),
        ("second half", folds(games, order)[::-1]),
    ):
        half = fit_model(train, seasons, order)
        measured = [g for g in test if _rated(seasons, g)]
        held = errors(measured, lambda g, m=half: m.predict(seasons[g.first], seasons[g.second]))
        alone += held
        constant = errors(both_known(measured), with_constant(both_known(train)))
        print(f"{name} held out (model fitted on the other half, compression "
              f"{half.compression:.3f}): MAE {mean(held):.2f} over {len(measured)} games; "
              f"with a constant {mean(constant):.2f}")  # fmt: skip
    print(f"the pair model alone, both halves: MAE {mean(alone):.2f} over {len(alone)} team scores")


if __name__ == "__main__":
    main()
