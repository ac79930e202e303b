"""The exact odds in the API (issue 13): previews, win probability, bracket odds with
what-ifs, season odds. Everyone may read them, and post a what-if: nothing is written but
the pair table's cache of computed odds. One call into ``league.odds`` each.

A field whose pair table lacks pairs, or a preview whose game's law is not stored yet,
answers 202 with how far it is and when to ask again (``retry_after``, the ``Retry-After``
header), after sending the work to the background (workers, or the web process's lanes);
only with no background at all (a command, a test) is a little of it computed in place.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import Team
from core.api import (
    API_AUTHENTICATION,
    NOT_TRUE_FALSE,
    ClosedBody,
    ContentNegotiation,
    IdField,
    QueryJSONField,
    ReadsItsQuery,
)
from core.errors import sentence
from core.roles import is_commissioner
from league import odds
from league.api.serializers import settings_in_game
from league.models import Game, RulesPreset, Season, game_options_clean, options_help
from simulator.games import DEFAULT_GAME, game_choices
from simulator.seeds import SEED_MAX

SEASONS_MIN = 100
"""The fewest seasons a request may sample."""
SEASONS_MAX = 200_000
"""The most seasons one request may sample."""
ANON_SEASONS_MAX = 20_000
"""The most a client that is not a commissioner may ask for: anyone may ask (a fan signs
himself up), and the throttle counts requests, not their cost."""
DRAWS_MAX = 200_000_000
"""The most games (seasons x games left) one request may sample: about 4.5 s of the web
process's CPU at the 45 million games a second measured on a 2-core machine
(docs/odds.md). A season's size bounds its seasons, not only ``SEASONS_MAX``: 20,000
seasons of a 96-team double round robin's 9,120 games left took 4 s."""
ANON_DRAWS_MAX = 10_000_000
"""The most games a request of a client that is not a commissioner may sample (about a
quarter of a second): a self-registered fan's requests had the commissioners' 20 times."""


_GAME_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The game's id.")
_SEASON_ID = OpenApiParameter(
    "id", int, OpenApiParameter.PATH, description="The season's (or tournament's) id."
)


class OddsView(ReadsItsQuery, APIView):
    authentication_classes = API_AUTHENTICATION
    permission_classes = [permissions.AllowAny]
    content_negotiation_class = ContentNegotiation


def _answer(result: dict[str, Any]) -> Response:
    if result.get("pending"):
        headers = {"Retry-After": str(result.get("retry_after", 5))}
        return Response(result, status=status.HTTP_202_ACCEPTED, headers=headers)
    return Response(result)


class MatchupQuery(serializers.Serializer[Any]):
    home = IdField(queryset=Team.objects.all(), help_text="The home team's id (the first named).")
    away = IdField(queryset=Team.objects.all(), help_text="The away team's id.")
    rules = serializers.ChoiceField(choices=RulesPreset.choices, default=RulesPreset.ADVANCED)
    neutral = serializers.BooleanField(
        default=False,
        help_text="A neutral court: no home-court edge.",
        error_messages=NOT_TRUE_FALSE,
    )
    strategy = serializers.BooleanField(
        default=False,
        help_text="The coach policy on (late fouls, tries for 3), solved exactly.",
        error_messages=NOT_TRUE_FALSE,
    )
    game = serializers.ChoiceField(
        choices=game_choices(),
        default=DEFAULT_GAME,
        help_text="The game: VABG reads the cards (rules, strategy); six dice and grid court "
        "only each team's coach style, under their options.",
    )
    options = QueryJSONField(
        binary=True,
        default=dict,
        help_text='Six dice, grid court: the rule options as JSON, e.g. {"pieces": 3}. '
        + options_help(),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["home"] == attrs["away"]:
            raise serializers.ValidationError("Pick two different teams.")
        # VABG's rules or coach asked of a game without them: refused, as a season's are
        # (an API reviewer's ?game=sixdice&rules=basic was answered as if not asked).
        settings_in_game(self.initial_data, attrs)
        try:
            attrs["options"] = game_options_clean(attrs["game"], attrs["options"])
        except DjangoValidationError as exc:
            raise serializers.ValidationError(
                {k: [sentence(m) for m in v] for k, v in exc.message_dict.items()}
            ) from exc
        return attrs


class WhatIf(ClosedBody, serializers.Serializer[Any]):
    winners = serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        help_text='Bracket game key -> the winner\'s team id, e.g. {"R1-1": 12}: an '
        "unplayed game is locked, a stored game given the other winner is flipped.",
    )


