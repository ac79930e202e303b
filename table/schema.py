"""The shape of a game at the table as the API answers it (``table.presentation``), for the
OpenAPI schema: what a client of ``/table/api/`` can rely on in every game, and which keys
only one game has. The serializers describe; nothing is serialized through them (the
answer is ``table_state``'s dict), and ``tests/table/test_api_schema.py`` checks real
answers of the three games against this schema, no key left undocumented."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from simulator.games import game_choices
from table.models import TableGame


def _object(help_text: str, **kwargs: Any) -> serializers.DictField:
    """A free-form object: its keys are one game's own (its box score, its board)."""
    return serializers.DictField(help_text=help_text, **kwargs)


class TableSidesSerializer(serializers.Serializer[Any]):
    home = serializers.IntegerField()
    away = serializers.IntegerField()


class TableTeamSerializer(serializers.Serializer[Any]):
    label = serializers.CharField(help_text='"Kentucky 2012"')  # type: ignore[assignment]
    team_id = serializers.IntegerField()


class TableNeedSerializer(serializers.Serializer[Any]):
    """The die the game waits for."""

    die = serializers.CharField(help_text='"d8", "d6 tens", "d20", "d6"...')
    faces = serializers.IntegerField(help_text="The die's faces: a value is 1..faces.")
    step = serializers.CharField(help_text="What the die decides, in words.")
    why = serializers.CharField(help_text="Why the rules roll it here.")
    index = serializers.IntegerField(help_text="The die's place in the game's dice (0-based).")
    team = serializers.CharField(help_text='"home" or "away": whose roll (VABG: whose trip).')
    period = serializers.IntegerField(
        required=False, help_text="VABG: 0 regulation, 1.. overtimes."
    )
    number = serializers.IntegerField(required=False, help_text="VABG: the possession number.")
    trip_start = serializers.BooleanField(
        required=False,
        help_text="VABG: the trip's first die (a trip's d8, 11-66 and d20 come together).",
    )
    role = serializers.CharField(required=False, help_text="Grid court: offense or defense.")
    what = serializers.CharField(required=False, help_text="Six dice: what the roll is for.")
    size = serializers.IntegerField(
        required=False, help_text="Grid court, six dice: dice in the roll."
    )
    start = serializers.IntegerField(
        required=False, help_text="Grid court, six dice: the roll's first die's index."
    )
    brief = serializers.CharField(
        required=False,
        help_text="Grid court: the roll in a few words, as a phone's prompt shows it "
        '("piece 1 shoots a 3, made on 8+"); why says it whole.',
    )


class TableDieSerializer(serializers.Serializer[Any]):
    die = serializers.CharField()
    value = serializers.IntegerField()
    step = serializers.CharField(allow_blank=True)
    face = serializers.CharField(
        required=False, allow_blank=True, help_text="Six dice: the face the value shows."
    )


class TablePlaySerializer(serializers.Serializer[Any]):
    """One trip (VABG) or roll (grid court, six dice) with its dice and what they did."""

    label = serializers.CharField()  # type: ignore[assignment]
    team = serializers.CharField(help_text='"home" or "away".')
    team_label = serializers.CharField()
    kind = serializers.CharField(allow_blank=True)
    dice = TableDieSerializer(many=True)
    lines = serializers.ListField(child=serializers.CharField(), help_text="The play in words.")
    home = serializers.IntegerField(help_text="The home score after it.")
    away = serializers.IntegerField(help_text="The away score after it.")
    period = serializers.IntegerField(required=False, help_text="VABG only.")
    number = serializers.IntegerField(required=False, help_text="VABG only.")


class TableOddsSerializer(serializers.Serializer[Any]):
    """Live win probability: VABG and six dice solve it exactly; grid court has none."""

    available = serializers.BooleanField()
    note = serializers.CharField(allow_blank=True)
    p_home = serializers.FloatField(required=False)
    p_away = serializers.FloatField(required=False)
    pregame_home = serializers.FloatField(required=False, help_text="P(home wins) before the game.")
    as_of = serializers.CharField(
        required=False, help_text='"before Kansas 2008\'s trip 12 (30-28)", "final".'
    )
    pregame_note = serializers.CharField(
        required=False,
        help_text="Grid court (no live odds): the teams' chances before the game, once worked "
        "out in the background.",
    )
    caveat = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="Six dice with a side played by hand: what the odds assume of that side.",
    )


class TableOptionSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="What to send as the choice.")
    label = serializers.CharField()  # type: ignore[assignment]


class TableQuestionDieSerializer(serializers.Serializer[Any]):
    die = serializers.IntegerField(help_text="The die's place in the roll (1-based).")
    value = serializers.IntegerField()
    face = serializers.CharField(allow_blank=True)


class TableQuestionSerializer(serializers.Serializer[Any]):
    """A choice the rules leave to a side played by hand (grid court, six dice)."""

    side = serializers.CharField()
    kind = serializers.CharField()
    prompt = serializers.CharField()
    rule = serializers.CharField(help_text="The rule that gives the choice.")
    options = TableOptionSerializer(many=True)
    board = _object("Grid court: the role, pieces and cells a placement may use.")
    dice = TableQuestionDieSerializer(many=True)


