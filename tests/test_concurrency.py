"""Two phones, one match: stale pages, repeats and races, through real requests.

The race tests start a threaded server on a free port and send each pair of
writes from two threads released together, 50 times a pair (`make stress`;
10 in `make test`), through the pages'
forms and through the API. Whatever the interleaving: no 5xx, at least one of
the two is accepted, and the deals stored at the end are what some serial
order of the accepted writes gives (the refused ones change nothing).
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
from functools import partial

import pytest
from werkzeug.serving import make_server

from scorer import create_app, store

from .conftest import trials
from .helpers import short_busy_wait, to_deals
from .test_web import marks
from .test_web_offline import QUEUED, queued_form

D = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
X = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}
E = {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}
F = {"hearts": [1, 2, 10], "taken_by": {"QS": 1, "KS": 2, "AS": 0}}
TRIALS = trials(50, 10)  # a pair of writes raced this many times


# --- two phones against a real server -----------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("races")
    app = create_app(
        {"DATABASE": str(folder / "scorer.db"), "SECRET_KEY": "races", "WTF_CSRF_ENABLED": False}
    )
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield Server(f"http://127.0.0.1:{srv.server_port}", app)
    srv.shutdown()


class Server(str):
    """The server's address, and its app (to read what a page would carry)."""

    def __new__(cls, url: str, app):
        self = super().__new__(cls, url)
        self.app = app
        return self


def page_marks(server, mid: int, number: int | None = None) -> tuple[str, str]:
    """What a deal page (or a delete button) drawn now carries: (mark, key); the
    same as reading it off the page (tests/test_web.py does), without the page."""
    with server.app.app_context():
        stored = store.get(store.get_db(), mid)
    mark = stored.next_mark() if number is None else stored.deal_mark(number)
    return mark, secrets.token_urlsafe(12)


