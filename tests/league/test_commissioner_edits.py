"""A commissioner's edits that would leave a season saying two things at once (a trial user's
report): a tournament's bracket game deleted, a played season's kind, game or rules changed.

The admin refuses to delete a bracket game, saying why and what to do instead; a bracket
that lost a game before (an older admin allowed it) is drawn again by ``simulate``, which
says so, and no message ever sends the commissioner to failed games that do not exist. A
season's kind, reseeding and seed are fixed when it is made, and what its games are played
with (game, options, rules, coach policy, home court) and its teams once it has games: the
admin shows them read-only with the reason, and the API has no way to change them.
"""

from __future__ import annotations

import io
from datetime import date
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from challenge import scoring
from challenge import services as challenge_services
from challenge.models import Entry
from league import services, tournaments
from league.models import Game, Season, SeasonTeam
from tests.factories import commissioner, fan, full_team
from tests.league.api import client_for, throttle_reset

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate", *args, "--no-progress", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def trial_cup(teams: int = 8, *, played: bool = True) -> Season:
    league = services.league_get_or_create(name="Trial League")
    cup = tournaments.tournament_create(
        league=league, name="Trial Cup", teams=[full_team() for _ in range(teams)], seed=3
    )
    if played:
        simulate(f"{league.slug}/{cup.slug}", "--all")
    return cup


def final_of(cup: Season) -> Game:
    return cup.games.get(round=tournaments.season_bracket(cup).rounds)


def winner(game: Game) -> int:
    result = game.result
    return game.home_id if result.home_score > result.away_score else game.away_id


def shown(response: Any) -> list[str]:
    """The admin's messages shown on the page a request ended on."""
    return [str(m) for m in response.context["messages"]]


# -- a tournament's bracket game is not deleted on its own -----------------------------------


def test_the_admin_refuses_to_delete_a_played_final_saying_why_and_what_to_do(client) -> None:
    cup = trial_cup()
    final = final_of(cup)
    champion = tournaments.champion(cup)
    client.force_login(commissioner())
    page = reverse("admin:league_game_delete", args=[final.pk])
    for response in (
        client.get(page, follow=True),
        client.post(page, {"post": "yes"}, follow=True),
    ):
        assert response.redirect_chain[-1][0] == reverse(
            "admin:league_game_change", args=[final.pk]
        )
        (message,) = shown(response)
        assert message.startswith("A tournament's bracket game cannot be deleted on its own")
        assert (
            f"game {final.pk} ({final.away} at {final.home}), the Championship game R3-1 of "
            "Trial League Trial Cup: it crowned the champion." in message
        )
        assert "A played game stays as it was played" in message
        assert "manage.py create_tournament" in message
        assert "To remove a whole tournament, delete its season." in message
        assert "failed" not in message
    assert Game.objects.filter(pk=final.pk, status=Game.Status.FINAL).exists()
    assert tournaments.champion(cup) == champion


def test_the_delete_action_refuses_bracket_games_and_deletes_nothing_of_the_selection(
    client,
) -> None:
    cup = trial_cup(4)
    semi = cup.games.get(bracket_key="R1-1")
    exhibition = services.exhibition_play(home=full_team(), away=full_team(), seed=1)
    client.force_login(commissioner())
    response = client.post(
        reverse("admin:league_game_changelist"),
        {"action": "delete_selected", "_selected_action": [semi.pk, exhibition.pk]},
        follow=True,
    )
    (message,) = shown(response)
    assert (
        f"game {semi.pk} (" in message
        and "R1-1 of Trial League Trial Cup: its winner plays on" in message
    )
    assert f"game {exhibition.pk} " not in message
    assert Game.objects.filter(pk__in=[semi.pk, exhibition.pk]).count() == 2
    # Games outside a bracket are deleted as before, after the admin's confirmation.
    confirm = client.post(
        reverse("admin:league_game_changelist"),
        {"action": "delete_selected", "_selected_action": [exhibition.pk]},
    )
    assert confirm.status_code == 200 and b"Are you sure you want to delete" in confirm.content
    client.post(
        reverse("admin:league_game_changelist"),
        {"action": "delete_selected", "_selected_action": [exhibition.pk], "post": "yes"},
    )
    assert not Game.objects.filter(pk=exhibition.pk).exists()