class SeasonOddsQuery(serializers.Serializer[Any]):
    seasons = serializers.IntegerField(
        min_value=SEASONS_MIN,
        max_value=SEASONS_MAX,
        default=10_000,
        help_text=f"At most {ANON_SEASONS_MAX:,} for a client that is not a commissioner, and "
        f"at most {ANON_DRAWS_MAX:,} games sampled (seasons x games left; {DRAWS_MAX:,} for a "
        "commissioner).",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=SEED_MAX,
        required=False,
        help_text="The sampler's seed; the season's seed if not given (the same answer again).",
    )

    def validate_seasons(self, value: int) -> int:
        request = self.context.get("request")
        trusted = request is not None and is_commissioner(request.user)
        if value > ANON_SEASONS_MAX and not trusted:
            raise serializers.ValidationError(
                f"Ensure this value is less than or equal to {ANON_SEASONS_MAX} without "
                f"signing in as a commissioner (up to {SEASONS_MAX} for one)."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Bound what a request costs by the games it samples, seasons x games left: a
        season's size, not only the seasons, sets it. ``games_left`` in the context (the
        view gives it when the request samples) says how many are left."""
        left = self.context.get("games_left")
        if not left:
            return attrs
        request = self.context.get("request")
        trusted = request is not None and is_commissioner(request.user)
        cap = DRAWS_MAX if trusted else ANON_DRAWS_MAX
        seasons = attrs["seasons"]
        if seasons * left > cap:
            most = cap // left
            room = (
                f"at most {most:,} seasons here"
                if most >= SEASONS_MIN
                else f"too many for even the fewest seasons ({SEASONS_MIN})"
            )
            more = (
                ""
                if trusted
                else f" ({DRAWS_MAX:,} for a commissioner: "
                f"{min(SEASONS_MAX, DRAWS_MAX // left):,} seasons here)"
            )
            raise serializers.ValidationError(
                {
                    "seasons": [
                        f"{seasons:,} seasons of the {left:,} games left would sample "
                        f"{seasons * left:,} games; a request may sample at most {cap:,}"
                        f"{more}: {room}. Without seasons and seed the season's own odds "
                        "(10,000 seasons) are sampled by the background and kept."
                    ]
                }
            )
        return attrs


OddsPendingSerializer = inline_serializer(
    "OddsPending",
    {
        "pending": serializers.BooleanField(help_text="Always true: ask again shortly."),
        "pairs_ready": serializers.IntegerField(),
        "pairs_needed": serializers.IntegerField(),
        "retry_after": serializers.IntegerField(
            help_text="Seconds to wait before asking again (also the Retry-After header)."
        ),
        "message": serializers.CharField(),
    },
)
_OTHER_GAME: dict[str, serializers.Field[Any, Any, Any, Any]] = {  # six dice, grid court
    "game": serializers.CharField(help_text="Six dice or grid court: its name.", required=False),
    "game_title": serializers.CharField(required=False),
    "p_home_win": serializers.FloatField(
        help_text="Six dice, grid court: one law for every pairing.", required=False
    ),
    "game_standard_error": serializers.FloatField(
        required=False,
        help_text="Of each game's P(home wins): grid court's simulated pair law; 0 where the "
        "game's odds are exact (six dice).",
    ),
    "style_pairings": serializers.JSONField(required=False),
    "styles_counted": serializers.JSONField(required=False),
}
TournamentOddsSerializer = inline_serializer(
    "TournamentOdds",
    {
        "season_id": serializers.IntegerField(),
        "rules": serializers.CharField(help_text="VABG's rules preset.", required=False),
        "neutral": serializers.BooleanField(required=False),
        "coach_policy": serializers.BooleanField(),
        "note": serializers.CharField(),
        "method": serializers.ChoiceField(
            choices=["exact", "sampled", "simulated"],
            help_text="exact over the bracket; sampled when reseeded rounds have too many "
            "sets of survivors; simulated: grid court's pair law.",
        ),
        "standard_error": serializers.FloatField(
            help_text="Of each chance, from sampling the bracket (method sampled); 0 where "
            "the bracket is summed exactly from its games' odds (a grid court game's own "
            "error is game_standard_error)."
        ),
        "final_games": serializers.IntegerField(help_text="Games already stored."),
        "whatif": inline_serializer(
            "WhatIfApplied",
            {
                "key": serializers.CharField(),
                "winner_id": serializers.IntegerField(),
                "kind": serializers.CharField(help_text="Locked (unplayed) or flipped."),
            },
            many=True,
        ),
        "rounds": inline_serializer(
            "OddsRound",
            {
                "number": serializers.IntegerField(),
                "name": serializers.CharField(),
                "slots": serializers.IntegerField(help_text="Its games' entrants."),
            },
            many=True,
        ),
        "teams": inline_serializer(
            "TournamentOddsTeam",
            {
                "team_id": serializers.IntegerField(),
                "team": serializers.CharField(),
                "seed": serializers.IntegerField(),
                "region": serializers.CharField(),
                "reach": serializers.ListField(
                    child=serializers.FloatField(),
                    help_text="P(playing in) each round, round 1 first.",
                ),
                "champion": serializers.FloatField(),
            },
            many=True,
            help_text="Best chances first.",
        ),
        "seconds": serializers.FloatField(help_text="Time taken."),
        **_OTHER_GAME,
    },
)
SeasonOddsSerializer = inline_serializer(
    "SeasonOdds",
    {
        "season_id": serializers.IntegerField(),
        "seasons": serializers.IntegerField(help_text="Seasons sampled."),
        "seed": serializers.IntegerField(help_text="The sampler's seed (up to 2**63 - 1)."),
        "seed_str": serializers.CharField(
            help_text="The seed as a string: exact in JavaScript, as a season's seed_str."
        ),
        "games_left": serializers.IntegerField(),
        "coach_policy": serializers.BooleanField(),
        "note": serializers.CharField(),
        "tiebreak": serializers.CharField(),
        "teams": inline_serializer(
            "SeasonOddsTeam",
            {
                "team_id": serializers.IntegerField(),
                "team": serializers.CharField(),
                "conference": serializers.CharField(),
                "wins": serializers.IntegerField(help_text="So far."),
                "expected_wins": serializers.FloatField(),
                "p_first": serializers.FloatField(help_text="P(first in its conference)."),
                "places": serializers.ListField(
                    child=serializers.FloatField(), help_text="P(each place), first first."
                ),
            },
            many=True,
        ),
        "seconds": serializers.FloatField(),
        "seasons_per_second": serializers.FloatField(allow_null=True, required=False),
        "method": serializers.CharField(required=False),
        "standard_error": serializers.FloatField(required=False),
        "updating": serializers.BooleanField(
            required=False,
            help_text="True: these are the odds as they stood before the latest change to the "
            "season (a result, a card, the schedule); new ones are being sampled: ask again.",
        ),
        "updating_message": serializers.CharField(required=False),
        **_OTHER_GAME,
    },
)


class LawEntrySerializer(serializers.Serializer[Any]):
    """A value of a law (a margin, a score) with its chance."""

    x = serializers.IntegerField()
    p = serializers.FloatField()


class PreviewSideSerializer(serializers.Serializer[Any]):
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    card_version = serializers.CharField(
        required=False, help_text="VABG: the digest of the team's cards the odds read."
    )


class PredictedScoreSerializer(serializers.Serializer[Any]):
    home = serializers.IntegerField()
    away = serializers.IntegerField()


class FinalScoreEntrySerializer(serializers.Serializer[Any]):
    home = serializers.IntegerField()
    away = serializers.IntegerField()
    p = serializers.FloatField()


def _law() -> LawEntrySerializer:
    return LawEntrySerializer(
        many=True, help_text="Each value with its chance, entries below 1e-6 left out."
    )


def _preview() -> dict[str, Any]:
    """Return a preview's fields, new each time (a serializer class takes its fields away
    from the mapping it is made from)."""
    return {
        "home": PreviewSideSerializer(),
        "away": PreviewSideSerializer(),
        "neutral": serializers.BooleanField(),
        "note": serializers.CharField(help_text="How the odds were obtained, in a sentence."),
        "p_home_win": serializers.FloatField(),
        "p_away_win": serializers.FloatField(),
        "expected_home_pts": serializers.FloatField(),
        "expected_away_pts": serializers.FloatField(),
        "predicted_score": PredictedScoreSerializer(),
        "spread": serializers.FloatField(help_text="Expected home minus away points."),
        "spread_text": serializers.CharField(help_text='e.g. "Kentucky 2012 by 3.4", or "even".'),
        "total": serializers.FloatField(),
        "most_likely_margin": serializers.IntegerField(),
        "margin": _law(),
        "home_score": _law(),
        "away_score": _law(),
        # VABG
        "rules": serializers.CharField(required=False, help_text="VABG: the rules preset."),
        "rules_version": serializers.IntegerField(required=False),
        "coach_policy": serializers.BooleanField(required=False),
        "p_overtime": serializers.FloatField(required=False, help_text="VABG."),
        "expected_overtimes": serializers.FloatField(required=False, help_text="VABG."),
        # Six dice, grid court
        "game": serializers.CharField(required=False, help_text="Six dice, grid court: its name."),
        "game_title": serializers.CharField(required=False),
        "options": serializers.JSONField(required=False, help_text="The game's options."),
        "styles": serializers.JSONField(
            required=False, help_text="Each team's coach styles the odds are for."
        ),
        "method": serializers.CharField(
            required=False, help_text="Six dice, grid court: exact or simulated."
        ),
        "standard_error": serializers.FloatField(
            required=False, allow_null=True, help_text="Of P(home wins), when simulated."
        ),
        "games_simulated": serializers.IntegerField(required=False, allow_null=True),
        "final_score": FinalScoreEntrySerializer(
            many=True,
            required=False,
            help_text="Six dice, grid court: each final score with its chance.",
        ),
    }


MatchupPreviewSerializer = inline_serializer("MatchupPreview", _preview())
GamePreviewSerializer = inline_serializer(
    "GamePreview",
    {
        "game_id": serializers.IntegerField(),
        "cards": serializers.ChoiceField(
            choices=["as played", "current"], required=False, help_text="VABG: which cards."
        ),
        **_preview(),
    },
)
WinProbabilitySerializer = inline_serializer(
    "WinProbability",
    {
        "game_id": serializers.IntegerField(),
        "home": serializers.CharField(),
        "away": serializers.CharField(),
        "coach_policy": serializers.BooleanField(required=False, help_text="VABG."),
        "note": serializers.CharField(),
        "game": serializers.CharField(required=False, help_text="Six dice, grid court."),
        "game_title": serializers.CharField(required=False),
        "method": serializers.CharField(required=False),
        "chart_label": serializers.CharField(required=False),
        "pregame": serializers.FloatField(help_text="P(home wins) before the game."),
        "points": inline_serializer(
            "WinProbabilityPoint",
            {
                "period": serializers.IntegerField(),
                "number": serializers.IntegerField(),
                "team": serializers.CharField(help_text="The side with the ball (or roll)."),
                "margin": serializers.IntegerField(help_text="Home minus away, then."),
                "p_home": serializers.FloatField(),
            },
            many=True,
        ),
        "swings": inline_serializer(
            "WinProbabilitySwing",
            {
                "trip": serializers.IntegerField(),
                "delta": serializers.FloatField(help_text="For the home team."),
                "text": serializers.CharField(),
            },
            many=True,
        ),
    },
)


PREVIEW_DOC = (
    "P(win) of each side, the predicted score (expected points, the 20-20 start included), "
    "the spread (expected home minus away) and total, P(overtime), and the laws of the "
    "final margin and of each team's score (entries below 1e-6 left out). Exact, from the "
    "dice math, for the coach policy off (``note`` says so when the game plays with it). "
    "A six-dice or grid-court game gets its own game's odds, the same for any two teams "
    "(``game``, ``method`` exact or simulated, ``standard_error``, ``final_score``); a game "
    "or rules without odds answer 400 naming the game."
)


class GamePreviewView(OddsView):
    @extend_schema(
        summary="A game's preview",
        description=PREVIEW_DOC + " A played game's preview uses the cards as played. "
        "202 (``pending``) while the game's law (VABG: a scheduled game's pair) or a six-dice "
        "or grid-court pairing the cache lacks is worked out in the background: ask again "
        "after ``retry_after`` seconds (the ``Retry-After`` header).",
        parameters=[_GAME_ID],
        responses={200: GamePreviewSerializer, 202: OddsPendingSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game.objects.select_related("result"), pk=pk)
        return _answer(odds.game_preview(game))


class GameWinProbabilityView(OddsView):
    @extend_schema(
        summary="A played game's win probability after every trip",
        description="P(home wins) at the start of every trip, exact from the margin then "
        "and the law of the trips left, from the stored play-by-play and the cards as "
        "played: ``points`` starts with the pre-game P and ends with the result (1 or 0); "
        "``swings`` are the trips that moved it most (``delta`` for the home team). "
        "A chart is worked out once, in the background, the first time it is asked for: "
        "202 (``pending``) until then, ask again after ``retry_after`` seconds (the "
        "``Retry-After`` header).",
        parameters=[_GAME_ID],
        responses={200: WinProbabilitySerializer, 202: OddsPendingSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game.objects.select_related("result", "home", "away"), pk=pk)
        if game.status != Game.Status.FINAL:  # as its box score, play-by-play and story say
            raise NotFound(f"Game {game.pk} has not been played yet: it is {game.status}.")
        return _answer(odds.win_probability(game))


class MatchupView(OddsView):
    reads = tuple(MatchupQuery().fields)  # a misspelt ?nuetral=true: refused, not ignored

    @extend_schema(
        summary="Any two teams' preview",
        description=PREVIEW_DOC + " 202 (``pending``) while the two teams' law (VABG) or "
        "their pairing of coach styles (six dice and grid court: ``game``, ``options``) is "
        "worked out in the background: ask again after ``retry_after`` seconds.",
        parameters=[MatchupQuery],
        responses={200: MatchupPreviewSerializer, 202: OddsPendingSerializer},
    )
    def get(self, request: Request) -> Response:
        query = MatchupQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        return _answer(
            odds.matchup_preview(
                home_id=data["home"].pk,
                away_id=data["away"].pk,
                rules=data["rules"],
                neutral=data["neutral"],
                strategy=data["strategy"],
                game=data["game"],
                options=data["options"],
            )
        )


def _tournament(pk: int) -> Season:
    season = Season.objects.filter(pk=pk).first()
    if season is None:  # the address names a tournament ("No season 999." read oddly)
        raise NotFound(f"No tournament {pk}.")
    if season.kind == Season.Kind.TOURNAMENT and not season.bracket:
        raise NotFound(f"{season} has no bracket drawn: it has no odds by round.")
    if season.kind != Season.Kind.TOURNAMENT:
        raise NotFound(
            f"{season} is a league season, not a tournament: it has no bracket. Its odds "
            f"are at /api/seasons/{season.pk}/odds/."
        )
    return season


class TournamentOddsView(OddsView):
    @extend_schema(
        summary="A tournament's odds per round",
        description="Each team's chance to reach each round (``reach``, one per round, "
        "entrants of that round's games: a round's column adds up to its ``slots``) and to "
        "win it, exact over the bracket from the stored results and the pair table "
        "(reseeded rounds over the sets of survivors; ``method`` is ``sampled`` when those "
        "are too many). 202 while the field's table is being built.",
        parameters=[_SEASON_ID],
        responses={200: TournamentOddsSerializer, 202: OddsPendingSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        season = _tournament(pk)
        return _answer(odds.with_table(season, lambda: odds.bracket_odds(season)))

    @extend_schema(
        summary="What if: the odds with some games locked or flipped (nothing is written)",
        description="The tournament's odds per round as the GET answers them, with the "
        "winners given in ``winners`` taken as played: an unplayed game's winner locked, a "
        "played game's other team made its winner, and every later game drawn from them. "
        "Nothing is stored. A game not in the bracket, one whose two teams are not known yet "
        "(lock the games before it too) or a winner who does not play in it answers 400 "
        "naming it; 202 while the field's table is being built.",
        request=WhatIf,
        parameters=[_SEASON_ID],
        responses={200: TournamentOddsSerializer, 202: OddsPendingSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        season = _tournament(pk)
        body = WhatIf(data=request.data)
        body.is_valid(raise_exception=True)
        winners = body.validated_data["winners"]
        return _answer(odds.with_table(season, lambda: odds.bracket_odds(season, whatif=winners)))


class SeasonOddsView(OddsView):
    reads = tuple(SeasonOddsQuery().fields)

    @extend_schema(
        summary="A season's odds of finishing first and at each place of its conference",
        description="The games left sampled from the exact pair table, ``seasons`` times "
        "(seeded: the season's seed unless ``seed`` is given), each ordered as the "
        "standings order theirs: a conference by its conference record, then the overall "
        "record; teams still level by a coin flip (``tiebreak`` says so). With no game left, "
        "the final table. 202 while the table is being built. Without ``seasons`` and "
        "``seed``, the page's own odds: sampled by the background, never in the request (202 "
        "while the first are; after a change, the last ones with ``updating`` true until "
        "the new ones are in); with either, sampled in the request as asked, bounded by "
        f"the games sampled (seasons x games left): {ANON_DRAWS_MAX:,} without signing in, "
        f"{DRAWS_MAX:,} signed in (400 past it, naming the most seasons).",
        parameters=[_SEASON_ID, SeasonOddsQuery],
        responses={200: SeasonOddsSerializer, 202: OddsPendingSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        season = get_object_or_404(Season, pk=pk)
        if season.kind == Season.Kind.TOURNAMENT:  # sampled as a round robin it would mislead
            raise NotFound(
                f"{season} is a tournament: its odds are by round, at "
                f"/api/tournaments/{season.pk}/odds/."
            )
        sampled_here = bool({"seasons", "seed"} & set(request.query_params))
        context: dict[str, Any] = {"request": request}
        if sampled_here:
            context["games_left"] = (
                Game.objects.filter(season=season).exclude(status=Game.Status.FINAL).count()
            )
        query = SeasonOddsQuery(data=request.query_params, context=context)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        if not sampled_here:
            # The page's own odds: kept, and sampled by the background, never here.
            result = odds.season_odds_page(season)
        else:
            result = odds.with_table(
                season,
                lambda: odds.season_odds(season, seasons=data["seasons"], seed=data.get("seed")),
            )
        if "seed" in result:  # past 2**53: JavaScript reads this one exactly
            result = {**result, "seed_str": str(result["seed"])}
        return _answer(result)
