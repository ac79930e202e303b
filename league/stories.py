"""Game stories and a tournament's page, told from the stored events and box scores alone.

The words come from ``simulator.vabg.words`` (pure); this module hands it what the league
stored: the events, the box score's lines, the seeds of a tournament and the round's name.
A story and its box score can be copied as Markdown or HTML for a blog post.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import F
from django.utils.html import escape

from league import gamestats, tournaments
from league.games import league_game
from league.models import BoxLine, Game, GameResult, Season, SeasonTeam
from league.presentation import BoxScore, Side, current_names, renamed_events
from simulator.vabg.events import event_from_json
from simulator.vabg.words import (
    UPSET_SEED_GAP,
    Die,
    Facts,
    Line,
    Star,
    headline,
    is_upset,
    plain_lines,
    story,
)

STORY_COLUMNS = (
    ("pts", "PTS"),
    ("fg", "FG"),
    ("tp", "3P"),
    ("ft", "FT"),
    ("reb", "REB"),
    ("stl", "STL"),
    ("blk", "BLK"),
    ("to", "TO"),
    ("pf", "PF"),
)
"""The box-score columns a blog post shows (made-tried pairs read as one column)."""


@dataclass
class GameStory:
    """A stored game's story: its headline and sentences, and the facts they came from."""

    game: Game
    headline: str
    sentences: list[str]
    short: list[str]
    upset: bool
    overtimes: int
    lines: list[Line] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(self.sentences)

    @property
    def short_text(self) -> str:
        return " ".join(self.short)


def labels(game: Game) -> dict[str, str]:
    return {"home": str(game.home), "away": str(game.away)}


def game_lines(
    game: Game, dice: Sequence[Die] = (), *, names: dict[str, str] | None = None
) -> list[Line]:
    """The play-by-play of a stored game in plain words ([] if typed in, or of a game the
    league tells no stories of); ``dice``, the game's dice in order (``replays.vabg_dice``),
    each on the line of its play; ``names``, its renamed players' new names where the
    caller has them (``current_names``)."""
    result = getattr(game, "result", None)
    if result is None or not league_game(game.game).tells_stories or not result.events:
        return []
    events = renamed_events(result.events, current_names(result) if names is None else names)
    return plain_lines([event_from_json(e) for e in events], labels(game), dice)


def _seeds(game: Game, entries: dict[int, SeasonTeam] | None) -> dict[str, int]:
    if game.season_id is None or not game.bracket_key:
        return {}
    if entries is None:
        entries = {
            e.team_id: e
            for e in SeasonTeam.objects.filter(
                season_id=game.season_id, team_id__in=[game.home_id, game.away_id]
            )
        }
    seeds = {}
    for side, team_id in (("home", game.home_id), ("away", game.away_id)):
        entry = entries.get(team_id)
        if entry is not None and entry.seed is not None:
            seeds[side] = entry.seed
    return seeds


def game_heading(game: Game) -> dict[str, Any]:
    """Return what a game's page says above it: the round as fans name it ("Championship",
    "Round 2") and each side's seed in a tournament."""
    name = _round_name(game)
    if not name and game.round:
        name = f"Round {game.round}"
    return {"round_name": name, "seeds": _seeds(game, None)}


def _round_name(game: Game) -> str:
    season = game.season
    if season is None or not game.bracket_key or not season.bracket or not game.round:
        return ""
    return tournaments.round_name(tournaments.season_bracket(season), game.round)


def _stars(rows: Iterable[tuple[str, dict[str, Any]]]) -> list[Star]:
    return [
        Star(side, row["name"], row["pts"], row["reb"], row["fgm"], row["fga"])
        for side, row in rows
    ]


