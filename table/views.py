"""The pages of Play at the table: your games, a new game, and the live score sheet."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.db.models import Count
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from cards.models import Team
from challenge import accounts
from challenge.views import too_many
from core.api import ID_MAX
from core.roles import is_commissioner
from league.games import league_game
from league.models import ROW_FIELDS, Game, Season
from simulator.games import DEFAULT_GAME, Option, find_game, game_choices, game_names
from simulator.games import Game as Engine
from table import services
from table.models import TableGame
from table.presentation import table_state

SIGN_IN = "table:sign-in"


class SignInView(LoginView):
    """Sign in to play at the table (any account; the admin's login is for staff only)."""

    template_name = "table/sign_in.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return "/table/"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Counted by address with the fans' sign-in (CHALLENGE_SIGNIN_RATE): this page took
        # passwords unthrottled, each try a password hash's cost.
        wait = accounts.over_rate(request, "signin", accounts.signin_rate())
        if wait is not None:
            return too_many(request, "sign-in attempts", wait)
        answer: HttpResponse = super().post(request, *args, **kwargs)
        return answer


class StartForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices(), initial=DEFAULT_GAME, required=False)
    away = forms.ModelChoiceField(
        queryset=Team.objects.none(), label="Visitors (their dice come first)"
    )
    home = forms.ModelChoiceField(queryset=Team.objects.none(), label="Home")
    rules = forms.ChoiceField(choices=[("advanced", "Advanced"), ("basic", "Basic")])
    court = forms.ChoiceField(
        choices=[("home", "At the home team's court"), ("neutral", "Neutral court")]
    )
    strategy = forms.BooleanField(required=False, label="Coach policy (late fouls, tries for 3)")
    hands = forms.ChoiceField(
        choices=[
            ("both", "Both sides: we make every choice"),
            ("away", "Visitors by hand, home by the computer"),
            ("home", "Home by hand, visitors by the computer"),
            ("none", "The computer for both (each team's coach style)"),
        ],
        initial="both",
        required=False,
        label="Who makes the choices",
    )
    HANDS = {"both": ["home", "away"], "away": ["away"], "home": ["home"], "none": []}

    LABELS = {
        "width": "Grid columns",
        "level": "Level",
        "pieces": "Pieces a team",
        "chip_reroll": "Power Chip reroll (§2.11)",
    }
    """Shorter labels than the options' own help, for the options of the games here."""

    def sides_by_hand(self) -> list[str]:
        """Return the sides whose choices the players make (a game that has them)."""
        data = self.cleaned_data
        if not find_game(data["game"] or DEFAULT_GAME).has_hands:
            return []
        return self.HANDS[data["hands"] or "both"]

    def options(self) -> dict[str, object]:
        """Return the chosen game's rule options that this form asks for, as the game
        names them (a form without them: each option's default)."""
        data = self.cleaned_data
        engine = find_game(data["game"] or DEFAULT_GAME)
        return {
            o.name: o.default if data.get(o.name) in ("", None) else data[o.name]
            for o in _form_options(engine)
        }

    def sections(self) -> list[dict[str, object]]:
        """Return each game's part of the form: its option fields (those with a choice to
        make: VABG's rules, court and coach have fields of their own) and whether its sides
        can be played by hand."""
        out = []
        for name in game_names():
            engine = find_game(name)
            out.append(
                {
                    "game": name,
                    "fields": [self[o.name] for o in _form_options(engine)],
                    "rules_in_fields": name in self.row_games,
                    "note": engine.table_note,
                }
            )
        return out

    def hand_games(self) -> str:
        """Return the games whose sides can be played by hand, as the page's data-game."""
        return " ".join(name for name in game_names() if find_game(name).has_hands)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # Form's own signature
        # Each game's rule options from the game itself: a game added to the simulator's
        # registry brings its own fields.
        self.row_games: set[str] = set()
        for name in game_names():
            engine = find_game(name)
            if all(o.name in ROW_FIELDS for o in engine.options):
                self.row_games.add(name)
            for option in _form_options(engine):
                if option.name not in self.fields:
                    self.fields[option.name] = _option_field(option, self.LABELS)
        teams = Team.objects.order_by(Lower("school"), "season")  # La Salle before LSU
        for side in ("away", "home"):
            field = self.fields[side]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = teams


def _form_options(engine: Engine) -> list[Option]:
    """Return a game's options the new-game form asks for: those with a choice to make,
    not kept in fields of their own (VABG's preset and coach switch)."""
    return [o for o in engine.options if o.name not in ROW_FIELDS and len(o.choices) > 1]


def _option_field(option: Option, labels: dict[str, str]) -> forms.Field:
    """Return the form field of a rule option: a box for a yes/no, else a list."""
    label = labels.get(option.name, option.help or option.name)
    if set(option.choices) == {False, True}:
        return forms.BooleanField(required=False, initial=option.default, label=label)
    values = {str(value): value for value in option.choices}
    return forms.TypedChoiceField(
        choices=[(text, text) for text in values],
        coerce=values.__getitem__,  # the option's own value back from the text posted
        initial=str(option.default),
        required=False,
        label=label,
    )


