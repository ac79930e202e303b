"""What a fan's trial of six-dice and grid-court pages found (2026-11-27): a preview that
said the visitor "starts" a game opened by a jump ball, a REROLL column and leader board of
zeros in a season without the Power Chip reroll, a team's coach styles pushed off the side
of a desktop page, a finished season's odds "sampled from each of the 0 games left", a bye
read as a 0% chance to reach the round a top seed skips."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from league import gamestats, other_odds, replays, services, tournaments
from league.errors import WhatIfRefused
from league.games import league_game
from league.models import Game, GameResult, Season
from league.templatetags.odds_charts import pct
from tests import factories
from tests.factories import TeamFactory


def _played(chip_reroll: bool) -> Season:
    season = factories.make_season(
        teams=3, game="sixdice", league=f"Dice {chip_reroll}", seed=5, start_date=None,
        options={"chip_reroll": chip_reroll},
    )  # fmt: skip
    for game in season.games.all():
        services.game_simulate(game_id=game.pk)
    return season


@pytest.mark.django_db
def test_a_six_dice_preview_never_says_the_visitor_starts_a_game_opened_by_a_jump_ball(
    client: Client,
) -> None:
    season = factories.make_season(teams=2, game="sixdice", league="Jump", seed=5)
    game = season.games.order_by("pk").first()
    assert game is not None
    html = client.get(f"/games/{game.pk}/").content.decode()
    preview = html.split('id="preview"')[1].split("</table>")[0]
    assert str(game.away) in preview and "(home)" in preview
    assert "(starts)" not in preview  # six dice's jump ball decides who has the ball
    # grid court's visitor is on offense first (its rulings §2.1): its preview says so
    assert league_game("gridcourt").away_starts and not league_game("sixdice").away_starts


@pytest.mark.django_db
def test_a_six_dice_season_without_the_chip_reroll_shows_no_reroll_column_or_board(
    client: Client,
) -> None:
    plain, rerolls = _played(False), _played(True)
    assert "chip_rerolls" not in [c.key for c in gamestats.team_stats(plain).columns]
    assert "chip_rerolls" in [c.key for c in gamestats.team_stats(rerolls).columns]
    for season, shown in ((plain, False), (rerolls, True)):
        page = client.get(f"/seasons/{season.pk}/").content.decode()
        stats = page.split("Team stats (per game)")[1]
        assert ('title="Power Chip rerolls">REROLL</abbr>' in stats) is shown
        leaders = client.get(f"/seasons/{season.pk}/leaders/").content.decode()
        assert ('data-category="chip_rerolls"' in leaders) is shown
        # the other boards are all there
        assert 'data-category="chip_plays"' in leaders and 'data-category="dunks"' in leaders
    # the API's team stats read the same columns
    rows = client.get(f"/api/seasons/{plain.pk}/team-stats/").json()["results"]
    assert rows and all("chip_rerolls" not in row["totals"] for row in rows)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_team_s_coach_styles_read_whole_on_a_desktop_page(browser, live_server) -> None:
    team = TeamFactory()
    browser.set_window_size(1280, 900)
    browser.get(f"{live_server.url}/teams/{team.pk}/")
    widths = browser.execute_script(
        "const box = document.querySelector('#styles .scroll');"
        "return [box.scrollWidth, box.clientWidth, "
        "document.querySelectorAll('#styles tbody tr').length]"
    )
    assert widths[2] >= 7  # grid court's four choices and six dice's three
    # every choice's words wrap inside the page: none is cut off at the side
    assert widths[0] <= widths[1], widths
    text = browser.find_element("css selector", "#styles").text
    assert re.search(r"patience\s+\d+: waits", text)


@pytest.mark.django_db
def test_a_finished_six_dice_season_s_odds_page_says_the_season_is_over(client: Client) -> None:
    season = _played(False)
    page = client.get(f"/seasons/{season.pk}/odds/").content.decode()
    assert "Every game is played: these are the final places" in page
    assert "0 games left" not in page and "seasons sampled" not in page
    assert page.count('<tr data-team="') == 3
    # Its rows in the standings' order, each team in its one place (they were listed by
    # wins, which a tiebreaker or a conference record can order otherwise).
    listed = [int(t) for t in re.findall(r'<tr data-team="(\d+)"', page)]
    standings = client.get(f"/seasons/{season.pk}/").content.decode()
    table = standings[standings.index('class="data standings"') :]
    ordered = [
        int(t)
        for t in re.findall(
            r'<tr data-team="[^"]*"><td class="text"><a href="/teams/(\d+)/"', table
        )
    ]
    assert listed == ordered[:3]
    for n, row in enumerate(re.findall(r'<tr data-team="\d+">(.*?)</tr>', page)):
        cells = re.findall(r"<td>([^<]*)</td>", row)[2:]  # W, expected W, then places 2..
        assert n == 0 or cells[n - 1] == "100%", (n, cells)


@pytest.mark.django_db
def test_a_bye_reads_as_a_bye_in_the_odds_before_the_first_game(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    top, *rest = teams = [TeamFactory() for _ in range(3)]  # No. 1 waits for the 2-3 winner
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Bye League"),
        name="Bye Cup",
        teams=teams,
        seed=4,
        game="sixdice",
    )
    for _ in range(2):
        for game in cup.games.filter(status=Game.Status.SCHEDULED):
            with django_capture_on_commit_callbacks(execute=True):
                services.game_simulate(game_id=game.pk)
    assert cup.games.filter(status=Game.Status.FINAL).count() == 2
    page = client.get(f"/seasons/{cup.pk}/bracket/").content.decode()
    history = page.split('class="data odds history"')[1].split("</table>")[0]
    row = re.search(rf'<tr data-team="{top.pk}".*?</tr>', history, re.S)
    assert row is not None
    # The first round's column is left out (who plays in it is certain: it tells nobody
    # apart); the final's says the No. 1 waits in it for sure.
    assert "Round 1" not in history.split("</thead>")[0]
    reach = re.findall(r'<td class="reach">([^<]*)</td>', row.group(0))
    assert reach == ["100%"], reach  # straight into the final
    assert 'class="reach">0%' not in history
    for team in rest:  # the two who played the first round: a real chance each
        other = re.search(rf'<tr data-team="{team.pk}".*?</tr>', history, re.S)
        assert other is not None
        (chance,) = re.findall(r'<td class="reach">([^<]*)</td>', other.group(0))
        assert chance not in ("100%", "0%", "bye"), chance


@pytest.mark.django_db
def test_a_season_and_a_tournament_page_say_what_their_game_is_and_its_rules_in_words(
    client: Client,
) -> None:
    dice = factories.make_season(
        teams=2, game="sixdice", league="Rules Dice", options={"chip_reroll": True}
    )
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Rules Grid"),
        name="Rules Cup",
        teams=[TeamFactory() for _ in range(4)],
        seed=9,
        game="gridcourt",
        options={"pieces": 3, "width": 13},
    )
    about = {
        dice.pk: ("dice game", "Rules of this season: ", "chip reroll</abbr> on."),
        cup.pk: ("board game", "Rules of this tournament: ", "pieces</abbr> 3."),
    }
    for pk, (what, rules, last) in about.items():
        page = client.get(f"/seasons/{pk}/").content.decode()
        line = re.search(r'<p class="game-about">(.*?)</p>', page, re.S)
        assert line is not None, pk
        assert what in line.group(1) and "first team to 21 wins" in line.group(1)
        assert rules in line.group(1) and line.group(1).endswith(last)
    assert (
        'title="columns of the grid">width</abbr> 13'
        in client.get(f"/seasons/{cup.pk}/").content.decode()
    )
    vabg = factories.make_season(teams=2, league="Rules VABG")
    assert 'class="game-about"' not in client.get(f"/seasons/{vabg.pk}/").content.decode()


@pytest.mark.django_db
def test_a_season_with_games_left_links_its_odds_page(client: Client) -> None:
    season = factories.make_season(teams=3, game="sixdice", league="Odds Link", start_date=None)
    first = season.games.order_by("pk").first()
    assert first is not None
    services.game_simulate(game_id=first.pk)
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert f'<a href="/seasons/{season.pk}/odds/">Odds</a>' in page
    assert client.get(f"/seasons/{season.pk}/odds/").status_code == 200
    for game in season.games.exclude(pk=first.pk):  # once over, the standings say it all
        services.game_simulate(game_id=game.pk)
    assert (
        f'href="/seasons/{season.pk}/odds/"'
        not in client.get(f"/seasons/{season.pk}/").content.decode()
    )


@pytest.mark.django_db
def test_a_game_page_shows_the_coach_styles_each_team_played_that_day(client: Client) -> None:
    bold = {"sixdice": {"threes": "outside", "inside": "drive", "chip": "shots"}}
    away, home = TeamFactory(styles=bold), TeamFactory()
    season = factories.make_season(teams=[home, away], game="sixdice", league="Styles Shown")
    game = season.games.get()
    assert game.away_id == away.pk
    scheduled = client.get(f"/games/{game.pk}/").content.decode()
    assert "each team makes today" in scheduled and "outside: shoots a 3" in scheduled
    services.game_simulate(game_id=game.pk)
    away.styles = {"sixdice": {"threes": "top"}}  # the commissioner changes it afterwards
    away.save()
    page = client.get(f"/games/{game.pk}/").content.decode()
    section = page.split('<section id="styles">')[1].split("</section>")[0]
    rows = re.findall(r'<tr data-side="(\w+)">(.*?)</tr>', section, re.S)
    mine = " ".join(text for side, text in rows if side == "away")
    assert str(away) in mine and "outside: shoots a 3" in mine and "drive:" in mine
    assert "top:" not in mine  # the game keeps the style it was played with
    theirs = " ".join(text for side, text in rows if side == "home")
    assert str(home) in theirs and "never:" in theirs  # the default style, in words
    assert "In this game" in section


@pytest.mark.django_db
def test_the_lists_of_seasons_name_each_season_s_game(client: Client) -> None:
    dice = factories.make_season(teams=2, game="sixdice", league="Lists Dice", name="Dice")
    grid = factories.make_season(teams=2, game="gridcourt", league="Lists Grid", name="Grid")
    vabg = factories.make_season(teams=2, league="Lists VABG", name="Plain")
    for url in ("/", "/seasons/"):
        page = client.get(url).content.decode()
        kinds = dict(
            re.findall(
                r'<a href="/seasons/(\d+)/">[^<]*</a></td><td class="text(?: wrap)?">([^<]*)</td>',
                page,
            )
        )
        assert kinds[str(dice.pk)] == "Season · Six dice to 21", url
        assert kinds[str(grid.pk)] == "Season · Grid court", url
        assert kinds[str(vabg.pk)] == "Season", url  # the site's own game goes unsaid


@pytest.mark.django_db
def test_a_six_dice_tournament_page_shows_a_few_leader_boards_and_links_every_one(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Boards League"),
        name="Boards Cup",
        teams=[TeamFactory() for _ in range(2)],
        seed=6,
        game="sixdice",
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.game_simulate(game_id=cup.games.get().pk)
    page = client.get(f"/seasons/{cup.pk}/").content.decode()
    section = page.split('<section id="leaders">')[1].split("</section>")[0]
    shown = re.findall(r'data-category="(\w+)"', section)
    # of six dice's 26 boards (no REROLL without the chip reroll), the ones a fan follows
    assert shown == list(league_game("sixdice").headline_boards)
    assert shown[:2] == ["score", "dunks"] and "inbound_rounds" not in shown
    assert f'href="/seasons/{cup.pk}/leaders/">Every leader board' in section
    # six dice ranks teams: each row names its team once ("1. State 1 2000", not twice)
    rows = re.findall(r'<td class="text">(\d+\. [^<]*(?:<span[^>]*>[^<]*</span>)?)</td>', section)
    assert rows and all("<span" not in row for row in rows), rows[:2]
    every = client.get(f"/seasons/{cup.pk}/leaders/").content.decode()
    assert len(set(re.findall(r'data-category="(\w+)"', every))) == 26


@pytest.mark.django_db
def test_the_leaders_page_names_what_its_game_ranks(client: Client) -> None:
    dice = _played(False)
    grid = factories.make_season(
        teams=2, game="gridcourt", league="Leaders Grid", seed=5, start_date=None,
        options={"pieces": 3},
    )  # fmt: skip
    services.game_simulate(game_id=grid.games.get().pk)
    for season, noun in ((dice, "team"), (grid, "piece")):
        page = client.get(f"/seasons/{season.pk}/leaders/").content.decode()
        assert f"To rank per game, a {noun} needs" in page
        assert "counts its games" in page and "his games" not in page
        heads = set(re.findall(r'<thead><tr><th class="text">(\w+)</th>', page))
        assert heads == {noun.capitalize()}, heads  # never "Player" above a team or a piece


@pytest.mark.django_db
def test_the_last_play_gives_the_winner_s_score_first(client: Client) -> None:
    seasons = [_played(False)]
    # The winners follow the factory teams' styles, which follow what ran before: seasons
    # are played until one game has a home winner (the line once gave its score second).
    for seed in range(5, 10):
        grid = factories.make_season(
            teams=3, game="gridcourt", league=f"Last Play Grid {seed}", seed=seed,
            start_date=None,
        )  # fmt: skip
        for game in grid.games.all():
            services.game_simulate(game_id=game.pk)
        seasons.append(grid)
        if any(r.home_score > r.away_score for r in GameResult.objects.filter(game__season=grid)):
            break
    home_won = []
    for game in Game.objects.filter(season__in=seasons).select_related("result", "home", "away"):
        result = game.result
        won, lost = sorted((result.home_score, result.away_score), reverse=True)
        last = replays.play_by_play(game, result)[-1][1]  # the page's last line
        winner = game.home if result.home_score > result.away_score else game.away
        assert last.startswith(f"{winner} ") and f"wins {won}-{lost}" in last, last
        if result.home_score > result.away_score:
            home_won.append((game, last))
    assert home_won  # a home winner, whose score the line once gave second
    game, last = home_won[0]
    assert f'<td class="text">{last}</td>' in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_a_played_grid_court_game_shows_its_odds_before_the_game(client: Client) -> None:
    grid = factories.make_season(teams=2, game="gridcourt", league="Before Grid", seed=5)
    game = services.game_simulate(game_id=grid.games.get().pk)
    preview = other_odds.game_preview(game)  # worked out (by a worker, where there is one)
    response = client.get(f"/games/{game.pk}/")
    page = response.content.decode()
    # not "No odds for this game: Grid court has no win probability during a game"
    assert "No odds for this game" not in page
    before = page.split("<h2>Before the game</h2>")[1].split("</section>")[0]
    assert 'data-method="simulated"' in before and str(game.away) in before
    assert f'<td class="p-win">{pct(preview["p_home_win"])}</td>' in before
    assert "max-age" in response.headers.get("Cache-Control", "")  # a played game's page
    six = factories.make_season(teams=2, game="sixdice", league="Before Dice", seed=5)
    played = services.game_simulate(game_id=six.games.get().pk)
    page = client.get(f"/games/{played.pk}/").content.decode()
    assert "Before the game" not in page and 'id="winprob"' in page  # roll by roll instead


@pytest.mark.django_db
def test_a_played_grid_court_game_waits_for_its_odds_before_the_game_uncached(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With workers, a page never runs grid court's 1,000 games: it sends the pairing and
    # says so, and no cache keeps that page as the played game's final one.
    from league import background, tasks

    grid = factories.make_season(
        teams=2, game="gridcourt", league="Waits Grid", seed=5, options={"pieces": 4}
    )
    game = services.game_simulate(game_id=grid.games.get().pk)
    monkeypatch.setattr(background, "available", lambda: True)
    kept: list[dict[str, object]] = []
    other_odds.pairings_wanted.disconnect(sender=Game, dispatch_uid="league.send_pairings")
    other_odds.pairings_wanted.connect(
        lambda sender, **message: kept.append(message),
        sender=Game,
        dispatch_uid="test.kept",
        weak=False,  # a lambda: nothing else holds it
    )
    try:
        response = client.get(f"/games/{game.pk}/")
    finally:
        other_odds.pairings_wanted.disconnect(sender=Game, dispatch_uid="test.kept")
        other_odds.pairings_wanted.connect(
            tasks.send_pairings, sender=Game, dispatch_uid="league.send_pairings"
        )
    page = response.content.decode()
    before = page.split("<h2>Before the game</h2>")[1]
    assert before.startswith('<p class="pending" role="status">') and "0 of 1 pairings" in before
    kept_for = response.headers.get("Cache-Control", "")  # no cache keeps a page that waits
    assert "no-store" in kept_for and "public" not in kept_for and "Last-Modified" not in response
    assert kept and kept[0]["game"] == "gridcourt" and kept[0]["options"]["pieces"] == 4


@pytest.mark.django_db
def test_a_what_if_naming_a_team_not_in_the_game_is_refused_with_the_teams_names(
    client: Client,
) -> None:
    """A trial (2026-11-29) met "game R1-1: team 12 does not play in it" on a six-dice
    bracket's page: a database id, not a team."""
    teams = [TeamFactory(school=f"Dice{i}", season=2000 + i) for i in range(4)]
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="What if"), name="Cup", teams=teams,
        seed=1, game="sixdice", options={},
    )  # fmt: skip
    first = cup.games.get(bracket_key="R1-1")
    other = cup.games.get(bracket_key="R1-2")
    with pytest.raises(WhatIfRefused) as refused:
        other_odds.bracket_odds(cup, whatif={"R1-1": other.away_id})
    said = str(refused.value)
    assert f"{other.away} does not play in game R1-1 ({first.home} v {first.away})" in said
    assert f"team {other.away_id}" not in said
