"""What a demanding fan's review of the bracket challenge found (2026-11-29): each test a
problem met on the pages or the API of a live all-time 96 tournament."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from challenge import services
from challenge.models import Challenge, Entry
from league import tournaments
from league.models import SeasonTeam
from tests.challenge.conftest import chalk, play_next, seeds

pytestmark = pytest.mark.django_db


def signed(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_two_entries_of_a_pool_never_share_a_name(pool: Any, alice: Any, bob: Any) -> None:
    # The standings name the entries alone: two "My bracket" rows could not be told apart,
    # by their own fans either.
    services.entry_join(challenge=pool, user=alice, name="My bracket")
    page = signed(bob).post(
        f"/challenges/{pool.pk}/join/", {"name": "my BRACKET ", "invite_code": ""}
    )
    assert page.status_code == 409
    text = page.content.decode()
    assert "Another entry in this pool is called “my BRACKET”: give yours another name." in text
    assert 'value="my BRACKET "' in text  # the form as typed, to change it
    assert not Entry.objects.filter(user=bob).exists()

    own = services.entry_join(challenge=pool, user=bob, name="Bob's picks")
    renamed = signed(bob).post(own.get_absolute_url(), {"picks": "{}", "name": "My Bracket"})
    assert renamed.status_code == 409
    own.refresh_from_db()
    assert own.name == "Bob's picks"

    api = APIClient()
    api.force_authenticate(bob)
    answer = api.patch(f"/api/challenge-entries/{own.pk}/", {"name": "MY BRACKET"}, format="json")
    assert answer.status_code == 409
    assert "name" in answer.json()
    # Its own name again, in another case, is no clash.
    mine = Entry.objects.get(user=alice)
    services.entry_save(entry=mine, user=alice, name="MY BRACKET")
    assert Entry.objects.get(user=alice).name == "MY BRACKET"


def test_a_save_refused_by_the_lock_shows_the_saved_bracket_not_the_picks_sent(
    cup: Any, pool: Any, alice: Any
) -> None:
    # A page left open past the first game, saved: the refusal came back with the picks
    # sent drawn as the entry's, marked won and lost, though none of them counts.
    s = seeds(cup)
    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks={"R1-1": s[1]})
    play_next(cup)
    page = signed(alice).post(
        entry.get_absolute_url(), {"picks": json.dumps(chalk(cup) | {"R1-1": s[4]})}
    )
    assert page.status_code == 409
    text = page.content.decode()
    assert "Picks are locked" in text
    assert page.context["data"]["picks"] == {"R1-1": s[1]}
    assert page.context["data"]["unsaved"] is False
    assert page.context["picked"] == 1


def test_a_private_pool_s_gate_says_its_code_is_read_in_any_case(
    cup: Any, alice: Any, bob: Any
) -> None:
    # The gate said "Codes are read exactly as given, capitals and all" while a code is
    # read in any case: a fan with a code typed in small letters from a message retyped
    # it in capitals, or gave up.
    hidden = services.challenge_create(
        season=cup, name="Family pool", round_points=[1, 2], public=False, invite_code="ABCD42"
    )
    gate = signed(bob).get(hidden.get_absolute_url())
    assert gate.status_code == 403
    note = gate.content.decode()
    assert "capitals and all" not in note
    assert "A code is read in any case" in note
    joined = signed(bob).post(
        f"/challenges/{hidden.pk}/join/", {"name": "Bob's", "invite_code": " abcd42 "}
    )
    assert joined.status_code == 302


def test_the_entry_page_says_when_its_picks_lock(pool: Any, alice: Any) -> None:
    # The page a fan picks on never said until when: the lock time was on the pool's page
    # alone, and picks not saved by then are lost.

    Challenge.objects.filter(pk=pool.pk).update(lock_at=datetime(2099, 3, 1, 18, 30, tzinfo=UTC))
    entry = services.entry_join(challenge=pool, user=alice)
    text = signed(alice).get(entry.get_absolute_url()).content.decode()
    assert (
        'Picks lock at <time datetime="2099-03-01T18:30:00+00:00" data-local>2099-03-01 18:30 UTC'
        "</time> "
        "or at the tournament's first game, whichever comes first: only saved picks count."
    ) in text
    Challenge.objects.filter(pk=pool.pk).update(lock_at=None)
    text = signed(alice).get(entry.get_absolute_url()).content.decode()
    assert "Picks lock at the tournament's first game: only saved picks count." in text


def test_who_picked_whom_reads_a_winner_apart_from_its_mark(
    cup: Any, pool: Any, alice: Any
) -> None:
    # "West Virginia 2010won": the mark ran into the team's name for a screen reader, a
    # copy or a page read without its style.

    entry = services.entry_join(challenge=pool, user=alice)
    services.entry_save(entry=entry, user=alice, picks=chalk(cup))
    play_next(cup)
    page = signed(alice).get(f"/challenges/{pool.pk}/picks/").content.decode()
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))

    winner = tournaments.winners_of(cup)["R1-1"]
    name = str(SeasonTeam.objects.get(season=cup, team_id=winner).team)
    assert f"{name} won" in words


def test_a_fan_s_own_pages_are_kept_by_no_cache_the_browser_s_included(
    pool: Any, alice: Any, bob: Any
) -> None:
    """Signed out on a shared computer, Back showed the fan's entry (picks not public
    before the lock) and his list of entries from the browser's cache."""
    entry = services.entry_join(challenge=pool, user=alice)
    for url in (entry.get_absolute_url(), reverse("challenge:mine")):
        kept = signed(alice).get(url)
        assert kept.status_code == 200, url
        assert "no-store" in kept["Cache-Control"] and "private" in kept["Cache-Control"], url
    # Another fan's view of it (his picks hidden until the lock) is not his: nothing to hide.
    assert "no-store" not in signed(bob).get(entry.get_absolute_url()).get("Cache-Control", "")
