"""Deal identity and preconditions, one request after another: a stale page with
two identical deals, If-Match, ETag, Idempotency-Key (the races are in
test_concurrency.py)."""

from __future__ import annotations

import html
import json
import re

from scorer import store

from .conftest import trials
from .helpers import hidden, new_match

TRIALS = trials(100, 20)  # each stale page, this many times

D = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
X = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}
E = {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}


def deals(client, mid):
    return client.get(f"/api/matches/{mid}").get_json()["deals"]


def opened(client, url) -> str:
    return client.get(url).get_data(as_text=True)


def as_form(entry, page) -> dict:
    data = {f"hearts__{s}": str(h) for s, h in enumerate(entry["hearts"])}
    data.update({f"taken_by_{c}": str(s) for c, s in entry["taken_by"].items()})
    data.update(expect=hidden(page, "expect"), key=hidden(page, "key"))
    return data


def delete_button(page) -> dict:
    found = re.search(
        r'name="seen" value="([^"]+)"><input type="hidden" name="key" '
        r'value="([^"]+)"',
        page,
    )
    return {"seen": found.group(1), "key": found.group(2)}


def test_a_stale_delete_with_identical_deals_is_refused_every_time(client):
    for _trial in range(TRIALS):
        mid = new_match(client, [D, D, X])
        a, b = opened(client, f"/m/{mid}/deal/1"), opened(client, f"/m/{mid}/deal/1")
        client.post(f"/m/{mid}/deal/1/delete", data=delete_button(a))
        r = client.post(f"/m/{mid}/deal/1/delete", data=delete_button(b), follow_redirects=True)
        assert "Nothing deleted: deal 1 was deleted on another phone meanwhile." in r.get_data(
            as_text=True
        )
        assert deals(client, mid) == [D, X]  # the second D stands


def opened_value(page: str, name: str) -> str:
    return html.unescape(re.search(rf'name="{name}" value="([^"]*)"', page).group(1))


def test_a_stale_edit_with_identical_deals_edits_the_deal_it_showed_every_time(client):
    for _trial in range(TRIALS):
        mid = new_match(client, [D, D, X])
        a, b = opened(client, f"/m/{mid}/deal/1"), opened(client, f"/m/{mid}/deal/1")
        client.post(f"/m/{mid}/deal/1/delete", data=delete_button(a))
        r = client.post(f"/m/{mid}/deal/1", data=as_form(E, b))
        # the deal B's page showed is gone: nothing changed, B's entry kept, and
        # the choice to bring that deal back with it (never another deal edited)
        page = r.get_data(as_text=True)
        assert r.status_code == 409 and "[13, 0, 0]" in page
        assert "Bring deal 1 back with your entry" in page
        assert deals(client, mid) == [D, X]
        if _trial == 0:
            form = {n: opened_value(page, n) for n in ("deal", "entry", "key")}
            assert client.post(f"/m/{mid}/revive", data=form).status_code == 302
            assert deals(client, mid) == [E, D, X]


def test_the_api_refuses_a_stale_write_with_if_match_every_time(client):
    for _trial in range(TRIALS):
        mid = new_match(client, [D, D, X])
        etag = client.get(f"/api/matches/{mid}").headers["ETag"]
        first = client.delete(f"/api/matches/{mid}/deals/1", headers={"If-Match": etag})
        assert first.status_code == 200 and first.headers["ETag"] != etag
        again = client.delete(f"/api/matches/{mid}/deals/1", headers={"If-Match": etag})
        assert again.status_code == 412 and "nothing was stored" in again.get_json()["error"]
        put = client.put(f"/api/matches/{mid}/deals/1", json=E, headers={"If-Match": etag})
        assert put.status_code == 412
        assert deals(client, mid) == [D, X]


def test_if_match_with_the_current_etag_or_star_is_accepted(client):
    mid = new_match(client, [D])
    etag = client.get(f"/api/matches/{mid}").headers["ETag"]
    r = client.post(f"/api/matches/{mid}/deals", json=X, headers={"If-Match": etag})
    assert r.status_code == 201
    r = client.post(f"/api/matches/{mid}/deals", json=E, headers={"If-Match": "*"})
    assert r.status_code == 201
    # an ETag of another match never matches this one
    other = new_match(client, [])
    foreign = client.get(f"/api/matches/{other}").headers["ETag"]
    r = client.post(f"/api/matches/{mid}/deals", json=E, headers={"If-Match": foreign})
    assert r.status_code == 412
    assert deals(client, mid) == [D, X, E]


