"""The REST API of teams, players and cards: read by everyone, written by commissioners."""

from __future__ import annotations

import copy
import io
from typing import Any

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, mixins, parsers, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from cards import services
from cards.mapping import teams_for_play
from cards.models import Card, Player, Team
from cards.uploads import team_file_size_problem
from core.api import (
    ApiViewSet,
    ClosedBody,
    ErrorSerializer,
    IdFilter,
    WholeNumberFilter,
    content_length,
    model_errors,
)
from core.errors import sentence

# -- serializers ---------------------------------------------------------------------------


class TeamBriefSerializer(serializers.ModelSerializer[Team]):
    name = serializers.CharField(source="__str__", read_only=True, help_text="School and year.")

    class Meta:
        model = Team
        fields = ["id", "school", "season", "name"]


class CardSerializer(ClosedBody, serializers.ModelSerializer[Card]):
    """A card; on PATCH every rule is checked by the model's ``full_clean``, in its words."""

    player_name = serializers.CharField(source="player.name", read_only=True)
    positions = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Suggested positions 0-5; 0 or 1 means he can run the point.",
    )

    class Meta:
        model = Card
        fields = [
            "id", "player", "player_name", "team", "slot", "role", "positions", "extra_ball",
            "ball_numbers", "can_play", "steal_top", "block_top", "foul_from", "turnover_top",
            "d20_made3_lo", "d20_made3_hi", "d20_made2_lo", "d20_made2_hi",
            "d20_fouled_lo", "d20_fouled_hi", "d20_miss3_lo", "d20_miss3_hi",
            "d20_miss2_lo", "d20_miss2_hi",
            "free_throw_top", "off_reb", "def_reb", "dunk_top", "dunk_adjust",
        ]  # fmt: skip
        read_only_fields = ["player", "team", "ball_numbers"]

    def build_standard_field(self, field_name: str, model_field: models.Field[Any, Any]) -> Any:
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        # Bounds and choices are card rules: full_clean() words them, so DRF must not
        # refuse first with its own "Ensure this value is less than..." text.
        for key in ("min_value", "max_value", "validators"):
            kwargs.pop(key, None)
        if "choices" in kwargs:
            kwargs["error_messages"] = {
                "invalid_choice": model_field.error_messages["invalid_choice"]
            }
        return field_class, kwargs

    def to_internal_value(self, data: Any) -> Any:
        problems = self.validate_every_field(data)
        if problems:
            raise serializers.ValidationError(problems)
        return super().to_internal_value(data)

    def validate_every_field(self, data: Any) -> dict[str, Any]:
        """Return every problem of an edit at once: DRF stops at the fields it cannot read
        (``"steal_top": "x"``) and never reaches the card's rules (``can_play`` 99), so a
        client fixed one and was refused for the next. Empty when every field reads: the
        rules are then checked by :meth:`validate`, as always."""
        if not isinstance(data, dict):
            return {}
        errors: dict[str, Any] = {}
        parsed: dict[str, Any] = {}
        for name, field in self.fields.items():
            if field.read_only or name not in data:
                continue
            try:
                parsed[field.source or name] = field.run_validation(data[name])
            except serializers.ValidationError as exc:
                errors[name] = exc.detail
        if not errors or self.instance is None:
            return errors
        card = copy.copy(self.instance)
        for source, value in parsed.items():
            setattr(card, source, value)
        try:
            card.full_clean(exclude=list(errors))
        except DjangoValidationError as exc:
            found = model_errors(exc)
            for name, messages in (
                found if isinstance(found, dict) else {"non_field_errors": found}
            ).items():
                errors.setdefault(name, messages)
        return errors

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        card = copy.copy(self.instance)
        for name, value in attrs.items():
            setattr(card, name, value)
        try:
            card.full_clean()  # type: ignore[union-attr]  # an update: the instance exists
        except DjangoValidationError as exc:
            raise serializers.ValidationError(model_errors(exc)) from exc
        return attrs


class CardBriefSerializer(CardSerializer):
    class Meta(CardSerializer.Meta):
        fields = [f for f in CardSerializer.Meta.fields if f not in {"player", "player_name"}]


class RosterPlayerSerializer(serializers.ModelSerializer[Player]):
    card = CardBriefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "name", "order", "height", "ppg", "card"]


