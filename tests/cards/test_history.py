"""Card history: who changed a card, when, from what; games keep the cards they were played with."""

from __future__ import annotations

import html
import io
import re
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from cards.mapping import team_card, teams_for_play
from cards.models import Card, Team
from cards.services import history_reason, team_import
from league.models import BoxLine, Game
from league.services import exhibition_play, game_create, game_simulate
from simulator import SeededDice
from simulator.vabg import play_game, preset, team_from_json
from tests.factories import CardFactory, commissioner, full_team

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
CARD_FORM_FIELDS = [
    f.name for f in Card._meta.fields if f.editable and f.name not in {"id", "player", "positions"}
]


def load(name: str) -> Team:
    path = FIXTURES / name
    return team_import(name=path.name, content=path.read_bytes()).team


def admin_edit(client: Client, card: Card, **changes: Any) -> None:
    """Change a card through its admin form, as the commissioner does."""
    data = {name: getattr(card, name) for name in CARD_FORM_FIELDS}
    data = {name: "" if value is None else value for name, value in data.items()}
    data["positions"] = ", ".join(str(p) for p in card.positions)
    data.update(changes)
    response = client.post(reverse("admin:cards_card_change", args=[card.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    card.refresh_from_db()


@pytest.fixture
def commish(client: Client) -> tuple[Client, Any]:
    user = commissioner()
    client.force_login(user)
    return client, user


def test_an_admin_edit_records_who_changed_the_card_when_and_the_previous_value(
    commish: tuple[Client, Any],
) -> None:
    client, user = commish
    card = CardFactory(free_throw_top=14, block_top=21)
    start = timezone.now()
    admin_edit(client, card, free_throw_top=18, block_top=24)
    latest = card.history.latest()
    assert latest.history_user == user
    assert latest.history_type == "~"
    assert latest.history_change_reason == "Changed in the admin"  # not "None" on the page
    assert start <= latest.history_date <= timezone.now()
    assert (latest.free_throw_top, latest.block_top) == (18, 24)
    previous = latest.prev_record
    assert previous is not None
    assert (previous.free_throw_top, previous.block_top) == (14, 21)
    delta = latest.diff_against(previous)
    assert {(c.field, c.old, c.new) for c in delta.changes} == {
        ("free_throw_top", 14, 18),
        ("block_top", 21, 24),
    }


def test_the_card_history_page_shows_the_commissioner_who_made_the_change(
    commish: tuple[Client, Any],
) -> None:
    client, user = commish
    card = CardFactory()
    admin_edit(client, card, can_play=40)
    response = client.get(reverse("admin:cards_card_history", args=[card.pk]))
    assert response.status_code == 200
    body = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())
    assert f"Changed {user.username}" in body
    assert "Possessions he can play: 37 → 40" in body
    # The version before the edit is one click away, with the old value in its form.
    old = card.history.earliest()
    old_url = reverse("admin:cards_card_simple_history", args=[card.pk, old.history_id])
    old_page = client.get(old_url)
    assert old_page.status_code == 200
    assert old_page.context["adminform"].form.initial["can_play"] == 37


def test_the_history_says_what_loaded_a_card_when_no_one_signed_in_did(
    commish: tuple[Client, Any], tmp_path: Path
) -> None:
    client, _ = commish
    shutil.copy(FIXTURES / "kentucky-2012.json", tmp_path)
    call_command("load_teams", "--dir", str(tmp_path), stdout=io.StringIO())
    card = Card.objects.get(player__name="Anthony Davis")
    page = client.get(reverse("admin:cards_card_history", args=[card.pk])).content.decode()
    row = re.search(r'<table id="change-history".*?</table>', page, flags=re.S)
    assert row is not None
    cells = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", row.group(0))).split())
    assert "Loaded by load_teams from kentucky-2012.json" in cells
    assert " None " not in f" {cells} "
    team = Team.objects.get(school="Kentucky", season=2012)
    assert (
        team.history.get().history_change_reason == "Loaded by load_teams from kentucky-2012.json"
    )


def test_a_team_imported_in_the_admin_names_who_imported_each_row_and_from_which_file(
    commish: tuple[Client, Any],
) -> None:
    # A new team's players and cards go in together (cards.services._insert): each row's
    # first version still names the commissioner signed in and the file, as a save would.
    client, user = commish
    upload = SimpleUploadedFile(
        "kentucky-2012.json", (FIXTURES / "kentucky-2012.json").read_bytes()
    )
    client.post(reverse("admin:cards_team_import"), {"files": upload})
    team = Team.objects.get(school="Kentucky", season=2012)
    rows = [team, *team.players.all(), *Card.objects.filter(team=team)]
    assert len(rows) == 1 + 2 * 8
    for row in rows:
        [version] = row.history.all()
        assert version.history_user == user, row
        assert version.history_type == "+"
        assert version.history_change_reason == "Imported in the admin from kentucky-2012.json"
    davis = Card.objects.get(player__name="Anthony Davis")
    # What a card's save sets (its team, its printed ball numbers) is in its version too.
    assert davis.history.get().ball_numbers == davis.ball_numbers != ""
    assert davis.history.get().team_id == team.pk


def test_reverting_a_card_to_an_earlier_version_restores_it_and_records_the_revert(
    commish: tuple[Client, Any],
) -> None:
    client, user = commish
    card = CardFactory(can_play=37, steal_top=14)
    admin_edit(client, card, can_play=44, steal_top=20)
    original = card.history.earliest()
    url = reverse("admin:cards_card_simple_history", args=[card.pk, original.history_id])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].field.prepare_value(form[name].value()) for name in form.fields}
    response = client.post(url, {k: "" if v is None else v for k, v in data.items()})
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.can_play, card.steal_top) == (37, 14)
    latest = card.history.latest()
    assert latest.history_user == user
    assert (latest.prev_record.can_play, latest.can_play) == (44, 37)
    assert card.history.count() == 3
    # The History says it was a revert, and to which version.
    assert latest.history_change_reason.startswith(f"Reverted to version {original.history_id} of ")


