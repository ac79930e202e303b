"""The challenge's JSON API (in the OpenAPI schema): pools, standings, joining, entries and
picks. Everyone reads public pools and their standings (a private pool: its fans, whoever
opened it, commissioners and whoever brings its invitation code; 404 to others);
commissioners open pools; a signed-in fan joins and changes his own entry before the lock.
A refusal is ``{"detail": "..."}`` with the status the rule gives (403 not yours, 409 locked
or already in, 400 bad picks)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from challenge import accounts, services
from challenge.models import Challenge, Entry
from core.api import WRITE_REFUSED, ApiViewSet, ClosedBody, ErrorSerializer, IdField, IdFilter
from core.pagination import PAGES
from core.roles import is_commissioner
from league.models import Season, SeasonTeam
from league.tournaments import round_name, season_bracket


class ChallengeSerializer(ClosedBody, serializers.ModelSerializer[Challenge]):
    season = IdField(
        queryset=Season.objects.filter(kind=Season.Kind.TOURNAMENT),
        help_text="The tournament (a season of kind tournament) the pool picks.",
        error_messages={
            "does_not_exist": "No tournament {pk_value}: a challenge picks a tournament's "
            "bracket (a league season has none)."
        },
    )
    round_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1000),
        required=False,
        help_text="Points for a right pick, round by round; default 1, 2, 4, ... doubling.",
    )
    locked = serializers.SerializerMethodField()
    entries = serializers.SerializerMethodField()
    invite_code = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="A private pool's code (made up when left blank); in the answers to "
        "commissioners only (a fan joins with it, so he must not read it).",
    )

    class Meta:
        model = Challenge
        fields = [
            "id", "season", "name", "round_points", "lock_at", "public", "invite_code",
            "locked", "entries", "scored_games", "win_samples", "odds_updated_at", "created_at",
        ]  # fmt: skip
        read_only_fields = ["scored_games", "win_samples", "odds_updated_at", "created_at"]

    def to_representation(self, instance: Challenge) -> dict[str, Any]:
        data = dict(super().to_representation(instance))
        request = self.context.get("request")
        if request is None or not is_commissioner(request.user):
            data.pop("invite_code", None)
        return data

    def get_locked(self, obj: Challenge) -> bool:
        return services.is_locked(obj)

    def get_entries(self, obj: Challenge) -> int:
        return obj.entry_count


class PoolWinnerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk", help_text="The entry, as the standings' id.")
    fan = serializers.CharField(
        source="user.get_username", help_text="Its fan, as the standings' fan."
    )
    entry = serializers.IntegerField(source="pk", help_text="The same as id (kept for clients).")
    name = serializers.CharField()
    user = serializers.CharField(
        source="user.get_username", help_text="The same as fan (kept for clients)."
    )
    points = serializers.FloatField()
    tiebreak = serializers.IntegerField(allow_null=True)


class PoolResultSerializer(serializers.Serializer[Any]):
    final_total = serializers.IntegerField(help_text="Both teams' points in the final.")
    winners = PoolWinnerSerializer(
        many=True,
        help_text="The most points; level entries split by the tie-breaker nearest the "
        "final's total; those still level share the win (none: no entry was made).",
    )


class ChallengeDetailSerializer(ChallengeSerializer):
    result = serializers.SerializerMethodField(
        help_text="Who won the pool, once its tournament is over (null until then)."
    )

    class Meta(ChallengeSerializer.Meta):
        fields = [*ChallengeSerializer.Meta.fields, "result"]

    @extend_schema_field(PoolResultSerializer(allow_null=True))
    def get_result(self, obj: Challenge) -> dict[str, Any] | None:
        result = services.pool_result(obj)
        return None if result is None else dict(PoolResultSerializer(result).data)


class PoolFilter(django_filters.FilterSet):
    season = IdFilter(field_name="season", help_text="The pools of this tournament (its id).")

    class Meta:
        model = Challenge
        fields = ["season"]


def _sees_picks(serializer: serializers.BaseSerializer[Any], entry: Entry) -> bool:
    user = getattr(serializer.context.get("request"), "user", None)
    return user is not None and services.can_see_picks(entry, user)


def _hidden_until_lock(
    serializer: serializers.BaseSerializer[Any], entry: Entry, data: dict[str, Any]
) -> dict[str, Any]:
    """Blank what tells an entry's picks, for anyone but its fan, until the pool locks."""
    if not _sees_picks(serializer, entry):
        for name in services.HIDDEN_UNTIL_LOCK:
            if name in data:
                data[name] = None
    return data


_NULL_UNTIL_LOCK = {
    name: {"allow_null": True, "help_text": "null for another fan's entry until the pool locks"}
    for name in services.HIDDEN_UNTIL_LOCK
}