class Phone:
    """A browser of sorts, without JavaScript. A form's answer is a redirect that
    flashes what was done: ``send`` gives the flashed words in place of the page
    it would lead to (read from the session cookie: one request, not two)."""

    def __init__(self, base):
        self.base = base
        self.cookie = f"scorer_browser={secrets.token_urlsafe(24)}"
        self.keys: dict[str, str] = {}  # the edit keys of the matches it made

    def send(self, method: str, url: str, data=None, json_body=None, headers=None):
        body, heads = None, {"Cookie": self.cookie, **(headers or {})}
        made = re.match(r"/api/matches/([^/]+)", url)
        if method != "GET" and made and made.group(1) in self.keys:
            heads.setdefault("Authorization", f"Bearer {self.keys[made.group(1)]}")
        if json_body is not None:
            body, heads["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        elif data is not None:
            body = urllib.parse.urlencode(data).encode()
            heads["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base + url, data=body, method=method, headers=heads)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=30) as r:
                return r.status, r.read().decode("utf-8"), dict(r.headers)
        except urllib.error.HTTPError as e:
            if e.code == 302:
                return 302, self.flashed(e.headers.get("Set-Cookie", "")), dict(e.headers)
            return e.code, e.read().decode("utf-8"), dict(e.headers)

    def flashed(self, cookie: str) -> str:
        value = re.search(r"session=([^;]+)", cookie)
        if not value:
            return ""
        app = self.base.app
        session = app.session_interface.get_signing_serializer(app).loads(value.group(1))
        return " ".join(message for _c, message in session.get("_flashes", []))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def form_of(entry: dict, marks: tuple[str, str]) -> dict:
    """A Black Maria deal form as a phone fills it in, with what its page carries."""
    data = {f"hearts__{s}": str(h) for s, h in enumerate(entry["hearts"])}
    data.update({f"taken_by_{c}": str(s) for c, s in entry["taken_by"].items()})
    data.update(expect=marks[0], key=marks[1])
    return data


def delete_button(marks: tuple[str, str]) -> dict:
    return {"seen": marks[0], "key": marks[1]}


def phone_match(phone: Phone, deals: list) -> int:
    """A Black Maria match of 30 deals (``to_deals``) made through the API by
    ``phone``, which keeps its edit key: its id."""
    status, text, _h = phone.send("POST", "/api/matches", json_body=to_deals(deals))
    assert status == 201, text
    record = json.loads(text)
    phone.keys[record["id"]] = record["edit_key"]
    return record["id"]


def scores(phone: Phone, other: Phone, mid: str) -> None:
    """``other`` opens the score link ``phone`` shares: it scores the match too."""
    status, _t, _h = other.send("GET", f"/m/{mid}/score?key={phone.keys[mid]}")
    assert status == 302


def deals_now(phone: Phone, mid: int) -> list | None:
    status, text, _h = phone.send("GET", f"/api/matches/{mid}")
    return None if status == 404 else json.loads(text)["deals"]


def ids_of(server, mid: int, count: int) -> list[tuple[int, int]]:
    """(deal id, revision) of each deal, as its edit page carries them."""
    return [tuple(map(int, page_marks(server, mid, n)[0].split("."))) for n in range(1, count + 1)]


# --- what a serial order gives ------------------------------------------------
# The state is a list of [deal id, revision, entry] (None once the match is
# deleted). An op says whether it applies to a state and what it makes of it.


def apply(state, op):
    """The state after ``op``, or False when ``op`` could not have been accepted there."""
    if state is None:
        return False
    kind, *args = op
    state = [list(d) for d in state]
    if kind == "add_mark":  # a new-deal page saw this many deals
        count, entry = args
        return state + [[None, 1, entry]] if len(state) == count else False
    if kind == "add":
        return state + [[None, 1, args[0]]]
    if kind in ("edit_id", "delete_id"):
        deal_id, rev = args[0], args[1]
        at = [i for i, d in enumerate(state) if d[0] == deal_id and d[1] == rev]
        if not at:
            return False
        if kind == "delete_id":
            return state[: at[0]] + state[at[0] + 1 :]
        state[at[0]][1:] = [rev + 1, args[2]]
        return state
    if kind in ("edit_n", "delete_n"):
        n = args[0]
        if not 1 <= n <= len(state):
            return False
        if kind == "delete_n":
            return state[: n - 1] + state[n:]
        state[n - 1][1:] = [state[n - 1][1] + 1, args[1]]
        return state
    if kind == "delete_match":
        return None
    raise AssertionError(kind)


def serial_outcomes(start, accepted) -> list:
    """The deals at the end of every serial order in which all accepted ops apply."""
    outcomes = []
    for order in itertools.permutations(accepted):
        state = start
        for op in order:
            state = apply(state, op)
            if state is False:
                break
        if state is not False:
            outcomes.append(None if state is None else [d[2] for d in state])
    return outcomes


def race(*calls):
    """Run the calls at the same moment from threads; their answers, in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def check_trial(phone, mid, start, ops, answers):
    """No 5xx; one at least accepted; the end is a serial order of the accepted."""
    for status, text, _h in answers:
        assert status < 500, text[:300]
    accepted = [op for op, (ok, _a) in zip(ops, [(accepted_(a), a) for a in answers]) if ok]
    assert accepted, [a[:2] for a in answers]
    outcomes = serial_outcomes(start, accepted)
    assert deals_now(phone, mid) in outcomes, (accepted, [a[:2] for a in answers])


def accepted_(answer) -> bool:
    status, text, headers = answer
    if status == 302 and "/choice/" in headers.get("Location", ""):
        return False  # the other phone's entry of the same deal: kept for a choice
    if status == 302:  # a form: what it flashed says what was done
        assert re.search(r"saved|deleted|changed", text), text
        return not text.startswith("Nothing")
    return status in (200, 201)


# --- the races ------------------------------------------------------------------


def test_forms_race_every_pair_of_writes(server):
    a, b = Phone(server), Phone(server)
    for trial in range(TRIALS):
        # add / add: both pages opened on the new deal 4
        mid = phone_match(a, [D, D, X])
        scores(a, b, mid)
        ids = ids_of(server, mid, 3)
        start = [[i, r, e] for (i, r), e in zip(ids, [D, D, X])]
        pa, pb = page_marks(server, mid), page_marks(server, mid)
        answers = race(
            partial(a.send, "POST", f"/m/{mid}/deal", form_of(E, pa)),
            partial(b.send, "POST", f"/m/{mid}/deal", form_of(F, pb)),
        )
        check_trial(a, mid, start, [("add_mark", 3, E), ("add_mark", 3, F)], answers)

        # edit / delete of deal 1, two identical deals in front
        mid = phone_match(a, [D, D, X])
        scores(a, b, mid)
        (i1, r1), (i2, r2), (i3, r3) = ids_of(server, mid, 3)
        start = [[i1, r1, D], [i2, r2, D], [i3, r3, X]]
        pa, pb = page_marks(server, mid, 1), page_marks(server, mid, 1)
        answers = race(
            partial(a.send, "POST", f"/m/{mid}/deal/1", form_of(E, pa)),
            partial(b.send, "POST", f"/m/{mid}/deal/1/delete", delete_button(pb)),
        )
        check_trial(a, mid, start, [("edit_id", i1, r1, E), ("delete_id", i1, r1)], answers)

        # delete / delete of deal 1 (pages opened on the same deal)
        mid = phone_match(a, [D, D, X])
        scores(a, b, mid)
        (i1, r1), (i2, r2), (i3, r3) = ids_of(server, mid, 3)
        start = [[i1, r1, D], [i2, r2, D], [i3, r3, X]]
        pa, pb = page_marks(server, mid, 1), page_marks(server, mid, 1)
        answers = race(
            partial(a.send, "POST", f"/m/{mid}/deal/1/delete", delete_button(pa)),
            partial(b.send, "POST", f"/m/{mid}/deal/1/delete", delete_button(pb)),
        )
        check_trial(a, mid, start, [("delete_id", i1, r1), ("delete_id", i1, r1)], answers)

        # delete the match / add a deal
        mid = phone_match(a, [D])
        scores(a, b, mid)
        ((i1, r1),) = ids_of(server, mid, 1)
        pb = page_marks(server, mid)
        answers = race(
            partial(a.send, "POST", f"/m/{mid}/delete", {}),
            partial(b.send, "POST", f"/m/{mid}/deal", form_of(E, pb)),
        )
        assert all(s < 500 for s, _t, _h in answers)
        accepted = [("delete_match",)]  # deleting a match that exists always succeeds
        if accepted_(answers[1]):
            accepted.append(("add_mark", 1, E))
        assert deals_now(a, mid) in serial_outcomes([[i1, r1, D]], accepted), trial


def test_api_races_every_pair_of_writes(server):
    a = Phone(server)
    for _trial in range(TRIALS):
        # add / add without preconditions: both stored, in some order
        mid = phone_match(a, [D, D, X])
        start = [[None, 1, e] for e in (D, D, X)]
        answers = race(
            partial(a.send, "POST", f"/api/matches/{mid}/deals", json_body=E),
            partial(a.send, "POST", f"/api/matches/{mid}/deals", json_body=F),
        )
        check_trial(a, mid, start, [("add", E), ("add", F)], answers)

        # add / add with the same If-Match: one stored, the other 412
        mid = phone_match(a, [D, D, X])
        etag = a.send("GET", f"/api/matches/{mid}")[2]["ETag"]
        answers = race(
            *[
                partial(
                    a.send,
                    "POST",
                    f"/api/matches/{mid}/deals",
                    json_body=e,
                    headers={"If-Match": etag},
                )
                for e in (E, F)
            ]
        )
        assert sorted(s for s, _t, _h in answers) == [201, 412], answers
        check_trial(a, mid, start, [("add_mark", 3, E), ("add_mark", 3, F)], answers)

        # edit / delete of deal 1 by number
        mid = phone_match(a, [D, D, X])
        answers = race(
            partial(a.send, "PUT", f"/api/matches/{mid}/deals/1", json_body=E),
            partial(a.send, "DELETE", f"/api/matches/{mid}/deals/1"),
        )
        check_trial(a, mid, start, [("edit_n", 1, E), ("delete_n", 1)], answers)

        # delete / delete of the last deal
        mid = phone_match(a, [D, D, X])
        answers = race(
            partial(a.send, "DELETE", f"/api/matches/{mid}/deals/3"),
            partial(a.send, "DELETE", f"/api/matches/{mid}/deals/3"),
        )
        check_trial(a, mid, start, [("delete_n", 3), ("delete_n", 3)], answers)

        # delete the match / add a deal
        mid = phone_match(a, [D])
        answers = race(
            partial(a.send, "DELETE", f"/api/matches/{mid}"),
            partial(a.send, "POST", f"/api/matches/{mid}/deals", json_body=E),
        )
        check_trial(a, mid, [[None, 1, D]], [("delete_match",), ("add", E)], answers)


def test_the_same_deal_posted_by_four_clients_with_one_key_is_stored_once(server):
    a = Phone(server)
    for trial in range(10):
        mid = phone_match(a, [D])
        key = {"Idempotency-Key": f"deal-2-{trial}"}
        answers = race(
            *[
                partial(a.send, "POST", f"/api/matches/{mid}/deals", json_body=E, headers=key)
                for _ in range(4)
            ]
        )
        assert [s for s, _t, _h in answers] == [201] * 4
        assert len({t for _s, t, _h in answers}) == 1  # the same answer, four times
        assert deals_now(a, mid) == [D, E]


# --- the write lock busy past the wait ---------------------------------------------


def test_a_write_that_waits_past_the_busy_timeout_is_told_to_try_again(app, monkeypatch):
    """Another process holds the write lock all the while (an import, a restore):
    the write answered 500 "database is locked"; it is a 503 with Retry-After,
    in words, nothing changed, and the same write lands once the lock is free
    (a phone's queue sends it again on a 5xx)."""
    short_busy_wait(monkeypatch, 0.2)
    client = app.test_client()
    made = client.post(
        "/api/matches",
        json={"game": "black_maria", "players": ["Ala", "Bartek", "Celina"], "deals": [D]},
    ).get_json()
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    client.get(f"/m/{made['id']}")  # this browser made the match: it scores it
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        r = client.post(f"/api/matches/{made['id']}/deals", json=X, headers=auth)
        assert r.status_code == 503 and r.headers["Retry-After"] == "1"
        assert r.get_json()["error"] == (
            "The server is busy with other changes: nothing was changed. Try again in a moment."
        )
        page = client.post(f"/m/{made['id']}/delete")  # a page's form: the page says it
        assert page.status_code == 503 and page.headers["Retry-After"] == "1"
        assert "Try again in a moment." in page.get_data(as_text=True)
        # a deal a phone's queue sends: it waits on the phone (not "refused": kept for good)
        late = queued_form(X, marks(client, f"/m/{made['id']}/deal"), 2)
        r = client.post(f"/m/{made['id']}/deal", data=late, headers=QUEUED)
        assert r.status_code == 503 and r.get_json()["outcome"] == "waiting"
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert client.get(f"/api/matches/{made['id']}").get_json()["deals"] == [D]
    r = client.post(f"/m/{made['id']}/deal", data=late, headers=QUEUED)  # its next try
    assert r.get_json()["outcome"] == "saved" and r.get_json()["number"] == 2
    r = client.post(f"/api/matches/{made['id']}/deals", json=X, headers=auth)
    assert r.status_code == 201
    assert client.get(f"/api/matches/{made['id']}").get_json()["deals"] == [D, X, X]
