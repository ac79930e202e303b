"""Upload limits: team files, notes and zips, on every path that takes them (the admin's
import page, the API's import, ``manage.py import_team``), each refusal naming the file, the
size found and the limit, and nothing written when one is refused.

The zip bombs prove that nothing is inflated past a limit: the reads of every inflated entry
are counted, and a bomb the directory announces is refused before any entry is opened.
"""

from __future__ import annotations

import html
import io
import json
import re
import struct
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command, execute_from_command_line
from django.test import Client
from django.urls import reverse

from cards import uploads
from cards.models import Card, Player, Team
from cards.services import uploads_import
from cards.uploads import TeamFileError, uploads_read
from core.text import size_text
from tests.factories import commissioner
from tests.league.api import client_for, throttle_reset

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
KENTUCKY = FIXTURES / "kentucky-2012.json"
KANSAS = FIXTURES / "kansas-2008.json"
IMPORT_URL = reverse("admin:cards_team_import")
API_IMPORT = "/api/teams/import/"
KB, MB = 1024, 1024 * 1024
FILE_LIMIT = 256 * KB


# --- helpers ------------------------------------------------------------------------------


def counts() -> tuple[int, int, int, int]:
    """Rows and history rows: a refused upload leaves every one as it was."""
    return (
        Team.objects.count(),
        Player.objects.count(),
        Card.objects.count(),
        Team.history.count() + Player.history.count() + Card.history.count(),
    )


def document(path: Path = KENTUCKY) -> dict[str, Any]:
    return json.loads(path.read_text())


def padded(size: int, path: Path = KENTUCKY) -> bytes:
    """A valid team file made exactly ``size`` bytes long by trailing spaces."""
    content = path.read_bytes().rstrip()
    assert len(content) < size
    return content + b" " * (size - len(content))


def with_notes(chars: int, *, player: int | None = None) -> bytes:
    """Kentucky's file with ``chars`` characters of notes on the team (or on one player)."""
    doc = document()
    target = doc if player is None else doc["players"][player]
    target["notes"] = "n" * chars
    return json.dumps(doc).encode()


def zip_of(entries: dict[str, bytes], **kwargs: Any) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, **kwargs) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def bomb(size: int, name: str = "bomb.json") -> bytes:
    """A zip whose one entry inflates to ``size`` bytes of spaces: a few KB per 10 MB."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open(name, "w", force_zip64=True) as entry,
    ):
        for _ in range(size // MB):
            entry.write(b" " * MB)
    return buffer.getvalue()


def lying_bomb(size: int, declared: int, name: str = "small.json") -> bytes:
    """A zip bomb whose directory (and local header) declare ``declared`` bytes for an entry
    that really inflates to ``size``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(name, b" " * size)
    data = bytearray(buffer.getvalue())
    local = data.index(b"PK\x03\x04")
    struct.pack_into("<L", data, local + 22, declared)
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<L", data, central + 24, declared)
    return bytes(data)


