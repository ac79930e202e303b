"""Reading uploaded team files: the one way the admin, the API and ``import_team`` read them.

An upload is a ``vabg-team/1`` JSON file or a zip of them. Nothing an upload says about
itself is trusted:

- a team file is at most ``TEAM_FILE_MAX_BYTES``; it is read in chunks and reading stops
  one byte past the limit, whatever size it claims;
- a zip is checked from its directory before anything is inflated: the records its end
  record counts and the size of its directory (so a directory of millions of entries is
  never parsed), at most ``TEAM_ZIP_MAX_ENTRIES`` files, ``TEAM_ZIP_MAX_BYTES`` inflated in
  all and ``TEAM_FILE_MAX_BYTES`` for each team file, as the directory declares them. Then
  each team file is inflated in chunks and reading stops once it passes its limit (or the
  import's total passes ``TEAM_ZIP_MAX_BYTES``), whatever the directory said;
- an entry's name is only a label in messages: nothing is written to disk, a name that is
  absolute or climbs out with ``..`` refuses the zip, directories are skipped, and only
  ``.json`` entries are read (a Mac's ``__MACOSX/._*`` shadows aside); a zip with none is
  refused ("no team files found in teams.zip"), never imported as nothing;
- where one team file is taken (the API's body), a zip is refused as such.

Every refusal is a :class:`TeamFileError` naming the file (``teams.zip/kentucky.json`` for an
entry), the size found and the limit; every problem of every upload is listed at once.
"""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from django.conf import settings

from core.errors import ProblemsRefused
from core.text import size_text

# Zip files start with a local file header, or (empty) with the end record.
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
# Inflated entries are read this much at a time; reading stops one chunk past a limit at most.
CHUNK = 64 * 1024
# The end of central directory record, the zip64 locator and the zip64 end record.
_END = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
# Directory records allowed per file (a folder entry beside each file), and the bytes one
# record may take in the directory (46 fixed, then the name, extra fields and comment).
RECORDS_PER_FILE = 2
DIRECTORY_BYTES_PER_RECORD = 46 + 1024
_DRIVE = re.compile(r"^[A-Za-z]:")
# Where one team file is taken (the API's import), a zip is refused with this.
ZIP_NOT_TAKEN = (
    "{name}: a zip, not a team file: this takes one team file (JSON); import zips on the "
    'admin\'s "Import team files" page or with manage.py import_team'
)
# The names a zip with no team file lists in its refusal, at most.
OTHERS_SHOWN = 3


class TeamFileError(ProblemsRefused, ValueError):
    """Raise when team files are refused; ``problems`` lists every one, file by file
    (``status`` 413 for an upload over its size limit)."""

    what = "team file"


@dataclass(frozen=True)
class UploadLimits:
    """The upload limits of ``config/settings.py`` (each can be set from the environment)."""

    file_bytes: int
    zip_entries: int
    zip_bytes: int

    @classmethod
    def from_settings(cls) -> UploadLimits:
        return cls(
            file_bytes=settings.TEAM_FILE_MAX_BYTES,
            zip_entries=settings.TEAM_ZIP_MAX_ENTRIES,
            zip_bytes=settings.TEAM_ZIP_MAX_BYTES,
        )


def team_file_size_problem(*, name: str, size: int) -> str | None:
    """Say what is wrong with a team file of ``size`` bytes: more than ``TEAM_FILE_MAX_BYTES``."""
    if size <= settings.TEAM_FILE_MAX_BYTES:
        return None
    return _too_big(name, size_text(size))


def _too_big(name: str, found: str) -> str:
    return f"{name}: {found}; a team file is at most {size_text(settings.TEAM_FILE_MAX_BYTES)}"


def _past(limit: int) -> str:
    """Say how big a stream read up to one byte past ``limit`` was: we stopped reading."""
    return f"more than {size_text(limit)} (reading stopped there)"


