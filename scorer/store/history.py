"""A match's history: every change in order, each with its entries read and
whether Undo can take it back now; and Undo itself, a new change that takes
back an earlier one (nothing is erased)."""

from __future__ import annotations

import json

from sqlite_utils import Database

from ..i18n import _
from ..match import Match, checked_entry, fold, without
from .db import NotFound, Stale, now
from .kept import kept_before
from .stored import Stored, get, match_row
from .writes import (
    Change,
    apply_setup,
    dump_entry,
    log_event,
    match_write,
    request_digest,
    same_entry,
)


def events(db: Database, match_id: int | str) -> list[dict]:
    """The match's events (by its number in the store or its public id), oldest
    first (each entry as JSON text)."""
    if isinstance(match_id, str):
        match_id = match_row(db, match_id, trash=True)["id"]
    return list(db.query("select * from events where match_id = ? order by id", [match_id]))


UNDONE_AS = {"add": "delete", "restore": "delete", "edit": "edit", "delete": "restore"}


def undo(
    db: Database,
    match_id: int | str,
    event_id: int,
    *,
    key: str | None = None,
    latest: bool = False,
) -> Change:
    """Take back one change of the match's history, as a new change (nothing is
    erased): a deal added or restored is deleted again, an edit puts back the
    entry it replaced, a deleted deal comes back in its place, a conflict settled
    by keeping the stored deal waits for the choice again. Refused (Stale)
    when the deal was changed again since: that later change comes first; and,
    with ``latest`` (the sheet's one-tap Undo), when the match was changed at all
    since (a deal entered again, the same, changes nothing).

    Raises NotFound, Stale, KeyReused, DealError (the match cannot stand so)."""
    digest = request_digest("undo", event_id, None)
    with match_write(db, match_id, key, digest, None) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        rows = list(
            db.query("select * from events where id = ? and match_id = ?", [event_id, stored.id])
        )
        if latest and rows and change(db, stored.id, event_id, latest=True) is None:
            raise Stale(stored.match.words("deals_changed"))
        if rows and rows[0]["kind"] == "setup":
            now_setup = {"players": stored.match.players, "options": stored.match.options}
            if now_setup != json.loads(rows[0]["entry"]):
                if _undone_already(db, stored.id, event_id, "kind = 'setup'"):
                    raise Stale(_("this change is undone already"))
                raise Stale(
                    _(
                        "the players or options were changed again after that: undo "
                        "the later change first"
                    )
                )
            back = json.loads(rows[0]["before"])
            return frame.done(apply_setup(db, stored, back["players"], back["options"], event_id))
        if rows and rows[0]["kind"] == "keep":
            return frame.done(_reopen(db, stored, rows[0]))
        if not rows or rows[0]["kind"] not in UNDONE_AS or not rows[0]["deal_id"]:
            raise NotFound(_("there is no change to undo there"))
        event = rows[0]
        deal = db.execute(
            "select rev, entry, deleted from deals where id = ?", [event["deal_id"]]
        ).fetchone()
        number = stored.number_of(event["deal_id"])
        gone = deal is None or deal[2] is not None
        if deal is None or deal[0] != event["rev"] or gone != (event["kind"] == "delete"):
            changes = f"deal_id = {int(event['deal_id'])} and kind in {DEAL_CHANGES}"
            if _undone_already(db, stored.id, event_id, changes):
                raise Stale(_("this change is undone already"), number)
            raise Stale(
                _(
                    "deal %(n)s was changed again after that: undo the later change first",
                    n=number or event["deal"],
                ),
                number,
            )
        kind = UNDONE_AS[event["kind"]]
        kept = kept_before(stored)
        if kind == "delete":
            deals = without(stored.match.deals, number - 1)
            standings = fold(
                Match(
                    stored.match.game,
                    stored.match.options,
                    stored.match.players,
                    stored.match.first_dealer,
                    deals,
                ),
                kept[: number - 1],
            )
            db.execute("update deals set deleted = ? where id = ?", [now(), event["deal_id"]])
            entry, before, rev = json.loads(deal[1]), None, deal[0]
        elif kind == "edit":
            entry = json.loads(event["before"])
            deals, standings = checked_entry(stored.match, entry, number, kept)
            entry, before, rev = deals[number - 1], json.loads(deal[1]), deal[0] + 1
            db.execute(
                "update deals set entry = ?, rev = ? where id = ?",
                [dump_entry(entry), rev, event["deal_id"]],
            )
        else:  # restore: back in its place among the deals
            db.execute("update deals set deleted = null where id = ?", [event["deal_id"]])
            back = get(db, stored.id)
            number = back.number_of(event["deal_id"])
            if entered_again(db, back, number):  # it would stand twice
                raise Stale(
                    _(
                        "deal %(n)s was changed again after that: undo the later change first",
                        n=number,
                    ),
                    number,
                )
            standings = fold(back.match, kept[: number - 1])
            entry, before, rev = json.loads(deal[1]), None, deal[0]
        new = log_event(
            db,
            stored.id,
            kind,
            number,
            entry,
            event["deal_id"],
            before=before,
            rev=rev,
            undoes=event_id,
        )
        return frame.done(Change(kind, number, 0, standings, event=new))


