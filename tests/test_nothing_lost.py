"""What a phone holds outlives what a phone does: a waiting deal is taken after its
browser was closed (session gone), every answer to the queue is the queue's own
JSON, and an edit that met a delete with an entry the rules refuse is drawn again
with the reason (docs/phones.md, "What a phone keeps")."""

from __future__ import annotations

import re

from scorer.web.access import COOKIE

from .helpers import BM, hidden
from .test_web import deal_form, text

QUEUED = {"X-Scorer-Queue": "1"}
SAME = {"Sec-Fetch-Site": "same-origin"}


def scorer_match(client) -> tuple[str, dict]:
    """A Black Maria match made through the form, as a phone makes it (with its
    token), and what its deal page carries."""
    page = text(client.get("/new/black_maria"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]*)"', page)
    r = client.post("/new/black_maria", data={**BM, "csrf_token": token and token.group(1)})
    assert r.status_code == 302, text(r)
    mid = r.headers["Location"].rsplit("/", 1)[1]
    page = text(client.get(f"/m/{mid}/deal"))
    marks = {n: hidden(page, n) for n in ("expect", "key", "number")}
    if token:
        marks["csrf_token"] = hidden(page, "csrf_token")
    return mid, marks


def restarted(client):
    """The same phone after its browser was closed and opened again: its long-lived
    cookie (its right to score) kept, the session cookie (and the token tied to it)
    gone."""
    again = client.application.test_client()
    again.set_cookie(COOKIE, client.get_cookie(COOKIE).value)
    return again


def deals(client, mid):
    return client.get(f"/api/matches/{mid}").get_json()["deals"]


def test_a_write_the_browser_marks_same_origin_needs_no_token(csrf_client):
    """OWASP's Fetch Metadata defense: Sec-Fetch-Site, else Origin; the token only
    where the browser says neither."""
    new = "/new/black_maria"
    assert csrf_client.post(new, data=BM).status_code == 400  # neither: the token
    assert csrf_client.post(new, data=BM, headers=SAME).status_code == 302
    for site in ("cross-site", "same-site", "none"):
        r = csrf_client.post(new, data=BM, headers={"Sec-Fetch-Site": site})
        assert r.status_code == 400, site
    assert csrf_client.post(new, data=BM, headers={"Origin": "http://localhost"}).status_code == 302
    for origin in ("http://evil.example", "http://localhost.evil.example", "null"):
        assert csrf_client.post(new, data=BM, headers={"Origin": origin}).status_code == 400
    # the browser's word wins over an Origin that would pass
    r = csrf_client.post(
        new, data=BM, headers={"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"}
    )
    assert r.status_code == 400


def test_a_deal_that_waited_through_a_browser_restart_is_saved(csrf_client):
    """Typed offline, the browser closed and opened again, then the network back:
    the queue sends it with the token of the page it was typed on, dead now."""
    mid, marks = scorer_match(csrf_client)
    phone = restarted(csrf_client)
    form = deal_form([4, 6, 3], 0, 1, 1, **marks)
    r = phone.post(f"/m/{mid}/deal", data=form, headers={**QUEUED, **SAME})
    assert r.status_code == 200 and r.get_json()["outcome"] == "saved", text(r)
    assert deals(phone, mid) == [{"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}]


def test_an_old_browser_s_dead_token_keeps_the_deal_waiting(csrf_client):
    """A browser that sends neither Sec-Fetch-Site nor Origin: its dead token is
    refused, as the queue's own answer (it keeps the deal), not an HTML page."""
    mid, marks = scorer_match(csrf_client)
    phone = restarted(csrf_client)
    r = phone.post(f"/m/{mid}/deal", data=deal_form([4, 6, 3], 0, 1, 1, **marks), headers=QUEUED)
    assert r.status_code == 400 and r.mimetype == "application/json"
    assert r.get_json()["outcome"] == "waiting" and r.get_json()["trouble"] == 400
    assert deals(phone, mid) == []


def test_every_refusal_of_a_queued_deal_is_the_queue_s_answer(client):
    """No match (gone to the trash), or no right to score it: refused with why,
    as JSON, so that the phone holds the deal with the reason."""
    mid, marks = scorer_match(client)
    form = deal_form([4, 6, 3], 0, 1, 1, **{k: v for k, v in marks.items() if k != "csrf_token"})
    stranger = client.application.test_client()
    r = stranger.post(f"/m/{mid}/deal", data=form, headers=QUEUED)
    assert r.status_code == 403 and r.get_json()["outcome"] == "refused"
    assert "Only the match's scorers can change it." in r.get_json()["message"]
    r = client.post("/m/AAAAAAAAAAAA/deal", data=form, headers=QUEUED)
    assert r.status_code == 404 and r.get_json() == {
        "outcome": "refused",
        "message": "There is nothing here.",
    }


def test_an_edit_that_met_a_delete_with_an_entry_the_rules_refuse_is_drawn_again(client):
    """Deal 1 deleted on A while B edited it to 14 hearts: B gets deal 1's form with
    what was typed and why, as any refused save (it was raw JSON, and only "Leave it
    deleted"); put right, the deal comes back with B's entry."""
    mid, marks = scorer_match(client)
    form = deal_form([4, 6, 3], 0, 1, 1, **{k: v for k, v in marks.items() if k != "csrf_token"})
    client.post(f"/m/{mid}/deal", data=form)
    page = text(client.get(f"/m/{mid}/deal/1"))  # B's page of deal 1
    seen = re.search(
        r'name="seen" value="([^"]+)"><input type="hidden" name="key" value="([^"]+)"', page
    )
    client.post(f"/m/{mid}/deal/1/delete", data={"seen": seen.group(1), "key": seen.group(2)})
    typo = deal_form([9, 6, 3], 0, 1, 1, expect=hidden(page, "expect"), key=hidden(page, "key"))
    r = client.post(f"/m/{mid}/deal/1", data=typo)
    drawn = text(r)
    assert r.status_code == 400
    assert "18" in drawn and "13" in drawn and "error" in drawn  # hearts add up to 18 …
    assert 'value="9"' in drawn  # what was typed
    assert "{&#34;hearts&#34;" not in drawn and '{"hearts"' not in drawn
    # queued, the same edit is refused with the reason: held on the phone
    r = client.post(f"/m/{mid}/deal/1", data=typo, headers=QUEUED)
    assert r.get_json()["outcome"] == "refused" and "13" in r.get_json()["message"]
    # put right on that form: the deal is offered back with the entry
    right = dict(typo, **{"hearts__0": "4", "expect": hidden(drawn, "expect")})
    r = client.post(f"/m/{mid}/deal/1", data=right)
    assert r.status_code == 409 and "Bring deal 1 back with your entry" in text(r)
    assert deals(client, mid) == []