class InflateMeter:
    """Count the bytes every zip entry hands out while inflating."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bytes = 0
        self.opened = 0
        read = zipfile.ZipExtFile.read
        open_ = zipfile.ZipFile.open

        def counting_read(entry: zipfile.ZipExtFile, n: int = -1) -> bytes:
            data = read(entry, n)
            self.bytes += len(data)
            return data

        def counting_open(archive: zipfile.ZipFile, *args: Any, **kwargs: Any) -> Any:
            if kwargs.get("mode", args[1] if len(args) > 1 else "r") == "r":
                self.opened += 1
            return open_(archive, *args, **kwargs)

        monkeypatch.setattr(zipfile.ZipExtFile, "read", counting_read)
        monkeypatch.setattr(zipfile.ZipFile, "open", counting_open)


@pytest.fixture
def meter(monkeypatch: pytest.MonkeyPatch) -> InflateMeter:
    return InflateMeter(monkeypatch)


def read(*items: tuple[str, bytes]) -> list[tuple[str, bytes]]:
    return uploads_read([(name, io.BytesIO(content)) for name, content in items])


def refusal(*items: tuple[str, bytes]) -> list[str]:
    with pytest.raises(TeamFileError) as excinfo:
        read(*items)
    return list(excinfo.value.problems)


# --- the reader every path shares -----------------------------------------------------------


def test_a_team_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() -> None:
    assert read(("k.json", padded(FILE_LIMIT))) == [("k.json", padded(FILE_LIMIT))]
    assert refusal(("k.json", padded(FILE_LIMIT + 1))) == [
        "k.json: 262,145 bytes (256 KB); a team file is at most 262,144 bytes (256 KB)"
    ]


def test_a_stream_that_hides_its_size_is_read_only_one_byte_past_the_limit() -> None:
    class Endless(io.RawIOBase):
        """Claims to be empty (seeking to its end gives 0) but never runs dry."""

        handed_out = 0

        def readable(self) -> bool:
            return True

        def seekable(self) -> bool:
            return True

        def seek(self, offset: int, whence: int = 0) -> int:
            return 0

        def tell(self) -> int:
            return 0

        def read(self, n: int = -1) -> bytes:
            n = 1024 if n < 0 else n
            Endless.handed_out += n
            return b"{" * n

    with pytest.raises(TeamFileError) as excinfo:
        uploads_read([("endless.json", Endless())])
    assert excinfo.value.problems == (
        "endless.json: more than 262,144 bytes (256 KB) (reading stopped there); "
        "a team file is at most 262,144 bytes (256 KB)",
    )
    assert Endless.handed_out <= FILE_LIMIT + 4 + 1  # the 4 bytes that look for a zip


def test_a_zip_bomb_its_directory_announces_is_refused_before_any_entry_is_inflated(
    meter: InflateMeter,
) -> None:
    payload = bomb(100 * MB)
    assert len(payload) < 200 * KB
    tracemalloc.start()
    try:
        problems = refusal(("bomb.zip", payload))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert problems == [
        "bomb.zip: inflates to 104,857,600 bytes (100 MB) by its directory, more than the "
        "limit of 26,214,400 bytes (25 MB)",
        "bomb.zip/bomb.json: 104,857,600 bytes (100 MB); a team file is at most 262,144 bytes "
        "(256 KB) (as the zip's directory declares it)",
    ]
    assert (meter.opened, meter.bytes) == (0, 0)
    assert peak < 5 * MB


def test_a_zip_bomb_whose_directory_lies_is_inflated_no_further_than_the_limit(
    meter: InflateMeter,
) -> None:
    payload = lying_bomb(50 * MB, declared=1_000)
    assert zipfile.ZipFile(io.BytesIO(payload)).getinfo("small.json").file_size == 1_000
    problems = refusal(("liar.zip", payload))
    assert len(problems) == 1
    assert problems[0].startswith("liar.zip/small.json: cannot be inflated")
    assert meter.opened == 1
    assert meter.bytes <= FILE_LIMIT + 1


def test_an_entry_that_keeps_inflating_is_cut_off_one_byte_past_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever the zip library trusts, the reader itself stops: an entry that never ends."""
    handed_out = 0

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            nonlocal handed_out
            assert 0 < n <= uploads.CHUNK, "the reader asks for bounded chunks"
            handed_out += n
            return b" " * n

    payload = zip_of({"kentucky.json": KENTUCKY.read_bytes()})
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda *args, **kwargs: Endless())
    problems = refusal(("teams.zip", payload))
    assert problems == [
        "teams.zip/kentucky.json: inflates to more than 262,144 bytes (256 KB) (reading stopped "
        "there); a team file is at most 262,144 bytes (256 KB), though the zip's directory "
        f"declared {size_text(len(KENTUCKY.read_bytes()))}"
    ]
    assert handed_out == FILE_LIMIT + 1


