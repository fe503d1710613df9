"""The table's deal N. A table plays deal 13 once; any number of phones may
record it, now or an hour later (offline). A phone's entry names the deal it
records: the next deal is stored; a stored deal entered again, the same once
its game has checked it, is that deal (said, never stored twice); one that
differs is a conflict, kept beside the stored deal (and in the history) until a
scorer chooses. A deal deleted while another phone edited it can come back with
that phone's entry."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from ..games import EntryError
from ..i18n import _
from ..match import DealError, Match, check_entry, checked_entry, fold
from .db import Gap, NotFound, Stale, Undone, now
from .kept import kept_before
from .stored import Stored, get
from .writes import (
    Change,
    append_deal,
    dump_entry,
    keep_later_entries,
    log_event,
    match_write,
    parse_mark,
    replace_deals,
    request_digest,
    same_entry,
)


def _last_place(db: Database, stored: Stored, anchor: str | None) -> tuple[int, int, bool] | None:
    """Of a page drawn at ``anchor`` (its ``Stored.next_mark()``: the deals then, the
    last one's id): the deals it counted, the place now of that last one (the deals
    before the page's next deal), and whether it was deleted and keeps its place.

    That last deal deleted since: if the first deal standing after its place says
    what it said, that deal is it entered again (an Undo, the deal typed again)
    and stands for it. Else it keeps its place (the page's next deal is the one
    after it, held until it is entered again: ``Undone``) only if it was the last
    deal when deleted: an Undo, to enter it again. Deleted from the middle (deals
    entered after it stood then), it was never the table's (entered twice): the
    deals after it move up, and the page's next deal is compared with the first
    of them (stored twice otherwise)."""
    seen = parse_mark(anchor) if anchor and "." in anchor else None
    if seen is None or seen[1] == 0:
        return None
    count, last = seen
    where = stored.number_of(last)
    if where is not None:
        return count, where, False
    gone = deleted_deal(db, stored, last)
    if gone is None:
        return None
    after = gone["number"]  # the place now of the first deal after it, standing
    if after <= len(stored.deal_ids) and same_entry(stored.match.deals[after - 1], gone["entry"]):
        return count, after, False  # entered again after it: that deal stands for it
    if deleted_from_the_middle(db, stored, last):
        return count, gone["number"] - 1, False
    return count, gone["number"], True


def deleted_from_the_middle(db: Database, stored: Stored, deal_id: int) -> bool:
    """Deal ``deal_id`` (deleted) was not the last deal when it was deleted: a deal
    after it, standing now, was entered before that delete."""
    return bool(
        db.execute(
            "select exists (select 1 from deals d where d.match_id = ? and d.deleted is null "
            "and d.pos > (select pos from deals where id = ?) and (select min(e.id) from "
            "events e where e.deal_id = d.id) < (select max(e.id) from events e where "
            "e.deal_id = ? and e.kind = 'delete'))",
            [stored.id, deal_id, deal_id],
        ).fetchone()[0]
    )


def anchored(db: Database, stored: Stored, number: int, anchor: str | None) -> int:
    """The number, as the match stands now, of deal ``number`` of a page drawn
    at ``anchor`` (``_last_place``). A deal deleted since before the page's last one
    moves the number up with the rest; that last one deleted keeps its place,
    unless a deal typed again after it says the same: whether it is to be entered
    again (an Undo) or was never played (entered twice), the table says
    (``Undone``), the store does not guess."""
    place = _last_place(db, stored, anchor)
    return number if place is None else place[1] + (number - place[0])


def record_deal(
    db: Database,
    match_id: int | str,
    number: int,
    raw: Any,
    *,
    anchor: str | None = None,
    if_version: int | None = None,
    key: str | None = None,
    browser: str | None = None,
) -> Change:
    """Record what a phone (``browser``) entered for the table's deal ``number`` (as the page
    drawn at ``anchor`` numbered it). A Change of kind ``add`` (it was the next
    deal: stored), ``same`` (deal ``number`` is stored and says the same: nothing
    stored twice) or ``conflict`` (it differs: kept for a choice, ``conflict``
    its id; the same entry again finds the same conflict).

    Raises NotFound, Gap (a deal before it is not in yet, or one after the page's
    last waits for a choice; Undone: the deal before it deleted since the page
    was drawn), KeyReused, Stale
    (``if_version``), or DealError (its game refuses the entry, or the match is
    over)."""
    digest = request_digest("deal", [number, anchor], raw)
    with match_write(db, match_id, key, digest, if_version) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        count = len(stored.deal_ids)
        place = _last_place(db, stored, anchor)
        typed = number
        if place is not None:
            number = place[1] + (typed - place[0])
        undone = place[1] if place and place[2] else None
        if undone is not None and number > count + 1:
            raise Undone(stored.match.words("undone", n=undone), count + 1, typed, undone)
        if undone is not None and count == number - 1 and _is_the_last(stored, raw):
            # placed on the next deal, it says what the last one says: the deal entered
            # in the place of the one undone since, or (none entered) the deal before
            # the one undone, which was that deal entered twice. That deal, either way
            # (else it is the next)
            return frame.done(_met(db, stored, count, raw, browser))
        if number > count + 1:  # a match over misses no deal: none comes
            now_standing = fold(stored.match, kept_before(stored))
            if now_standing.next is None:
                over = EntryError(_("the match is already over"))
                raise DealError(count + 1, over, now_standing.rules)
        if number > count + 1 or number < 1:
            raise Gap(stored.match.words("not_yet", n=count + 1), count + 1, typed)
        if number == count + 1:
            # a page's mark (an API call without one is placed as numbered)
            page = place is not None or (anchor or "").partition(".")[0] == "0"
            waits = _choice_between(db, stored, place[1] if place else 0, number) if page else None
            if waits is not None:
                raise Gap(stored.match.words("has_two", n=waits), count + 1, typed)
            return frame.done(append_deal(db, stored, raw))
        return frame.done(_met(db, stored, number, raw, browser))


def _is_the_last(stored: Stored, raw: Any) -> bool:
    """The entry says what the match's last deal says (the game's checked entry)."""
    if not stored.deal_ids:
        return False
    standings = fold(stored.match, kept_before(stored))
    try:
        mine = check_entry(standings.rules, raw, standings.rows[-1].plan)
    except EntryError:
        return False
    return same_entry(mine, stored.match.deals[-1])


def _choice_between(db: Database, stored: Stored, seen: int, number: int) -> int | None:
    """The first deal after a page's last one (``seen``, its place now) and before
    the page's deal ``number`` that waits for a choice between two entries: the
    deal after it cannot be placed for sure until the table chooses (the other
    entry may be a deal entered twice, not a typo). None: none waits."""
    waiting = {
        deal_id
        for (deal_id,) in db.execute(
            "select deal_id from conflicts where match_id = ? and closed is null", [stored.id]
        ).fetchall()
    }
    for n in range(seen + 1, number):
        if stored.deal_ids[n - 1] in waiting:
            return n
    return None


def _met(db: Database, stored: Stored, number: int, raw: Any, browser: str | None) -> Change:
    """An entry for stored deal ``number``: the same (said, never stored twice), or a
    conflict kept beside it for a choice (the same entry again finds the same one)."""
    standings = fold(stored.match, kept_before(stored))
    try:
        mine = check_entry(standings.rules, raw, standings.rows[number - 1].plan)
    except EntryError as e:
        raise DealError(number, e, standings.rules) from None
    theirs = stored.match.deals[number - 1]
    deal_id = stored.deal_ids[number - 1]
    if same_entry(mine, theirs):
        event = log_event(db, stored.id, "same", number, mine, deal_id)
        return Change("same", number, 0, standings, event=event)
    found = db.execute(
        "select id, event from conflicts where deal_id = ? and entry = ? and closed is null",
        [deal_id, dump_entry(mine)],
    ).fetchone()
    if found:
        conflict, event = found
    else:
        event = log_event(db, stored.id, "conflict", number, mine, deal_id, before=theirs)
        conflict = (
            db["conflicts"]
            .insert(
                {
                    "match_id": stored.id,
                    "deal_id": deal_id,
                    "entry": dump_entry(mine),
                    "browser": browser,
                    "at": now(),
                    "event": event,
                }
            )
            .last_pk
        )
    return Change("conflict", number, 0, standings, event=event, conflict=conflict)


def conflicts(db: Database, stored: Stored, *, open_only: bool = True) -> list[dict]:
    """The match's conflicts (the open ones: waiting for a scorer's choice), oldest
    first: ``id``, ``number`` (the deal as numbered now; None once deleted),
    ``entry`` (the other phone's), ``stored`` (the deal's entry now), ``at``,
    ``closed``, ``browser`` (the phone that entered it)."""
    rows = db.execute(
        "select c.id, c.deal_id, c.entry, c.at, c.closed, d.entry, c.browser from conflicts c "
        "join deals d on d.id = c.deal_id where c.match_id = ?"
        + (" and c.closed is null" if open_only else "")
        + " order by c.id",
        [stored.id],
    ).fetchall()
    return [
        {
            "id": cid,
            "deal_id": deal_id,
            "number": stored.number_of(deal_id),
            "entry": json.loads(entry),
            "stored": json.loads(theirs),
            "at": at,
            "closed": closed,
            "browser": browser,
        }
        for cid, deal_id, entry, at, closed, theirs, browser in rows
    ]


def conflict(db: Database, stored: Stored, conflict_id: int) -> dict | None:
    """One conflict of the match, as :func:`conflicts` has it (None: no such)."""
    return next((c for c in conflicts(db, stored, open_only=False) if c["id"] == conflict_id), None)


CHOICES = ("keep", "replace", "next")


def _chosen_as_shown(stored: Stored, found: dict, seen: str | None) -> None:
    """A choice made on a page that showed the stored deal at ``seen`` (its
    ``Stored.deal_mark``; None: not known) stands only while that deal is as shown:
    changed on another phone meanwhile, it would be replaced, or kept, unseen.
    Stale otherwise (the page shows it again). Other deals' writes do not matter."""
    number = found["number"]
    if seen is not None and parse_mark(seen) != (found["deal_id"], stored.revs[number - 1]):
        raise Stale(stored.match.words("changed_meanwhile", n=number), number)


