"""The odds of the games whose teams bring only a coach style into play (six dice, grid court).

``league.odds`` keeps VABG's pair table of each pairing's exact odds (they read both
cards); a game whose odds do not read the cards (``Game.odds_read_teams`` false) comes here
from one marked branch at the top of each of its entry points. Its odds are the game's own
(``Game.odds(rules, home, away)``: six dice exact from the dice math, grid court a seeded
simulation with its standard error) for the two teams' coach styles (``cards.styles``; a
played game: the styles stored with its result), one law per pairing of styles
(:class:`PairOdds`), so previews, charts, season and bracket odds need no table. A game
with no odds for its rules, or no in-game odds, is refused with
:class:`league.odds.OddsUnavailable` naming the game: never another game's numbers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
from django.core.cache import cache
from django.dispatch import Signal

from cards.models import Team
from cards.oddscache import SIMULATOR_DIR, sources_version
from cards.styles import played_team_file, styles_document
from league import background, season_sampling
from league import bracket as brackets
from league.digests import document_packed, document_unpacked
from league.errors import OddsUnavailable, PairingsPending
from league.models import Game, PairingOdds, Season, SeasonTeam
from league.selectors import standings_order
from league.tournaments import round_name, season_bracket
from league.whatif import whatif_winners
from simulator.games import Game as GameKind
from simulator.games import InvalidTeamError, MatchOdds, find_game

SAMPLED_BRACKETS = 5_000
"""Brackets sampled when one is reseeded (the entrants of a game depend on every survivor)."""
SWINGS = 5


def handles(game: str) -> bool:
    """Return whether a game's odds come from here: it has no pair table of its own."""
    return not find_game(game).odds_read_teams


def _unavailable(message: str) -> Exception:
    return OddsUnavailable(message)


def _title(kind: GameKind) -> str:
    return kind.title[:1].lower() + kind.title[1:]


def team_document(team: Team) -> dict[str, Any]:
    """Return what a board game reads of a team: its name and the coach styles it plays."""
    return {"school": team.school, "season": team.season, "styles": styles_document(team)}


def match_odds(
    game: str,
    options: Mapping[str, Any],
    home: Mapping[str, Any] | None = None,
    away: Mapping[str, Any] | None = None,
) -> tuple[GameKind, MatchOdds]:
    """Return a game's odds under these rule options between two teams (their team
    documents: the styles they play; ``None``: the default style), or refuse naming the
    game."""
    kind = find_game(game)
    rules = kind.make_rules(**dict(options))
    odds = _kept_odds(kind, rules, home, away) if kind.has_odds else None
    if odds is None:
        raise _unavailable(
            f"{kind.title} has no odds for these rules ({_rules_text(rules)})"
            if kind.has_odds
            else f"{kind.title} has no odds"
        )
    return kind, odds


ODDS_CACHE_SECONDS = 7 * 24 * 3600
"""How long a pairing's odds are kept in the cache (they change only with the engine); the
database keeps them for good (``PairingOdds``), and refills the cache after it."""


@functools.cache
def engine_fingerprint() -> str:
    """Return a fingerprint of the whole simulator (every game's source), once a process:
    odds kept in the cache by an engine that has since changed are never read."""
    return sources_version(sorted(SIMULATOR_DIR.rglob("*.py")))


def _odds_key(
    kind: GameKind, rules: Any, home: Mapping[str, Any] | None, away: Mapping[str, Any] | None
) -> str:
    """Return the cache key of a pairing's odds under these rules, by this engine."""
    # A team's odds read only its coach styles; no team at all is told apart from a team
    # without styles (the game's default player against its default style).
    styles = [
        "no team" if doc is None else (doc.get("styles") or {}).get(kind.name)
        for doc in (home, away)
    ]
    what = json.dumps([kind.name, rules.to_json(), styles], sort_keys=True)
    return (
        _KEY_PREFIX
        + hashlib.blake2b(f"{what}:{engine_fingerprint()}".encode(), digest_size=16).hexdigest()
    )