class TeamSerializer(serializers.ModelSerializer[Team]):
    name = serializers.CharField(
        source="__str__", read_only=True, help_text="School and year, as every answer names it."
    )
    roster = RosterPlayerSerializer(source="players", many=True, read_only=True)

    class Meta:
        model = Team
        fields = [
            "id", "school", "season", "name", "conference", "dunk_top", "dunk_adjust",
            "card_source", "notes", "created_at", "updated_at", "roster",
        ]  # fmt: skip


class PlayerSerializer(serializers.ModelSerializer[Player]):
    team = TeamBriefSerializer(read_only=True)
    card = CardBriefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "name", "team", "order", "height", "ppg", "card"]


class TeamImportSerializer(ClosedBody, serializers.Serializer[Any]):
    team = TeamSerializer()
    created = serializers.BooleanField()
    changed = serializers.BooleanField()
    detail = serializers.CharField()


TeamFileRefusedSerializer = inline_serializer(
    "TeamFileRefused",
    {
        "detail": serializers.CharField(),
        "problems": serializers.ListField(child=serializers.CharField()),
    },
)


# -- filters -------------------------------------------------------------------------------


SMALL_MAX = 32767  # a small-integer column's largest value


def year_filter(field_name: str, **kwargs: Any) -> WholeNumberFilter:
    """A filter by a team's year: a whole number the season column can hold (one past it is
    refused, naming the filter, not sent to a query that cannot hold it)."""
    return WholeNumberFilter(field_name=field_name, min_value=0, max_value=SMALL_MAX, **kwargs)


class TeamFilter(django_filters.FilterSet):
    school = django_filters.CharFilter(lookup_expr="icontains")
    conference = django_filters.CharFilter(
        lookup_expr="iexact", help_text="Teams of this conference, in any case (acc: ACC)."
    )
    year = year_filter("season", help_text="The team's season year.")
    year_min = year_filter("season", lookup_expr="gte")
    year_max = year_filter("season", lookup_expr="lte")
    season = IdFilter(
        field_name="entries__season", help_text="Teams entered in this league season (id)."
    )

    class Meta:
        model = Team
        fields = ["school", "conference", "card_source"]


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    year = year_filter("team__season", help_text="The team's year.")
    season = IdFilter(
        field_name="team__entries__season", help_text="Players of teams in this league season."
    )
    slot = WholeNumberFilter(field_name="card__slot", min_value=0, max_value=SMALL_MAX)
    role = django_filters.ChoiceFilter(
        field_name="card__role", choices=Card._meta.get_field("role").choices
    )

    team = IdFilter(field_name="team")

    class Meta:
        model = Player
        fields = ["team"]


class CardFilter(django_filters.FilterSet):
    year = year_filter("team__season", help_text="The team's year.")
    season = IdFilter(
        field_name="team__entries__season", help_text="Cards of teams in this league season."
    )
    name = django_filters.CharFilter(field_name="player__name", lookup_expr="icontains")
    team = IdFilter(field_name="team")
    player = IdFilter(field_name="player")

    class Meta:
        model = Card
        fields = ["team", "player", "slot", "role"]


# -- parsers -------------------------------------------------------------------------------


