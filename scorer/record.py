"""The JSON game record of docs/record.md: load (validate), dump, and CSV.

A whole record (import, ``POST /api/matches``, the replay CLI) is read here;
its deals, like every deal from a form or the API, are checked by the one
fold (``scorer.match``), where each game's ``check`` is the only validator of
an entry.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from datetime import date
from typing import Any
from urllib.parse import quote

import xlsxwriter

from .games import GAMES, EntryError
from .i18n import _, csv_separator, ngettext, pgettext
from .match import DealError, Match, Standings, fold

FORMAT = "scorer-record"
VERSION = 1
NAME_MAX = 40
DEALS_MAX = 2000
# Every key Scorer writes into a record: ``dump`` (an export, the API's GET, a
# season's ZIP) and the API's create answer, which adds ``edit_key``. Read
# back, ``id``, ``computed`` and ``edit_key`` are ignored; any other key is a
# mistake (a misspelt ``deals`` would import a match without its deals), refused
# by name as an unknown option or deal field is.
KEYS = frozenset(
    {"format", "version", "id", "game", "options", "players", "first_dealer", "deals"}
    | {"computed", "edit_key"}
)
# Lists and objects nested in a record or an entry: a record played card by
# card is 7 deep (record, deals, deal, play, tricks, trick, [seat, card]).
DEPTH_MAX = 64


class RecordError(ValueError):
    """A record that cannot be read, with one line naming what is wrong."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def nested_deeper_than(data: Any, limit: int) -> bool:
    """Whether lists and objects in ``data`` nest more than ``limit`` deep
    (``[[]]`` is 2 deep), found without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def read_json(raw: bytes | str) -> Any:
    """JSON text (bytes in UTF-8) → data, or RecordError in one line. Text that
    decodes to a lone surrogate (\\ud800) is refused too: it could not be shown.

    Data nested more than DEPTH_MAX deep is refused here, before anything
    walks it: json.dumps of the request's digest (store), the checks, the
    history would each recurse, and one of them would run out of stack a few
    levels after json.loads did not (a 500)."""
    try:
        # a byte-order mark (Windows' Notepad writes one) is no part of the text
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise RecordError(_("not JSON: the text is not UTF-8")) from None
    except RecursionError:
        raise RecordError(_("not JSON: nested too deep")) from None
    except json.JSONDecodeError as e:  # where, not the parser's words
        if not text.strip():
            raise RecordError(_("not JSON: it is empty")) from None
        raise RecordError(
            _(
                "not JSON: cut off or mistyped at line %(line)s, column %(column)s",
                line=e.lineno,
                column=e.colno,
            )
        ) from None
    except ValueError as e:
        raise RecordError(_("not JSON: %(why)s", why=str(e)[:120] or type(e).__name__)) from None
    if isinstance(data, (dict, list)) and nested_deeper_than(data, DEPTH_MAX):
        raise RecordError(_("not JSON: nested too deep"))
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(_("the text holds a character that is not valid Unicode")) from None
    return data


def invisible_char(ch: str) -> str | None:
    """Why ``ch`` may not stand in a name (None: it may)."""
    category, code = unicodedata.category(ch), f"{ord(ch):04X}"
    if category == "Cc" or category in ("Zl", "Zp"):
        return _("a player name may not hold a control character (U+%(code)s)", code=code)
    if category == "Cf":
        return _("a player name may not hold an invisible format character (U+%(code)s)", code=code)
    if category in ("Cs", "Co", "Cn"):
        return _("a player name has a character that cannot be shown (U+%(code)s)", code=code)
    return None


def name_key(name: str) -> str:
    """Two names the sheet could not tell apart have the same key."""
    return unicodedata.normalize("NFC", name).casefold()


def check_names(value: Any) -> list[str]:
    """The players' names: spaces tidied, each with something to see, none
    holding a control or format character, no two the same (whatever the case)."""
    if not isinstance(value, list):
        raise EntryError(_("players must be a list of names"), "players")
    if not value:
        raise EntryError(_("write the players' names"), "players")
    names = []
    for raw in value:
        if not isinstance(raw, str):
            raise EntryError(_("every player name must be text"), "players")
        name = " ".join(raw.split())  # tabs, line breaks and runs of spaces become one space
        if not name:
            raise EntryError(_("a player name is empty"), "players")
        for ch in name:
            why = invisible_char(ch)
            if why:
                raise EntryError(why, "players")
        if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
            raise EntryError(
                _("a player name needs a letter, a digit or a sign that can be seen"), "players"
            )
        if len(name) > NAME_MAX:
            raise EntryError(
                ngettext(
                    "a player name may have at most %(n)s character",
                    "a player name may have at most %(n)s characters",
                    NAME_MAX,
                    n=NAME_MAX,
                ),
                "players",
            )
        names.append(name)
    if len(names) > 12:
        raise EntryError(_("too many players"), "players")
    seen: dict[str, str] = {}
    for name in names:
        if name_key(name) in seen:
            raise EntryError(
                _(
                    "two players cannot both be called %(name)s: the sheet could "
                    "not tell them apart",
                    name=name,
                ),
                "players",
            )
        seen[name_key(name)] = name
    return names


def load_match(data: Any) -> Match:
    """The match a record describes, its header checked (deals not folded)."""
    if not isinstance(data, dict):
        raise RecordError(_("a record must be a JSON object"))
    unknown = sorted(str(key) for key in data if key not in KEYS)
    if unknown:
        raise RecordError(_("unknown field %(field)s in the record", field=unknown[0][:40]))
    if "format" in data and data["format"] != FORMAT:
        raise RecordError(_("format must be %(f)s", f=FORMAT))
    if "version" in data and (type(data["version"]) is not int or data["version"] != VERSION):
        raise RecordError(_("version must be %(v)s", v=VERSION))
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(_("game must be one of %(games)s", games=", ".join(GAMES)))
    try:
        names = check_names(data.get("players"))
        options = GAMES[game].normalize_options(data.get("options", {}), len(names))
        first = data.get("first_dealer", 0)
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
            raise EntryError(
                _("first_dealer must be a seat from 0 to %(last)s", last=len(names) - 1),
                "first_dealer",
            )
    except EntryError as e:
        raise RecordError(e.message) from None
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError(_("deals must be a list"))
    if len(deals) > DEALS_MAX:
        raise RecordError(
            ngettext(
                "a record may hold at most %(n)s deal",
                "a record may hold at most %(n)s deals",
                DEALS_MAX,
                n=DEALS_MAX,
            )
        )
    return Match(game, options, names, first, deals)


def load(data: Any) -> tuple[Match, Standings]:
    """A whole record validated: the match with its deals as checked, and its standings."""
    match = load_match(data)
    try:
        standings = fold(match)
    except DealError as e:
        raise RecordError(e.message) from None
    match.deals = list(standings.rows.entries)
    return match, standings


def dump(match: Match, standings: Standings | None = None, match_id: int | None = None) -> dict:
    """The record of a match, with its ``computed`` block (left out if the deals
    cannot be folded: what the table entered is never withheld)."""
    if standings is None:
        try:
            standings = fold(match)
        except DealError:
            standings = None
    record: dict = {"format": FORMAT, "version": VERSION}
    if match_id is not None:
        record["id"] = match_id
    record.update(
        {
            "game": match.game,
            "options": dict(match.options),
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "deals": list(match.deals),
        }
    )
    if standings is not None:
        record["computed"] = standings.computed()
    return record


def inert(text: str) -> str:
    """Text a spreadsheet will not run as a formula: a leading = + - @ gets a '."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class _DecimalComma(float):
    """A number to a tenth as a spreadsheet set to a decimal comma reads it: 12,3."""

    def __repr__(self) -> str:
        return format(float(self), ".1f").replace(".", ",")


