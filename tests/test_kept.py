"""The one cache (scorer/store/kept.py): the standings a process folded lately,
held in memory, never a second truth. After any change they equal a fresh
fold of the entries; whatever changed the entries behind them (another
worker, a restore, a hand), the fold goes on from the first deal that
differs; ``flask --app scorer rebuild`` names a match whose summary differed."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import store
from scorer.autoplay import play_match
from scorer.engine.players import RandomPlayer
from scorer.games import GAMES, EntryError
from scorer.match import DealError, Match, fold
from scorer.store import kept as store_kept

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]


def pool(game: str, n: int, seed: int) -> list[dict]:
    """The entries of a whole match played by the engine (valid in this order;
    taken out of order, some are refused: a refused write must change nothing)."""
    cls = GAMES[game]
    rules = cls(cls.normalize_options({}, n), NAMES[:n])
    rng = random.Random(seed)
    return [entry for _plan, _played, entry in play_match(rules, [RandomPlayer()] * n, rng)]


def fresh(db, match_id: int):
    """The match as stored, folded from its entries alone (nothing held read)."""
    return fold(store.get(db, match_id).match)


def assert_kept_is_fresh(db, match_id: int) -> None:
    stored = store.get(db, match_id)
    truth = fold(stored.match)
    cached = store.standings(db, stored)
    assert store.standings(db, store.get(db, match_id)) is cached  # held: drawn once
    assert cached.kept == truth.kept
    assert cached.computed() == truth.computed()
    assert (cached.places, cached.next, cached.note) == (truth.places, truth.next, truth.note)
    for mine, theirs in zip(cached.rows, truth.rows):  # each row worked out from the kept state
        assert (mine.plan, mine.entry, mine.score, mine.totals) == (
            theirs.plan,
            theirs.entry,
            theirs.score,
            theirs.totals,
        )
    summary = json.loads(
        db.execute("select summary from matches where id = ?", [match_id]).fetchone()[0]
    )
    assert summary["totals"] == truth.totals and summary["deals"] == len(truth.kept)
    assert summary["finished"] == truth.finished and summary["winners"] == truth.winners


GAME_SEATS = [(game, min(cls.player_counts)) for game, cls in sorted(GAMES.items())]
POOLS = {(game, n): pool(game, n, 7) for game, n in GAME_SEATS}

ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "add", "add", "edit", "delete", "undo"]),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
    ),
    min_size=1,
    max_size=14,
)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("kept") / "kept.db"
    conn = store.connect(str(path))
    store.schema.migrate(conn)
    yield conn
    conn.close()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(GAME_SEATS), ops)
def test_after_any_change_what_is_kept_is_a_fresh_fold(db, game_seats, steps):
    game, n = game_seats
    entries = POOLS[game_seats]
    cls = GAMES[game]
    match = Match(game, cls.normalize_options({}, n), NAMES[:n], 0, [])
    match_id = store.create(db, match).id
    events = []
    for kind, a, b in steps:
        count = len(store.get(db, match_id).deal_ids)
        try:
            if kind == "add":
                change = store.add_deal(db, match_id, entries[min(count, len(entries) - 1)])
            elif kind == "edit" and count:
                change = store.edit_deal(db, match_id, a % count + 1, entries[b % len(entries)])
            elif kind == "delete" and count:
                change = store.delete_deal(db, match_id, a % count + 1)
            elif kind == "undo" and events:
                change = store.undo(db, match_id, events[a % len(events)])
            else:
                continue
        except (DealError, EntryError, store.StoreError):
            pass  # refused: nothing changed, and what is kept must still hold
        else:
            events.append(change.event)
            assert change.computed == fresh(db, match_id).computed()
        assert_kept_is_fresh(db, match_id)


def match_of(db, deals: int = 6) -> int:
    entries = POOLS[("black_maria", 3)][:deals]
    cls = GAMES["black_maria"]
    match = Match("black_maria", cls.normalize_options({}, 3), NAMES[:3], 0, entries)
    return store.create(db, match).id


def test_a_match_not_held_is_folded_from_deal_1_once(db):
    match_id = match_of(db)
    store.forget_recent()  # as another process reads it
    first = store.standings(db, store.get(db, match_id))
    assert first.folded_from == 0  # nothing held: folded from deal 1
    assert first.kept == fresh(db, match_id).kept
    assert store.standings(db, store.get(db, match_id)) is first  # and held
    assert_kept_is_fresh(db, match_id)


def test_entries_changed_behind_what_is_held_are_folded_from_the_first_that_differs(db):
    """A hand in the sqlite3 shell (no version moved, nothing forgotten): what is
    held is checked against the entries, not trusted by the version."""
    match_id = match_of(db)
    held = store.standings(db, store.get(db, match_id))
    stored = store.get(db, match_id)
    db.execute(
        "update deals set entry = ? where id = ?",
        [json.dumps(POOLS[("black_maria", 3)][4]), stored.deal_ids[5]],
    )
    db.conn.commit()
    now = store.standings(db, store.get(db, match_id))
    assert now is not held and now.folded_from == 5  # deals 1–5 as held, deal 6 folded
    truth = fresh(db, match_id)
    assert now.kept == truth.kept and now.computed() == truth.computed()
    # (a read never writes: the summary a hand left stale is mended by `rebuild`)


def test_what_is_held_of_other_players_or_options_is_not_read(db):
    match_id = match_of(db)
    before = store.standings(db, store.get(db, match_id))
    db.execute("update matches set players = ? where id = ?", ['["Xena", "Yuri", "Zoe"]', match_id])
    db.conn.commit()
    now = store.standings(db, store.get(db, match_id))
    assert now is not before and now.folded_from == 0
    assert now.computed() == fresh(db, match_id).computed()
    options = store.get(db, match_id).match.options
    change = store.change_setup(db, match_id, ["Ala", "Bartek", "Celina"], options)
    assert change.standings.folded_from == 0
    assert_kept_is_fresh(db, match_id)


def test_adding_a_deal_folds_that_deal_only(db, monkeypatch):
    match_id = match_of(db, 5)
    store.standings(db, store.get(db, match_id))  # the sheet, drawn before the deal is added
    stepped = []
    real = store.kept.fold

    def counting(match, kept=()):
        result = real(match, kept)
        stepped.append(len(match.deals) - len(kept))
        return result

    monkeypatch.setattr(store.kept, "fold", counting)  # the kept standings fold there
    monkeypatch.setattr(store.writes, "fold", counting)  # and an edit
    monkeypatch.setattr(
        "scorer.match.fold", counting
    )  # checked_entry folds through the module's name
    store.add_deal(db, match_id, POOLS[("black_maria", 3)][5])
    assert stepped == [1]  # deal 6 alone, from what deal 5 kept
    stepped.clear()
    store.edit_deal(db, match_id, 4, POOLS[("black_maria", 3)][3])
    assert stepped == [3]  # deals 4, 5, 6
    stepped.clear()
    store.standings(db, store.get(db, match_id))
    assert stepped == []  # the sheet folds nothing: the edit's standings are held


def test_rebuild_names_a_match_whose_summary_differed(app, runner):
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        good, bad = match_of(db), match_of(db)
        # one match's summary says the wrong totals, still marked as this code's
        summary = json.loads(
            db.execute("select summary from matches where id = ?", [bad]).fetchone()[0]
        )
        summary["totals"] = [t + 1 for t in summary["totals"]]
        db.execute("update matches set summary = ? where id = ?", [json.dumps(summary), bad])
        db.conn.commit()
        pub = store.get(db, bad).pub
        db.close()
    result = runner.invoke(args=["rebuild"])
    assert result.exit_code == 1
    assert f"{pub}: its summary differed from a fresh fold" in result.output
    assert "2 matches folded afresh; 1 differed" in result.output
    assert store.get(store.connect(app.config["DATABASE"]), good).pub not in result.output
    again = runner.invoke(args=["rebuild"])  # mended: all agree now
    assert again.exit_code == 0 and "0 differed" in again.output


def test_a_worker_folds_on_from_what_it_held_after_another_workers_changes(db):
    """A worker that folded a match folds, after other workers' changes of every
    kind, from the first deal whose entry differs from what it held: the same
    standings as a fresh fold, and its writes too."""
    deals = POOLS[("black_maria", 3)]
    match_id = match_of(db, 4)
    store.standings(db, store.get(db, match_id))  # this worker has folded it

    def meanwhile(change, first):
        """``change`` made by another worker: this one holds only what it held,
        and folds from deal ``first + 1`` (None: nothing, it holds them as they are)."""
        mine = dict(store_kept.FOLDS.items)
        held = store.standings(db, store.get(db, match_id))
        change()
        store.forget_recent()
        store_kept.FOLDS.items.update(mine)
        st_ = store.standings(db, store.get(db, match_id))
        if first is None:
            assert st_ is held
        else:
            assert st_.folded_from == first and st_ is not held
        assert st_.kept == fresh(db, match_id).kept

    meanwhile(lambda: store.add_deal(db, match_id, deals[4]), 4)
    meanwhile(lambda: store.edit_deal(db, match_id, 2, deals[5]), 1)
    deleted = store.delete_deal(db, match_id, 2)
    meanwhile(lambda: None, None)
    meanwhile(lambda: store.undo(db, match_id, deleted.event), 1)  # deal 2 back in its place
    meanwhile(lambda: store.delete_deal(db, match_id, 5), 4)  # the last
    meanwhile(
        lambda: (store.add_deal(db, match_id, deals[4]), store.delete_deal(db, match_id, 1)), 0
    )
    mine = dict(store_kept.FOLDS.items)
    third = store.get(db, match_id).match.deals[2]
    store.edit_deal(db, match_id, 2, third)  # another worker's write, then this worker's
    store.forget_recent()
    store_kept.FOLDS.items.update(mine)
    change = store.add_deal(db, match_id, deals[5])
    assert change.standings.folded_from == 1  # from deal 2, which it held otherwise
    assert change.computed == fresh(db, match_id).computed()
    assert_kept_is_fresh(db, match_id)


def test_nothing_of_a_cache_is_in_the_database(tmp_path):
    """No pickle, code stamp, change number, list stamp or generation: m013 drops
    them; the summary the lists read stays, and the index of the home page's order."""
    conn = store.connect(str(tmp_path / "fresh.db"))
    store.schema.migrate(conn)
    assert "kept" not in conn["deals"].columns_dict and "seq" not in conn["deals"].columns_dict
    assert {"kept", "points"}.isdisjoint(conn["matches"].columns_dict)
    assert "summary" in conn["matches"].columns_dict
    assert "browser_lists" not in conn.table_names()
    found = {
        r[0]: r[1]
        for r in conn.execute("select name, type from sqlite_master where type != 'table'")
    }
    assert {"deals_seq", "deals_unwhole", "deals_whole"}.isdisjoint(found)
    assert {n for n, t in found.items() if t == "trigger"} == {"browsers_listed", "matches_listed"}
    assert "browsers_latest" in found
    assert conn.execute("pragma user_version").fetchone()[0] == 0
    conn.close()