def test_a_zip_of_300_files_is_read_and_of_301_is_refused_from_its_directory(
    settings: Any, meter: InflateMeter
) -> None:
    # 300 by default: the admin's export of the 96 field and the teams added since (a
    # limit of 96 refused the export of a 97th team) imports again.
    small = {f"t{i}.txt": b"" for i in range(299)} | {"k.json": KENTUCKY.read_bytes()}
    assert [name for name, _ in read(("ok.zip", zip_of(small)))] == ["ok.zip/k.json"]
    small["t300.txt"] = b""
    assert refusal(("many.zip", zip_of(small))) == [
        "many.zip: 301 files, more than the limit of 300 files in a zip"
    ]
    settings.TEAM_ZIP_MAX_ENTRIES = 2
    entries = {"a/": b"", "a/k.json": KENTUCKY.read_bytes(), "a/b.json": KANSAS.read_bytes()}
    assert [name for name, _ in read(("two.zip", zip_of(entries)))] == [
        "two.zip/a/k.json",
        "two.zip/a/b.json",
    ], "folders are neither read nor counted"
    entries["a/c.json"] = b"{}"
    before = meter.opened
    assert refusal(("three.zip", zip_of(entries))) == [
        "three.zip: 3 files, more than the limit of 2 files in a zip"
    ]
    assert meter.opened == before, "refused before any entry is inflated"


def test_a_directory_of_thousands_of_entries_is_refused_from_the_end_record_unparsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    payload = zip_of({f"{i}.txt": b"" for i in range(5_000)})

    def unparsed(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the zip's directory was parsed")

    monkeypatch.setattr(zipfile, "ZipFile", unparsed)
    assert refusal(("wide.zip", payload)) == [
        "wide.zip: its directory lists 5,000 entries; a zip holds at most 300 files (with "
        "their folders, 600 entries)"
    ]


def test_a_zip_over_the_uncompressed_limit_is_refused_by_its_declared_sizes(
    settings: Any,
) -> None:
    settings.TEAM_ZIP_MAX_BYTES = 8 * KB
    entries = {"k.json": KENTUCKY.read_bytes(), "b.json": KANSAS.read_bytes()}
    declared = sum(len(content) for content in entries.values())
    assert declared > 8 * KB
    assert refusal(("teams.zip", zip_of(entries))) == [
        f"teams.zip: inflates to {declared:,} bytes ({declared / KB:.4g} KB) by its directory, "
        "more than the limit of 8,192 bytes (8 KB)"
    ]


def test_the_files_of_one_import_together_are_bounded_too(settings: Any) -> None:
    kansas, kentucky = KANSAS.read_bytes(), KENTUCKY.read_bytes()
    settings.TEAM_ZIP_MAX_BYTES = limit = max(len(kansas), len(kentucky)) + 100
    problems = refusal(("b.json", kansas), ("teams.zip", zip_of({"k.json": kentucky})))
    assert problems == [
        f"teams.zip/k.json: the files of this import come to more than {size_text(limit)} "
        "in all, the limit; reading stopped there"
    ]


@pytest.mark.parametrize(
    "name",
    ["../kentucky.json", "teams/../../etc/kentucky.json", "/etc/kentucky.json",
     "C:/teams/kentucky.json", "..\\kentucky.json"],
)  # fmt: skip
def test_a_zip_with_a_path_out_of_it_is_refused_whole(name: str, meter: InflateMeter) -> None:
    payload = zip_of({"kansas.json": KANSAS.read_bytes(), name: KENTUCKY.read_bytes()})
    label = zipfile.ZipFile(io.BytesIO(payload)).namelist()[1]
    assert refusal(("evil.zip", payload)) == [
        f"evil.zip/{label}: the name is a path out of the zip (absolute or with ..); such a "
        "zip is refused"
    ]
    assert meter.opened == 0


def test_only_json_entries_are_read_and_mac_shadows_are_skipped() -> None:
    payload = zip_of(
        {
            "teams/kentucky.json": KENTUCKY.read_bytes(),
            "teams/README.txt": b"not a team",
            "__MACOSX/teams/._kentucky.json": b"\x00\x05\x16\x07",
        }
    )
    assert read(("t.zip", payload)) == [("t.zip/teams/kentucky.json", KENTUCKY.read_bytes())]


def test_an_encrypted_entry_is_refused_not_asked_for_a_password() -> None:
    data = bytearray(zip_of({"secret.json": b"scrambled"}))
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + flags_at
        struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 0x1)
    assert zipfile.ZipFile(io.BytesIO(data)).getinfo("secret.json").flag_bits & 0x1
    assert refusal(("locked.zip", bytes(data))) == [
        "locked.zip/secret.json: encrypted; team files are read unencrypted"
    ]


