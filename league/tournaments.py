"""Tournaments: a bracket stored on its season, drawn round by round as games are stored.

The bracket's structure (``league.bracket``) is stored whole on the season. Its games are
created only when the round before is complete: ``tournament_advance`` runs in the
transaction that stores each bracket game, locks the season row, and draws the next round
when no game of the tournament is left unplayed. The lock makes the last game of a round
the one that draws the next, however many workers finish at once, and the unique
``(season, bracket_key)`` constraint refuses a game drawn twice. The barrier lives in the
database, not in the broker.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.text import slugify

from cards.models import Team
from league import bracket as brackets
from league.dispatch import field_odds_enqueue, runs_attach
from league.errors import SeasonRefused
from league.models import Game, League, Season, SeasonTeam, season_name_checked
from league.seeds import derived_seed, new_seed
from league.selectors import RESULT_DOCUMENTS, standings_for_season
from league.teamfiles import teams_refused_unplayable

# The ready-made fields a tournament can be drawn from: name -> (what users call it, its
# field file: school, season, region and seed per row).
FIELDS = {
    "alltime-96": (
        "the all-time field",
        Path(settings.BASE_DIR) / "fixtures" / "field" / "alltime96.csv",
    )
}


def round_name(bracket: brackets.Bracket, number: int) -> str:
    """Return how fans name a round: "Championship", "Final Four", ... or "Round 2"."""
    games = sum(1 for g in bracket.games if g.round == number)
    names = {1: "Championship", 2: "Final Four", 4: "Elite 8", 8: "Sweet 16"}
    if number == bracket.rounds or (number > 1 and games in names):
        return names.get(games, f"Round {number}")
    return f"Round {number}"


def season_bracket(season: Season) -> brackets.Bracket:
    """Return a tournament's bracket, read once per season object and stored document (a
    page asks it for every game: a 96-team bracket took 0.3 ms a read)."""
    if not season.bracket:
        raise SeasonRefused(f"{season} is not a tournament")
    kept = season.__dict__.get("_bracket_read")
    if kept is not None and kept[0] is season.bracket:
        read: brackets.Bracket = kept[1]
        return read
    read = brackets.bracket_from_json(season.bracket)
    season.__dict__["_bracket_read"] = (season.bracket, read)
    return read


@transaction.atomic
def tournament_create(
    *,
    league: League,
    name: str,
    teams: Sequence[Team] | None = None,
    regions: dict[str, Sequence[Team]] | None = None,
    final_four: tuple[tuple[str, str], tuple[str, str]] = brackets.DEFAULT_FINAL_FOUR,
    reseed: bool = False,
    neutral: bool = True,
    rules: str = "advanced",
    strategy: bool = True,
    seed: int | None = None,
    game: str | None = None,
    options: dict[str, object] | None = None,
) -> Season:
    """Create a single-elimination tournament and draw its first round.

    ``game`` names the game its games play (the league's unless told) and ``options``
    its rule options, checked by that game's rules.

    Give ``teams`` in seed order (1 first) for a bracket of any size, the top seeds
    getting byes; or ``regions`` (four regions of 24 teams by seed) for the all-time 96
    format. Games are on neutral courts unless ``neutral`` is False, when the better seed
    is at home. With ``reseed`` the survivors are re-paired best v worst after each round.
    """
    if (teams is None) == (regions is None):
        raise SeasonRefused("give either the teams in seed order or the four regions")
    season_name_checked(name)
    season = Season(
        league=league,
        name=name,
        slug=slugify(name),
        kind=Season.Kind.TOURNAMENT,
        rules=rules,
        strategy=strategy,
        home_court=not neutral,
        reseed=reseed,
        seed=new_seed() if seed is None else seed,
        game=league.game if game is None else game,
        options=options or {},
    )
    season.full_clean()
    try:
        if regions is not None:
            if reseed:
                raise SeasonRefused("the all-time 96 bracket is fixed: it cannot be reseeded")
            bracket = brackets.alltime_96(
                {region: [t.pk for t in ts] for region, ts in regions.items()},
                final_four=final_four,
            )
            entries = [
                SeasonTeam(team=t, region=region, seed=n)
                for region, ts in regions.items()
                for n, t in enumerate(ts, start=1)
            ]
        else:
            assert teams is not None
            bracket = brackets.bracket_for_field([t.pk for t in teams], reseed=reseed)
            entries = [SeasonTeam(team=t, seed=n) for n, t in enumerate(teams, start=1)]
    except brackets.BracketError as exc:
        raise SeasonRefused(str(exc)) from exc
    teams_refused_unplayable(season.game, [entry.team for entry in entries])
    season.bracket = brackets.bracket_to_json(bracket)
    season.save()
    for entry in entries:
        entry.season = season
    SeasonTeam.objects.bulk_create(entries)
    _draw(season=season, bracket=bracket)
    field_odds_enqueue(season_ids=[season.pk])  # the bracket's odds, built in the background
    return season


def again_name(season: Season) -> str:
    """Return the first free name of a replay of ``season`` in its league: "March Madness
    (again)", then "(again 2)", ..."""
    taken = set(Season.objects.filter(league=season.league).values_list("slug", flat=True))
    base = season.name.split(" (again")[0]
    for n in range(1, 1000):
        name = f"{base} (again)" if n == 1 else f"{base} (again {n})"
        if slugify(name) not in taken:
            return name
    raise SeasonRefused(f"{season.league} has too many replays of {base}")


@transaction.atomic
def tournament_again(*, season: Season, name: str = "", seed: int | None = None) -> Season:
    """Create a new tournament with ``season``'s very bracket (the same teams in the same
    regions and seeds, the same game, rules, court and coach policy) and draw its first
    round: a commissioner plays a bracket again, after a card was mended, say, while the
    first keeps its games and its pools. A new seed unless one is given."""
    if season.kind != Season.Kind.TOURNAMENT or not season.bracket:
        raise SeasonRefused(f"{season} is not a tournament: only a bracket is played again")
    if not season.games.filter(status=Game.Status.FINAL).exists():
        # Its bracket is already drawn and waiting: a second copy would only be a duplicate.
        raise SeasonRefused(
            f"{season} has no game played yet: simulate it; playing it again would only draw "
            "a second copy of its bracket"
        )
    again = Season(
        league=season.league,
        name=name or again_name(season),
        kind=Season.Kind.TOURNAMENT,
        rules=season.rules,
        strategy=season.strategy,
        home_court=season.home_court,
        reseed=season.reseed,
        seed=new_seed() if seed is None else seed,
        game=season.game,
        options=dict(season.options),
        bracket=season.bracket,
    )
    again.slug = slugify(again.name)
    if Season.objects.filter(league=season.league, slug=again.slug).exists():
        raise SeasonRefused(f"{season.league} already has a season named {again.name!r}")
    again.full_clean()
    again.save()
    SeasonTeam.objects.bulk_create(
        SeasonTeam(
            season=again,
            team_id=entry.team_id,
            conference=entry.conference,
            region=entry.region,
            seed=entry.seed,
        )
        for entry in SeasonTeam.objects.filter(season=season)
    )
    _draw(season=again, bracket=season_bracket(again))
    field_odds_enqueue(season_ids=[again.pk])
    return again


def winners_of(season: Season) -> dict[str, int]:
    """Return ``{bracket_key: winning team id}`` for the tournament's stored games."""
    winners = {}
    for key, home, away, hs, as_ in (
        Game.objects.filter(season=season, status=Game.Status.FINAL)
        .exclude(bracket_key="")
        .values_list(
            "bracket_key", "home_id", "away_id", "result__home_score", "result__away_score"
        )
    ):
        winners[key] = home if hs > as_ else away
    return winners


def tournament_advance(*, season_id: int) -> list[Game]:
    """Draw the next round once every drawn game is stored; return the games drawn.

    Runs inside the transaction that stored a bracket game. The season row lock
    serialises the games finishing at once, so exactly one of them draws the round.
    """
    season = Season.objects.select_for_update().get(pk=season_id)
    if _pending(season).exists():
        return []  # the round is not complete yet
    games = _draw(season=season, bracket=season_bracket(season))
    if games:
        runs_attach(season=season, game_ids=[g.pk for g in games])
    return games


def _draw(*, season: Season, bracket: brackets.Bracket) -> list[Game]:
    winners = winners_of(season)
    drawn = set(season.games.exclude(bracket_key="").values_list("bracket_key", flat=True))
    ready = [g for g in brackets.next_games(bracket, winners) if g.key not in drawn]
    if not ready:
        return []
    # One round at a time: a top seed's bye game waits for the round it belongs to.
    first = min(g.round for g in ready)
    ready = [g for g in ready if g.round == first]
    games = [
        Game(
            season=season,
            home_id=g.top_team_id,
            away_id=g.bottom_team_id,
            neutral=not season.home_court,
            rules=season.rules,
            strategy=season.strategy,
            game=season.game,
            options=season.options,
            round=g.round,
            bracket_key=g.key,
            seed=derived_seed(season.seed, g.key),
            # The round as the pages name it (the API's label said "round 7" for the final).
            label=f"{g.region + ' ' if g.region else ''}{round_name(bracket, g.round)}: "
            f"#{g.top_seed} v #{g.bottom_seed}",
        )
        for g in ready
    ]
    return Game.objects.bulk_create(games)


def _pending(season: Season) -> Any:
    """The tournament's drawn bracket games not stored yet (scheduled, running or failed)."""
    return (
        Game.objects.filter(season=season).exclude(bracket_key="").exclude(status=Game.Status.FINAL)
    )


def _named(bracket: brackets.Bracket, key: str) -> str:
    """Return a bracket game as a commissioner names it: "the Championship (R3-1)"."""
    game = bracket.game(key)
    where = f"{game.region} " if game.region else ""
    return f"the {where}{round_name(bracket, game.round)} game {key}"


def bracket_mend(*, season: Season) -> list[Game]:
    """Draw again the games a tournament's bracket is missing; return them (none, usually).

    Each round is drawn in the transaction that stores the last game of the round before,
    so when every drawn game is stored and the bracket still has games whose teams are
    known, a game was deleted after it was drawn (the admin refuses that now; an older
    deletion, or one made outside the admin, left the hole): the bracket would wait for it
    for ever. It is drawn again here, with the same teams and the same seed. Call with the
    season row locked. Refused (:class:`SeasonRefused`) when the games after a missing one
    were already played: drawn again it might have another winner than the one who played
    on.
    """
    if not season.bracket or _pending(season).exists():
        return []  # the round is being played: the last game stored draws what is missing
    bracket = season_bracket(season)
    try:
        return _draw(season=season, bracket=bracket)
    except brackets.BracketError as exc:
        raise SeasonRefused(_holes_text(season, bracket)) from exc


def _holes_text(season: Season, bracket: brackets.Bracket) -> str:
    """Say which bracket games are missing while the games they feed were played."""
    drawn = set(season.games.exclude(bracket_key="").values_list("bracket_key", flat=True))
    holes = [
        (source.game_key, game.key)
        for game in bracket.games
        if game.key in drawn
        for source in (game.top, game.bottom)
        if isinstance(source, brackets.WinnerOf) and source.game_key not in drawn
    ]
    missing = "; ".join(
        f"{_named(bracket, key)}, whose winner played on in {_named(bracket, later)}"
        for key, later in holes
    )
    return (
        f"the bracket of {season} is missing {missing or 'a game'}: it was deleted after its "
        "winner played on, so it cannot be drawn and played again without replaying what "
        "came after it. Draw the tournament anew (manage.py create_tournament, or POST "
        "/api/tournaments/), or delete it (its season in the admin)"
    )


def bracket_stalled(*, season: Season) -> bool:
    """Tell whether a tournament has games to come but none drawn to play: a bracket game
    was deleted after it was drawn (:func:`bracket_mend` draws it again)."""
    return (
        bool(season.bracket) and games_to_come(season=season) > 0 and not _pending(season).exists()
    )


def stalled_reason(*, season: Season) -> str:
    """Say why a tournament's next round cannot be drawn although games are to come.

    Failed games wait for a retry; games opened at the table wait for their result;
    anything else is a bracket missing a game that :func:`bracket_mend` did not draw.
    """
    pending = _pending(season).order_by("pk")
    failed = [g.pk for g in pending if g.status == Game.Status.FAILED]
    at_table = [
        g.pk for g in pending if g.kind == Game.Kind.REAL_DICE and g.status == Game.Status.SCHEDULED
    ]
    reasons = []
    if failed:
        reasons.append(
            f"failed game(s) {', '.join(map(str, failed))}: retry them once their cause is "
            "fixed (simulate --retry-failed, the admin's retry action or the API)"
        )
    if at_table:
        reasons.append(
            f"game(s) {', '.join(map(str, at_table))}, played at the table with real dice: "
            "enter their result, or make them simulated again in the admin"
        )
    if reasons:
        return f"the next round of {season} waits for " + "; and for ".join(reasons)
    return (
        f"the bracket of {season} is missing a game: {games_to_come(season=season)} game(s) "
        "are to come and none is drawn to be played (a game was deleted after it was drawn)"
    )


def bracket_games_delete_check(games: Iterable[Game]) -> None:
    """Refuse (:class:`SeasonRefused`) to delete a tournament's bracket games, saying why
    and what to do instead.

    Its winner plays on in the next round (or is the champion), the later rounds are drawn
    from it and the fans' bracket challenge scores it: taken out, the bracket would wait for
    it for ever. A whole tournament (its season) may be deleted, its games with it.
    """
    named, instead = [], {}
    for game in games:
        season = game.season
        if not game.bracket_key or season is None or not season.bracket:
            continue
        bracket = season_bracket(season)
        if game.status == Game.Status.FINAL:
            last = bracket.game(game.bracket_key).round == bracket.rounds
            why = "it crowned the champion" if last else "its winner plays on"
            instead[0] = (
                "A played game stays as it was played; to play a tournament again, draw its "
                'bracket anew (the seasons\' action "Play the selected tournaments again", '
                "or manage.py create_tournament --again)"
            )
        elif game.status == Game.Status.FAILED:
            why = "the next round waits for it"
            instead[1] = (
                "Retry a failed game once its cause is fixed (the retry action, or simulate "
                "--retry-failed)"
            )
        else:
            why = "the next round waits for it"
            instead[2] = "Play a game to come (simulate, or at the table)"
        named.append(
            f"game {game.pk} ({game.away} at {game.home}), {_named(bracket, game.bracket_key)} "
            f"of {season}: {why}"
        )
    if not named:
        return
    them = "it" if len(named) == 1 else "them"
    raise SeasonRefused(
        f"a tournament's bracket game cannot be deleted on its own, since the bracket "
        f"(and any bracket challenge's points) rest on {them}: {'; '.join(named)}. "
        + ". ".join(instead[k] for k in sorted(instead))
        + ". To remove a whole tournament, delete its season"
    )


def games_to_come(*, season: Season) -> int:
    """Return how many bracket games are still to be played, drawn or not."""
    total = len(season_bracket(season).games)
    played = season.games.filter(status=Game.Status.FINAL).exclude(bracket_key="").count()
    return total - played


def champion(season: Season) -> Team | None:
    """Return the tournament's champion, or None while the final is unplayed."""
    winner = brackets.champion(season_bracket(season), winners_of(season))
    return None if winner is None else Team.objects.get(pk=winner)


def bracket_view(season: Season) -> dict[str, Any]:
    """Return the bracket as pages and the API show it: rounds of slots with teams and scores.

    Each round lists its games in bracket order; a game not yet drawn shows whatever
    entrants are known so far.
    """
    bracket = season_bracket(season)
    entries = {
        e.team_id: e for e in SeasonTeam.objects.filter(season=season).select_related("team")
    }
    games = {
        g.bracket_key: g
        for g in season.games.exclude(bracket_key="")
        .select_related("result", "home", "away")
        # The scores only: the stored documents (team files, play-by-play) stay unread.
        .defer(*(f"result__{name}" for name in (*RESULT_DOCUMENTS, "created_at")))
    }
    winners = _lost_feeders_read(bracket, winners_of(season), games)
    entrants = brackets.entrants(bracket, winners)

    def slot(team_id: int | None, game: Game | None) -> dict[str, Any] | None:
        if team_id is None:
            return None
        entry = entries[team_id]
        score = None
        if game is not None and game.status == Game.Status.FINAL:
            score = game.result.home_score if game.home_id == team_id else game.result.away_score
        return {
            "team_id": team_id,
            "team": str(entry.team),
            "seed": entry.seed,
            "score": score,
        }

    rounds: dict[int, list[dict[str, Any]]] = {}
    for g in bracket.games:
        game = games.get(g.key)
        top, bottom = entrants[g.key]
        rounds.setdefault(g.round, []).append(
            {
                "key": g.key,
                "region": g.region,
                "position": g.position,
                "game_id": game.pk if game else None,
                "status": game.status if game else "not drawn",
                "top": slot(top, game),
                "bottom": slot(bottom, game),
                "winner_id": winners.get(g.key),
            }
        )
    champ = brackets.champion(bracket, winners)
    return {
        "rounds": [
            {"number": n, "name": round_name(bracket, n), "games": rounds[n]}
            for n in sorted(rounds)
        ],
        "champion": None
        if champ is None
        else {"team_id": champ, "team": str(entries[champ].team), "seed": entries[champ].seed},
    }


def _lost_feeders_read(
    bracket: brackets.Bracket, winners: dict[str, int], games: Mapping[str, Game]
) -> dict[str, int]:
    """Return ``winners`` with the winner of each game deleted after its winner played on
    (only an old admin could do it) read from the game it fed: of that game's two teams,
    the one that played in the lost game. The bracket then draws as it was played, the
    lost game's slot without a score, instead of failing to draw at all."""
    out = dict(winners)
    for g in sorted(bracket.games, key=lambda g: g.round):
        stored = games.get(g.key)
        if stored is None or g.key not in out:
            continue
        for source in (g.top, g.bottom):
            if not isinstance(source, brackets.WinnerOf) or source.game_key in out:
                continue
            feeder = next((f for f in bracket.games if f.key == source.game_key), None)
            if feeder is None or source.game_key in games:
                continue
            played = {stored.home_id, stored.away_id}
            teams = {
                t.team_id if isinstance(t, brackets.Seeded) else out.get(t.game_key)
                for t in (feeder.top, feeder.bottom)
                if isinstance(t, brackets.Seeded | brackets.WinnerOf)
            }
            found = played & {t for t in teams if t is not None}
            if len(found) == 1:
                out[source.game_key] = found.pop()
    return out


def tournament_from_groups(*, group_stage: Season, advance: int, **options: Any) -> Season:
    """Create a tournament from a finished round-robin season's conferences (groups).

    The top ``advance`` of each conference's standings go through; group winners are
    seeded above runners-up and so on, teams of one place ordered by win % then point
    difference, and teams of one group kept apart in the first round where possible.
    """
    if group_stage.kind != Season.Kind.SEASON:
        raise SeasonRefused(
            f"{group_stage} is a tournament: a group stage is a round-robin season, whose "
            "groups' standings seed the bracket"
        )
    if not group_stage.games.exists():
        raise SeasonRefused(f"{group_stage} has no games: its groups have no standings")
    if group_stage.games.exclude(status=Game.Status.FINAL).exists():
        raise SeasonRefused(f"{group_stage} is not finished: play every group game first")
    tables = standings_for_season(season_id=group_stage.pk)
    groups = {name or "Group": [row["team_id"] for row in rows] for name, rows in tables}
    rank_key = {row["team_id"]: (-row["pct"], -row["diff"]) for _, rows in tables for row in rows}
    try:
        order = brackets.group_stage_seeds(groups, advance=advance, rank_key=rank_key)
    except brackets.BracketError as exc:
        raise SeasonRefused(str(exc)) from exc
    teams = {t.pk: t for t in Team.objects.filter(pk__in=order)}
    return tournament_create(teams=[teams[pk] for pk in order], **options)


def field_regions(path: Path, *, title: str = "the field") -> dict[str, list[Team]]:
    """Return a field file's regions, teams by seed, in Final Four order.

    Every team of the field must be loaded; the refusal lists all that are missing.
    """
    if not path.exists():
        raise SeasonRefused(f"{path.name} is missing: it is the file of {title}")
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    teams = {(t.school, t.season): t for t in Team.objects.all()}
    regions: dict[str, dict[int, Team]] = {}
    missing = []
    for row in rows:
        key = (row["school"], int(row["season"]))
        team = teams.get(key)
        if team is None:
            missing.append(f"{key[0]} {key[1]} ({row['region']} #{row['seed']})")
            continue
        regions.setdefault(row["region"], {})[int(row["seed"])] = team
    if missing:
        raise SeasonRefused(
            f"{len(missing)} teams of {title} are not loaded: " + ", ".join(missing)
        )
    order = [name for pair in brackets.DEFAULT_FINAL_FOUR for name in pair]
    return {name: [regions[name][s] for s in sorted(regions[name])] for name in order}


def tournament_field_create(*, field: str, **options: Any) -> Season:
    """Create a tournament of a ready-made field (see ``FIELDS``), drawn by its seeds."""
    if field not in FIELDS:
        raise SeasonRefused(f"no field {field!r}: use {', '.join(sorted(FIELDS))}")
    title, path = FIELDS[field]
    regions: dict[str, Sequence[Team]] = dict(field_regions(path, title=title))
    return tournament_create(regions=regions, **options)