def game_story(
    game: Game,
    *,
    box: BoxScore | None = None,
    lines: list[Line] | None = None,
    box_lines: Sequence[BoxLine] | None = None,
    entries: dict[int, SeasonTeam] | None = None,
) -> GameStory | None:
    """Return the story of a final game, or None before it is played.

    The box score's lines (``box`` or the stored ``box_lines``) give the top lines; the events
    the runs and lead changes; the season's entries the seeds.
    """
    result = getattr(game, "result", None)
    if result is None:
        return None
    if lines is None:
        lines = game_lines(game)
    if box is not None:
        rows = [(side.key, row) for side in box.sides for row in side.lines]
    else:
        if box_lines is None:
            box_lines = list(BoxLine.objects.filter(result=result))
        rows = [
            (
                line.side,
                {
                    "name": line.name,
                    "pts": line.pts,
                    "reb": line.reb,
                    "fgm": line.fgm,
                    "fga": line.fga,
                },
            )
            for line in box_lines
        ]
    facts = Facts(
        labels=labels(game),
        home=result.home_score,
        away=result.away_score,
        overtimes=result.overtimes,
        stars=_stars(rows),
        lines=lines,
        seeds=_seeds(game, entries),
        round_name=_round_name(game),
    )
    return GameStory(
        game=game,
        headline=headline(facts),
        sentences=story(facts),
        short=story(facts, short=True),
        upset=is_upset(facts),
        overtimes=result.overtimes,
        lines=lines,
    )


# -- copying a story and its box score for a blog post ----------------------------------------


def _cell(row: dict[str, Any], key: str) -> str:
    if key == "fg":
        return f"{row['fgm']}-{row['fga']}"
    if key == "tp":
        return f"{row['tpm']}-{row['tpa']}"
    if key == "ft":
        return f"{row['ftm']}-{row['fta']}"
    return str(row[key])


def _linescore(box: BoxScore) -> tuple[list[str], list[list[str]]]:
    head = ["", *box.period_labels, "T"]
    rows = [[side.label, *map(str, side.periods), str(side.score)] for side in box.sides]
    return head, rows


def _side_rows(side: Side) -> list[list[str]]:
    rows = [[row["name"], *(_cell(row, k) for k, _ in STORY_COLUMNS)] for row in side.lines]
    rows.append(["Totals", *(_cell(side.totals, k) for k, _ in STORY_COLUMNS)])
    return rows


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = ["---"] + ["---:"] * (len(head) - 1)
    return "\n".join([line(head), "| " + " | ".join(align) + " |", *map(line, rows)])


def story_markdown(told: GameStory, box: BoxScore | None, *, url: str = "") -> str:
    """The story and the box score as Markdown, ready to paste into a blog post."""
    game = told.game
    parts = [f"## {game.away} {'v' if game.neutral else 'at'} {game.home}", "", told.text]
    if box is not None:
        head, rows = _linescore(box)
        parts += ["", _md_table(head, rows)]
        for side in box.sides:
            header = [side.label, *(label for _, label in STORY_COLUMNS)]
            parts += ["", f"**{side.label}**", "", _md_table(header, _side_rows(side))]
    if url:
        parts += ["", f"[Box score and play-by-play]({url})"]
    return "\n".join(parts) + "\n"


def _html_table(head: list[str], rows: list[list[str]], caption: str = "") -> str:
    out = ["<table>"]
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in head) + "</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def story_html(told: GameStory, box: BoxScore | None, *, url: str = "") -> str:
    """The story and the box score as an HTML fragment for a blog post (no styles, no script)."""
    game = told.game
    title = f"{game.away} {'v' if game.neutral else 'at'} {game.home}"
    parts = [f"<h2>{escape(title)}</h2>", f"<p>{escape(told.text)}</p>"]
    if box is not None:
        head, rows = _linescore(box)
        parts.append(_html_table(head, rows))
        for side in box.sides:
            header = ["Player", *(label for _, label in STORY_COLUMNS)]
            parts.append(_html_table(header, _side_rows(side), caption=side.label))
    if url:
        parts.append(f'<p><a href="{escape(url)}">Box score and play-by-play</a></p>')
    return "\n".join(parts) + "\n"


# -- a tournament's own page ------------------------------------------------------------------


LEADER_BOARDS = ("pts", "reb", "stl", "blk")