def test_a_zip_named_otherwise_is_still_read_as_a_zip() -> None:
    payload = zip_of({"kentucky.json": KENTUCKY.read_bytes()})
    assert read(("upload", payload)) == [("upload/kentucky.json", KENTUCKY.read_bytes())]


def test_every_problem_of_every_upload_is_listed_at_once() -> None:
    problems = refusal(
        ("big.json", padded(FILE_LIMIT + 10)),
        ("broken.zip", b"PK\x03\x04 and then nothing"),
        ("evil.zip", zip_of({"../x.json": b"{}"})),
    )
    assert [p.split(":")[0] for p in problems] == ["big.json", "broken.zip", "evil.zip/../x.json"]


# --- notes ---------------------------------------------------------------------------------


def test_notes_of_the_limit_import_and_one_character_more_is_refused_naming_them() -> None:
    assert call_import("k.json", with_notes(4_000))[0].created
    before = counts()
    from_team = _import_problems("k.json", with_notes(4_001))
    assert from_team == [
        "k.json: notes: the notes are 4,001 characters, more than the limit of 4,000"
    ]
    from_player = _import_problems("k.json", with_notes(50_000, player=2))
    assert len(from_player) == 1
    assert re.fullmatch(
        r"k\.json: player 2 \(.+\): notes: the notes are 50,000 characters, more than the "
        r"limit of 4,000",
        from_player[0],
    )
    assert counts() == before


def _import_problems(name: str, content: bytes) -> list[str]:
    with pytest.raises(TeamFileError) as excinfo:
        call_import(name, content)
    return list(excinfo.value.problems)


def call_import(name: str, content: bytes) -> Any:
    return uploads_import(uploads=[(name, io.BytesIO(content))])


def test_the_notes_limit_is_a_setting(settings: Any) -> None:
    settings.TEAM_NOTES_MAX_CHARS = 10
    assert _import_problems("k.json", with_notes(11)) == [
        "k.json: notes: the notes are 11 characters, more than the limit of 10"
    ]


def test_the_models_refuse_long_notes_on_every_save_path() -> None:
    team = call_import("k.json", with_notes(4_000))[0].team
    team.notes = "n" * 4_001
    with pytest.raises(ValidationError) as excinfo:
        team.full_clean()
    assert excinfo.value.message_dict["notes"] == [
        "The notes are 4,001 characters, more than the limit of 4,000."
    ]
    player = team.players.first()
    player.extra = {**player.extra, "notes": "n" * 4_001}
    with pytest.raises(ValidationError) as excinfo:
        player.full_clean()
    assert excinfo.value.message_dict["extra"] == [
        "The notes are 4,001 characters, more than the limit of 4,000."
    ]


# --- the admin's import page -----------------------------------------------------------------


@pytest.fixture
def commish(client: Client) -> Client:
    client.force_login(commissioner())
    return client


def admin_problems(response: Any) -> list[str]:
    match = re.search(
        r'<ul class="errorlist" id="import-problems">(.*?)</ul>',
        response.content.decode(),
        flags=re.S,
    )
    assert match, "the import page lists no problems"
    return [html.unescape(p) for p in re.findall(r"<li>(.*?)</li>", match.group(1))]


def admin_post(client: Client, *files: tuple[str, bytes]) -> Any:
    uploads_ = [SimpleUploadedFile(name, content) for name, content in files]
    return client.post(IMPORT_URL, {"files": uploads_})


