"""A season: every match a browser sees as one ZIP, and that ZIP read back.

The ZIP holds one JSON record per match (docs/record.md, as "Download record"
writes it), named ``matches/<day>_<id>.json``; ``results.csv``, one row per
match and player (``record.to_results_csv``); and ``league.csv``, the ratings
of every game's players (``record.to_league_csv``: computed again from the
matches after an import, so an import reads neither CSV). Reading it back
checks every record before any is taken: a member that is not a record, or a
record that cannot stand, is named and nothing is imported.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from datetime import date

from .i18n import _, ngettext
from .match import Match, Standings
from .players import Sheet
from .record import RecordError, dump, load, read_json, to_results_csv

RESULTS = "results.csv"
LEAGUE = "league.csv"
FOLDER = "matches/"
DAY = re.compile(r"(\d{4}-\d\d-\d\d)_[^/]*\.json")  # a member's name: the day its match began
MEMBERS_MAX = 5000  # records in one ZIP
MEMBER_MAX = 8 * 1024 * 1024  # bytes of one record, unpacked (the largest match fits)
TOTAL_MAX = 256 * 1024 * 1024  # bytes of all records, unpacked


def results(sheets: list[Sheet]) -> list[tuple[str, str, Match, Standings]]:
    """What ``record.to_results_csv`` writes of each match: its id, the day it
    began, the match and its standings."""
    return [(s.pub, s.created[:10], s.match, s.standings) for s in sheets]


def member_name(sheet: Sheet) -> str:
    return f"{FOLDER}{sheet.created[:10] or 'match'}_{sheet.pub}.json"


def to_zip(sheets: list[Sheet], league: str = "") -> bytes:
    """The ZIP of ``sheets``: a record per match, in the order they began (as they
    are rated, and imported), the results (as ``sheets`` come), and ``league``
    (the league's CSV) where given."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for sheet in sorted(sheets, key=lambda s: s.created):
            record = dump(sheet.match, sheet.standings, match_id=sheet.pub)
            zf.writestr(
                member_name(sheet), json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            )
        zf.writestr(RESULTS, to_results_csv(results(sheets)).encode("utf-8"))
        if league:
            zf.writestr(LEAGUE, league.encode("utf-8"))
    return out.getvalue()


def _skipped(info: zipfile.ZipInfo) -> bool:
    """Members that hold no record and are no mistake: folders, the results and
    the league, the resource forks a Mac's archiver adds."""
    base = info.filename.rsplit("/", 1)[-1]
    return (
        info.is_dir()
        or info.filename in (RESULTS, LEAGUE)
        or info.filename.startswith("__MACOSX/")
        or base.startswith("._")
        or base == ".DS_Store"
    )


def began(filename: str) -> str | None:
    """The day a member's match began, from its name (``matches/2025-05-10_<id>.json``),
    or None (a name of another kind, a day that is none)."""
    found = DAY.fullmatch(filename.rsplit("/", 1)[-1])
    try:
        return date.fromisoformat(found.group(1)).isoformat() if found else None
    except ValueError:
        return None


def read_zip(raw: bytes) -> list[tuple[Match, str | None]]:
    """The matches of a season ZIP, each checked as an imported record is
    (``record.load``), with the day it began (``began``), in the order they began
    (a day from the ZIP's order; those without one last, as they come). RecordError
    names the first member that is not a record or cannot stand (nothing is to be
    imported then)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise RecordError(_("this file is not a ZIP archive")) from None
    with zf:
        members = [info for info in zf.infolist() if not _skipped(info)]
        if len(members) > MEMBERS_MAX:
            raise RecordError(
                ngettext(
                    "a season may hold at most %(n)s record",
                    "a season may hold at most %(n)s records",
                    MEMBERS_MAX,
                    n=MEMBERS_MAX,
                )
            )
        if sum(info.file_size for info in members) > TOTAL_MAX:
            raise RecordError(_("the records in this ZIP are too large together"))
        matches = []
        for info in members:
            name = info.filename[:80]
            if not info.filename.lower().endswith(".json"):
                raise RecordError(_("%(member)s: not a game record (a .json file)", member=name))
            if info.file_size > MEMBER_MAX:
                raise RecordError(_("%(member)s: too large for a game record", member=name))
            try:
                data = zf.read(info)
            except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError):
                raise RecordError(
                    _("%(member)s cannot be read from the ZIP (damaged or encrypted)", member=name)
                ) from None
            try:
                match, _standings = load(read_json(data))
            except RecordError as e:
                raise RecordError(_("%(member)s: %(why)s", member=name, why=e.message)) from None
            matches.append((match, began(info.filename)))
        if not matches:
            raise RecordError(_("this ZIP holds no game record"))
    return sorted(matches, key=lambda m: m[1] or "9999")  # stable: a day's in the ZIP's order
