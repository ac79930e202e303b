"""Importing, exporting and duplicating teams: the writes that cross the cards models."""

from __future__ import annotations

import io
import json
import sys
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.text import slugify
from simple_history.utils import bulk_create_with_history

from cards.mapping import (
    card_values,
    player_values,
    team_card,
    team_document,
    team_values,
)
from cards.models import Card, Player, Role, Team, notes_problem
from cards.styles import styles_problems
from cards.uploads import TeamFileError as TeamFileError  # raised here, caught by callers
from cards.uploads import team_file_size_problem, uploads_read
from core.errors import Refused
from core.text import counted
from simulator.vabg.cards import InvalidCardError, TeamCard, team_from_json, team_key_slips


@dataclass(frozen=True)
class ImportOutcome:
    team: Team
    created: bool
    changed: bool
    added: tuple[str, ...] = ()
    """Players the file adds to a team already here."""
    removed: tuple[tuple[str, int], ...] = ()
    """Players the team had that the file does not name, each with the games he played."""
    twin: str = ""
    """A team created beside one of the same season whose school differs only in capitals."""
    slips: tuple[str, ...] = ()
    """The file's keys that are one typing slip from a field ("pgg"): kept, not read."""

    @property
    def verb(self) -> str:
        """Return what happened to the team: created, updated or unchanged."""
        return "created" if self.created else "updated" if self.changed else "unchanged"

    def describe(self) -> str:
        """Say what the import did to this team, for messages and command output: a player
        the file no longer names is removed, and a renamed one is a new player (the file
        names players by name), so both are said, with the games the removed one played
        (their lines keep the name he played under, linked to no player)."""
        said = [f"{self.team}: {self.verb}"]
        if self.created and self.twin:
            said[0] += (
                f" beside {self.twin}, which differs only in capitals: two teams now (if they "
                "are one, delete this one in the admin and import it as the other is written)"
            )
        for name, games in self.removed:
            played = (
                f", after {counted(games, 'game')} played: his lines keep his name, linked to "
                "no player (rename him in the admin to keep them his)"
                if games
                else ""
            )
            said.append(f"removed {name}{played}")
        if self.added:
            said.append(f"added {', '.join(self.added)}")
        said.extend(self.slips)
        return "; ".join(said)


def team_notes_problems(*, name: str, data: object) -> list[str]:
    """Return the notes of a team file (the team's and each player's) that are too long."""
    if not isinstance(data, dict):
        return []
    problems = []
    if "notes" in data:
        problem = notes_problem(data["notes"])
        if problem:
            problems.append(f"{name}: notes: {problem}")
    players = data.get("players")
    for index, raw in enumerate(players if isinstance(players, list) else []):
        if isinstance(raw, dict) and "notes" in raw:
            problem = notes_problem(raw["notes"])
            if problem:
                who = raw.get("name") if isinstance(raw.get("name"), str) else None
                label = f"player {index} ({who})" if who else f"player {index}"
                problems.append(f"{name}: {label}: notes: {problem}")
    return problems


BOM = "\ufeff"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def _undecodable(content: bytes | str, exc: UnicodeDecodeError) -> str:
    """Say why a team file is not UTF-8: a UTF-16 one (Windows' "Unicode") by its mark."""
    if isinstance(content, bytes) and content.startswith(UTF16_BOMS):
        return "UTF-16, by its byte order mark; save it as UTF-8"
    return exc.reason