def test_the_admin_refuses_a_team_file_over_the_limit_and_writes_nothing(
    commish: Client,
) -> None:
    response = admin_post(
        commish, ("kansas.json", KANSAS.read_bytes()), ("k.json", padded(300_000))
    )
    assert response.status_code == 200
    assert admin_problems(response) == [
        "k.json: 300,000 bytes (293 KB); a team file is at most 262,144 bytes (256 KB)"
    ]
    assert counts() == (0, 0, 0, 0)
    # The file over the limit does not hide another file's problem (it did: only the size
    # was listed, and the broken file's JSON came up on the next try)
    response = admin_post(commish, ("k.json", padded(300_000)), ("broken.json", b"{"))
    problems = admin_problems(response)
    assert [p.split(":")[0] for p in problems] == ["k.json", "broken.json"], problems
    assert counts() == (0, 0, 0, 0)
    response = admin_post(commish, ("k.json", padded(FILE_LIMIT)))
    assert response.status_code == 302
    assert Team.objects.count() == 1


def test_the_admin_refuses_long_notes_and_writes_nothing(commish: Client) -> None:
    response = admin_post(commish, ("k.json", with_notes(4_001)))
    assert admin_problems(response) == [
        "k.json: notes: the notes are 4,001 characters, more than the limit of 4,000"
    ]
    assert counts() == (0, 0, 0, 0)


def test_the_admin_refuses_a_zip_bomb_unopened_and_writes_nothing(
    commish: Client, meter: InflateMeter
) -> None:
    response = admin_post(commish, ("teams.zip", bomb(30 * MB, name="teams/k.json")))
    problems = admin_problems(response)
    assert problems[0] == (
        "teams.zip: inflates to 31,457,280 bytes (30 MB) by its directory, more than the limit "
        "of 26,214,400 bytes (25 MB)"
    )
    assert problems[1].startswith("teams.zip/teams/k.json: 31,457,280 bytes (30 MB);")
    assert (meter.opened, meter.bytes) == (0, 0)
    assert counts() == (0, 0, 0, 0)


def test_the_admin_refuses_a_zip_of_too_many_files_or_a_path_out_of_it(
    commish: Client, settings: Any
) -> None:
    settings.TEAM_ZIP_MAX_ENTRIES = 1
    two = zip_of({"k.json": KENTUCKY.read_bytes(), "b.json": KANSAS.read_bytes()})
    assert admin_problems(admin_post(commish, ("two.zip", two))) == [
        "two.zip: 2 files, more than the limit of 1 files in a zip"
    ]
    evil = zip_of({"../../k.json": KENTUCKY.read_bytes()})
    assert admin_problems(admin_post(commish, ("evil.zip", evil))) == [
        "evil.zip/../../k.json: the name is a path out of the zip (absolute or with ..); such "
        "a zip is refused"
    ]
    assert counts() == (0, 0, 0, 0)