def test_a_scheduled_or_failed_bracket_game_is_refused_with_what_to_do_instead(client) -> None:
    cup = trial_cup(4, played=False)
    scheduled, failed = cup.games.order_by("bracket_key")
    Game.objects.filter(pk=failed.pk).update(status=Game.Status.FAILED, error="no center")
    client.force_login(commissioner())
    for game, instead in ((scheduled, "Play a game to come (simulate, or at the table)"),
                          (failed, "Retry a failed game once its cause is fixed")):  # fmt: skip
        response = client.get(reverse("admin:league_game_delete", args=[game.pk]), follow=True)
        (message,) = shown(response)
        assert "the next round waits for it" in message and instead in message
    assert cup.games.count() == 2


def test_a_whole_tournament_is_still_deleted_with_its_games(client) -> None:
    cup = trial_cup(4)
    client.force_login(commissioner())
    page = reverse("admin:league_season_delete", args=[cup.pk])
    assert b"Are you sure you want to delete" in client.get(page).content
    client.post(page, {"post": "yes"})
    assert not Season.objects.filter(pk=cup.pk).exists() and not Game.objects.exists()


def test_the_api_has_no_way_to_delete_a_game() -> None:
    throttle_reset()
    cup = trial_cup(4)
    final = final_of(cup)
    response = client_for(commissioner()).delete(f"/api/games/{final.pk}/")
    assert response.status_code == 405
    assert Game.objects.filter(pk=final.pk).exists()


# -- a bracket that lost a game before: simulate draws it again, and says so ----------------


def test_simulate_draws_a_deleted_final_again_and_crowns_the_champion() -> None:
    cup = trial_cup()
    final = final_of(cup)
    score = (final.home_id, final.away_id, final.result.home_score, final.result.away_score)
    final.delete()  # as the admin let the trial user do
    assert tournaments.games_to_come(season=cup) == 1 and tournaments.champion(cup) is None

    with pytest.raises(CommandError) as nothing_failed:
        simulate("trial-league/trial-cup", "--retry-failed")
    text = str(nothing_failed.value)
    assert "has no failed game to retry: its bracket is missing a game" in text
    assert "simulate --all" in text

    out = simulate("trial-league/trial-cup", "--all")
    again = final_of(cup)
    assert (
        "The bracket of Trial League Trial Cup was missing 1 game, deleted after it was drawn"
        in out
    )
    assert f"game {again.pk}, Championship:" in out
    assert "1 of 1 games stored, 0 failed." in out
    # The same teams and the same seed: the final is played again as it was.
    assert (again.home_id, again.away_id, again.result.home_score,
            again.result.away_score) == score  # fmt: skip
    assert tournaments.champion(cup) is not None
    assert tournaments.games_to_come(season=cup) == 0


def test_the_pools_stop_counting_a_deleted_final_when_it_is_drawn_again() -> None:
    cup = trial_cup(4, played=False)
    pool = challenge_services.challenge_create(season=cup, name="Office", round_points=[1, 2])
    entry = challenge_services.entry_join(challenge=pool, user=fan("alice"))
    simulate("trial-league/trial-cup", "--all")
    # Alice picked every winner (written here, past the lock, as the test knows them now).
    picks = tournaments.winners_of(cup)
    row = scoring.pick_row(picks, scoring.game_keys(tournaments.season_bracket(cup)))
    Entry.objects.filter(pk=entry.pk).update(picks=picks, pick_row=row)
    challenge_services.challenge_rescore(challenge_ids=[pool.pk])
    assert Entry.objects.get(pk=entry.pk).points == 1 + 1 + 2

    final_of(cup).delete()  # as the admin let the trial user do
    run = services.simulation_start(season=cup, scope="all", dispatch=False)
    assert [g.bracket_key for g in run.redrawn] == ["R2-1"] and run.total == 1
    # The final is drawn again, not played yet: the pool counts the first round alone.
    assert Entry.objects.get(pk=entry.pk).points == 1 + 1
    while services.run_next_game(run=run) is not None:
        pass
    assert Entry.objects.get(pk=entry.pk).points == 1 + 1 + 2


