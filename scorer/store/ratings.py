"""The ratings, kept (``scorer.ratings``): per browser, every finished match it
sees rated in the order the matches began, and its leagues (all time, a year,
from a day), with what the players page lists beside them.

Never a second truth. Each match rated keeps a mark naming this code and the
match's id, version and start (``rating_moves``). Each league keeps two
(``ratings.mark``): a fingerprint of every match the browser sees as it
stands (ids and versions: any write, a deletion, a restore, a match newly
watched changes it), and a mark of the finished matches it was rated from. A
read whose fingerprint holds reads the kept row alone: one query over the
browser's matches' ids and versions, however many. Otherwise the finished
matches are looked at: a match still being played changed nothing and the
league is kept again as it was; a match finished, edited, deleted, restored or
renamed is rated again from the first match that changed (the matches before
it keep their moves). `flask --app scorer rebuild` rates everything afresh and
names what differed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata

from sqlite_utils import Database

from ..match import Match
from ..players import names
from ..ratings import (
    ALL_TIME,
    League,
    Move,
    Rated,
    Result,
    Season,
    Skill,
    Skills,
    Standing,
    leagues,
    ranked,
    rate,
    skills_after,
    skills_of,
)
from .db import writing
from .kept import STAMP
from .listing import refresh_list

CODE = f"{STAMP}.{metadata.version('openskill')}"  # what rated them: this code, this openskill

Row = tuple[int, int, str]  # a finished match: its id, version and start


_SEEN = (
    "from matches m join browsers b on b.match_id = m.id "
    "where b.browser = ? and m.deleted is null and m.game != ''"
)


def _fingerprint(db: Database, browser: str) -> str:
    """Changes with any change to any match the browser sees, to the set of
    them, and to this code."""
    count, ids = db.execute(
        f"select count(*), group_concat(m.id || '.' || m.version) {_SEEN}", [browser]
    ).fetchone()
    return hashlib.sha256(f"{CODE};{count};{ids}".encode()).hexdigest()[:16]


def _finished(db: Database, browser: str, season: Season) -> list[Row]:
    """The finished matches a browser sees (out of the trash) in the season,
    in the order they are rated. Their kept summaries must be current (``refresh_list``)."""
    first, end = season.bounds
    sql = (
        f"select m.id, m.version, m.created {_SEEN} "
        "and json_extract(m.summary, '$.code') = ? and json_extract(m.summary, '$.finished') "
        "and m.created >= ?"
    )
    args: list = [browser, STAMP, first]
    if end:
        sql += " and m.created < ?"
        args.append(end)
    return db.execute(sql + " order by m.created, m.id", args).fetchall()


def _match_mark(row: Row) -> str:
    return f"{CODE}:{row[0]}.{row[1]}.{row[2]}"


def _mark(rows: list[Row]) -> str:
    """Names every match a league is rated from, and the code that rated it."""
    digest = hashlib.sha256(CODE.encode())
    for row in rows:
        digest.update(f"{row[0]}.{row[1]}.{row[2]};".encode())
    return digest.hexdigest()[:32]


def _results(db: Database, rows: list[Row]) -> list[Result]:
    """The finished matches ``rows`` as the ratings read them (from their kept
    summaries: no fold), in the order of ``rows``."""
    found: dict[int, Result] = {}
    ids = [r[0] for r in rows]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for ref, pub, began, game, options, players, summary in db.execute(
            "select id, pub, created, game, options, players, summary from matches "
            f"where id in ({marks})",
            chunk,
        ):
            places = json.loads(summary)["places"]
            found[ref] = Result.of(
                ref, pub, began, game, json.loads(options), json.loads(players), places
            )
    return [found[i] for i in ids]


# --- what is kept, as text ---------------------------------------------------------


def _moves_json(rated: Rated) -> str:
    return json.dumps(
        [
            [m.key, m.name, m.before.mu, m.before.sigma, m.after.mu, m.after.sigma]
            for m in rated.moves
        ],
        ensure_ascii=False,
    )


def _rated(pub: str, began: str, game: str, moves: str, ref: int = 0) -> Rated:
    return Rated(
        ref,
        pub,
        began,
        game,
        tuple(
            Move(key, name, Skill(mu0, s0), Skill(mu1, s1))
            for key, name, mu0, s0, mu1, s1 in json.loads(moves)
        ),
    )


def _games(found: list[League]) -> dict:
    """The leagues as kept (JSON): per game, a line per player, the best first."""
    return {
        league.game: [
            [s.key, s.name, s.skill.mu, s.skill.sigma, s.matches, s.change]
            for s in league.standings
        ]
        for league in found
    }


def _leagues(games: dict) -> list[League]:
    return [
        League(game, ranked(Standing(k, n, Skill(mu, s), m, c) for k, n, mu, s, m, c in lines))
        for game, lines in games.items()
    ]


@dataclass
class Overview:
    """What the players page shows: the leagues, and everyone."""

    leagues: list[League]
    names: list[str]  # everyone the browser's matches name, one spelling each, latest first
    years: list[int]  # the years its finished matches began in, the latest first


def _kept_row(db: Database, browser: str, season: Season) -> tuple[str, str, dict] | None:
    """A kept league: its fingerprint, its mark, and what it holds."""
    row = db.execute(
        "select mark, league from ratings where browser = ? and season = ?", [browser, season.key]
    ).fetchone()
    if row is None:
        return None
    fingerprint, _sp, mark = row[0].partition(" ")
    return fingerprint, mark, json.loads(row[1])


def _kept_marks(db: Database, browser: str) -> list[str]:
    return [
        r[0]
        for r in db.execute(
            "select mark from rating_moves where browser = ? order by pos", [browser]
        )
    ]


def _kept_moves(db: Database, browser: str, stop: int | None = None) -> list[Rated]:
    """The matches rated and kept for a browser, in order (the first ``stop``)."""
    rows = db.execute(
        "select pub, began, game, moves from rating_moves where browser = ? and pos < ? "
        "order by pos",
        [browser, len(_kept_marks(db, browser)) if stop is None else stop],
    )
    return [_rated(*row) for row in rows]


def _write(
    db: Database,
    browser: str,
    season: Season,
    mark: str,
    data: dict,
    fresh: list[Rated] | None = None,
    start: int = 0,
    rows: list[Row] | None = None,
) -> None:
    """Keep a league (``data``) under its mark and, all time, the matches
    ``fresh`` rated from position ``start`` on (``rows``: theirs), in place of
    those kept from there."""
    db.execute(
        "insert or replace into ratings (browser, season, mark, league) values (?, ?, ?, ?)",
        [browser, season.key, mark, json.dumps(data, ensure_ascii=False)],
    )
    if fresh is None:
        return
    db.execute("delete from rating_moves where browser = ? and pos >= ?", [browser, start])
    db.conn.executemany(
        "insert into rating_moves (browser, pos, mark, pub, began, game, moves) "
        "values (?, ?, ?, ?, ?, ?, ?)",
        [
            (browser, start + i, _match_mark(row), r.pub, r.began, r.game, _moves_json(r))
            for i, (r, row) in enumerate(zip(fresh, rows or []))
        ],
    )


def _current(db: Database, browser: str, season: Season) -> dict:
    """What is kept of a browser's league in the season, brought up to date
    (and kept again): ``games`` (``_games``), and all time ``names`` and ``years``."""
    fingerprint = _fingerprint(db, browser)
    kept = _kept_row(db, browser, season)
    if kept and kept[0] == fingerprint:
        return kept[2]
    refresh_list(db, browser)
    rows = _finished(db, browser, season)
    mark = _mark(rows)
    fresh, start = None, 0
    if kept and kept[1] == mark:
        data = {"games": kept[2]["games"]}  # only matches not over changed
    elif season != ALL_TIME:
        data = {"games": _games(leagues(rate(_results(db, rows))))}
    else:  # rate again from the first match that changed
        marks = [_match_mark(r) for r in rows]
        before = _kept_marks(db, browser)
        start = next((i for i, (a, b) in enumerate(zip(marks, before)) if a != b), len(marks))
        start = min(start, len(before))
        if kept and start == len(before):  # matches added after all kept: go on from its league
            so_far = _leagues(kept[2]["games"])
            fresh = rate(_results(db, rows[start:]), skills_of(so_far))
            data = {"games": _games(leagues(fresh, so_far))}
        else:
            kept_moves = _kept_moves(db, browser, start)
            fresh = rate(_results(db, rows[start:]), skills_after(kept_moves))
            data = {"games": _games(leagues([*kept_moves, *fresh]))}
    if season == ALL_TIME:
        data.update(names=_named(db, browser), years=_years(db, browser))
    with contextlib.suppress(sqlite3.OperationalError), writing(db):  # busy: the next read keeps it
        if _fingerprint(db, browser) == fingerprint:  # else changed meanwhile: not kept
            _write(db, browser, season, f"{fingerprint} {mark}", data, fresh, start, rows[start:])
    return data


def overview(db: Database, browser: str, season: Season = ALL_TIME) -> Overview:
    """The players page of a browser: the leagues of the season, and everyone."""
    if not browser:
        return Overview([], [], [])
    everything = _current(db, browser, ALL_TIME)
    games = everything if season == ALL_TIME else _current(db, browser, season)
    return Overview(_leagues(games["games"]), everything["names"], everything["years"])


def league(db: Database, browser: str, season: Season = ALL_TIME) -> list[League]:
    """A browser's league per game played in the season (the registry's order)."""
    if not browser:
        return []
    return _leagues(_current(db, browser, season)["games"])


def skills(db: Database, browser: str) -> Skills:
    """Each player's skill per game (all time), from the browser's league."""
    return skills_of(league(db, browser))


def moved(db: Database, browser: str, pub: str) -> Rated | None:
    """How a finished match moved each rating (all time), or None (not over,
    or not among this browser's matches)."""
    league(db, browser)  # what is kept is current
    row = db.execute(
        "select pub, began, game, moves from rating_moves where browser = ? and pub = ?",
        [browser, pub],
    ).fetchone()
    return _rated(*row) if row else None


def history(db: Database, browser: str, key: str) -> dict[str, list[Rated]]:
    """Per game, the matches a player (``record.name_key``) was rated in, in order."""
    league(db, browser)
    out: dict[str, list[Rated]] = {}
    needle = json.dumps(key, ensure_ascii=False)
    for row in db.execute(
        "select pub, began, game, moves from rating_moves "
        "where browser = ? and instr(moves, ?) order by pos",
        [browser, needle],
    ):
        rated = _rated(*row)
        if any(m.key == key for m in rated.moves):
            out.setdefault(rated.game, []).append(rated)
    return out


def _years(db: Database, browser: str) -> list[int]:
    """The years a browser's finished matches began in, the latest first."""
    return [
        int(r[0])
        for r in db.execute(
            f"select distinct substr(m.created, 1, 4) y {_SEEN} "
            "and json_extract(m.summary, '$.finished') and y glob '[0-9][0-9][0-9][0-9]' "
            "order by y desc",
            [browser],
        )
    ]


def _named(db: Database, browser: str) -> list[str]:
    """The players of the matches a browser sees, one spelling each (the latest)."""
    rows = db.execute(
        "select p.value, max(m.updated) u from matches m join browsers b on b.match_id = m.id, "
        "json_each(m.players) p where b.browser = ? and m.deleted is null and m.game != '' "
        "group by p.value order by u desc",
        [browser],
    )
    return names(Match("", {}, [name]) for name, _latest in rows)


def forget(db: Database) -> None:
    """Drop every kept rating (a restored database: only its entries are trusted)."""
    with writing(db):
        db.execute("delete from ratings")
        db.execute("delete from rating_moves")


def rebuild(db: Database) -> tuple[int, list[tuple[str, str]]]:
    """Rate every browser's matches afresh (each league it has kept, all time
    always) and keep that. Returns how many browsers there are, and (browser,
    the public id of the first match rated otherwise) for each whose kept
    ratings claimed to be current yet differed."""
    browsers = [r[0] for r in db.execute("select distinct browser from browsers order by browser")]
    differed = []
    for browser in browsers:
        refresh_list(db, browser)
        kept_seasons = [
            r[0] for r in db.execute("select season from ratings where browser = ?", [browser])
        ]
        for key in sorted({"", *kept_seasons}):
            differed += _rate_afresh(db, browser, _season(key))
    return len(browsers), differed


def _rate_afresh(db: Database, browser: str, season: Season) -> list[tuple[str, str]]:
    """Rate a browser's league in the season afresh and keep it; (browser, the
    first match whose kept rating differed) if what was kept was current yet
    differed. Rated outside the write lock; if a match changed meanwhile, again."""
    while True:
        fingerprint = _fingerprint(db, browser)
        rows = _finished(db, browser, season)
        mark = _mark(rows)
        fresh = rate(_results(db, rows))
        data = {"games": _games(leagues(fresh))}
        if season == ALL_TIME:
            data.update(names=_named(db, browser), years=_years(db, browser))
        with writing(db):
            if _fingerprint(db, browser) != fingerprint:
                continue  # changed meanwhile
            kept = _kept_row(db, browser, season)
            differed = []
            if kept is not None and kept[1] == mark:  # what was kept claimed to be current
                old = _kept_moves(db, browser) if season == ALL_TIME else []
                marks = _kept_marks(db, browser) if season == ALL_TIME else []
                moves_differ = season == ALL_TIME and (
                    marks != [_match_mark(r) for r in rows] or old != _plain(fresh)
                )
                if moves_differ or kept[2]["games"] != json.loads(json.dumps(data["games"])):
                    first = next((r.pub for r, f in zip(old, _plain(fresh)) if r != f), None)
                    differed.append((browser, first or (fresh[0].pub if fresh else "")))
            moves = fresh if season == ALL_TIME else None
            _write(db, browser, season, f"{fingerprint} {mark}", data, moves, 0, rows)
            return differed


def _plain(rated: Iterable[Rated]) -> list[Rated]:
    """As kept (without the store's number of each match)."""
    return [Rated(0, r.pub, r.began, r.game, r.moves) for r in rated]


def _season(key: str) -> Season:
    if key.startswith("from "):
        return Season.parse(start=key[5:])
    return Season.parse(year=key)
