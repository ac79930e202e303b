"""The pages of grid-court and six-dice games: their own box-score columns and the replay."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from django.test import Client

from league import services
from league.models import Game
from league.templatetags.league_stats import site_name
from simulator.games import find_game
from simulator.sixdice import frames as six_frames
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


def played(game_name: str, **options: object) -> Game:
    league = services.league_get_or_create(name=f"{game_name} pages")
    season = services.season_create(
        league=league,
        name="2026",
        teams=[TeamFactory(), TeamFactory()],
        seed=11,
        game=game_name,
        options=options,
    )
    return services.game_simulate(game_id=season.games.get().pk)


def cells(html: str, key: str) -> list[str]:
    row = re.search(rf'<tr data-key="{key}">(.*?)</tr>', html, re.S)
    assert row is not None, key
    return re.findall(r"<td>(.*?)</td>", row.group(1))


def test_a_six_dice_box_score_shows_every_team_column_of_the_game(client: Client) -> None:
    game = played("sixdice")
    html = client.get(f"/games/{game.pk}/").content.decode()
    box = game.result.box
    for column in find_game("sixdice").team_columns:
        assert cells(html, column.key) == [
            str(box["away"][column.key]),
            str(box["home"][column.key]),
        ]
    assert cells(html, "score") == [str(game.result.away_score), str(game.result.home_score)]
    assert f'href="/games/{game.pk}/replay/"' in html
    assert "Play-by-play" in html and "Jump ball" in html
    # The rule options read as words, each explained; the dice faces have a legend.
    assert "chip_reroll False" not in html and "chip reroll</abbr> off" in html
    assert "B Ball, P Pass, S Shot or Steal, F Free throw" in html


def test_a_grid_court_box_score_shows_its_piece_lines(client: Client) -> None:
    game = played("gridcourt", pieces=4)
    html = client.get(f"/games/{game.pk}/").content.decode()
    engine = find_game("gridcourt")
    for column in engine.columns:  # each header says what it abbreviates
        assert f'<th><abbr title="{column.title}">{column.label}</abbr></th>' in html
    for side in ("away", "home"):
        table = re.search(rf'<table class="lines" data-side="{side}">(.*?)</table>', html, re.S)
        assert table is not None
        assert len(re.findall(r"<tr data-line=", table.group(1))) == 4
    assert f'href="/games/{game.pk}/replay/"' in html
    # The play-by-play reads as the replay does, each line under its turn: no raw events.
    assert "made False" not in html and "made True" not in html and " rolls " in html
    assert f'href="/games/{game.pk}/replay/?turn=0"' not in html


def test_the_grid_court_replay_moves_the_pieces_turn_by_turn(client: Client) -> None:
    game = played("gridcourt", pieces=3, width=13)
    result = game.result
    frames = (
        find_game("gridcourt")
        .replay_frames(result.events, result.rules, {"away": "A", "home": "H"})
        .frames
    )
    rolls = [e for e in result.events if e["type"] == "roll"]
    assert [f.dice for f in frames] == [e["dice"] for e in rolls]
    # Replaying the steps by hand: after each turn the pieces stand where the events say.
    cells: dict[tuple[str, int], tuple[int, int]] = {}
    turn, checked = 0, 0
    for e in [*result.events, {"type": "reset", "away": [], "home": []}]:
        if e["type"] in ("reset", "roll") and turn > checked:
            # The turn's frame shows the pieces as its last event left them.
            shown = {(p.team, p.number): (p.row, p.column) for p in frames[turn - 1].pieces}
            assert shown == cells, turn
            checked = turn
        if e["type"] == "reset":
            for side in ("away", "home"):
                for n, cell in enumerate(e[side], start=1):
                    cells[(side, n)] = tuple(cell)
        elif e["type"] == "step":
            cells[(e["team"], e["piece"])] = tuple(e["to"])
        elif e["type"] == "roll":
            turn += 1
    assert turn == len(frames)
    last = frames[-1]
    assert (last.away_score, last.home_score) == (result.away_score, result.home_score)
    assert all(1 <= p.column <= 13 and 1 <= p.row <= 10 for f in frames for p in f.pieces)
    moved = next(f for f in frames if f.paths)
    html = client.get(f"/games/{game.pk}/replay/?turn={moved.number}").content.decode()
    assert f"Turn {moved.number} of {len(frames)}" in html
    assert html.count('class="piece piece-') == 6
    assert html.count("<rect x=") >= 130  # the 10 x 13 board
    for p in moved.pieces:
        assert (
            f'data-team="{p.team}" data-piece="{p.number}" data-cell="{p.row},{p.column}"' in html
        )
    assert 'class="path path-' in html
    assert client.get(f"/games/{game.pk}/replay/?turn=x").status_code == 200


def test_an_unplayed_six_dice_game_has_a_page_and_no_replay(client: Client) -> None:
    league = services.league_get_or_create(name="Unplayed")
    season = services.season_create(
        league=league, name="S", teams=[TeamFactory(), TeamFactory()], seed=2, game="sixdice"
    )
    game = season.games.get()
    assert "Not played yet" in client.get(f"/games/{game.pk}/").content.decode()
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404


def test_the_replay_follows_the_pawn_the_chip_and_the_dice_turn_by_turn(client: Client) -> None:
    game = played("sixdice", chip_reroll=True)
    result = game.result
    frames = (
        find_game("sixdice")
        .replay_frames(
            result.events, result.rules, {"away": str(game.away), "home": str(game.home)}
        )
        .frames
    )
    # One turn per roll; every turn shows its dice and, once the jump ball is won (a tied
    # one is rolled again with no one holding the chip or the ball yet), the chip with one
    # team and the pawn on court.
    rolls = [e for e in result.events if e["type"] in six_frames.KINDS]
    assert len(frames) == len(rolls)
    won = False
    for frame, event in zip(frames, rolls, strict=True):
        won = won or frame.chip is not None
        if not won:
            assert frame.kind == "jump ball" and frame.section is None
            continue
        assert frame.chip in ("away", "home")
        assert frame.section is not None and 1 <= frame.section <= 14
        for side, dice in frame.dice.items():
            expected = event["dice"] if event["type"] == "free_throw" else event[side]
            assert [d.value for d in dice] == list(expected)
            assert all(d.face == "BBBPSF"[d.value - 1] for d in dice)
    last = frames[-1]
    assert (last.away_score, last.home_score) == (result.away_score, result.home_score)
    # The chip moves exactly when the events say it was played or handed over.
    handed = sum(
        1
        for e in result.events
        if e["type"] == "chip_reroll" or (e["type"] in ("main_roll", "shot") and e["chip"])
    )
    changes = sum(1 for a, b in pairwise(frames) if a.chip is not None and a.chip != b.chip)
    assert changes <= handed
    # The page of a turn draws that turn.
    turn = len(frames) // 2
    html = client.get(f"/games/{game.pk}/replay/?turn={turn}").content.decode()
    frame = frames[turn - 1]
    assert f'data-section="{frame.section}"' in html and f'data-chip="{frame.chip}"' in html
    assert f"Turn {turn} of {len(frames)}" in html
    assert f'href="?turn={turn + 1}#turns" id="next"' in html  # opens at the turns
    assert f'href="?turn={turn - 1}#turns" id="prev"' in html
    # Out-of-range turns are clamped; a VABG game has no replay.
    assert "Turn 1 of" in client.get(f"/games/{game.pk}/replay/?turn=0").content.decode()
    html = client.get(f"/games/{game.pk}/replay/?turn=99999").content.decode()
    assert f"Turn {len(frames)} of {len(frames)}" in html and 'id="next"' not in html


def test_the_chip_starts_with_the_defense_and_moves_when_played() -> None:
    events = [
        {"type": "start", "home_school": "H", "home_season": 1, "away_school": "A",
         "away_season": 1},
        {"type": "jump_ball", "away": [1, 1, 1, 4, 5, 6], "home": [4, 4, 5, 5, 6, 6],
         "away_balls": 3, "home_balls": 0, "winner": "away", "section": 8},
        {"type": "main_roll", "number": 1, "offense": "away", "depth": 1,
         "away": [1, 1, 4, 5, 6, 6], "home": [1, 1, 4, 5, 6, 6], "away_play": "B", "away_n": 2,
         "home_play": "B", "home_n": 2, "winner": "home", "chip": True},
        {"type": "push", "team": "home", "play": "B", "sections": 2, "section": 6},
        {"type": "steal", "team": "home", "kind": "push", "section": 6},
    ]  # fmt: skip
    frames = six_frames.frames_of(events, {"faces": "BBBPSF"}, {"away": "A", "home": "H"})
    assert [(f.kind, f.section, f.offense, f.chip) for f in frames] == [
        ("jump ball", 8, "away", "home"),
        ("main roll", 6, "home", "away"),
    ]
    assert [d.face for d in frames[0].dice["home"]] == ["P", "P", "S", "S", "F", "F"]
    assert frames[1].notes[-1] == "Steal by H pushing past half court, section 6."


def test_a_six_dice_season_s_odds_page_shows_six_dice_odds_not_vabg_s(client: Client) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="sixdice odds pages"),
        name="2026",
        teams=[TeamFactory() for _ in range(3)],
        seed=11,
        game="sixdice",
    )
    first = season.games.order_by("pk").first()
    assert first is not None
    services.game_simulate(game_id=first.pk)  # two games left for the odds to sample
    page = client.get(f"/seasons/{season.pk}/odds/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "(the home team 50.0% when both keep the default)" in html and "coach policy" not in html
    assert f"· {site_name('sixdice')}</title>" in html  # its own game's league, as its pages
    assert client.get(f"/seasons/{season.pk}/").status_code == 200


def test_the_box_score_s_starters_are_the_team_file_s_starters_not_the_opening_lineup() -> None:
    # Under both rotations (rulings §2) a slot's reserve plays numbers 44-38, the opening:
    # listing who was on the floor first put Kansas 2008's five reserves under "Starters"
    # and Anthony Davis on Kentucky 2012's bench. The box score follows the cards' roles.
    from types import SimpleNamespace

    from league.presentation import _starters

    events = [
        {"type": "tipoff"},
        *({"type": "enter", "team": "home", "slot": n, "player": p} for n, p in
          enumerate(["Mario Chalmers", "Sherron Collins"], start=1)),
        {"type": "trip", "team": "away"},
    ]  # fmt: skip
    files = {
        "home": {"players": [{"name": "Mario Chalmers", "role": "starter"},
                             {"name": "Sherron Collins", "role": "reserve"}]},
        "away": {"players": [{"name": "Anthony Davis", "role": "starter"}]},
    }  # fmt: skip
    result = SimpleNamespace(events=events, team_file=lambda side: files[side])
    assert _starters(result) == {"home": {"Mario Chalmers"}, "away": {"Anthony Davis"}}