def test_a_bracket_missing_a_game_whose_winner_played_on_is_named_plainly() -> None:
    cup = trial_cup()
    semi = cup.games.get(bracket_key="R2-1")
    semi.delete()
    with pytest.raises(CommandError) as refused:
        simulate("trial-league/trial-cup", "--all")
    text = str(refused.value)
    assert (
        "the bracket of Trial League Trial Cup is missing the Final Four game R2-1, whose "
        "winner played on in the Championship game R3-1" in text
    )
    assert "cannot be drawn and played again" in text and "create_tournament" in text
    assert "failed" not in text


def test_a_bracket_missing_a_game_whose_winner_played_on_still_draws_its_pages(client) -> None:
    # The pages answered 500 ("game 'R3-1' has a winner before both its teams are known"):
    # the lost game's winner is read from the game it fed, its slot drawn without a score.
    cup = trial_cup()
    semi = cup.games.get(bracket_key="R2-1")
    went_on = winner(semi)
    semi.delete()
    for url in (
        f"/seasons/{cup.pk}/",
        f"/seasons/{cup.pk}/bracket/",
        f"/api/seasons/{cup.pk}/bracket/",
        f"/api/tournaments/{cup.pk}/odds/",
    ):
        assert client.get(url).status_code == 200, url
    view = tournaments.bracket_view(cup)
    lost = next(g for r in view["rounds"] for g in r["games"] if g["key"] == "R2-1")
    assert (lost["game_id"], lost["winner_id"]) == (None, went_on)
    assert view["champion"]["team_id"] == winner(final_of(cup))


def test_a_round_waiting_for_a_game_at_the_table_says_so_not_failed_games() -> None:
    cup = trial_cup(4, played=False)
    first, second = cup.games.order_by("bracket_key")
    services.game_play(game_id=first.pk)
    Game.objects.filter(pk=second.pk).update(kind=Game.Kind.REAL_DICE)
    with pytest.raises(CommandError) as refused:
        simulate("trial-league/trial-cup", "--all")
    text = str(refused.value)
    assert f"waits for game(s) {second.pk}, played at the table with real dice" in text
    assert "failed" not in text


def test_a_failed_game_is_still_named_as_the_one_the_round_waits_for() -> None:
    cup = trial_cup(4, played=False)
    first, second = cup.games.order_by("bracket_key")
    services.game_play(game_id=first.pk)
    Game.objects.filter(pk=second.pk).update(status=Game.Status.FAILED, error="no center")
    with pytest.raises(CommandError, match=rf"waits for failed game\(s\) {second.pk}: retry"):
        simulate("trial-league/trial-cup", "--all")


# -- a season's kind, game and rules are fixed once it has games ------------------------------


@pytest.fixture
def played_season() -> Season:
    season = services.season_create(
        league=services.league_get_or_create(name="Trial League"),
        name="Winter",
        teams=[full_team() for _ in range(4)],
        start_date=date(2026, 1, 1),
        seed=4,
    )
    simulate("trial-league/winter", "--round", "1")
    return season