def test_a_database_the_caches_wrote_keeps_its_entries_and_drops_the_caches(tmp_path):
    """A database as the store left it before m013 (a pickle a deal, change
    numbers, a code stamp, a list's stamp): its entries read as they were, its
    summary written afresh when listed, its home page order still copied."""
    conn = store.connect(str(tmp_path / "old.db"))
    conn.enable_wal()
    store.schema.migrations.apply(conn, stop_before="m013_one_cache")
    entries = POOLS[("black_maria", 3)][:2]
    options = GAMES["black_maria"].normalize_options({}, 3)
    match_id = (
        conn["matches"]
        .insert(
            {
                "game": "black_maria",
                "options": json.dumps(options),
                "players": json.dumps(NAMES[:3]),
                "first_dealer": 0,
                "created": "2026-12-01T20:00:00+00:00",
                "updated": "2026-12-01T20:00:00+00:00",
                "version": 3,
                "pub": "oldmatch1",
                "edit_key": "k",
                "legacy": 0,
                "kept": "0123456789abcdef:3",
                "summary": json.dumps({"deals": 2, "totals": [0, 0, 0], "finished": False}),
                "points": "[[0,0,0],[0,0,0]]",
            }
        )
        .last_pk
    )
    for pos, entry in enumerate(entries, start=1):
        conn["deals"].insert(
            {"match_id": match_id, "pos": pos, "rev": 1, "entry": json.dumps(entry), "kept": b"x"}
        )
    conn["browsers"].insert({"browser": "b" * 32, "match_id": match_id, "role": "score", "at": ""})
    conn.conn.commit()
    assert conn.execute("select count(*) from browser_lists").fetchone()[0] == 1
    store.schema.migrate(conn)
    assert {"kept", "seq"}.isdisjoint(conn["deals"].columns_dict)
    assert {"kept", "points"}.isdisjoint(conn["matches"].columns_dict)
    stored = store.get(conn, match_id)
    assert list(stored.match.deals) == entries and stored.version == 3
    truth = fold(stored.match)
    (listed,), total = store.summaries(conn, "b" * 32)
    assert total == 1 and listed.readable
    assert (listed.deals, listed.totals) == (2, truth.totals)  # written afresh, not the old
    conn.execute(
        "update matches set updated = ? where id = ?", ["2026-12-02T20:00:00+00:00", match_id]
    )
    conn.conn.commit()
    assert conn.execute("select updated from browsers").fetchone()[0].startswith("2026-12-02")
    conn.close()