def choose(
    db: Database,
    match_id: int | str,
    conflict_id: int,
    choice: str,
    *,
    key: str | None = None,
    seen: str | None = None,
) -> Change:
    """A scorer's choice on a conflict: ``keep`` the stored deal (the other entry
    stays in the history), ``replace`` it with the other entry, or store that
    entry as the ``next`` deal (only while the deal it met is the last one).
    ``seen``: the stored deal as the choice page showed it (_chosen_as_shown).

    Raises NotFound, Stale (already chosen, or the deals moved on), KeyReused,
    DealError (the entry cannot stand there)."""
    digest = request_digest("choose", [conflict_id, choice], None)
    with match_write(db, match_id, key, digest, None) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        found = conflict(db, stored, conflict_id)
        if found is None or choice not in CHOICES:
            raise NotFound(_("there is no such choice to make"))
        if found["closed"] is not None:
            raise Stale(_("that choice was already made on another phone"))
        number = found["number"]
        if number is None:
            raise Stale(stored.match.words("choice_gone"))
        _chosen_as_shown(stored, found, seen)
        if choice == "replace":
            change = replace_deals(db, stored, {number: found["entry"]})
        elif choice == "next":
            if number != len(stored.deal_ids):
                raise Stale(stored.match.words("entered_meanwhile", n=number + 1), number + 1)
            change = append_deal(db, stored, found["entry"])
        else:
            standings = fold(stored.match, kept_before(stored))
            event = log_event(
                db,
                stored.id,
                "keep",
                number,
                found["stored"],
                found["deal_id"],
                before=found["entry"],
            )
            change = Change("keep", number, 0, standings, event=event)
        db.execute("update conflicts set closed = ? where id = ?", [change.event, conflict_id])
        return frame.done(change)


