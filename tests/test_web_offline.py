"""What the offline layer (static/offline.js in app.js, queue.js in forms.js; static/sw.js)
needs from the server: the worker served for the whole site under the CSP, the hooks on
every page and on the deal form, and the answers a queued deal gets when it arrives late."""

from __future__ import annotations

import re
from pathlib import Path

import brotli

from .test_web import deal_form, marks, new_bm, stored, text

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
            r'data-forms-css="/static/forms\.[0-9a-f]{12}\.css" defer>',
            page,
        ), url
        note = re.search(r'<div id="queue-note"[^>]*>', page).group(0)
        assert " hidden" in note and 'role="status"' in note
        assert "{what}: not saved yet — waiting for the connection." in note
        assert "What you typed here before is back; it is not saved yet." in note


def test_the_deal_forms_are_queued_to_the_sheet(client):
    mid = new_bm(client)
    form = re.search(r"<form [^>]*data-queue[^>]*>", text(client.get(f"/m/{mid}/deal"))).group(0)
    assert f'data-queue="/m/{mid}"' in form and 'data-queue-label="Deal 1"' in form
    assert f'action="/m/{mid}/deal"' in form
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


def test_a_queued_deal_that_meets_another_gets_the_choice(client, app):
    """Queued on one phone while another saved deal 1: the late one is not saved
    over it; the answer is the side-by-side page (409), nothing stored yet."""
    mid = new_bm(client)
    late = deal_form([4, 6, 3], 0, 1, 1, **marks(client, f"/m/{mid}/deal"))
    client.post(
        f"/m/{mid}/deal", data=deal_form([0, 5, 8], 2, 2, 0, **marks(client, f"/m/{mid}/deal"))
    )
    r = client.post(f"/m/{mid}/deal", data=late)
    assert r.status_code == 409
    assert "Deal 1: two entries" in text(r) and "Save mine as deal 2, the next deal" in text(r)
    assert stored(app, mid).deals == [
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}
    ]
