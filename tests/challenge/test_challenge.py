"""The challenge by its services, pages and API: pools, the lock, privacy, live scoring in
the game-storing transaction, the exact expected score, deletion and a replaced team."""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from challenge import services
from challenge.models import Challenge, Entry
from challenge.views import game_words
from core.text import wait_words
from league import odds, tournaments
from league.models import PairOdds, Season
from tests.challenge.conftest import chalk, play_next, seeds
from tests.factories import commissioner, full_team, uncoached_cup
from tests.openapi import check

pytestmark = pytest.mark.django_db


def signed(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


# -- pools ------------------------------------------------------------------------------------


def test_a_pool_opens_only_on_a_tournament_not_started(cup: Any) -> None:
    play_next(cup)
    with pytest.raises(services.ChallengeRefused, match="has started"):
        services.challenge_create(season=cup, name="Late")


def test_a_pool_needs_points_for_each_round_and_no_reseeding(cup: Any) -> None:
    with pytest.raises(services.ChallengeRefused, match="each of the bracket's 2 rounds"):
        services.challenge_create(season=cup, name="P", round_points=[1, 2, 4])
    reseeded = tournaments.tournament_create(
        league=cup.league, name="Reseeded", teams=[full_team() for _ in range(4)], reseed=True
    )
    with pytest.raises(services.ChallengeRefused, match="re-pairs its teams"):
        services.challenge_create(season=reseeded, name="P")


def test_a_private_pool_is_joined_with_its_code_only(cup: Any, alice: Any, bob: Any) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    # A made-up code reads out and copies by hand: capitals and digits, none to mistake.
    assert len(pool.invite_code) == 10 and set(pool.invite_code) <= set(services.CODE_LETTERS)
    assert not set(services.CODE_LETTERS) & set("0O1IL")
    with pytest.raises(services.ChallengeRefused, match="code is not right"):
        services.entry_join(challenge=pool, user=alice, invite_code="guess")
    # Typed from a message in small letters, it still opens the pool.
    entry = services.entry_join(challenge=pool, user=alice, invite_code=pool.invite_code.lower())
    assert entry.user == alice
    with pytest.raises(services.ChallengeRefused, match="already have an entry"):
        services.entry_join(challenge=pool, user=alice, invite_code=pool.invite_code)


# -- picks and the lock -----------------------------------------------------------------------


def test_picks_that_do_not_fit_the_bracket_are_refused_naming_the_game(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    s = seeds(cup)
    with pytest.raises(services.ChallengeRefused, match="R2-1"):
        # the final's pick is seed 2, but the pick of R1-2 sent seed 3 there
        services.entry_save(
            entry=entry, user=alice, picks={"R1-1": s[1], "R1-2": s[3], "R2-1": s[2]}
        )
    assert Entry.objects.get(pk=entry.pk).picks == {}


def test_a_pick_after_the_first_game_is_refused_by_service_page_and_api(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    play_next(cup)
    with pytest.raises(services.ChallengeRefused, match="Picks are locked") as refused:
        services.entry_save(entry=entry, user=alice, picks={})
    assert refused.value.status == 409
    client = signed(alice)
    page = client.post(entry.get_absolute_url(), {"picks": "{}"}, follow=True)
    assert "Picks are locked" in page.content.decode()
    api = client.patch(
        f"/api/challenge-entries/{entry.pk}/", {"picks": {}}, content_type="application/json"
    )
    assert api.status_code == 409
    assert api.json()["detail"].startswith("Picks are locked")
    assert Entry.objects.get(pk=entry.pk).picks == chalk(cup)


def test_the_lock_time_locks_before_any_game(cup: Any, alice: Any) -> None:
    pool = services.challenge_create(
        season=cup, name="Timed", lock_at=timezone.now() + timedelta(hours=1)
    )
    entry = services.entry_join(challenge=pool, user=alice)
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.ChallengeRefused, match="Picks are locked"):
        services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    with pytest.raises(services.ChallengeRefused, match="Picks are locked"):
        services.entry_join(challenge=pool, user=services_fan("carol"))
    # Locked by its time, no game stored: the dash of its win chances is said (a review).
    page = Client().get(pool.get_absolute_url()).content.decode()
    assert "Win chances (\u2013) are worked out when the tournament's first game is stored" in page
    play_next(cup)
    services.challenge_win_odds(challenge_id=pool.pk)
    assert "win-pending" not in Client().get(pool.get_absolute_url()).content.decode()


def services_fan(name: str) -> Any:
    from tests.factories import fan

    return fan(name)


def test_before_the_lock_nobody_reads_another_fans_picks(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    team_name = str(cup.entries.get(seed=1).team)
    for client in (signed(bob), Client()):
        api = client.get(f"/api/challenge-entries/{entry.pk}/")
        assert api.status_code == 200
        assert api.json()["picks"] is None
        page = client.get(entry.get_absolute_url()).content.decode()
        data = page.split('id="bracket-data"')[1].split("</script>")[0]
        assert '"picks": {}' in data
        assert "stay hidden until the pool locks" in page
        assert team_name  # the team names are public (the bracket), the picks are not
    assert signed(alice).get(f"/api/challenge-entries/{entry.pk}/").json()["picks"] == {
        k: v for k, v in chalk(cup).items()
    }
    # After the lock everyone reads them.
    play_next(cup)
    assert signed(bob).get(f"/api/challenge-entries/{entry.pk}/").json()["picks"] == chalk(cup)


def test_before_the_lock_no_figure_tells_another_fans_picks(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    """A fan's review read a rival's hidden pick off his entry: its exact expected score was
    the picked team's chance (0.777: UCLA over Georgetown), with his picks alive, the most
    he could reach and his tie-breaker beside it. Until the lock they show to him alone."""
    entry = services.entry_join(challenge=pool, user=alice, name="Alice's picks")
    services.entry_save(entry=entry, user=alice, picks={"R1-1": seeds(cup)[1]}, tiebreak="137")
    services.entry_join(challenge=pool, user=bob, name="Bob's picks")
    entry.refresh_from_db()
    assert entry.expected is not None and entry.alive == 1  # what there is to hide
    hidden = set(services.HIDDEN_UNTIL_LOCK)
    for client in (signed(bob), Client()):
        api = client.get(f"/api/challenge-entries/{entry.pk}/").json()
        assert {k for k, v in api.items() if v is None} >= hidden | {"picks"}
        rows = client.get(f"/api/challenges/{pool.pk}/standings/").json()["results"]
        assert [r["name"] for r in rows] == ["Alice's picks", "Bob's picks"]  # as they joined
        assert [r["place"] for r in rows] == [None, None]  # no order to tell before the lock
        assert all(r[k] is None for r in rows[:1] for k in hidden if k in r)
        page = client.get(entry.get_absolute_url()).content.decode()
        assert 'id="scores"' not in page and "137 points" not in page
        standings = client.get(pool.get_absolute_url()).content.decode()
        assert "hidden until the pool locks" in standings and "best expected" not in standings
    mine = signed(alice).get(f"/api/challenge-entries/{entry.pk}/").json()
    assert (mine["tiebreak"], mine["alive"], mine["expected"]) == (137, 1, entry.expected)
    # When a rival last saved is his too (a review read it: when he last picked).
    assert mine["updated_at"] is not None
    assert signed(bob).get(f"/api/challenge-entries/{entry.pk}/").json()["updated_at"] is None
    assert 'id="scores"' in signed(alice).get(entry.get_absolute_url()).content.decode()
    play_next(cup)  # locked: everyone reads every figure, best first
    rows = Client().get(f"/api/challenges/{pool.pk}/standings/").json()["results"]
    assert rows[0]["name"] == "Alice's picks" and rows[0]["expected"] is not None
    assert rows[0]["place"] == 1 and rows[1]["place"] in (1, 2)
    assert Client().get(f"/api/challenge-entries/{entry.pk}/").json()["tiebreak"] == 137


def test_a_fan_never_changes_another_fans_entry(cup: Any, pool: Any, alice: Any, bob: Any) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    api = signed(bob).patch(
        f"/api/challenge-entries/{entry.pk}/",
        {"picks": chalk(cup)},
        content_type="application/json",
    )
    assert api.status_code == 403
    assert "only the fan who made this entry" in api.json()["detail"].lower()
    page = signed(bob).post(entry.get_absolute_url(), {"picks": json.dumps(chalk(cup))})
    assert page.status_code == 403  # as the docs and the API say
    assert Client().patch(
        f"/api/challenge-entries/{entry.pk}/", {"picks": {}}, content_type="application/json"
    ).status_code in (401, 403)
    assert Entry.objects.get(pk=entry.pk).picks == {}


@pytest.mark.parametrize(
    "sent",
    [
        "[" * 100_000 + "]" * 100_000,  # nested past Python's parser: RecursionError
        '{"R1-1": ' + "9" * 5000 + "}",  # past Python's digits for an int: ValueError
    ],
    ids=["nested", "huge number"],
)
def test_picks_the_page_cannot_read_are_refused_in_words_not_a_server_error(
    cup: Any, pool: Any, alice: Any, sent: str
) -> None:
    """The page read its picks field with json.loads, catching only a decode error: a body
    of [[[[... or a number of thousands of digits answered the fan's own page with a 500
    (the API refused them with a 400 already)."""
    entry = services.entry_join(challenge=pool, user=alice)
    client = signed(alice)
    client.raise_request_exception = False
    page = client.post(entry.get_absolute_url(), {"picks": sent, "tiebreak": "", "name": "Mine"})
    assert page.status_code == 400
    assert "The picks could not be read: send them again." in page.content.decode()
    assert Entry.objects.get(pk=entry.pk).picks == {}


def test_patch_changes_only_the_picks_sent_and_put_replaces_them_all(
    cup: Any, pool: Any, alice: Any
) -> None:
    """PATCH replaced every pick with those sent: an app saving the one game a fan had
    just picked wiped the rest of his bracket."""
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    url = f"/api/challenge-entries/{entry.pk}/"
    client = signed(alice)

    def send(method: str, body: dict[str, Any]) -> Any:
        return getattr(client, method)(url, body, content_type="application/json")

    assert send("patch", {"picks": {"R1-1": s[1], "R1-2": s[2]}}).status_code == 200
    answer = send("patch", {"picks": {"R2-1": s[1]}})
    assert answer.status_code == 200, answer.content
    assert answer.json()["picks"] == chalk(cup)
    assert send("patch", {"picks": {"R1-2": s[3]}}).json()["picks"] == {
        "R1-1": s[1], "R1-2": s[3], "R2-1": s[1]
    }  # fmt: skip
    # One pick that does not fit the others refuses the whole request: nothing is saved,
    # neither the picks sent with it nor the name.
    bad = send("patch", {"picks": {"R1-2": s[2], "R1-1": s[4]}, "name": "Upsets"})
    assert bad.status_code == 400
    assert "cannot be picked to win game R2-1" in bad.json()["detail"]
    saved = Entry.objects.get(pk=entry.pk)
    assert saved.picks == {"R1-1": s[1], "R1-2": s[3], "R2-1": s[1]}
    assert saved.name != "Upsets"
    # null takes a game's pick away; PUT sends every pick, a game left out unpicked.
    assert send("patch", {"picks": {"R2-1": None}}).json()["picks"] == {
        "R1-1": s[1], "R1-2": s[3]
    }  # fmt: skip
    assert send("put", {"picks": {"R1-1": s[4]}}).json()["picks"] == {"R1-1": s[4]}
    assert Entry.objects.get(pk=entry.pk).picks == {"R1-1": s[4]}


def test_fill_by_favourite_picks_the_better_seeds(cup: Any, pool: Any, alice: Any) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    s = seeds(cup)
    services.entry_save(entry=entry, user=alice, picks={"R1-2": s[3]}, fill="favourite")
    assert Entry.objects.get(pk=entry.pk).picks == {"R1-1": s[1], "R1-2": s[3], "R2-1": s[1]}


def test_fill_by_seed_while_the_odds_are_computed_leaves_only_equal_seeds_to_the_fan(
    cup: Any, pool: Any, alice: Any, monkeypatch: Any
) -> None:
    """A fan's review: on a new 96-team tournament "Fill the rest by seed" was refused for
    the half hour its odds took, for the three games between 1 seeds alone, with "try again
    in 5 seconds". Now it fills every other game at once and says what is left."""
    s = seeds(cup)
    real = services.season_bracket

    def two_top_seeds(season: Any) -> Any:  # seed 2 made a 1 seed: the final is 1 v 1
        bracket = real(season)
        return dataclasses.replace(bracket, seeds={**bracket.seeds, s[2]: 1})

    def pending(*args: Any, **kwargs: Any) -> None:
        raise odds.OddsPending(ready=10, needed=600, home_ids=[1])

    monkeypatch.setattr(services, "season_bracket", two_top_seeds)
    monkeypatch.setattr(services, "_ensure_pair", pending)
    entry = services.entry_join(challenge=pool, user=alice)
    page = signed(alice).post(
        entry.get_absolute_url(),
        {"picks": "{}", "fill": "favourite", "version": services.entry_version(entry)},
        follow=True,
    )
    assert Entry.objects.get(pk=entry.pk).picks == {"R1-1": s[1], "R1-2": s[2]}
    said = " ".join(page.content.decode().split())
    assert "Your bracket is saved, filled by seed but for 1 game between equal seeds" in said
    assert "Pick them yourself, or fill by seed again later." in said
    # By odds, it is refused as before, saying the pace where one is known.
    answer = signed(alice).patch(
        f"/api/challenge-entries/{entry.pk}/", {"fill": "odds"}, content_type="application/json"
    )
    assert answer.status_code == 503


def test_fill_by_odds_picks_the_exact_favourite_of_each_game(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks={}, fill="odds")
    picks = Entry.objects.get(pk=entry.pk).picks
    table = odds.season_table(cup)
    bracket = tournaments.season_bracket(cup)
    teams = __import__("league.bracket", fromlist=["entrants"]).entrants(bracket, picks)
    for key, (top, bottom) in teams.items():
        favourite = top if table.p(top, bottom) >= 0.5 else bottom
        assert picks[key] == favourite


def test_a_fill_while_the_odds_are_computed_is_a_503_saying_when_to_ask_again(
    cup: Any, pool: Any, alice: Any, monkeypatch: Any
) -> None:
    """A client filling by the odds before they are built was told 503 and "try again in a
    minute" with no ``Retry-After``: a script retried at once or gave up."""
    entry = services.entry_join(challenge=pool, user=alice)

    def pending(*args: Any, **kwargs: Any) -> None:
        raise odds.OddsPending(ready=10, needed=600, home_ids=[1])

    monkeypatch.setattr(services, "_ensure_pair", pending)
    answer = signed(alice).patch(
        f"/api/challenge-entries/{entry.pk}/", {"fill": "odds"}, content_type="application/json"
    )
    assert answer.status_code == 503, answer.content
    assert answer["Retry-After"] == "5"
    assert "still being computed: 10 of 600 pairs are ready" in answer.json()["detail"]
    assert "try again in 5 seconds" in answer.json()["detail"]
    assert Entry.objects.get(pk=entry.pk).picks == {}


# -- live scoring and the exact expected score -----------------------------------------------


def test_each_stored_game_rescores_every_entry_in_its_transaction(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    s = seeds(cup)
    a = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=a, user=alice, picks=chalk(cup))
    b = services.entry_join(challenge=pool, user=bob)
    upset = {"R1-1": s[4], "R1-2": s[3], "R2-1": s[4]}
    services.entry_save(entry=b, user=bob, picks=upset)
    while tournaments.champion(cup) is None:
        play_next(cup)
        winners = tournaments.winners_of(cup)
        for entry, picks in ((a, chalk(cup)), (b, upset)):
            entry.refresh_from_db()
            right = [k for k, t in picks.items() if winners.get(k) == t]
            points = sum(2 if k == "R2-1" else 1 for k in right)
            assert entry.points == points
            assert entry.correct == len(right)
            lost = {
                t
                for k, w in winners.items()
                for t in tournaments.brackets.entrants(tournaments.season_bracket(cup), winners)[k]
                if t != w
            }
            open_ = [k for k, t in picks.items() if k not in winners and t not in lost]
            assert entry.alive == len(open_)
            assert entry.max_points == points + sum(2 if k == "R2-1" else 1 for k in open_)
    assert Challenge.objects.get(pk=pool.pk).scored_games == 3


def test_the_expected_score_is_the_bracket_odds_times_the_points(
    cup: Any, pool: Any, alice: Any
) -> None:
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    picks = {"R1-1": s[1], "R1-2": s[3], "R2-1": s[3]}
    services.entry_save(entry=entry, user=alice, picks=picks)
    entry.refresh_from_db()
    table = {row["team_id"]: row for row in odds.bracket_odds(cup)["teams"]}
    # P(a team wins its first game) = P(it reaches round 2); P(champion) = the champion's.
    want = 1 * table[s[1]]["reach"][1] + 1 * table[s[3]]["reach"][1] + 2 * table[s[3]]["champion"]
    assert entry.expected == pytest.approx(want, rel=1e-12)
    assert 0 < entry.expected < 4
    # The page links the figure to the odds it comes from (the bracket's page).
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("challenge:entry", args=[entry.pk])).content.decode()
    assert f'<a id="odds-link" href="{reverse("bracket", args=[cup.pk])}">' in page


def rivals_after_a_game(cup: Any, pool: Any, alice: Any, bob: Any, capture: Any) -> tuple[Any, Any]:
    """Alice's chalk and Bob's upsets in ``pool``, the first game stored (its pool's chances
    worked out after it commits)."""
    s = seeds(cup)
    a = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=a, user=alice, picks=chalk(cup))
    b = services.entry_join(challenge=pool, user=bob)
    services.entry_save(entry=b, user=bob, picks={"R1-1": s[4], "R1-2": s[3], "R2-1": s[4]})
    with capture(execute=True):
        play_next(cup)
    return a, b


def test_the_win_chances_are_stored_with_their_error_after_each_game(
    cup: Any, pool: Any, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    a, b = rivals_after_a_game(cup, pool, alice, bob, django_capture_on_commit_callbacks)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.win_probability + b.win_probability == pytest.approx(1.0)
    assert 0 < a.win_error <= 0.5 / services.WIN_SAMPLES**0.5 + 1e-12
    assert Challenge.objects.get(pk=pool.pk).win_samples == services.WIN_SAMPLES


# -- deletion and a replaced team -------------------------------------------------------------


def test_entries_go_with_their_tournament(cup: Any, pool: Any, alice: Any) -> None:
    services.entry_join(challenge=pool, user=alice)
    Season.objects.filter(pk=cup.pk).delete()
    assert not Challenge.objects.exists()
    assert not Entry.objects.exists()


def test_a_pick_of_a_team_replaced_after_the_lock_is_dead(cup: Any, pool: Any, alice: Any) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    s = seeds(cup)
    services.entry_save(entry=entry, user=alice, picks={"R1-1": s[1], "R1-2": s[3], "R2-1": s[3]})
    play_next(cup)  # R1-1 is played: locked
    # The commissioner replaces seed 3 by another team in the bracket.
    newcomer = full_team()
    bracket = tournaments.season_bracket(cup)
    cup.bracket = tournaments.brackets.bracket_to_json(
        tournaments.brackets.bracket_relabelled(
            bracket, {t: (newcomer.pk if t == s[3] else t) for t in bracket.seeds}
        )
    )
    cup.save()
    cup.entries.filter(team_id=s[3]).update(team=newcomer)
    services.challenge_rescore(challenge_ids=[pool.pk])
    entry.refresh_from_db()
    winners = tournaments.winners_of(cup)
    right = 1 if winners["R1-1"] == s[1] else 0
    assert entry.points == right
    assert entry.max_points == right  # both picks of the replaced team are dead
    assert services.entry_needs(entry) == []
    assert entry.alive == 0
    assert entry.picks["R1-2"] == s[3]  # never moved onto the newcomer
    page = Client().get(entry.get_absolute_url()).content.decode()
    assert "2 picks name a team no longer in the bracket" in page
    # Who picked whom counts those picks as picks of a replaced team, not as games left
    # unpicked, and no longer counts them for the newcomer.
    games = {g["key"]: g for g in Client().get(f"/api/challenges/{pool.pk}/picks/").json()["games"]}
    assert (games["R1-2"]["replaced"], games["R1-2"]["unpicked"]) == (1, 0)
    assert {p["team_id"]: p["entries"] for p in games["R1-2"]["picks"]}[newcomer.pk] == 0
    assert (games["R2-1"]["replaced"], games["R2-1"]["unpicked"]) == (1, 0)
    assert (games["R1-1"]["replaced"], games["R1-1"]["unpicked"]) == (0, 0)
    picks_page = Client().get(f"/challenges/{pool.pk}/picks/").content.decode()
    assert "1 entry picked a team no longer in the bracket" in picks_page


# -- accounts ---------------------------------------------------------------------------------


def test_a_fan_signs_up_without_email_and_is_no_staff(db: Any) -> None:
    client = Client()
    response = client.post(
        "/fans/signup/",
        {"username": "dana", "password1": "a-long-pass-9", "password2": "a-long-pass-9"},
    )
    assert response.status_code == 302
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="dana")
    assert not user.is_staff and not user.is_superuser and not user.groups.exists()
    assert "_auth_user_id" in client.session
    assert client.get("/admin/").status_code == 302  # not let into the commissioner's desk
    # Still signed in on the next page: the session's backend is one the settings list.
    assert "Signed in as" in client.get("/fans/entries/").content.decode()


def test_the_fans_account_pages_say_what_the_fan_came_for(db: Any) -> None:
    """A review: a fan sent from the table's sign-in to sign up read "Sign up to the
    bracket challenge"."""
    client = Client()
    for page, verb in (("signup", "Sign up"), ("signin", "Sign in")):
        table = client.get(f"/fans/{page}/?next=/table/").content.decode()
        assert f"<h1>{verb} to play at the table</h1>" in table
        assert f"<title>{verb} to play at the table" in table
        challenge = client.get(f"/fans/{page}/").content.decode()
        assert f"<h1>{verb} to the bracket challenge</h1>" in challenge


def test_my_entries_say_where_each_pool_stands(cup: Any, pool: Any, alice: Any) -> None:
    services.entry_join(challenge=pool, user=alice)
    client = Client()
    client.force_login(alice)
    said = '<span class="state">{}</span>'
    page = client.get("/fans/entries/").content.decode()
    assert said.format("open until the first game: pick now") in page
    play_next(cup)
    page = client.get("/fans/entries/").content.decode()
    assert said.format("locked; 1 game scored") in page


def test_sign_ups_from_one_address_are_throttled(db: Any, settings: Any) -> None:
    settings.CHALLENGE_SIGNUP_RATE = "2/hour"
    from django.core.cache import cache

    cache.clear()

    def sign_up(name: str, password: str = "a-long-pass-9") -> Any:
        data = {"username": name, "password1": password, "password2": password}
        return Client().post("/fans/signup/", data, REMOTE_ADDR="203.0.113.9")

    # A sign-up the form refuses (a password too short) counts nothing: accounts made do.
    assert [sign_up("fan-short", "abc").status_code for _ in range(3)] == [200, 200, 200]
    codes = [sign_up(f"fan{i}").status_code for i in range(2)]
    refused = sign_up("fan3")
    assert [*codes, refused.status_code] == [302, 302, 429]
    assert 0 < int(refused["Retry-After"]) <= 3601
    assert re.search(
        r"try again in (about \d+ minutes|about an? \w+|\d+ seconds?)\.", refused.content.decode()
    )
    assert wait_words(45) == "45 seconds" and wait_words(70) == "about a minute"
    assert wait_words(1500) == "about 25 minutes" and wait_words(3601) == "about an hour"
    assert wait_words(3590) == "about an hour" and wait_words(7300) == "about 2 hours"


def test_the_fifth_wrong_password_locks_a_fan_out_as_at_the_admin(alice: Any) -> None:
    client = Client()

    def sign_in(password: str) -> int:
        return client.post(
            "/fans/signin/",
            {"username": "alice", "password": password},
            REMOTE_ADDR="203.0.113.7",
        ).status_code

    assert [sign_in("wrong") for _ in range(5)] == [200, 200, 200, 200, 429]
    assert sign_in("fan-password-1") == 429
    assert "_auth_user_id" not in client.session


# -- pages and schema -------------------------------------------------------------------------


def test_the_pool_page_ranks_entries_and_a_fan_joins_from_it(
    cup: Any, pool: Any, alice: Any
) -> None:
    client = signed(alice)
    page = client.get(pool.get_absolute_url())
    assert "Join this pool" in page.content.decode()
    joined = client.post(f"/challenges/{pool.pk}/join/", {"name": "Alice's picks"}, follow=True)
    entry = Entry.objects.get(user=alice)
    assert joined.redirect_chain[-1][0] == entry.get_absolute_url()
    # A tie-breaker out of range is refused, and the page comes back with the picks sent.
    refused = client.post(
        entry.get_absolute_url(), {"picks": json.dumps(chalk(cup)), "tiebreak": "9999"}
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "The tie-breaker must be" in page and 'value="9999"' in page
    assert refused.context["data"]["picks"] == chalk(cup)
    entry.refresh_from_db()
    assert entry.picks == {} and entry.tiebreak is None
    saved = client.post(
        entry.get_absolute_url(), {"picks": json.dumps(chalk(cup)), "tiebreak": "131"}
    )
    assert saved.status_code == 302
    entry.refresh_from_db()
    assert entry.picks == chalk(cup) and entry.tiebreak == 131
    standings = client.get(pool.get_absolute_url()).content.decode()
    assert "Alice&#x27;s picks" in standings or "Alice's picks" in standings
    assert "(1 entry)" in standings
    assert "(1 entry)" in standings and f"{entry.expected:.1f}" in standings  # his own
    play_next(cup)  # locked: the pool's best is shown to all
    standings = Client().get(pool.get_absolute_url()).content.decode()
    entry.refresh_from_db()
    assert f"The best expected score in this pool: {entry.expected:.1f} points" in standings


def test_the_api_joins_picks_and_lists_standings_in_the_schema(
    cup: Any, pool: Any, alice: Any
) -> None:
    client = signed(alice)
    joined = client.post(f"/api/challenges/{pool.pk}/join/", {}, content_type="application/json")
    assert joined.status_code == 201
    pk = joined.json()["id"]
    assert joined["Location"].endswith(f"/api/challenge-entries/{pk}/")
    saved = client.patch(
        f"/api/challenge-entries/{pk}/",
        {"picks": chalk(cup), "tiebreak": 140},
        content_type="application/json",
    )
    assert saved.status_code == 200, saved.content
    assert saved.json()["picks"] == chalk(cup)
    assert saved.json()["expected"] > 0
    rows = Client().get(f"/api/challenges/{pool.pk}/standings/").json()["results"]
    assert [r["id"] for r in rows] == [pk]
    assert "picks" not in rows[0]
    # A private pool's invitation code is the commissioner's to hand out: no fan reads it.
    from tests.factories import commissioner

    private = services.challenge_create(season=cup, name="Private pool", public=False)
    assert private.invite_code
    assert "invite_code" not in client.get(f"/api/challenges/{private.pk}/").json()
    listed = signed(commissioner()).get(f"/api/challenges/{private.pk}/").json()
    assert listed["invite_code"] == private.invite_code
    schema = Client().get("/api/schema/").content.decode()
    for path in ("/api/challenges/{id}/join/", "/api/challenges/{id}/standings/",
                 "/api/challenge-entries/{id}/"):  # fmt: skip
        assert path in schema


def test_after_the_lock_an_entry_page_says_which_results_it_still_needs(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    play_next(cup)  # R1-1
    winners = tournaments.winners_of(cup)
    s = seeds(cup)
    needs = services.entry_needs(Entry.objects.get(pk=entry.pk))
    want = [{"key": "R1-2", "team_id": s[2], "points": 1, "round": 1, "against_id": s[3]}]
    if winners["R1-1"] == s[1]:
        want.append({"key": "R2-1", "team_id": s[1], "points": 2, "round": 2, "against_id": None})
    assert needs == want
    page = Client().get(entry.get_absolute_url()).content.decode()
    two, three = (cup.entries.get(seed=n).team for n in (2, 3))
    # The game in words, not by its key "R1-2" (a fan's review).
    assert f"{two} to win Round 1, game 2, against {three}: 1 point" in page
    if winners["R1-1"] == s[1]:  # the final, the one game of its round, by its name alone
        assert f"{cup.entries.get(seed=1).team} to win Championship: 2 points" in page
    assert game_words({"region": "West", "position": 1}, "Round 2") == "West, Round 2, game 1"
    assert game_words({"region": "", "position": 1}, "Championship", alone=True) == "Championship"


def test_a_commissioner_opens_a_pool_in_the_admin_and_a_started_tournament_is_refused(
    cup: Any,
) -> None:
    from tests.factories import commissioner

    client = signed(commissioner())
    form = {
        "season": cup.pk,
        "name": "Admin pool",
        "round_points": "[1, 3]",
        "public": "",
        "invite_code": "",
        "lock_at_0": "",
        "lock_at_1": "",
    }
    added = client.post("/admin/challenge/challenge/add/", form)
    assert added.status_code == 302, added.content.decode()[:2000]
    pool = Challenge.objects.get(name="Admin pool")
    assert pool.round_points == [1, 3] and not pool.public and pool.invite_code
    again = client.post("/admin/challenge/challenge/add/", form)
    assert "already has a pool named &#x27;Admin pool&#x27;" in again.content.decode()
    bad = client.post(
        "/admin/challenge/challenge/add/", {**form, "name": "Other", "round_points": "[1]"}
    )
    assert "each of the bracket&#x27;s 2 rounds" in bad.content.decode()
    # The box left as it came (a browser may send its newline): the default points.
    blank = client.post(
        "/admin/challenge/challenge/add/", {**form, "name": "Blank", "round_points": "\r\n"}
    )
    assert blank.status_code == 302, blank.content.decode()[:2000]
    assert Challenge.objects.get(name="Blank").round_points == [1, 2]
    play_next(cup)
    late = client.post("/admin/challenge/challenge/add/", {**form, "name": "Late"})
    assert "has started: a challenge opens only before the first game" in late.content.decode()
    assert not Challenge.objects.filter(name="Late").exists()


def test_the_admin_s_challenge_form_fills_default_points_and_says_why_a_season_is_refused(
    cup: Any,
) -> None:
    from league import services as league_services
    from tests.factories import commissioner, full_team

    client = signed(commissioner())
    blank = client.get("/admin/challenge/challenge/add/").content.decode()
    assert re.search(r'<textarea name="round_points"[^>]*>\s*</textarea>', blank)
    form = {"season": cup.pk, "name": "Doubling", "public": "on", "round_points": ""}
    form |= {"invite_code": "", "lock_at_0": "", "lock_at_1": ""}
    assert client.post("/admin/challenge/challenge/add/", form).status_code == 302
    assert Challenge.objects.get(name="Doubling").round_points == [1, 2]
    league = league_services.league_get_or_create(name="Round robin")
    season = league_services.season_create(
        league=league, name="RR", teams=[full_team(), full_team()], seed=1
    )
    refused = client.post("/admin/challenge/challenge/add/", {**form, "season": season.pk})
    assert "a challenge needs a bracket to pick" in refused.content.decode()


def test_a_second_pool_of_the_same_name_on_a_tournament_is_refused(cup: Any, pool: Any) -> None:
    with pytest.raises(services.ChallengeRefused, match="already has a pool named 'office pool'"):
        services.challenge_create(season=cup, name="office pool")
    assert services.challenge_create(season=cup, name="Office pool 2").pk


def test_a_fan_gets_an_api_token_and_picks_with_it_and_wrong_passwords_lock_out(
    cup: Any, pool: Any, alice: Any
) -> None:
    from django.core.cache import cache

    cache.clear()
    anonymous = Client()
    got = anonymous.post(
        "/api/auth/token/",
        {"username": "alice", "password": "fan-password-1"},
        content_type="application/json",
    )
    assert got.status_code == 200
    token = got.json()["token"]
    # A key that is no field is refused, as on every write (an API reviewer's got a 200).
    extra = anonymous.post(
        "/api/auth/token/",
        {"username": "alice", "password": "fan-password-1", "x": 1},
        content_type="application/json",
    )
    assert (extra.status_code, extra.json()) == (
        400,
        {"x": ["Not a field of this request; it takes username, password."]},
    )
    by_token = Client(HTTP_AUTHORIZATION=f"Token {token}")
    joined = by_token.post(f"/api/challenges/{pool.pk}/join/", {}, content_type="application/json")
    assert joined.status_code == 201  # no session, no CSRF token
    # A token that leaked is revoked with itself; the next one is new.
    assert anonymous.delete("/api/auth/token/").status_code == 401
    assert by_token.delete("/api/auth/token/").status_code == 204
    assert by_token.get("/api/challenge-entries/").status_code == 401
    again = anonymous.post(
        "/api/auth/token/",
        {"username": "alice", "password": "fan-password-1"},
        content_type="application/json",
    )
    assert again.status_code == 200 and again.json()["token"] != token
    wrong = [
        anonymous.post(
            "/api/auth/token/",
            {"username": "alice", "password": "guess"},
            content_type="application/json",
            REMOTE_ADDR="203.0.113.7",
        ).status_code
        for _ in range(5)
    ]
    assert wrong == [400, 400, 400, 400, 429]  # the fifth locks, as at the admin login
    locked = anonymous.post(
        "/api/auth/token/",
        {"username": "alice", "password": "fan-password-1"},
        content_type="application/json",
        REMOTE_ADDR="203.0.113.7",
    )
    assert locked.status_code == 429 and "token" not in locked.json()
    assert "locked out here for 15 minutes" in locked.json()["detail"]
    assert int(locked["Retry-After"]) == 15 * 60


def test_a_pool_made_while_the_odds_were_built_gets_its_chances_when_they_are_ready(
    cup: Any, pool: Any, alice: Any
) -> None:
    # A trial's pool, made right after its tournament, kept "Expected -" and "Chance -"
    # until the next game was stored, though the odds were ready long before.
    PairOdds.objects.all().delete()  # the tournament's table is still being built
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    services.challenge_rescore(challenge_ids=[pool.pk])
    entry.refresh_from_db()
    if entry.expected is not None:  # the save solved the 4 pairs itself: make it wait again
        PairOdds.objects.all().delete()
        Entry.objects.filter(pk=entry.pk).update(expected=None)
    assert Challenge.objects.get(pk=pool.pk).win_samples == 0
    odds.pair_table_build(season_id=cup.pk)  # what the worker's task runs
    entry.refresh_from_db()
    assert entry.expected is not None and 0 < entry.expected < 4
    # The win chances wait for the lock (before, a fan's own would tell the others' picks).
    assert entry.win_probability is None
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))
    services.challenge_win_odds(challenge_id=pool.pk)
    entry.refresh_from_db()
    assert entry.win_probability == pytest.approx(1.0)  # alone in the pool
    assert Challenge.objects.get(pk=pool.pk).win_samples == services.WIN_SAMPLES


def test_no_win_chance_is_worked_out_before_the_lock_and_a_locked_pool_stays_locked(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    """A pool review: a fan's own win chance (two identical brackets tie every draw: 50%)
    told him a rival's hidden bracket, pick by pick; and moving a passed lock time later in
    the admin reopened a pool whose picks were already public."""
    a = services.entry_join(challenge=pool, user=alice)
    b = services.entry_join(challenge=pool, user=bob)
    for entry, user in ((a, alice), (b, bob)):
        services.entry_save(entry=entry, user=user, picks=chalk(cup))
    assert services.challenge_win_odds(challenge_id=pool.pk) == {"pending": services.BEFORE_LOCK}
    assert signed(alice).get(f"/api/challenge-entries/{a.pk}/").json()["win_probability"] is None
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))
    admin = Client()
    admin.force_login(commissioner())
    url = reverse("admin:challenge_challenge_change", args=[pool.pk])
    form = {
        "season": cup.pk, "name": pool.name, "round_points": json.dumps(pool.round_points),
        "lock_at_0": "2099-01-01", "lock_at_1": "12:00:00", "public": "on", "invite_code": "",
    }  # fmt: skip
    refused = admin.post(url, form)
    assert refused.status_code == 200 and "This pool is locked" in refused.content.decode()
    # round points typed without brackets: said how to write them, not "Enter a valid JSON."
    typed = admin.post(url, {**form, "round_points": "1,2,4,8,16,32,64"})
    assert typed.context["adminform"].form.errors["round_points"] == [
        "Write the round points as a list in square brackets, e.g. [1, 2, 4, 8, 16, 32, 64]."
    ]
    assert services.is_locked(Challenge.objects.get(pk=pool.pk))
    entry_page = admin.get(reverse("admin:challenge_entry_change", args=[a.pk])).content.decode()
    assert "hidden until the pool locks" not in entry_page  # locked: the commissioner reads it


def test_the_admin_s_list_of_entries_tells_no_figure_of_the_picks_before_the_lock(
    cup: Any, pool: Any, alice: Any
) -> None:
    """The entry's page in the admin hid its picks, tie-breaker and expected score before
    the lock, but the list of entries showed its max points and picks alive, which count
    the picks made and the rounds they reach (a commissioner may play in his own pool)."""
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    admin = Client()
    admin.force_login(commissioner())
    listed = admin.get(reverse("admin:challenge_entry_changelist"))
    cells = [re.sub(r"<[^>]+>", "", c) for c in listed.context["results"][0]]
    assert cells[5:8] == ["hidden until the pool locks"] * 3  # max points, alive, expected
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))
    listed = admin.get(reverse("admin:challenge_entry_changelist"))
    cells = [re.sub(r"<[^>]+>", "", c) for c in listed.context["results"][0]]
    assert cells[6] == str(Entry.objects.get(pk=entry.pk).alive)