def _writer(out: io.StringIO):
    """A CSV writer that quotes every text field (numbers stay numbers), with the
    separator a spreadsheet of the page's language splits on when the file is
    opened: ``;`` where the decimal mark is a comma (Polish, Russian, Czech),
    ``,`` elsewhere (i18n.csv_separator); a number's decimals there with a comma
    too. The file starts with a BOM: spreadsheets then read the names in any
    script as UTF-8."""
    out.write("\ufeff")
    separator = csv_separator()
    writer = csv.writer(
        out, delimiter=separator, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n"
    )
    if separator == ",":
        return writer
    return _Commas(writer)


class _Commas:
    """A writer whose fractions are written with a decimal comma."""

    def __init__(self, writer):
        self.writer = writer

    def writerow(self, row: list) -> None:
        self.writer.writerow([_DecimalComma(v) if type(v) is float else v for v in row])


def to_csv(match: Match, standings: Standings, title: str) -> str:
    """One row per deal and player, then a total row per player with the place so
    far (final once the match is over)."""
    out = io.StringIO()
    w = _writer(out)
    w.writerow(
        [
            _("match"),
            GAMES[match.game].words("column"),
            _("dealer"),
            _("player"),
            _("seat"),
            _("entry"),
            _("points"),
            _("total"),
            _("place"),
        ]
    )
    names = match.players
    title, names = inert(title), [inert(n) for n in names]
    for row in standings.kept:
        words = inert(str(row.words))  # drawn once for the deal's rows
        for s, name in enumerate(names):
            w.writerow(
                [
                    title,
                    row.number,
                    names[row.dealer],
                    name,
                    s + 1,
                    words,
                    row.points[s],
                    row.totals[s],
                    "",
                ]
            )
    for s, name in enumerate(names):
        w.writerow(
            [title, _("total"), "", name, s + 1, "", "", standings.totals[s], standings.places[s]]
        )
    return out.getvalue()


