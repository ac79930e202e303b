"""What a fans' trial of the bracket challenge found (2026-11-27): each test a problem a
fan or a commissioner met on the pages or the API."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from challenge import services, views
from challenge.models import Challenge, Entry
from tests.challenge.conftest import chalk, play_next, seeds
from tests.factories import fan, uncoached_cup

pytestmark = pytest.mark.django_db


def lock(pool: Challenge) -> None:
    """Lock a pool by its lock time, no game played."""
    Challenge.objects.filter(pk=pool.pk).update(lock_at=timezone.now() - timedelta(seconds=1))


def signed(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_a_team_sent_on_before_its_next_opponent_is_picked_is_saved_and_filled_around(
    cup: Any, pool: Any, alice: Any
) -> None:
    # The page lets a fan click seed 4 through round 1 and on to win the final before he
    # picks the other half: the save refused it ("has a winner before both its teams are
    # known") and "Fill the rest" with it.
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    page = signed(alice).post(
        entry.get_absolute_url(),
        {"picks": json.dumps({"R1-1": s[4], "R2-1": s[4]}), "fill": "favourite"},
    )
    assert page.status_code == 302, page.content.decode()
    entry.refresh_from_db()
    assert entry.picks == {"R1-1": s[4], "R1-2": s[2], "R2-1": s[4]}
    saved = services.entry_save(entry=entry, user=alice, picks={"R1-1": s[1], "R2-1": s[1]})
    assert saved.picks == {"R1-1": s[1], "R2-1": s[1]}
    assert saved.max_points == 3  # both picks alive, scored


def test_a_pick_that_cannot_be_names_the_teams_in_words_a_fan_reads(
    cup: Any, pool: Any, alice: Any
) -> None:
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    final = cup.entries.get(seed=2).team
    refused = signed(alice).post(
        entry.get_absolute_url(), {"picks": json.dumps({"R1-1": s[1], "R2-1": s[2]})}
    )
    assert refused.status_code == 400
    text = refused.content.decode().replace("&#x27;", "'")
    assert f"{final} cannot be picked to win game R2-1" in text
    assert f"{cup.entries.get(seed=1).team} against a team not picked yet" in text
    assert "(2)" not in text.split("cannot be picked")[1][:200]  # no bare team id
    entry.refresh_from_db()
    assert entry.picks == {}


def finish(cup: Any, capture: Any) -> None:
    """Play the whole tournament, each game stored as a worker stores it, with what follows
    its commit (the win chances)."""
    from league.models import Game

    while cup.games.filter(status=Game.Status.SCHEDULED).exists():
        with capture(execute=True):
            play_next(cup)


def test_a_finished_pool_names_its_winner_by_the_tie_breaker_and_stops_guessing(
    cup: Any, pool: Any, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Three fans level on points after the final were each shown "33.3% ± 1.1" to win a
    # pool with nothing left to play, and no page said who won.
    a = services.entry_join(challenge=pool, user=alice, name="Far")
    b = services.entry_join(challenge=pool, user=bob, name="Near")
    services.entry_save(entry=a, user=alice, picks=chalk(cup), tiebreak=20)
    services.entry_save(entry=b, user=bob, picks=chalk(cup), tiebreak=480)
    finish(cup, django_capture_on_commit_callbacks)
    total = services.final_total(cup)
    assert total is not None and 60 < total < 400
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.points == b.points
    near, far = (b, a) if abs(480 - total) < abs(20 - total) else (a, b)
    assert (near.win_probability, near.win_error) == (1.0, 0.0)
    assert (far.win_probability, far.win_error) == (0.0, 0.0)
    page = Client().get(pool.get_absolute_url())
    text = page.content.decode()
    assert "The tournament is over." in text
    assert f'The pool\'s winner: <a href="{near.get_absolute_url()}">{near.name}</a>' in text
    assert f"The final's total: {total} points" in text
    assert [e.pk for e in page.context["page"].object_list] == [near.pk, far.pk]
    body = text.split("<tbody>")[1].split("</tbody>")[0]
    assert "<td>100%</td>" in body and "±" not in body
    api = Client().get(f"/api/challenges/{pool.pk}/standings/").json()["results"]
    assert [r["id"] for r in api] == [near.pk, far.pk]
    # Each fan's own list says the pool is over, and who won it.
    for entry, state in ((near, "over: won the pool"), (far, "over")):
        mine = signed(entry.user).get("/fans/entries/").content.decode()
        assert f'<span class="state">{state}</span>' in mine
    # The places the page gives, in the API too: the tie-breaker has parted the two.
    places = [e.place for e in page.context["page"].object_list]
    assert [r["place"] for r in api] == places == [1, 2]
    # The pool's own answer says who won, as its page does.
    result = Client().get(f"/api/challenges/{pool.pk}/").json()["result"]
    assert result == {
        "final_total": total,
        "winners": [{"id": near.pk, "fan": near.user.get_username(), "entry": near.pk,
                     "name": near.name, "user": near.user.get_username(),
                     "points": near.points, "tiebreak": near.tiebreak}],
    }  # fmt: skip
    # A winner is matched to its standings row by the row's own names, id and fan.
    row = next(r for r in api if r["id"] == result["winners"][0]["id"])
    assert row["fan"] == result["winners"][0]["fan"]


def test_a_finished_pool_shares_the_win_between_entries_level_on_the_tie_breaker_too(
    cup: Any, pool: Any, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    a = services.entry_join(challenge=pool, user=alice)
    b = services.entry_join(challenge=pool, user=bob)
    for entry, user in ((a, alice), (b, bob)):
        services.entry_save(entry=entry, user=user, picks=chalk(cup), tiebreak=150)
    finish(cup, django_capture_on_commit_callbacks)
    result = services.pool_result(pool)
    assert result is not None and {e.pk for e in result.winners} == {a.pk, b.pk}
    a.refresh_from_db()
    assert a.win_probability == 0.5
    assert "sharing the win" in Client().get(pool.get_absolute_url()).content.decode()


def test_a_save_from_a_page_older_than_the_entry_is_refused_not_silently_undone(
    cup: Any, pool: Any, alice: Any
) -> None:
    # Two tabs: the first saved, the second (opened before) saved after it and undid the
    # first's picks without a word.
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    client = signed(alice)
    first = client.get(entry.get_absolute_url()).context["version"]
    second = client.get(entry.get_absolute_url()).context["version"]
    upset = {"R1-1": s[4], "R1-2": s[3], "R2-1": s[4]}
    saved = client.post(
        entry.get_absolute_url(), {"picks": json.dumps(upset), "tiebreak": "", "version": first}
    )
    assert saved.status_code == 302
    stale = client.post(
        entry.get_absolute_url(),
        {"picks": json.dumps(chalk(cup)), "tiebreak": "", "version": second},
    )
    assert stale.status_code == 409
    assert "saved from another tab or device" in stale.content.decode()
    assert stale.context["data"]["picks"] == chalk(cup)  # what he sent, kept on the page
    entry.refresh_from_db()
    assert entry.picks == upset
    again = client.post(
        entry.get_absolute_url(),
        {"picks": json.dumps(chalk(cup)), "tiebreak": "", "version": stale.context["version"]},
    )
    assert again.status_code == 302
    entry.refresh_from_db()
    assert entry.picks == chalk(cup)


def test_the_tie_breaker_is_shown_on_the_entry_and_an_emptied_one_is_cleared(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    client = signed(alice)
    client.post(entry.get_absolute_url(), {"picks": json.dumps(chalk(cup)), "tiebreak": "141"})
    play_next(cup)  # locked: the bar with the tie-breaker's box is gone
    page = Client().get(entry.get_absolute_url()).content.decode()
    assert '<dd id="tiebreak-shown">141 points in the final</dd>' in page


def test_emptying_the_tie_breaker_box_clears_it(cup: Any, pool: Any, alice: Any) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    client = signed(alice)
    client.post(entry.get_absolute_url(), {"picks": json.dumps(chalk(cup)), "tiebreak": "141"})
    client.post(entry.get_absolute_url(), {"picks": json.dumps(chalk(cup)), "tiebreak": ""})
    entry.refresh_from_db()
    assert entry.tiebreak is None
    page = client.get(entry.get_absolute_url()).content.decode()
    assert '<dd id="tiebreak-shown">none given</dd>' in page


def test_win_chances_read_as_percentages_with_their_error_on_every_page(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    a = services.entry_join(challenge=pool, user=alice)
    Entry.objects.filter(pk=a.pk).update(win_probability=0.37325, win_error=0.0108)
    lock(pool)  # before the lock, only its fan reads an entry's figures
    want = '37.3% <span class="err">± 1.1</span>'
    assert f"<td>{want}</td>" in Client().get(pool.get_absolute_url()).content.decode()
    assert f'<dd id="chance">{want}</dd>' in Client().get(a.get_absolute_url()).content.decode()
    assert f"<td>{want}</td>" in signed(alice).get("/fans/entries/").content.decode()


def test_an_entry_page_says_why_its_expected_score_is_not_there_yet(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    page = signed(alice).get(entry.get_absolute_url()).content.decode()
    assert 'id="odds-pending"' not in page
    Entry.objects.filter(pk=entry.pk).update(expected=None)  # as before the odds are built
    page = signed(alice).get(entry.get_absolute_url()).content.decode()
    assert "appear once the tournament's exact odds are worked out" in page


def test_a_refusal_on_the_pages_reads_as_a_sentence_and_a_late_join_says_the_pool_is_closed(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    refused = signed(alice).post(
        entry.get_absolute_url(), {"picks": json.dumps(chalk(cup)), "tiebreak": "900"}
    )
    assert "The tie-breaker must be from 0 to 500 points.</p>" in refused.content.decode()
    play_next(cup)
    late = signed(bob).post(f"/challenges/{pool.pk}/join/", {}, follow=True).content.decode()
    assert "this pool takes no new entries" in late
    assert "no entry can be changed" not in late


def test_entries_level_on_points_share_their_place_in_the_standings_across_pages(
    cup: Any, pool: Any, alice: Any, bob: Any, settings: Any
) -> None:
    fans = [alice, bob, *(fan(f"f{i}") for i in range(3))]
    entries = [services.entry_join(challenge=pool, user=f) for f in fans]
    # points 3, 1, 1, 1, 0 (max equal to points: nothing left to play)
    for e, pts in zip(entries, (3, 1, 1, 1, 0), strict=True):
        Entry.objects.filter(pk=e.pk).update(points=pts, max_points=pts)
    lock(pool)  # ranked once locked (before, listed as they joined)
    page = Client().get(pool.get_absolute_url())
    assert [e.place for e in page.context["page"].object_list] == [1, 2, 2, 2, 5]
    old = views.PAGE
    views.PAGE = 2  # the tie runs over a page's edge
    try:
        second = Client().get(f"{pool.get_absolute_url()}?page=2")
        assert [e.place for e in second.context["page"].object_list] == [2, 2]
    finally:
        views.PAGE = old


def test_the_pool_list_tells_an_open_pool_from_a_locked_or_finished_one(
    cup: Any, pool: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Every public pool sat under "Open pools", "picks lock at the first game", long after
    # its tournament was over.
    assert "Open: picks lock at the first game" in Client().get("/challenges/").content.decode()
    play_next(cup)
    listed = Client().get("/challenges/").content.decode()
    assert "Locked: 1 of 3 games played" in listed and "Open:" not in listed
    finish(cup, django_capture_on_commit_callbacks)
    assert "Over: every game played" in Client().get("/challenges/").content.decode()


def test_the_api_lists_one_tournament_s_pools_and_a_pool_is_null_result_until_it_is_over(
    cup: Any, pool: Any
) -> None:
    other = uncoached_cup(league="Challenge League", name="Another Cup", teams=4, seed=8)
    theirs = services.challenge_create(season=other, name="Their pool", round_points=[1, 2])
    listed = Client().get("/api/challenges/", {"season": cup.pk}).json()["results"]
    assert [p["id"] for p in listed] == [pool.pk]
    listed = Client().get("/api/challenges/", {"season": other.pk}).json()["results"]
    assert [p["id"] for p in listed] == [theirs.pk]
    assert Client().get(f"/api/challenges/{pool.pk}/").json()["result"] is None


def test_the_api_clears_a_tie_breaker_with_null_and_keeps_it_when_left_out(
    cup: Any, pool: Any, alice: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    client = signed(alice)
    url = f"/api/challenge-entries/{entry.pk}/"
    client.patch(url, {"tiebreak": 140}, content_type="application/json")
    kept = client.patch(url, {"name": "Renamed"}, content_type="application/json")
    assert kept.json()["tiebreak"] == 140
    cleared = client.patch(url, {"tiebreak": None}, content_type="application/json")
    assert cleared.status_code == 200, cleared.content
    assert cleared.json()["tiebreak"] is None
    entry.refresh_from_db()
    assert entry.tiebreak is None


def test_a_fan_renames_his_entry_on_its_page(cup: Any, pool: Any, alice: Any) -> None:
    # The page had no way to rename "alice's bracket" (only the API had).
    entry = services.entry_join(challenge=pool, user=alice)
    client = signed(alice)
    page = client.get(entry.get_absolute_url()).content.decode()
    assert 'name="name"' in page and 'value="alice&#x27;s bracket"' in page
    saved = client.post(
        entry.get_absolute_url(), {"picks": "{}", "tiebreak": "", "name": "  Upset city "}
    )
    assert saved.status_code == 302
    entry.refresh_from_db()
    assert entry.name == "Upset city"
    blank = client.post(entry.get_absolute_url(), {"picks": "{}", "tiebreak": "", "name": " "})
    assert blank.status_code == 400 and "Give the entry a name." in blank.content.decode()
    entry.refresh_from_db()
    assert entry.name == "Upset city"


def test_a_new_entry_is_scored_when_it_joins_so_its_page_does_not_say_odds_are_pending(
    cup: Any, pool: Any, alice: Any
) -> None:
    # A fan who had just joined read "the expected score appears once the tournament's
    # exact odds are worked out" though they were: his empty entry had never been scored.
    entry = services.entry_join(challenge=pool, user=alice)
    assert entry.expected == 0.0
    page = signed(alice).get(entry.get_absolute_url()).content.decode()
    assert 'id="odds-pending"' not in page


def test_a_private_pool_s_page_says_it_is_joined_by_invitation(cup: Any, alice: Any) -> None:
    private = services.challenge_create(season=cup, name="Family", public=False)
    page = signed(alice).get(private.get_absolute_url()).content.decode()
    assert "A private pool: join it with the invitation code" in page
    assert (
        "A private pool"
        not in Client()
        .get(services.challenge_create(season=cup, name="Open").get_absolute_url())
        .content.decode()
    )


def admin_form(season: Any, **changes: Any) -> dict[str, Any]:
    form = {"season": season.pk, "name": "Admin pool", "round_points": "[1, 2]", "public": "on"}
    return form | {"invite_code": "", "lock_at_0": "", "lock_at_1": ""} | changes


def test_the_admin_refuses_a_lock_time_in_the_past_as_the_api_does(cup: Any) -> None:
    from tests.factories import commissioner

    client = signed(commissioner())
    past = admin_form(cup, lock_at_0="2020-01-01", lock_at_1="12:00:00")
    refused = client.post("/admin/challenge/challenge/add/", past)
    assert refused.status_code == 200
    assert "The lock time must be in the future." in refused.content.decode()
    assert not Entry.objects.exists() and not cup.challenges.exists()


def test_the_admin_does_not_move_a_pool_with_entries_to_another_tournament(
    cup: Any, pool: Any, alice: Any
) -> None:
    # Its entries' picks name the first tournament's games and teams: moved, they would be
    # scored against a bracket they were never made for.
    from tests.factories import commissioner, uncoached_cup

    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    other = uncoached_cup(league="Other League", name="Other Cup", teams=4, seed=9)
    client = signed(commissioner())
    moved = client.post(
        f"/admin/challenge/challenge/{pool.pk}/change/",
        admin_form(other, name=pool.name),
    )
    assert moved.status_code == 200
    assert "its entries picked" in moved.content.decode()
    pool.refresh_from_db()
    assert pool.season_id == cup.pk


def test_saving_after_the_session_ended_asks_to_sign_in_and_another_fan_is_told_why(
    cup: Any, pool: Any, alice: Any, bob: Any
) -> None:
    # Both answered a bare 404 ("Not Found"), as if the entry did not exist.
    entry = services.entry_join(challenge=pool, user=alice)
    sent = {"picks": json.dumps(chalk(cup)), "tiebreak": "140"}
    ended = Client().post(entry.get_absolute_url(), sent, follow=True)
    assert ended.redirect_chain[-1][0] == f"/fans/signin/?next={entry.get_absolute_url()}"
    assert "Your session ended: sign in again" in ended.content.decode()
    other = signed(bob).post(entry.get_absolute_url(), sent)
    assert other.status_code == 403
    assert "Only the fan who made this entry can change it" in other.content.decode()
    entry.refresh_from_db()
    assert entry.picks == {} and entry.tiebreak is None


def test_a_refused_join_keeps_what_the_fan_typed_and_signing_in_to_join_keeps_the_name(
    cup: Any, alice: Any
) -> None:
    # A wrong code reloaded an empty form (the entry's name typed again), and "Sign in to
    # join" forgot the name typed before it.
    private = services.challenge_create(season=cup, name="Family", public=False)
    url = f"/challenges/{private.pk}/join/"
    refused = signed(alice).post(url, {"name": "Upsets only", "invite_code": "guess"})
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "This pool is joined by invitation: the code is not right." in page
    assert 'value="Upsets only"' in page and 'value="guess"' in page
    # With no code given, it asks for one rather than calling it wrong.
    blank = signed(alice).post(url, {"name": "Upsets only"})
    assert "This pool is joined by invitation: give its invitation code." in blank.content.decode()
    assert not Entry.objects.exists()
    anonymous = Client().post(url, {"name": "Upsets only"}, follow=True)
    signin_url = anonymous.redirect_chain[-1][0]
    assert signin_url.startswith("/fans/signin/?next=")
    back = anonymous.context["next"]
    assert back == f"{private.get_absolute_url()}?name=Upsets+only"
    assert 'value="Upsets only"' in signed(alice).get(back).content.decode()


def test_before_any_game_the_win_chances_do_not_claim_a_latest_game(
    cup: Any, pool: Any, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    entry = services.entry_join(challenge=pool, user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    assert "Win chances:" not in Client().get(pool.get_absolute_url()).content.decode()
    lock(pool)  # locked by its time, no game played: the admin's "score again" draws them
    services.challenge_win_odds(challenge_id=pool.pk)
    page = Client().get(pool.get_absolute_url()).content.decode()
    assert "from the exact pair odds as the entries stand (no game played yet)" in page
    assert "after the latest game" not in page
    with django_capture_on_commit_callbacks(execute=True):
        play_next(cup)
    assert "after the latest game" in Client().get(pool.get_absolute_url()).content.decode()


def test_once_the_final_is_played_the_tie_breaker_parts_entries_level_on_points(
    cup: Any, pool: Any, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A pool review: three identical brackets, the pool's winner named by the tie-breaker,
    and the standings still read "1, 1, 1"."""
    carol = fan("carol")
    entries = [services.entry_join(challenge=pool, user=u) for u in (alice, bob, carol)]
    for entry, user in zip(entries, (alice, bob, carol), strict=True):
        services.entry_save(entry=entry, user=user, picks=chalk(cup))
    finish(cup, django_capture_on_commit_callbacks)
    total = services.pool_result(pool).final_total
    for entry, guess in zip(entries, (total + 1, total + 9, None), strict=True):
        Entry.objects.filter(pk=entry.pk).update(tiebreak=guess)
    services.challenge_win_odds(challenge_id=pool.pk)  # the decided pool, scored again
    page = Client().get(pool.get_absolute_url())
    places = {e.pk: e.place for e in page.context["page"].object_list}
    # Every place below the first is parted too (a later review: second places stayed level,
    # though an entry without a tie-breaker loses such a tie to one with it).
    assert places == {entries[0].pk: 1, entries[1].pk: 2, entries[2].pk: 3}
    rows = Client().get(f"/api/challenges/{pool.pk}/standings/").json()["results"]
    assert [(r["id"], r["place"]) for r in rows] == [
        (entries[0].pk, 1), (entries[1].pk, 2), (entries[2].pk, 3),
    ]  # fmt: skip
    # Two entries as near the total, one over and one under, still share their place.
    Entry.objects.filter(pk=entries[2].pk).update(tiebreak=total - 9)
    page = Client().get(pool.get_absolute_url())
    places = {e.pk: e.place for e in page.context["page"].object_list}
    assert places == {entries[0].pk: 1, entries[1].pk: 2, entries[2].pk: 2}