class EntrySerializer(serializers.ModelSerializer[Entry]):
    fan = serializers.CharField(source="user.get_username", read_only=True)
    picks = serializers.SerializerMethodField(
        help_text="{game key: team id}; null while the pool is not locked, unless it is yours."
    )

    class Meta:
        model = Entry
        fields = [
            "id", "challenge", "name", "fan", "picks", "tiebreak", "points", "max_points",
            "alive", "correct", "expected", "win_probability", "win_error", "updated_at",
        ]  # fmt: skip
        read_only_fields = fields
        extra_kwargs = _NULL_UNTIL_LOCK

    def get_picks(self, obj: Entry) -> dict[str, int] | None:
        if _sees_picks(self, obj):
            picks: dict[str, int] = obj.picks
            return picks
        return None

    def to_representation(self, instance: Entry) -> dict[str, Any]:
        return _hidden_until_lock(self, instance, super().to_representation(instance))


class StandingSerializer(serializers.ModelSerializer[Entry]):
    fan = serializers.CharField(source="user.get_username", read_only=True)
    place = serializers.SerializerMethodField(
        help_text="Its place, as the pool's page gives it: entries level on points and the "
        "most still reachable share one (1, 1, 3); after the final the tie-breaker parts "
        "them. Null before the lock, when the rows come in the order entries joined."
    )

    class Meta:
        model = Entry
        fields = [
            "id", "place", "name", "fan", "points", "max_points", "alive", "correct",
            "expected", "win_probability", "win_error",
        ]  # fmt: skip
        extra_kwargs = {k: v for k, v in _NULL_UNTIL_LOCK.items() if k != "tiebreak"}

    def get_place(self, obj: Entry) -> int | None:
        return getattr(obj, "place", None)

    def to_representation(self, instance: Entry) -> dict[str, Any]:
        return _hidden_until_lock(self, instance, super().to_representation(instance))


class JoinSerializer(ClosedBody, serializers.Serializer[Any]):
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=60,
        help_text="The entry's name; \"USERNAME's bracket\" if left out or blank.",
    )
    invite_code = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=32,
        help_text="A private pool's invitation code (a public pool needs none).",
    )


class EntryWriteSerializer(ClosedBody, serializers.Serializer[Any]):
    picks = serializers.JSONField(
        required=False,
        help_text="{game key: team id}. PATCH: the picks sent, laid over the saved ones (a "
        "game sent null loses its pick); PUT: every pick at once, replacing them. Checked "
        "whole: a pick that does not fit, given the others, refuses the request and nothing "
        "is saved.",
    )
    tiebreak = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=500,
        help_text="The final's total points (both teams); null clears it.",
    )
    name = serializers.CharField(required=False, max_length=60)
    fill = serializers.ChoiceField(
        choices=["favourite", "odds"],
        required=False,
        help_text="Fill every unpicked game by the better seed or by the exact odds. While the "
        "tournament's odds are computed, by odds is refused (503) and by seed leaves the games "
        "between equal seeds (and those after them) unpicked.",
    )


class TeamPicksSerializer(serializers.Serializer[Any]):
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    entries = serializers.IntegerField(help_text="Entries that picked this team to win the game.")
    share = serializers.FloatField(help_text="Their share of the pool's entries, 0 to 1.")


class GamePicksSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="The bracket's game key (as in the entries' picks).")
    round = serializers.IntegerField()
    round_name = serializers.CharField()
    region = serializers.CharField(
        allow_null=True, help_text="None between regions (as a bracket's game says)."
    )
    teams = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="The game's two team ids as far as the games played tell (null: not known).",
    )
    winner_id = serializers.IntegerField(allow_null=True)
    out = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The picked teams already beaten in a game played (out of the tournament).",
    )
    unpicked = serializers.IntegerField(help_text="Entries that left the game unpicked.")
    replaced = serializers.IntegerField(
        help_text="Entries whose pick names a team no longer in the bracket (replaced after "
        "the lock: a dead pick)."
    )
    picks = TeamPicksSerializer(many=True, help_text="Most picked first.")


class PoolPicksSerializer(serializers.Serializer[Any]):
    entries = serializers.IntegerField()
    games = GamePicksSerializer(many=True)


INVITE_CODE = OpenApiParameter(
    "invite_code",
    str,
    required=False,
    description="A private pool's invitation code: with it anyone reads the pool; without "
    "it only its fans, whoever opened it and commissioners do (others get 404). Wrong "
    "codes are counted per address (CHALLENGE_CODE_RATE, 20 an hour): beyond, every code "
    "is answered 429 until the hour is over.",
)

FILL_PENDING = OpenApiResponse(
    ErrorSerializer,
    description="A fill the tournament's exact odds are still being computed for: nothing "
    "was saved; ask again after the `Retry-After` header's seconds.",
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    response=[503],
    description="Seconds to wait before asking again.",
)