class TableChoiceMadeSerializer(serializers.Serializer[Any]):
    after = serializers.IntegerField(help_text="How many dice had been entered.")
    choice = serializers.CharField()


class TableEntrySerializer(serializers.Serializer[Any]):
    """How the game's dice may be typed (``simulator.sheets.Entry``): the API's dice/ reads
    text the same way."""

    example = serializers.CharField(help_text='An entry of the game\'s own dice: "5 3 4 17".')
    runs = serializers.BooleanField(
        help_text="A run of characters is one die each (a game of d6 only: 112245)."
    )
    letters = serializers.DictField(
        child=serializers.IntegerField(),
        help_text='Face letters and the value each reads as (six dice: {"B": 1, "P": 4, "S": '
        '5, "F": 6}); empty when the dice are typed as numbers only.',
    )
    separators = serializers.CharField(
        help_text="What may stand between dice: spaces, commas, semicolons, full stops, dashes."
    )


class TableTeamFilesSerializer(serializers.Serializer[Any]):
    home = serializers.CharField()
    away = serializers.CharField()


class TableUrlsSerializer(serializers.Serializer[Any]):
    page = serializers.CharField()
    state = serializers.CharField()
    dice = serializers.CharField()
    choice = serializers.CharField()
    undo = serializers.CharField()
    finish = serializers.CharField()
    abandon = serializers.CharField()
    dice_file = serializers.CharField()
    team_files = TableTeamFilesSerializer()
    league_game = serializers.CharField(allow_null=True, help_text="The season game's page.")


class TableStateSerializer(serializers.Serializer[Any]):
    """A game at the table after the entries so far: what the score sheet page draws."""

    id = serializers.IntegerField()
    game = serializers.ChoiceField(choices=game_choices())
    game_title = serializers.CharField()
    options = _object("The game's own options (grid court: width, level, pieces...).")
    status = serializers.ChoiceField(choices=TableGame.Status.choices)
    status_text = serializers.CharField()
    home = TableTeamSerializer()
    away = TableTeamSerializer()
    rules = serializers.CharField(help_text="VABG's preset (basic, advanced).")
    strategy = serializers.BooleanField(help_text="VABG: the coach policy is on.")
    neutral = serializers.BooleanField()
    count = serializers.IntegerField(
        help_text="The entries so far (dice and choices): send it as ``expected``."
    )
    dice = serializers.ListField(child=serializers.IntegerField(), help_text="The dice so far.")
    need = TableNeedSerializer(
        allow_null=True, help_text="The die wanted next; null when over or a choice is."
    )
    over = serializers.BooleanField()
    score = TableSidesSerializer()
    period = serializers.CharField(help_text='"Possession 12, Kansas 2008 ball", "Final"...')
    overtimes = serializers.IntegerField()
    undo_trip_to = serializers.IntegerField(help_text="How many dice an undo of the trip keeps.")
    plays = TablePlaySerializer(
        many=True,
        help_text="The plays (VABG: trips; grid court, six dice: rolls), oldest first; with "
        "?plays_since=N only those from plays_from on.",
    )
    plays_from = serializers.IntegerField(
        help_text="Where plays begins among the game's plays: 0, or with ?plays_since=N the "
        "N asked (less after an undo): keep your first plays_from plays and put these after."
    )
    plays_count = serializers.IntegerField(help_text="How many plays the game has.")
    sheet = _object(
        "VABG: the printed score sheet (numbers, current, home, away, rebounds); null in "
        "the other games.",
        allow_null=True,
    )
    box = _object("The box score so far, in the game's own columns.")
    odds = TableOddsSerializer()
    hands = serializers.ListField(
        child=serializers.CharField(), help_text="The sides whose choices are typed by hand."
    )
    choices = TableChoiceMadeSerializer(many=True)
    questions = serializers.IntegerField(
        help_text="The version of the questions the choices answer, in order (six dice 2: "
        "the Power Chip reroll is asked only of a holder who trails; 1: a game begun before "
        "2026-11-29, asked before every contest)."
    )
    entry = TableEntrySerializer(help_text="How the game's dice may be typed.")
    urls = TableUrlsSerializer()
    question = TableQuestionSerializer(
        required=False, allow_null=True, help_text="Grid court, six dice: the choice waited for."
    )
    pieces = _object(
        "Grid court: each side's pieces (offense, home, away); null in six dice.",
        required=False,
        allow_null=True,
    )
    faces = serializers.CharField(
        required=False, allow_blank=True, help_text="Six dice: the faces of 1-6 (B, P, S, F)."
    )
    policy_note = serializers.CharField(required=False, allow_blank=True)
    situation = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Six dice: who holds the Power Chip and who rolls one die fewer next.",
    )
    court = _object("Grid court: the court's rows, width and cell values.", required=False)
    entry_note = serializers.CharField(
        allow_blank=True,
        help_text="Filled in the answer to dice/ alone (every other state's is empty): an "
        "entry whose dice went to more than one roll (VABG: trip) names each, with its dice "
        "(\"5 dice to 2 trips: Kansas 2008's possession 44: 5 3 4 1; Kentucky 2012's "
        'possession 44: 6. Too many? Undo die.").',
    )
