"""Every page of the commissioner's admin opens, and every change form saves as it stands.

One world holds a row of every model the admin shows (a played season, a tournament with a
pool and an entry, games at the table of two games, a research run, an API token, the login
lockout's records); a commissioner opens, for every registered model, its list (searched,
sorted and past its last page too), its add form, a row's change form, history and delete
confirmation, and presses Save on each change form without touching it; a superuser does
the same on the models the commissioner's group may not open. A page opens where the admin
lets its user in and is refused (403) where not, never a server error, and a form saved as shown must save: a field the admin shows but cannot take
back would lock the commissioner out of every edit of that row.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from challenge import services as challenge_services
from league import services, tournaments
from league.research_runs import plan_for_matchups, research_run_create
from simulator.vabg.rules import preset
from table import services as table_services
from tests.factories import commissioner, fan, full_team, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def every_model(module_world: None) -> None:
    from django.test import TestCase
    from rest_framework.authtoken.models import Token

    boss = commissioner()
    get_user_model().objects.create_superuser(username="root-user", password="root-pass-1")
    season = make_season(teams=4, name="Admin 2026", seed=5)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    teams = [full_team() for _ in range(4)]
    cup = tournaments.tournament_create(
        league=services.league_get_or_create(name="Admin Cups"), name="Cup", teams=teams, seed=3
    )
    pool = challenge_services.challenge_create(season=cup, name="Office pool", created_by=boss)
    challenge_services.entry_join(challenge=pool, user=fan())
    table_services.table_start(owner=boss, home=teams[0], away=teams[1])
    table_services.table_start(owner=boss, home=teams[2], away=teams[3], game="sixdice")
    plan = plan_for_matchups(
        pairs=[(teams[0], teams[1])], repetitions=2, rules=preset("advanced"), neutral=True, seed=1
    )
    research_run_create(plan=plan, label="two games")
    Token.objects.create(user=boss)
    # The login lockout's records (django-axes): a wrong password, then the right one.
    login = reverse("admin:login")
    Client().post(login, {"username": "commish", "password": "wrong"}, REMOTE_ADDR="10.0.0.9")
    Client().post(login, {"username": "commish", "password": "commish-password-1"})
    from axes.models import AccessFailureLog  # kept only when its setting is on: one by hand

    AccessFailureLog.objects.create(username="commish", ip_address="10.0.0.9", path_info=login)


class _Form(HTMLParser):
    """The fields of the admin's change form as a browser would send them back."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self._in_form = False
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def _add(self, name: str, value: str) -> None:
        self.data.setdefault(name, []).append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id", "").endswith("_form"):
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._add(a["name"], a.get("value") or "on")
            elif kind not in ("submit", "button", "file", "image"):
                self._add(a["name"], a.get("value", ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self._add(self._select, a.get("value", ""))
        elif tag == "textarea":
            self._textarea, self._text = a.get("name"), ""

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            self._add(self._textarea, self._text.removeprefix("\n"))
            self._textarea = None


def _pages(model: Any) -> dict[str, str]:
    """The admin's pages of ``model`` by what they need: its list (searched; sorted, past its
    last page), its add form and the first row's change form, history and delete."""
    info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    listing = reverse(f"{info}_changelist")
    row = model._default_manager.order_by("pk").first()
    assert row is not None, f"the world has no {model._meta.label} to open"
    return {
        listing: "view",
        listing + "?q=%27%22%3Cx%3E": "view",
        listing + "?o=-1&p=999": "view",
        reverse(f"{info}_add"): "add",
        reverse(f"{info}_change", args=[row.pk]): "view",
        reverse(f"{info}_history", args=[row.pk]): "view",
        reverse(f"{info}_delete", args=[row.pk]): "delete",
    }


@pytest.mark.parametrize("who", ["commish", "root-user"])
def test_every_admin_page_opens_and_every_change_form_saves_as_shown(every_model, who) -> None:
    user = get_user_model().objects.get(username=who)
    request = RequestFactory().get("/admin/")
    request.user = user
    as_commissioner = RequestFactory().get("/admin/")
    as_commissioner.user = get_user_model().objects.get(username="commish")
    client = Client()
    client.force_login(user)
    saved = 0
    for model, model_admin in admin.site._registry.items():
        if who != "commish" and model_admin.has_view_permission(as_commissioner):
            continue  # the commissioner's own models are opened and saved as him
        allowed = {
            "view": model_admin.has_view_permission(request),
            "add": model_admin.has_add_permission(request),
            "delete": model_admin.has_delete_permission(request),
        }
        for page, needs in _pages(model).items():
            response = client.get(page)
            # Open where the admin lets this user in, refused (never a server error) where not.
            assert response.status_code == (200 if allowed[needs] else 403), (who, page)
            if "/change/" not in page or not allowed["view"]:
                continue
            form = _Form()
            form.feed(response.content.decode())
            answer = client.post(page, form.data)
            if not model_admin.has_change_permission(request):
                assert answer.status_code == 403, (who, page)
                continue
            errors = re.findall(r'class="errornote">(.*?)</p>', answer.content.decode(), re.S)
            assert answer.status_code == 302, (who, page, answer.status_code, errors)
            saved += 1
    # The commissioner's own models (cards, league, pools, table); the site's own (accounts,
    # tokens, the login lockout) as a superuser.
    assert saved >= (8 if who == "commish" else 3), saved


def test_a_refused_save_names_each_inline_rows_error_at_the_top(every_model) -> None:
    # A phone shows a season's teams table a third wide: the one bad seed sat far off the
    # screen under "Please correct the error below", naming neither the team nor the field.
    from league.models import Season

    season = Season.objects.get(name="Admin 2026")
    page = reverse("admin:league_season_change", args=[season.pk])
    client = Client()
    client.force_login(get_user_model().objects.get(username="commish"))
    form = _Form()
    form.feed(client.get(page).content.decode())
    rows = [int(k.split("-")[1]) for k in form.data if re.fullmatch(r"entries-\d+-id", k)]
    last = max(n for n in rows if form.data[f"entries-{n}-id"][0])
    entry = season.entries.get(pk=form.data[f"entries-{last}-id"][0])
    form.data[f"entries-{last}-seed"] = ["-4"]
    answer = client.post(page, form.data)
    assert answer.status_code == 200
    summary = re.search(
        r'<ul class="errorlist errors-summary".*?</ul>', answer.content.decode(), re.S
    )
    assert summary is not None
    assert (
        f'<a href="#entries-{last}">Season teams, row {last + 1} ({entry.team}): Seed</a>: '
        in summary.group(0)
    ), summary.group(0)


def test_the_season_add_forms_error_summary_names_fields_as_the_form_shows_them(
    every_model,
) -> None:
    # Fields declared without a label were listed by their Python names
    # ("cross_conference_games: ...") at the top of the refused form.
    client = Client()
    client.force_login(get_user_model().objects.get(username="commish"))
    answer = client.post(
        reverse("admin:league_season_add"),
        {"name": "", "cross_conference_games": "-1", "days_between_rounds": "1"},
    )
    assert answer.status_code == 200
    summary = re.search(
        r'<ul class="errorlist errors-summary".*?</ul>', answer.content.decode(), re.S
    )
    assert summary is not None
    text = summary.group(0)
    assert ">Cross conference games</a>" in text and ">Name</a>" in text, text
    assert "cross_conference_games" not in text.replace('id_cross_conference_games"', "")
