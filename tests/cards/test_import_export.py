"""Team files in and out: all or nothing, every problem listed, and round trips exact."""

from __future__ import annotations

import copy
import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.mapping import team_card, teams_for_play
from cards.models import Card, Player, Team
from cards.services import TeamFileError, team_duplicate, team_import, teams_import, teams_zip
from simulator import SeededDice
from simulator.vabg import play_game

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
KENTUCKY = FIXTURES / "kentucky-2012.json"
KANSAS = FIXTURES / "kansas-2008.json"


def document(path: Path = KENTUCKY) -> dict:
    return json.loads(path.read_text())


def counts() -> tuple[int, int, int]:
    return Team.objects.count(), Player.objects.count(), Card.objects.count()


def test_a_team_file_imports_every_player_and_card() -> None:
    outcome = team_import(name="kentucky.json", content=KENTUCKY.read_bytes())
    assert outcome.created
    team = outcome.team
    assert str(team) == "Kentucky 2012"
    davis = Card.objects.get(player__name="Anthony Davis")
    source = next(p for p in document()["players"] if p["name"] == "Anthony Davis")
    assert davis.block_top == source["block_top"]
    assert davis.slot == 5 and davis.is_starter
    assert team.players.count() == len(document()["players"])


def test_importing_the_same_file_twice_changes_nothing() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    before = counts()
    history_before = Card.history.count()
    outcome = team_import(name="k.json", content=KENTUCKY.read_bytes())
    assert not outcome.created and not outcome.changed
    assert counts() == before
    assert Card.history.count() == history_before


def test_importing_a_file_that_changes_only_players_marks_the_team_updated() -> None:
    first = team_import(name="k.json", content=KENTUCKY.read_bytes()).team
    before = Team.objects.get(pk=first.pk).updated_at
    doc = document()
    doc["players"][-1]["name"] = "A Newcomer"  # a reserve renamed: the team's row is as it was
    outcome = team_import(name="k.json", content=json.dumps(doc).encode())
    assert outcome.changed and not outcome.created
    assert Team.objects.get(pk=first.pk).updated_at > before  # the teams list's "Updated at"


def test_a_lower_case_school_is_named_as_written_in_messages(tmp_path: Path) -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    doc = document() | {"school": "kentucky"}
    outcome = team_import(name="lower.json", content=json.dumps(doc).encode())
    # Not made silently (a commissioner's review): the twin in other capitals is named.
    assert outcome.describe() == (
        "kentucky 2012: created beside Kentucky 2012, which differs only in capitals: two "
        "teams now (if they are one, delete this one in the admin and import it as the "
        "other is written)"
    )
    assert team_import(name="again.json", content=json.dumps(doc).encode()).describe() == (
        "kentucky 2012: unchanged"
    )
    out = io.StringIO()
    call_command("export_team", "--all", "--out", str(tmp_path), stdout=out)
    assert "kentucky 2012 is written as kentucky-2012-2.json" in out.getvalue()
    assert json.loads((tmp_path / "kentucky-2012-2.json").read_text())["school"] == "kentucky"


# A sample of the fixtures: the rulebook's hand-made files, a pre-1987 team, a team with
# placeholder starters to complete, a pre-war team (test_field.py loads all 96).
SAMPLE = [
    FIXTURES / name
    for name in (
        "kansas-2008.json", "kentucky-2012.json", "san-diego-state-2011.json",
        "indiana-1976.json", "auburn-1984.json", "depaul-1945.json", "michigan-2013.json",
    )
]  # fmt: skip


def test_export_then_import_gives_identical_cards(tmp_path: Path) -> None:
    for path in SAMPLE:
        team_import(name=path.name, content=path.read_bytes())
    exported = {t.pk: team_card(t) for t in teams_for_play()}
    call_command("export_team", "--all", "--out", str(tmp_path))
    Team.objects.all().delete()
    call_command("import_team", *sorted(str(p) for p in tmp_path.glob("*.json")))
    reimported = {(t.school, t.season): team_card(t) for t in teams_for_play()}
    assert len(reimported) == len(exported)
    for card in exported.values():
        again = reimported[(card.school, card.season)]
        assert again == card
        assert again.to_json() == card.to_json()


def test_the_exported_file_is_the_fixture_file_it_came_from() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    team = teams_for_play().get(school="Kentucky")
    assert team_card(team).to_json() == document()


