"""The table's deal N (issue 20): a phone's entry names the deal it records. The
next deal is stored; a stored deal entered again, the same, is that deal (never
stored twice); one that differs is a conflict kept for a scorer's choice; a deal
after the next waits (Gap). Numbers worked by hand from RULES.md (Black Maria,
three players: a heart 1, Q♠ 13, K♠ 10, A♠ 7; 13 hearts and 43 points a deal)."""

from __future__ import annotations

import contextlib
import json
import re

import pytest

from scorer import store
from scorer.games import GAMES
from scorer.match import DealError, Match, fold

NAMES = ["Ala", "Bartek", "Celina"]
# deal 1: Ala 4 hearts + Q♠ = 17; Bartek 6 + K♠ + A♠ = 23; Celina 3
ONE = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
# the same deal typed on another phone (field order aside)
ONE_AGAIN = {"taken_by": {"AS": 1, "KS": 1, "QS": 0}, "hearts": [4, 6, 3]}
# a typo: Bartek 5 hearts, Celina 4 → 17, 22, 4
ONE_TYPO = {"hearts": [4, 5, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
# deal 2: Ala 0, Bartek 5 + A♠ = 12, Celina 8 + Q♠ + K♠ = 31
TWO = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 1}}
THREE = {"hearts": [13, 0, 0], "taken_by": {"QS": 1, "KS": 1, "AS": 1}}


@pytest.fixture
def db(tmp_path):
    conn = store.connect(str(tmp_path / "deal_n.db"))
    store.schema.migrate(conn)
    yield conn
    conn.close()


def stored_match(db) -> store.Stored:
    """A Black Maria match of Ala, Bartek and Celina put straight in the store."""
    options = GAMES["black_maria"].normalize_options({"players": 3}, 3)
    match = Match("black_maria", options, NAMES, 0, [])
    return store.create(db, match)


def deals_of(db, stored) -> list[dict]:
    return list(store.get(db, stored.id).match.deals)


def kinds(db, stored) -> list[str]:
    return [e["kind"] for e in store.events(db, stored.id)]


def test_the_next_deal_is_stored_under_its_number(db):
    m = stored_match(db)
    change = store.record_deal(db, m.id, 1, ONE)
    assert (change.kind, change.number) == ("add", 1)
    assert change.computed["per_deal"] == [[17, 23, 3]]
    change = store.record_deal(db, m.id, 2, TWO)
    assert change.computed["totals"] == [17, 35, 34]
    assert deals_of(db, m) == [ONE, TWO]