def choose_together(
    db: Database,
    match_id: int | str,
    conflict_ids: list[int],
    *,
    key: str | None = None,
    seen: list[str] | None = None,
) -> Change:
    """Replace several deals at once, each with the other entry of its conflict:
    the table's choice where one replace alone cannot stand (putting one wrong
    deal right ends the match before another wrong one, later). One deal a
    conflict. Raises NotFound, Stale, KeyReused, DealError."""
    digest = request_digest("together", sorted(conflict_ids), None)
    with match_write(db, match_id, key, digest, None) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        found = [conflict(db, stored, cid) for cid in conflict_ids]
        if not found or None in found:
            raise NotFound(_("there is no such choice to make"))
        if any(f["closed"] is not None for f in found):
            raise Stale(_("that choice was already made on another phone"))
        if any(f["number"] is None for f in found):
            raise Stale(stored.match.words("choice_gone"))
        numbers = [f["number"] for f in found]
        if len(set(numbers)) != len(numbers):
            raise Stale(stored.match.words("one_deal_twice"))
        for f, mark in zip(found, seen or [None] * len(found), strict=False):
            _chosen_as_shown(stored, f, mark)
        change = replace_deals(db, stored, {f["number"]: f["entry"] for f in found})
        db.conn.executemany(
            "update conflicts set closed = ? where id = ?",
            [(change.event, cid) for cid in conflict_ids],
        )
        return frame.done(change)


