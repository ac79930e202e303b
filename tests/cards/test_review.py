"""The commissioner's review of the admin and the card commands: every way it found to leave a
team unplayable or a page broken is refused (naming what is wrong, nothing saved) or mended."""

from __future__ import annotations

import html
import importlib
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from cards.mapping import team_card, team_document, teams_for_play
from cards.models import Card, Player, Team
from cards.services import team_import
from tests.factories import CardFactory, PlayerFactory, TeamFactory, commissioner, full_team

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
KENTUCKY = FIXTURES / "kentucky-2012.json"
TEAMS_URL = reverse("admin:cards_team_changelist")


def text(response: Any) -> str:
    body = re.sub(r"<style.*?</style>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture
def commish(client: Client) -> Client:
    client.force_login(commissioner())
    return client


def team_page(team: Team, **rows: dict[str, Any]) -> dict[str, Any]:
    """The team change form as a browser posts it, the whole roster in its inline; ``rows``
    change a player's row by his name (``DELETE``, ``slot``, ``role``...)."""
    data: dict[str, Any] = {
        name: getattr(team, name)
        for name in ("school", "season", "conference", "card_source", "dunk_top", "dunk_adjust")
    }
    data |= {"notes": team.notes, "extra": json.dumps(team.extra), "styles": "{}"}
    players = list(Player.objects.filter(team=team).select_related("card").order_by("order"))
    data |= {"players-TOTAL_FORMS": len(players), "players-INITIAL_FORMS": len(players)}
    for n, p in enumerate(players):
        row = {"id": p.pk, "team": team.pk, "name": p.name, "order": p.order,
               "height": p.height, "ppg": p.ppg or ""}  # fmt: skip
        card = getattr(p, "card", None)
        if card is not None:
            row |= {"slot": card.slot, "role": card.role}
        row |= rows.get(p.name, {})
        data |= {f"players-{n}-{k}": v for k, v in row.items()}
    return data


def starter(team: Team, slot: int) -> Card:
    return Card.objects.select_related("player").get(team=team, slot=slot, role="starter")


def stored(team: Team) -> list[tuple[str, int, str]]:
    return sorted(
        Card.objects.filter(team=team).values_list("player__name", "slot", "role").order_by()
    )


# --- 1. The team page's roster: deleting players ---------------------------------------------


def test_deleting_the_slot_1_starter_on_the_team_page_is_refused_and_nothing_saved(
    commish: Client,
) -> None:
    team = full_team()
    guard = starter(team, 1).player.name
    url = reverse("admin:cards_team_change", args=[team.pk])
    before, players = stored(team), Player.objects.filter(team=team).count()
    response = commish.post(
        url, team_page(team, **{guard: {"DELETE": "on"}}) | {"conference": "Changed 12"}
    )
    assert response.status_code == 200
    assert (
        f"Saving the roster (deleting {guard}) would leave {team} unplayable: slot 1 (PG) "
        "has no starter. Nothing was saved."
    ) in text(response)
    team.refresh_from_db()
    assert team.conference != "Changed 12"  # not the team's fields either
    assert (stored(team), Player.objects.filter(team=team).count()) == (before, players)
    # Its file is still written and plays.
    assert team_card(teams_for_play().get(pk=team.pk)).starter(1).name == guard


def test_deleting_five_players_on_the_team_page_names_every_problem(commish: Client) -> None:
    team = full_team()
    names = [starter(team, slot).player.name for slot in range(1, 6)]
    url = reverse("admin:cards_team_change", args=[team.pk])
    response = commish.post(url, team_page(team, **{n: {"DELETE": "on"} for n in names}))
    assert response.status_code == 200
    page = text(response)
    assert "a roster holds 5 to 10 players, this one has 1" in page
    for slot, position in ((2, "SG"), (3, "SF"), (4, "PF"), (5, "C")):
        assert f"slot {slot} ({position}) has no starter" in page
    assert Player.objects.filter(team=team).count() == 6


def test_deleting_a_reserve_on_the_team_page_is_saved(commish: Client) -> None:
    team = full_team()
    reserve = Card.objects.select_related("player").get(team=team, role="reserve").player
    url = reverse("admin:cards_team_change", args=[team.pk])
    assert commish.post(url, team_page(team, **{reserve.name: {"DELETE": "on"}})).status_code == 302
    assert not Player.objects.filter(pk=reserve.pk).exists()
    team_card(teams_for_play().get(pk=team.pk))  # still a playable team


def test_deleting_a_starter_from_his_own_page_or_the_lists_is_refused_too(commish: Client) -> None:
    """The player's and the card's Delete (and the lists' "Delete selected") went round the
    team page's check: each is refused where it would leave a playable team unplayable."""
    team = full_team()
    guard = starter(team, 1)
    asked = commish.get(reverse("admin:cards_player_delete", args=[guard.player.pk]))
    assert asked.status_code == 200 and "slot 1 (PG) has no starter" in text(asked)
    assert 'type="submit"' not in asked.content.decode().split('id="roster-refusal"')[1]
    page = commish.post(
        reverse("admin:cards_player_delete", args=[guard.player.pk]), {"post": "yes"}, follow=True
    )
    assert f"would leave {team} unplayable: slot 1 (PG) has no starter" in text(page)
    card = commish.post(reverse("admin:cards_card_delete", args=[guard.pk]), {"post": "yes"})
    assert card.status_code == 302 and Card.objects.filter(pk=guard.pk).exists()
    listed = commish.post(
        reverse("admin:cards_player_changelist"),
        {"action": "delete_selected", "_selected_action": [guard.player.pk], "post": "yes"},
        follow=True,
    )
    assert "slot 1 (PG) has no starter" in text(listed)
    assert Player.objects.filter(pk=guard.player.pk).exists()
    reserve = Card.objects.select_related("player").get(team=team, role="reserve").player
    gone = commish.post(reverse("admin:cards_player_delete", args=[reserve.pk]), {"post": "yes"})
    assert gone.status_code == 302 and not Player.objects.filter(pk=reserve.pk).exists()


# --- 8. The team page's roster: swapping a starter with a reserve -----------------------------


def test_the_team_page_swaps_a_starter_with_a_reserve_in_one_save(commish: Client) -> None:
    team = full_team()
    first, reserve = starter(team, 1), Card.objects.get(team=team, role="reserve")
    url = reverse("admin:cards_team_change", args=[team.pk])
    half = team_page(team, **{first.player.name: {"role": "reserve"}})
    refused = commish.post(url, half)
    assert refused.status_code == 200
    assert "slot 1 (PG) has no starter" in text(refused)
    assert starter(team, 1) == first
    swap = team_page(
        team,
        **{first.player.name: {"role": "reserve"}, reserve.player.name: {"role": "starter"}},
    )
    assert commish.post(url, swap).status_code == 302
    assert starter(team, 1) == reserve
    first.refresh_from_db()
    assert first.role == "reserve"
    assert reserve.history.latest().history_change_reason == "Changed on the team page"
    assert team_card(teams_for_play().get(pk=team.pk)).starter(1).name == reserve.player.name


def test_the_team_page_moves_two_starters_between_slots(commish: Client) -> None:
    team = full_team()
    guard, forward = starter(team, 2), starter(team, 3)
    url = reverse("admin:cards_team_change", args=[team.pk])
    rows = {guard.player.name: {"slot": 3}, forward.player.name: {"slot": 2}}
    assert commish.post(url, team_page(team, **rows)).status_code == 302
    assert (starter(team, 2), starter(team, 3)) == (forward, guard)
    assert starter(team, 3).ball_numbers.startswith("3")


def test_the_card_forms_refusal_points_at_the_team_page_and_it_does_the_swap(
    commish: Client,
) -> None:
    team = full_team()
    first, reserve = starter(team, 1), Card.objects.get(team=team, role="reserve")
    card_url = reverse("admin:cards_card_change", args=[first.pk])
    data = {f.name: getattr(first, f.name) for f in Card._meta.fields if f.editable}
    data = {k: "" if v is None else v for k, v in data.items() if k not in {"id", "player"}}
    data |= {"positions": ", ".join(map(str, first.positions)), "role": "reserve"}
    refused = text(commish.post(card_url, data))
    assert "Slot and Role of the roster on the admin's team page" in refused
    page = text(commish.get(reverse("admin:cards_team_change", args=[team.pk])))
    assert "Slot Role Ball Card" in page  # the roster's columns, to edit
    swap = {first.player.name: {"role": "reserve"}, reserve.player.name: {"role": "starter"}}
    url = reverse("admin:cards_team_change", args=[team.pk])
    assert commish.post(url, team_page(team, **swap)).status_code == 302
    assert starter(team, 1) == reserve


# --- 2. The player page: moving a player to another team --------------------------------------


def player_page(player: Player, **changes: Any) -> dict[str, Any]:
    data = {"team": player.team_id, "name": player.name, "order": player.order,
            "height": player.height, "ppg": player.ppg or "", "extra": json.dumps(player.extra)}  # fmt: skip
    return data | changes


def test_moving_a_reserve_to_a_full_team_is_refused_with_advice_that_fits(
    commish: Client,
) -> None:
    """A reserve's move refused because the team he joins is full is told to make room
    there, not how to move a starter."""
    home, full = full_team(school="Home U"), full_team(school="Full State")
    for order in range(7, 11):  # the fullest roster: 10 players
        extra = PlayerFactory(team=full, order=order)
        CardFactory(player=extra, slot=2, role="reserve", can_play=5)
    reserve = Card.objects.select_related("player").get(team=home, role="reserve")
    url = reverse("admin:cards_player_change", args=[reserve.player.pk])
    page = text(commish.post(url, player_page(reserve.player, team=full.pk)))
    assert f"would leave {full} unplayable: a roster holds 5 to 10 players" in page
    assert f"first make room for him on {full}'s team page" in page
    assert "to move a starter" not in page
    reserve.refresh_from_db()
    assert reserve.player.team == home


def test_moving_a_starter_to_another_team_is_refused_naming_both_teams(commish: Client) -> None:
    home, away = full_team(school="Home U"), full_team(school="Away State")
    center = starter(home, 5)
    url = reverse("admin:cards_player_change", args=[center.player.pk])
    response = commish.post(url, player_page(center.player, team=away.pk))
    assert response.status_code == 200
    page = text(response)
    assert f"would leave {home} unplayable: slot 5 (C) has no starter" in page
    assert f"would leave {away} unplayable: slot 5 (C) has 2 starters" in page
    assert "His card goes with him, and both teams must stay playable" in page
    center.refresh_from_db()
    assert (center.player.team, center.team) == (home, home)
    for team in (home, away):
        team_card(teams_for_play().get(pk=team.pk))


def test_moving_a_reserve_to_another_team_moves_his_card_too(commish: Client) -> None:
    home, away = full_team(school="Home U"), full_team(school="Away State")
    reserve = Card.objects.select_related("player").get(team=home, role="reserve")
    url = reverse("admin:cards_player_change", args=[reserve.player.pk])
    # At an order of his own there (the away team's reserve has his, 6).
    moved = player_page(reserve.player, team=away.pk, order=7)
    assert commish.post(url, moved).status_code == 302
    reserve.refresh_from_db()
    assert (reserve.player.team, reserve.team) == (away, away)
    assert len(team_card(teams_for_play().get(pk=away.pk)).players) == 7
    assert len(team_card(teams_for_play().get(pk=home.pk)).players) == 5


# --- 3. A player's or a team's Extra must be a JSON object ------------------------------------


@pytest.mark.parametrize("value", ["[1]", "3", '"a text"', "null", "[]", '""'])
def test_the_player_page_refuses_extra_that_is_not_a_json_object(
    commish: Client, value: str
) -> None:
    player = PlayerFactory(extra={"college": "X"})
    url = reverse("admin:cards_player_change", args=[player.pk])
    response = commish.post(url, player_page(player, extra=value))
    assert response.status_code == 200
    assert "Extra must be a JSON object of keys and values" in text(response)
    player.refresh_from_db()
    assert player.extra == {"college": "X"}


def test_the_team_page_refuses_extra_that_is_not_a_json_object(commish: Client) -> None:
    team = full_team()
    url = reverse("admin:cards_team_change", args=[team.pk])
    response = commish.post(url, team_page(team) | {"extra": "[1]"})
    assert response.status_code == 200
    assert "Extra must be a JSON object of keys and values" in text(response)
    team.refresh_from_db()
    assert team.extra == {}


def test_a_non_object_extra_saved_before_is_kept_and_no_reader_crashes(commish: Client) -> None:
    team = full_team()
    player = starter(team, 1).player
    Player.objects.filter(pk=player.pk).update(extra=[1])  # as the old form let it be saved
    Team.objects.filter(pk=team.pk).update(extra=[2])
    document = team_document(teams_for_play().get(pk=team.pk))
    assert document["extra_kept"] == [2]
    assert document["players"][0]["extra_kept"] == [1]
    response = commish.post(TEAMS_URL, {"action": "export_files", "_selected_action": [team.pk]})
    assert response.status_code == 200
    assert json.loads(response.content)["players"][0]["extra_kept"] == [1]
    out = io.StringIO()
    call_command("export_team", str(team), "--print", stdout=out)
    assert json.loads(out.getvalue())["school"] == team.school
    # The migration keeps such a value the same way.
    migration = importlib.import_module("cards.migrations.0006_extra_is_an_object")
    migration.extra_objects(django_apps, None)
    player.refresh_from_db()
    team.refresh_from_db()
    assert (player.extra, team.extra) == ({"extra_kept": [1]}, {"extra_kept": [2]})


# --- 5. The card's History ---------------------------------------------------------------------


def test_the_history_of_a_card_whose_player_was_deleted_opens_and_names_him(
    commish: Client,
) -> None:
    card = CardFactory(player__name="Gone Player")
    team, pk = card.team, card.pk
    card.player.delete()
    response = commish.get(reverse("admin:cards_card_history", args=[pk]))
    assert response.status_code == 200
    assert f"Gone Player card ({team}; player deleted)" in text(response)
    version = Card.history.filter(id=pk).earliest()
    revert = commish.get(reverse("admin:cards_card_simple_history", args=[pk, version.history_id]))
    assert revert.status_code == 200
    assert "No preview: Gone Player card" in text(revert)


def test_the_revert_page_previews_the_version_being_restored(commish: Client) -> None:
    card = CardFactory(steal_top=14)
    Card.objects.get(pk=card.pk).save()  # a second version, unchanged
    card.steal_top = 20
    card.save()
    first = card.history.earliest()
    url = reverse("admin:cards_card_simple_history", args=[card.pk, first.history_id])
    body = commish.get(url).content.decode()
    preview = re.search(r'<div class="vabg-card".*?</table>', body, flags=re.S)
    assert preview
    rows = dict(re.findall(r"<tr><th[^>]*>(.*?)</th><td>(.*?)</td></tr>", preview.group(0)))
    assert rows["Steal"] == "11-14"  # the version's, not the card's 11-20
    current = commish.get(reverse("admin:cards_card_change", args=[card.pk]))
    assert "11-20" in current.content.decode()


# --- 6. export_team: distinct file names, a directory it cannot write -------------------------


def shouting_kentucky() -> tuple[Team, Team]:
    kentucky = team_import(name="k.json", content=KENTUCKY.read_bytes()).team
    document = json.loads(KENTUCKY.read_text()) | {"school": "KENTUCKY"}
    shouting = team_import(name="s.json", content=json.dumps(document)).team
    return kentucky, shouting


def test_export_all_writes_one_file_for_each_team_when_two_names_collide(tmp_path: Path) -> None:
    shouting_kentucky()
    out = io.StringIO()
    call_command("export_team", "--all", "--out", str(tmp_path), stdout=out)
    files = sorted(p.name for p in tmp_path.glob("*.json"))
    assert files == ["kentucky-2012-2.json", "kentucky-2012.json"]
    assert json.loads((tmp_path / "kentucky-2012.json").read_text())["school"] == "Kentucky"
    assert json.loads((tmp_path / "kentucky-2012-2.json").read_text())["school"] == "KENTUCKY"
    assert (
        "KENTUCKY 2012 is written as kentucky-2012-2.json: kentucky-2012.json is Kentucky "
        "2012's (their file names would be the same)."
    ) in out.getvalue()
    assert "2 team files written, one for each team." in out.getvalue()
    # They import back as the two teams they are.
    Team.objects.all().delete()
    call_command("import_team", *map(str, tmp_path.glob("*.json")), stdout=io.StringIO())
    assert sorted(Team.objects.values_list("school", flat=True)) == ["KENTUCKY", "Kentucky"]


def test_the_admins_zip_holds_one_entry_for_each_team_when_two_names_collide(
    commish: Client,
) -> None:
    teams = shouting_kentucky()
    response = commish.post(
        TEAMS_URL, {"action": "export_zip", "_selected_action": [t.pk for t in teams]}
    )
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        names = archive.namelist()
        assert sorted(names) == ["kentucky-2012-2.json", "kentucky-2012.json"]
        assert json.loads(archive.read("kentucky-2012-2.json"))["school"] == "KENTUCKY"


def test_export_team_names_a_directory_it_cannot_write() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    with pytest.raises(CommandError, match=r"^Cannot write into /proc/x: .*nothing was written"):
        call_command("export_team", "Kentucky 2012", "--out", "/proc/x")


# --- 7. A player without a card is never left out of an export silently ----------------------


def test_export_team_says_which_players_it_leaves_out_and_why(tmp_path: Path) -> None:
    team = full_team(school="Home U")
    PlayerFactory(team=team, name="No Card Yet", order=9)
    err = io.StringIO()
    call_command("export_team", str(team), "--out", str(tmp_path), stdout=io.StringIO(), stderr=err)
    assert (
        f"{team}: No Card Yet has no card and is left out of its team file (a player plays, "
        "and is written, by his card): add the card, or delete the player, to export the "
        "whole roster."
    ) in err.getvalue()
    (written,) = tmp_path.glob("*.json")
    assert "No Card Yet" not in written.read_text()


def test_the_admin_export_refuses_a_team_with_a_player_without_a_card(commish: Client) -> None:
    team = full_team(school="Home U")
    PlayerFactory(team=team, name="No Card Yet", order=9)
    for name in ("export_files", "export_zip"):
        response = commish.post(
            TEAMS_URL, {"action": name, "_selected_action": [team.pk]}, follow=True
        )
        assert response["Content-Type"].startswith("text/html")
        page = text(response)
        assert f"{team}: No Card Yet has no card and is left out of its team file" in page
        assert "Nothing was exported." in page


def test_adding_a_player_without_a_card_on_the_team_page_says_he_is_left_out(
    commish: Client,
) -> None:
    team = full_team()
    url = reverse("admin:cards_team_change", args=[team.pk])
    data = team_page(team)
    n = data["players-TOTAL_FORMS"]
    data |= {"players-TOTAL_FORMS": n + 1, f"players-{n}-team": team.pk,
             f"players-{n}-name": "New Guy", f"players-{n}-order": 20,
             f"players-{n}-slot": 3, f"players-{n}-role": "reserve"}  # fmt: skip
    response = commish.post(url, data, follow=True)
    assert response.status_code == 200
    assert "New Guy was added without a card: he plays no game" in text(response)
    new_guy = Player.objects.get(team=team, name="New Guy")
    # The message links to his card's page, filled in with the slot and role of his row.
    link = re.search(r'href="([^"]*/cards/card/add/\?player=[^"]*)"', response.content.decode())
    assert link is not None
    card_page = commish.get(html.unescape(link[1]))
    initial = card_page.context["adminform"].form.initial
    assert (int(initial["player"]), int(initial["slot"]), initial["role"]) == (
        new_guy.pk, 3, "reserve",
    )  # fmt: skip


def test_a_team_the_engine_cannot_write_is_refused_by_the_export_not_a_500(
    commish: Client,
) -> None:
    team = TeamFactory()
    response = commish.post(
        TEAMS_URL, {"action": "export_files", "_selected_action": [team.pk]}, follow=True
    )
    assert response.status_code == 200
    assert f"{team} cannot be written as a team file" in text(response)
    with pytest.raises(CommandError, match="cannot be written as a team file"):
        call_command("export_team", str(team), "--print", stdout=io.StringIO())


def test_export_all_writes_every_team_it_can_and_names_the_one_it_cannot(
    tmp_path: Path,
) -> None:
    """A commissioner's review: one team half-entered in the admin made `export_team --all`
    write nothing at all."""
    done, blank = full_team(school="Done U"), TeamFactory(school="Blank U")
    out = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("export_team", "--all", "--out", str(tmp_path), stdout=out)
    assert str(refused.value).startswith(
        f"1 team not written (1 team file written):\n{blank} cannot be written as a team file"
    )
    assert [p.name for p in tmp_path.glob("*.json")] == [f"done-u-{done.season}.json"]


def test_deleting_a_player_who_has_played_says_what_becomes_of_his_box_lines(
    commish: Client,
) -> None:
    """A commissioner's review: the delete page of a player with games said only "Players:
    1, Cards: 1"; his lines then lost their link to him with no word of it."""
    from league import services as league_services
    from tests.league.api import season_scheduled

    season = season_scheduled(teams=2)
    league_services.game_simulate(game_id=season.games.first().pk)
    reserve = Card.objects.select_related("player").filter(role="reserve").first()
    games = reserve.player.box_lines.count()
    assert games > 0  # he played: the case this page must speak of
    url = reverse("admin:cards_player_delete", args=[reserve.player.pk])
    page = text(commish.get(url))
    assert (
        f"{reserve.player.name} played {games} game{'s' if games > 1 else ''}: deleted, his "
        "box lines keep his name, linked to no player"
    ) in page
    idle = PlayerFactory(team=reserve.team, order=9)  # never played: nothing to say
    assert "linked to no player" not in text(
        commish.get(reverse("admin:cards_player_delete", args=[idle.pk]))
    )
    # Deleted with the Delete box of his team's roster, the save says it as he goes.
    team = reserve.team
    saved = commish.post(
        reverse("admin:cards_team_change", args=[team.pk]),
        team_page(team, **{reserve.player.name: {"DELETE": "on"}}),
        follow=True,
    )
    said = text(saved)
    assert f"{reserve.player.name} played {games} game" in said
    assert "his box lines keep his name, linked to no player" in said
    assert not Player.objects.filter(pk=reserve.player.pk).exists()