def team_file_parse(*, name: str, content: bytes | str) -> TeamCard:
    """Parse and validate one team file; raise :class:`TeamFileError` naming every problem.

    A file over ``TEAM_FILE_MAX_BYTES`` is refused unread, and notes over
    ``TEAM_NOTES_MAX_CHARS`` are a problem like any other. A UTF-8 byte order mark at the
    start is skipped.
    """
    size = len(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
    too_big = team_file_size_problem(name=name, size=size)
    if too_big:
        raise TeamFileError([too_big])
    try:
        # utf-8-sig: a leading byte order mark (Windows editors write one) is not content.
        text = (
            content.decode("utf-8-sig") if isinstance(content, bytes) else content.removeprefix(BOM)
        )
        data = json.loads(text)
    except UnicodeDecodeError as exc:
        raise TeamFileError([f"{name}: not UTF-8 text ({_undecodable(content, exc)})"]) from exc
    except json.JSONDecodeError as exc:
        if not text.strip():
            raise TeamFileError([f"{name}: empty; a team file is a JSON object"]) from exc
        raise TeamFileError(
            [f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"]
        ) from exc
    except RecursionError as exc:  # a few kilobytes of [[[[... (the API's body, any upload)
        raise TeamFileError([f"{name}: not valid JSON (nested too deeply)"]) from exc
    except ValueError as exc:  # an integer past Python's limit of digits (4,300): not a 500
        digits = f"{sys.get_int_max_str_digits():,}"
        raise TeamFileError(
            [f"{name}: not valid JSON (a number of more than {digits} digits)"]
        ) from exc
    notes = team_notes_problems(name=name, data=data)
    if isinstance(data, dict) and "styles" in data:
        notes += [f"{name}: {p}" for p in styles_problems(data["styles"])]
    try:
        card = team_from_json(data)
    except InvalidCardError as exc:
        raise TeamFileError([f"{name}: {p}" for p in exc.problems] + notes) from exc
    notes += _column_problems(name, card)
    if notes:
        raise TeamFileError(notes)
    return card


def _column_problems(name: str, card: TeamCard) -> list[str]:
    """Return what a parsed team file holds that its columns cannot, all at once: texts
    longer than they hold, each named by file and field (the database refused only the
    first, after every other check, naming neither), and teammates whose names differ only
    in capitals (stored as two players that every box score reads as one)."""

    def over(model: type[models.Model], field: str, value: str, where: str) -> list[str]:
        most = getattr(model._meta.get_field(field), "max_length", None)
        if most is not None and len(value) > most:
            return [f"{name}: {where}: at most {most} characters, got {len(value)}"]
        return []

    problems = over(Team, "school", card.school, "school")
    problems += over(Team, "conference", card.conference or "", "conference")
    seen: dict[str, str] = {}
    for player in card.players:
        twin = seen.setdefault(player.name.casefold(), player.name)
        if twin != player.name:
            problems.append(
                f"{name}: {twin} and {player.name} differ only in capitals: a box score would "
                "read them as one player"
            )
    for n, player in enumerate(card.players, start=1):
        who = player.name if len(player.name) <= 40 else f"player {n}"
        problems += over(Player, "name", player.name, f"player {n} name")
        problems += over(Player, "height", player.height or "", f"{who}: height")
    return problems


def teams_import(
    *,
    files: Iterable[tuple[str, bytes | str]],
    source: str = "Imported",
    unread: Sequence[str] = (),
) -> list[ImportOutcome]:
    """Import team files all or nothing: any problem in any file refuses the whole batch,
    as do ``unread``, the problems of uploads that could not be read as files (listed
    first, beside the files' own).

    A team is matched by school and season, so importing a file again updates that team in
    place (players matched by name) and never duplicates it. Each row's history says what
    wrote it: ``source`` and the file, such as "Loaded by load_teams from kentucky-2012.json".
    """
    try:
        parsed = teams_parse(files=files)
    except TeamFileError as exc:
        raise TeamFileError([*unread, *exc.problems]) from exc
    if unread:
        raise TeamFileError(list(unread))
    with transaction.atomic():
        return [
            replace(
                _team_write(
                    card,
                    reason=history_reason(source, name),
                    keep_conference=not _says_conference(content),
                ),
                slips=tuple(team_key_slips(card)),
            )
            for name, content, card in parsed
        ]


def _says_conference(content: bytes | str) -> bool:
    """Tell whether a team file names a conference at all (the key is optional: a file made
    without one, ``calculate_cards`` without ``--teams`` say, keeps the team's own)."""
    try:
        document = json.loads(
            content.decode("utf-8-sig") if isinstance(content, bytes) else content
        )
    except ValueError:
        return True
    return not isinstance(document, dict) or "conference" in document


HISTORY_REASON_MAX = 100  # simple_history's change-reason column


def history_reason(source: str, name: str) -> str:
    """Return what a row's history says made it, "Loaded by load_teams from kentucky-2012.json",
    within its column: a long name keeps its end (the file), after an ellipsis."""
    text = f"{source} from {name}"
    if len(text) <= HISTORY_REASON_MAX:
        return text
    room = HISTORY_REASON_MAX - len(f"{source} from …")
    return f"{source} from …{name[-room:]}"


def uploads_import(
    *, uploads: Iterable[tuple[str, IO[bytes]]], source: str = "Imported", zips: bool = True
) -> list[ImportOutcome]:
    """Import uploads, team files or zips of them, as the admin, the API and ``import_team``
    take them: read within the upload limits (:mod:`cards.uploads`), then all or nothing.
    With ``zips=False`` (the API) each upload must be one team file, a zip refused."""
    unread: list[str] = []
    files = uploads_read(uploads, zips=zips, problems=unread)
    return teams_import(files=files, source=source, unread=unread)


def teams_parse(
    *, files: Iterable[tuple[str, bytes | str]]
) -> list[tuple[str, bytes | str, TeamCard]]:
    """Read a batch of team files, refusing it with every problem of every file at once.

    Returns ``(name, content, team)`` for each file; two files of one team are a problem.
    """
    parsed: list[tuple[str, bytes | str, TeamCard]] = []
    problems: list[str] = []
    seen: dict[tuple[str, int], str] = {}
    for name, content in files:
        try:
            card = team_file_parse(name=name, content=content)
        except TeamFileError as exc:
            problems.extend(exc.problems)
            continue
        key = (card.school, card.season)
        if key in seen:
            problems.append(f"{name}: {card.label} is also in {seen[key]}")
        seen[key] = name
        parsed.append((name, content, card))
    if problems:
        raise TeamFileError(problems)
    return parsed


def team_import(*, name: str, content: bytes | str) -> ImportOutcome:
    """Import one team file; see :func:`teams_import`."""
    return teams_import(files=[(name, content)])[0]


def _assign(instance: models.Model, values: dict[str, Any]) -> bool:
    changed = False
    for field, value in values.items():
        if getattr(instance, field) != value:
            setattr(instance, field, value)
            changed = True
    return changed


def _save(instance: models.Model, label: str, reason: str) -> None:
    """Validate and save one row of an import (always inside its batch's transaction);
    its history records ``reason`` as what changed it."""
    _clean(instance, label)
    # simple_history's documented hook, which the models' types do not declare.
    instance._change_reason = reason  # type: ignore[attr-defined]
    try:
        instance.save()
    except IntegrityError as exc:
        raise TeamFileError([f"{label}: {_refusal(instance, exc)}"]) from exc


def _insert(model: type[models.Model], rows: list[tuple[Any, str]], reason: str) -> None:
    """Validate and insert rows new to the database with their history, ``(row, label)``
    each: one statement for the rows and one for their history, where saving them one by
    one cost two statements and a history manager a row (1,700 rows a 96-team load). The
    rows come out as saved (their ids set). If the database refuses the batch, it is rolled
    back to its savepoint and saved again one row at a time, so the refusal names the row
    as :func:`_save` names it."""
    for row, label in rows:
        _clean(row, label)
        if isinstance(row, Card):
            row.derive()  # what Card.save sets, which a bulk insert does not call
    objects = [row for row, _ in rows]
    try:
        with transaction.atomic():
            bulk_create_with_history(objects, model, default_change_reason=reason)
    except IntegrityError:
        for row, label in rows:
            row.pk = None
            row._state.adding = True
            _save(row, label, reason)


def _clean(instance: models.Model, label: str) -> None:
    """Validate one row of an import, refusing it with its ``label`` and the problem.

    The card came through the engine's own reader (:func:`team_file_parse`), which refuses
    whatever the models' constraints refuse; checking them again in Python costs a query
    per constraint, most of a 96-team load. So the database enforces them, and a refusal
    is named by the constraint's own message. Likewise a foreign key to a row this import
    holds in hand (the team or player it has just saved) is not looked up again."""
    in_hand = [
        f.name
        for f in instance._meta.concrete_fields
        if (f.many_to_one or f.one_to_one)
        and f.is_cached(instance)  # type: ignore[attr-defined]
        and getattr(f.get_cached_value(instance), "pk", None) is not None  # type: ignore[attr-defined]
    ]
    try:
        instance.full_clean(exclude=in_hand, validate_constraints=False)
    except ValidationError as exc:
        messages = [f"{label}: {m}" for m in exc.messages]
        raise TeamFileError(messages) from exc


def _refusal(instance: models.Model, exc: IntegrityError) -> str:
    """Return the message of the model constraint the database refused the row by."""
    text = str(exc)
    meta = instance._meta
    for constraint in meta.constraints:
        # PostgreSQL names the constraint; SQLite names a unique constraint's columns.
        fields = [meta.get_field(name) for name in getattr(constraint, "fields", ())]
        columns = [f"{meta.db_table}.{f.column}" for f in fields if isinstance(f, models.Field)]
        if constraint.name in text or (columns and all(c in text for c in columns)):
            return str(constraint.get_violation_error_message())
    return f"refused by the database ({text.strip()})"


def _team_write(card: TeamCard, *, reason: str, keep_conference: bool = False) -> ImportOutcome:
    values = team_values(card)
    team = Team.objects.filter(school=card.school, season=card.season).first()
    created = team is None
    if team is None:
        team = Team()
    elif keep_conference:
        values.pop("conference")  # the file names none: the team keeps its own
    changed = team_saved = _assign(team, values)
    if changed:
        _save(team, card.label, reason)
    if created:  # a new team: its players and cards are new too, inserted together
        return _team_insert(team, card, reason)
    existing = {p.name: p for p in Player.objects.filter(team=team).select_related("card")}
    wanted = {p.name for p in card.players}
    gone = [player for name, player in existing.items() if name not in wanted]
    # Each box line of his is a game he played (a league's, through the reverse relation).
    games = dict(
        Player.objects.filter(pk__in=[p.pk for p in gone])
        .annotate(n=Count("box_lines"))
        .values_list("pk", "n")
    ) if gone else {}  # fmt: skip
    removed = tuple((p.name, games.get(p.pk, 0)) for p in gone)
    for player in gone:
        player.delete()
        changed = True
    added = tuple(p.name for p in card.players if p.name not in existing)
    cards: list[tuple[Card, dict[str, Any], str]] = []
    for order, pcard in enumerate(card.players):
        player = existing.get(pcard.name) or Player(team=team)
        if _assign(player, player_values(pcard, order)) or player.pk is None:
            _save(player, f"{card.label}, {pcard.name}", reason)
            changed = True
        # A player new to the team has no card yet: no query to find that out.
        row = (getattr(player, "card", None) if pcard.name in existing else None) or Card(
            player=player, team=team
        )
        cards.append((row, card_values(pcard), pcard.name))
    # Starters move last, after every card leaving a starter's place has moved, so the
    # one-starter-per-slot constraint holds after each single save.
    moving = [c for c in cards if c[1]["role"] == Role.STARTER and c[0].pk is not None]
    for row, values, _ in moving:
        if (row.slot, row.role) != (values["slot"], values["role"]) and row.is_starter:
            row.role = Role.RESERVE
            # simple_history's documented switch, which the model's type does not declare.
            row.skip_history_when_saving = True  # type: ignore[attr-defined]
            row.save(update_fields=["role"])
            del row.skip_history_when_saving  # type: ignore[attr-defined]
    cards.sort(key=lambda c: c[1]["role"] == Role.STARTER)
    for row, values, pname in cards:
        if _assign(row, values) or row.pk is None:
            _save(row, f"{card.label}, {pname}", reason)
            changed = True
    _refuse_unplayable(team, card)
    if changed and not team_saved:  # its players or cards changed: the team was updated now
        team.updated_at = timezone.now()
        Team.objects.filter(pk=team.pk).update(updated_at=team.updated_at)
    return ImportOutcome(team=team, created=False, changed=changed, added=added, removed=removed)


def _refuse_unplayable(team: Team, card: TeamCard) -> None:
    """Refuse the import if the team as written cannot be played (its roster's problems)."""
    problems = team.roster_problems()
    if problems:
        raise TeamFileError([f"{card.label}: {p}" for p in problems])


def _team_insert(team: Team, card: TeamCard, reason: str) -> ImportOutcome:
    """Write the players and cards of a team new to the database (the team itself saved)."""
    players = [
        (Player(team=team, **player_values(pcard, order)), f"{card.label}, {pcard.name}")
        for order, pcard in enumerate(card.players)
    ]
    _insert(Player, players, reason)
    cards = [
        (Card(player=player, team=team, **card_values(pcard)), label)
        for (player, label), pcard in zip(players, card.players, strict=True)
    ]
    _insert(Card, cards, reason)
    _refuse_unplayable(team, card)
    twin = (
        Team.objects.filter(school__iexact=card.school, season=card.season)
        .exclude(pk=team.pk)
        .first()
    )
    return ImportOutcome(
        team=team, created=True, changed=True, added=(), removed=(), twin=str(twin or "")
    )


class CardRefused(Refused):
    """A card edit that would leave its team's roster unplayable (400); nothing is saved."""


@transaction.atomic
def card_update(team: Team, save: Any) -> Card:
    """Save an edit of one of ``team``'s cards (``save()`` writes it and returns the card)
    unless it leaves the team unplayable where it was playable: a slot without a starter, or
    cards the engine refuses. Then raise :class:`CardRefused` naming what breaks, and roll
    the edit back: a card at a time never breaks a team every season, matchup and team file
    reads (moving a starter to another slot or to the bench takes the whole roster at once:
    the admin's team page or a team file's import). A team already broken may be mended a
    card at a time."""
    before = _playable_problems(team)
    card: Card = save()
    problems = _playable_problems(card.player.team)
    if problems and not before:  # raised inside the atomic block: the edit is rolled back
        raise CardRefused(_unplayable(team, problems))
    return card


def card_edit_check(edited: Card) -> None:
    """Refuse (:class:`CardRefused`) an edit of one card, not saved yet, that would leave
    its playable team without a starter in a slot (the admin's card form asks before it
    saves; :func:`card_update` checks the same after saving, the engine's rules too)."""
    team = edited.player.team
    problems = team.roster_problems(replacing=edited)
    if problems and not team.roster_problems():
        raise CardRefused(_unplayable(team, problems))


def _unplayable(team: Team, problems: list[str]) -> str:
    return (
        f"{team} would be left unplayable: {'; '.join(problems)}. Nothing was saved; to "
        "move starters between slots or to the bench, change the roster at once (Slot and "
        "Role of the roster on the admin's team page, saved together, or import the team's "
        "file)"
    )


def roster_problems_after(team: Team, cards: list[Card]) -> list[str]:
    """Return why the engine could not play ``team`` with these cards (each with its
    ``player`` as it would be saved): the roster's rules first, then the engine's own
    (:class:`~simulator.vabg.cards.TeamCard` reads the cards as every game does)."""
    problems = team.roster_problems(cards=cards)
    if problems:
        return problems
    ordered = sorted(cards, key=lambda c: (c.player.order, c.player.pk or 0))
    try:
        team_card(team, roster=[(c.player, c) for c in ordered])
    except InvalidCardError as exc:
        return list(exc.problems)
    return []


def roster_change_check(team: Team, cards: list[Card], *, change: str) -> None:
    """Refuse (:class:`CardRefused`) a change of ``team``'s roster, not saved yet, that
    would leave the playable team unplayable; ``cards`` are the team's cards as they would
    stand after it (each with its ``player``), ``change`` says what does it ("Deleting
    Anthony Davis"). A team already unplayable may be mended a step at a time, as a card."""
    problems = roster_problems_after(team, cards)
    if problems and not _playable_problems(team):
        raise CardRefused(
            f"{change} would leave {team} unplayable: {'; '.join(problems)}. Nothing was saved"
        )


def _playable_problems(team: Team) -> list[str]:
    """Return why the engine could not play ``team`` as its cards stand (none: it can)."""
    problems = team.roster_problems()
    if not problems:
        try:
            team_document(team)
        except InvalidCardError as exc:
            problems = [str(exc)]
    return problems


def team_file_name(team: Team) -> str:
    """Return the file name a team exports to, such as ``kentucky-2012.json``."""
    return f"{slugify(team.school)}-{team.season}.json"


def team_file_names(teams: Iterable[Team]) -> dict[Team, str]:
    """Return a distinct file name for each team: :func:`team_file_name`, and where two
    teams share it ("Kentucky 2012" and "KENTUCKY 2012", both ``kentucky-2012.json``),
    the team saved first keeps it and the others take ``-2``, ``-3``... after the season,
    by the order they were saved, so an export names the same teams the same way."""
    teams = sorted(teams, key=lambda t: t.pk or 0)
    plain = {team: team_file_name(team) for team in teams}
    taken = set(plain.values())
    names: dict[Team, str] = {}
    used: set[str] = set()
    for team in teams:
        name = plain[team]
        n = 1
        while name in used:
            n += 1
            name = plain[team].removesuffix(".json") + f"-{n}.json"
            if name in taken:  # another team's own name, such as "Kentucky 2012-2"'s
                name = plain[team]
        used.add(name)
        names[team] = name
    return names


def renamed_files(names: dict[Team, str]) -> list[str]:
    """Say which teams of an export were written under another name than their own, and
    why: "KENTUCKY 2012 is written as kentucky-2012-2.json: kentucky-2012.json is
    Kentucky 2012's"."""
    owner = {name: team for team, name in names.items()}
    out = []
    for team, name in names.items():
        own = team_file_name(team)
        if name != own:
            out.append(f"{team} is written as {name}: {own} is {owner[own]}'s")
    return out


def players_left_out(team: Team) -> list[str]:
    """Name the team's players without a card, whom its team file leaves out (a player
    plays, and is written, by his card)."""
    return [p.name for p in team.players.all() if not hasattr(p, "card")]


def left_out_notice(team: Team) -> str | None:
    """Say which players a team's file leaves out and why, or ``None`` when none."""
    names = players_left_out(team)
    if not names:
        return None
    who = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    verb = "have no card" if len(names) > 1 else "has no card"
    return (
        f"{team}: {who} {verb} and {'are' if len(names) > 1 else 'is'} left out of its team "
        "file (a player plays, and is written, by his card): add the card, or delete the "
        "player, to export the whole roster"
    )


class TeamNotWritable(Refused):
    """Raise for a team whose cards the engine refuses, so it has no team file (409: the
    request is fine, the team's cards must be mended first)."""

    status = 409


def team_file(team: Team) -> dict[str, Any]:
    """Return a team's ``vabg-team/1`` document; raise :class:`TeamNotWritable` naming the
    team and what its cards lack when the engine refuses them."""
    try:
        return team_document(team)
    except InvalidCardError as exc:
        raise TeamNotWritable(f"{team} cannot be written as a team file: {exc}") from exc


def team_file_text(team: Team) -> str:
    """Return a team's ``vabg-team/1`` file, as written by ``export_team`` and the admin;
    raise :class:`TeamNotWritable` when the engine refuses its cards."""
    return json.dumps(team_file(team), indent=2, ensure_ascii=False) + "\n"


def teams_zip(teams: Iterable[Team]) -> bytes:
    """Return a zip of the teams' files, one JSON each, each under its own name
    (:func:`team_file_names`); raise :class:`TeamNotWritable` naming every team the engine
    refuses, and write none."""
    names = team_file_names(teams)
    texts = _team_file_texts(names)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for team, name in names.items():
            archive.writestr(name, texts[team])
    return buffer.getvalue()


def _team_file_texts(teams: Iterable[Team]) -> dict[Team, str]:
    """Return each team's file text; raise :class:`TeamNotWritable` naming every team the
    engine refuses."""
    texts: dict[Team, str] = {}
    problems: list[str] = []
    for team in teams:
        try:
            texts[team] = team_file_text(team)
        except TeamNotWritable as exc:
            problems.append(str(exc))
    if problems:
        raise TeamNotWritable("; ".join(problems))
    return texts


class ExportDirectoryError(Refused):
    """The directory an export writes into cannot be made or written (the command's
    ``--out``)."""


def teams_export(*, teams: Iterable[Team], directory: Path) -> list[Path]:
    """Write each team's file into ``directory``, each under its own name
    (:func:`team_file_names`); return the paths written. Raise :class:`TeamNotWritable`
    naming every team the engine refuses, writing none, and :class:`ExportDirectoryError`
    naming the directory when it cannot be written."""
    names = team_file_names(teams)
    texts = _team_file_texts(names)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportDirectoryError(f"Cannot write into {directory}: {exc.strerror or exc}") from exc
    paths = []
    for team, name in names.items():
        path = directory / name
        try:
            path.write_text(texts[team], encoding="utf-8")
        except OSError as exc:
            raise ExportDirectoryError(
                f"Cannot write {name} into {directory}: {exc.strerror or exc}"
            ) from exc
        paths.append(path)
    return paths


@transaction.atomic
def team_duplicate(*, team: Team, school: str | None = None, season: int | None = None) -> Team:
    """Copy a team with all its players and cards under a new name (default: "… (copy)")."""
    school = school or f"{team.school} (copy)"
    season = season or team.season
    base, n = school, 2
    while Team.objects.filter(school=school, season=season).exists():
        school, n = f"{base} {n}", n + 1
    document = team_document(team) | {"school": school, "season": season}
    return _team_write(
        team_from_json(document), reason=history_reason("Duplicated", str(team))
    ).team