def season_change_form(season: Season, **changes: object) -> dict[str, object]:
    entries = list(season.entries.all())
    form: dict[str, object] = {
        "league": season.league_id,
        "name": season.name,
        "slug": season.slug,
        "start_date": season.start_date.isoformat() if season.start_date else "",
        "kind": "tournament",
        "game": "sixdice",
        "options": '{"faces": 6}',
        "rules": "basic",
        "home_court": "",
        "reseed": "on",
        "entries-TOTAL_FORMS": len(entries),
        "entries-INITIAL_FORMS": len(entries),
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
        "runs-TOTAL_FORMS": 0,
        "runs-INITIAL_FORMS": 0,
        "runs-MIN_NUM_FORMS": 0,
        "runs-MAX_NUM_FORMS": 1000,
    }
    for n, entry in enumerate(entries):
        form |= {
            f"entries-{n}-id": entry.pk,
            f"entries-{n}-season": season.pk,
            f"entries-{n}-team": full_team().pk,  # an attempt to swap the team
            f"entries-{n}-conference": "Moved",
            f"entries-{n}-region": "",
            f"entries-{n}-seed": "",
            f"entries-{n}-DELETE": "on" if n == 0 else "",
        }
    return form | changes


def test_a_played_seasons_kind_game_and_rules_are_read_only_with_the_reason(
    client, played_season
) -> None:
    season = played_season
    client.force_login(commissioner())
    page = client.get(reverse("admin:league_season_change", args=[season.pk]))
    form = page.context["adminform"].form
    for name in ("kind", "game", "options", "rules", "strategy", "home_court", "reseed", "seed"):
        assert name not in form.fields, name
    assert {"name", "slug", "league", "start_date"} <= set(form.fields)
    text = page.content.decode()
    assert "Trial League Winter has 6 games, 2 played" in text
    assert "To play another game or other rules, add a season." in text
    # The teams are fixed too (no team swapped, added or taken out); a conference moves.
    entries = page.context["inline_admin_formsets"][0]
    assert "team" not in entries.formset.forms[0].fields
    assert not entries.has_add_permission and not entries.has_delete_permission

    before = {
        name: getattr(season, name)
        for name in ("kind", "game", "options", "rules", "strategy", "home_court", "reseed")
    }
    teams = set(season.entries.values_list("team_id", flat=True))
    response = client.post(
        reverse("admin:league_season_change", args=[season.pk]),
        season_change_form(season, name="Winter 2026"),
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    season.refresh_from_db()
    assert season.name == "Winter 2026"
    assert {name: getattr(season, name) for name in before} == before
    assert set(season.entries.values_list("team_id", flat=True)) == teams
    assert set(season.entries.values_list("conference", flat=True)) == {"Moved"}
    assert not season.games.exclude(game="vabg").exists()


def test_the_reason_a_season_is_read_only_shows_its_names_as_text_not_markup(
    client, played_season
) -> None:
    """The admin writes a fieldset's description as HTML: a season named with markup (by a
    commissioner, in the admin or through the API) ran it as script on every commissioner
    who opened the season."""
    season = played_season
    season.name = '<img src=x onerror="alert(1)">'
    season.save()
    client.force_login(commissioner())
    text = client.get(reverse("admin:league_season_change", args=[season.pk])).content.decode()
    assert '<img src=x onerror="alert(1)">' not in text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; has 6 games, 2 played" in text


def test_a_tournaments_kind_and_seeds_are_fixed_from_its_first_game(client) -> None:
    cup = trial_cup(4, played=False)  # scheduled games only: already made with its settings
    client.force_login(commissioner())
    page = client.get(reverse("admin:league_season_change", args=[cup.pk]))
    form = page.context["adminform"].form
    assert not {"kind", "game", "rules", "home_court", "reseed"} & set(form.fields)
    assert "has 2 games, 0 played" in page.content.decode()
    assert "To play another game or other rules, draw a new tournament." in page.content.decode()
    entry_fields = page.context["inline_admin_formsets"][0].formset.forms[0].fields
    assert not {"team", "region", "seed"} & set(entry_fields)
    # The bracket page still answers once the season is saved.
    response = client.post(
        reverse("admin:league_season_change", args=[cup.pk]),
        season_change_form(cup, **{"entries-0-DELETE": ""}),
    )
    assert response.status_code == 302
    cup.refresh_from_db()
    assert (cup.kind, cup.game) == ("tournament", "vabg")
    assert client.get(f"/seasons/{cup.pk}/bracket/").status_code == 200


def test_a_season_without_games_keeps_its_rules_editable_but_never_its_kind(client) -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Trial League"),
        name="Empty",
        teams=[full_team() for _ in range(2)],
        seed=1,
    )
    season.games.all().delete()
    client.force_login(commissioner())
    page = client.get(reverse("admin:league_season_change", args=[season.pk]))
    form = page.context["adminform"].form
    assert {"game", "options", "rules", "strategy", "home_court"} <= set(form.fields)
    assert not {"kind", "reseed", "seed"} & set(form.fields)
    assert "fixed when it is made" in page.content.decode()
    assert SeasonTeam.objects.filter(season=season).count() == 2


