"""What the coach styles of the other games share (``gridcourt.style``, ``sixdice.style``):
the error that names every parameter at fault, and reading a style from a team file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

from simulator.jsonfile import shown


class StyleError(ValueError):
    """Raise for a style a policy cannot play; ``problems`` names every field at fault."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


S = TypeVar("S")


def style_from_json(cls: type[S], doc: object, game: str) -> S:
    """Return the style ``cls`` (a dataclass) of a team file's ``styles.<game>`` object; a
    parameter left out takes its default. Raise :class:`StyleError` naming every problem:
    ``game`` says whose parameters they are ("grid-court", "six-dice")."""
    if not isinstance(doc, Mapping):
        raise StyleError([f"must be an object of parameters, got {shown(doc)}"])
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(str(k) for k in doc if k not in known)
    if unknown:
        raise StyleError(
            [
                f"{k}: not a {game} style parameter (they are: {', '.join(sorted(known))})"
                for k in unknown
            ]
        )
    values: dict[str, Any] = {str(k): v for k, v in doc.items()}
    return cls(**values)