def sheet_rows(match: Match, standings: Standings) -> list[list]:
    """The sheet as a table: one row per deal (its number, who dealt, what the
    sheet writes beside the number if the game writes anything), then per
    player the deal's points and the running total; last the totals and the
    places, in the players' total columns. Numbers are ints, words texts."""
    names = match.players
    tagged = any(row.tag for row in standings.kept)
    game = GAMES[match.game]
    lead = [game.words("column"), _("dealer")] + ([game.words("note")] if tagged else [])
    rows: list[list] = [
        lead
        + [
            label
            for name in names
            for label in (_("%(name)s: points", name=name), _("%(name)s: total", name=name))
        ]
    ]
    for row in standings.kept:
        rows.append(
            [row.number, names[row.dealer]]
            + ([row.tag] if tagged else [])
            + [v for s in range(len(names)) for v in (row.points[s], row.totals[s])]
        )
    blank = [""] * (len(lead) - 1)
    for label, values in ((_("total"), standings.totals), (_("place"), standings.places)):
        rows.append([label] + blank + [v for value in values for v in ("", value)])
    return rows


def to_sheet_csv(match: Match, standings: Standings) -> str:
    """sheet_rows as CSV (a text that a spreadsheet would run made inert)."""
    out = io.StringIO()
    w = _writer(out)
    for row in sheet_rows(match, standings):
        w.writerow([v if isinstance(v, int) else inert(str(v)) for v in row])
    return out.getvalue()