def test_etag_and_304(client):
    mid = new_match(client, [D])
    r = client.get(f"/api/matches/{mid}")
    etag = r.headers["ETag"]
    assert client.get(f"/api/matches/{mid}", headers={"If-None-Match": etag}).status_code == 304
    client.post(f"/api/matches/{mid}/deals", json=X)
    r = client.get(f"/api/matches/{mid}", headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.headers["ETag"] != etag
    assert r.get_json()["deals"] == [D, X]


def test_idempotency_key_a_repeat_answers_as_the_first_and_stores_nothing(client):
    mid = new_match(client, [D])
    key = {"Idempotency-Key": "phone-A-deal-2"}
    first = client.post(f"/api/matches/{mid}/deals", json=X, headers=key)
    assert first.status_code == 201
    # the match changes meanwhile; the repeat still gets the first answer
    client.post(f"/api/matches/{mid}/deals", json=E)
    again = client.post(f"/api/matches/{mid}/deals", json=X, headers=key)
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert deals(client, mid) == [D, X, E]
    # the same key with another deal: refused, nothing stored
    other = client.post(f"/api/matches/{mid}/deals", json=D, headers=key)
    assert other.status_code == 422 and "already used" in other.get_json()["error"]
    # keys belong to a match: the same key on another match is a new request
    mid2 = new_match(client, [])
    assert client.post(f"/api/matches/{mid2}/deals", json=X, headers=key).status_code == 201
    assert deals(client, mid) == [D, X, E] and deals(client, mid2) == [X]


def test_an_answer_kept_by_an_earlier_scorer_is_given_again_as_it_was(app, client):
    """Answers kept under a key before the computed block was kept as text (spaced
    JSON, its keys in another order) are given again as they were first given."""
    mid = new_match(client, [D])
    first = client.post(f"/api/matches/{mid}/deals", json=X, headers={"Idempotency-Key": "k-1"})
    with app.app_context():
        db = store.get_db()
        row_id = db.execute("select id from matches where pub = ?", [mid]).fetchone()[0]
        reply = {
            "kind": "add",
            "number": 2,
            "computed": first.get_json(),
            "version": 2,
            "event": 2,
        }
        with store.writing(db):
            db.execute(
                "update replies set reply = ? where match_id = ? and key = ?",
                [json.dumps(reply), row_id, "k-1"],
            )
    again = client.post(f"/api/matches/{mid}/deals", json=X, headers={"Idempotency-Key": "k-1"})
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert deals(client, mid) == [D, X]


def test_a_retried_delete_after_a_lost_answer_deletes_once(client):
    mid = new_match(client, [D, X])
    key = {"Idempotency-Key": "del-2"}
    first = client.delete(f"/api/matches/{mid}/deals/2", headers=key)
    again = client.delete(f"/api/matches/{mid}/deals/2", headers=key)  # no deal 2 now
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json() and deals(client, mid) == [D]


def test_a_retry_with_if_match_and_its_key_gets_the_first_answer(client):
    mid = new_match(client, [D])
    heads = {"If-Match": client.get(f"/api/matches/{mid}").headers["ETag"], "Idempotency-Key": "k1"}
    first = client.post(f"/api/matches/{mid}/deals", json=X, headers=heads)
    again = client.post(f"/api/matches/{mid}/deals", json=X, headers=heads)
    assert (first.status_code, again.status_code) == (201, 201)
    assert deals(client, mid) == [D, X]


def test_bad_idempotency_keys_are_400(client):
    mid = new_match(client, [])
    for key in ["", "x" * 201, "a\tb"]:
        r = client.post(f"/api/matches/{mid}/deals", json=X, headers={"Idempotency-Key": key})
        assert r.status_code == 400, key
    assert deals(client, mid) == []


def test_writes_to_what_has_gone_are_404_with_a_message(client):
    mid = new_match(client, [D])
    assert client.delete(f"/api/matches/{mid}/deals/1").status_code == 200
    r = client.delete(f"/api/matches/{mid}/deals/1")
    assert r.status_code == 404 and r.get_json()["error"] == "there is no deal 1"
    r = client.put(f"/api/matches/{mid}/deals/1", json=D)
    assert r.status_code == 404
    assert client.delete(f"/api/matches/{mid}").status_code == 200
    for r in [
        client.post(f"/api/matches/{mid}/deals", json=D),
        client.delete(f"/api/matches/{mid}"),
        client.get(f"/api/matches/{mid}"),
    ]:
        assert r.status_code == 404 and r.get_json()["error"]


def test_deal_ids_are_never_given_twice(app, client):
    mid = new_match(client, [D, X])
    with app.app_context():
        before = store.get(store.get_db(), mid).deal_ids
    client.delete(f"/api/matches/{mid}/deals/2")
    client.post(f"/api/matches/{mid}/deals", json=E)
    with app.app_context():
        after = store.get(store.get_db(), mid).deal_ids
    assert after[0] == before[0] and after[1] not in before


def test_the_version_grows_with_every_change(app, client):
    mid = new_match(client, [])
    tags = [client.get(f"/api/matches/{mid}").headers["ETag"]]
    for write in [
        lambda: client.post(f"/api/matches/{mid}/deals", json=D),
        lambda: client.put(f"/api/matches/{mid}/deals/1", json=X),
        lambda: client.delete(f"/api/matches/{mid}/deals/1"),
    ]:
        write()
        tags.append(client.get(f"/api/matches/{mid}").headers["ETag"])
    assert len(set(tags)) == 4
    # a refused write changes nothing, the version included
    client.post(f"/api/matches/{mid}/deals", json={"hearts": [1, 1, 1]})
    assert client.get(f"/api/matches/{mid}").headers["ETag"] == tags[-1]


def test_an_edit_whose_later_deal_cannot_stand_says_so(client):
    # target 50; 43 a deal to one player. Bartek, Ala, Ala → over at deal 3
    r = client.post(
        "/api/matches",
        json={
            "game": "black_maria",
            "players": ["Ala", "Bartek", "Celina"],
            "options": {"target": 50},
            "deals": [
                {"hearts": [0, 13, 0], "taken_by": {"QS": 1, "KS": 1, "AS": 1}},
                {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}},
                {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}},
            ],
        },
    )
    mid = r.get_json()["id"]
    r = client.put(f"/api/matches/{mid}/deals/1", json=E)
    assert r.status_code == 400 and r.get_json()["error"] == "deal 3: the match is already over"