def deleted_deal(db: Database, stored: Stored, deal_id: int) -> dict | None:
    """A deal of the match deleted meanwhile, as it would stand restored: its
    ``deal_id``, its ``number`` then, its ``entry``, when it was ``deleted``, the ``match`` with it
    back in its place. None: not a deleted deal of this match."""
    row = db.execute(
        "select pos, entry, deleted from deals where id = ? and match_id = ?",
        [deal_id, stored.id],
    ).fetchone()
    if row is None or row[2] is None:
        return None
    pos, entry, deleted = row
    before = db.execute(
        "select count(*) from deals where match_id = ? and deleted is null and pos < ?",
        [stored.id, pos],
    ).fetchone()[0]
    deals = list(stored.match.deals)
    deals.insert(before, json.loads(entry))
    m = stored.match
    return {
        "deal_id": deal_id,
        "number": before + 1,
        "entry": json.loads(entry),
        "deleted": deleted,
        "match": Match(m.game, m.options, m.players, m.first_dealer, deals),
    }


def revive_deal(
    db: Database, match_id: int | str, deal_id: int, raw: Any, *, key: str | None = None
) -> Change:
    """A deal deleted on another phone while this one edited it: back in its
    place with this phone's entry (one change of the history, a restore; Undo
    deletes it again). Raises NotFound, Stale (it is back already), KeyReused,
    DealError."""
    with match_write(db, match_id, key, request_digest("revive", deal_id, raw), None) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        gone = deleted_deal(db, stored, deal_id)
        if gone is None:
            raise Stale(stored.match.words("brought_back"))
        number = gone["number"]
        deals, standings = checked_entry(
            gone["match"], raw, number, kept_before(stored)[: number - 1]
        )
        rev = db.execute("select rev from deals where id = ?", [deal_id]).fetchone()[0] + 1
        db.execute(
            "update deals set deleted = null, entry = ?, rev = ? where id = ?",
            [dump_entry(deals[number - 1]), rev, deal_id],
        )
        back = get(db, stored.id)
        keep_later_entries(db, back, standings, number)
        event = log_event(
            db,
            stored.id,
            "restore",
            number,
            deals[number - 1],
            deal_id,
            before=gone["entry"],
            rev=rev,
        )
        return frame.done(Change("restore", number, 0, standings, event=event))