def test_the_admin_explains_a_request_django_will_not_read(commish: Client, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    files = [(f"{i}.json", KENTUCKY.read_bytes()) for i in range(3)]
    response = admin_post(commish, *files)
    assert response.status_code == 200
    assert admin_problems(response) == ["More than 2 files were sent at once; put them in a zip."]
    assert counts() == (0, 0, 0, 0)


# --- the API ---------------------------------------------------------------------------------


@pytest.fixture
def api() -> Any:
    throttle_reset()
    return client_for(commissioner())


def api_post(client: Any, body: bytes, url: str = API_IMPORT) -> Any:
    return client.post(url, data=body, content_type="application/json")


def test_the_api_refuses_a_team_file_over_the_limit_with_413_in_json(api: Any) -> None:
    response = api_post(api, padded(FILE_LIMIT + 1))
    assert response.status_code == 413
    assert response.json() == {
        "detail": "The team file is refused: 1 problem; nothing was written.",
        "problems": [
            "team file: 262,145 bytes (256 KB); a team file is at most 262,144 bytes (256 KB)"
        ],
    }
    assert counts() == (0, 0, 0, 0)
    assert api_post(api, padded(FILE_LIMIT)).status_code == 201


def test_the_api_answers_a_body_over_djangos_limit_in_json_like_every_error(
    api: Any, settings: Any
) -> None:
    body = json.dumps({"name": "x" * 3 * MB}).encode()
    settings.TEAM_FILE_MAX_BYTES = 10 * MB  # past the team file's own limit, Django's holds
    for url in (API_IMPORT, "/api/leagues/"):
        response = api_post(api, body, url)
        assert response.status_code == 413, url
        assert response["Content-Type"] == "application/json"
        assert response.json() == {
            "detail": f"The request body is {len(body):,} bytes (3 MB), more than the limit of "
            "2,621,440 bytes (2.5 MB); nothing was read."
        }
    assert counts() == (0, 0, 0, 0)


def test_the_api_refuses_long_notes_and_writes_nothing(api: Any) -> None:
    response = api_post(api, with_notes(50_000))
    assert response.status_code == 400
    assert response.json()["problems"] == [
        "team file: notes: the notes are 50,000 characters, more than the limit of 4,000"
    ]
    assert counts() == (0, 0, 0, 0)


def test_anonymous_searches_never_carry_more_notes_than_the_limit(api: Any) -> None:
    assert api_post(api, with_notes(4_000)).status_code == 201
    assert api_post(api, with_notes(4_001)).status_code == 400
    throttle_reset()
    body = client_for().get("/api/teams/?search=Kentucky").json()
    assert [len(team["notes"]) for team in body["results"]] == [4_000]


# --- manage.py import_team --------------------------------------------------------------------


def write(tmp_path: Path, name: str, content: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content)
    return str(path)


def command_problems(*paths: str) -> str:
    with pytest.raises(CommandError) as excinfo:
        call_command("import_team", *paths)
    return str(excinfo.value)


def test_import_team_takes_a_zip_as_the_readme_says(tmp_path: Path) -> None:
    payload = zip_of({"teams/": b"", "teams/k.json": KENTUCKY.read_bytes(),
                      "teams/b.json": KANSAS.read_bytes()})  # fmt: skip
    out = io.StringIO()
    call_command("import_team", write(tmp_path, "teams.zip", payload), stdout=out)
    assert out.getvalue().splitlines() == ["Kentucky 2012: created", "Kansas 2008: created"]


def test_import_team_refuses_a_file_over_the_limit_and_writes_nothing(tmp_path: Path) -> None:
    big = write(tmp_path, "k.json", padded(FILE_LIMIT + 1))
    message = command_problems(str(KANSAS), big)
    assert "Nothing was imported; 1 problem(s)" in message
    assert f"{big}: 262,145 bytes (256 KB); a team file is at most 262,144 bytes" in message
    assert counts() == (0, 0, 0, 0)


def test_import_team_refuses_long_notes_and_writes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "k.json", with_notes(4_001, player=0))
    assert "notes: the notes are 4,001 characters, more than the limit of 4,000" in (
        command_problems(path)
    )
    assert counts() == (0, 0, 0, 0)


def test_import_team_refuses_a_zip_bomb_unopened(tmp_path: Path, meter: InflateMeter) -> None:
    path = write(tmp_path, "bomb.zip", bomb(30 * MB))
    message = command_problems(path)
    assert "bomb.zip: inflates to 31,457,280 bytes (30 MB) by its directory" in message
    assert (meter.opened, meter.bytes) == (0, 0)
    assert counts() == (0, 0, 0, 0)


def test_import_team_refuses_a_zip_of_too_many_files_or_an_unsafe_name(
    tmp_path: Path, settings: Any
) -> None:
    settings.TEAM_ZIP_MAX_ENTRIES = 1
    two = write(tmp_path, "two.zip", zip_of({"k.json": KENTUCKY.read_bytes(), "x.txt": b""}))
    assert "two.zip: 2 files, more than the limit of 1 files in a zip" in command_problems(two)
    evil = write(tmp_path, "evil.zip", zip_of({"/etc/k.json": KENTUCKY.read_bytes()}))
    assert "evil.zip//etc/k.json: the name is a path out of the zip" in command_problems(evil)
    assert counts() == (0, 0, 0, 0)


