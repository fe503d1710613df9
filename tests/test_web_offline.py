"""What the offline layer (static/offline.js in app.js, queue.js in forms.js; static/sw.js)
needs from the server: the worker served for the whole site under the CSP, the hooks on
every page and on the deal form, and the answers a queued deal gets when it arrives late."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import brotli

from scorer import store

from .helpers import hidden, new_bm
from .test_web import deal_form, delete_marks, marks, stored, text

STATIC = Path(__file__).resolve().parent.parent / "static"


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype == "text/javascript"
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in r.headers["Cache-Control"]
    assert 'addEventListener("fetch"' in text(r)
    csp = r.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "default-src 'self'" in csp


def test_the_service_worker_travels_minified_compressed_and_once(client):
    source = (STATIC / "sw.js").read_bytes()
    r = client.get("/sw.js", headers={"Accept-Encoding": "br"})
    assert r.headers["Content-Encoding"] == "br"
    script = brotli.decompress(r.data)
    assert b"// " not in script and len(script) < len(source) * 3 // 4
    assert len(r.data) < len(source) // 3
    # the worker's check at each visit: unchanged, a bodiless 304
    again = client.get(
        "/sw.js", headers={"Accept-Encoding": "br", "If-None-Match": r.headers["ETag"]}
    )
    assert again.status_code == 304 and not again.data


def test_every_page_registers_it_and_has_the_waiting_notice(client):
    mid = new_bm(client)
    for url in ("/", f"/m/{mid}", f"/m/{mid}/deal", "/rules/"):
        page = text(client.get(url))
        assert re.search(
            r'<script src="/static/app\.[0-9a-f]{12}\.js" data-worker="/sw.js" '
            r'data-forms="/static/forms\.[0-9a-f]{12}\.js" '
            r'data-forms-css="/static/forms\.[0-9a-f]{12}\.css" '
            r'data-offline-title="No connection" data-offline-text="This page was never opened '
            r'on this phone[^"]*" data-offline-sheet="Back to the sheet" '
            r'data-offline-back="Back" defer>',
            page,
        ), url
        note = re.search(r'<div id="queue-note"[^>]*>', page).group(0)
        assert " hidden" in note and 'role="status"' in note
        assert "{what}: not saved yet — waiting for the connection." in note
        assert "What you typed here before is back; it is not saved yet." in note


def test_the_deal_forms_are_queued_to_the_sheet(client):
    mid = new_bm(client)
    form = re.search(r"<form [^>]*data-queue[^>]*>", text(client.get(f"/m/{mid}/deal"))).group(0)
    # a new deal's form records deal 1; waiting deals name themselves "Deal {n}"
    assert f'data-queue="/m/{mid}"' in form and 'data-queue-label="Deal {n}"' in form
    assert 'data-deal="1"' in form and f'action="/m/{mid}/deal"' in form
    client.post(
        f"/m/{mid}/deal", data=deal_form([4, 6, 3], 0, 1, 1, **marks(client, f"/m/{mid}/deal"))
    )
    form = re.search(r"<form [^>]*data-queue[^>]*>", text(client.get(f"/m/{mid}/deal/1"))).group(0)
    assert 'data-queue-label="Deal 1"' in form and f'action="/m/{mid}/deal/1"' in form


def test_a_queued_deal_sent_again_is_answered_as_the_first_time(client, app):
    """The phone never heard the answer and sends the same deal again, its page now
    out of date: the same key gets the same answer (the sheet), one deal stored."""
    mid = new_bm(client)
    data = deal_form([4, 6, 3], 0, 1, 1, **marks(client, f"/m/{mid}/deal"))
    for _try in range(3):
        r = client.post(f"/m/{mid}/deal", data=data)
        assert r.status_code == 302 and r.headers["Location"] == f"/m/{mid}"
    assert len(stored(app, mid).deals) == 1


QUEUED = {"X-Scorer-Queue": "1"}  # static/queue.js asks for the outcome as JSON
D1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}  # 17, 23, 3
D2 = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}  # 7, 5, 31


def queued_form(entry, seen, deal=None):
    form = deal_form(entry["hearts"], *(entry["taken_by"][c] for c in ("QS", "KS", "AS")), **seen)
    if deal is not None:
        form["number"] = str(deal)  # queue.js numbers each waiting deal
    return form


def test_queued_deals_land_as_their_numbers_in_order(client, app):
    """Offline after deal 0: deals 1 and 2 queued from one page, sent in order."""
    mid = new_bm(client)
    seen = marks(client, f"/m/{mid}/deal")
    r = client.post(f"/m/{mid}/deal", data=queued_form(D1, seen, 1), headers=QUEUED)
    answer = r.get_json()
    # the deals now, as a deal page drawn now names them: a page the phone kept from
    # before is numbered from them (static/queue.js)
    now = marks(client, f"/m/{mid}/deal")
    page = text(client.get(f"/m/{mid}/deal"))
    assert answer.pop("mark") == now["expect"] and now["expect"].startswith("1.")
    assert answer.pop("version") == int(re.search(r'data-version="(\d+)"', page).group(1))
    assert answer == {"outcome": "saved", "message": "Deal 1 saved.", "number": 1, "go": None}
    seen["key"] = "another"
    r = client.post(f"/m/{mid}/deal", data=queued_form(D2, seen, 2), headers=QUEUED)
    assert r.get_json()["outcome"] == "saved" and r.get_json()["number"] == 2
    assert stored(app, mid).deals == [D1, D2]


def test_a_queued_deal_after_a_missing_one_waits(client, app):
    mid = new_bm(client)
    seen = marks(client, f"/m/{mid}/deal")
    r = client.post(f"/m/{mid}/deal", data=queued_form(D2, seen, 2), headers=QUEUED)
    assert r.status_code == 409
    assert r.get_json()["outcome"] == "waiting" and r.get_json()["number"] == 1
    assert stored(app, mid).deals == []


def test_a_queued_deal_the_same_as_the_stored_one_is_that_deal(client, app):
    mid = new_bm(client)
    late = queued_form(D1, marks(client, f"/m/{mid}/deal"), 1)
    client.post(f"/m/{mid}/deal", data=queued_form(D1, marks(client, f"/m/{mid}/deal")))
    r = client.post(f"/m/{mid}/deal", data=late, headers=QUEUED)
    answer = r.get_json()
    assert answer["outcome"] == "same" and answer["number"] == 1
    assert answer["message"] == (
        "Deal 1 was already entered on another phone, the same: nothing was stored twice."
    )
    assert stored(app, mid).deals == [D1]


def test_a_queued_deal_that_meets_another_gets_the_choice(client, app):
    """Queued on one phone while another saved a different deal 1: the late one is
    not saved over it, nor after it: kept for the choice, whose page it is sent to."""
    mid = new_bm(client)
    late = queued_form(D1, marks(client, f"/m/{mid}/deal"), 1)
    client.post(f"/m/{mid}/deal", data=queued_form(D2, marks(client, f"/m/{mid}/deal")))
    r = client.post(f"/m/{mid}/deal", data=late, headers=QUEUED)
    answer = r.get_json()
    assert answer["outcome"] == "conflict" and f"/m/{mid}/choice/" in answer["go"]
    assert stored(app, mid).deals == [D2]
    page = text(client.get(answer["go"]))
    assert "Deal 1: two entries" in page and "Add it as deal 2, a new deal" in page
    # the sheet tells every scorer that a choice waits
    assert "Deal 1 has two entries: choose which stands" in text(client.get(f"/m/{mid}"))


def test_a_queued_deal_the_rules_refuse_comes_back_with_the_reason(client, app):
    mid = new_bm(client)
    bad = {"hearts": [4, 6, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    r = client.post(
        f"/m/{mid}/deal", data=queued_form(bad, marks(client, f"/m/{mid}/deal"), 1), headers=QUEUED
    )
    assert r.status_code == 400
    assert r.get_json() == {
        "outcome": "refused",
        "message": "Hearts add up to 14, but 13 are in play",
    }
    assert stored(app, mid).deals == []


def test_a_queued_deal_typed_after_a_deal_undone_since_is_held_and_put_right_as_it(client, app):
    """Drawn after deal 1; deal 1 undone on another phone since: the queued deal 2
    is held with the reason (not stored as deal 1 unasked). Opened (posted the
    ordinary way), its page is deal 1's form with what was typed, saying how it
    was typed; saved from there, it is deal 1."""
    mid = new_bm(client)
    client.post(f"/m/{mid}/deal", data=queued_form(D1, marks(client, f"/m/{mid}/deal")))
    late = queued_form(D2, marks(client, f"/m/{mid}/deal"), 2)
    client.post(f"/m/{mid}/deal/1/delete", data=delete_marks(client, mid, 1))  # the other phone
    assert stored(app, mid).deals == []
    r = client.post(f"/m/{mid}/deal", data=late, headers=QUEUED)
    assert r.status_code == 409
    assert r.get_json() == {
        "outcome": "refused",
        "message": "Deal 1 was deleted on another phone after this was typed.",
        "number": 1,
    }
    assert stored(app, mid).deals == []
    page = client.post(f"/m/{mid}/deal", data=late)
    body = text(page)
    assert page.status_code == 400
    assert (
        "This was typed as deal 2, after a deal 1 that another phone has deleted since. "
        "If it is deal 1, save it here; otherwise, leave this page: it waits on this phone "
        "until deal 1 is entered."
    ) in body
    assert "Save deal 1" in body and hidden(body, "number") == "1"
    assert hidden(body, "expect") == "0.0" and hidden(body, "key") == late["key"]  # drawn now
    r = client.post(f"/m/{mid}/deal", data={**late, "expect": "0.0", "number": "1"})
    assert r.status_code == 302 and stored(app, mid).deals == [D2]


def test_a_page_that_shows_a_one_time_message_says_so(client):
    """The service worker keeps no copy of such a page to open offline (static/sw.js)."""
    mid = new_bm(client)
    client.post(f"/m/{mid}/deal", data=queued_form(D1, marks(client, f"/m/{mid}/deal")))
    said = client.get(f"/m/{mid}")
    assert "Deal 1 saved." in text(said) and said.headers["Scorer-Flash"] == "1"
    assert said.headers["Cache-Control"] == "no-store"  # no 304 brings the message back
    again = client.get(f"/m/{mid}")
    assert "Scorer-Flash" not in again.headers
    assert "Scorer-Flash" in (STATIC / "sw.js").read_text()


def test_a_choice_offers_the_next_deal_only_to_an_entry_that_could_be_it(client, app):
    """Metamorphosis, 3 players: deal 4 closes the round (spades counted), deal 5 opens
    the next with declarations. A second entry of deal 4 cannot stand as deal 5: its
    choice offers keep and replace, not "Add it as deal 5" (refused when tapped)."""
    even = [4, 4, 4]
    round_one = [
        {"declarations": [1, 3, 1], "tricks": even, "clubs": [1, 1, 1]},
        {"tricks": even, "hearts": [0, 0, 0]},
        {"tricks": [6, 2, 4]},
        {"tricks": even, "spades": [0, 0, 0]},
    ]
    made = client.post(
        "/api/matches",
        json={"game": "metamorphosis", "players": ["Ala", "Bartek", "Celina"], "deals": round_one},
    ).get_json()
    mid = made["id"]
    client.get(f"/m/{mid}")  # this browser made the match: it scores it
    other = {"tricks": [5, 4, 3], "spades": [1, 0, 0]}
    with app.app_context():
        db = store.get_db()
        change = store.record_deal(db, store.get(db, mid).id, 4, other)
    assert change.kind == "conflict"
    page = text(client.get(f"/m/{mid}/choice/{change.conflict}"))
    assert "Keep deal 4 as stored" in page and "Replace deal 4" in page
    assert "as deal 5, a new" not in page


def test_a_deal_form_says_where_a_match_of_a_number_of_deals_ends_even_far_ahead(client):
    """Black Maria, four players, to 12 deals, none in: the form carries the facts of
    deals 2 to 9 for offline entry, and that the match is over after deal 12. A page
    kept from before is numbered from the newest deal the phone has shown (deal 11,
    say): it offered deals 13 and 14 offline, where only 12 was left."""
    made = client.post(
        "/api/matches",
        json={
            "game": "black_maria",
            "players": ["Ala", "Bartek", "Celina", "Darek"],
            "options": {"end": "deals", "deals": 12},
        },
    ).get_json()
    client.get(f"/m/{made['id']}/score?key={made['edit_key']}")
    page = text(client.get(f"/m/{made['id']}/deal"))
    ahead = json.loads(html.unescape(re.search(r'data-ahead="([^"]*)"', page).group(1)))
    assert [a["n"] for a in ahead] == [2, 3, 4, 5, 6, 7, 8, 9, 13]
    assert ahead[-1] == {"n": 13, "over": True} and "over" not in ahead[-2]
