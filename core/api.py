"""The API base both apps share: authentication, the commissioner-or-read-only permission,
the error shapes and the id filter. ``cards.api`` and ``league.api`` build on it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import django_filters
from django import forms
from django.apps import apps
from django.conf import settings
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, permissions, serializers, status, viewsets
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.mediatypes import media_type_matches
from rest_framework.views import exception_handler as drf_exception_handler

from core.caching import PublicReads
from core.errors import Refused
from core.parsers import query_json
from core.roles import is_commissioner
from core.text import size_text, whole_number

# Token first: its WWW-Authenticate header turns an anonymous write into 401, not 403.
API_AUTHENTICATION = [TokenAuthentication, SessionAuthentication]


class ContentNegotiation(DefaultContentNegotiation):
    """DRF's, answering a ``?format=`` an address does not give with 406 naming the formats it
    does: DRF answers it 404 "Not found." (an export's as "no address of the API"), as if
    the object did not exist."""

    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        renderers = list(renderers)
        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            known = ", ".join(dict.fromkeys(renderer.format for renderer in renderers))
            raise exceptions.NotAcceptable(
                f"format={format!r} is not a format of this address: use {known}."
            )
        return found

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        """DRF's, answering an ``Accept`` header no renderer meets with the media types the
        address gives (DRF's 406 says only "Could not satisfy the request Accept header")."""
        renderers = list(renderers)
        asked_format = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        accepts = self.get_accept_list(request)
        if not asked_format and not any(
            media_type_matches(renderer.media_type, accepted)
            for renderer in renderers
            for accepted in accepts
        ):
            types = ", ".join(dict.fromkeys(renderer.media_type for renderer in renderers))
            raise exceptions.NotAcceptable(
                f"Accept: {request.META.get('HTTP_ACCEPT', '')} is not a type of this address: "
                f"ask for {types}."
            )
        chosen: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        return chosen


class CommissionerOrReadOnly(permissions.BasePermission):
    """Let everyone read; let only commissioners (see ``core.roles``) write."""

    message = "Only a commissioner can change the league."
    anonymous_reads = True  # the schema lists no security as a choice on reads (core.schema)

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or is_commissioner(request.user)


class AllowedMethodsFirst:
    """A method the address does not take answers 405 before anything else, naming those it
    does (``Allow``): DRF checks the credentials and permissions first, so a DELETE of a game
    answered an anonymous client 401 and a fan 403 "Only a commissioner can change the
    league", as if a commissioner could delete it."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        method = (request.method or "").lower()
        if method not in getattr(self, "http_method_names", ()) or not hasattr(self, method):
            raise exceptions.MethodNotAllowed(method.upper())
        super().initial(request, *args, **kwargs)  # type: ignore[misc]


class ReadsItsQuery(AllowedMethodsFirst):
    """A read (GET, HEAD) that refuses a query parameter it does not read, naming those it
    does: a misspelt ``?nuetral=true`` or ``?conferece=East`` would otherwise be ignored and
    answer as if it had not been asked. A view names what it reads itself in ``reads``: a
    tuple, or a view set's by action; a list's filters, ordering, search and pages count
    without being named."""

    reads: Mapping[str, Iterable[str]] | Iterable[str] = ()

    def query_parameters(self) -> tuple[set[str], str]:
        """Return the parameters this read takes and what to call it in a refusal."""
        action = getattr(self, "action", None)
        reads = self.reads.get(action or "", ()) if isinstance(self.reads, Mapping) else self.reads
        if action == "list":
            return list_parameters(self, *reads), "list"
        return {*ALWAYS_READ, *reads}, "address"

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if request.method in ("GET", "HEAD"):
            known, what = self.query_parameters()
            refuse_unknown_parameters(request, known, what)


class ApiViewSet(ReadsItsQuery, PublicReads, viewsets.GenericViewSet[Any]):
    """The API's view sets: everyone reads, commissioners write; the reads named in
    ``public_actions`` are answered to anonymous clients as public pages (``core.caching``)."""

    authentication_classes = API_AUTHENTICATION
    permission_classes = [CommissionerOrReadOnly]
    content_negotiation_class = ContentNegotiation

    def get_extra_action_url_map(self) -> dict[str, str]:
        """The browsable API's "Extra Actions" menu: only what this client can do here."""
        urls: dict[str, str] = super().get_extra_action_url_map()
        extras: list[Any] = list(self.get_extra_actions())  # @action's functions
        for extra in extras:
            if extra.detail == self.detail and not self.extra_action_offered(extra):
                urls.pop(self.__class__(**extra.kwargs).get_view_name(), None)
        return urls

    def extra_action_offered(self, extra: Any) -> bool:
        """Tell whether the menu offers ``extra`` (an ``@action``): a write only to a
        commissioner (anyone else is refused it); a view set may say more of its object."""
        return "get" in extra.mapping or is_commissioner(self.request.user)

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        # An export's error is JSON, not CSV (which would write it as a one-column table),
        # and so is the refusal of a format (no renderer was chosen: DRF takes the first).
        accepted = getattr(request, "accepted_renderer", None)
        if response.status_code >= 400 and getattr(accepted, "format", "csv") == "csv":
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


ALWAYS_READ = ("format",)  # DRF's renderer choice, on every address


def list_parameters(view: Any, *extra: str) -> set[str]:
    """Return the query parameters a list view reads: its filters, its ordering and search
    where it has them, its pages' (and ``extra``, what a view reads itself)."""
    names = set(ALWAYS_READ) | set(extra)
    filterset = getattr(view, "filterset_class", None)
    if filterset is not None:
        names |= set(filterset.base_filters)
    if getattr(view, "ordering_fields", None):
        names.add("ordering")
    if getattr(view, "search_fields", None):
        names.add("search")
    paginator = getattr(view, "paginator", None)
    if paginator is not None:
        names |= {paginator.page_query_param, paginator.page_size_query_param}
    return names


def refuse_unknown_parameters(request: Any, known: set[str], what: str = "list") -> None:
    """Refuse a query parameter the ``what`` (a list, an address) does not read, naming
    those it does: a misspelt filter (``?seasons=2``) would otherwise be ignored and answer
    every row. A name that begins with ``_`` is the client's own (jQuery's cache-buster
    ``_=1700000000``) and is let through. A parameter it reads, given more than once, is
    refused too: every one takes one value, and all but the last would be ignored."""
    unknown = sorted(n for n in set(request.query_params) - known if not n.startswith("_"))
    if unknown:
        reads = f"it reads {', '.join(sorted(known))}" if known else "it reads none"
        raise exceptions.ValidationError(
            {name: [f"Not a parameter of this {what}; {reads}."] for name in unknown}
        )
    # ?team=1&team=2 answered team 2's rows alone, as if the first had not been asked.
    twice = sorted(n for n in known if len(request.query_params.getlist(n)) > 1)
    if twice:
        raise exceptions.ValidationError(
            {
                name: [
                    f"Given {len(request.query_params.getlist(name))} times: give it once "
                    "(each parameter takes one value)."
                ]
                for name in twice
            }
        )


def model_errors(exc: DjangoValidationError) -> dict[str, list[str]] | list[str]:
    """Return a model's ``full_clean`` errors keyed as DRF keys them."""
    if not hasattr(exc, "error_dict"):
        return {api_settings.NON_FIELD_ERRORS_KEY: list(exc.messages)}
    return {
        (api_settings.NON_FIELD_ERRORS_KEY if field == NON_FIELD_ERRORS else field): messages
        for field, messages in exc.message_dict.items()
    }


ErrorSerializer = inline_serializer("Error", {"detail": serializers.CharField()})

ID_MAX = 2**63 - 1  # the largest id a column holds: the database cannot compare a bigger one


class IdFilter(django_filters.Filter):
    """Filter by an id: a whole number from 1 to ``ID_MAX``, refused with 400 otherwise.

    A number no id column can hold would reach the database through a foreign key, which
    has no overflow guard, and fail there as a server error.
    """

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(*args, **kwargs)


class WholeNumberFilter(django_filters.NumberFilter):
    """A number filter that reads a whole number (``min_value``/``max_value`` bound it), so
    that a round no column holds is refused naming the field instead of finding nothing, and
    a year of 2018.5 is refused instead of read as 2018. A number filter, so the schema says
    ``type: integer`` (read from the model's column it said ``minimum: 0`` and ``nullable``,
    which the filter refuses)."""

    field_class = forms.IntegerField  # type: ignore[assignment]  # a whole number, not a decimal


class IdField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A related object given by its id, refused in the words of the API's other ids:
    "'x' is not a team id: an id is a whole number." or "No team 99." (DRF's own read
    "Incorrect type. Expected pk value, received str." and "Invalid pk ...")."""

    default_error_messages = {"null": "Give an id: a whole number."}

    def to_internal_value(self, data: Any) -> Any:
        queryset = self.get_queryset()
        assert queryset is not None  # every IdField is given its queryset
        model = queryset.model
        noun = str(model._meta.verbose_name)
        text = str(data).strip() if isinstance(data, (int, str)) else ""
        if isinstance(data, bool) or not whole_number(text):
            raise serializers.ValidationError(
                f"{data!r} is not a {noun} id: an id is a whole number."
            )
        pk = int(text)
        found = queryset.filter(pk=pk).first() if 1 <= pk <= ID_MAX else None
        if found is not None:
            return found
        if self.error_messages["does_not_exist"] != self._drf_missing:  # the field's own
            self.fail("does_not_exist", pk_value=pk)
        raise serializers.ValidationError(f"No {noun} {pk}.")

    _drf_missing = serializers.PrimaryKeyRelatedField.default_error_messages["does_not_exist"]


# ClosedBody: a request body's key that is no field of the write is refused, naming the
# fields it takes, as a query parameter an address does not read is
# (``refuse_unknown_parameters``): DRF drops it, and ``"double_round_robbin": true`` made a
# single round robin. Put it first among a body serializer's bases. Read-only fields are
# taken and ignored (a client may send back what it read); a form's CSRF token is no field
# either. A comment, not a docstring: drf-spectacular describes a serializer without a
# docstring of its own by its bases', and 17 of the schema's bodies were described by this
# one ("Put it first among a body serializer's bases...").
class ClosedBody:
    IGNORED = frozenset({"csrfmiddlewaretoken"})

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            fields = self.fields  # type: ignore[attr-defined]
            unknown = sorted(set(data) - set(fields) - self.IGNORED)
            if unknown:
                takes = ", ".join(name for name, field in fields.items() if not field.read_only)
                raise serializers.ValidationError(
                    {name: [f"Not a field of this request; it takes {takes}."] for name in unknown}
                )
        return super().to_internal_value(data)  # type: ignore[misc]


class QueryJSONField(serializers.JSONField):
    """DRF's JSON field for a query parameter: JSON nested too deeply is refused (the body's
    parser refuses it, core.parsers; here ``json.loads`` raised RecursionError, a server
    error)."""

    def to_internal_value(self, data: Any) -> Any:
        if self.binary or getattr(data, "is_json_string", False):  # as DRF's reads it
            if isinstance(data, bytes):
                data = data.decode()
            return query_json(data, self.decoder)
        return super().to_internal_value(data)


TRUE_FALSE = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
"""The words a yes/no query parameter takes, in any case."""
NOT_TRUE_FALSE: dict[str, Any] = {
    "invalid": "Not true or false: give true or false (1 or 0, yes or no)."
}
"""A yes/no field's refusal in a query serializer (DRF's says "Must be a valid boolean.")."""


class TrueFalseField(forms.NullBooleanField):
    """A yes/no query value: one of :data:`TRUE_FALSE`, refused otherwise (naming it)."""

    widget = forms.TextInput  # NullBooleanSelect would read "maybe" as no value

    def to_python(self, value: Any) -> bool | None:  # type: ignore[override]
        if value in (None, ""):
            return None
        word = str(value).strip().lower()
        if word not in TRUE_FALSE:
            # The value as a parameter, not in the message: django-filter formats the
            # message with its params, and "50%" in it was a server error.
            raise forms.ValidationError(
                "%(value)s is not one of the available choices: true or false (1 or 0, yes or no).",
                params={"value": value},
            )
        return TRUE_FALSE[word]


class TrueFalseFilter(django_filters.BooleanFilter):
    """Filter by a yes/no field: ``true`` or ``false`` (also 1/0, yes/no), anything else
    refused naming the value (django-filter's own would ignore ``?neutral=maybe``). A
    boolean filter, so the schema says ``type: boolean`` and nothing that contradicts it."""

    field_class = TrueFalseField


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


def content_length(request: Any) -> int:
    """Return the request's Content-Length, 0 when it has none or none that reads."""
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except (AttributeError, TypeError, ValueError):
        return 0


def _request_too_big(request: Any) -> PayloadTooLarge:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    found = content_length(request)
    size = f"{size_text(found)}, more than" if found > limit else "more than"
    return PayloadTooLarge(
        f"The request body is {size} the limit of {size_text(limit)}; nothing was read."
    )


NO_MATCH = re.compile(r"^No (\w+) matches the given query\.$")


def _not_found_in_words(exc: Http404, context: dict[str, Any]) -> Http404:
    """Return Django's "No SimulationRun matches the given query." (``get_object_or_404``)
    as the API's other 404s read: "No simulation run 999." (the model's name in words and
    the id the address gave, when it gave one)."""
    view = context.get("view")
    given = [str(v) for v in (getattr(view, "kwargs", None) or {}).values()]
    found = NO_MATCH.match(str(exc))
    if found is None:
        # DRF's own lookup of an id that is no number ("/api/teams/abc/") raises a bare 404,
        # answered "Not found." where a number is told "No team 99999."
        get_queryset = getattr(view, "get_queryset", None)
        if str(exc) or len(given) != 1 or whole_number(given[0]) or get_queryset is None:
            return exc
        model = get_queryset().model  # lazily built: no query is run
        noun = str(model._meta.verbose_name)
        return Http404(f"No {noun} {given[0]!r}: an id is a whole number.")
    names = {m._meta.object_name: str(m._meta.verbose_name) for m in apps.get_models()}
    noun = names.get(found[1], found[1])
    return Http404(f"No {noun} {given[0]}." if len(given) == 1 else f"No such {noun}.")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, also answering the errors Django raises while reading a
    request in JSON: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413, too many form
    fields or files a 400, each ``{"detail": "..."}`` like every other API error (Django
    alone would answer them with a bare HTML "Bad Request (400)"); and every refusal of a
    service (``core.errors.Refused``: its status and answer) and a model's ``full_clean``
    errors (400, keyed by field as DRF keys them), so that views never catch them."""
    if isinstance(exc, RequestDataTooBig):
        exc = _request_too_big(context.get("request"))
    elif isinstance(exc, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        exc = exceptions.ParseError(f"The request has more than {limit:,} fields.")
    elif isinstance(exc, TooManyFilesSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        exc = exceptions.ParseError(f"The request has more than {limit:,} files.")
    elif isinstance(exc, Refused):
        headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        return Response(exc.answer(), status=exc.status, headers=headers)
    elif isinstance(exc, DjangoValidationError):
        return Response(model_errors(exc), status=status.HTTP_400_BAD_REQUEST)
    elif isinstance(exc, Http404):
        exc = _not_found_in_words(exc, context)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, list):
        # A refusal raised with a bare list of messages (a filter's field refusing a null
        # character in ?search=): the same {"detail": ...} as every other error.
        response.data = {"detail": " ".join(str(message) for message in response.data)}
    return response


# The answers every write can get before it is read: not signed in, not a commissioner.
WRITE_REFUSED = {401: ErrorSerializer, 403: ErrorSerializer}
