"""The JSON API of docs/record.md."""

from __future__ import annotations

import re

import pytest

from .helpers import made
from .test_record import EXAMPLE

D1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
D2 = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}


EMPTY = {**EXAMPLE, "deals": []}  # the example's match before its first deal


def test_create_read_add_edit_delete(client):
    rec = made(client, EXAMPLE)
    mid = rec["id"]
    assert rec["computed"]["totals"] == [24, 28, 34]
    assert rec["players"] == ["Ala", "Bartek", "Celina"]
    got = client.get(f"/api/matches/{mid}").get_json()
    assert got["deals"] == EXAMPLE["deals"] and got["computed"] == rec["computed"]
    # add deal 3: Ala everything: 43 → 67, 28, 34
    r = client.post(
        f"/api/matches/{mid}/deals",
        json={"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}},
    )
    assert r.status_code == 201 and r.get_json()["totals"] == [67, 28, 34]
    # edit deal 1 to (3, 6, 4): 16, 23, 4 → 66, 28, 35
    r = client.put(
        f"/api/matches/{mid}/deals/1",
        json={"hearts": [3, 6, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
    )
    assert r.status_code == 200 and r.get_json()["totals"] == [66, 28, 35]
    # delete deal 2 (7, 5, 31): 59, 23, 4
    r = client.delete(f"/api/matches/{mid}/deals/2")
    assert r.status_code == 200 and r.get_json()["totals"] == [59, 23, 4]
    assert len(client.get(f"/api/matches/{mid}").get_json()["deals"]) == 2


def test_not_json_is_415(client):
    r = client.post(
        "/api/matches", data="game=hearts", content_type="application/x-www-form-urlencoded"
    )
    assert r.status_code == 415 and "error" in r.get_json()
    mid = made(client, EMPTY)["id"]
    r = client.post(f"/api/matches/{mid}/deals", data="{}", content_type="text/plain")
    assert r.status_code == 415


def test_broken_json_is_400(client):
    r = client.post("/api/matches", data="{nope", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"].startswith(
        "the body cannot be read: not JSON"
    )


def test_text_that_is_not_valid_unicode_is_400(client):
    mid = made(client, EMPTY)["id"]
    for body in ['{"\\ud800": 1}', '{"hearts": "\\udfff"}']:
        r = client.post(f"/api/matches/{mid}/deals", data=body, content_type="application/json")
        assert r.status_code == 400 and "not valid Unicode" in r.get_json()["error"]
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == []


@pytest.mark.parametrize(
    "record, message",
    [
        ({**EXAMPLE, "game": "bridge"}, "game must be one of"),
        ({**EXAMPLE, "players": ["Ala", "<script>x</script>" * 10, "C"]}, "at most 40 characters"),
        (
            {**EXAMPLE, "deals": [{**D1, "hearts": [4, 6, 4]}]},
            "deal 1: hearts add up to 14, but 13 are in play",
        ),
        ({**EXAMPLE, "options": {"scoring": "hearts"}}, "option scoring must be one of"),
        ("null", "a record must be a JSON object"),
        ([1, 2], "a record must be a JSON object"),
    ],
)
def test_bad_records_are_400_and_store_nothing(client, record, message):
    if record == "null":
        r = client.post("/api/matches", data="null", content_type="application/json")
    else:
        r = client.post("/api/matches", json=record)
    assert r.status_code == 400 and message in r.get_json()["error"]
    assert client.get("/api/matches/1").status_code == 404


@pytest.mark.parametrize(
    "deal, message",
    [
        ({**D1, "hearts": [4, 6, 2]}, "deal 2: hearts add up to 12, but 13 are in play"),
        ({**D1, "extra": 1}, "unknown field extra"),
        ({"hearts": [4, 6, 3]}, "say who took Q♠"),
        ("a deal", "a deal must be a JSON object"),
        ({**D1, "hearts": [4, 6, 10**100]}, "between 0 and 1,000"),
    ],
)
def test_bad_deals_are_400_and_store_nothing(client, deal, message):
    mid = made(client, {**EXAMPLE, "deals": [D1]})["id"]
    r = client.post(f"/api/matches/{mid}/deals", json=deal)
    assert r.status_code == 400 and message in r.get_json()["error"]
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == [D1]


def test_a_deal_after_the_end_is_refused(client):
    everything = {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}
    mid = made(client, {**EXAMPLE, "deals": [everything] * 3})["id"]
    rec = client.get(f"/api/matches/{mid}").get_json()
    assert rec["computed"]["finished"] and rec["computed"]["winners"] == [1, 2]
    r = client.post(f"/api/matches/{mid}/deals", json=D1)
    assert r.status_code == 400 and r.get_json()["error"] == "deal 4: the match is already over"


def test_unknown_match_and_deal_are_404(client):
    assert client.get("/api/matches/5").status_code == 404
    assert client.get("/api/matches/5").get_json()["error"]
    assert client.post("/api/matches/5/deals", json=D1).status_code == 404
    assert client.get("/api/matches/123456789012345678901234567890").status_code == 404
    mid = made(client, EMPTY)["id"]
    assert client.put(f"/api/matches/{mid}/deals/1", json=D1).status_code == 404
    assert client.delete(f"/api/matches/{mid}/deals/0").status_code == 404
    assert client.patch(f"/api/matches/{mid}/deals/1", json=D1).status_code == 405


def test_api_needs_no_csrf_token(csrf_client):
    r = csrf_client.post("/api/matches", json={**EXAMPLE, "deals": []})
    assert r.status_code == 201


def test_history_names_each_kind_and_the_line_an_undo_took_back(client):
    """Made through the API, two deals added, deal 1 changed, then Undo on the
    sheet: the last line is a change back of deal 1 (its entry the first one again)
    that names the line it undid, by its place in the list (4, counted from 1).
    (The history page offers Undo on every line; the latest first.) Another match
    made first, so that the place is not the change's number in the store."""
    made(client, EXAMPLE)
    mid = made(client, EMPTY)["id"]
    client.post(f"/api/matches/{mid}/deals", json=D1)
    client.post(f"/api/matches/{mid}/deals", json=D2)
    client.put(f"/api/matches/{mid}/deals/1", json=D2)
    page = client.get(f"/m/{mid}/history").get_data(as_text=True)
    undo = re.search(r'action="(/m/[^"]+/undo/\d+)"', page).group(1)
    assert client.post(undo, data={"key": "undo-1"}).status_code == 302
    lines = client.get(f"/api/matches/{mid}/history").get_json()["history"]
    assert [(line["kind"], line["deal"]) for line in lines] == [
        ("api", None),
        ("add", 1),
        ("add", 2),
        ("edit", 1),
        ("edit", 1),
    ]
    assert lines[3]["entry"] == D2 and lines[3]["before"] == D1
    assert lines[4]["entry"] == D1 and lines[4]["before"] == D2
    assert lines[4]["undoes"] == 4 and all("undoes" not in line for line in lines[:4])
