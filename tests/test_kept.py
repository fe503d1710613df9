"""The kept fold (issue 11): what the store keeps of each deal is a cache of the
fold, never a second truth. After any change it equals a fresh fold of the
entries; missing or stale, it is folded afresh; ``flask --app scorer rebuild``
names a match whose kept figures differed."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import store
from scorer.autoplay import play_match
from scorer.engine.players import RandomPlayer
from scorer.games import GAMES, EntryError
from scorer.match import DealError, KeptList, Match, fold

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]


def pool(game: str, n: int, seed: int) -> list[dict]:
    """The entries of a whole match played by the engine (valid in this order;
    taken out of order, some are refused: a refused write must change nothing)."""
    cls = GAMES[game]
    rules = cls(cls.normalize_options({}, n), NAMES[:n])
    rng = random.Random(seed)
    return [entry for _plan, _played, entry in play_match(rules, [RandomPlayer()] * n, rng)]


def fresh(db, match_id: int):
    """The match as stored, folded from its entries alone (nothing kept read, nothing
    this process read lately)."""
    return fold(store.get(db, match_id, recent=False).match)


def assert_kept_is_fresh(db, match_id: int) -> None:
    stored = store.get(db, match_id)  # as this process read it lately, if it did
    read = store.get(db, match_id, recent=False)  # from the database
    assert (stored.version, stored.deal_ids, stored.revs) == (
        read.version,
        read.deal_ids,
        read.revs,
    )
    assert list(stored.match.deals) == list(read.match.deals)
    truth = fold(read.match)
    cached = store.standings(db, stored)
    assert cached.folded_from == len(truth.kept)  # read from what is kept, nothing folded
    assert store.standings(db, stored) is cached  # and drawn once for this version
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


def test_a_missing_cache_is_folded_afresh_and_kept(db):
    match_id = match_of(db)
    db.execute("update deals set kept = null where match_id = ?", [match_id])
    db.conn.commit()
    store.forget_recent()  # as another process reads it
    first = store.standings(db, store.get(db, match_id))
    assert first.folded_from == 0  # nothing kept: folded from deal 1
    assert first.kept == fresh(db, match_id).kept
    store.forget_recent()  # another process, or this one once it has forgotten it
    again = store.standings(db, store.get(db, match_id))
    assert again.folded_from == 6  # and kept: the next read folds nothing
    assert_kept_is_fresh(db, match_id)


def test_a_cache_made_by_other_code_or_another_version_is_not_read(db):
    match_id = match_of(db)
    wrong = pickle.dumps(fresh(db, match_of(db, 2)).kept[0], pickle.HIGHEST_PROTOCOL)
    db.execute("update deals set kept = ? where match_id = ?", [wrong, match_id])
    for stamp in ("0123456789abcdef:1", f"{store.STAMP}:99"):
        db.execute("update matches set kept = ? where id = ?", [stamp, match_id])
        db.conn.commit()
        st_ = store.standings(db, store.get(db, match_id))
        assert st_.folded_from == 0 and st_.kept == fresh(db, match_id).kept
        db.execute("update deals set kept = ? where match_id = ?", [wrong, match_id])
    db.conn.commit()


def test_a_cache_that_cannot_be_read_is_folded_afresh(db):
    match_id = match_of(db)
    db.execute("update deals set kept = x'00ff' where match_id = ?", [match_id])
    db.conn.commit()
    st_ = store.standings(db, store.get(db, match_id))
    assert st_.folded_from == 0 and st_.kept == fresh(db, match_id).kept


def test_adding_a_deal_folds_that_deal_only(db, monkeypatch):
    match_id = match_of(db, 5)
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
    assert stepped == [0]  # the sheet folds nothing


def test_rebuild_names_a_match_whose_kept_figures_differed(app, runner):
    with app.app_context():
        db = store.connect(app.config["DATABASE"])
        good, bad = match_of(db), match_of(db)
        # deal 3 of one match keeps the wrong figures, still marked current
        row = db.execute(
            "select id, kept from deals where match_id = ? order by pos limit 1 offset 2", [bad]
        ).fetchone()
        wrong = pickle.loads(row[1])
        wrong.totals = [t + 1 for t in wrong.totals]
        db.execute(
            "update deals set kept = ? where id = ?",
            [pickle.dumps(wrong, pickle.HIGHEST_PROTOCOL), row[0]],
        )
        db.conn.commit()
        pub = store.get(db, bad).pub
        db.close()
    result = runner.invoke(args=["rebuild"])
    assert result.exit_code == 1
    assert f"{pub}: kept figures differed from deal 3" in result.output
    assert "2 matches folded afresh; 1 differed" in result.output
    assert store.get(store.connect(app.config["DATABASE"]), good).pub not in result.output
    again = runner.invoke(args=["rebuild"])  # mended: all agree now
    assert again.exit_code == 0 and "0 differed" in again.output


def test_a_kept_list_read_lazily_gives_each_deal_once_and_its_points_in_order():
    """A write's KeptList reads pickles only when the fold reads them, a chunk
    at a time; a slice, a prefix, the points and the index bounds are those of
    the deals themselves."""
    deals = pool("hearts", 4, 1)  # 14 deals
    n = len(deals)
    options = GAMES["hearts"].normalize_options({}, 4)
    truth = fold(Match("hearts", options, NAMES[:4], 0, deals)).kept
    assert n >= 9
    blobs = [pickle.dumps(k, pickle.HIGHEST_PROTOCOL) for k in truth]
    asked = []

    def load(first, stop):
        asked.append((first, stop))
        return blobs[first:stop]

    def lazy(text_n):
        kept = KeptList([None] * n, load=load, text=json.dumps(points[:text_n]))
        kept.CHUNK = 4
        return kept

    points = [k.points for k in truth]
    kept = lazy(n - 1)  # a kept text one deal short
    last = (n - 1) - (n - 1) % 4
    assert kept[-1] == truth[n - 1] and asked == [(last, n)]
    assert kept[1] == truth[1] and asked == [(last, n), (0, 4)]
    assert kept[5:7] == truth[5:7] and kept[::-4][:2] == [truth[n - 1], truth[n - 5]]
    with pytest.raises(IndexError):
        kept[-n - 1]
    with pytest.raises(IndexError):
        kept[n]
    assert len(set(asked)) == len(asked)  # nothing read twice
    # the text did not hold every deal: the points are the deals' own all the same
    assert kept.all_points() == points and json.loads(kept.points_json()) == points
    prefix = KeptList.of(lazy(n), 5)
    assert json.loads(prefix.points_json()) == points[:5] and prefix == truth[:5]
    grown = KeptList.of(lazy(n), n)
    grown.append(truth[0])  # any Kept: what matters is that its points follow the text
    text = grown.points_json()
    assert json.loads(text) == points + [truth[0].points]
    assert text.startswith(json.dumps(points)[:-1])  # the kept text, the new points after it
    # a kept text that does not hold as many deals as the store says is not used
    short = KeptList(list(truth[:3]), text=json.dumps(points[:2]))
    assert json.loads(short.points_json()) == points[:3]


def test_a_worker_reads_the_deals_another_worker_changed_since_it_last_read(db):
    """A worker that read a match reads, after other workers' changes of every
    kind, the rows changed since (by their change number): the same deals,
    revisions and entries as a fresh read, and its writes keep a fresh fold."""
    from scorer.store import kept as store_kept  # noqa: PLC0415
    from scorer.store import stored as store_stored  # noqa: PLC0415

    deals = POOLS[("black_maria", 3)]
    match_id = match_of(db, 4)
    store.get(db, match_id)  # this worker has read it

    def meanwhile(change):
        """``change`` made by another worker: this one keeps only what it read."""
        mine = dict(store_stored.LATEST.items)
        change()
        store.forget_recent()
        store_stored.LATEST.items.update(mine)
        stored = store.get(db, match_id)
        read = store.get(db, match_id, recent=False)
        assert (stored.deal_ids, stored.revs) == (read.deal_ids, read.revs)
        assert list(stored.match.deals) == list(read.match.deals)
        store_kept.RECENT.items.clear()

    meanwhile(lambda: store.add_deal(db, match_id, deals[4]))
    meanwhile(lambda: store.edit_deal(db, match_id, 2, deals[1]))
    deleted = store.delete_deal(db, match_id, 2)
    meanwhile(lambda: None)
    meanwhile(lambda: store.undo(db, match_id, deleted.event))  # deal 2 back in its place
    meanwhile(lambda: store.delete_deal(db, match_id, 5))  # the last
    meanwhile(lambda: (store.add_deal(db, match_id, deals[4]), store.delete_deal(db, match_id, 1)))
    change = store.add_deal(db, match_id, deals[5])  # a write of this worker's after all that
    assert change.computed == fresh(db, match_id).computed()
    assert_kept_is_fresh(db, match_id)


def test_no_index_is_kept_up_to_date_for_nothing(tmp_path):
    # m009's index of the whole kept folds is read by nothing since m010 (the
    # deals not whole are found from an index of those alone): m012 drops it
    conn = store.connect(str(tmp_path / "fresh.db"))
    store.schema.migrate(conn)
    indexes = {r[0] for r in conn.execute("select name from sqlite_master where type = 'index'")}
    assert "deals_unwhole" in indexes
    assert "deals_whole" not in indexes
    conn.close()
