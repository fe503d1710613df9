"""What lists show: the matches a browser scores or has watched (the home
page's page of summaries, read from the figures kept with each write, and its
filters' choices, read when the filter is opened), the trash, and what a
browser is to a match."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlite_utils import Database

from ..match import DealError, ranked
from .db import now, writing
from .kept import STAMP, refresh_summary
from .stored import Stored, from_row


def listing(db: Database, browser: str | None = None, trash: bool = False) -> list[Stored]:
    """The matches a browser scores or has watched (every match: ``browser``
    None), the latest changed first; ``trash``: those it scores that are in the
    trash, for TRASH_DAYS (found from the trash's few rows, not the browser's
    many)."""
    if trash:
        sql = "select m.* from matches m where m.deleted is not null and m.deleted >= ?" + (
            " and exists (select 1 from browsers b where b.match_id = m.id"
            " and b.browser = ? and b.role = 'score')"
            if browser is not None
            else ""
        )
        args: list = [trash_since()] + ([browser] if browser is not None else [])
    elif browser is None:
        sql, args = "select m.* from matches m where m.deleted is null and m.game != ''", []
    else:
        frm, args = _mine(browser)
        sql = f"select m.* {frm}"
    rows = list(db.query(sql + " order by m.updated desc, m.id desc", args))
    return [from_row(db, r) for r in rows]


@dataclass
class Summary:
    """A match as a list shows it: from the figures kept with each write."""

    pub: str
    game: str
    players: list[str]
    created: str
    updated: str
    deals: int
    totals: list[int]
    finished: bool
    winners: list[int]
    readable: bool = True  # False: a stored deal these rules can no longer read


PER_PAGE = 30  # the matches a page of the home page lists


def _mine(browser: str) -> tuple[str, list]:
    """The matches a browser scores or has watched, out of the trash."""
    return (
        "from matches m join browsers b on b.match_id = m.id "
        "where b.browser = ? and m.deleted is null and m.game != ''",
        [browser],
    )


def refresh_list(db: Database, browser: str) -> int:
    """Fold afresh the matches of a browser whose summary is missing or was
    written by other code (none, but for rows written by hand since the start:
    a start writes every match's afresh, kept.refresh_summaries). How many it
    wrote afresh. The ratings read it before they rate; the home page checks the
    rows it shows instead (``summaries``)."""
    frm, args = _mine(browser)
    stale = db.execute(
        f"select m.id {frm} and (m.summary is null or json_extract(m.summary, '$.code') is not ?)",
        [*args, STAMP],
    ).fetchall()
    for (match_id,) in stale:
        with contextlib.suppress(DealError):
            refresh_summary(db, match_id)
    return len(stale)


def _fresh(row) -> dict | None:
    """A match row's summary, if this code wrote it."""
    kept = json.loads(row["summary"]) if row["summary"] else None
    return kept if kept is not None and kept.get("code") == STAMP else None


def page_rows(
    db: Database,
    browser: str,
    *,
    game: str | None = None,
    player: str | None = None,
    finished: bool | None = None,
    page: int = 1,
) -> tuple[list[dict], int]:
    """One page of the matches a browser scores or has watched, the latest
    changed first, as their rows (``summarize`` reads them), and how many there
    are in all; ``game``, ``player`` (a name as entered), ``finished`` narrow it.
    The page's rows are read by id once the order has picked them: what it reads
    grows with the page, not with the browser's matches."""
    if not browser:
        return [], 0
    frm, args = _mine(browser)
    if game:
        frm += " and m.game = ?"
        args.append(game)
    if player:
        frm += " and exists (select 1 from json_each(m.players) p where p.value = ?)"
        args.append(player)
    if finished is not None:
        frm += " and coalesce(json_extract(m.summary, '$.finished'), 0) = ?"
        args.append(int(finished))
    if game or player or finished is not None:
        total = db.execute(f"select count(*) {frm}", args).fetchone()[0]
    else:  # from indexes alone: its rows, but those of matches in the trash
        total = db.execute(
            "select (select count(*) from browsers where browser = ?) - (select count(*)"
            " from matches m where m.deleted is not null"
            " and exists (select 1 from browsers b where b.browser = ? and b.match_id = m.id))",
            [browser, browser],
        ).fetchone()[0]
    ids = [
        r[0]
        for r in db.execute(
            # the browser's rows in the order of an index (browsers_latest): the
            # latest page is read, not all of them sorted
            f"select m.id {frm} order by b.updated desc, b.match_id desc limit ? offset ?",
            [*args, PER_PAGE, (max(page, 1) - 1) * PER_PAGE],
        )
    ]
    by_id = {
        r["id"]: r
        for r in db.query(
            "select id, pub, game, players, created, updated, summary from matches"
            f" where id in ({', '.join('?' * len(ids))})",
            ids,
        )
    }
    return [by_id[i] for i in ids if i in by_id], total  # one deleted in between: left out


def summarize(db: Database, rows: list[dict]) -> list[Summary]:
    """The page's rows (``page_rows``) as the list shows them, from their kept
    figures (no fold). A summary written by other code is found at start
    (kept.refresh_summaries), not looked for in all of them here; one the page
    shows all the same (a row written by hand since) is folded and written
    afresh as it is shown."""
    out = []
    for r in rows:
        players = json.loads(r["players"])
        kept = _fresh(r)
        if kept is None:  # written by hand since the start: folded now, once
            with contextlib.suppress(DealError):
                refresh_summary(db, r["id"])
            r = next(iter(db.query("select * from matches where id = ?", [r["id"]])), r)
            kept = _fresh(r)
        fresh = kept is not None
        out.append(
            Summary(
                r["pub"],
                r["game"],
                players,
                r["created"],
                r["updated"],
                kept["deals"] if fresh else 0,
                kept["totals"] if fresh else [0] * len(players),
                kept["finished"] if fresh else False,
                ranked(kept["winners"], kept["places"]) if fresh else [],
                readable=fresh,
            )
        )
    return out


def summaries(db: Database, browser: str, **narrowed) -> tuple[list[Summary], int]:
    """One page of a browser's matches as the list shows them (``page_rows``,
    ``summarize``), and how many there are in all."""
    rows, total = page_rows(db, browser, **narrowed)
    return summarize(db, rows), total


def choices(db: Database, browser: str) -> tuple[list[str], list[str]]:
    """The games and the player names among a browser's matches, for its filters:
    read over all of them (0.96 ms at 1,000 matches), so only when the filter
    is opened, not on every home page. The names come unordered: the page orders
    them as its language does (i18n.alphabetical)."""
    if not browser:
        return [], []
    frm, args = _mine(browser)
    games = [r[0] for r in db.execute(f"select distinct m.game {frm} order by m.game", args)]
    names = [
        r[0]
        for r in db.execute(
            f"select distinct p.value {frm.replace('where', ', json_each(m.players) p where', 1)}",
            args,
        )
    ]
    return games, names


TRASH_DAYS = 30


def trash_since() -> str:
    return (datetime.now(UTC) - timedelta(days=TRASH_DAYS)).isoformat(timespec="seconds")


def role_of(db: Database, browser: str | None, match_id: int) -> str | None:
    """ "score", "watch", or None: what a browser is to a match."""
    if not browser:
        return None
    row = db.execute(
        "select role from browsers where browser = ? and match_id = ?", [browser, match_id]
    ).fetchone()
    return row[0] if row else None


def remember(db: Database, browser: str, match_id: int, role: str) -> None:
    """A browser scores (``score``) or has watched (``watch``) a match; scoring
    is never taken back by watching."""
    if role_of(db, browser, match_id) in (role, "score"):
        return
    with writing(db):
        db["browsers"].upsert(
            {"browser": browser, "match_id": match_id, "role": role, "at": now()},
            pk=("browser", "match_id"),
        )