def tournament_page(season: Season) -> dict[str, Any]:
    """What a tournament's page leads with: the champion and its final, the results round by
    round (each game with its short story), the upsets by seed, and the leaders."""
    view = tournaments.bracket_view(season)
    entries = {e.team_id: e for e in SeasonTeam.objects.filter(season=season)}
    games = {
        g.pk: g
        for g in Game.objects.filter(season=season, status=Game.Status.FINAL)
        .exclude(bracket_key="")
        .select_related("home", "away", "result")
        # the play-by-play and the dice are read only for a story not kept (deferred)
        .defer("result__events", "result__dice", "result__rules", "result__box")
    }
    for row in games.values():  # the season read once, not its bracket again on every row
        row.season = season
    stories = _short_stories(list(games.values()), entries)
    rounds = []
    upsets = []
    final_story = None
    for round_ in reversed(view["rounds"]):
        played = []
        for slot in round_["games"]:
            game = games.get(slot["game_id"])
            if game is None:
                continue
            told = stories.get(game.pk)
            if told is None:
                continue
            winner, loser = _winner_loser(slot)
            item = {"slot": slot, "game": game, "story": told, "winner": winner, "loser": loser}
            played.append(item)
            if told.upset:
                upsets.append(
                    {**item, "round": round_["name"], "gap": winner["seed"] - loser["seed"]}
                )
            if round_["number"] == view["rounds"][-1]["number"] and view["champion"]:
                final_story = told
        if played:
            rounds.append({"number": round_["number"], "name": round_["name"], "games": played})
    upsets.sort(key=lambda u: (-u["gap"], u["game"].round))
    leaders = gamestats.leader_boards(season, limit=5, vabg_categories=LEADER_BOARDS)
    return {
        "view": view,
        "champion": view["champion"],
        "final_story": final_story,
        "rounds": rounds,
        "upsets": upsets,
        "upset_gap": UPSET_SEED_GAP,
        "leaders": leaders,
        "games_to_come": tournaments.games_to_come(season=season),
    }


STORY_FORMAT = 1
"""Raise when what a story says changes: the kept stories are told again."""


def _short_stories(games: list[Game], entries: dict[int, SeasonTeam]) -> dict[int, GameStory]:
    """Return the stories of a tournament's played bracket games for its page, by game id,
    each kept in the cache by all it is told from (the stored result, the teams' names and
    seeds, the players renamed since): while a run plays the page tells only the games
    stored since it was last drawn (it told all 95 at every new result, a second and more a
    request). The play-by-play's lines are not kept: the page reads none."""
    renamed: dict[int, dict[str, str]] = {}  # each result's players renamed since: new names
    for result_id, old, new in (
        BoxLine.objects.filter(result__game__in=games, player__isnull=False)
        .exclude(player__name=F("name"))
        .values_list("result_id", "name", "player__name")
    ):
        renamed.setdefault(result_id, {})[old] = new
    keys = {}
    for game in games:
        told_from = (
            STORY_FORMAT,
            game.result.pk,
            labels(game),
            _seeds(game, entries),
            _round_name(game),
            sorted(renamed.get(game.result.pk, {}).items()),
        )
        digest = hashlib.blake2b(repr(told_from).encode(), digest_size=16).hexdigest()
        keys[game.pk] = f"tournament-story:{digest}"
    kept = cache.get_many(list(keys.values()))
    out = {}
    for game in games:
        if (parts := kept.get(keys[game.pk])) is not None:
            title, sentences, short, upset, overtimes = parts
            out[game.pk] = GameStory(game, title, list(sentences), list(short), upset, overtimes)
    to_tell = [g for g in games if g.pk not in out]
    events = dict(
        GameResult.objects.filter(game__in=to_tell).values_list("pk", "events")
    )  # one query for the play-by-play of every story to tell (deferred above)
    for game in to_tell:
        game.result.events = events[game.result.pk]
    box_lines: dict[int, list[BoxLine]] = {}
    for line in BoxLine.objects.filter(result__game__in=to_tell).only(
        "result_id", "side", "name", "pts", "reb", "fgm", "fga"
    ):
        # a player renamed since is told by his new name, as on the game's own page
        line.name = renamed.get(line.result_id, {}).get(line.name, line.name)
        box_lines.setdefault(line.result_id, []).append(line)
    told_now = {}
    for game in to_tell:
        result = game.result
        lines = game_lines(game, names=renamed.get(result.pk, {}))
        told = game_story(
            game, box_lines=box_lines.get(result.pk, []), entries=entries, lines=lines
        )
        if told is not None:
            out[game.pk] = told
            told_now[keys[game.pk]] = (
                told.headline, told.sentences, told.short, told.upset, told.overtimes,
            )  # fmt: skip
    if told_now:
        cache.set_many(told_now, timeout=settings.GAME_PAGE_CACHE_SECONDS)
    return out


def _winner_loser(slot: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    top, bottom = slot["top"], slot["bottom"]
    if slot["winner_id"] == top["team_id"]:
        return top, bottom
    return bottom, top