def test_import_team_reads_an_endless_device_only_to_the_limit() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    assert (
        "/dev/zero: more than 262,144 bytes (256 KB) (reading stopped there)"
        in command_problems("/dev/zero")
    )


# --- what a team file is, read the same on every path -----------------------------------------


def latin1() -> bytes:
    """Kentucky's file saved in Latin-1, as an old Windows editor would: "Muñoz" is 0xF1."""
    doc = document()
    doc["players"][0]["name"] = "Marquis Muñoz"
    return json.dumps(doc, ensure_ascii=False).encode("latin-1")


def d20_missing() -> bytes:
    doc = document()
    del doc["players"][0]["d20"]
    return json.dumps(doc).encode()


@pytest.fixture
def paths(api: Any, client: Client) -> tuple[Client, Any]:
    """The admin's client and the API's, both one commissioner's (signed in after the API's
    client is made: making the account again resets its password, so its sessions)."""
    client.force_login(commissioner())
    return client, api


# Files the three paths refuse, each with its one problem after the file's name.
UNREADABLE = {
    "latin-1": (latin1, "not UTF-8 text (invalid continuation byte)"),
    "utf-16": (
        lambda: KENTUCKY.read_text().encode("utf-16"),
        "not UTF-8 text (UTF-16, by its byte order mark; save it as UTF-8)",
    ),
    "nested": (lambda: b"[" * 100_000, "not valid JSON (nested too deeply)"),
    # Python reads no integer of more digits: it raised a bare ValueError, a server error.
    "huge number": (
        lambda: b'{"format": "vabg-team/1", "season": ' + b"9" * 5000 + b"}",
        "not valid JSON (a number of more than 4,300 digits)",
    ),
    "not json": (
        lambda: b"school: Kentucky\n",
        "not valid JSON (line 1, column 1: Expecting value)",
    ),
    # The engine's reader (simulator/vabg/cards.py) words this one.
    "no d20": (
        d20_missing,
        "player 1 (Marquis Teague): d20 must be an object with 3PM, 2PM, FOUL, 3PX, 2PX, got null",
    ),
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_a_file_that_is_not_a_team_file_is_refused_alike_by_the_admin_the_command_and_the_api(
    case: str, paths: tuple[Client, Any], tmp_path: Path
) -> None:
    commish, api = paths
    make, problem = UNREADABLE[case]
    content = make()
    assert admin_problems(admin_post(commish, ("bad.json", content))) == [f"bad.json: {problem}"]
    path = write(tmp_path, "bad.json", content)
    assert command_problems(path) == f"Nothing was imported; 1 problem(s):\n  {path}: {problem}"
    response = api_post(api, content)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "detail": "The team file is refused: 1 problem; nothing was written.",
        "problems": [f"team file: {problem}"],
    }
    assert counts() == (0, 0, 0, 0)


BOM = b"\xef\xbb\xbf"


def test_a_team_file_saved_with_a_byte_order_mark_imports_on_every_path(
    paths: tuple[Client, Any], tmp_path: Path
) -> None:
    commish, api = paths
    # Windows editors (Notepad's "UTF-8 with BOM") start the file with EF BB BF.
    kentucky, kansas = BOM + KENTUCKY.read_bytes(), BOM + KANSAS.read_bytes()
    response = admin_post(commish, ("kentucky.json", kentucky))
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Kentucky 2012: created"]
    assert Team.objects.get().players.count() == len(document()["players"])
    out = io.StringIO()
    call_command("import_team", write(tmp_path, "kansas.json", kansas), stdout=out)
    assert out.getvalue() == "Kansas 2008: created\n"
    response = api_post(api, kentucky)
    assert response.status_code == 200
    assert response.json()["detail"] == "Kentucky 2012: unchanged."
    zipped = zip_of({"k.json": kentucky, "b.json": kansas})
    assert [o.describe() for o in call_import("t.zip", zipped)] == [
        "Kentucky 2012: unchanged",
        "Kansas 2008: unchanged",
    ]