def entered_again(db: Database, stored: Stored, number: int) -> bool:
    """Deal ``number``, just restored, was entered again while it was deleted: the
    deal after it says the same and was added after its delete (an Undo, the deal
    typed again, then the Undo undone would have it stand twice)."""
    if number >= len(stored.deal_ids):
        return False
    restored, after = stored.deal_ids[number - 1], stored.deal_ids[number]
    if not same_entry(stored.match.deals[number - 1], stored.match.deals[number]):
        return False
    return bool(
        db.execute(
            "select (select min(id) from events where deal_id = ?) > (select max(id) from "
            "events where deal_id = ? and kind = 'delete')",
            [after, restored],
        ).fetchone()[0]
    )


DEAL_CHANGES = "('add', 'edit', 'delete', 'restore')"  # the kinds that change a deal


def _undone_already(db: Database, match_id: int, event_id: int, which: str) -> bool:
    """Whether the latest of the match's changes ``which`` (an SQL condition on
    events) is the undo of ``event_id``: another phone took it back first."""
    last = db.execute(
        f"select undoes from events where match_id = ? and {which} order by id desc limit 1",
        [match_id],
    ).fetchone()
    return bool(last) and last[0] == event_id


def _reopen(db: Database, stored, event: dict) -> Change:
    """Undo of "keep deal N as stored": the other entry waits for the choice again."""
    closed = db.execute(
        "select id from conflicts where closed = ? and match_id = ?", [event["id"], stored.id]
    ).fetchone()
    number = stored.number_of(event["deal_id"])
    settled = f"deal_id = {int(event['deal_id'])} and kind in ('keep', 'reopen')"
    if closed is None and _undone_already(db, stored.id, event["id"], settled):
        raise Stale(_("this change is undone already"), number)
    if closed is None or number is None:
        raise Stale(
            _(
                "deal %(n)s was changed again after that: undo the later change first",
                n=number or event["deal"],
            ),
            number,
        )
    db.execute("update conflicts set closed = null where id = ?", [closed[0]])
    new = log_event(
        db,
        stored.id,
        "reopen",
        number,
        json.loads(event["before"]),
        event["deal_id"],
        before=json.loads(event["entry"]),
        undoes=event["id"],
    )
    standings = fold(stored.match, kept_before(stored))
    return Change("reopen", number, 0, standings, event=new, conflict=closed[0])


def history(db: Database, match_id: int | str) -> list[dict]:
    """Every change of the match, oldest first, each with its entries read
    (``entry``, ``before``) and whether Undo can take it back now (``undoable``)."""
    return [_line(db, event) for event in events(db, match_id)]


def change(db: Database, match_id: int, event_id: int, latest: bool = False) -> dict | None:
    """One change of the match's history, as :func:`history` has it (None: not
    a change of this match; ``latest``: nor its latest, no change made since)."""
    rows = list(
        db.query("select * from events where id = ? and match_id = ?", [event_id, match_id])
    )
    if latest and rows:  # a deal entered again, the same, changes nothing
        since = "select 1 from events where match_id = ? and id > ? and kind != 'same' limit 1"
        if db.execute(since, [match_id, event_id]).fetchone():
            return None
    return _line(db, rows[0]) if rows else None


def _line(db: Database, event: dict) -> dict:
    line = dict(event)
    for field in ("entry", "before"):
        line[field] = json.loads(event[field]) if event[field] else None
    line["undoable"] = False
    if event["kind"] == "setup":
        current = match_row(db, event["match_id"], trash=True)
        line["undoable"] = line["entry"] == {
            "players": json.loads(current["players"]),
            "options": json.loads(current["options"]),
        }
    elif event["kind"] == "keep":  # the other entry can wait for the choice again
        line["undoable"] = bool(
            db.execute(
                "select 1 from conflicts c join deals d on d.id = c.deal_id "
                "where c.closed = ? and d.deleted is null",
                [event["id"]],
            ).fetchone()
        )
    elif event["kind"] in UNDONE_AS and event["deal_id"]:
        deal = db.execute(
            "select rev, deleted from deals where id = ?", [event["deal_id"]]
        ).fetchone()
        line["undoable"] = (
            bool(deal)
            and deal[0] == event["rev"]
            and ((deal[1] is not None) == (event["kind"] == "delete"))
        )
    return line
