"""The challenge's pages: fans' sign-up and sign-in, pools, standings, entries and picking.

Plain server-rendered pages; the entry page's picking is a small script (``picks.js``)
over a form that also works as the API does: the whole set of picks posted at once and
checked by ``challenge.services``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from challenge import accounts, services
from challenge.context_processors import pool_state
from challenge.models import Challenge, Entry
from core.text import counted, wait_words
from league import bracket as brackets
from league import tournaments
from league.models import SeasonTeam

PAGE = 50


class KnownCountPaginator(Paginator):  # type: ignore[type-arg]
    """A paginator told its count (the pool's ``entry_count``) instead of counting rows."""

    def __init__(self, object_list: Any, per_page: int, *, count: int) -> None:
        super().__init__(object_list, per_page)
        self.known = count

    @property
    def count(self) -> int:
        return self.known


def _next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return target
    return default


def _refused(request: HttpRequest, title: str, message: str, status: int) -> HttpResponse:
    """A page that says why the request was refused, with its status."""
    context = {"title": title, "message": message}
    return render(request, "challenge/refused.html", context, status=status)


def _signed_out(request: HttpRequest, item: Entry) -> HttpResponse:
    """Send a fan whose session ended (another tab, expiry) to sign in, back to his entry."""
    messages.error(request, "Your session ended: sign in again to change your entry.")
    return redirect(f"{reverse('challenge:signin')}?next={item.get_absolute_url()}")


def too_many(request: HttpRequest, what: str, wait: int) -> HttpResponse:
    message = f"Too many {what} from this address: try again in {wait_words(wait)}."
    response = _refused(request, "Too many tries", message, 429)
    response["Retry-After"] = str(wait)
    return response


def _purpose(after: str) -> str:
    """What a fan signs up or in for, by where he goes next: the table's games or the
    bracket challenge (one account does both)."""
    return "to play at the table" if after.startswith("/table/") else "to the bracket challenge"


def signup(request: HttpRequest) -> HttpResponse:
    form = accounts.FanSignupForm(request.POST or None)
    if request.method == "POST":
        wait = accounts.rate_wait(request, "signup", accounts.signup_rate())
        if wait is not None:
            return too_many(request, "sign-ups", wait)
        if form.is_valid():
            user = form.save()
            accounts.rate_count(request, "signup", accounts.signup_rate())
            login(request, user, backend="core.auth.AnyCaseUsernameBackend")
            messages.success(request, f"Welcome, {user.get_username()}: you are signed in.")
            return redirect(_next(request, reverse("challenge:list")))
    after = _next(request, "")
    context = {"form": form, "next": after, "purpose": _purpose(after)}
    return render(request, "challenge/signup.html", context)


def signin(request: HttpRequest) -> HttpResponse:
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST":
        wait = accounts.over_rate(request, "signin", accounts.signin_rate())
        if wait is not None:
            return too_many(request, "sign-in attempts", wait)
        # authenticate() runs with the request: django-axes counts a failure and locks out.
        if form.is_valid():
            login(request, form.get_user())
            return redirect(_next(request, reverse("challenge:list")))
    after = _next(request, "")
    context = {"form": form, "next": after, "purpose": _purpose(after)}
    return render(request, "challenge/signin.html", context)


@require_POST
def signout(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("challenge:list")


def challenges(request: HttpRequest) -> HttpResponse:
    """The public pools, and the fan's own entries."""
    pools = list(Challenge.objects.filter(public=True).select_related("season__league"))
    now = timezone.now()
    for p in pools:  # the state from the pool's own columns: no query a pool
        p.state = pool_state(p, now)  # type: ignore[attr-defined]
    mine = []
    if request.user.is_authenticated:
        mine = list(Entry.objects.filter(user=request.user).select_related("challenge__season"))
    open_pools = [p for p in pools if not p.state]  # type: ignore[attr-defined]
    return render(
        request, "challenge/list.html", {"pools": pools, "mine": mine, "open_pools": open_pools}
    )


def _join_form(request: HttpRequest, challenge: Challenge) -> dict[str, str]:
    """The join form as a page first shows it: a name carried through signing in, and the
    code the request brings or the session keeps."""
    code = _code(request) or _kept_code(request, challenge)
    return {"name": request.GET.get("name", "")[:60], "invite_code": code}


def _private(
    request: HttpRequest,
    challenge: Challenge,
    sent: dict[str, str] | None = None,
    status: int = 403,
    wrong: bool | None = None,
) -> HttpResponse:
    """The page a private pool shows whoever may not read it: its name and the join form
    with its invitation code (not its entries nor its fans); the code also opens it to
    read. ``sent``: the form as the fan filled it (a refused join, a name carried through
    signing in)."""
    code = _code(request)
    return render(
        request,
        "challenge/private.html",
        {
            "challenge": challenge,
            # a wrong code brought to read it (a refused join says so itself)
            "wrong": bool(code) if wrong is None else wrong,
            "locked": services.is_locked(challenge),
            "next": request.get_full_path(),
            "sent": sent or _join_form(request, challenge),
        },
        status=status,
    )


def _code(request: HttpRequest) -> str:
    """The invitation code a request brings: ``?code=`` (the link a commissioner shares),
    ``?invite_code=`` (the gate's form) or a join form's ``invite_code``."""
    code = request.GET.get("code") or request.GET.get("invite_code")
    return (code or request.POST.get("invite_code") or "").strip()[:64]


def _session_key(challenge: Challenge) -> str:
    return f"challenge-code-{challenge.pk}"


def _kept_code(request: HttpRequest, challenge: Challenge) -> str:
    """The pool's code this visitor brought before (kept in his session), if still right."""
    kept = str(request.session.get(_session_key(challenge), ""))
    return kept if kept and services.code_matches(challenge, kept) else ""


def _keep_code(request: HttpRequest, challenge: Challenge) -> None:
    """Keep a private pool's code in the session: its fan, or one the code let in, reads
    its pages from now on (after leaving it too, to join again)."""
    if not challenge.public and request.session.get(_session_key(challenge)) != (
        challenge.invite_code
    ):
        request.session[_session_key(challenge)] = challenge.invite_code


def _may_view(request: HttpRequest, challenge: Challenge) -> bool:
    """Tell whether the request may read the pool (:func:`services.can_view_pool`). A right
    invitation code is kept in the session, so its entries' and who-picked-whom pages open
    too (a code the commissioner changes since no longer does); an old link's wrong code
    does not undo a right one kept. A code brought is counted when wrong, and refused
    while the address has brought too many (:func:`accounts.code_brought`: raises
    :class:`accounts.TooManyCodes`); one that brings nothing new is not tried."""
    if services.can_view_pool(challenge, request.user, _kept_code(request, challenge)):
        if _code(request) and services.code_matches(challenge, _code(request)):
            _keep_code(request, challenge)  # a changed code's new link, kept over the old
        return True
    if accounts.code_brought(request, challenge, _code(request)):
        _keep_code(request, challenge)
        return True
    return False


def _too_many_codes(request: HttpRequest, exc: accounts.TooManyCodes) -> HttpResponse:
    assert exc.retry_after is not None
    return too_many(request, "wrong invitation codes", exc.retry_after)


def _gate(request: HttpRequest, challenge: Challenge) -> HttpResponse | None:
    """None where the request may read the pool; else the page it gets instead: the
    private pool's gate, or the 429 of an address that brought too many wrong codes."""
    try:
        if _may_view(request, challenge):
            return None
    except accounts.TooManyCodes as exc:
        return _too_many_codes(request, exc)
    return _private(request, challenge)


def _gone(request: HttpRequest) -> HttpResponse:
    """An entry that is no longer there (its fan took it out of the pool; a page kept open,
    the back button)."""
    message = (
        "This entry is not in any pool any more: its fan took it out, or it was deleted. Your "
        "own entries are under My entries."
    )
    return _refused(request, "No such entry", message, 404)


def _sentence(exc: services.ChallengeRefused) -> str:
    """A refusal as the page shows it: a sentence, capitalised and ended."""
    text = str(exc).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def pool(
    request: HttpRequest, pk: int, sent: dict[str, str] | None = None, status: int = 200
) -> HttpResponse:
    """A pool's standings (50 a page, ranked by points), its rules and the join form."""
    challenge = get_object_or_404(Challenge.objects.select_related("season__league"), pk=pk)
    try:
        allowed = _may_view(request, challenge)
    except accounts.TooManyCodes as exc:
        return _too_many_codes(request, exc)
    if not allowed:
        if sent is not None:  # a refused join: its message says why
            return _private(request, challenge, sent, status, wrong=False)
        return _private(request, challenge)
    if request.method == "POST" and sent is None:
        return redirect(challenge)  # "Only read it": the code is in the session now
    locked = services.is_locked(challenge)
    total = services.final_total(challenge.season) if locked else None
    entries = Entry.objects.filter(challenge=challenge).select_related("user")
    # The pool keeps its count: no COUNT over 10,000 rows on a page view.
    page = KnownCountPaginator(
        entries.order_by(*services.standings_order(challenge, total)),
        PAGE,
        count=challenge.entry_count,
    ).get_page(request.GET.get("page"))
    mine = None
    if request.user.is_authenticated:
        mine = Entry.objects.filter(challenge=challenge, user=request.user).first()
    start = (page.number - 1) * PAGE
    page.object_list = list(page.object_list)  # read once, its rows given their places
    result = services.pool_result(challenge) if locked else None
    if locked:
        services.give_places(challenge, page.object_list, start, total=total)
    for e in page.object_list:  # before the lock, only a fan's own figures show
        e.shown = services.can_see_picks(e, request.user)
    bracket = tournaments.season_bracket(challenge.season)
    rounds = [
        {"name": tournaments.round_name(bracket, n), "points": challenge.round_points[n - 1]}
        for n in range(1, bracket.rounds + 1)
    ]
    champions = _champion_picks(challenge, bracket) if locked else []
    return render(
        request,
        "challenge/pool.html",
        {
            "challenge": challenge,
            "locked": locked,
            "page": page,
            "start": start,
            "mine": mine,
            "rounds": rounds,
            "best_expected": challenge.best_expected if locked else None,
            "total": page.paginator.count,
            "result": result,
            "champions": champions,
            # the join form again as the fan filled it (a refused join; a name carried
            # through signing in)
            "sent": sent or _join_form(request, challenge),
        },
        status=status,
    )


def _champion_picks(challenge: Challenge, bracket: Any, top: int = 5) -> list[dict[str, Any]]:
    """The teams most picked to win the tournament, with their share of the entries."""
    entries, counted = services.pick_counts(challenge)
    (final,) = (g for g in bracket.games if g.round == bracket.rounds)
    picked = [(t, n) for t, n in counted.get(final.key, []) if t][:top]  # 0: a replaced team
    names = {
        e.team_id: str(e.team)
        for e in SeasonTeam.objects.filter(
            season=challenge.season, team_id__in=[t for t, _ in picked]
        ).select_related("team")
    }
    out = services.beaten_teams(bracket, tournaments.winners_of(challenge.season))
    return [
        {"team": names.get(t, f"team {t}"), "entries": n, "percent": 100 * n / max(entries, 1),
         "out": t in out}
        for t, n in picked
    ]  # fmt: skip


@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = get_object_or_404(Challenge, pk=pk)
    if not request.user.is_authenticated:
        back = challenge.get_absolute_url()
        carried = {k: v for k, v in (("name", request.POST.get("name", "").strip()[:60]),
                                     ("code", _code(request))) if v}  # fmt: skip
        if carried:
            back = f"{back}?{urlencode(carried)}"
        return redirect(f"{reverse('challenge:signin')}?{urlencode({'next': back})}")
    try:
        if not challenge.public:  # a wrong code is counted (entry_join refuses it)
            accounts.code_brought(request, challenge, request.POST.get("invite_code", ""))
        entry = services.entry_join(
            challenge=challenge,
            user=request.user,
            name=request.POST.get("name", ""),
            invite_code=request.POST.get("invite_code", ""),
        )
    except accounts.TooManyCodes as exc:
        return _too_many_codes(request, exc)
    except services.ChallengeRefused as exc:
        messages.error(request, _sentence(exc))
        sent = {k: request.POST.get(k, "") for k in ("name", "invite_code")}
        return pool(request, pk, sent=sent, status=exc.status)
    _keep_code(request, challenge)
    messages.success(request, "You are in the pool: pick your bracket.")
    return redirect(entry)


def _bracket_data(entry: Entry) -> dict[str, Any]:
    """The bracket as the picking script reads it: games, teams, results."""
    season = entry.challenge.season
    bracket = tournaments.season_bracket(season)
    teams = {
        e.team_id: {"name": str(e.team), "seed": e.seed, "region": e.region}
        for e in SeasonTeam.objects.filter(season=season).select_related("team")
    }

    def source(s: Any) -> dict[str, Any]:
        if hasattr(s, "team_id"):
            return {"team": s.team_id}
        return {"from": s.game_key}

    return {
        "rounds": [
            {"number": n, "name": tournaments.round_name(bracket, n),
             "points": entry.challenge.round_points[n - 1]}
            for n in range(1, bracket.rounds + 1)
        ],
        "games": [
            {"key": g.key, "round": g.round, "region": g.region or "", "position": g.position,
             "top": source(g.top), "bottom": source(g.bottom)}
            for g in sorted(bracket.games, key=lambda g: g.round)
        ],
        "teams": {str(t): {**teams.get(t, {"name": f"team {t}", "region": ""}),
                           "seed": bracket.seeds[t]} for t in bracket.seeds},
        "winners": tournaments.winners_of(season),
    }  # fmt: skip


def entry(request: HttpRequest, pk: int) -> HttpResponse:
    """An entry: its bracket with hits and misses; the fan's own, before the lock, to pick."""
    item = Entry.objects.select_related("challenge__season__league", "user").filter(pk=pk).first()
    if item is None:
        return _gone(request)
    own = request.user.is_authenticated and item.user_id == request.user.pk
    if not own and (refused := _gate(request, item.challenge)) is not None:
        return refused
    locked = services.is_locked(item.challenge)
    if request.method == "POST":
        if not request.user.is_authenticated:  # signed out meanwhile (another tab, expiry)
            return _signed_out(request, item)
        if not own:
            message = (
                "Only the fan who made this entry can change it. Your own entries are under "
                "My entries."
            )
            return _refused(request, "Not your entry", message, 403)
        try:
            picks = json.loads(request.POST.get("picks") or "{}")
        except (ValueError, RecursionError):
            # Not JSON; a number of thousands of digits (a ValueError, not a decode error);
            # or [[[[... nested past Python's parser: refused as unreadable, not a 500.
            picks = None
        tiebreak = request.POST.get("tiebreak", "")
        try:
            if not isinstance(picks, dict):
                raise services.ChallengeRefused("the picks could not be read: send them again")
            fill = request.POST.get("fill") or None
            saved = services.entry_save(
                entry=item,
                user=request.user,
                picks=picks,
                tiebreak=tiebreak,
                name=request.POST.get("name"),
                fill=fill,
                version=request.POST.get("version") or None,
            )
        except services.ChallengeRefused as exc:
            # The page again with what the fan sent, the refusal above it: nothing he
            # picked is lost to a tie-breaker out of range.
            messages.error(request, _sentence(exc))
            if services.is_locked(item.challenge):
                # Nothing sent can count any more: the bracket as saved, scored, not the
                # picks sent drawn as the entry's and marked won or lost.
                return _entry_page(request, item, own, True, status=exc.status)
            sent = picks if isinstance(picks, dict) else None
            return _entry_page(
                request, item, own, locked, sent, tiebreak, request.POST.get("name"), exc.status
            )
        messages.success(request, _saved_words(saved, fill))
        return redirect(item)
    return _entry_page(request, item, own, locked)


def _saved_words(entry: Entry, fill: str | None) -> str:
    """What a save tells the fan: saved, and what is still to pick (a fill by seed leaves
    the games between equal seeds whose exact odds are not ready yet)."""
    left = services.picks_unfilled(entry.challenge.season, entry.picks)
    if not left:
        return "Your bracket is saved: every game is picked."
    games = counted(left, "game")
    if fill == "favourite":
        return (
            f"Your bracket is saved, filled by seed but for {games} between equal seeds or "
            "after them: the exact odds that break such a tie are still being computed. "
            "Pick them yourself, or fill by seed again later."
        )
    return f"Your bracket is saved; {games} still to pick."


def _entry_page(
    request: HttpRequest,
    item: Entry,
    own: bool,
    locked: bool,
    sent: dict[str, Any] | None = None,
    tiebreak: str | None = None,
    name: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """Render an entry's page: its saved picks, or those ``sent`` in a refused save."""
    visible = own or locked
    data = _bracket_data(item)
    games = len(data["games"])
    picks = item.picks if sent is None else sent
    missing = [k for k, t in item.picks.items() if str(t) not in data["teams"]]
    response = render(
        request,
        "challenge/entry.html",
        {
            "entry": item,
            "own": own,
            "locked": locked,
            "visible": visible,
            "editable": own and not locked,
            "data": {**data, "picks": picks if visible else {}, "unsaved": sent is not None},
            "games": games,
            "picked": len(picks),
            "missing": missing,
            "tiebreak": item.tiebreak if tiebreak is None else tiebreak,
            "version": services.entry_version(item),
            "name": item.name if name is None else name,
            "needs": _needs_words(item, data) if visible and locked else [],
            "best_expected": item.challenge.best_expected if locked else None,
        },
        status=status,
    )
    if own:
        # A fan's own entry (picks not yet public before the lock) is kept by no cache, the
        # browser's included: after signing out on a shared computer, Back showed it again.
        add_never_cache_headers(response)
    return response


def _needs_words(item: Entry, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What the entry still needs, with names: the team, the round, the opponent if known."""
    teams, rounds = data["teams"], data["rounds"]
    games = {g["key"]: g for g in data["games"]}
    per_round = Counter(g["round"] for g in data["games"])
    return [
        {
            **n,
            "team": teams[str(n["team_id"])]["name"],
            "round_name": rounds[n["round"] - 1]["name"],
            "where": game_words(
                games[n["key"]], rounds[n["round"] - 1]["name"], alone=per_round[n["round"]] == 1
            ),
            "against": None if n["against_id"] is None else teams[str(n["against_id"])]["name"],
        }
        for n in services.entry_needs(item)
    ]


def game_words(game: dict[str, Any], round_name: str, *, alone: bool = False) -> str:
    """Name a bracket game as a fan reads it, "West, Round 2, game 1", not by its key
    ("West-R2-1"); the one game of its round (the final) by the round alone."""
    if alone:
        return round_name
    region = f"{game['region']}, " if game["region"] else ""
    return f"{region}{round_name}, game {game['position']}"


@never_cache  # a fan's own list: Back after signing out must not show it
@login_required(login_url="challenge:signin")
def my_entries(request: HttpRequest) -> HttpResponse:
    mine = list(
        Entry.objects.filter(user_id=int(request.user.pk or 0)).select_related("challenge__season")
    )
    # Where each pool stands: an open entry needing picks, a live one and a finished win
    # read alike ("100%") when only the figures were shown.
    for e in mine:
        pool = e.challenge
        if not services.is_locked(pool):
            e.state = "open until the first game: pick now"  # type: ignore[attr-defined]
            continue
        result = services.pool_result(pool)
        if result is None:
            n = pool.scored_games
            e.state = f"locked; {n} game{'' if n == 1 else 's'} scored"  # type: ignore[attr-defined]
        elif any(w.pk == e.pk for w in result.winners):
            e.state = "over: won the pool"  # type: ignore[attr-defined]
        else:
            e.state = "over"  # type: ignore[attr-defined]
    return render(request, "challenge/mine.html", {"mine": mine})


@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """Take the fan's own entry out of its pool, before the lock."""
    item = Entry.objects.select_related("challenge").filter(pk=pk).first()
    if item is None:
        return _gone(request)
    if not request.user.is_authenticated:
        return _signed_out(request, item)
    try:
        services.entry_leave(entry=item, user=request.user)
    except services.ChallengeRefused as exc:
        messages.error(request, _sentence(exc))
        return redirect(item)
    _keep_code(request, item.challenge)  # his pool's page stays open to him, to join again
    messages.success(request, f"“{item.name}” has left {item.challenge.name}.")
    return redirect(item.challenge)


def picks(request: HttpRequest, pk: int) -> HttpResponse:
    """Who picked whom: how a locked pool's entries picked each game."""
    challenge = get_object_or_404(Challenge.objects.select_related("season__league"), pk=pk)
    if (refused := _gate(request, challenge)) is not None:
        return refused
    try:
        games = services.who_picked_whom(challenge)
    except services.ChallengeRefused as exc:
        return _refused(request, "Who picked whom", _sentence(exc), exc.status)
    bracket = tournaments.season_bracket(challenge.season)
    names = {
        e.team_id: (str(e.team), e.seed)
        for e in SeasonTeam.objects.filter(season=challenge.season).select_related("team")
    }
    rounds: list[dict[str, Any]] = []
    entries = 0
    for game in games:
        if not rounds or rounds[-1]["number"] != game.round:
            rounds.append(
                {"number": game.round, "name": tournaments.round_name(bracket, game.round),
                 "games": []}
            )  # fmt: skip
        entries = game.unpicked + game.replaced + sum(n for _, n in game.picks)
        both = [t for t in game.teams if t is not None]
        rounds[-1]["games"].append(
            {
                "key": game.key,
                "region": game.region,
                "teams": [names.get(t, (f"team {t}", None))[0] for t in both]
                if len(both) == 2 else [],
                "position": game.position,
                "alone": len(games) == 1 or game.round == bracket.rounds,
                "regions": " v ".join(brackets.regions_meeting(bracket, game.key) or ()),
                "picks": [
                    {"team": names.get(t, (f"team {t}", None))[0],
                     "seed": names.get(t, (None, None))[1], "entries": n,
                     "percent": 100 * n / max(entries, 1), "won": game.winner == t,
                     "lost": game.winner is not None and game.winner != t,
                     "out": t in game.out and game.winner is None}
                    for t, n in game.picks
                ],
                "unpicked": game.unpicked,
                "replaced": game.replaced,
            }
        )  # fmt: skip
    return render(
        request,
        "challenge/picks.html",
        {"challenge": challenge, "rounds": rounds, "entries": entries},
    )