_KEY_PREFIX = "other-odds:"
ODDS_DOC_VERSION = 1


def odds_doc(odds: MatchOdds) -> dict[str, Any]:
    """Return ``odds`` as JSON (each final score a [home, away, probability] row)."""
    return {
        "version": ODDS_DOC_VERSION,
        "p_home_win": odds.p_home_win,
        "final": [[h, a, p] for (h, a), p in odds.final.items()],
        "method": odds.method,
        "standard_error": odds.standard_error,
        "games": odds.games,
        "seed": odds.seed,
    }


def odds_from_doc(doc: Mapping[str, Any]) -> MatchOdds:
    """Return the odds :func:`odds_doc` wrote (``ValueError`` for a document it did not)."""
    if doc.get("version") != ODDS_DOC_VERSION:
        raise ValueError(f"stored odds of version {doc.get('version')!r}")
    try:
        return MatchOdds(
            p_home_win=float(doc["p_home_win"]),
            final={(int(h), int(a)): float(p) for h, a, p in doc["final"]},
            method=str(doc["method"]),
            standard_error=float(doc["standard_error"]),
            games=int(doc["games"]),
            seed=None if doc["seed"] is None else int(doc["seed"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"stored odds that do not read: {exc}") from exc


def _kept_many(keys: list[str]) -> dict[str, MatchOdds]:
    """Return the pairings' odds kept, by key: the cache's, then the stored ones (put back
    into the cache: a restarted cache is refilled from the database, not worked out again)."""
    kept: dict[str, MatchOdds] = cache.get_many(keys)
    lost = [key for key in keys if key not in kept]
    if lost:
        found: dict[str, MatchOdds] = {}
        rows = PairingOdds.objects.filter(pk__in=[k.removeprefix(_KEY_PREFIX) for k in lost])
        for digest, packed in rows.values_list("key", "odds"):
            try:
                found[_KEY_PREFIX + digest] = odds_from_doc(document_unpacked(packed))
            except ValueError:  # worked out again, stored over it
                continue
        if found:
            cache.set_many(found, ODDS_CACHE_SECONDS)
            kept.update(found)
    return kept


def _keep(kind: GameKind, key: str, odds: MatchOdds) -> None:
    """Keep a pairing's odds in the cache and store them for every process."""
    cache.set(key, odds, ODDS_CACHE_SECONDS)
    packed = document_packed(odds_doc(odds))
    PairingOdds.objects.bulk_create(
        [PairingOdds(key=key.removeprefix(_KEY_PREFIX), game=kind.name, odds=packed)],
        update_conflicts=True,
        update_fields=["odds"],
        unique_fields=["key"],
    )


def _kept_odds(
    kind: GameKind, rules: Any, home: Mapping[str, Any] | None, away: Mapping[str, Any] | None
) -> MatchOdds | None:
    """Return the game's odds of a pairing of coach styles, kept (the cache, then the
    stored ones) when a request or a worker before this one worked them out: six dice
    solves a pairing in up to a second, grid court simulates 1,000 games (seconds), so a
    page of a season's or a bracket's odds works out each pairing once, not on every
    view."""
    key = _odds_key(kind, rules, home, away)
    kept = _kept_many([key]).get(key)
    if kept is not None:
        return kept
    teams = [None if doc is None else kind.read_team(dict(doc)) for doc in (home, away)]
    odds: MatchOdds | None = kind.odds(rules, *teams)
    if odds is not None:
        _keep(kind, key, odds)
    return odds


Docs = tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]

pairings_wanted = Signal()
"""Sent with ``game``, ``options`` and ``pairings`` (a list of [home document, away
document]): pairings whose odds a page needs; ``league.tasks`` hands them to the workers."""
ASKED_SECONDS = 120
"""A pairing sent to the background is not sent again for this long (a page reloads every
few seconds while it waits; a lost worker's pairing is sent again after it)."""


def ensure_pairings(game: str, options: Mapping[str, Any], pairings: list[Docs]) -> None:
    """Return when every pairing's odds can be read at once: all of them kept, or
    no background to send them to (a command or a test works them out in place). Else
    send the missing ones to the workers and raise :class:`PairingsPending`, so no page
    works out a pairing while its reader waits."""
    kind = find_game(game)
    if not kind.has_odds or not background.available():
        return
    ready, needed = _send_missing(kind, game, options, pairings)
    if ready < needed:
        raise PairingsPending(ready=ready, needed=needed, game_title=kind.title)


def _send_missing(
    kind: GameKind, game: str, options: Mapping[str, Any], pairings: list[Docs]
) -> tuple[int, int]:
    """Send the pairings neither kept in the cache nor stored to the workers (each once in
    ``ASKED_SECONDS``);
    return how many are ready and how many there are."""
    rules = kind.make_rules(**dict(options))
    keys = {_odds_key(kind, rules, h, a): (h, a) for h, a in pairings}
    kept = _kept_many(list(keys))
    missing = [key for key in keys if key not in kept]
    fresh = [key for key in missing if background.ask_once(f"asked:{key}", ASKED_SECONDS)]
    if fresh:
        pairings_wanted.send(
            sender=Game,
            game=game,
            options=dict(options),
            pairings=[[keys[key][0], keys[key][1]] for key in fresh],
        )
    return len(keys) - len(missing), len(keys)


def pairing_if_kept(
    game: str, options: Mapping[str, Any], home: Mapping[str, Any], away: Mapping[str, Any]
) -> MatchOdds | None:
    """Return a pairing's odds if kept (cache or stored), never working them out here (a
    table game's sheet asks on every die); a pairing missing is sent to the background,
    once in ``ASKED_SECONDS``, where there is one."""
    kind = find_game(game)
    if not kind.has_odds:
        return None
    key = _odds_key(kind, kind.make_rules(**dict(options)), home, away)
    kept = _kept_many([key]).get(key)
    if kept is None and background.available():
        _send_missing(kind, game, options, [(home, away)])
    return kept


def season_pairings_request(season_id: int) -> None:
    """Send a new season's pairings to the workers at once, so the first reader of its
    previews and odds finds them worked out rather than waiting: the default styles' and
    its teams' pairings of styles that can meet (a tournament's any two of its teams, a
    season's scheduled games), at most :data:`BACKGROUND_PAIRINGS` of them beyond the
    default, as many as its odds count."""
    season = Season.objects.filter(pk=season_id).first()
    if season is None or not handles(season.game) or not background.available():
        return
    kind = find_game(season.game)
    if not kind.has_odds:
        return
    docs = {
        e.team_id: team_document(e.team)
        for e in SeasonTeam.objects.filter(season=season).select_related("team")
    }
    if season.kind == Season.Kind.TOURNAMENT and season.bracket:
        pairs = brackets.meeting_pairs(season_bracket(season))
    elif season.kind == Season.Kind.TOURNAMENT:
        pairs = [(h, a) for h in docs for a in docs if h != a]
    else:
        pairs = list(
            Game.objects.filter(season=season)
            .exclude(status=Game.Status.FINAL)
            .values_list("home_id", "away_id")
        )
    styled: dict[str, Docs] = {}
    for h, a in pairs:
        key = json.dumps([docs[h]["styles"].get(season.game), docs[a]["styles"].get(season.game)])
        styled.setdefault(key, (docs[h], docs[a]))
    chosen = [(None, None), *list(styled.values())[:BACKGROUND_PAIRINGS]]
    _send_missing(kind, season.game, season.options, chosen)


def pairings_build(game: str, options: Mapping[str, Any], pairings: list[list[Any]]) -> int:
    """Work out each pairing's odds, kept and stored (a worker's task); return how many."""
    kind = find_game(game)
    rules = kind.make_rules(**dict(options))
    for home, away in pairings:
        _kept_odds(kind, rules, home, away)
        cache.delete(f"asked:{_odds_key(kind, rules, home, away)}")
    return len(pairings)


def _rules_text(rules: Any) -> str:
    return ", ".join(f"{k} {v}" for k, v in rules.to_json().items() if k != "version")


def _law_list(law: Mapping[int, float], cut: float = 1e-6) -> list[dict[str, float]]:
    return [{"x": k, "p": p} for k, p in sorted(law.items()) if p >= cut]


def method_note(kind: GameKind, odds: MatchOdds) -> str:
    """Return how a game's odds were worked out, in a sentence."""
    if odds.method == "exact":
        return (
            f"Exact, from the dice math of {_title(kind)} with each team's coach style: "
            "every roll is counted, with no simulation; a style changes the team's choices, "
            "never the dice."
        )
    return (
        f"Simulated: {odds.games:,} seeded games of {_title(kind)} with each team's coach "
        f"style (standard error of P(win) {odds.standard_error:.1%}); a style changes the "
        "team's choices, never the dice."
    )


# -- previews --------------------------------------------------------------------------------


def game_preview(game: Game) -> dict[str, Any]:
    """Return a scheduled or played game's preview from its game's own odds, between the
    styles the teams play (a played game: the styles it was played with)."""
    home_doc, away_doc = _game_documents(game)
    sides = (game.home_id, str(game.home)), (game.away_id, str(game.away))
    preview = _pairing_preview(game.game, game.options, home_doc, away_doc, sides, game.neutral)
    return {"game_id": game.pk, **preview}


def matchup_preview(
    *, game: str, options: Mapping[str, Any], home: Team, away: Team, neutral: bool = False
) -> dict[str, Any]:
    """Return the preview of any two teams a fan picks, in a game of their own coach styles
    (six dice, grid court) under these rule options; :class:`PairingsPending` while their
    pairing of styles is worked out in the background."""
    sides = (home.pk, str(home)), (away.pk, str(away))
    return _pairing_preview(game, options, team_document(home), team_document(away), sides, neutral)


def _pairing_preview(
    game: str,
    options: Mapping[str, Any],
    home_doc: dict[str, Any],
    away_doc: dict[str, Any],
    sides: tuple[tuple[int, str], tuple[int, str]],
    neutral: bool,
) -> dict[str, Any]:
    """Return the preview of two teams' documents (their styles) under a game's options:
    ``sides`` names them, home first, as ``(team id, name)``."""
    ensure_pairings(game, options, [(home_doc, away_doc)])
    kind, odds = match_odds(game, options, home_doc, away_doc)
    spread = odds.expected_home_pts - odds.expected_away_pts
    (home_id, home), (away_id, away) = sides
    favourite = home if spread >= 0 else away
    margin = odds.law("margin")
    return {
        "game": kind.name,
        "game_title": kind.title,
        "home": {"team_id": home_id, "team": home},
        "away": {"team_id": away_id, "team": away},
        "options": dict(options),
        "styles": {"home": home_doc["styles"], "away": away_doc["styles"]},
        "neutral": neutral,
        "method": odds.method,
        "standard_error": odds.standard_error,
        "games_simulated": odds.games,
        "note": method_note(kind, odds),
        "p_home_win": odds.p_home_win,
        "p_away_win": odds.p_away_win,
        "expected_home_pts": odds.expected_home_pts,
        "expected_away_pts": odds.expected_away_pts,
        "predicted_score": {
            "home": round(odds.expected_home_pts),
            "away": round(odds.expected_away_pts),
        },
        "spread": spread,
        # a pairing even to the tenth is said so ("by 0.0" named a favourite it has not)
        "spread_text": f"{favourite} by {abs(spread):.1f}" if round(spread, 1) else "even",
        "total": odds.expected_home_pts + odds.expected_away_pts,
        "most_likely_margin": max(margin.items(), key=lambda kv: kv[1])[0],
        "margin": _law_list(margin),
        "home_score": _law_list(odds.law("home")),
        "away_score": _law_list(odds.law("away")),
        "final_score": [
            {"home": h, "away": a, "p": p} for (h, a), p in odds.final.items() if p >= 1e-6
        ],
    }


# -- the win-probability chart ---------------------------------------------------------------


def check_charted(game: Game) -> None:
    """Raise :class:`OddsUnavailable` for a played game whose kind has no odds during a
    game (grid court: its odds are simulated before the start only)."""
    kind = find_game(game.game)
    if not kind.live_odds:
        raise _unavailable(
            f"{kind.title} has no win probability during a game"
            + (": its odds are simulated before the start only" if kind.has_odds else "")
        )


def chart_chances(game: Game) -> list[list[float]]:
    """Return P(home wins) before each turn of a played game, ``[index of the event that
    starts the turn, P]``, from its own exact odds (the costly part of its chart, kept by
    ``league.odds``)."""
    kind = find_game(game.game)
    result = game.result
    try:
        rules = kind.rules_from_json(result.rules)
        home_doc, away_doc = _game_documents(game)
        points = kind.win_probability(
            result.events, rules, kind.read_team(home_doc), kind.read_team(away_doc)
        )
    except InvalidTeamError as exc:
        raise _unavailable(str(exc)) from exc
    if points is None:
        raise _unavailable(f"{kind.title} has no win probability during a game")
    return [[i, p] for i, p in points]


def win_probability(game: Game, chances: list[list[Any]]) -> dict[str, Any]:
    """Return a played game's chart from its kept chances (:func:`chart_chances`), the
    names and the plays read afresh."""
    kind = find_game(game.game)
    result = game.result
    points = [(int(i), float(p)) for i, p in chances]
    names = {"home": str(game.home), "away": str(game.away)}
    series: list[dict[str, Any]] = []
    texts: list[str] = []
    bounds = [i for i, _ in points] + [len(result.events)]
    for n, (i, p) in enumerate(points):
        series.append(
            {
                "period": 1,
                "number": n,
                "team": result.events[i].get("offense") or result.events[i].get("team") or "",
                "margin": _margin(result.events[:i]),
                "p_home": p,
            }
        )
        texts.append(_turn_text(result.events[i : bounds[n + 1]], names))
    final = result.home_score - result.away_score
    series.append(
        {"period": 1, "number": 0, "team": "", "margin": final, "p_home": float(final > 0)}
    )
    swings = []
    for i, text in enumerate(texts):
        delta = series[i + 1]["p_home"] - series[i]["p_home"]
        if round(abs(delta) * 100) >= 1:  # a swing a fan would see
            swings.append({"trip": i, "delta": delta, "text": text})
    swings.sort(key=lambda s: -abs(s["delta"]))
    return {
        "game_id": game.pk,
        "game": kind.name,
        "game_title": kind.title,
        "home": names["home"],
        "away": names["away"],
        "method": "exact",
        "note": f"Exact from the position before each roll ({_title(kind)}, each team's "
        "coach style for the rest of the game"
        + (
            "; a side played by hand is assumed to play its coach style from there)."
            if isinstance(result.dice, dict) and result.dice.get("hands")
            else ")."
        ),
        "chart_label": "Win probability before every roll",
        "pregame": series[0]["p_home"],
        "points": series,
        "swings": sorted(swings[:SWINGS], key=lambda s: s["trip"]),
    }


def _game_documents(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return both teams' documents: a played game's as stored with its result (the
    styles it was played with), else the teams' own today."""
    result = getattr(game, "result", None) if game.status == Game.Status.FINAL else None
    if result is not None and result.home_team_file:
        return (
            played_team_file(game.game, result.home_team_file),
            played_team_file(game.game, result.away_team_file),
        )
    return team_document(game.home), team_document(game.away)


def pairing_kept(game: Game) -> bool:
    """Tell whether a game's odds (its pairing of styles under its rules) are kept,
    so a page can show them without working them out."""
    kind = find_game(game.game)
    home_doc, away_doc = _game_documents(game)
    key = _odds_key(kind, kind.make_rules(**dict(game.options)), home_doc, away_doc)
    return key in _kept_many([key])


def styles_played(game: Game) -> list[dict[str, Any]]:
    """Return each team's coach style in a game, visitor first, each choice in words: a
    played game's as stored with its result (what the team did that day, whatever its
    style is now), a scheduled game's as the team plays today; a side played by hand at
    the table made its own choices, and says so (its style chose nothing). ``[]`` for a
    game without styles, or a stored team file the game no longer reads."""
    kind = find_game(game.game)
    if not kind.has_styles:
        return []
    home_doc, away_doc = _game_documents(game)
    result = getattr(game, "result", None) if game.status == Game.Status.FINAL else None
    dice = result.dice if result is not None else None
    by_hand = set(dice.get("hands", ())) if isinstance(dice, dict) else set()
    try:
        return [
            {
                "side": side,
                "team": str(team),
                "choices": [("Every choice", "made by hand at the table")]
                if side in by_hand
                else kind.describe_style(kind.read_team(dict(doc)).style),
            }
            for side, team, doc in (("away", game.away, away_doc), ("home", game.home, home_doc))
        ]
    except InvalidTeamError:
        return []


SIMULATED_PAIRINGS = 6
"""With no workers to send them to (a command, a test), at most this many pairings of
styles are simulated in place for one season's or bracket's odds (grid court: 1,000 games
each); beyond it every game takes the default styles' law."""
BACKGROUND_PAIRINGS = 200
"""With workers, at most this many: each is sent to them and the page says how many are
ready until all are (a grid court pairing is some 3 to 10 s of a worker). An 8-team grid
court bracket meets 28 pairings of styles, a 12-team season up to 66: with the cap of 6
their odds were every game a coin, while the teams' styles made one of them a 46% favourite
(a reviewer's research run)."""


def pairings_limit() -> int:
    """Return how many pairings of styles a season's odds simulate (see above)."""
    return BACKGROUND_PAIRINGS if background.available() else SIMULATED_PAIRINGS


class PairOdds:
    """P(home wins) of every pairing of a season's teams, worked out once per pair of the
    styles they play (a game's odds depend on the teams only through their styles).

    ``pairs`` are the (home, away) team ids that can meet. Six dice solves each pairing
    exactly (a fraction of a second); a game whose odds are simulated (grid court) runs a
    pairing in seconds, so when more than :func:`pairings_limit` pairings of styles other
    than default against default would meet, every game takes the default styles' law and
    :attr:`styles_counted` says so.
    """

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        teams: list[Team],
        pairs: list[tuple[int, int]],
    ) -> None:
        self.game, self.options = game, options
        self.docs = {t.pk: team_document(t) for t in teams}
        self._keys = {
            pk: json.dumps(doc["styles"].get(game), sort_keys=True) for pk, doc in self.docs.items()
        }
        self._odds: dict[tuple[str, str], MatchOdds] = {}
        ensure_pairings(game, options, [(None, None)])
        _, self.default = match_odds(game, options)
        needed = {(self._keys[h], self._keys[a]): (h, a) for h, a in pairs if h != a}
        self.needed = len(needed)
        self.limit = pairings_limit()
        self.styles_counted = self.default.method != "simulated" or len(needed) <= self.limit
        if self.styles_counted:
            ensure_pairings(
                game, options, [(self.docs[h], self.docs[a]) for h, a in needed.values()]
            )

    def odds(self, home: int, away: int) -> MatchOdds:
        if not self.styles_counted:
            return self.default
        key = (self._keys[home], self._keys[away])
        if key not in self._odds:
            self._odds[key] = match_odds(self.game, self.options, self.docs[home], self.docs[away])[
                1
            ]
        return self._odds[key]

    def p_home(self, home: int, away: int) -> float:
        return self.odds(home, away).p_home_win

    @property
    def pairings(self) -> int:
        return len(self._odds)

    def note(self) -> str:
        """Say how the games' odds were worked out and used, in a sentence or two."""
        kind = find_game(self.game)
        if self.styles_counted:
            return method_note(kind, self.default) + (
                f" Each game is the coin of its pairing of coach styles ({self.pairings} "
                "pairings of styles)."
            )
        default = self.default
        return (
            f"Simulated: {default.games:,} seeded games of {_title(kind)} between two teams of "
            f"the default coach style (standard error of P(win) {default.standard_error:.1%}). "
            f"The teams' own styles are not counted here: the games that can be played meet "
            f"{self.needed} pairings of styles, more than the {self.limit} a season's odds "
            "simulate, so every game is that one coin; a game's own preview counts both "
            "teams' styles and may differ."
        )


def _margin(events: list[dict[str, Any]]) -> int:
    for e in reversed(events):
        if e.get("type") == "score":
            return int(e["home"]) - int(e["away"])
    return 0


def _turn_text(events: list[dict[str, Any]], names: Mapping[str, str]) -> str:
    """Say what a turn did: its scores and steals, else who won the roll."""
    out = []
    for e in events:
        who = names.get(str(e.get("team", "")), "")
        if e.get("type") == "score":
            out.append(
                f"{who} scores {e['points']} ({names['away']} {e['away']}, "
                f"{names['home']} {e['home']})."
            )
        elif e.get("type") == "steal":
            out.append(f"Steal by {who}.")
    if not out and events and events[0].get("type") == "main_roll":
        out.append(f"{names.get(events[0]['winner'], '')} wins the roll.")
    return " ".join(out) or "No score."


# -- season odds -----------------------------------------------------------------------------


def season_odds(
    season: Season, *, seasons: int = 10_000, seed: int | None = None
) -> dict[str, Any]:
    """Return each team's chances of finishing first and at each place of its conference,
    the games left sampled with the game's own P(home wins) (the same for every pairing)."""
    started = time.perf_counter()
    kind = find_game(season.game)
    entries = list(SeasonTeam.objects.filter(season=season).select_related("team"))
    index = {e.team_id: i for i, e in enumerate(entries)}
    scheduled = list(Game.objects.filter(season=season).values_list("home_id", "away_id", "status"))
    pairs = PairOdds(
        season.game,
        season.options,
        [e.team for e in entries],
        [(h, a) for h, a, status in scheduled if status != Game.Status.FINAL],
    )
    odds = pairs.default
    played: list[season_sampling.Played] = []
    left: list[season_sampling.Left] = []
    for home, away, status, conf, hs, as_ in Game.objects.filter(season=season).values_list(
        "home_id",
        "away_id",
        "status",
        "conference_game",
        "result__home_score",
        "result__away_score",
    ):
        if status == Game.Status.FINAL:
            played.append(season_sampling.Played(index[home], index[away], hs > as_, conf))
        else:
            left.append(
                season_sampling.Left(index[home], index[away], pairs.p_home(home, away), conf)
            )
    groups = season_sampling.groups_of([e.conference for e in entries])
    sampled = season_sampling.sample_places(
        len(entries),
        groups,
        played,
        left,
        seasons=seasons,
        rng=np.random.default_rng(season.seed if seed is None else seed),
        final=None if left else standings_order(season.pk, index),
    )
    rows = season_sampling.place_rows(
        [(e.team_id, str(e.team), e.conference) for e in entries], groups, played, sampled
    )
    return {
        "season_id": season.pk,
        "game": kind.name,
        "game_title": kind.title,
        "seasons": seasons,
        "seed": season.seed if seed is None else seed,
        "games_left": len(left),
        "p_home_win": odds.p_home_win,
        "method": odds.method,
        "standard_error": odds.standard_error,
        "note": pairs.note(),
        "style_pairings": pairs.pairings,
        "styles_counted": pairs.styles_counted,
        "coach_policy": True,
        "tiebreak": season_sampling.TIEBREAK,
        "teams": rows,
        "seconds": time.perf_counter() - started,
    }


# -- bracket odds ----------------------------------------------------------------------------


def _stored(season: Season) -> dict[str, tuple[int, frozenset[int]]]:
    out = {}
    for key, home, away, hs, as_ in (
        Game.objects.filter(season=season, status=Game.Status.FINAL)
        .exclude(bracket_key="")
        .values_list(
            "bracket_key", "home_id", "away_id", "result__home_score", "result__away_score"
        )
    ):
        out[key] = (home if hs > as_ else away, frozenset((home, away)))
    return out


def bracket_odds(
    season: Season, *, whatif: Mapping[str, int] | None = None, before_start: bool = False
) -> dict[str, Any]:
    """Return every team's chance to reach each round and to win the tournament, the
    game's own P(home wins) for every game (the top team at home): exact over the bracket,
    sampled when it is reseeded."""
    started = time.perf_counter()
    kind = find_game(season.game)
    bracket = season_bracket(season)
    stored = {} if before_start else _stored(season)
    whatif = {} if before_start else whatif or {}
    winners, kinds = whatif_winners(bracket, stored, whatif)
    teams = sorted(bracket.seeds, key=lambda t: (bracket.seeds[t], t))
    index = {t: i for i, t in enumerate(teams)}
    can_meet = brackets.meeting_pairs(bracket)
    pairs = PairOdds(season.game, season.options, list(Team.objects.filter(pk__in=teams)), can_meet)
    odds = pairs.default
    # A pair that cannot meet (NaN) counts for nothing in the bracket's law.
    p = np.full((len(teams), len(teams)), np.nan)
    for h, a in can_meet:
        p[index[h], index[a]] = pairs.p_home(h, a)
    reseeded = any(
        isinstance(s, brackets.Reseeded) for g in bracket.games for s in (g.top, g.bottom)
    )
    sampling_error = 0.0
    if reseeded:
        reach, champion = _sampled(bracket, winners, index, p, season.seed or 0)
        sampling_error = 0.5 / np.sqrt(SAMPLED_BRACKETS)
    else:
        reach, champion = brackets.bracket_law(bracket, winners, index, p)
    entry_of = {
        e.team_id: e for e in SeasonTeam.objects.filter(season=season).select_related("team")
    }
    rows: list[dict[str, Any]] = [
        {
            "team_id": t,
            "team": str(entry_of[t].team) if t in entry_of else str(t),
            "seed": bracket.seeds[t],
            "region": entry_of[t].region if t in entry_of else "",
            "reach": [float(x) for x in reach[index[t]]],
            "champion": float(champion[index[t]]),
        }
        for t in teams
    ]
    rows.sort(key=lambda r: (-r["champion"], r["seed"], r["team"]))
    return {
        "season_id": season.pk,
        "game": kind.name,
        "game_title": kind.title,
        "p_home_win": odds.p_home_win,
        "method": "sampled" if reseeded else odds.method,
        "standard_error": sampling_error,
        "game_standard_error": odds.standard_error,
        "note": pairs.note(),
        "style_pairings": pairs.pairings,
        "styles_counted": pairs.styles_counted,
        "coach_policy": True,
        "final_games": len(stored),
        "whatif": [{"key": k, "winner_id": v, "kind": kinds[k]} for k, v in sorted(whatif.items())],
        "rounds": [
            {
                "number": r,
                "name": round_name(bracket, r),
                "slots": 2 * sum(1 for g in bracket.games if g.round == r),
            }
            for r in range(1, bracket.rounds + 1)
        ],
        "teams": rows,
        "seconds": time.perf_counter() - started,
    }


def _sampled(
    bracket: brackets.Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p_home: Any,
    seed: int,
) -> tuple[Any, Any]:
    """Sample whole brackets round by round (reseeding included), seeded."""
    rng = np.random.default_rng(seed)
    reach = np.zeros((len(index), bracket.rounds))
    champion = np.zeros(len(index))
    for _ in range(SAMPLED_BRACKETS):
        won = dict(winners)
        for number in range(1, bracket.rounds + 1):
            teams = brackets.entrants(bracket, won)
            for game in (g for g in bracket.games if g.round == number):
                top, bottom = teams[game.key]
                assert top is not None and bottom is not None
                reach[index[top], number - 1] += 1
                reach[index[bottom], number - 1] += 1
                if game.key not in won:
                    p = p_home[index[top], index[bottom]]
                    won[game.key] = top if rng.random() < p else bottom
                if number == bracket.rounds:
                    champion[index[won[game.key]]] += 1
    return reach / SAMPLED_BRACKETS, champion / SAMPLED_BRACKETS