def _readable(request: Request, pool: Challenge, asked: str) -> None:
    """Answer 404 for a private pool the client may not read: as if it did not exist, in
    the words a missing ``asked`` ("challenge 12", "entry 40") gets (core.api). A wrong
    ``invite_code`` is counted against the client's address, and over
    ``CHALLENGE_CODE_RATE`` every code is answered 429 (:func:`accounts.code_brought`)."""
    if services.can_view_pool(pool, request.user):
        return
    if not accounts.code_brought(request, pool, request.query_params.get("invite_code", "")):
        raise NotFound(f"No {asked}.")


class ChallengeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Pools of the fans' bracket challenge; the public ones are listed. A private pool is
    read by its fans, whoever opened it, commissioners and those with its invitation code."""

    serializer_class = ChallengeSerializer
    filterset_class = PoolFilter
    # standings come ranked (services.standings_order): a pool's ?ordering= is refused
    reads = {
        "retrieve": ("invite_code",),
        "standings": ("invite_code", *PAGES),
        "picks": ("invite_code",),
    }

    def get_object(self) -> Challenge:
        pool: Challenge = super().get_object()
        if self.action != "join":  # joining takes the code itself (a wrong one: 403)
            _readable(self.request, pool, f"challenge {pool.pk}")
        return pool

    @extend_schema(
        parameters=[INVITE_CODE],
        responses={200: ChallengeDetailSerializer, 404: ErrorSerializer},
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    def get_serializer_class(self) -> Any:
        # One pool's answer says who won it; a list does not (a query or two a pool).
        return ChallengeDetailSerializer if self.action == "retrieve" else ChallengeSerializer

    def get_queryset(self) -> QuerySet[Challenge]:
        pools = Challenge.objects.select_related("season").order_by("-created_at", "-id")
        if self.action == "list":
            return pools.filter(public=True)
        return pools

    def get_permissions(self) -> Any:
        if self.action == "join":
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        summary="Open a pool on a tournament not yet started (commissioners)",
        description="A public pool is listed and open to every fan; a private one is joined "
        "with its invite_code (made up when left blank). A tournament already started "
        "answers 409.",
        responses={201: ChallengeSerializer, 400: ErrorSerializer, 409: ErrorSerializer,
                   **WRITE_REFUSED},
    )  # fmt: skip
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = ChallengeSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        v = data.validated_data
        pool = services.challenge_create(
            season=v["season"],
            name=v["name"],
            round_points=v.get("round_points"),
            lock_at=v.get("lock_at"),
            public=v.get("public", True),
            invite_code=v.get("invite_code", ""),
            created_by=request.user,
        )
        body = ChallengeSerializer(pool, context={"request": request}).data
        location = reverse("api:challenge-detail", args=[pool.pk], request=request)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})

    @extend_schema(
        summary="A pool's standings, best first",
        description="Points, the most still reachable, picks alive and right, the exact "
        "expected score and the chance to win (with its error), 50 entries a page. Before "
        "the pool locks these tell an entry's picks: another fan's are null and the entries "
        "are listed in the order they joined.",
        parameters=[INVITE_CODE],
        responses=StandingSerializer(many=True),
    )
    # No filters: the list's ?season= is not read here (the schema listed it, the address
    # refused it).
    @action(detail=True, methods=["get"], filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        pool = self.get_object()
        locked = services.is_locked(pool)
        total = services.final_total(pool.season) if locked else None
        entries = (
            Entry.objects.filter(challenge=pool)
            .select_related("user")
            .order_by(*services.standings_order(pool, total))
        )
        page = list(self.paginate_queryset(entries) or [])
        if locked:
            paginator: Any = self.paginator
            start = (paginator.page.number - 1) * paginator.page.paginator.per_page
            services.give_places(pool, page, start, total=total)
        rows = StandingSerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(rows)

    @extend_schema(
        summary="Who picked whom: how a locked pool's entries picked each game",
        description="Every game of the bracket with the teams its entries picked to win it, "
        "most picked first, and the winner once played. Before the lock it would tell the "
        "hidden picks: 403.",
        parameters=[INVITE_CODE],
        responses={200: PoolPicksSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    @action(detail=True, methods=["get"])
    def picks(self, request: Request, pk: str | None = None) -> Response:
        pool = self.get_object()
        games = services.who_picked_whom(pool)
        bracket = season_bracket(pool.season)
        names = {
            e.team_id: str(e.team)
            for e in SeasonTeam.objects.filter(season=pool.season).select_related("team")
        }
        first = games[0] if games else None
        entries = first.unpicked + first.replaced + sum(n for _, n in first.picks) if first else 0
        body = {
            "entries": entries,
            "games": [
                {
                    "key": g.key,
                    "round": g.round,
                    "round_name": round_name(bracket, g.round),
                    "region": g.region,
                    "teams": list(g.teams),
                    "winner_id": g.winner,
                    "out": sorted(g.out),
                    "unpicked": g.unpicked,
                    "replaced": g.replaced,
                    "picks": [
                        {"team_id": t, "team": names.get(t, f"team {t}"), "entries": n,
                         "share": n / entries if entries else 0.0}
                        for t, n in g.picks
                    ],
                }
                for g in games
            ],
        }  # fmt: skip
        return Response(PoolPicksSerializer(body).data)

    @extend_schema(
        summary="Join a pool: make your entry (signed-in fans, before the lock)",
        description="Any signed-in user, commissioner or not, makes one entry a pool, with "
        "no picks yet (PATCH /api/challenge-entries/{id}/, its Location, sends them). A "
        "private pool's wrong invitation code answers 403 (and counts against the "
        "address: too many, 429); a second entry, or a pool already locked, 409.",
        request=JoinSerializer,
        responses={201: EntrySerializer, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str | None = None) -> Response:
        pool = self.get_object()
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not pool.public:  # a wrong code is counted (entry_join refuses it: 403)
            accounts.code_brought(request, pool, data.validated_data.get("invite_code", ""))
        entry = services.entry_join(
            challenge=pool,
            user=request.user,
            name=data.validated_data.get("name", ""),
            invite_code=data.validated_data.get("invite_code", ""),
        )
        return Response(
            EntrySerializer(entry, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
            headers={
                "Location": reverse("api:challenge-entry-detail", args=[entry.pk], request=request)
            },
        )


class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Entries: your own listed; anyone's readable, its picks only once its pool is locked."""

    serializer_class = EntrySerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    reads = {"retrieve": ("invite_code",)}

    def get_queryset(self) -> QuerySet[Entry]:
        entries = Entry.objects.select_related("user", "challenge__season").order_by("-id")
        if self.action == "list":
            user = self.request.user
            return entries.filter(user=user) if user.is_authenticated else entries.none()
        return entries

    def get_object(self) -> Entry:
        entry: Entry = super().get_object()
        if entry.user_id != self.request.user.pk:  # a private pool's entries: 404 to others
            _readable(self.request, entry.challenge, f"entry {entry.pk}")
        return entry

    @extend_schema(parameters=[INVITE_CODE], responses={200: EntrySerializer, 404: ErrorSerializer})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Your entries (signed in)",
        responses={200: EntrySerializer(many=True), 401: ErrorSerializer},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Anonymous, it answered an empty list: an app whose token had expired showed "no
        # entries" rather than asking to sign in again.
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in to list your entries: the list is your own.")
        return super().list(request, *args, **kwargs)

    @extend_schema(
        summary="Change some of your entry's picks, its tie-breaker or name (before the lock)",
        description="The picks sent are laid over the saved ones (null takes a game's pick "
        "away); the others are kept. PUT replaces them all.",
        request=EntryWriteSerializer,
        responses={200: EntrySerializer, 400: ErrorSerializer, 403: ErrorSerializer,
                   409: ErrorSerializer, 503: FILL_PENDING},
        parameters=[RETRY_AFTER],
    )  # fmt: skip
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        return self._save(request, merge=True)

    @extend_schema(
        summary="Replace your entry's picks (before the lock)",
        description="The picks sent are all of them: a game left out is left unpicked. "
        "PATCH changes only the games it sends.",
        request=EntryWriteSerializer,
        responses={200: EntrySerializer, 400: ErrorSerializer, 403: ErrorSerializer,
                   409: ErrorSerializer, 503: FILL_PENDING},
        parameters=[RETRY_AFTER],
    )  # fmt: skip
    def update(self, request: Request, pk: str | None = None) -> Response:
        return self._save(request, merge=False)

    def _save(self, request: Request, *, merge: bool) -> Response:
        entry = self.get_object()
        data = EntryWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        entry = services.entry_save(
            entry=entry,
            user=request.user,
            picks=v.get("picks"),
            # null clears the tie-breaker (the service's ""); left out, it is kept
            tiebreak="" if "tiebreak" in v and v["tiebreak"] is None else v.get("tiebreak"),
            name=v.get("name"),
            fill=v.get("fill"),
            merge=merge,
        )
        return Response(EntrySerializer(entry, context={"request": request}).data)

    @extend_schema(
        summary="Leave the pool: take your entry out, picks and all (before the lock)",
        description="Only the entry's fan, and only before the pool locks (409 after: the "
        "standings count every entry to the end). The fan may join again while it is open.",
        responses={204: None, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        services.entry_leave(entry=self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
