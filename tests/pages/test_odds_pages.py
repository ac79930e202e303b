"""The odds on the fans' pages: previews, the matchup page, win probability, bracket odds
with what-ifs, season odds; and one fan's clicks in a real browser."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse

from league import odds, other_odds, services, tournaments
from league.models import Game
from simulator.games import find_game
from tests.factories import TeamFactory, full_team

pytestmark = pytest.mark.django_db


def text(response) -> str:  # type: ignore[no-untyped-def]
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def cup():  # type: ignore[no-untyped-def]
    teams = [full_team() for _ in range(3)]
    card = teams[0].players.order_by("order").first().card
    card.d20_made2_hi, card.d20_fouled_lo = 10, 11  # a better shooter: the odds are not even
    card.save()
    return tournaments.tournament_create(
        league=services.league_get_or_create(name="Page Odds"),
        name="Page Cup",
        teams=teams,
        seed=4,
    )


def test_a_scheduled_game_shows_its_preview(client, cup) -> None:
    game = cup.games.get()
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    page = text(response)
    preview = odds.game_preview(game)
    assert f'data-p-home="{preview["p_home_win"]}"' in page
    assert preview["spread_text"] in page
    assert page.count("<svg") == 2  # the score laws and the margin
    assert "Try another matchup" in page


def test_a_played_game_shows_its_win_probability_under_the_box_score(
    client, cup, django_capture_on_commit_callbacks
) -> None:
    game = cup.games.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_simulate(game_id=game.pk)
    game.refresh_from_db()
    page = text(client.get(game.get_absolute_url()))
    assert page.index("Win probability") > page.index("<strong>")  # under the box score
    assert 'aria-label="Win probability after every trip"' in page
    assert page.count("<circle") == len(odds.win_probability(game)["swings"])
    assert "The swing plays" in page


def test_the_matchup_page_previews_any_two_teams(client) -> None:
    home, away = full_team(school="Home U"), full_team(school="Away State")
    response = client.get(reverse("matchup"))
    assert response.status_code == 200 and "Home U" in text(response)
    url = f"{reverse('matchup')}?home={home.pk}&away={away.pk}&rules=basic&court=neutral"
    page = text(client.get(url))
    preview = odds.matchup_preview(home_id=home.pk, away_id=away.pk, rules="basic", neutral=True)
    assert f'data-p-home="{preview["p_home_win"]}"' in page
    assert "neutral court" in page
    same = text(client.get(f"{reverse('matchup')}?home={home.pk}&away={home.pk}"))
    assert "Pick two different teams." in same
    # A link naming the teams alone gets the form's defaults: advanced rules, home court.
    teams_only = text(client.get(f"{reverse('matchup')}?home={home.pk}&away={away.pk}"))
    at_home = odds.matchup_preview(
        home_id=home.pk, away_id=away.pk, rules="advanced", neutral=False, strategy=False
    )
    assert f'data-p-home="{at_home["p_home_win"]}"' in teams_only
    bad = text(client.get(f"{reverse('matchup')}?home={home.pk}&away={away.pk}&court=moon"))
    assert "Select a valid choice. moon is not one of the available choices." in bad
    assert "data-p-home" not in bad


def test_the_matchup_page_gives_the_other_games_odds_of_two_teams_styles(client) -> None:
    """The matchup page was VABG's only: six dice and grid court fans could not compare two
    teams. Their odds read each team's coach style, under the game's options."""
    home = TeamFactory(school="Keen", styles={"sixdice": {"threes": "outside"}})
    away = TeamFactory(school="Saver", styles={"sixdice": {"chip": "shots"}})
    form = text(client.get(reverse("matchup")))
    assert 'name="gridcourt_pieces"' in form and 'name="sixdice_chip_reroll"' in form
    url = f"{reverse('matchup')}?home={home.pk}&away={away.pk}&game=sixdice&sixdice_chip_reroll=on"
    page = text(client.get(url))
    _, exact = other_odds.match_odds(
        "sixdice",
        {"chip_reroll": True},
        other_odds.team_document(home),
        other_odds.team_document(away),
    )
    assert f'data-p-home="{exact.p_home_win}"' in page and 'data-method="exact"' in page
    assert "Six dice to 21" in page
    # Not the default styles' odds, nor without the chip reroll.
    default = find_game("sixdice").odds()
    assert default is not None and exact.p_home_win != default.p_home_win
    plain = text(client.get(url.removesuffix("&sixdice_chip_reroll=on")))
    assert f'data-p-home="{exact.p_home_win}"' not in plain and "data-p-home" in plain
    bad = text(client.get(f"{url}&gridcourt_pieces=9"))
    assert "Select a valid choice. 9 is not one of the available choices." in bad


def test_the_bracket_page_shows_the_odds_and_a_what_if_moves_them(client, cup) -> None:
    url = reverse("bracket", args=[cup.pk])
    page = text(client.get(url))
    assert 'id="bracket-odds"' in page and "Champion" in page
    game = cup.games.get()
    # Lock the round-1 game to its away team: it reaches the final for sure, the other 0;
    # with both finalists sure to play it, no round's column is left, only the title's.
    page = text(client.get(f"{url}?w_{game.bracket_key}={game.away_id}"))
    row = re.search(rf'<tr data-team="{game.away_id}">(.*?)</tr>', page).group(1)
    assert re.findall(r'<td class="reach">(.*?)</td>', row) == []
    assert re.search(r'<td class="champion-p">\d+(\.\d)?%</td>', row)
    # The team the what-if knocks out leaves the table of the teams still alive.
    assert f'<tr data-team="{game.home_id}">' not in page and "1 team is out." in page
    assert "nothing is saved" in page
    assert not Game.objects.filter(status=Game.Status.FINAL).exists()
    bad = text(client.get(f"{url}?w_{game.bracket_key}=999999"))
    assert "That what-if cannot happen" in bad


def test_the_season_odds_page(client) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Page Odds"),
        name="Odds season",
        teams=[full_team() for _ in range(3)],
        start_date=date(2001, 1, 1),
        seed=8,
    )
    page = text(client.get(reverse("season-odds", args=[season.pk])))
    # with its thousands separator, as every other count of the page (a trial of 2026-11-29
    # read "10000 seasons sampled" beside "2,000 seeded games")
    assert "10,000 seasons sampled" in page
    assert page.count('<tr data-team="') == 3


def test_the_season_odds_are_sampled_once_until_what_they_read_changes(
    client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """A trial's 96-team season sampled its 10,000 seasons again on every visit."""
    season = services.season_create(
        league=services.league_get_or_create(name="Page Odds"),
        name="Cached season",
        teams=[full_team() for _ in range(3)],
        start_date=date(2001, 1, 1),
        seed=8,
    )
    sampled = []
    real = odds.season_odds
    monkeypatch.setattr(odds, "season_odds", lambda s: sampled.append(s.pk) or real(s))
    url = reverse("season-odds", args=[season.pk])
    first = text(client.get(url))
    assert text(client.get(url)) == first and len(sampled) == 1
    # A stored game, a card edited: sampled again.
    with django_capture_on_commit_callbacks(execute=True):
        services.game_simulate(game_id=season.games.first().pk)
    client.get(url)
    assert len(sampled) == 2
    card = season.entries.first().team.cards.first()
    card.free_throw_top = 15 if card.free_throw_top != 15 else 14
    card.save()
    client.get(url)
    assert len(sampled) == 3
    entry = season.entries.first()
    entry.conference = "Moved"  # the commissioner regroups a team: its places change
    entry.save()
    client.get(url)
    assert len(sampled) == 4


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fan_picks_a_matchup_in_a_browser(browser, live_server) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    home, away = full_team(school="Browser Home"), full_team(school="Browser Away")
    browser.get(live_server.url + reverse("matchup"))

    def shown() -> list[str]:  # the games whose options the form shows
        boxes = browser.find_elements(By.CSS_SELECTOR, "fieldset[data-game]")
        return [b.get_attribute("data-game") for b in boxes if b.is_displayed()]

    # Only the chosen game's options (a fan on a phone scrolled past all three games').
    assert shown() == ["vabg"]
    Select(browser.find_element(By.NAME, "game")).select_by_value("sixdice")
    assert shown() == ["sixdice"]
    Select(browser.find_element(By.NAME, "game")).select_by_value("vabg")
    Select(browser.find_element(By.NAME, "home")).select_by_value(str(home.pk))
    Select(browser.find_element(By.NAME, "away")).select_by_value(str(away.pk))
    browser.find_element(By.CSS_SELECTOR, "form.matchup button").click()
    preview = browser.find_element(By.ID, "preview")
    assert preview.find_elements(By.TAG_NAME, "svg")
    assert "%" in preview.find_element(By.CSS_SELECTOR, "tr.home .p-win").text
    # The answer is brought into view: the page opens at it, below the form.
    assert browser.current_url.endswith("#odds")
    assert browser.execute_script("return window.scrollY") > 0