SCHEDULED_SEASONS = 10
"""Seasons whose scheduled games the table offers a commissioner, the newest first."""
SCHEDULED_A_SEASON = 60
"""Scheduled games offered of each season: its first, in the order they are played."""


def _scheduled(user: object) -> list[dict[str, Any]]:
    """Return, for a commissioner, the newest seasons with games still to play: each
    season's first games in playing order and how many more it has."""
    if not is_commissioner(user):
        return []
    open_games = Game.objects.filter(status=Game.Status.SCHEDULED, season__isnull=False).exclude(
        table_games__status=TableGame.Status.PLAYING
    )
    counts = dict(
        open_games.order_by()
        .values("season_id")
        .annotate(n=Count("id"))
        .values_list("season_id", "n")
    )
    seasons = Season.objects.filter(pk__in=list(counts)).select_related("league")
    groups = []
    for season in seasons.order_by("-created_at", "-pk")[:SCHEDULED_SEASONS]:
        games = list(
            open_games.filter(season=season)
            .select_related("home", "away", "season")
            .order_by("round", "game_date", "pk")[:SCHEDULED_A_SEASON]
        )
        groups.append({"season": season, "games": games, "more": counts[season.pk] - len(games)})
    return groups


STARTED_KEY = "table.started"
"""The session's ``{form token: game id}`` of the games the new-game form started."""
STARTS_KEPT = 20


@never_cache  # his own games: Back after signing out (a shared computer) must not show them
@login_required(login_url=SIGN_IN)
def index(request: HttpRequest) -> HttpResponse:
    """List the user's games at the table and start a new one."""
    form = StartForm(request.POST or None)
    error = ""
    if request.method == "POST":
        try:
            if request.POST.get("league_game"):
                asked = request.POST["league_game"].strip()
                # An id that is no whole number ("abc") raised ValueError out of the view.
                league_game = (
                    Game.objects.filter(pk=int(asked)).first()
                    if asked.isdigit() and int(asked) <= ID_MAX
                    else None
                )
                if league_game is None:
                    raise services.TableRefused("No such scheduled game.")
                # Who makes the choices, as on the new-game form (a game that has them).
                chosen = request.POST.get("scheduled_hands") or "both"
                if chosen not in StartForm.HANDS:
                    raise services.TableRefused(f"No such choice of hands: {chosen!r}.")
                hands = StartForm.HANDS[chosen] if find_game(league_game.game).has_hands else []
                game = services.table_open_scheduled(
                    owner=request.user, league_game=league_game, hands=hands
                )
                return HttpResponseRedirect(game.get_absolute_url())
            # This form sent again (the browser's Back, then Start once more) opens the game
            # it started rather than a second, identical one.
            token = request.POST.get("start_token", "")
            started = request.session.get(STARTED_KEY, {})
            again = TableGame.objects.filter(
                pk=started.get(token), owner_id=request.user.pk, status=TableGame.Status.PLAYING
            ).first()
            if token and again is not None:
                return HttpResponseRedirect(again.get_absolute_url())
            if form.is_valid():
                data = form.cleaned_data
                game = services.table_start(
                    owner=request.user,
                    home=data["home"],
                    away=data["away"],
                    rules=data["rules"],
                    neutral=data["court"] == "neutral",
                    strategy=data["strategy"],
                    game=data["game"] or DEFAULT_GAME,
                    options=form.options(),
                    hands=form.sides_by_hand(),
                )
                if token:
                    # the last few forms' games: enough for the tabs a player keeps open
                    kept = dict(list(started.items())[-(STARTS_KEPT - 1) :])
                    request.session[STARTED_KEY] = {**kept, token: game.pk}
                return HttpResponseRedirect(game.get_absolute_url())
        except services.TableRefused as exc:
            error = str(exc)
    games = TableGame.objects.filter(owner_id=request.user.pk).select_related("home", "away")
    playing = services.scores_filled(g for g in games if g.status == TableGame.Status.PLAYING)
    done = services.scores_filled([g for g in games if g.status != TableGame.Status.PLAYING][:50])
    return render(
        request,
        "table/index.html",
        {
            "form": form,
            "error": error,
            "playing": playing,
            "done": done,
            "scheduled": _scheduled(request.user),
            "start_token": secrets.token_urlsafe(12),
        },
    )


@never_cache  # his own sheet, as the list of his games
@login_required(login_url=SIGN_IN)
def sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The live score sheet of one game: the page asks for each die in turn."""
    game = TableGame.objects.filter(pk=pk, owner_id=request.user.pk).select_related("home", "away")
    table = game.first()
    if table is None:
        raise Http404("No such game at your table.")
    state = table_state(table, services.position_of(table))
    return render(
        request,
        "table/sheet.html",
        {"game": table, "state": state, "options": option_words(table)},
    )


def option_words(table: TableGame) -> list[dict[str, str]]:
    """Return the game's rule options in words, as the league's pages write them: the
    option's name ("chip reroll", its help as the title) and its value (on, off, BBBPSF)."""
    words = {o["name"]: o for o in league_game(table.game).option_words}
    out = []
    for name, value in table.options.items():
        word = words.get(name, {"label": name.replace("_", " "), "help": ""})
        shown = "on" if value is True else "off" if value is False else str(value)
        out.append({"label": word["label"], "help": word["help"], "value": shown})
    return out