def test_a_bracket_games_teams_and_a_season_games_game_are_fixed_in_the_game_admin(
    client,
) -> None:
    cup = trial_cup(4, played=False)
    game = cup.games.first()
    client.force_login(commissioner())
    page = client.get(reverse("admin:league_game_change", args=[game.pk]))
    fields = set(page.context["adminform"].form.fields)
    assert not {"home", "away", "season", "round", "game", "options"} & fields
    assert {"label", "kind", "game_date"} <= fields
    assert "come from the tournament" in page.content.decode()


def game_change_form(game: Game, **changes: object) -> dict[str, object]:
    """The game admin's change form as it comes, with ``changes``."""
    form: dict[str, object] = {
        "label": game.label, "home": game.home_id, "away": game.away_id,
        "neutral": "on" if game.neutral else "", "rules": game.rules,
        "strategy": "on" if game.strategy else "", "kind": game.kind,
        "game_date": game.game_date.isoformat() if game.game_date else "",
        "season": game.season_id or "", "round": game.round or "",
    }  # fmt: skip
    return form | changes


def test_a_season_game_stays_in_its_season_between_its_teams(client, played_season) -> None:
    """A trial commissioner moved a scheduled game into a finished season, a six-dice
    season and out of every season, and gave it a team from outside: each was saved, and a
    finished season's standings changed. Now the season is fixed and the teams checked."""
    other = services.season_create(
        league=played_season.league, name="Spring", teams=[full_team() for _ in range(4)],
        start_date=date(2026, 3, 1), seed=5,
    )  # fmt: skip
    game = played_season.games.filter(status=Game.Status.SCHEDULED).first()
    client.force_login(commissioner())
    url = reverse("admin:league_game_change", args=[game.pk])
    page = client.get(url)
    assert "season" not in page.context["adminform"].form.fields
    assert "It stays in its season" in page.content.decode()
    # A season sent anyway is not taken: the game stays where it is.
    client.post(url, game_change_form(game, season=other.pk, label="Moved?"))
    client.post(url, game_change_form(game, season="", label="Out?"))
    game.refresh_from_db()
    assert game.season_id == played_season.pk
    # A team from outside the season is refused on the form, naming it; nothing is saved.
    stranger = other.entries.first().team
    refused = client.post(url, game_change_form(game, home=stranger.pk))
    assert refused.status_code == 200
    assert f"{stranger} is not a team of {played_season}" in refused.content.decode()
    game.refresh_from_db()
    assert game.home_id != stranger.pk
    # Its own season's teams are still a commissioner's to swap (home and away).
    swapped = client.post(url, game_change_form(game, home=game.away_id, away=game.home_id))
    assert swapped.status_code == 302
    # An exhibition added here stays one: no season to choose.
    add = client.get(reverse("admin:league_game_add"))
    assert "season" not in add.context["adminform"].form.fields


def test_the_api_has_no_way_to_change_or_delete_a_season(played_season) -> None:
    throttle_reset()
    api = client_for(commissioner())
    url = f"/api/seasons/{played_season.pk}/"
    for method in ("patch", "put", "delete"):
        response = getattr(api, method)(
            url, {"kind": "tournament", "game": "sixdice"}, format="json"
        )
        assert response.status_code == 405, method
    played_season.refresh_from_db()
    assert (played_season.kind, played_season.game) == ("season", "vabg")


