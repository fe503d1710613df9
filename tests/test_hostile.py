"""What a hostile or careless client sends, refused or kept out of sight: the
edit key never in the server's log, bodies nested too deep, names no browser
would send, records with fields Scorer never wrote."""

from __future__ import annotations

import io
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile

import pytest

from scorer.record import RecordError, read_json

from .helpers import BM, gunicorn, new_bm
from .test_record import EXAMPLE


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the 302 itself is the answer


# 127.0.0.1 only, whatever proxy the environment names; redirects not followed
LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect)


def send(url: str, body: dict | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    if data:
        request.add_header("Content-Type", "application/json")
    try:
        with LOCAL.open(request, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# --- 1. the score link's key is not written to the access log -------------------


def test_the_access_log_of_a_real_server_never_holds_the_edit_key(tmp_path):
    with gunicorn(tmp_path) as (port, _instance, log):
        base = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 60
        while True:
            try:
                status, _body = send(f"{base}/")
                break
            except OSError:
                assert time.monotonic() < end, "the server did not come up"
                time.sleep(0.1)
        status, body = send(
            f"{base}/api/matches",
            {"game": "hearts", "players": ["A", "B", "C", "D"], "deals": []},
        )
        assert status == 201, body
        record = json.loads(body)
        mid, key = record["id"], record["edit_key"]
        status, _body = send(f"{base}/m/{mid}/score?key={key}")
        assert status == 302
    out = log.read()
    assert f"/m/{mid}/score" in out, out  # the request is logged ...
    assert " 302 " in out, out
    assert key not in out, out  # ... its secret is not


# --- 2. a body nested too deep is refused before anything recurses ---------------

D1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
# where the stack ran out (a 500) moves with the stack in use: every depth there
DEPTHS = [2, 65, 200, *range(900, 1001), 5000]


def nested(depth: int) -> bytes:
    """A deal whose ``hearts`` is a list nested ``depth`` deep (the object around
    it adds one)."""
    return b'{"hearts": ' + b"[" * depth + b"]" * depth + b"}"


def test_deals_nested_deep_are_a_400_and_nothing_is_stored(client):
    record = client.post(
        "/api/matches", json={"game": "black_maria", "players": ["A", "B", "C"]}
    ).get_json()
    mid = record["id"]
    ok = client.post(f"/api/matches/{mid}/deals", json=D1)
    assert ok.status_code == 201, ok.get_json()
    for depth in DEPTHS:
        for method, url in (
            ("post", f"/api/matches/{mid}/deals"),
            ("put", f"/api/matches/{mid}/deals/1"),
        ):
            r = getattr(client, method)(url, data=nested(depth), content_type="application/json")
            assert r.status_code == 400, (depth, method, r.status_code)
            assert r.get_json()["error"], (depth, method)
            if depth > 64:
                assert "nested too deep" in r.get_json()["error"], (depth, r.get_json())
    after = client.get(f"/api/matches/{mid}").get_json()
    assert after["deals"] == [D1]
    assert len(client.get(f"/api/matches/{mid}/history").get_json()["history"]) == 2


def test_read_json_takes_64_deep_and_refuses_65():
    deepest: list = []
    for _ in range(63):
        deepest = [deepest]
    assert read_json("[" * 64 + "]" * 64) == deepest
    assert read_json('{"a": ' * 64 + "1" + "}" * 64)
    with pytest.raises(RecordError, match="nested too deep"):
        read_json("[" * 65 + "]" * 65)
    with pytest.raises(RecordError, match="nested too deep"):
        read_json('{"a": ' * 65 + "1" + "}" * 65)


def test_a_record_nested_deep_is_a_400(client, runner, tmp_path):
    for depth in (65, 970, 5000):
        body = (
            b'{"game": "hearts", "players": ["A", "B", "C", "D"], "deals": [{"hearts": '
            + b"[" * depth
            + b"]" * depth
            + b"}]}"
        )
        r = client.post("/api/matches", data=body, content_type="application/json")
        assert r.status_code == 400 and "nested too deep" in r.get_json()["error"], depth
        path = tmp_path / f"deep{depth}.json"
        path.write_bytes(body)
        done = runner.invoke(args=["replay", str(path)])
        assert done.exit_code == 1 and "nested too deep" in done.output, done.output
    # a real record, about six deep, still reads
    r = client.post(
        "/api/matches",
        json={
            "game": "hearts",
            "players": ["A", "B", "C", "D"],
            "deals": [{"play": {"tricks": [[[0, "2C"]]]}}],
        },
    )
    assert r.status_code == 400 and "nested too deep" not in r.get_json()["error"]


# --- 3. the new-match and set-up forms refuse names no browser would send ----------

CONTROL = "may not hold a control character"
NOT_UNICODE = "not valid Unicode"
# (how the form is sent, the first name as sent, what the page says)
BAD_NAMES = [
    ("data", "Ala\nB", f"{CONTROL} (U+000A)"),
    ("data", "Ala\r\nB", f"{CONTROL} (U+000D)"),
    ("data", "Ala\tB", f"{CONTROL} (U+0009)"),
    ("data", "Ala\n", f"{CONTROL} (U+000A)"),
    ("data", "\n", f"{CONTROL} (U+000A)"),
    ("data", "Ala\x00", f"{CONTROL} (U+0000)"),
    ("data", "Ala\u2028B", f"{CONTROL} (U+2028)"),
    ("data", "Ala\u200bB", "invisible format character (U+200B)"),
    # not UTF-8: Werkzeug keeps a urlencoded body's bad bytes as %XX escapes ...
    ("urlencoded", b"%ED%A0%BD", NOT_UNICODE),
    ("urlencoded", b"Ala%FF", NOT_UNICODE),
    ("urlencoded", b"%C3", NOT_UNICODE),
    # ... and makes U+FFFD of a multipart body's
    ("multipart", b"\xed\xa0\xbd", NOT_UNICODE),
    ("multipart", b"Ala\xff", NOT_UNICODE),
]


def post_form(client, url: str, fields: dict, how: str, name):
    """``fields`` with ``name_0`` set to ``name``, sent as ``how`` says: a dict
    the test client encodes, or a body of raw bytes."""
    if how == "data":
        return client.post(url, data={**fields, "name_0": name})
    rest = {k: v for k, v in fields.items() if k != "name_0"}
    if how == "urlencoded":
        body = urllib.parse.urlencode(rest).encode() + b"&name_0=" + name
        return client.post(url, data=body, content_type="application/x-www-form-urlencoded")
    parts = [(k.encode(), v.encode()) for k, v in rest.items()] + [(b"name_0", name)]
    body = b"".join(
        b'--XyZ\r\nContent-Disposition: form-data; name="' + k + b'"\r\n\r\n' + v + b"\r\n"
        for k, v in parts
    )
    return client.post(
        url, data=body + b"--XyZ--\r\n", content_type="multipart/form-data; boundary=XyZ"
    )


@pytest.mark.parametrize(("how", "name", "says"), BAD_NAMES)
def test_the_new_match_form_refuses_a_name_no_browser_sends(client, how, name, says):
    r = post_form(client, "/new/black_maria", BM, how, name)
    assert r.status_code == 400, r.status_code
    page = r.get_data(as_text=True)
    assert says in page and "Player 1" in page
    assert "/m/" not in client.get("/").get_data(as_text=True)  # no match made


@pytest.mark.parametrize(("how", "name", "says"), BAD_NAMES)
def test_the_set_up_form_refuses_a_name_no_browser_sends(client, how, name, says):
    mid = new_bm(client)
    before = client.get(f"/api/matches/{mid}")
    r = post_form(client, f"/m/{mid}/setup", {**BM, "name_1": "Bartosz"}, how, name)
    assert r.status_code == 400, r.status_code
    page = r.get_data(as_text=True)
    assert says in page and "Player 1" in page
    after = client.get(f"/api/matches/{mid}")
    assert after.get_json()["players"] == ["Ala", "Bartek", "Celina"]  # nothing changed
    assert after.headers["ETag"] == before.headers["ETag"]


def test_the_forms_still_take_names_in_any_script_and_trim_spaces(client):
    r = client.post("/new/black_maria", data={**BM, "name_0": "  Łucja ", "name_1": "Юлия"})
    assert r.status_code == 302
    mid = r.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/matches/{mid}").get_json()["players"] == ["Łucja", "Юлия", "Celina"]
    for how, name in (("urlencoded", b"%C4%8Cen%C4%9Bk"), ("multipart", "Čeněk".encode())):
        r = post_form(client, f"/m/{mid}/setup", {**BM, "name_1": "Юлия"}, how, name)
        assert r.status_code == 302, r.get_data(as_text=True)
        assert client.get(f"/api/matches/{mid}").get_json()["players"][0] == "Čeněk"


# --- 4. a record's unknown top-level field is refused by name --------------------

RECORD = {**EXAMPLE, "deals": [D1]}  # docs/record.md's example, one deal


def import_record(client, record: dict):
    return client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "r.json")},
        content_type="multipart/form-data",
    )


