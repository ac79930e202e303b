"""A team named as a commissioner writes it on the command line: "Kentucky 2012"."""

from __future__ import annotations

from django.db.models import QuerySet

from cards.models import Team


class TeamNotFound(LookupError):
    """Raise for a label that names no team, or several only by the case of their school."""


def _folded(school: str) -> str:
    """A school as the lookup compares it: whatever its case and spacing."""
    return " ".join(school.split()).casefold()


def team_named(label: str, teams: QuerySet[Team] | None = None) -> Team:
    """Return the team a label such as "Kentucky 2012" names, the school matched whatever
    its case ("kentucky 2012"); the school as it is written wins over others that differ
    only in case, and a label that names several teams only that way is refused naming them.
    """
    teams = Team.objects.all() if teams is None else teams
    school, _, season = label.strip().rpartition(" ")
    school = school.strip()
    if not school or not season.isdigit():
        raise TeamNotFound(f'name a team as "School SEASON", e.g. "Kentucky 2012"; got {label!r}')
    found = [t for t in teams.filter(season=int(season)) if _folded(t.school) == _folded(school)]
    exact = [t for t in found if t.school == school]
    if exact or len(found) == 1:
        return (exact or found)[0]
    if found:
        names = ", ".join(f'"{t}"' for t in sorted(found, key=lambda t: t.school))
        raise TeamNotFound(f'"{label}" matches {len(found)} teams: {names}; write one as it is.')
    raise TeamNotFound(f'No team "{label}"; load or import it first.')