# -- a tournament played again ----------------------------------------------------------------


def test_a_tournament_is_played_again_with_its_very_bracket_and_the_first_keeps_its_games(
    client,
) -> None:
    # A trial commissioner wanted to re-run his bracket after mending a card: there was no
    # way but to rebuild it by hand.
    cup = trial_cup()
    played = {g.pk: (g.result.home_score, g.result.away_score) for g in cup.games.all()}
    client.force_login(commissioner())
    response = client.post(
        reverse("admin:league_season_changelist"),
        {"action": "play_again", "_selected_action": [cup.pk]},
        follow=True,
    )
    again = Season.objects.get(name="Trial Cup (again)")
    assert any("Trial Cup (again)" in m and "bracket again" in m for m in shown(response))
    assert again.bracket == cup.bracket and again.seed != cup.seed
    assert (again.game, again.rules, again.strategy, again.home_court) == (
        cup.game, cup.rules, cup.strategy, cup.home_court
    )  # fmt: skip
    assert sorted(again.entries.values_list("team_id", "region", "seed")) == sorted(
        cup.entries.values_list("team_id", "region", "seed")
    )
    assert again.games.count() == 4 and not again.games.filter(status=Game.Status.FINAL)
    assert {g.pk: (g.result.home_score, g.result.away_score) for g in cup.games.all()} == played
    # From the command line too, under a name of one's own; then a second replay's name.
    out = io.StringIO()
    call_command(
        "create_tournament", "Trial League", "Trial Cup rerun", "--again", "trial-league/trial-cup",
        "--seed", "9", stdout=out,
    )  # fmt: skip
    assert "Trial Cup's bracket again" in out.getvalue() and "seed 9" in out.getvalue()
    assert tournaments.again_name(cup) == "Trial Cup (again 2)"
    with pytest.raises(CommandError, match="a replay stays in its tournament's league"):
        call_command("create_tournament", "Other", "X", "--again", "trial-league/trial-cup")


def test_a_tournament_with_no_game_played_is_not_played_again(client) -> None:
    """Its bracket is drawn and waiting: "play again" made a second, identical one."""
    cup = trial_cup(played=False)
    client.force_login(commissioner())
    response = client.post(
        reverse("admin:league_season_changelist"),
        {"action": "play_again", "_selected_action": [cup.pk]},
        follow=True,
    )
    assert any("has no game played yet: simulate it" in m for m in shown(response))
    assert Season.objects.filter(kind=Season.Kind.TOURNAMENT).count() == 1


def test_a_round_robin_season_is_not_played_again_as_a_bracket() -> None:
    season = services.season_create(
        league=services.league_get_or_create(name="Trial League"),
        name="Winter",
        teams=[full_team() for _ in range(3)],
        start_date=date(2026, 1, 1),
        seed=1,
    )
    with pytest.raises(services.SeasonRefused, match="not a tournament"):
        tournaments.tournament_again(season=season)


def test_a_season_renamed_to_another_seasons_name_is_refused_on_its_name() -> None:
    """A commissioner's review: renamed in the admin (its slug kept), a season took
    another's name, and the pages and the API listed two "March Madness"."""
    from django.core.exceptions import ValidationError

    league = services.league_get_or_create(name="Renames")
    teams = [full_team() for _ in range(2)]
    services.season_create(league=league, name="March Madness", teams=teams, seed=1)
    winter = services.season_create(league=league, name="Winter 2026", teams=teams, seed=2)
    winter.name = "march madness"
    with pytest.raises(ValidationError) as refused:
        winter.full_clean()
    assert refused.value.message_dict == {
        "name": ["Renames already has a season named 'March Madness': give this one another name."]
    }
    winter.name = "Winter 2026, renamed"
    winter.full_clean()  # its own name, or a new one, is no clash
