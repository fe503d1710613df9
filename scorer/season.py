"""A season: every match a browser sees as one ZIP, and that ZIP read back.

The ZIP holds one JSON record per match (docs/record.md, as "Download record"
writes it), named ``matches/<day>_<id>.json``; ``results.csv``, one row per
match and player (``record.to_results_csv``); and ``league.csv``, the ratings
of every game's players (``record.to_league_csv``: computed again from the
matches after an import, so an import reads neither CSV). The two CSVs are named
in the page's language (``wyniki.csv``, ``ranking.csv`` in Polish: ``RESULTS``,
``LEAGUE``); an import skips any CSV beside the records. Reading it back
checks every record before any is taken: a member that is not a record, or a
record that cannot stand, is named and nothing is imported.
"""

from __future__ import annotations

import io
import json
import re
import time
import zipfile
import zlib
from datetime import UTC, datetime, timedelta

from .i18n import _, ngettext, pgettext
from .match import Match, Standings
from .players import Sheet
from .record import RecordError, dump, load, read_json, to_results_csv

# the results and the league beside the records, named in the ZIP's language
RESULTS = pgettext("file", "results")
LEAGUE = pgettext("file", "league")
SEASON = pgettext("file", "season")  # the ZIP's own name: scorer-season_2025-03-08.zip
FOLDER = "matches/"
# a member's name: the day its match began, and the time (an older Scorer: the day alone)
BEGAN = re.compile(r"(\d{4}-\d\d-\d\d)(?:T(\d\d)-(\d\d)-(\d\d))?_[^/]*\.json", re.I)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # no match began before (nor after now)
MEMBERS_MAX = 5000  # records in one ZIP
MEMBER_MAX = 8 * 1024 * 1024  # bytes of one record, unpacked (the largest match fits)
TOTAL_MAX = 256 * 1024 * 1024  # bytes of all records, unpacked


def results(sheets: list[Sheet]) -> list[tuple[str, str, Match, Standings]]:
    """What ``record.to_results_csv`` writes of each match: its id, the day it
    began, the match and its standings."""
    return [(s.pub, s.created[:10], s.match, s.standings) for s in sheets]


def member_name(sheet: Sheet) -> str:
    """``matches/2025-05-10T19-30-05_<id>.json``: when its match began (UTC)."""
    began = sheet.created[:19].replace(":", "-") if len(sheet.created) >= 19 else sheet.created[:10]
    return f"{FOLDER}{began or 'match'}_{sheet.pub}.json"


def to_zip(sheets: list[Sheet], league: str = "") -> bytes:
    """The ZIP of ``sheets``: a record per match, in the order they are rated (they
    began; in one second, they were stored), which an import keeps; the results
    (as ``sheets`` come), and ``league`` (the league's CSV) where given."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for sheet in sorted(sheets, key=lambda s: s.rated_order):
            record = dump(sheet.match, sheet.standings, match_id=sheet.pub)
            zf.writestr(
                member_name(sheet), json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            )
        zf.writestr(f"{RESULTS}.csv", to_results_csv(results(sheets)).encode("utf-8"))
        if league:
            zf.writestr(f"{LEAGUE}.csv", league.encode("utf-8"))
    return out.getvalue()


def _skipped(info: zipfile.ZipInfo) -> bool:
    """Members that hold no record and are no mistake: folders, the results and
    the league (a CSV beside the records, named in any language), the resource forks
    a Mac's archiver adds."""
    base = info.filename.rsplit("/", 1)[-1]
    return (
        info.is_dir()
        or ("/" not in info.filename and info.filename.endswith(".csv"))
        or info.filename.startswith("__MACOSX/")
        or base.startswith("._")
        or base == ".DS_Store"
    )


Began = tuple[datetime, bool] | None  # when a member's match began; from its day alone?


def began(filename: str) -> Began:
    """When a member's match began, from its name, and whether the name gave the
    day alone (an older Scorer's); None for a name of another kind, or a time that
    is none, before 1970 or after now."""
    found = BEGAN.fullmatch(filename.rsplit("/", 1)[-1])
    if not found:
        return None
    day, *clock = found.groups()
    try:
        at = datetime.fromisoformat(f"{day}T{':'.join(c or '00' for c in clock)}+00:00")
    except ValueError:
        return None
    return (at, clock[0] is None) if EPOCH <= at <= datetime.now(UTC) else None


def in_order(found: list[tuple[Match, Began]]) -> list[tuple[Match, str | None]]:
    """The matches in the order they began, each with its start (ISO 8601) or None
    (dated when imported, after the others). An older Scorer named a member by its
    day alone and listed the latest changed first: a day's are taken in the
    opposite order, a second apart, so that they keep it when exported again."""
    dated = sorted(
        (i for i, (_m, when) in enumerate(found) if when),
        key=lambda i: (found[i][1][0], -i if found[i][1][1] else i),
    )
    undated = [i for i, (_m, when) in enumerate(found) if not when]
    out: list[tuple[Match, str | None]] = []
    last: datetime | None = None
    for i in dated + undated:
        match, when = found[i]
        if when is None:
            out.append((match, None))
            continue
        at = when[0]
        if when[1] and last is not None and at <= last and at.date() == last.date():
            at = last + timedelta(seconds=1)  # the day's next, in its place
        last = at
        out.append((match, at.isoformat()))
    return out


def read_zip(raw: bytes) -> list[tuple[Match, str | None]]:
    """The matches of a season ZIP, each checked as an imported record is
    (``record.load``), with when it began (``in_order``), in the order they began.
    RecordError names the first member that is not a record or cannot stand
    (nothing is to be imported then)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise RecordError(_("this file is not a ZIP archive")) from None
    with zf:
        members = [info for info in zf.infolist() if not _skipped(info)]
        seen: set[str] = set()
        for info in members:  # one match would be imported, and rated, twice
            if info.filename in seen:
                raise RecordError(_("%(member)s is in this ZIP twice", member=info.filename[:80]))
            seen.add(info.filename)
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
            time.sleep(0)  # under gevent, the worker's other requests run between records
        if not matches:
            raise RecordError(_("this ZIP holds no game record"))
    return in_order(matches)