def test_the_same_deal_from_another_phone_is_one_deal(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    change = store.record_deal(db, m.id, 1, ONE_AGAIN)
    assert (change.kind, change.number) == ("same", 1)
    assert change.computed["totals"] == [17, 23, 3]
    assert deals_of(db, m) == [ONE]
    assert kinds(db, m) == ["create", "add", "same"]  # the history says it came again


def test_a_different_entry_for_a_stored_deal_is_kept_for_a_choice(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    change = store.record_deal(db, m.id, 1, ONE_TYPO)
    assert (change.kind, change.number) == ("conflict", 1)
    assert deals_of(db, m) == [ONE]  # nothing stored over it
    (open_,) = store.conflicts(db, store.get(db, m.id))
    assert open_["id"] == change.conflict
    assert (open_["number"], open_["entry"], open_["stored"]) == (1, ONE_TYPO, ONE)
    # the same typo again (a retry with another key, a third phone): one conflict
    again = store.record_deal(db, m.id, 1, ONE_TYPO)
    assert again.conflict == change.conflict
    assert kinds(db, m) == ["create", "add", "conflict"]
    history = store.history(db, m.id)
    assert history[-1]["entry"] == ONE_TYPO and history[-1]["before"] == ONE


@pytest.mark.parametrize(
    ("choice", "after", "totals"),
    [
        ("keep", [ONE], [17, 23, 3]),
        ("replace", [ONE_TYPO], [17, 22, 4]),
        ("next", [ONE, ONE_TYPO], [34, 45, 7]),
    ],
)
def test_a_scorer_chooses(db, choice, after, totals):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    cid = store.record_deal(db, m.id, 1, ONE_TYPO).conflict
    change = store.choose(db, m.id, cid, choice)
    assert change.computed["totals"] == totals
    assert deals_of(db, m) == after
    assert store.conflicts(db, store.get(db, m.id)) == []
    with pytest.raises(store.Stale):  # chosen once: another phone's tap changes nothing
        store.choose(db, m.id, cid, "replace")
    assert deals_of(db, m) == after


def test_mine_as_the_next_deal_only_while_the_next_deal_is_empty(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    cid = store.record_deal(db, m.id, 1, ONE_TYPO).conflict
    store.record_deal(db, m.id, 2, TWO)
    with pytest.raises(store.Stale):
        store.choose(db, m.id, cid, "next")
    assert deals_of(db, m) == [ONE, TWO]


def test_a_deal_after_the_next_waits_for_the_ones_before(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    with pytest.raises(store.Gap) as e:
        store.record_deal(db, m.id, 3, THREE)
    assert e.value.number == 2
    assert deals_of(db, m) == [ONE]


def test_an_entry_the_rules_refuse_changes_nothing(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    bad = {"hearts": [4, 6, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}  # 14 hearts
    for number in (1, 2):
        with pytest.raises(DealError):
            store.record_deal(db, m.id, number, bad)
    assert deals_of(db, m) == [ONE] and kinds(db, m) == ["create", "add"]


def test_a_page_drawn_before_a_delete_numbers_from_the_deal_it_saw(db):
    """Drawn after deal 2 (its mark names deal 2); deal 1 deleted since: the page's
    deal 3 is the deal after that deal 2, now deal 2."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, TWO)
    anchor = store.get(db, m.id).next_mark()
    store.delete_deal(db, m.id, 1)
    change = store.record_deal(db, m.id, 3, THREE, anchor=anchor)
    assert (change.kind, change.number) == ("add", 2)
    assert deals_of(db, m) == [TWO, THREE]


def test_a_repeat_with_the_same_key_answers_as_the_first(db):
    m = stored_match(db)
    first = store.record_deal(db, m.id, 1, ONE, key="k1")
    second = store.record_deal(db, m.id, 1, ONE, key="k1")
    assert second.repeat and (second.kind, second.number) == (first.kind, first.number)
    assert second.computed == first.computed
    assert kinds(db, m) == ["create", "add"]
    c1 = store.record_deal(db, m.id, 1, ONE_TYPO, key="k2")
    c2 = store.record_deal(db, m.id, 1, ONE_TYPO, key="k2")
    assert (c2.kind, c2.conflict) == ("conflict", c1.conflict)


def test_an_edit_of_a_deal_deleted_meanwhile_brings_it_back_with_the_entry(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, TWO)
    seen = store.get(db, m.id)
    mark = seen.deal_mark(1)
    store.delete_deal(db, m.id, 1)
    with pytest.raises(store.Stale) as e:
        store.edit_deal(db, m.id, 1, ONE_TYPO, mark=mark)
    assert e.value.deal_id == seen.deal_ids[0] and e.value.number is None
    gone = store.deleted_deal(db, store.get(db, m.id), e.value.deal_id)
    assert (gone["number"], gone["entry"]) == (1, ONE)
    change = store.revive_deal(db, m.id, e.value.deal_id, ONE_TYPO)
    assert (change.kind, change.number) == ("restore", 1)
    assert deals_of(db, m) == [ONE_TYPO, TWO]
    assert change.computed["totals"] == [17, 34, 35]  # 17+0, 22+12, 4+31
    undo = store.undo(db, m.id, change.event)  # Undo deletes it again
    assert undo.kind == "delete" and deals_of(db, m) == [TWO]


def test_the_kept_fold_stays_the_fold_after_same_and_conflicts(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 1, ONE)
    cid = store.record_deal(db, m.id, 1, ONE_TYPO).conflict
    store.record_deal(db, m.id, 2, TWO)
    chosen = store.choose(db, m.id, cid, "replace")
    stored = store.get(db, m.id)
    kept = store.standings(db, stored)
    assert kept is chosen.standings  # what the write folded, held: nothing folded again
    assert kept.computed() == fold(stored.match).computed()
    assert json.loads(kept.computed_json())["totals"] == [17, 34, 35]


# --- the API: ?deal=N -------------------------------------------------------------


def api_match(client) -> str:
    r = client.post(
        "/api/matches",
        json={"game": "black_maria", "players": NAMES, "options": {"players": 3}, "deals": []},
    )
    assert r.status_code == 201
    return r.get_json()["id"]


def test_the_api_names_the_deal_and_gets_the_same_answers(client):
    mid = api_match(client)
    url = f"/api/matches/{mid}/deals"
    r = client.post(url + "?deal=1", json=ONE)
    assert r.status_code == 201 and r.get_json()["totals"] == [17, 23, 3]
    r = client.post(url + "?deal=1", json=ONE_AGAIN)
    assert r.status_code == 200
    assert r.get_json() == {"deal": 1, "same": True, "computed": r.get_json()["computed"]}
    assert r.get_json()["computed"]["totals"] == [17, 23, 3]
    r = client.post(url + "?deal=1", json=ONE_TYPO)
    assert r.status_code == 409
    body = r.get_json()
    assert (body["deal"], body["stored"], body["yours"]) == (1, ONE, ONE_TYPO)
    assert "both entries are kept" in body["error"]
    r = client.post(url + "?deal=3", json=THREE)
    assert r.status_code == 409 and r.get_json()["next"] == 2
    for bad in ("0", "x", "-1", "²"):
        assert client.post(url + f"?deal={bad}", json=TWO).status_code == 400
    # a client that posts as before: the next deal, whatever its number
    r = client.post(url, json=TWO)
    assert r.status_code == 201 and r.get_json()["totals"] == [17, 35, 34]
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == [ONE, TWO]


def test_keeping_the_stored_deal_can_be_undone_and_the_choice_waits_again(db):
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    cid = store.record_deal(db, m.id, 1, ONE_TYPO).conflict
    kept = store.choose(db, m.id, cid, "keep")
    (line,) = [x for x in store.history(db, m.id) if x["kind"] == "keep"]
    assert line["undoable"] and line["entry"] == ONE and line["before"] == ONE_TYPO
    undone = store.undo(db, m.id, kept.event)
    assert (undone.kind, undone.number, undone.conflict) == ("reopen", 1, cid)
    (waiting,) = store.conflicts(db, store.get(db, m.id))
    assert waiting["id"] == cid and waiting["entry"] == ONE_TYPO
    assert not [x for x in store.history(db, m.id) if x["kind"] == "keep"][0]["undoable"]
    # chosen again, the other way: deal 1 as the other phone had it (17, 22, 4)
    assert store.choose(db, m.id, cid, "replace").computed["totals"] == [17, 22, 4]


def test_a_page_drawn_before_its_last_deal_was_undone_waits_for_the_table(db):
    """Drawn after deal 2, and deal 2 itself deleted since (an Undo on another phone,
    to enter it again): the page's deal 3 is not moved into deal 2's place unasked
    (the table's deal 3 stored as deal 2 put every later dealer one deal behind);
    it is refused as Undone, nothing stored. Deal 2 entered again, it is deal 3; or
    saved from a page drawn now, deal 2."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, ONE_TYPO)
    anchor = store.get(db, m.id).next_mark()
    store.delete_deal(db, m.id, 2)
    with pytest.raises(store.Undone) as refused:
        store.record_deal(db, m.id, 3, THREE, anchor=anchor)
    assert (refused.value.number, refused.value.typed) == (2, 3)
    assert refused.value.message == "deal 2 was deleted on another phone after this was typed."
    assert deals_of(db, m) == [ONE]
    # deal 2 entered again on the other phone: the page's deal 3 is deal 3
    store.record_deal(db, m.id, 2, TWO)
    change = store.record_deal(db, m.id, 3, THREE, anchor=anchor)
    assert (change.kind, change.number) == ("add", 3)
    assert deals_of(db, m) == [ONE, TWO, THREE]
    # deal 3: Ala 13 hearts, Bartek Q♠ K♠ A♠ 30: 17+0+13, 23+12+30, 3+31+0
    assert change.computed["totals"] == [30, 65, 34]


def test_a_deal_entered_in_the_place_of_one_undone_is_that_deal_when_the_same(db):
    """Deal 2 undone, and the table's deal 2 entered in its place; a page drawn
    before the Undo sends what it typed as deal 3, and it says what the deal
    entered in deal 2's place says: that deal (the one undone was entered twice),
    said the same, not stored twice. (Said otherwise, it is the deal after it, as
    when deal 2 was undone to be put right: above.)"""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, ONE)  # deal 1 again, by mistake
    anchor = store.get(db, m.id).next_mark()
    store.delete_deal(db, m.id, 2)  # the Undo
    store.record_deal(db, m.id, 2, TWO)
    change = store.record_deal(db, m.id, 3, TWO, anchor=anchor)
    assert (change.kind, change.number) == ("same", 2)
    assert deals_of(db, m) == [ONE, TWO]


def test_a_deal_undone_as_entered_twice_is_replaced_from_a_page_drawn_now(db):
    """The other reading: deal 2 was the same deal entered twice and deleted; the
    phone's deal 3 is put right on a page drawn now (its mark), as deal 2."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, TWO)
    anchor = store.get(db, m.id).next_mark()
    store.delete_deal(db, m.id, 2)
    with pytest.raises(store.Undone):
        store.record_deal(db, m.id, 3, THREE, anchor=anchor)
    change = store.record_deal(db, m.id, 2, THREE, anchor=store.get(db, m.id).next_mark())
    assert (change.kind, change.number) == ("add", 2)
    assert deals_of(db, m) == [ONE, THREE]
    # the deal typed after it on that page, as deal 4: still after the deleted deal 2
    with pytest.raises(store.Undone) as refused:
        store.record_deal(db, m.id, 4, ONE_TYPO, anchor=anchor)
    assert (refused.value.gone, refused.value.number, refused.value.typed) == (2, 3, 4)
    assert refused.value.message == "deal 2 was deleted on another phone after this was typed."


def test_a_deal_deleted_before_the_pages_last_moves_its_deals_up(db):
    """Drawn after deal 3; deal 2 (entered twice) deleted since, and deal 3 not: the
    page's deal 4 follows that deal 3, now deal 3."""
    m = stored_match(db)
    for n, deal in enumerate((ONE, TWO, TWO), 1):  # deal 2 entered twice, as 2 and 3
        store.record_deal(db, m.id, n, deal)
    anchor = store.get(db, m.id).next_mark()
    store.delete_deal(db, m.id, 2)
    change = store.record_deal(db, m.id, 4, THREE, anchor=anchor)
    assert (change.kind, change.number) == ("add", 3)
    assert deals_of(db, m) == [ONE, TWO, THREE]


def test_an_edit_sent_again_after_it_met_a_change_gets_the_same_choice(client):
    """The answer to an edit kept for a choice was lost; the phone sends it again
    under the same key: the same choice page, never 'key already used'."""
    mid = api_match(client)
    client.post(f"/api/matches/{mid}/deals", json=ONE)
    client.get(f"/m/{mid}")  # this browser made the match: it scores it
    page = client.get(f"/m/{mid}/deal/1").get_data(as_text=True)
    mark = re.search(r'name="expect" type="hidden" value="([^"]*)"', page).group(1)
    client.put(f"/api/matches/{mid}/deals/1", json=TWO)  # another phone changed deal 1
    form = {
        "expect": mark,
        "key": "k-edit",
        "hearts__0": "4",
        "hearts__1": "5",
        "hearts__2": "4",
        "taken_by_QS": "0",
        "taken_by_KS": "1",
        "taken_by_AS": "1",
    }
    first = client.post(f"/m/{mid}/deal/1", data=form)
    again = client.post(f"/m/{mid}/deal/1", data=form)
    assert first.status_code == again.status_code == 302
    assert "/choice/" in first.location and again.location == first.location
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == [TWO]


def test_a_deal_after_the_end_of_a_match_that_is_over_says_it_is_over(db):
    """Three deals played of three: a phone's deal 9 was told "deal 4 is not entered
    yet: it comes first", as if deals were missing; the match is over."""
    options = GAMES["black_maria"].normalize_options({"end": "deals", "deals": 3}, 3)
    m = store.create(db, Match("black_maria", options, NAMES, 0, [ONE, TWO, THREE]))
    for number in (4, 9):
        with pytest.raises(DealError) as refused:
            store.record_deal(db, m.id, number, ONE)
        assert "the match is already over" in refused.value.message
    assert deals_of(db, m) == [ONE, TWO, THREE]


def test_an_undo_taken_twice_says_it_is_undone_already(db):
    """Two phones undo the same change a moment apart: the second is told it is
    undone already, not to 'undo the later change first' (there is none to undo);
    once the deal changes again after the undo, that later change comes first."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    second = store.record_deal(db, m.id, 2, TWO)
    store.undo(db, m.id, second.event)
    with pytest.raises(store.Stale, match="^this change is undone already$"):
        store.undo(db, m.id, second.event)
    first = store.events(db, m.id)[1]["id"]  # deal 1 saved
    store.edit_deal(db, m.id, 1, TWO, mark=store.get(db, m.id).deal_mark(1))
    with pytest.raises(store.Stale, match="deal 1 was changed again after that"):
        store.undo(db, m.id, first)
    assert deals_of(db, m) == [TWO]


def test_a_settled_choice_and_a_set_up_change_undone_twice_say_so_too(db):
    """The same for "keep deal 1 as stored" and for a change of the players' names;
    and a deal undone twice with another phone's different entry of it between the
    two (a choice waits: not a change of the deal)."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    cid = store.record_deal(db, m.id, 1, ONE_TYPO).conflict
    kept = store.choose(db, m.id, cid, "keep")
    store.undo(db, m.id, kept.event)
    with pytest.raises(store.Stale, match="^this change is undone already$"):
        store.undo(db, m.id, kept.event)
    renamed = store.change_setup(
        db, m.id, ["Ala", "Bartek", "Cela"], store.get(db, m.id).match.options
    )
    store.undo(db, m.id, renamed.event)
    with pytest.raises(store.Stale, match="^this change is undone already$"):
        store.undo(db, m.id, renamed.event)
    second = store.record_deal(db, m.id, 2, TWO)
    store.undo(db, m.id, second.event)
    store.record_deal(db, m.id, 1, ONE_TYPO)  # deal 1 again, otherwise: a choice
    with pytest.raises(store.Stale, match="^this change is undone already$"):
        store.undo(db, m.id, second.event)


def test_a_page_s_last_deal_deleted_from_the_middle_moves_its_next_deal_up(db):
    """The table's evening (issue 35): A enters deals 1 and 2; B, which has seen deal
    2, types deal 3 offline; A types the same deal 3, then deletes deal 2 (entered
    twice by mistake). B's deal 3 is A's deal 3, now deal 2: the same deal, said so,
    never stored a second time (it was: deal 1, deal 3, deal 3 again)."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, ONE)  # deal 1 entered twice
    b_saw = store.get(db, m.id).next_mark()
    store.record_deal(db, m.id, 3, TWO)
    store.delete_deal(db, m.id, 2)
    change = store.record_deal(db, m.id, 3, TWO, anchor=b_saw)
    assert (change.kind, change.number) == ("same", 2)
    assert deals_of(db, m) == [ONE, TWO]
    # B's deal 4, typed after it: the next deal, deal 3
    change = store.record_deal(db, m.id, 4, THREE, anchor=b_saw)
    assert (change.kind, change.number) == ("add", 3)
    assert deals_of(db, m) == [ONE, TWO, THREE]


def test_a_page_s_last_deal_deleted_from_the_middle_meets_a_different_entry(db):
    """As above, B's deal 3 differs from A's: a choice on deal 2 (A's deal 3 now),
    nothing appended."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, ONE)
    b_saw = store.get(db, m.id).next_mark()
    store.record_deal(db, m.id, 3, TWO)
    store.delete_deal(db, m.id, 2)
    change = store.record_deal(db, m.id, 3, THREE, anchor=b_saw)
    assert (change.kind, change.number) == ("conflict", 2)
    assert deals_of(db, m) == [ONE, TWO]


def test_an_undo_re_entered_keeps_the_page_s_deals_after_it(db):
    """Deal 2 undone when it was the last (to be entered again), entered again, then
    deal 3: B's deal 3 from a page drawn after the first deal 2 is that deal 3."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, ONE_TYPO)
    b_saw = store.get(db, m.id).next_mark()
    store.delete_deal(db, m.id, 2)
    store.record_deal(db, m.id, 2, TWO)
    store.record_deal(db, m.id, 3, THREE)
    change = store.record_deal(db, m.id, 3, THREE, anchor=b_saw)
    assert (change.kind, change.number) == ("same", 3)
    assert deals_of(db, m) == [ONE, TWO, THREE]


def choice_forms(page: str) -> dict[str, dict]:
    """The choice page's forms, by action: each one's hidden fields, as a tap sends them."""
    forms = {}
    for form in re.findall(r"<form method=\"post\" data-once>(.*?)</form>", page, re.S):
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
        forms[fields["action"]] = fields
    return forms


def test_a_second_choice_from_the_same_page_says_the_choice_was_made(client):
    """Keep, then Back to the same page, then Replace: the page's forms shared one
    key, and the second tap met 'this idempotency key was already used for another
    request' (a 422). It is the choice made already, said as the table says it."""
    mid = api_match(client)
    client.post(f"/api/matches/{mid}/deals?deal=1", json=ONE)
    client.get(f"/m/{mid}")  # this browser made the match: it scores it
    conflict = client.post(f"/api/matches/{mid}/deals?deal=1", json=ONE_TYPO).get_json()
    url = f"/m/{mid}/choice/{conflict['conflict']}"
    forms = choice_forms(client.get(url).get_data(as_text=True))
    assert set(forms) == {"keep", "replace", "next"}
    kept = client.post(url, data=forms["keep"])
    assert kept.status_code == 302 and kept.location == f"/m/{mid}"
    again = client.post(url, data=forms["keep"])  # a second tap of Keep: the same answer
    assert again.status_code == 302 and again.location == f"/m/{mid}"
    assert "Deal 1 stays as stored" in client.get(f"/m/{mid}").get_data(as_text=True)
    for action in ("replace", "next"):  # Back, then another button of the same page
        r = client.post(url, data=forms[action])
        assert r.status_code == 302 and r.location == url, action
        page = client.get(url).get_data(as_text=True)
        assert "This choice was made already (on this phone or another)" in page
        assert "idempotency" not in page and "another phone" not in page.split("<main")[1]
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == [ONE]


# --- found by the table's model (tests/table_model.py, issue 35 item 3) ------------
#
# Both are a deal entered twice by mistake (a phantom) meeting a page drawn on the
# other side of it: the store cannot tell a deal entered twice from a deal typed
# wrong, or a deal undone to be entered again from one that was never played, and
# appends where the table must be asked. The model counts them (``in_doubt``) and
# puts the deals right by hand.


def test_a_deal_after_one_that_met_a_deal_entered_twice_waits_for_the_choice(db):
    """B has seen deal 1 and types deals 2 and 3 offline. A saves deal 1 again as deal
    2 by mistake. B's deal 2 meets it: a choice (right). B's deal 3 is appended as
    deal 3: once the table deletes the deal entered twice (the stored deal 2, a
    copy of deal 1), it is deal 2, and the table's deal 2 is only in a choice on a
    deleted deal. It cannot be placed for sure until that choice is made: it waits."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    b_saw = store.get(db, m.id).next_mark()
    assert store.record_deal(db, m.id, 2, ONE, anchor=b_saw).kind == "add"  # A, by mistake
    assert store.record_deal(db, m.id, 2, TWO, anchor=b_saw).kind == "conflict"
    with pytest.raises(store.Gap) as waits:
        store.record_deal(db, m.id, 3, THREE, anchor=b_saw)
    assert waits.value.message == "Deal 2 has two entries: choose which stands"
    assert deals_of(db, m) == [ONE, ONE]
    assert fold(store.get(db, m.id).match).computed()["totals"] == [34, 46, 6]  # 17 23 3 twice
    # the table replaces the deal entered twice with B's deal 2: B's deal 3 goes in
    choice = store.conflicts(db, store.get(db, m.id))[0]["id"]
    store.choose(db, m.id, choice, "replace")
    change = store.record_deal(db, m.id, 3, THREE, anchor=b_saw)
    assert (change.kind, change.number) == ("add", 3)
    assert deals_of(db, m) == [ONE, TWO, THREE]
    assert change.computed["totals"] == [30, 65, 34]  # as in the Undone case above


def test_a_deal_undone_and_entered_again_the_same_is_that_deal_for_pages_drawn_before(db):
    """Deal 1 undone and typed again, the same (a new row). A page drawn when the
    first row was deal 1 sends its deal 3: deal 1 is in, deal 2 is not, so it
    waits for deal 2 (not held as typed after a deal deleted since: the deal
    typed again stands for it). Deal 2 in, it is deal 3."""
    m = stored_match(db)
    first = store.record_deal(db, m.id, 1, ONE)
    anchor = store.get(db, m.id).next_mark()  # "1.<the first row's id>"
    store.undo(db, m.id, first.event, latest=True)
    store.record_deal(db, m.id, 1, ONE, anchor="0.0")
    with pytest.raises(store.Gap) as waits:
        store.record_deal(db, m.id, 3, THREE, anchor=anchor)
    assert not isinstance(waits.value, store.Undone)
    assert (waits.value.number, waits.value.typed) == (2, 3)
    change = store.record_deal(db, m.id, 2, TWO, anchor=anchor)
    assert (change.kind, change.number) == ("add", 2)
    assert store.record_deal(db, m.id, 3, THREE, anchor=anchor).number == 3
    assert deals_of(db, m) == [ONE, TWO, THREE]


def test_a_deal_typed_after_a_deal_entered_twice_and_undone_is_not_stored_twice(db):
    """A saves deal 2 again as deal 3 by mistake; B and C draw their pages after it
    and type the table's deal 3 (THREE) as their deal 4. A undoes its save (the last
    deal). B's is held (Undone, right), and the table saves it as deal 3 on a page
    drawn now. C's, sent after, is stored as deal 4: THREE twice. Whether the deal
    entered in the undone deal's place is that deal again (C's goes after it) or
    the deal after it (C's is that deal) only the table knows: held, or the same."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, TWO)
    twice = store.record_deal(db, m.id, 3, TWO, anchor=store.get(db, m.id).next_mark())
    seen = store.get(db, m.id).next_mark()  # B's and C's pages: 3 deals, the last A's
    store.undo(db, m.id, twice.event, latest=True)
    with pytest.raises(store.Undone):
        store.record_deal(db, m.id, 4, THREE, anchor=seen)  # B
    now = store.get(db, m.id).next_mark()
    assert store.record_deal(db, m.id, 3, THREE, anchor=now).kind == "add"  # B's, put right
    with contextlib.suppress(store.Undone):
        store.record_deal(db, m.id, 4, THREE, anchor=seen)  # C
    assert deals_of(db, m) == [ONE, TWO, THREE]
    # deal 3: Ala 13 hearts, Bartek Q♠ K♠ A♠: 17+0+13, 23+12+30, 3+31+0
    assert fold(store.get(db, m.id).match).computed()["totals"] == [30, 65, 34]


def test_an_undo_that_would_have_a_deal_entered_again_stand_twice_is_refused(db):
    """Deal 2 undone and typed again, the same; then that Undo undone: deal 2 would
    stand twice (the restored row, and the one typed again after it). Refused with
    the history's reason, nothing changed; undone in order (the deal typed again
    first), it comes back."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    two = store.record_deal(db, m.id, 2, TWO)
    undo = store.undo(db, m.id, two.event, latest=True)
    again = store.record_deal(db, m.id, 2, TWO)
    with pytest.raises(store.Stale) as refused:
        store.undo(db, m.id, undo.event)
    assert refused.value.message == (
        "deal 2 was changed again after that: undo the later change first"
    )
    assert deals_of(db, m) == [ONE, TWO]
    store.undo(db, m.id, again.event)
    store.undo(db, m.id, undo.event)
    assert deals_of(db, m) == [ONE, TWO]


def test_an_undo_that_brings_back_a_deal_before_a_different_one_entered_since_stands(db):
    """Deal 2 undone by mistake and the table's deal 3 entered in its place: undoing
    the Undo brings deal 2 back before it (they differ: two deals)."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    two = store.record_deal(db, m.id, 2, TWO)
    undo = store.undo(db, m.id, two.event, latest=True)
    store.record_deal(db, m.id, 2, THREE)
    store.undo(db, m.id, undo.event)
    assert deals_of(db, m) == [ONE, TWO, THREE]


def test_a_deal_entered_twice_undone_and_typed_again_for_its_place_is_the_deal_before(db):
    """Seed 32102 of the table's model: A saves deal 2 again as deal 3 by mistake; B's
    page, drawn after it (3 deals, the last A's), sends the table's deal 2 as its
    deal 3 (that row: the same, while it stands). A deletes the deal entered twice
    (the last) first. B's entry, placed in the deleted deal's place (the next deal),
    says what deal 2 says: the deleted deal was deal 2 entered twice, and this is
    deal 2 again, said the same, not stored twice (as when another deal was entered
    in the deleted deal's place since: above)."""
    m = stored_match(db)
    store.record_deal(db, m.id, 1, ONE)
    store.record_deal(db, m.id, 2, TWO)
    store.record_deal(db, m.id, 3, TWO, anchor=store.get(db, m.id).next_mark())  # A
    b_saw = store.get(db, m.id).next_mark()  # "3.<A's row>"
    store.delete_deal(db, m.id, 3)
    change = store.record_deal(db, m.id, 3, TWO, anchor=b_saw)
    assert (change.kind, change.number) == ("same", 2)
    assert deals_of(db, m) == [ONE, TWO]
    # the page's next deal (its deal 4), typed after it, still waits as held
    with pytest.raises(store.Undone) as held:
        store.record_deal(db, m.id, 4, THREE, anchor=b_saw)
    assert (held.value.number, held.value.typed) == (3, 4)