def test_a_bad_file_is_refused_whole_with_every_problem_and_nothing_written() -> None:
    bad = document()
    bad["dunk_top"] = 70
    bad["players"][0]["can_play"] = 99
    bad["players"][4]["d20"]["2PX"] = "18-20"
    with pytest.raises(TeamFileError) as excinfo:
        team_import(name="bad.json", content=json.dumps(bad))
    problems = excinfo.value.problems
    assert "bad.json: dunk_top must be 34 to 66, got 70" in problems
    assert any("can_play must be 0 to 66, got 99" in p and "Marquis Teague" in p for p in problems)
    assert any("the d20 ranges leave" in p and "Anthony Davis" in p for p in problems)
    assert counts() == (0, 0, 0)


def test_one_bad_file_in_a_batch_refuses_the_batch() -> None:
    bad = document(FIXTURES / "kansas-2008.json")
    bad["players"][1]["role"] = "starter"
    bad["players"][5]["role"] = "starter"
    with pytest.raises(TeamFileError) as excinfo:
        teams_import(files=[("k.json", KENTUCKY.read_bytes()), ("kansas.json", json.dumps(bad))])
    assert any("slot 1 (PG) has 2 starters" in p for p in excinfo.value.problems)
    assert counts() == (0, 0, 0)


def test_a_bad_reimport_leaves_the_stored_team_unchanged() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    before = team_card(teams_for_play().get())
    bad = document()
    bad["players"][0]["steal_top"] = 15
    bad["players"][1]["foul_from"] = 30
    with pytest.raises(TeamFileError):
        team_import(name="k.json", content=json.dumps(bad))
    assert team_card(teams_for_play().get()) == before


def test_a_row_the_database_refuses_is_named_by_its_constraint_and_nothing_is_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The engine's reader refuses what the constraints refuse, so a file cannot get here;
    # a mapping bug could, and the database's refusal must still read as a named problem.
    import cards.services as services

    real = services.card_values

    def broken(pcard):  # type: ignore[no-untyped-def]
        return real(pcard) | {"slot": 1, "role": "starter"}

    monkeypatch.setattr(services, "card_values", broken)
    with pytest.raises(TeamFileError) as excinfo:
        team_import(name="k.json", content=KENTUCKY.read_bytes())
    [problem] = excinfo.value.problems
    assert problem.startswith("Kentucky 2012, ")
    assert problem.endswith(": This team already has a starter in this slot.")
    assert counts() == (0, 0, 0)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"\xff\xfe",
            "bad.json: not UTF-8 text (UTF-16, by its byte order mark; save it as UTF-8)",
        ),
        (b"\xef\xbb\xbf", "bad.json: empty; a team file is a JSON object"),
        (b" \n", "bad.json: empty; a team file is a JSON object"),
        (b"{", "bad.json: not valid JSON (line 1, column 2"),
        (b"[]", "bad.json: a team file must be a JSON object"),
        (b'{"format": "vabg-team/2"}', 'bad.json: format must be "vabg-team/1"'),
    ],
)
def test_unreadable_files_are_refused_with_a_clear_message(content: bytes, message: str) -> None:
    with pytest.raises(TeamFileError) as excinfo:
        team_import(name="bad.json", content=content)
    assert excinfo.value.problems[0].startswith(message)


def test_a_reimport_updates_in_place_moves_starters_and_drops_removed_players() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    changed = document()
    players = changed["players"]
    # A reserve becomes his slot's starter and the old starter a reserve; a player leaves.
    reserve = next(p for p in players if p["role"] == "reserve")
    slot = reserve["slot"]
    starter = next(p for p in players if p["slot"] == slot and p["role"] == "starter")
    starter["role"], reserve["role"] = "reserve", "starter"
    gone = next(p for p in players if p["role"] == "reserve" and p["slot"] != slot)
    players.remove(gone)
    outcome = team_import(name="k.json", content=json.dumps(changed))
    assert outcome.changed and not outcome.created
    team = teams_for_play().get()
    assert team_card(team).starter(slot).name == reserve["name"]
    assert not Player.objects.filter(name=gone["name"]).exists()
    assert Team.objects.count() == 1


def test_unknown_keys_survive_import_and_export() -> None:
    doc = document()
    doc["region"] = "East"
    doc["players"][0]["class"] = "Fr"
    team_import(name="k.json", content=json.dumps(doc))
    exported = team_card(teams_for_play().get()).to_json()
    assert exported["region"] == "East"
    assert exported["players"][0]["class"] == "Fr"


def test_import_team_command_lists_every_problem_and_writes_nothing(tmp_path: Path) -> None:
    bad = copy.deepcopy(document())
    bad["players"][2]["turnover_top"] = 50
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as excinfo:
        call_command("import_team", str(KENTUCKY), str(path))
    assert "Nothing was imported; 1 problem(s)" in str(excinfo.value)
    assert "turnover_top must be 40 to 46, got 50" in str(excinfo.value)
    assert counts() == (0, 0, 0)