def test_a_misplaced_byte_order_mark_is_still_refused_where_it_is() -> None:
    content = KENTUCKY.read_bytes().replace(b'"school"', BOM + b'"school"', 1)
    [problem] = _import_problems("k.json", content)
    assert problem.startswith("k.json: not valid JSON (line ")


@pytest.mark.parametrize(
    ("entries", "holds"),
    [
        ({}, "it holds no files"),
        ({"teams/": b""}, "it holds no files"),
        (
            {"teams/": b"", "teams/kentucky.txt": b"{}"},
            "only .json files are read, and it holds teams/kentucky.txt",
        ),
        (
            {f"k{i}.json.bak": b"" for i in range(5)},
            "only .json files are read, and it holds k0.json.bak, k1.json.bak, k2.json.bak "
            "and 2 more",
        ),
        (
            {"__MACOSX/._kentucky.json": b"\x00\x05\x16\x07"},
            "only .json files are read, and it holds __MACOSX/._kentucky.json",
        ),
    ],
)
def test_a_zip_with_no_team_file_is_refused_saying_what_it_holds(
    entries: dict[str, bytes], holds: str
) -> None:
    assert refusal(("empty.zip", zip_of(entries))) == [f"no team files found in empty.zip: {holds}"]


def test_an_empty_zip_is_refused_by_the_admin_and_the_command_with_anything_beside_it(
    commish: Client, tmp_path: Path
) -> None:
    empty = zip_of({})
    problem = "no team files found in empty.zip: it holds no files"
    response = admin_post(commish, ("kansas.json", KANSAS.read_bytes()), ("empty.zip", empty))
    assert response.status_code == 200
    assert admin_problems(response) == [problem]
    path = write(tmp_path, "empty.zip", empty)
    message = command_problems(str(KANSAS), path)
    assert message == f"Nothing was imported; 1 problem(s):\n  no team files found in {path}: " + (
        "it holds no files"
    )
    assert counts() == (0, 0, 0, 0)


def test_import_team_exits_non_zero_on_an_empty_zip_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "empty.zip", zip_of({}))
    with pytest.raises(SystemExit) as excinfo:
        execute_from_command_line(["manage.py", "import_team", path])
    assert excinfo.value.code == 1
    assert f"no team files found in {path}: it holds no files" in capsys.readouterr().err


def test_the_api_takes_one_team_file_as_json_and_says_so_to_anything_else(api: Any) -> None:
    zipped = zip_of({"k.json": KENTUCKY.read_bytes()})
    takes = (
        "the body is one team file (vabg-team/1 JSON) sent as it is with Content-Type: "
        "application/json. Zips and forms are not taken here: import them on the admin's "
        '"Import team files" page or with manage.py import_team.'
    )
    response = api.post(API_IMPORT, data=zipped, content_type="application/zip")
    assert response.status_code == 415
    assert response.json() == {"detail": f'Unsupported media type "application/zip": {takes}'}
    form = {"file": SimpleUploadedFile("k.json", KENTUCKY.read_bytes())}
    response = api.post(API_IMPORT, data=form, format="multipart")
    assert response.status_code == 415
    assert response.json() == {"detail": f'Unsupported media type "multipart/form-data": {takes}'}
    # A zip sent as JSON is not read as one: the API imports one team at a time.
    response = api_post(api, zipped)
    assert response.status_code == 400
    assert response.json()["problems"] == [
        "team file: a zip, not a team file: this takes one team file (JSON); import zips on "
        'the admin\'s "Import team files" page or with manage.py import_team'
    ]
    response = api_post(api, b"")
    assert response.status_code == 400
    assert response.json()["problems"] == ["team file: empty; a team file is a JSON object"]
    assert counts() == (0, 0, 0, 0)
