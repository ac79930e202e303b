"""What the league's commands share: finding seasons and teams by the names users type."""

from __future__ import annotations

from django.core.management.base import CommandError

from cards.models import Team
from league import services
from league.models import League, Season


def season_find(text: str) -> Season:
    """Find a season by id, by "League/season-slug" or by a unique season name or slug."""
    seasons = Season.objects.select_related("league")
    if text.isdigit():
        found = seasons.filter(pk=int(text))
    elif "/" in text:
        league, _, name = text.partition("/")
        found = seasons.filter(league__slug=league, slug=name) | seasons.filter(
            league__name=league, name=name
        )
    else:
        found = seasons.filter(slug=text) | seasons.filter(name=text)
    found = found.distinct()
    if not found:
        known = ", ".join(f"{s.league.slug}/{s.slug}" for s in seasons[:20]) or "none yet"
        raise CommandError(f"no season {text!r} (known: {known})")
    if len(found) > 1:
        names = ", ".join(f"{s.league.slug}/{s.slug}" for s in found)
        raise CommandError(f"{text!r} names several seasons: {names}; say league/season")
    return found[0]


def team_find(text: str) -> Team:
    """Find a team written "School SEASON", e.g. "Kentucky 2012"."""
    school, _, season = text.strip().rpartition(" ")
    if not school or not season.isdigit():
        raise CommandError(f'name a team as "School SEASON", e.g. "Kentucky 2012"; got {text!r}')
    try:
        return Team.objects.get(school=school, season=int(season))
    except Team.DoesNotExist:
        raise CommandError(f"no team {text!r}; load or import it first") from None


def league_for(name: str) -> League:
    """Find or create the league a command names; a bad name is a clear CommandError."""
    try:
        return services.league_get_or_create(name=name)
    except services.SeasonRefused as exc:
        raise CommandError(str(exc)) from exc
