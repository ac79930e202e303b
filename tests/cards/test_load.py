"""``manage.py load_teams``: every fixture team loaded once, exactly, and playable.

These tests load a sample of the fixture files (the rulebook's three teams and two of the
field's) so they stay fast; tests/cards/test_field.py loads the whole 96-team field.
"""

from __future__ import annotations

import itertools
import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.mapping import team_card, teams_for_play
from cards.models import Card, Player, Team
from league.models import BoxLine, Game
from league.services import exhibition_play
from simulator import SeededDice
from simulator.vabg import TeamCard, play_game

pytestmark = [pytest.mark.django_db, pytest.mark.first_run]

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
FILES = sorted(
    FIXTURES / name
    for name in (
        "kansas-2008.json",
        "kentucky-2012.json",
        "san-diego-state-2011.json",
        "ucla-1972.json",
        "north-carolina-1982.json",
    )
)
SAMPLE_DIR: Path | None = None


@pytest.fixture(autouse=True, scope="module")
def sample_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Copy the sample files where ``load()`` reads them by default."""
    global SAMPLE_DIR
    SAMPLE_DIR = tmp_path_factory.mktemp("sample-teams")
    for path in FILES:
        shutil.copy(path, SAMPLE_DIR / path.name)


def documents() -> dict[tuple[str, int], dict]:
    out = {}
    for path in FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        out[(doc["school"], doc["season"])] = doc
    return out


def load(*args: str) -> str:
    out = StringIO()
    if "--dir" not in args:
        args = (*args, "--dir", str(SAMPLE_DIR))
    call_command("load_teams", *args, stdout=out)
    return out.getvalue().strip()


def rows() -> dict[str, list[tuple]]:
    """Return every stored row the load writes, with its id: what "nothing changed" compares."""
    return {
        "teams": sorted(Team.objects.values_list("pk", "school", "season", "updated_at")),
        "players": sorted(Player.objects.values_list("pk", "team_id", "name", "order")),
        "cards": sorted(Card.objects.values_list("pk", "player_id", "slot", "role")),
        "history": [
            Team.history.count(),
            Player.history.count(),
            Card.history.count(),
        ],
    }


def test_there_are_fixture_files_to_load() -> None:
    assert len(FILES) >= 3
    assert len(documents()) == len(FILES)  # one team per file


def test_load_teams_loads_every_fixture_file_exactly() -> None:
    output = load()
    assert output == f"{len(FILES)} teams: {len(FILES)} created, 0 updated, 0 unchanged"
    docs = documents()
    teams = {(t.school, t.season): t for t in teams_for_play()}
    assert set(teams) == set(docs)
    for key, doc in docs.items():
        team = teams[key]
        assert team.players.count() == len(doc["players"])
        assert Card.objects.filter(team=team).count() == len(doc["players"])
        # The team exports back to its fixture file, key for key.
        assert team_card(team).to_json() == doc
        assert team.roster_problems() == []


def test_running_load_teams_again_changes_nothing() -> None:
    load()
    first = rows()
    output = load()
    assert rows() == first
    assert output == (
        f"{len(FILES)} teams: 0 created, 0 updated, 0 unchanged, "
        f"{len(FILES)} already here and kept as they are (--update reloads them)"
    )
    # No player twice: each roster holds each file's names once.
    for (school, season), doc in documents().items():
        names = list(
            Player.objects.filter(team__school=school, team__season=season).values_list(
                "name", flat=True
            )
        )
        assert sorted(names) == sorted(p["name"] for p in doc["players"])


def test_load_teams_update_of_unchanged_files_changes_nothing() -> None:
    load()
    first = rows()
    output = load("--update")
    assert rows() == first
    assert output == f"{len(FILES)} teams: 0 created, 0 updated, {len(FILES)} unchanged"


def test_load_teams_keeps_a_commissioners_edit_and_update_restores_the_file() -> None:
    load()
    davis = Card.objects.get(player__name="Anthony Davis")
    printed = davis.block_top
    davis.block_top = printed + 1
    davis.save()
    load()
    davis.refresh_from_db()
    assert davis.block_top == printed + 1
    output = load("--update")
    assert "1 updated" in output
    davis.refresh_from_db()
    assert davis.block_top == printed
    assert davis.history.latest().prev_record.block_top == printed + 1


def test_load_teams_update_says_whom_it_removed_and_added_with_their_games(
    tmp_path: Path,
) -> None:
    # An update removes a player the file does not name and unlinks his box lines: it said
    # only "1 updated", the same detail import_team gives is said for each updated team.
    for path in FILES:
        shutil.copy(path, tmp_path / path.name)
    load("--dir", str(tmp_path))
    kentucky = Team.objects.get(school="Kentucky", season=2012)
    kansas = Team.objects.get(school="Kansas", season=2008)
    exhibition_play(home=kentucky, away=kansas, seed=1)
    doc = json.loads((tmp_path / "kentucky-2012.json").read_text(encoding="utf-8"))
    old = doc["players"][0]["name"]
    doc["players"][0]["name"] = "Renamed In The File"
    (tmp_path / "kentucky-2012.json").write_text(json.dumps(doc), encoding="utf-8")
    output = load("--dir", str(tmp_path), "--update")
    assert output.splitlines() == [
        f"{kentucky}: updated; removed {old}, after 1 game played: his lines keep his name, "
        "linked to no player (rename him in the admin to keep them his); added Renamed In The File",
        f"{len(FILES)} teams: 0 created, 1 updated, {len(FILES) - 1} unchanged",
    ]
    assert BoxLine.objects.filter(name=old, player=None).count() == 1


def test_load_teams_adds_a_new_fixture_without_touching_the_loaded_teams(
    tmp_path: Path,
) -> None:
    first, *rest = FILES
    shutil.copy(first, tmp_path / first.name)
    load("--dir", str(tmp_path))
    before = rows()
    for path in rest:
        shutil.copy(path, tmp_path / path.name)
    output = load("--dir", str(tmp_path))
    assert output.startswith(f"{len(FILES)} teams: {len(rest)} created, 0 updated, 0 unchanged")
    after = rows()
    assert set(before["teams"]) <= set(after["teams"])
    assert set(before["cards"]) <= set(after["cards"])
    assert Team.objects.count() == len(FILES)


def test_load_teams_refuses_a_broken_fixture_and_loads_nothing(tmp_path: Path) -> None:
    for path in FILES:
        shutil.copy(path, tmp_path / path.name)
    broken = json.loads(FILES[0].read_text())
    broken["players"][0]["can_play"] = 99
    (tmp_path / FILES[0].name).write_text(json.dumps(broken))
    with pytest.raises(CommandError, match="can_play must be 0 to 66, got 99"):
        load("--dir", str(tmp_path))
    assert (Team.objects.count(), Player.objects.count(), Card.objects.count()) == (0, 0, 0)


def test_load_teams_reports_a_broken_fixture_even_when_its_team_is_loaded(
    tmp_path: Path,
) -> None:
    shutil.copy(FILES[0], tmp_path / FILES[0].name)
    load("--dir", str(tmp_path))
    before = rows()
    broken = json.loads(FILES[0].read_text())
    broken["dunk_top"] = 70
    (tmp_path / FILES[0].name).write_text(json.dumps(broken))
    with pytest.raises(CommandError, match="dunk_top must be 34 to 66, got 70"):
        load("--dir", str(tmp_path))
    assert rows() == before


def test_load_teams_refuses_two_files_of_the_same_team(tmp_path: Path) -> None:
    shutil.copy(FILES[0], tmp_path / "a.json")
    shutil.copy(FILES[0], tmp_path / "b.json")
    with pytest.raises(CommandError, match=r"b\.json: .* is also in .*a\.json"):
        load("--dir", str(tmp_path))
    assert Team.objects.count() == 0


def test_load_teams_names_an_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No team files"):
        load("--dir", str(tmp_path))


def _check_game(home: TeamCard, away: TeamCard, seed: int) -> None:
    result = play_game(home, away, SeededDice(seed))
    assert result.home.score != result.away.score
    for card, box in ((home, result.home), (away, result.away)):
        assert (box.school, box.season) == (card.school, card.season)
        assert box.score == sum(line.pts for line in box.players)
        roster = {p.name for p in card.players}
        played = {line.name for line in box.players}
        assert played <= roster
        starters = {p.name for p in card.players if p.role == "starter"}
        assert starters <= played
    again = play_game(home, away, SeededDice(seed))
    assert again.home == result.home and again.away == result.away


def test_every_loaded_team_plays_every_other_at_home_and_away() -> None:
    load()
    teams = [team_card(t) for t in teams_for_play()]
    assert len(teams) == len(FILES)
    for seed, (home, away) in enumerate(itertools.permutations(teams, 2)):
        _check_game(home, away, seed)


def test_every_loaded_team_plays_a_stored_game_with_its_players_linked() -> None:
    load()
    teams = list(Team.objects.order_by("school", "season"))
    for seed, (home, away) in enumerate(zip(teams, [*teams[1:], teams[0]], strict=True)):
        game = exhibition_play(home=home, away=away, seed=seed)
        assert game.status == Game.Status.FINAL
        lines = BoxLine.objects.filter(result__game=game)
        assert lines.exists()
        # Every line names a player of the side's roster, linked to his row.
        assert not lines.filter(player__isnull=True).exists()
        for line in lines.select_related("player"):
            assert line.player.team_id == line.team_id
            assert line.player.name == line.name
        assert sum(lines.filter(side="home").values_list("pts", flat=True)) == (
            game.result.home_score
        )
    assert Game.objects.count() == len(teams)
