"""The JSON game record of RECORD.md: load (validate), dump, and CSV.

A whole record (import, ``POST /api/matches``, the replay CLI) is read here;
its deals, like every deal from a form or the API, are checked by the one
fold (``scorer.match``), where each game's ``check`` is the only validator of
an entry.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from typing import Any

from .games import GAMES, EntryError
from .i18n import _, ngettext
from .match import DealError, Match, Standings, fold

FORMAT = "scorer-record"
VERSION = 1
NAME_MAX = 40
DEALS_MAX = 2000
# Direction overrides would turn the rest of a line on the sheet around; joiners
# (U+200C, U+200D), which some scripts need, stay allowed.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class RecordError(ValueError):
    """A record that cannot be read, with one line naming what is wrong."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def read_json(raw: bytes | str) -> Any:
    """JSON text (bytes in UTF-8) → data, or RecordError in one line. Text that
    decodes to a lone surrogate (\\ud800) is refused too: it could not be shown."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text)
    except UnicodeDecodeError:
        raise RecordError(_("not JSON: the text is not UTF-8")) from None
    except (ValueError, RecursionError) as e:
        raise RecordError(_("not JSON: %(why)s", why=str(e)[:120] or type(e).__name__)) from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(_("the text holds a character that is not valid Unicode")) from None
    except RecursionError:
        raise RecordError(_("not JSON: nested too deep")) from None
    return data


def check_names(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise EntryError(_("players must be a list of names"), "players")
    if not value:
        raise EntryError(_("write the players' names"), "players")
    names = []
    for raw in value:
        if not isinstance(raw, str):
            raise EntryError(_("every player name must be text"), "players")
        name = " ".join(raw.split())
        if not name:
            raise EntryError(_("a player name is empty"), "players")
        if len(name) > NAME_MAX:
            raise EntryError(ngettext("a player name may have at most %(n)s character",
                                      "a player name may have at most %(n)s characters",
                                      NAME_MAX, n=NAME_MAX), "players")
        if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or ch in BIDI_CONTROLS
               for ch in name):
            raise EntryError(_("a player name has a character that cannot be shown"), "players")
        names.append(name)
    if len(names) > 12:
        raise EntryError(_("too many players"), "players")
    return names


def load_match(data: Any) -> Match:
    """The match a record describes, its header checked (deals not folded)."""
    if not isinstance(data, dict):
        raise RecordError(_("a record must be a JSON object"))
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
            raise EntryError(_("first_dealer must be a seat from 0 to %(last)s",
                               last=len(names) - 1), "first_dealer")
    except EntryError as e:
        raise RecordError(e.message) from None
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError(_("deals must be a list"))
    if len(deals) > DEALS_MAX:
        raise RecordError(ngettext("a record may hold at most %(n)s deal",
                                   "a record may hold at most %(n)s deals", DEALS_MAX, n=DEALS_MAX))
    return Match(game, options, names, first, deals)


def load(data: Any) -> tuple[Match, Standings]:
    """A whole record validated: the match with its deals as checked, and its standings."""
    match = load_match(data)
    try:
        standings = fold(match)
    except DealError as e:
        raise RecordError(e.message) from None
    match.deals = [row.entry for row in standings.rows]
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
    record.update({
        "game": match.game,
        "options": dict(match.options),
        "players": list(match.players),
        "first_dealer": match.first_dealer,
        "deals": list(match.deals),
    })
    if standings is not None:
        record["computed"] = standings.computed()
    return record


def inert(text: str) -> str:
    """Text a spreadsheet will not run as a formula: a leading = + - @ gets a '."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def to_csv(match: Match, standings: Standings, title: str) -> str:
    """One row per deal and player, then a total row per player with the place so
    far (final once the match is over). UTF-8, with a BOM."""
    out = io.StringIO()
    out.write("\ufeff")  # spreadsheets then read the names in any script as UTF-8
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([_("match"), _("deal"), _("dealer"), _("player"), _("seat"), _("entry"),
                _("points"), _("total"), _("place")])
    names = match.players
    title, names = inert(title), [inert(n) for n in names]
    for row in standings.rows:
        for s, name in enumerate(names):
            w.writerow([title, row.number, names[row.plan.dealer], name, s + 1,
                        inert(str(row.words)), row.score.points[s], row.totals[s], ""])
    for s, name in enumerate(names):
        w.writerow([title, _("total"), "", name, s + 1, "", "", standings.totals[s],
                    standings.places[s]])
    return out.getvalue()
