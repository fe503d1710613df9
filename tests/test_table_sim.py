"""A table's evening, simulated (issue 20, item 4): phones that record the table's
deal N offline and online, with typos, refusals, lost answers and a server
restart, and scorers who answer the conflicts. The stored deals end as the
table played them, each once, and nothing typed is lost. The simulation is
tests/table_sim.py (bench/table_sim.py runs it for a million observations)."""

from __future__ import annotations

import random

import pytest

from scorer import store
from scorer.autoplay import play_match
from scorer.engine.players import RandomPlayer
from scorer.games import GAMES
from scorer.match import DealError, Match

from .conftest import trials
from .table_sim import Sim, canon, checked, invalid, rules_for, typo

# make test: 300 tables (about 4,100 observations, every game and kind of event;
# 13 s here); make stress: 5,000; bench/table_sim.py: a million observations
TABLES = trials(5_000, 300)


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    sim = Sim(str(tmp_path_factory.mktemp("table_sim") / "tables.db"))
    yield sim
    sim.close()


def test_every_game_gives_typos_the_rules_take_and_entries_they_refuse():
    """The simulation's typos are other valid entries for the deal; its invalid
    entries are refused: for every game and player count."""
    for game, cls in sorted(GAMES.items()):
        for n in cls.player_counts:
            rules = rules_for(game, n)
            rng = random.Random(f"{game}{n}")
            played = list(play_match(rules, [RandomPlayer()] * n, random.Random(n)))[:6]
            typos = bad = 0
            for pos, (plan, _played, true) in enumerate(played):
                wrong = typo(rules, plan, true, pos, rng)
                if wrong is not None:
                    typos += 1
                    assert checked(rules, wrong, plan) is not None
                    assert canon(wrong) != canon(true)
                refused = invalid(rules, plan, true, rng)
                if refused is not None:
                    bad += 1
                    assert checked(rules, refused, plan) is None
            assert typos and bad, (game, n, typos, bad)


def test_an_evening_at_hundreds_of_tables(sim):
    for seed in range(TABLES):
        sim.table(seed)
    c = sim.counts
    print("\n" + c.line())
    assert c.anomalies == []
    assert (c.lost, c.doubled, c.misnumbered) == (0, 0, 0)
    assert c.tables == TABLES and c.restarts == TABLES
    # the deals put right by hand where the choices could not (see the xfail case below):
    # rare; none in these seeds today
    assert c.hand_fixes <= TABLES // 200
    # every path was taken, many times
    for name in ("adds", "sames", "conflicts", "drafts", "gaps", "repeats", "keeps", "replaces"):
        assert getattr(c, name) > TABLES // 20, name
    # each observation ended as one of these (a draft's fix is one more)
    assert c.adds + c.sames + c.conflict_answers + c.drafts >= c.observations


# --- what the simulation found ---------------------------------------------------
#
# Slobberhannes, four players, to 10 (a deal gives 1 for the first trick, 1 for the
# last, 2 for the queen of clubs). One phone typed deals 3 and 4 wrong and saved
# them, and deal 5 after them; another phone then sent the true deals 3 and 4:
# two conflicts. With deal 3 put right and deal 4 still wrong, Ala reaches 10 at
# deal 4 (the match is over: deal 5 cannot stand); with deal 4 put right and
# deal 3 still wrong, Bartek does. Each "replace" is refused, in either order:
# the scorer's choices alone never reach the table's deals. The simulation meets
# it about once in 5,000 tables (13 in the bench's 73,360), with two wrong deals
# in a row or apart (Slobberhannes, Black Maria, Knaves: each to a target), and
# puts it right by hand: it deletes the later deals first.


def taken(first: int, last: int, queen: int) -> dict:
    return {"taken_by": {"first_trick": first, "last_trick": last, "QC": queen}}


D1, D2, D5 = taken(0, 0, 1), taken(1, 1, 0), taken(2, 2, 3)  # 4 4 0 0 after deal 2
D3, D4 = taken(0, 0, 0), taken(2, 2, 1)  # the table's: 8 6 2 0, then 8 6 4 2
WRONG3, WRONG4 = taken(1, 1, 1), taken(3, 3, 0)  # saved first: 6 8 0 2 after deal 4


@pytest.mark.parametrize("first", [3, 4])
def test_two_wrong_deals_in_a_row_are_put_right_by_the_scorers_choices(tmp_path, first):
    db = store.connect(str(tmp_path / "two_wrong.db"))
    store.schema.migrate(db)
    options = GAMES["slobberhannes"].normalize_options({}, 4)
    m = store.create(db, Match("slobberhannes", options, ["Ala", "Bartek", "Celina", "Darek"]))
    for number, entry in enumerate([D1, D2, WRONG3, WRONG4, D5], start=1):
        assert store.record_deal(db, m.id, number, entry).kind == "add"
    conflicts = {n: store.record_deal(db, m.id, n, e).conflict for n, e in ((3, D3), (4, D4))}
    # one deal put right alone ends the match before deal 5 (Ala or Bartek at 10):
    # refused, nothing changed
    with pytest.raises(DealError, match="the match is already over"):
        store.choose(db, m.id, conflicts[first], "replace")
    assert list(store.get(db, m.id).match.deals) == [D1, D2, WRONG3, WRONG4, D5]
    # both at once, as the choice page offers when two deals wait: the table's deals
    store.choose_together(db, m.id, [conflicts[first], conflicts[7 - first]])
    assert list(store.get(db, m.id).match.deals) == [D1, D2, D3, D4, D5]
    assert store.conflicts(db, store.get(db, m.id)) == []
    db.close()


def test_the_choice_page_offers_the_deals_that_wait_together(client):
    """The same two wrong deals through the pages: the choice of deal 3 offers
    deals 3 and 4 at once, and that puts the table's deals in."""
    players = ["Ala", "Bartek", "Celina", "Darek"]
    made = client.post(
        "/api/matches",
        json={"game": "slobberhannes", "players": players, "deals": [D1, D2, WRONG3, WRONG4, D5]},
    ).get_json()
    mid = made["id"]
    ids = {
        n: client.post(f"/api/matches/{mid}/deals?deal={n}", json=e).get_json()["conflict"]
        for n, e in ((3, D3), (4, D4))
    }
    page = client.get(f"/m/{mid}/choice/{ids[3]}").get_data(as_text=True)
    assert "Replace deals 3 and 4 with the other entries" in page
    assert f'name="ids" value="{ids[3]},{ids[4]}"' in page
    r = client.post(f"/m/{mid}/choice/{ids[3]}", data={"action": "replace", "key": "k1"})
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == [D1, D2, WRONG3, WRONG4, D5]
    r = client.post(
        f"/m/{mid}/choice/{ids[3]}",
        data={"action": "together", "ids": f"{ids[3]},{ids[4]}", "key": "k2"},
    )
    assert r.status_code == 302
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == [D1, D2, D3, D4, D5]