def test_a_refused_admin_edit_records_no_history(commish: tuple[Client, Any]) -> None:
    client, _ = commish
    card = CardFactory()
    before = card.history.count()
    url = reverse("admin:cards_card_change", args=[card.pk])
    data = {name: getattr(card, name) for name in CARD_FORM_FIELDS}
    data = {name: "" if value is None else value for name, value in data.items()}
    response = client.post(url, data | {"positions": "1", "d20_miss2_lo": 18})
    assert response.status_code == 200
    assert card.history.count() == before


def test_a_model_save_records_the_user_set_on_the_card(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user(username="scorer", password="pw-12345678")
    card = CardFactory(can_play=37)
    card.can_play = 30
    card._history_user = user  # type: ignore[attr-defined]
    card.save()
    latest = card.history.latest()
    assert latest.history_user == user
    assert latest.can_play == 30
    assert latest.prev_record.can_play == 37
    assert latest.prev_record.history_user is None  # created by the factory, nobody signed in


def _played_player(team: Team) -> Card:
    """Return the card of a starter: he is in the team file of every game the team plays."""
    return Card.objects.select_related("player").get(team=team, slot=5, role="starter")


def test_a_game_played_before_an_edit_keeps_the_cards_it_was_played_with(
    commish: tuple[Client, Any],
) -> None:
    client, _ = commish
    home, away = load("kentucky-2012.json"), load("kansas-2008.json")
    game = exhibition_play(home=home, away=away, seed=4242)
    result = game.result
    card = _played_player(home)
    name = card.player.name
    old = result.card_as_played("home", name)
    assert old["free_throw_top"] == card.free_throw_top
    assert old["d20"]["2PM"] == f"{card.d20_made2_lo}-{card.d20_made2_hi}"
    lines = sorted(BoxLine.objects.filter(result=result).values_list("name", "pts", "reb"))

    new_ft = 20 if card.free_throw_top != 20 else 19
    # One more d20 number fouled instead of made, and a better free throw.
    fouled_from = card.d20_fouled_lo - 1
    admin_edit(
        client, card, free_throw_top=new_ft, d20_made2_hi=fouled_from - 1, d20_fouled_lo=fouled_from
    )
    assert card.d20_ranges()["FOUL"][0] == fouled_from  # type: ignore[index]

    # The card now reads the new values...
    assert card.free_throw_top == new_ft
    fresh = team_card(teams_for_play().get(pk=home.pk))
    assert next(p for p in fresh.players if p.name == name).free_throw_top == new_ft
    # ...while the stored game still reads the old ones, in its card and its team file.
    result.refresh_from_db()
    as_played = result.card_as_played("home", name)
    assert as_played == old
    assert as_played["free_throw_top"] != new_ft
    snapshot = team_from_json(result.home_team_file)
    assert (
        next(p for p in snapshot.players if p.name == name).free_throw_top == old["free_throw_top"]
    )
    assert sorted(BoxLine.objects.filter(result=result).values_list("name", "pts", "reb")) == lines
    # The snapshot and the seed are enough to replay the game exactly as it was.
    rules = preset(game.rules, strategy=game.strategy)
    assert rules.to_json() == result.rules
    replay = play_game(
        snapshot, team_from_json(result.away_team_file), SeededDice(4242), rules=rules
    )
    assert (replay.home.score, replay.away.score) == (result.home_score, result.away_score)


def test_a_game_simulated_after_an_edit_plays_the_new_card_and_the_earlier_game_the_old(
    commish: tuple[Client, Any],
) -> None:
    client, _ = commish
    home, away = full_team(school="Home U"), full_team(school="Away State")
    earlier = game_simulate(game_id=game_create(home=home, away=away, seed=1).pk)
    scheduled = game_create(home=home, away=away, seed=2)
    card = _played_player(away)
    admin_edit(client, card, can_play=50, steal_top=20)
    later = game_simulate(game_id=scheduled.pk)
    name = card.player.name
    before = earlier.result.card_as_played("away", name)
    after = Game.objects.get(pk=later.pk).result.card_as_played("away", name)
    assert (before["can_play"], before["steal_top"]) == (37, 14)
    # A game scheduled before the edit but played after it uses the card as it was at tip-off.
    assert (after["can_play"], after["steal_top"]) == (50, 20)
    history = card.history.latest()
    assert history.prev_record.can_play == 37 and history.can_play == 50


def test_a_player_removed_after_a_game_still_has_his_card_and_line_in_that_game() -> None:
    home, away = full_team(school="Home U"), full_team(school="Away State")
    game = exhibition_play(home=home, away=away, seed=7)
    reserve = Card.objects.select_related("player").get(team=home, role="reserve")
    name, can_play = reserve.player.name, reserve.can_play
    reserve.player.delete()
    game.result.refresh_from_db()
    assert game.result.card_as_played("home", name)["can_play"] == can_play
    assert not Card.objects.filter(pk=reserve.pk).exists()
    # The card's history keeps the deletion too.
    assert Card.history.filter(id=reserve.pk).latest().history_type == "-"
    line = BoxLine.objects.get(result=game.result, name=name)
    assert line.player_id is None and line.poss > 0


def test_every_save_adds_a_dated_history_row_with_the_value_saved() -> None:
    card = CardFactory()
    for value in (30, 31, 32):
        card.can_play = value
        card.save()
    records = list(card.history.order_by("history_date", "history_id"))
    assert [r.can_play for r in records] == [37, 30, 31, 32]
    dates = [r.history_date for r in records]
    assert dates == sorted(dates)
    assert dates[-1] - dates[0] < timedelta(minutes=1)


def test_a_long_file_name_keeps_its_end_in_the_history_reason() -> None:
    reason = history_reason("Imported by import_team", "/" + "x" * 200 + "/kentucky-2012.json")
    assert len(reason) == 100  # simple_history's column
    assert reason.startswith("Imported by import_team from …")
    assert reason.endswith("x/kentucky-2012.json")
    assert history_reason("Loaded by load_teams", "a.json") == "Loaded by load_teams from a.json"