def to_sheet_xlsx(match: Match, standings: Standings) -> bytes:
    """sheet_rows as an Excel workbook (XlsxWriter): numbers as numbers, names and
    words as text (never a formula, whatever they begin with), the same in every
    spreadsheet and language settings."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_numbers": False})
    sheet = book.add_worksheet(sheet_name(GAMES[match.game].name))
    bold = book.add_format({"bold": True})
    rows = sheet_rows(match, standings)
    for r, row in enumerate(rows):
        style = bold if r == 0 or r >= len(rows) - 2 else None
        for c, v in enumerate(row):
            if isinstance(v, int) and not isinstance(v, bool):
                sheet.write_number(r, c, v, style)
            elif str(v):
                sheet.write_string(r, c, str(v), style)
    sheet.freeze_panes(1, 0)
    book.close()
    return out.getvalue()


def to_results_csv(matches: list[tuple[str, str, Match, Standings]]) -> str:
    """A season's results: per match (its id, the day it began, the match and its
    standings) one row per player with the total and, once the match is over,
    the place (blank while it is not)."""
    out = io.StringIO()
    w = _writer(out)
    w.writerow([_("match"), _("date"), _("game"), _("player"), _("total"), _("place")])
    for match_id, day, match, standings in matches:
        game = str(GAMES[match.game].name)
        for s, name in enumerate(match.players):
            place = standings.places[s] if standings.finished else ""
            w.writerow([inert(match_id), day, game, inert(name), standings.totals[s], place])
    return out.getvalue()


def to_league_csv(lines: list[tuple[str, int, str, float, float, int, float]]) -> str:
    """A league per game: one row per player (game, place, player, rating, its
    uncertainty, matches rated, the change in the latest), numbers to a tenth."""
    out = io.StringIO()
    w = _writer(out)
    w.writerow(
        [
            _("game"),
            pgettext("league", "place"),  # in the league table, not a match's final place
            _("player"),
            _("rating"),
            _("uncertainty"),
            _("matches"),
            _("last change"),
        ]
    )
    for game, place, name, rating, sigma, matches, change in lines:
        tenth = [round(v, 1) + 0.0 for v in (rating, sigma, change)]
        w.writerow([game, place, inert(name), tenth[0], tenth[1], matches, tenth[2]])
    return out.getvalue()


# Characters no file name may hold on common systems, and letters NFKD leaves alone.
UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')
LATIN = str.maketrans(
    {
        "Ł": "L",
        "ł": "l",
        "Ø": "O",
        "ø": "o",
        "Đ": "D",
        "đ": "d",
        "ß": "ss",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "Þ": "Th",
        "þ": "th",
    }
)


# What Excel refuses in a worksheet's name (and a name of more than 31 characters, or
# one that begins or ends with an apostrophe)
SHEET_UNSAFE = re.compile(r"[\[\]:*?/\\\x00-\x1f\x7f]+")


def sheet_name(text: Any) -> str:
    """A worksheet's name as the game is named, spaces kept („Czarna Maria”): only
    what Excel refuses taken out, cut to its 31 characters."""
    name = SHEET_UNSAFE.sub("", str(text)).strip().strip("'")
    return name[:31].strip().strip("'") or "Scorer"


def _file_part(text: str, ascii_only: bool) -> str:
    text = str(text)  # a message is drawn in the locale here
    if ascii_only:
        text = unicodedata.normalize("NFKD", text.translate(LATIN))
        text = text.encode("ascii", "ignore").decode("ascii")
    text = "-".join(UNSAFE.sub("", text).split())
    return text.strip("-._")


def file_name(parts: list, ext: str, ascii_only: bool = False) -> str:
    """A download's file name from its parts, each made safe, joined by "_".
    ``ascii_only``: the fallback for old browsers (accents dropped, a name in another
    script left out)."""
    stem = "_".join(p for p in (_file_part(x, ascii_only) for x in parts) if p)
    return f"{stem}.{ext}"


def export_name(
    match: Match, day: date, what: str = "", ascii_only: bool = False, ext: str = "csv"
) -> str:
    """An export's file name: the game, the players, the date and what it holds,
    ``Black-Maria_Ala-Bartek-Celina_2025-03-08_sheet.csv``."""
    players = "-".join(p for p in (_file_part(n, ascii_only)[:16] for n in match.players) if p)
    return file_name([GAMES[match.game].name, players[:80], day.isoformat(), what], ext, ascii_only)


def attachment(full: str, plain: str) -> str:
    """A Content-Disposition for a download named ``full``, ``plain`` (ASCII) for an
    old browser (RFC 6266, RFC 5987's ``filename*``)."""
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(full, safe='')}"


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def csv_headers(match: Match, day: date, what: str = "", ext: str = "csv") -> dict[str, str]:
    """The headers of a CSV (or .xlsx) download: its type, and the file name twice
    (RFC 6266): plain ASCII, and in full as RFC 5987's ``filename*``."""
    full = export_name(match, day, what, ext=ext)
    plain = export_name(match, day, what, ascii_only=True, ext=ext)
    return {
        "Content-Type": "text/csv; charset=utf-8" if ext == "csv" else XLSX,
        "Content-Disposition": attachment(full, plain),
    }