def test_an_import_names_a_key_one_slip_from_a_field_and_keeps_it(tmp_path: Path) -> None:
    """A review: a team file with "conferance" and a player's "pgg" imported as "created",
    the team with no conference and the player with no ppg, and nothing said."""
    doc = copy.deepcopy(document())
    doc["conferance"] = doc.pop("conference")
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    call_command("import_team", str(path), stdout=out)
    team = Team.objects.get()
    assert out.getvalue().strip() == (
        f'{team}: created; "conferance" is not a team-file field and is not read: did you '
        'mean "conference"?'
    )
    assert (team.conference, team.extra) == ("", {"conferance": doc["conferance"]})


def test_the_admins_exported_zip_imports_back_with_the_command(tmp_path: Path) -> None:
    for path in SAMPLE[:3]:
        team_import(name=path.name, content=path.read_bytes())
    exported = {(t.school, t.season): team_card(t) for t in teams_for_play()}
    archive = tmp_path / "vabg-teams.zip"
    archive.write_bytes(teams_zip(teams_for_play()))
    Team.objects.all().delete()
    out = io.StringIO()
    call_command("import_team", str(archive), stdout=out)
    assert len(out.getvalue().splitlines()) == 3
    assert {(t.school, t.season): team_card(t) for t in teams_for_play()} == exported


def test_import_team_names_a_zip_that_is_not_one(tmp_path: Path) -> None:
    path = tmp_path / "teams.zip"
    path.write_bytes(b"PK\x03\x04 cut short")
    with pytest.raises(CommandError, match=r"teams\.zip: not a valid zip file"):
        call_command("import_team", str(path))
    assert counts() == (0, 0, 0)


def test_import_team_command_names_a_missing_file() -> None:
    with pytest.raises(CommandError, match=r"nope\.json: cannot be read"):
        call_command("import_team", "nope.json")


def test_a_byte_order_mark_before_a_team_file_is_skipped_as_bytes_or_text() -> None:
    assert team_import(name="k.json", content=b"\xef\xbb\xbf" + KENTUCKY.read_bytes()).created
    outcome = team_import(name="k.json", content="\ufeff" + KENTUCKY.read_text())
    assert not outcome.created and not outcome.changed


def test_export_team_names_a_team_that_does_not_exist() -> None:
    with pytest.raises(CommandError, match='No team "Duke 1992"'):
        call_command("export_team", "Duke 1992")


def exported(*labels: str) -> dict[str, object]:
    out = io.StringIO()
    call_command("export_team", *labels, "--print", stdout=out)
    return json.loads(out.getvalue())


def test_export_team_finds_the_school_whatever_its_case() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    for label in ("kentucky 2012", "KENTUCKY 2012", " Kentucky  2012 "):
        assert exported(label) == document(), label
    with pytest.raises(CommandError, match='No team "kentucky 2011"'):
        call_command("export_team", "kentucky 2011", "--print")


def test_export_team_names_every_team_a_label_could_mean() -> None:
    team_import(name="k.json", content=KENTUCKY.read_bytes())
    shouting = document() | {"school": "KENTUCKY"}
    team_import(name="shouting.json", content=json.dumps(shouting))
    assert exported("Kentucky 2012")["school"] == "Kentucky"  # as written: that one
    assert exported("KENTUCKY 2012")["school"] == "KENTUCKY"
    with pytest.raises(CommandError) as excinfo:
        call_command("export_team", "kentucky 2012", "--print")
    assert str(excinfo.value) == (
        '"kentucky 2012" matches 2 teams: "KENTUCKY 2012", "Kentucky 2012"; write one as it is.'
    )


def test_duplicate_copies_every_card_under_a_new_name() -> None:
    team = team_import(name="k.json", content=KENTUCKY.read_bytes()).team
    copy_team = team_duplicate(team=teams_for_play().get(pk=team.pk))
    assert str(copy_team) == "Kentucky (copy) 2012"
    original = team_card(teams_for_play().get(pk=team.pk))
    duplicate = team_card(teams_for_play().get(pk=copy_team.pk))
    assert duplicate.players == original.players
    assert str(team_duplicate(team=teams_for_play().get(pk=team.pk))) == "Kentucky (copy) 2 2012"