@pytest.mark.parametrize("extra", [{"zz": 1}, {"comment": "x"}, {"Deals": []}, {"": None}])
def test_a_record_with_a_field_scorer_never_writes_is_refused_by_name(
    client, runner, tmp_path, extra
):
    record = {**RECORD, **extra}
    (name,) = extra
    says = f"unknown field {name} in the record"
    r = client.post("/api/matches", json=record)
    assert r.status_code == 400 and says in r.get_json()["error"], r.get_json()
    r = import_record(client, record)
    assert r.status_code == 400 and says in r.get_data(as_text=True)
    assert "/m/" not in client.get("/").get_data(as_text=True)  # nothing stored
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    done = runner.invoke(args=["replay", str(path)])
    # the command prints it as a line of its own: a sentence
    assert done.exit_code == 1 and done.output == f"Unknown field {name} in the record\n"


def test_every_record_scorer_writes_reads_back(client, runner, tmp_path):
    """The API's create answer (id, computed, edit_key), its GET, the export and
    the season ZIP's records: each is imported, posted and replayed as it is."""
    created = client.post("/api/matches", json=RECORD)
    assert created.status_code == 201
    answer = created.get_json()
    assert {"id", "computed", "edit_key"} <= set(answer)
    mid = answer["id"]
    fetched = client.get(f"/api/matches/{mid}").get_json()
    exported = json.loads(client.get(f"/m/{mid}/record.json").get_data())
    assert {"id", "computed"} <= set(exported)
    with zipfile.ZipFile(io.BytesIO(client.get("/season.zip").data)) as zf:
        (member,) = [n for n in zf.namelist() if n.endswith(".json")]
        season = json.loads(zf.read(member))
    for record in (answer, fetched, exported, season):
        r = client.post("/api/matches", json=record)
        assert r.status_code == 201, r.get_json()
        assert import_record(client, record).status_code == 302
        path = tmp_path / "r.json"
        path.write_text(json.dumps(record))
        done = runner.invoke(args=["replay", str(path)])
        assert done.exit_code == 0, done.output
        assert json.loads(done.output) == answer["computed"]