class TeamFileParser(parsers.BaseParser):
    """Take a team file's body (``application/json``) unparsed: the import reads
    ``request.body`` through the upload reader (``cards/uploads.py``), as the admin and
    ``import_team`` read theirs, so a file that is not UTF-8 or not JSON is refused with the
    same problems, and a UTF-8 byte order mark is skipped as there. Any other content type
    is a 415 saying what is taken (``TeamViewSet.handle_exception``)."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return {}


IMPORT_TAKES = (
    'Unsupported media type "{media_type}": the body is one team file (vabg-team/1 JSON) '
    "sent as it is with Content-Type: application/json. Zips and forms are not taken here: "
    'import them on the admin\'s "Import team files" page or with manage.py import_team.'
)


# -- views ---------------------------------------------------------------------------------


class TeamViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Teams with their rosters and cards; commissioners import team files."""

    public_actions = frozenset({"list", "retrieve"})

    serializer_class = TeamSerializer
    filterset_class = TeamFilter
    search_fields = ["school", "conference", "season"]  # "Kentucky 2012", as the site's search
    ordering_fields = ["school", "season", "conference", "created_at"]
    ordering = ["school", "season"]

    def get_queryset(self) -> models.QuerySet[Team]:
        return teams_for_play()

    def handle_exception(self, exc: Exception) -> Response:
        # The import's 415 says what it takes, not only what it does not.
        if isinstance(exc, exceptions.UnsupportedMediaType) and self.action == "import_file":
            media_type = self.request.content_type.partition(";")[0].strip()
            exc = exceptions.UnsupportedMediaType(
                media_type, detail=IMPORT_TAKES.format(media_type=media_type)
            )
        return super().handle_exception(exc)

    @extend_schema(
        summary="Import a vabg-team/1 team file",
        description="The body is one team file itself, sent with Content-Type: "
        "application/json (a UTF-8 byte order mark at its start is skipped); zips and "
        "multipart forms are refused with 415 (the admin's import page and manage.py "
        "import_team take zips). A team is matched by school and season: importing it again "
        "updates it in place. Any problem (not UTF-8, not JSON, a rule of the team file) "
        "refuses the whole file and lists every problem; nothing is written. A file over the "
        "upload limit (TEAM_FILE_MAX_BYTES, 256 KB by default) is refused unread with 413; "
        "notes are at most TEAM_NOTES_MAX_CHARS (4,000) characters.",
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: TeamImportSerializer,
            200: TeamImportSerializer,
            400: TeamFileRefusedSerializer,
            401: ErrorSerializer,
            403: ErrorSerializer,
            413: TeamFileRefusedSerializer,
            415: ErrorSerializer,
        },
    )
    @action(detail=False, methods=["post"], url_path="import", parser_classes=[TeamFileParser])
    def import_file(self, request: Request, **kwargs: Any) -> Response:
        name = "team file"
        too_big = team_file_size_problem(name=name, size=content_length(request))
        if too_big:
            raise services.TeamFileError([too_big], status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        # The content type is negotiated (anything but JSON is a 415); the body itself is
        # read by the upload reader, as the admin's and import_team's files are.
        request.data  # noqa: B018
        outcome = services.uploads_import(
            uploads=[(name, io.BytesIO(request.body))],
            source="Imported through the API",
            zips=False,
        )[0]
        team = self.get_queryset().get(pk=outcome.team.pk)
        body = {
            "team": team,
            "created": outcome.created,
            "changed": outcome.changed,
            "detail": sentence(outcome.describe(), name_first=True),
        }
        return Response(
            TeamImportSerializer(body, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK,
            headers={"Location": reverse("api:team-detail", args=[team.pk], request=request)},
        )

    @extend_schema(
        summary="The team as a vabg-team/1 file",
        responses={200: OpenApiTypes.OBJECT, 409: ErrorSerializer},
    )
    @action(detail=True, methods=["get"], url_path="file", filter_backends=[])
    def file(self, request: Request, pk: str | None = None, **kwargs: Any) -> Response:
        team = self.get_object()
        return Response(services.team_file(team))


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Players with their team and card."""

    public_actions = frozenset({"list", "retrieve"})

    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    search_fields = ["name", "team__school", "team__season"]
    ordering_fields = ["name", "order", "ppg", "team__school", "team__season"]
    ordering = ["team__school", "team__season", "order", "id"]

    def get_queryset(self) -> models.QuerySet[Player]:
        return Player.objects.select_related("team", "card")


@extend_schema(
    methods=["PATCH"],
    summary="Edit a card (commissioners)",
    description="Every card rule is checked by the card model itself; a refused edit "
    "answers 400 with the card's own messages and changes nothing.",
)
class CardViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.UpdateModelMixin, ApiViewSet
):
    """Player cards; commissioners edit them with PATCH."""

    public_actions = frozenset({"list", "retrieve"})

    serializer_class = CardSerializer
    filterset_class = CardFilter
    http_method_names = ["get", "patch", "head", "options"]
    ordering_fields = [
        "slot", "role", "can_play", "steal_top", "block_top", "foul_from", "turnover_top",
        "free_throw_top", "off_reb", "def_reb", "player__name",
    ]  # fmt: skip
    ordering = ["team__school", "team__season", "slot", "role", "player__order"]

    def get_queryset(self) -> models.QuerySet[Card]:
        return Card.objects.select_related("player")

    def perform_update(self, serializer: Any) -> None:
        # Saved only if the team stays playable (one starter a slot, cards the engine takes).
        services.card_update(serializer.instance.player.team, serializer.save)