def test_load_teams_is_idempotent_and_every_team_is_playable(tmp_path: Path) -> None:
    for path in SAMPLE:
        shutil.copy(path, tmp_path / path.name)
    call_command("load_teams", "--dir", str(tmp_path))
    first = counts()
    call_command("load_teams", "--dir", str(tmp_path))
    assert counts() == first
    assert first[0] == len(SAMPLE)
    teams = [team_card(t) for t in teams_for_play()]
    # Each team plays the next one, at home and away: every card is exercised by the engine.
    for home, away in zip(teams, [*teams[1:], teams[0]], strict=True):
        for a, b in ((home, away), (away, home)):
            result = play_game(a, b, SeededDice(1))
            assert result.home.score != result.away.score


def test_a_file_that_names_no_conference_keeps_the_team_s_own() -> None:
    """A review: a file from calculate_cards without --teams, imported over a loaded team,
    blanked its conference (SEC -> nothing). The key is optional: no key, no change; a
    file that names one (even "") still sets it."""
    from cards.services import team_import

    document = json.loads(KENTUCKY.read_text(encoding="utf-8"))
    team_import(name="kentucky-2012.json", content=json.dumps(document))
    assert Team.objects.get(school="Kentucky", season=2012).conference == "SEC"
    del document["conference"]
    team_import(name="no-conference.json", content=json.dumps(document))
    assert Team.objects.get(school="Kentucky", season=2012).conference == "SEC"
    document["conference"] = "Big East"
    team_import(name="moved.json", content=json.dumps(document))
    assert Team.objects.get(school="Kentucky", season=2012).conference == "Big East"


@pytest.mark.django_db
def test_a_re_import_says_who_it_removed_and_added_and_what_a_removed_player_had_played(
    django_capture_on_commit_callbacks,
) -> None:
    # A name changed in the file is another player: the one who played is removed and his
    # lines linked to no player. The import said only "updated".
    from league import services as league_services
    from league.models import BoxLine
    from tests.league.api import play_all

    team = team_import(name="kentucky.json", content=KENTUCKY.read_bytes()).team
    other = team_import(name="kansas.json", content=KANSAS.read_bytes()).team
    season = league_services.season_create(
        league=league_services.league_get_or_create(name="Rename League"),
        name="Twice", teams=[team, other], double_round_robin=True, seed=5,
    )  # fmt: skip
    play_all(season, django_capture_on_commit_callbacks)
    doc = document()
    old = doc["players"][0]["name"]
    doc["players"][0]["name"] = "Renamed In The File"
    played = BoxLine.objects.filter(player__team=team, name=old).count()
    assert played == 2
    outcome = team_import(name="kentucky.json", content=json.dumps(doc))
    assert outcome.verb == "updated"
    assert outcome.describe() == (
        f"{team}: updated; removed {old}, after 2 games played: his lines keep his name, "
        "linked to no player (rename him in the admin to keep them his); added Renamed In The File"
    )
    assert BoxLine.objects.filter(name=old, player=None).count() == played
    out = io.StringIO()  # the command says it too, the file back as it was
    call_command("import_team", str(KENTUCKY), stdout=out)
    assert f"removed Renamed In The File; added {old}" in out.getvalue()


@pytest.mark.django_db
def test_texts_too_long_are_refused_with_every_other_problem_naming_file_and_field() -> None:
    # Checked only after every other check, the first of them alone, naming neither file
    # nor field: "YYYY...(300)... 1999: Ensure this value has at most 80 characters".
    long = document()
    long["school"] = "Y" * 300
    long["conference"] = "C" * 100
    long["players"][0]["height"] = "6-" + "1" * 28
    broken = document(KANSAS)
    del broken["players"][0]["name"]
    with pytest.raises(TeamFileError) as refused:
        teams_import(files=[("long.json", json.dumps(long)), ("broken.json", json.dumps(broken))])
    problems = refused.value.problems
    first = long["players"][0]["name"]
    assert "long.json: school: at most 80 characters, got 300" in problems
    assert "long.json: conference: at most 80 characters, got 100" in problems
    assert f"long.json: {first}: height: at most 10 characters, got 30" in problems
    assert any(p.startswith("broken.json: ") for p in problems)
    assert counts() == (0, 0, 0)  # nothing written
    twins = document()
    twins["players"][1]["name"] = twins["players"][0]["name"].upper()
    with pytest.raises(TeamFileError) as refused:
        team_import(name="twins.json", content=json.dumps(twins))
    first = twins["players"][0]["name"]
    assert list(refused.value.problems) == [
        f"twins.json: {first} and {first.upper()} differ only in capitals: a box score would "
        "read them as one player"
    ]