def test_the_admin_neither_moves_an_entry_to_another_pool_nor_makes_one(
    cup: Any, pool: Any, alice: Any
) -> None:
    """A reviewer moved an 8-team pool's entry into a 16-team tournament's pool in the
    admin ("changed successfully"): its picks fitted no game there, and that tournament's
    next round could not be stored. An entry added in the admin skipped the lock and the
    name rules and was left out of the pool's count."""
    entry = services.entry_join(challenge=pool, user=alice)
    other = services.challenge_create(season=cup, name="Another pool", round_points=[1, 2])
    admin, commish = Client(), commissioner()
    admin.force_login(commish)
    url = reverse("admin:challenge_entry_change", args=[entry.pk])
    admin.post(url, {"name": "Renamed", "challenge": other.pk, "user": commish.pk})
    entry.refresh_from_db()
    assert (entry.challenge_id, entry.user_id) == (pool.pk, alice.pk)
    assert admin.get(reverse("admin:challenge_entry_add")).status_code == 403
    assert (
        "challenge_entry_add"
        not in admin.get(reverse("admin:challenge_entry_changelist")).content.decode()
    )


def test_a_deleted_entry_leaves_its_pool_s_count_at_once(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    a = services.entry_join(challenge=pool, user=alice)
    services.entry_join(challenge=pool, user=bob)
    assert Challenge.objects.get(pk=pool.pk).entry_count == 2
    a.delete()
    assert Challenge.objects.get(pk=pool.pk).entry_count == 1
    assert "(1 entry)" in Client().get(pool.get_absolute_url()).content.decode()


def test_a_deleted_fan_leaves_his_pool_s_chances_and_its_best_to_the_others(
    cup: Any, pool: Any, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A reviewer deleted a fan's account after round 1: the others' win chances kept his
    share (they added up to 36%) and the pool's best expected score was his, until the next
    game was stored; in a finished pool, never."""
    a, _ = rivals_after_a_game(cup, pool, alice, bob, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        bob.delete()
    a.refresh_from_db()
    left = Challenge.objects.get(pk=pool.pk)
    assert (left.entry_count, a.win_probability) == (1, 1.0)
    assert left.best_expected == a.expected


# -- leaving a pool; who picked whom -----------------------------------------------------------


def test_a_fan_leaves_a_pool_before_the_lock_and_may_join_again(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    a = services.entry_join(challenge=pool, user=alice, name="Alice picks")
    services.entry_save(entry=a, user=alice, picks=chalk(cup))
    b = services.entry_join(challenge=pool, user=bob)
    # Not another fan's entry: not by the page, nor by the API.
    assert signed(bob).post(reverse("challenge:leave", args=[a.pk]), follow=True).status_code == 200
    assert signed(bob).delete(f"/api/challenge-entries/{a.pk}/").status_code == 403
    assert Entry.objects.filter(pk=a.pk).exists()

    page = signed(alice).get(a.get_absolute_url()).content.decode()
    assert 'id="leave"' in page
    left = signed(alice).post(reverse("challenge:leave", args=[a.pk]), follow=True)
    assert left.redirect_chain[-1][0] == pool.get_absolute_url()
    text = left.content.decode()
    assert "“Alice picks” has left Office pool." in text and "(1 entry)" in text
    assert not Entry.objects.filter(pk=a.pk).exists()
    assert Challenge.objects.get(pk=pool.pk).entry_count == 1
    again = services.entry_join(challenge=pool, user=alice)  # a new, empty bracket
    assert again.picks == {}
    assert signed(bob).delete(f"/api/challenge-entries/{b.pk}/").status_code == 204
    assert Challenge.objects.get(pk=pool.pk).entry_count == 1


def test_an_entry_s_name_is_taken_in_any_case_accents_and_spacing_too(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    """A reviewer joined a pool as "Équipe Été" and then as "équipe été" on SQLite (whose
    NOCASE knows ASCII letters only), and as "Équipe  Été", which reads the same on a page."""
    services.entry_join(challenge=pool, user=alice, name="Équipe Été")
    for same in ("équipe été", "ÉQUIPE  ÉTÉ", " Équipe Été "):
        with pytest.raises(services.ChallengeRefused, match="another entry in this pool"):
            services.entry_join(challenge=pool, user=bob, name=same)
    b = services.entry_join(challenge=pool, user=bob, name="Team   Summer")
    assert b.name == "Team Summer"
    with pytest.raises(services.ChallengeRefused, match="another entry in this pool"):
        services.entry_save(entry=b, user=bob, name="ÉQUIPE ÉTÉ")


def test_after_the_lock_no_entry_leaves_its_pool(cup: Any, pool: Any, alice: Any) -> None:
    a = services.entry_join(challenge=pool, user=alice)
    play_next(cup)
    client = signed(alice)
    assert 'id="leave"' not in client.get(a.get_absolute_url()).content.decode()
    refused = client.delete(f"/api/challenge-entries/{a.pk}/")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("Picks are locked, so every entry stays")
    page = client.post(reverse("challenge:leave", args=[a.pk]), follow=True).content.decode()
    assert "every entry stays in its pool to the end" in page
    assert Entry.objects.filter(pk=a.pk).exists()


def test_who_picked_whom_counts_each_game_s_picks_once_the_pool_locks(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    s = seeds(cup)
    carol = services_fan("carol")
    picks = {
        alice: chalk(cup),
        bob: {"R1-1": s[1], "R1-2": s[3], "R2-1": s[3]},
        carol: {"R1-1": s[4]},  # the rest left unpicked
    }
    for fan_, chosen in picks.items():
        entry = services.entry_join(challenge=pool, user=fan_)
        services.entry_save(entry=entry, user=fan_, picks=chosen)
    # Before the lock the shares would tell the hidden picks.
    assert signed(alice).get(reverse("challenge:picks", args=[pool.pk])).status_code == 403
    hidden = Client().get(f"/api/challenges/{pool.pk}/picks/")
    assert hidden.status_code == 403 and "once the pool locks" in hidden.json()["detail"]
    assert "champion-picks" not in Client().get(pool.get_absolute_url()).content.decode()

    play_next(cup)  # R1-1
    body = Client().get(f"/api/challenges/{pool.pk}/picks/").json()
    check("/api/challenges/{id}/picks/", body)
    check("/api/challenges/{id}/picks/", hidden.json(), status="403")
    assert body["entries"] == 3
    games = {g["key"]: g for g in body["games"]}
    assert [(p["team_id"], p["entries"]) for p in games["R1-1"]["picks"]] == [(s[1], 2), (s[4], 1)]
    assert games["R1-1"]["winner_id"] in (s[1], s[4])
    assert games["R1-1"]["picks"][0]["share"] == pytest.approx(2 / 3)
    assert sorted((p["team_id"], p["entries"]) for p in games["R1-2"]["picks"]) == sorted(
        [(s[2], 1), (s[3], 1)]
    )
    assert games["R1-2"]["unpicked"] == 1 and games["R1-2"]["winner_id"] is None
    assert {(p["team_id"], p["entries"]) for p in games["R2-1"]["picks"]} == {(s[1], 1), (s[3], 1)}
    assert games["R2-1"]["round_name"] == "Championship"

    page = Client().get(reverse("challenge:picks", args=[pool.pk])).content.decode()
    one, four = (str(cup.entries.get(seed=n).team) for n in (1, 4))
    assert "Who picked whom" in page and "How the 3 entries of" in page
    assert f"{one} v {four}" in page  # a first-round game is named by its teams
    assert "67%" in page and "Not picked by 1 entry." in page
    pool_page = Client().get(pool.get_absolute_url()).content.decode()
    champions = pool_page.split('id="champion-picks">')[1].split("</p>")[0]
    three = str(cup.entries.get(seed=3).team)
    assert champions.startswith("Picked to win it all: ")
    for team in (one, three):  # struck through when already out
        assert f"{team} 33%" in champions or f"<s>{team}</s> (out) 33%" in champions
    assert reverse("challenge:picks", args=[pool.pk]) in pool_page


def test_a_private_pool_is_read_by_its_fans_and_with_its_code_only(
    cup: Any, alice: Any, bob: Any
) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    a = services.entry_join(
        challenge=pool, user=alice, name="Alice picks", invite_code=pool.invite_code
    )
    services.entry_save(entry=a, user=alice, picks=chalk(cup))
    play_next(cup)  # locked: a public pool's entries would be open to all now
    for stranger in (Client(), signed(bob)):
        gate = stranger.get(pool.get_absolute_url())
        assert gate.status_code == 403
        text = gate.content.decode()
        assert "A private pool" in text and "Alice picks" not in text and "alice" not in text
        assert stranger.get(a.get_absolute_url()).status_code == 403
        assert stranger.get(reverse("challenge:picks", args=[pool.pk])).status_code == 403
        for url in (f"/api/challenges/{pool.pk}/", f"/api/challenges/{pool.pk}/standings/",
                    f"/api/challenges/{pool.pk}/picks/", f"/api/challenge-entries/{a.pk}/"):  # fmt: skip
            assert stranger.get(url).status_code == 404, url
        # Worded as a pool or entry that does not exist is: the answer tells nothing.
        missing = Challenge.objects.order_by("-pk").first().pk + 1
        assert stranger.get(f"/api/challenges/{pool.pk}/").json() == {
            "detail": f"No challenge {pool.pk}."
        }
        assert stranger.get(f"/api/challenges/{missing}/").json() == {
            "detail": f"No challenge {missing}."
        }
        assert stranger.get(f"/api/challenge-entries/{a.pk}/").json() == {
            "detail": f"No entry {a.pk}."
        }
    wrong = Client().get(f"{pool.get_absolute_url()}?code=guess")
    assert wrong.status_code == 403 and "not this pool" in wrong.content.decode()

    # The invitation link opens it, and the code is kept for the pool's other pages.
    invited = Client()
    page = invited.get(f"{pool.get_absolute_url()}?code={pool.invite_code}")
    assert page.status_code == 200 and "Alice picks" in page.content.decode()
    assert invited.get(a.get_absolute_url()).status_code == 200
    assert invited.get(reverse("challenge:picks", args=[pool.pk])).status_code == 200
    api = Client().get(f"/api/challenges/{pool.pk}/standings/?invite_code={pool.invite_code}")
    assert api.status_code == 200 and api.json()["results"][0]["name"] == "Alice picks"
    # Its fan and commissioners read it without a code.
    assert signed(alice).get(pool.get_absolute_url()).status_code == 200
    assert signed(alice).get(f"/api/challenges/{pool.pk}/picks/").status_code == 200
    boss = signed(commissioner())
    assert boss.get(pool.get_absolute_url()).status_code == 200
    admin_page = boss.get(reverse("admin:challenge_challenge_change", args=[pool.pk]))
    assert f"/challenges/{pool.pk}/?code={pool.invite_code}" in admin_page.content.decode()


def test_an_invitation_link_leads_a_signed_out_fan_through_sign_in_to_the_join_form(
    cup: Any, alice: Any
) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    client = Client()
    page = client.get(f"{pool.get_absolute_url()}?code={pool.invite_code}").content.decode()
    assert f'value="{pool.invite_code}"' in page  # the join form carries the code
    asked = client.post(
        reverse("challenge:join", args=[pool.pk]),
        {"name": "Mine", "invite_code": pool.invite_code},
    )
    assert asked.status_code == 302 and "fans/signin" in asked["Location"]
    client.force_login(alice)
    back = client.get(parse_qs(urlsplit(asked["Location"]).query)["next"][0])
    assert back.status_code == 200
    assert f'value="{pool.invite_code}"' in back.content.decode()


def test_only_read_it_opens_a_private_pool_with_its_code_and_no_code_in_the_address(
    cup: Any,
) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    client = Client()
    wrong = client.post(pool.get_absolute_url(), {"invite_code": "guess"})
    assert wrong.status_code == 403 and "not this pool" in wrong.content.decode()
    opened = client.post(pool.get_absolute_url(), {"invite_code": pool.invite_code})
    assert opened.status_code == 302 and opened["Location"] == pool.get_absolute_url()
    assert client.get(pool.get_absolute_url()).status_code == 200


# -- the fan review's findings (private pools, leaving, who picked whom) ---------------------


def test_an_invitation_code_with_any_character_is_compared_without_an_error(
    cup: Any, alice: Any
) -> None:
    pool = services.challenge_create(season=cup, name="Café", public=False, invite_code="CaféClub")
    assert Client().get(f"{pool.get_absolute_url()}?code=é").status_code == 403
    api = Client().get(f"/api/challenges/{pool.pk}/?invite_code=été")
    assert api.status_code == 404 and "detail" in api.json()
    assert Client().get(f"{pool.get_absolute_url()}?code=CaféClub").status_code == 200
    assert Client().get(f"{pool.get_absolute_url()}?code=CAFÉCLUB").status_code == 200
    entry = services.entry_join(challenge=pool, user=alice, invite_code="CaféClub")
    assert entry.user == alice


def test_wrong_invitation_codes_from_one_address_are_throttled_pages_and_api_together(
    cup: Any, alice: Any, bob: Any, settings: Any
) -> None:
    """A private pool's code guessed a try at a time: each wrong code counts against the
    address, wherever it is brought; over the rate every code is refused, the right one too,
    so guessing on tells nothing. A fan's own pool and another address stay open."""
    settings.CHALLENGE_CODE_RATE = "3/hour"
    pool = services.challenge_create(season=cup, name="Family", public=False)
    services.entry_join(challenge=pool, user=alice, invite_code=pool.invite_code)
    guesser = signed(bob)
    url, api = pool.get_absolute_url(), f"/api/challenges/{pool.pk}/"
    # A right code and an empty one are no wrong try.
    assert guesser.get(f"{url}?code={pool.invite_code}").status_code == 200
    assert Client().get(f"{api}?invite_code=").status_code == 404
    # A refused join shows the pool's gate with the code it sent: one try, not two.
    join = guesser.post(reverse("challenge:join", args=[pool.pk]), {"invite_code": "guess-1"})
    assert join.status_code == 403
    assert Client().get(f"{url}?code=guess-2").status_code == 403
    assert Client().get(f"{api}?invite_code=guess-3").status_code == 404
    for asked in (
        Client().get(f"{url}?code={pool.invite_code}"),
        Client().get(f"{api}?invite_code={pool.invite_code}"),
        guesser.post(reverse("challenge:join", args=[pool.pk]), {"invite_code": pool.invite_code}),
        guesser.post(f"{api}join/", {"invite_code": pool.invite_code}, content_type="application/json"),
    ):  # fmt: skip
        assert asked.status_code == 429, asked.content
        assert 0 < int(asked["Retry-After"]) <= 3601
        assert "Too many wrong invitation codes from this address: try again in" in (
            asked.content.decode() if "html" in asked["Content-Type"] else asked.json()["detail"]
        )
    assert not Entry.objects.filter(challenge=pool, user=bob).exists()
    # Its fan reads his pool from the same address; another address still brings the code.
    assert signed(alice).get(url).status_code == 200
    assert signed(alice).get(f"{api}standings/").status_code == 200
    other = Client(REMOTE_ADDR="203.0.113.50")
    assert other.get(f"{url}?code={pool.invite_code}").status_code == 200


@pytest.mark.parametrize("code", ["x y", "abc", "Family 2026"])
def test_a_commissioners_own_invitation_code_is_long_enough_and_has_no_spaces(
    cup: Any, code: str
) -> None:
    with pytest.raises(services.ChallengeRefused, match="too easy to guess or to mistype"):
        services.challenge_create(season=cup, name="Family", public=False, invite_code=code)
    kept = services.challenge_create(season=cup, name="Kin", public=False, invite_code=" Kin2026 ")
    assert kept.invite_code == "Kin2026"  # the spaces around it are a copy's, not the code's


def test_a_fan_who_leaves_a_private_pool_lands_on_its_page_with_the_code_kept(
    cup: Any, alice: Any
) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    client = signed(alice)
    joined = client.post(
        reverse("challenge:join", args=[pool.pk]), {"invite_code": pool.invite_code}
    )
    entry = Entry.objects.get(user=alice)
    assert joined["Location"] == entry.get_absolute_url()
    left = client.post(reverse("challenge:leave", args=[entry.pk]), follow=True)
    assert left.status_code == 200
    page = left.content.decode()
    assert "has left Family" in page and f'value="{pool.invite_code}"' in page
    # Back to the page of the entry he took out, and Save or Leave again: said, not a bare 404.
    for response in (
        client.get(entry.get_absolute_url()),
        client.post(entry.get_absolute_url(), {"picks": "{}"}),
        client.post(reverse("challenge:leave", args=[entry.pk])),
    ):
        assert response.status_code == 404
        assert "This entry is not in any pool any more" in response.content.decode()


def test_a_code_that_opened_a_pool_fills_its_join_form_and_an_old_wrong_link_keeps_it_open(
    cup: Any,
) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    client = Client()
    client.post(pool.get_absolute_url(), {"invite_code": pool.invite_code})  # "Only read it"
    page = client.get(pool.get_absolute_url()).content.decode()
    assert f'name="invite_code" required autocomplete="off" value="{pool.invite_code}"' in page
    assert f"signup/?next=/challenges/{pool.pk}/" in page  # signing up comes back here
    assert client.get(f"{pool.get_absolute_url()}?code=old-code").status_code == 200


def test_a_private_pool_s_entries_are_not_told_to_a_stranger_s_writes_either(
    cup: Any, alice: Any, bob: Any
) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    entry = services.entry_join(challenge=pool, user=alice, invite_code=pool.invite_code)
    url = f"/api/challenge-entries/{entry.pk}/"
    stranger = signed(bob)
    assert stranger.patch(url, {"name": "x"}, content_type="application/json").status_code == 404
    assert stranger.delete(url).status_code == 404
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_a_locked_private_pool_s_gate_offers_no_join(cup: Any, alice: Any) -> None:
    pool = services.challenge_create(season=cup, name="Family", public=False)
    services.entry_join(challenge=pool, user=alice, invite_code=pool.invite_code)
    play_next(cup)
    gate = Client().get(pool.get_absolute_url()).content.decode()
    assert "A private pool, locked" in gate
    assert "Join this pool" not in gate and "Sign in to join" not in gate
    assert "Open the pool" in gate


def test_who_picked_whom_marks_a_picked_team_already_out(cup: Any, pool: Any, alice: Any) -> None:
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    from league.models import Game

    first = cup.games.get(bracket_key="R1-1")
    play_next(cup)  # R1-1 (1 v 4)
    first.refresh_from_db()
    home_won = first.result.home_score > first.result.away_score
    winner = first.home_id if home_won else first.away_id
    loser = s[4] if winner == s[1] else s[1]
    body = Client().get(f"/api/challenges/{pool.pk}/picks/").json()
    final = next(g for g in body["games"] if g["key"] == "R2-1")
    assert final["out"] == ([s[1]] if loser == s[1] else [])
    page = Client().get(reverse("challenge:picks", args=[pool.pk])).content.decode()
    if loser == s[1]:  # the pool's champion pick is out: struck through on both pages
        assert '<div class="share out">' in page
        assert "(out)" in Client().get(pool.get_absolute_url()).content.decode()
    assert Game.objects.filter(season=cup, status="final").count() == 1


def test_who_picked_whom_names_a_game_s_region_as_the_bracket_does(
    cup: Any, pool: Any, alice: Any
) -> None:
    """A game between regions (here every game: the cup has none) was "" in who picked whom
    and null in the tournament's bracket: a client keying games by region met two values."""
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    play_next(cup)
    picked = Client().get(f"/api/challenges/{pool.pk}/picks/").json()["games"]
    bracket = Client().get(f"/api/seasons/{cup.pk}/bracket/").json()["rounds"]
    in_bracket = {g["key"]: g["region"] for r in bracket for g in r["games"]}
    assert {g["key"]: g["region"] for g in picked} == in_bracket == dict.fromkeys(in_bracket)


def test_who_picked_whom_never_marks_a_game_s_own_winner_out(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    """A first-round winner beaten in the final was listed `out` in its first-round game
    too, beside `winner_id` naming it: a client striking `out` through struck the winner."""
    s = seeds(cup)
    for fan_, picks in ((alice, chalk(cup)), (bob, {"R1-1": s[4], "R1-2": s[3], "R2-1": s[4]})):
        entry = services.entry_join(challenge=pool, user=fan_)
        services.entry_save(entry=entry, user=fan_, picks=picks)
    for _ in range(3):
        play_next(cup)
    games = Client().get(f"/api/challenges/{pool.pk}/picks/").json()["games"]
    lost_in = {
        t: g["round"] for g in games for t in g["teams"] if t is not None and t != g["winner_id"]
    }
    for g in games:
        assert g["winner_id"] not in g["out"], g
        # out: the picked teams beaten in this game or an earlier round, and only those
        picked = {p["team_id"] for p in g["picks"]}
        assert set(g["out"]) == {t for t in picked if lost_in.get(t, 99) <= g["round"]}, g


def test_a_pool_s_points_are_refused_under_their_field_and_all_zero_is_refused(cup: Any) -> None:
    """A wrong number of rounds was a bare detail (a form could not put it under its field)
    and a pool worth 0 points in every round was opened, decided by its tie-breaker alone."""
    client = Client()
    client.force_login(commissioner())

    def opened(points: Any) -> Any:
        body = {"season": cup.pk, "name": f"Pool {points}", "round_points": points}
        return client.post("/api/challenges/", body, content_type="application/json")

    for points, said in (
        ([1], "Give the points of each of the bracket's 2 rounds"),
        ([0, 0], "At least one round must be worth a point"),
    ):
        answer = opened(points)
        assert answer.status_code == 400
        assert list(answer.json()) == ["round_points"]
        assert answer.json()["round_points"][0].startswith(said)
    assert opened([0, 1]).status_code == 201
    assert not Challenge.objects.filter(name__in=["Pool [1]", "Pool [0, 0]"]).exists()


def test_a_fill_waiting_on_one_pair_tells_the_whole_table_s_progress(
    cup: Any, pool: Any, alice: Any, monkeypatch: Any
) -> None:
    """The pair a fill asks for waits behind the rest of the field's table: it was told as
    "1 of 1 pairs are still being computed; try again in 1 second" for the minute the
    table took, retried every second."""
    entry = services.entry_join(challenge=pool, user=alice)
    table = odds.season_table(cup)
    wanted = odds.season_pairs(cup, table)
    assert len(wanted) > 1

    def one_missing(self: Any, pairs: Any) -> None:
        raise odds.OddsPending(ready=0, needed=1, home_ids=[wanted[0][0]])

    monkeypatch.setattr(odds.PairTable, "ensure", one_missing)
    monkeypatch.setattr(odds.PairTable, "missing", lambda self, pairs: list(wanted))
    monkeypatch.setattr(odds, "pair_table_request", lambda **kwargs: True)
    answer = signed(alice).patch(
        f"/api/challenge-entries/{entry.pk}/", {"fill": "odds"}, content_type="application/json"
    )
    assert answer.status_code == 503, answer.content
    assert f"0 of {len(set(wanted))} pairs are ready" in answer.json()["detail"]


def test_the_entries_list_asks_an_anonymous_client_to_sign_in(db: Any) -> None:
    """It answered an empty list: an app whose token had expired showed "no entries"."""
    answer = Client().get("/api/challenge-entries/")
    assert answer.status_code == 401
    assert answer.json() == {"detail": "Sign in to list your entries: the list is your own."}


def test_the_tournament_and_its_bracket_page_name_its_public_pools_and_their_state(
    client: Any, cup: Any, pool: Any
) -> None:
    """A fan reading the tournament finds its pools there: the public ones, linked, with
    whether they still take picks; a private pool is not advertised."""
    services.challenge_create(season=cup, name="Secret pool", round_points=[1, 2], public=False)
    for url in (reverse("season", args=[cup.pk]), reverse("bracket", args=[cup.pk])):
        page = client.get(url).content.decode()
        assert f'href="{pool.get_absolute_url()}">Office pool</a>' in page, url
        assert "taking picks" in page
        assert "Secret pool" not in page
    play_next(cup)
    page = client.get(reverse("bracket", args=[cup.pk])).content.decode()
    assert "Locked: 1 of 3 games played" in page
    other = uncoached_cup(league="Challenge League", name="Other Cup", teams=4, seed=8)
    assert 'id="pools"' not in client.get(reverse("season", args=[other.pk])).content.decode()


def test_before_a_game_and_after_the_lock_the_pages_say_so_in_one_line(
    client: Any, cup: Any, pool: Any
) -> None:
    """A fan's review: a tournament not started showed four boards each saying "No games
    yet."; a pool list whose every pool had locked said nothing of joining none."""
    page = client.get(reverse("season", args=[cup.pk])).content.decode()
    assert page.count("No game is played yet: the leaders are listed once one is.") == 1
    assert "No games yet." not in page
    listed = client.get(reverse("challenge:list")).content.decode()
    assert "No public pool takes picks now" not in listed  # this one is open
    play_next(cup)
    listed = client.get(reverse("challenge:list")).content.decode()
    assert "No public pool takes picks now: each is locked once its tournament" in listed
    page = client.get(reverse("season", args=[cup.pk])).content.decode()
    assert 'id="leaders"' in page and "No game is played yet" not in page
