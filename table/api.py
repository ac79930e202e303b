"""The JSON API of games at the table: what the score sheet page itself talks to.

Signed-in users only (session or token); a game is its owner's, and anyone else gets 404.
Every answer that changes a game is its whole new state (``table.presentation``), so a
client never has to work out the engine's reading on its own. A refused die answers 400
with the die's place in the entry (``index``) and what the game wanted there (``need``);
an entry (dice, a choice, an undo) must carry ``expected``, the game's count of entries the
client knew of (400 naming the field without it); one from a stale page (``expected`` is not
the game's count) or on a game no longer in progress answers 409.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cards.models import Team
from core.api import API_AUTHENTICATION, ClosedBody, ContentNegotiation, IdField, ReadsItsQuery
from core.text import whole_number
from league.models import Game, RulesPreset
from simulator.games import DEFAULT_GAME, game_choices
from table import services
from table.models import TableGame
from table.presentation import table_state
from table.schema import TableNeedSerializer, TableStateSerializer

ErrorSerializer = inline_serializer(
    "TableError",
    {
        "detail": serializers.CharField(),
        "index": serializers.IntegerField(required=False),
        "need": TableNeedSerializer(required=False),
    },
)


class WordChoiceField(serializers.ChoiceField):
    """A choice among words, a wrong one named as the client sent it, in JSON (DRF's own
    message echoed Python's ``str``: ``"True" is not a valid choice.`` for ``true``)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data in self.choice_strings_to_values:
            return self.choice_strings_to_values[data]
        words = " or ".join(json.dumps(c) for c in self.choice_strings_to_values)
        raise serializers.ValidationError(f"{json.dumps(data)} is not a choice here: give {words}.")


class StartSerializer(ClosedBody, serializers.Serializer[Any]):
    game = WordChoiceField(choices=game_choices(), default=DEFAULT_GAME)
    options = serializers.DictField(
        default=dict,
        help_text="Grid court: width, level, pieces; six dice: chip_reroll (VABG: none).",
    )
    home = IdField(queryset=Team.objects.all(), required=False)
    away = IdField(queryset=Team.objects.all(), required=False)
    rules = WordChoiceField(choices=RulesPreset.choices, default="advanced")
    neutral = serializers.BooleanField(default=False)
    strategy = serializers.BooleanField(default=False)
    league_game = IdField(
        queryset=Game.objects.all(), required=False, help_text="A scheduled season game."
    )
    hands = serializers.ListField(
        child=WordChoiceField(choices=["home", "away"]),
        default=list,
        max_length=2,
        help_text="The sides whose choices you make at the table (six dice: which play on a "
        "tie, advance or shoot, pushing out for a 3, the Power Chip); the others play their "
        "coach style. Empty (the default): the computer makes every choice.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "league_game" not in attrs and not ("home" in attrs and "away" in attrs):
            raise serializers.ValidationError("Give home and away, or a scheduled league_game.")
        return attrs

    def foreign_fields(self) -> list[str]:
        """Return the fields sent that the game started does not have (six dice's
        ``rules``): a field saying anything is refused (false, null and {} say nothing, as
        VABG has always taken empty ``options``)."""
        given = self.initial_data if hasattr(self.initial_data, "get") else {}
        return [
            f
            for f in services.fields_not_in(self.validated_data["game"])
            if f in given and given.get(f) not in (None, False, "", {}, "false")
        ]


EXPECTED_MISSING = (
    "Give expected: how many entries (dice and choices) the game had when you looked "
    "(state.count), so that an entry from a stale page is refused instead of mixed in."
)


def expected_field() -> serializers.IntegerField:
    """The count of entries every entry carries (required: the stale-page check)."""
    return serializers.IntegerField(
        min_value=0,
        error_messages={"required": EXPECTED_MISSING, "null": EXPECTED_MISSING},
        help_text="Required: how many entries (dice and choices) the game had when you "
        "looked (state.count); a stale count answers 409.",
    )


class DiceSerializer(ClosedBody, serializers.Serializer[Any]):
    dice = serializers.ListField(
        child=serializers.JSONField(
            help_text="A die's value, or text the game reads as dice: numbers apart by spaces, "
            "commas, full stops or dashes; six dice's faces B/P/S/F (any case, read as "
            "1/4/5/6); in a game of d6 only a run of one character a die (112245, BBPPSF)."
        ),
        min_length=1,
        max_length=5000,
        error_messages={
            "min_length": "Give at least one die.",
            "max_length": "Give at most {max_length} dice at a time.",
        },
        help_text='In order: numbers ([5, 3, 4, 17]), or as typed (["5 3 4 17"]; six dice '
        '["BBPPSF"] or ["b", "b", "p"]).',
    )
    expected = expected_field()

    def validate_dice(self, dice: list[object]) -> list[int | str]:
        """Keep numbers and texts (read by the game, ``Sheet.entry``); refuse anything else."""
        for die in dice:
            if isinstance(die, bool) or not isinstance(die, int | str) or len(str(die)) > 5000:
                raise serializers.ValidationError(
                    f"{json.dumps(die)} is not a die: give whole numbers ([5, 3, 4, 17]) or text "
                    '("5 3 4 17").'
                )
        return dice  # type: ignore[return-value]  # checked just above


class ChoiceSerializer(ClosedBody, serializers.Serializer[Any]):
    choice = serializers.CharField(
        max_length=200,
        help_text="One of the question's options (state.question.options[].token); a chip "
        "reroll names its dice: reroll:1,3,5.",
    )
    expected = expected_field()


class UndoSerializer(ClosedBody, serializers.Serializer[Any]):
    what = WordChoiceField(choices=["die", "trip"], default="die")
    expected = expected_field()


def owned(request: Request, pk: int) -> TableGame:
    game = TableGame.objects.filter(pk=pk, owner_id=request.user.pk).first()
    if game is None:
        raise Http404("No such game at your table.")
    return game


def state(game: TableGame, request: Request | None = None) -> dict[str, Any]:
    return table_state(game, services.position_of(game), plays_since(request))


PLAYS_SINCE = OpenApiParameter(
    "plays_since",
    int,
    OpenApiParameter.QUERY,
    required=False,
    description="The incremental answer: only the plays from the N-th on (`plays_from`, "
    "`plays_count` say where they go), not every play of the game (a finished six-dice "
    "game's plays are about 250 KB). Ask from the last play you have (your count - 1): it "
    "may have grown. Without it every play is sent.",
)


def plays_since(request: Request | None) -> int | None:
    """Return the ``plays_since`` asked for (a whole number), or ``None`` for every play."""
    if request is None:
        return None
    text = request.query_params.get("plays_since")
    if text is None:
        return None
    if not whole_number(text, digits=9):
        raise services.TableRefused(
            f"The plays_since parameter is a count of plays (0 or more), not {text!r}."
        )
    return int(text)


class TableApiView(ReadsItsQuery, APIView):
    authentication_classes = API_AUTHENTICATION
    permission_classes = [permissions.IsAuthenticated]
    content_negotiation_class = ContentNegotiation


TABLE_GAMES = inline_serializer(
    "TableGameBrief",
    {
        "id": serializers.IntegerField(),
        "game": serializers.ChoiceField(choices=game_choices()),
        "home": serializers.CharField(help_text='The home team, e.g. "Kentucky 2012".'),
        "away": serializers.CharField(),
        "status": serializers.ChoiceField(choices=TableGame.Status.choices),
        "score": inline_serializer(
            "TableGameScore",
            {"home": serializers.IntegerField(), "away": serializers.IntegerField()},
            allow_null=True,
            help_text="The score after the dice entered so far (the final score once finished).",
        ),
        "over": serializers.BooleanField(
            help_text="A game in progress whose every die is in: it waits to be stored in the "
            "league (finish)."
        ),
        "dice": serializers.IntegerField(help_text="Dice entered so far."),
        "choices": serializers.IntegerField(help_text="Choices made so far."),
        "league_game": serializers.IntegerField(
            allow_null=True, help_text="The season's game it plays, if any."
        ),
        "updated_at": serializers.DateTimeField(),
    },
    many=True,
)


class GamesView(TableApiView):
    @extend_schema(
        operation_id="table_games_list",
        summary="Your games at the table",
        description="Every game you began at the table, the last one changed first: its "
        "game and teams, status (playing, finished, abandoned), score (null before the "
        "opening points are set), whether a game still playing is over and waits to be "
        "stored, how many dice and choices were entered, and the league game it is stored as "
        "or was opened for. Other users' games are never listed.",
        responses={200: TABLE_GAMES},
    )
    def get(self, request: Request) -> Response:
        games = services.scores_filled(
            TableGame.objects.filter(owner_id=request.user.pk).select_related("home", "away")
        )
        return Response(
            [
                {
                    "id": g.pk,
                    "game": g.game,
                    "home": str(g.home),
                    "away": str(g.away),
                    "status": g.status,
                    "score": None
                    if g.home_score is None or g.away_score is None
                    else {"home": g.home_score, "away": g.away_score},
                    "over": g.over and g.status == TableGame.Status.PLAYING,
                    "dice": len(g.dice),
                    "choices": len(g.choices),
                    "league_game": g.league_game_id,
                    "updated_at": g.updated_at,
                }
                for g in games
            ]
        )

    @extend_schema(
        operation_id="table_game_start",
        summary="Start a game at the table",
        description="Home and away teams with the game (VABG, grid court, six dice), VABG's "
        "rules, court and coach policy or the other game's options; or a season's scheduled "
        "game (commissioners), played with its own settings.",
        request=StartSerializer,
        responses={201: TableStateSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        params = StartSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        if "league_game" in data:
            game = services.table_open_scheduled(
                owner=request.user, league_game=data["league_game"], hands=data["hands"]
            )
        else:
            foreign = params.foreign_fields()
            if foreign:
                raise services.TableRefused(services.not_in_game(data["game"], foreign))
            game = services.table_start(
                owner=request.user,
                home=data["home"],
                away=data["away"],
                rules=data["rules"],
                neutral=data["neutral"],
                strategy=data["strategy"],
                game=data["game"],
                options=data["options"],
                hands=data["hands"],
            )
        location = reverse("table:api-game", args=[game.pk], request=request)
        return Response(state(game), status=status.HTTP_201_CREATED, headers={"Location": location})


class GameView(TableApiView):
    reads = ("plays_since",)

    @extend_schema(
        operation_id="table_game_retrieve",
        parameters=[PLAYS_SINCE],
        summary="A game at the table: the die wanted next, the sheet, the box score, the odds",
        description="What the page shows: the die or the choice the game waits for "
        "(``need``, ``question``), the score, the plays so far (all of them, or those from "
        "``plays_since`` on), the box score and the live odds, and ``entries``, the count "
        "each write sends back as ``expected``. A game that is not yours answers 404.",
        responses={200: TableStateSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(state(owned(request, pk), request))


class DiceView(TableApiView):
    @extend_schema(
        operation_id="table_game_dice",
        parameters=[PLAYS_SINCE],
        summary="Enter dice, in the order rolled",
        description='{"dice": [5, 3, 4, 17], "expected": 120}: all or nothing.',
        request=DiceSerializer,
        responses={200: TableStateSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        since = plays_since(request)  # checked before anything is written
        params = DiceSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        dice_before = list(game.dice)
        position = services.table_roll(
            game_id=game.pk,
            user=request.user,
            values=params.validated_data["dice"],
            expected=params.validated_data["expected"],
        )
        game.refresh_from_db()
        # An entry whose dice went to more than one roll: each roll named, with its dice.
        return Response(
            table_state(
                game,
                position,
                since,
                entry_note=lambda plays: services.entry_overrun(dice_before, position, plays),
            )
        )


class ChoiceView(TableApiView):
    @extend_schema(
        operation_id="table_game_choice",
        parameters=[PLAYS_SINCE],
        summary="Make the choice the game waits for (a side played by hand)",
        description='{"choice": "B", "expected": 57}: one of state.question\'s options; a '
        "choice the rules forbid answers 400 naming the rule.",
        request=ChoiceSerializer,
        responses={200: TableStateSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        since = plays_since(request)  # checked before anything is written
        params = ChoiceSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        position = services.table_choose(
            game_id=game.pk,
            user=request.user,
            choice=params.validated_data["choice"],
            expected=params.validated_data["expected"],
        )
        game.refresh_from_db()
        return Response(table_state(game, position, since))


class UndoView(TableApiView):
    @extend_schema(
        operation_id="table_game_undo",
        parameters=[PLAYS_SINCE],
        summary="Take back the last die or the last trip",
        description='{"what": "die", "expected": 120}: the last entry (a die, or a choice '
        'made by hand after it); ``"trip"`` takes back the whole last trip (back to its d8; '
        "in grid court and six dice the last roll) with the choices made since. A game with "
        "nothing entered answers 400, a finished or abandoned one 409.",
        request=UndoSerializer,
        responses={200: TableStateSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        since = plays_since(request)  # checked before anything is written
        params = UndoSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        position = services.table_undo(
            game_id=game.pk,
            user=request.user,
            what=params.validated_data["what"],
            expected=params.validated_data["expected"],
        )
        game.refresh_from_db()
        return Response(table_state(game, position, since))


class FinishView(TableApiView):
    @extend_schema(
        operation_id="table_game_finish",
        parameters=[PLAYS_SINCE],
        summary="Store a game that is over as a league game",
        description="Stores the game exactly as a simulated game is stored (box score, "
        "play-by-play, dice) in one transaction: as the scheduled game it was opened for, "
        "or as a new exhibition. The team files it began with are stored; a team renamed "
        "since refuses it. A game not over yet, or finished or abandoned already, answers 409.",
        request=None,
        responses={200: TableStateSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        services.table_finish(game_id=game.pk, user=request.user)
        game.refresh_from_db()
        return Response(state(game, request))


class AbandonView(TableApiView):
    @extend_schema(
        operation_id="table_game_abandon",
        parameters=[PLAYS_SINCE],
        summary="Abandon a game in progress",
        description="Ends the game without storing it: its sheet stays, marked abandoned, and "
        "a scheduled league game it was opened for can be simulated or opened again. A game "
        "finished or abandoned already answers 409.",
        request=None,
        responses={200: TableStateSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        services.table_abandon(game_id=game.pk, user=request.user)
        game.refresh_from_db()
        return Response(state(game, request))


class FileRenderer(JSONRenderer):
    """A file to save, whoever asks: its JSON as the team files are written (two spaces,
    UTF-8, a final newline). With the API's renderers a browser's link (``Accept:
    text/html``) saved the browsable API's page as the file, which the command line the
    sheet prints then refused."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


class TeamFileView(TableApiView):
    renderer_classes = [FileRenderer]

    @extend_schema(
        operation_id="table_game_team_file",
        summary="A side's team file as the game began (with the coach styles it plays)",
        description="With the dice file, what ``python -m simulator play HOME AWAY --game X "
        "--dice FILE`` needs to play the same game: the team file as the table plays it, "
        "the coach styles of the other games included (a team without styles of its own "
        "plays styles derived from its real season, which an exported file does not hold). "
        "A game with a side played by hand is not played again so: the command line takes no "
        "choices, it plays each team's coach style.",
        responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int, side: str) -> Response:
        game = owned(request, pk)
        document = {"home": game.home_team_file, "away": game.away_team_file}.get(side)
        if document is None:
            raise Http404(f"No side {side!r}: a game has a home and an away team.")
        response = Response(document)
        response["Content-Disposition"] = f'attachment; filename="table-{game.pk}-{side}-team.json"'
        return response


class DiceFileView(TableApiView):
    def get_renderers(self) -> list[BaseRenderer]:
        """The file (GET) is a file to save (:class:`FileRenderer`); a dice file sent
        (POST) answers the table's state as the API does."""
        if self.request.method == "GET":
            return [FileRenderer()]
        return super().get_renderers()

    @extend_schema(
        operation_id="table_game_dice_file_enter",
        parameters=[PLAYS_SINCE],
        summary="Begin a game from a vabg-dice/1 file",
        description="The body is the dice file (the command line's --dice file): its "
        "streams are read in the order the game asks for them, up to the end of the game, "
        "of the file, or the first choice a side played by hand makes, and entered at once, "
        "all or nothing. A game with entries already answers 409.",
        request={"application/json": OpenApiTypes.OBJECT},
        responses={200: TableStateSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        since = plays_since(request)
        position = services.table_roll_file(game_id=game.pk, user=request.user, doc=request.data)
        game.refresh_from_db()
        return Response(table_state(game, position, since))

    @extend_schema(
        operation_id="table_game_dice_file",
        summary="The vabg-dice/1 file of the dice rolled so far (grid court, six dice: d6 only)",
        description="The dice entered, as the command line's ``--dice`` file reads them "
        "(../shared/spec/interchange.md): with the two team files, ``python -m simulator "
        "play`` plays the same game (a side played by hand apart). Sent as an attachment.",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = owned(request, pk)
        response = Response(services.position_of(game).dice_file())
        response["Content-Disposition"] = f'attachment; filename="table-{game.pk}-dice.json"'
        return response
