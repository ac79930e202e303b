"""The entry page in Chromium at phone width, as the fans' trial of 2026-11-27 used it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from challenge import services
from challenge.models import Challenge, Entry
from league import services as league_services
from league import tournaments
from tests.browsing import follow, tap
from tests.factories import fan, full_team, uncoached_cup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WINDOW = (390, 844)  # a phone


def test_a_phone_fan_reads_each_score_beside_its_name_and_sees_picks_not_yet_saved(
    browser: Any, live_server: Any
) -> None:
    from selenium.webdriver.common.by import By

    cup = uncoached_cup(league="Trial League", name="Trial Cup", teams=8, seed=11)
    pool = services.challenge_create(season=cup, name="Trial pool", round_points=[1, 2, 4])
    dana = fan("dana")
    entry = services.entry_join(challenge=pool, user=dana)
    by_seed = {s: t for t, s in tournaments.season_bracket(cup).seeds.items()}

    browser.get(f"{live_server.url}/fans/signin/")
    browser.find_element(By.NAME, "username").send_keys("dana")
    browser.find_element(By.NAME, "password").send_keys("fan-password-1")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]"))
    browser.get(f"{live_server.url}{entry.get_absolute_url()}")

    # Each score on the line of its name (the list ran "Points 0 Max still reachable 0"
    # together, a value wrapped under the next name).
    misplaced = browser.execute_script(
        "return [...document.querySelectorAll('#scores dt')].filter(dt => "
        "Math.abs(dt.getBoundingClientRect().top - "
        "dt.nextElementSibling.getBoundingClientRect().top) > 4).map(dt => dt.textContent)"
    )
    assert misplaced == []

    def unsaved() -> bool:
        return bool(browser.execute_script("return !document.getElementById('unsaved').hidden"))

    def slot(key: str, team: int) -> Any:
        return browser.find_element(
            By.CSS_SELECTOR, f'li[data-key="{key}"] button[data-team="{team}"]'
        )

    assert not unsaved()
    # Each team's button tells a screen reader which game it is in (it read "8 Team" alone).
    described = browser.execute_script(
        "const b = document.querySelector('li[data-key=\"R2-1\"] button');"
        "return document.getElementById(b.getAttribute('aria-describedby')).textContent"
    )
    assert described == "Final Four · game 1"
    # Seed 8 sent through two rounds before its next opponent is picked, then the rest
    # filled: saved (the save refused it, and the page said "has a winner (team id)").
    tap(browser, slot("R1-1", by_seed[8]))
    assert unsaved()
    tap(browser, slot("R2-1", by_seed[8]))
    follow(browser, browser.find_element(By.XPATH, "//button[text()='Fill the rest by seed']"))
    assert (
        "Your bracket is saved: every game is picked."
        in browser.find_element(By.CLASS_NAME, "messages").text
    )
    saved = Entry.objects.get(pk=entry.pk)
    assert len(saved.picks) == 7 and saved.picks["R2-1"] == by_seed[8]
    assert not unsaved()
    browser.find_element(By.ID, "tiebreak").send_keys("150")
    assert unsaved()
    follow(browser, browser.find_element(By.ID, "save"))
    assert not unsaved()
    assert Entry.objects.get(pk=entry.pk).tiebreak == 150


def test_the_pool_list_fits_a_phone_without_scrolling_sideways(
    browser: Any, live_server: Any
) -> None:
    # Its table ran past a phone's edge: the column saying whether a pool is still open
    # was cut off ("Open: ...", "Over: ...") unless the fan scrolled it sideways.
    cup = tournaments.tournament_create(
        league=league_services.league_get_or_create(name="Phone League"),
        name="A Tournament With A Long Name",
        teams=[full_team() for _ in range(4)],
        strategy=False,
        seed=5,
    )
    services.challenge_create(season=cup, name="The office's bracket pool", round_points=[1, 2])
    browser.get(f"{live_server.url}/challenges/")
    widths = browser.execute_script(
        "const t = document.querySelector('table.data');"
        "return [t.getBoundingClientRect().right, t.parentElement.getBoundingClientRect().right]"
    )
    assert widths[0] <= widths[1] + 1, widths


def test_a_phone_reads_the_whole_standings_row_with_the_chance_to_win(
    browser: Any, live_server: Any
) -> None:
    # The standings ran past a phone's edge: the expected score and the chance to win, the
    # two figures a fan opens the page for, were cut off.
    cup = tournaments.tournament_create(
        league=league_services.league_get_or_create(name="Standings League"),
        name="Standings Cup",
        teams=[full_team() for _ in range(4)],
        strategy=False,
        seed=6,
    )
    pool = services.challenge_create(season=cup, name="Phone pool", round_points=[1, 2])
    entry = services.entry_join(challenge=pool, user=fan("someone-long-named"))
    Entry.objects.filter(pk=entry.pk).update(
        name="A rather long bracket name", points=12, max_points=140, alive=12, expected=57.3,
        win_probability=0.37325, win_error=0.0108,
    )  # fmt: skip
    # Locked by its lock time: before, only its fan reads an entry's figures.
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))
    browser.get(f"{live_server.url}{pool.get_absolute_url()}")
    right, edge, win = browser.execute_script(
        "const t = document.getElementById('standings');"
        "const last = t.querySelector('tbody tr td:last-child');"
        "return [t.getBoundingClientRect().right, t.parentElement.getBoundingClientRect().right,"
        " last.innerText]"
    )
    assert right <= edge + 1, (right, edge)
    assert win.split() == ["37.3%", "±", "1.1"]


def test_a_locked_entry_shows_the_games_as_played_where_it_has_no_pick(
    browser: Any, live_server: Any
) -> None:
    # After the lock an entry with games left unpicked read "pick the game before" in every
    # later game, though picking was over and those games had been played; a missed pick
    # never said who did win.

    from league.models import Game

    cup = uncoached_cup(league="Locked League", name="Locked Cup", teams=4, seed=4)
    pool = services.challenge_create(season=cup, name="Locked pool", round_points=[1, 2])
    gil = fan("gil")
    entry = services.entry_join(challenge=pool, user=gil)
    by_seed = {s: t for t, s in tournaments.season_bracket(cup).seeds.items()}
    services.entry_save(entry=entry, user=gil, picks={"R1-1": by_seed[1]})  # one pick only
    while cup.games.filter(status=Game.Status.SCHEDULED).exists():
        game = cup.games.filter(status=Game.Status.SCHEDULED).first()
        league_services.game_simulate(game_id=game.pk)
    winners = tournaments.winners_of(cup)
    names = {e.team_id: str(e.team) for e in cup.entries.select_related("team")}

    browser.get(f"{live_server.url}{entry.get_absolute_url()}")
    games = browser.execute_script(
        "return [...document.querySelectorAll('#bracket li.game')].map(li => ({key: "
        "li.dataset.key, text: li.innerText, won: [...li.querySelectorAll('button .won')]"
        ".map(s => s.parentElement.dataset.team)}))"
    )
    by_key = {g["key"]: g for g in games}
    assert "pick the game before" not in " ".join(g["text"] for g in games)
    # The final, unpicked, shows the two teams that played it, its winner marked.
    assert names[winners["R1-2"]] in by_key["R2-1"]["text"]
    assert by_key["R2-1"]["won"] == [str(winners["R2-1"])]
    if winners["R1-1"] != by_seed[1]:  # the missed pick: the game says who won it
        assert f"Won by {names[winners['R1-1']]}" in by_key["R1-1"]["text"]
    else:
        assert by_key["R1-1"]["won"] == [str(by_seed[1])]
    assert browser.execute_script("return document.getElementById('save') === null")


def test_my_entries_fit_a_phone(browser: Any, live_server: Any) -> None:
    # The fan's own list ran past a phone's edge (seven columns), its chance to win cut off.
    cup = uncoached_cup(league="Mine League", name="Mine Cup", teams=4, seed=2)
    pool = services.challenge_create(
        season=cup, name="A pool with a longer name", round_points=[1, 2]
    )
    hal = fan("hal")
    entry = services.entry_join(challenge=pool, user=hal, name="Hal's long-shot bracket")
    Entry.objects.filter(pk=entry.pk).update(win_probability=0.12345, win_error=0.0072)
    from selenium.webdriver.common.by import By

    browser.get(f"{live_server.url}/fans/signin/")
    browser.find_element(By.NAME, "username").send_keys("hal")
    browser.find_element(By.NAME, "password").send_keys("fan-password-1")
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]"))
    browser.get(f"{live_server.url}/fans/entries/")
    right, edge = browser.execute_script(
        "const t = document.getElementById('mine');"
        "return [t.getBoundingClientRect().right, t.parentElement.getBoundingClientRect().right]"
    )
    assert right <= edge + 1, (right, edge)


def test_a_locked_entry_shows_the_real_game_and_names_a_pick_already_out(
    browser: Any, live_server: Any
) -> None:
    """A pool review: once locked, a game the fan's pick could no longer reach still read as
    his imagined game ("Indiana 1976 v Kansas 2008", both out), the dead pick only red."""
    from league.models import Game

    cup = uncoached_cup(league="Out League", name="Out Cup", teams=4, seed=4)
    pool = services.challenge_create(season=cup, name="Out pool", round_points=[1, 2])
    first = cup.games.get(bracket_key="R1-1")
    other = cup.games.get(bracket_key="R1-2")
    entries = {}
    for name, champion in (("ida", first.home_id), ("jon", first.away_id)):
        entry = services.entry_join(challenge=pool, user=fan(name))
        picks = {"R1-1": champion, "R1-2": other.home_id, "R2-1": champion}
        entries[champion] = services.entry_save(entry=entry, user=entry.user, picks=picks)
    while cup.games.filter(status=Game.Status.SCHEDULED, round=1).exists():
        game = cup.games.filter(status=Game.Status.SCHEDULED, round=1).first()
        league_services.game_simulate(game_id=game.pk)
    winners = tournaments.winners_of(cup)
    names = {e.team_id: str(e.team) for e in cup.entries.select_related("team")}
    loser = first.away_id if winners["R1-1"] == first.home_id else first.home_id
    for champion, entry in entries.items():
        browser.get(f"{live_server.url}{entry.get_absolute_url()}")
        final = browser.execute_script(
            "return document.querySelector('#bracket li.game[data-key=\"R2-1\"]').innerText"
        )
        # The real game, whoever the fan picked to play it.
        assert names[winners["R1-1"]] in final and names[winners["R1-2"]] in final
        if champion == loser:
            assert f"your pick: {names[loser]}, out".lower() in final.lower()  # in capitals
        else:
            assert "your pick" not in final.lower()