class _Budget:
    """The bytes one import may still read in all (``TEAM_ZIP_MAX_BYTES``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def take(self, label: str, size: int) -> None:
        self.used += size
        if self.used > self.limit:
            raise TeamFileError(
                [
                    f"{label}: the files of this import come to more than "
                    f"{size_text(self.limit)} in all, the limit; reading stopped there"
                ]
            )


def uploads_read(
    uploads: Iterable[tuple[str, IO[bytes]]],
    *,
    zips: bool = True,
    problems: list[str] | None = None,
) -> list[tuple[str, bytes]]:
    """Read uploads (a name and a seekable binary stream each) into ``(name, content)`` team
    files, zips unpacked; raise :class:`TeamFileError` listing every problem of every upload.
    With ``zips=False`` each upload must be one team file and a zip is refused.

    Given a ``problems`` list, the problems are added to it instead and the files that
    could be read are returned, for the caller to refuse with their own problems too (a
    file over the size limit hid another file's broken JSON).
    """
    limits = UploadLimits.from_settings()
    budget = _Budget(limits.zip_bytes)
    files: list[tuple[str, bytes]] = []
    collect = problems is not None
    problems = problems if problems is not None else []
    for name, stream in uploads:
        label = _label(name)
        try:
            if not _is_zip(label, stream):
                files.append((label, _file_read(label, stream, limits, budget)))
            elif zips:
                files.extend(_zip_read(label, stream, limits, budget))
            else:
                raise TeamFileError([ZIP_NOT_TAKEN.format(name=label)])
        except TeamFileError as exc:
            problems.extend(exc.problems)
            if budget.used > budget.limit:
                break
    if problems and not collect:
        raise TeamFileError(problems)
    return files


def _label(name: str) -> str:
    """Return a name as shown in messages: printable, at most 200 characters."""
    text = "".join(c if c.isprintable() else "?" for c in name)
    return text if len(text) <= 200 else f"{text[:199]}…"


def _is_zip(name: str, stream: IO[bytes]) -> bool:
    start = stream.tell()
    head = stream.read(4)
    stream.seek(start)
    return name.lower().endswith(".zip") or head in ZIP_MAGIC


def _size(stream: IO[bytes]) -> int:
    """Return the bytes left in a seekable stream, without reading them."""
    start = stream.tell()
    end = stream.seek(0, 2)
    stream.seek(start)
    return end - start


def _read_at_most(stream: IO[bytes], limit: int) -> tuple[bytes, bool]:
    """Read a stream in chunks, stopping one byte past ``limit``; say whether it passed."""
    chunks: list[bytes] = []
    got = 0
    while got <= limit:
        chunk = stream.read(min(CHUNK, limit + 1 - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks), got > limit


def _file_read(name: str, stream: IO[bytes], limits: UploadLimits, budget: _Budget) -> bytes:
    problem = team_file_size_problem(name=name, size=_size(stream))
    if problem:
        raise TeamFileError([problem])
    content, over = _read_at_most(stream, limits.file_bytes)
    if over:
        raise TeamFileError([_too_big(name, _past(limits.file_bytes))])
    budget.take(name, len(content))
    return content


def _directory_extent(name: str, stream: IO[bytes], size: int) -> tuple[int, int]:
    """Return the records and bytes of a zip's central directory, from its end record alone."""
    tail_size = min(size, _END.size + 0xFFFF)
    stream.seek(size - tail_size)
    tail = stream.read(tail_size)
    stream.seek(0)
    at = tail.rfind(_END_SIGNATURE)
    if at < 0 or at + _END.size > len(tail):
        raise TeamFileError([f"{name}: not a valid zip file"])
    records, directory_bytes = _END.unpack_from(tail, at)[4:6]
    if (records == 0xFFFF or directory_bytes == 0xFFFFFFFF) and at >= _ZIP64_LOCATOR.size:
        signature, _, offset, _ = _ZIP64_LOCATOR.unpack_from(tail, at - _ZIP64_LOCATOR.size)
        if signature == b"PK\x06\x07" and offset + _ZIP64_END.size <= size:
            stream.seek(offset)
            record = stream.read(_ZIP64_END.size)
            stream.seek(0)
            if record[:4] == b"PK\x06\x06":
                records, directory_bytes = _ZIP64_END.unpack(record)[7:9]
    return records, directory_bytes


def _unsafe_name(name: str) -> bool:
    """Whether an entry's name is a path out of the zip: absolute, a drive, or with ``..``."""
    parts = re.split(r"[\\/]", name)
    return name.startswith(("/", "\\")) or bool(_DRIVE.match(name)) or ".." in parts


def _is_team_file(name: str) -> bool:
    base = re.split(r"[\\/]", name)[-1]
    return (
        name.lower().endswith(".json")
        and not name.startswith("__MACOSX/")
        and not base.startswith("._")
    )


def _zip_directory_problems(
    name: str, stream: IO[bytes], size: int, limits: UploadLimits
) -> list[str]:
    """The checks made from the zip's end record, before its directory is even parsed."""
    if size > limits.zip_bytes:
        return [
            f"{name}: a zip of {size_text(size)}, more than the limit of "
            f"{size_text(limits.zip_bytes)}"
        ]
    records, directory_bytes = _directory_extent(name, stream, size)
    most_records = limits.zip_entries * RECORDS_PER_FILE
    if records > most_records:
        return [
            f"{name}: its directory lists {records:,} entries; a zip holds at most "
            f"{limits.zip_entries:,} files (with their folders, {most_records:,} entries)"
        ]
    most_bytes = most_records * DIRECTORY_BYTES_PER_RECORD
    if directory_bytes > most_bytes:
        return [
            f"{name}: its directory takes {size_text(directory_bytes)}, more than the "
            f"{size_text(most_bytes)} of {limits.zip_entries:,} files and their folders"
        ]
    return []


def _zip_read(
    name: str, stream: IO[bytes], limits: UploadLimits, budget: _Budget
) -> list[tuple[str, bytes]]:
    problems = _zip_directory_problems(name, stream, _size(stream), limits)
    if problems:
        raise TeamFileError(problems)
    try:
        archive = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise TeamFileError([f"{name}: not a valid zip file"]) from exc
    with archive:
        entries = [info for info in archive.infolist() if not info.is_dir()]
        wanted, problems = _zip_entries_checked(name, entries, limits)
        if problems:
            raise TeamFileError(problems)
        if not wanted:
            raise TeamFileError([_no_team_files(name, entries)])
        files: list[tuple[str, bytes]] = []
        for label, info in wanted:
            try:
                files.append((label, _entry_read(archive, info, label, limits, budget)))
            except TeamFileError as exc:
                problems.extend(exc.problems)
                if budget.used > budget.limit:
                    break
    if problems:
        raise TeamFileError(problems)
    return files


def _no_team_files(name: str, entries: list[zipfile.ZipInfo]) -> str:
    """Say that a zip holds no team file, and what it holds instead."""
    if not entries:
        return f"no team files found in {name}: it holds no files"
    shown = ", ".join(_label(info.filename) for info in entries[:OTHERS_SHOWN])
    more = f" and {len(entries) - OTHERS_SHOWN:,} more" if len(entries) > OTHERS_SHOWN else ""
    return f"no team files found in {name}: only .json files are read, and it holds {shown}{more}"


def _zip_entries_checked(
    name: str, entries: list[zipfile.ZipInfo], limits: UploadLimits
) -> tuple[list[tuple[str, zipfile.ZipInfo]], list[str]]:
    """Check a zip's entries as its directory declares them; return the team files to read."""
    problems = []
    if len(entries) > limits.zip_entries:
        problems.append(
            f"{name}: {len(entries):,} files, more than the limit of {limits.zip_entries:,} "
            "files in a zip"
        )
    declared = sum(info.file_size for info in entries)
    if declared > limits.zip_bytes:
        problems.append(
            f"{name}: inflates to {size_text(declared)} by its directory, more than the limit "
            f"of {size_text(limits.zip_bytes)}"
        )
    wanted = []
    for info in entries:
        label = f"{name}/{_label(info.filename)}"
        if _unsafe_name(info.filename):
            problems.append(
                f"{label}: the name is a path out of the zip (absolute or with ..); "
                "such a zip is refused"
            )
        elif not _is_team_file(info.filename):
            continue
        elif info.flag_bits & 0x1:
            problems.append(f"{label}: encrypted; team files are read unencrypted")
        elif problem := team_file_size_problem(name=label, size=info.file_size):
            problems.append(f"{problem} (as the zip's directory declares it)")
        else:
            wanted.append((label, info))
    return wanted, problems


def _entry_read(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    label: str,
    limits: UploadLimits,
    budget: _Budget,
) -> bytes:
    """Inflate one entry, stopping one chunk past the limit whatever the directory declared."""
    try:
        with archive.open(info) as entry:
            content, over = _read_at_most(entry, limits.file_bytes)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as exc:
        raise TeamFileError([f"{label}: cannot be inflated ({exc})"]) from exc
    if over:
        found = f"inflates to {_past(limits.file_bytes)}"
        declared = f", though the zip's directory declared {size_text(info.file_size)}"
        raise TeamFileError([_too_big(label, found) + declared])
    budget.take(label, len(content))
    return content
