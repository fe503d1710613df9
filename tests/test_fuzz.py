"""No 500 is reachable: arbitrary JSON and form fields get a 4xx and change nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import trials
from .test_record import EXAMPLE

FUZZ = settings(  # make stress: 120 examples a test
    max_examples=trials(120, 40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

# Records that look almost right: each field replaced by anything.
near_records = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["hearts", "black_maria", "bridge"]) | json_values,
        "options": st.dictionaries(
            st.sampled_from(
                [
                    "players",
                    "moon",
                    "scoring",
                    "target",
                    "omnibus",
                    "end",
                    "deals",
                    "partnership",
                    "spot_values",
                    "x",
                ]
            ),
            json_values,
            max_size=3,
        ),
        "players": st.lists(st.text(max_size=50), max_size=7) | json_values,
        "first_dealer": json_values,
        "deals": st.lists(json_values, max_size=3),
    },
)


@FUZZ
@given(near_records)
def test_any_record_is_201_or_400(client, record):
    r = client.post("/api/matches", data=json.dumps(record), content_type="application/json")
    assert r.status_code in (201, 400), r.get_data(as_text=True)
    if r.status_code == 400:
        assert r.get_json()["error"]


deal_like = (
    st.fixed_dictionaries(
        {},
        optional={
            "hearts": st.lists(st.integers(-2, 20), min_size=2, max_size=4) | json_values,
            "heart_cards": st.lists(
                st.lists(st.sampled_from(["AH", "2H", "QS", "ZZ"]), max_size=3), max_size=4
            )
            | json_values,
            "taken_by": st.dictionaries(
                st.sampled_from(["QS", "KS", "AS", "JD", "XX"]),
                st.integers(-1, 4) | json_values,
                max_size=4,
            )
            | json_values,
            "other": json_values,
        },
    )
    | json_values
)


@FUZZ
@given(deal_like)
def test_any_deal_is_201_or_400_and_a_refusal_stores_nothing(client, deal):
    r = client.post("/api/matches", json={**EXAMPLE, "deals": []})
    mid = r.get_json()["id"]
    r = client.post(
        f"/api/matches/{mid}/deals", data=json.dumps(deal), content_type="application/json"
    )
    assert r.status_code in (201, 400)
    stored = client.get(f"/api/matches/{mid}").get_json()["deals"]
    assert len(stored) == (1 if r.status_code == 201 else 0)


form_values = st.text(max_size=30) | st.integers(-(10**30), 10**30).map(str)


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "expect",
                "hearts__0",
                "hearts__1",
                "hearts__2",
                "hearts__9",
                "taken_by_QS",
                "taken_by_KS",
                "taken_by_AS",
                "taken_by_JD",
                "heart_cards__AH",
            ]
        ),
        form_values,
        max_size=8,
    )
)
def test_any_deal_form_is_a_redirect_or_400(client, form):
    r = client.post(
        "/new/black_maria", data={"name_0": "A", "name_1": "B", "name_2": "C", "first_dealer": "0"}
    )
    url = r.headers["Location"]
    r = client.post(url + "/deal", data=form)
    assert r.status_code in (302, 400, 409)


GAME_PLAYERS = {
    "hearts": 4,
    "black_maria": 3,
    "knaves": 3,
    "slobberhannes": 4,
    "polignac": 4,
    "metamorphosis": 3,
    "variety": 4,
}
entry_keys = st.sampled_from(
    [
        "hearts",
        "heart_cards",
        "taken_by",
        "tricks",
        "turn_up",
        "capot",
        "declarations",
        "clubs",
        "spades",
        "bids",
        "contract",
        "attackers",
        "red",
        "black_tj",
        "red_tj",
        "play",
        "x",
    ]
)
any_deal = st.dictionaries(
    entry_keys, json_values | st.lists(st.integers(-1, 14), max_size=5), max_size=5
)


@FUZZ
@given(st.sampled_from(sorted(GAME_PLAYERS)), any_deal)
def test_any_deal_of_any_game_is_201_or_400(client, game, deal):
    names = ["A", "B", "C", "D"][: GAME_PLAYERS[game]]
    r = client.post(
        "/api/matches",
        json={
            "game": game,
            "players": names,
            "options": {"capot": True} if game == "polignac" else {},
        },
    )
    mid = r.get_json()["id"]
    r = client.post(
        f"/api/matches/{mid}/deals", data=json.dumps(deal), content_type="application/json"
    )
    assert r.status_code in (201, 400), r.get_data(as_text=True)


form_keys = st.sampled_from(
    [
        "expect",
        "tricks__0",
        "tricks__1",
        "tricks__2",
        "clubs__0",
        "declarations__0",
        "declarations__1",
        "taken_by_JH",
        "taken_by_first_trick",
        "taken_by_QC",
        "capot_seat",
        "capot_made",
        "turn_up",
        "bids",
        "call",
        "undo",
        "step",
        "contract",
        "attackers__0",
        "attackers__1",
        "black_tj",
        "red",
        "check",
        "seat",
        "card",
        "play",
        "quick",
        "hands",
        "save",
        "enter_hands",
        "app_deals",
    ]
)


@FUZZ
@given(
    st.sampled_from(sorted(GAME_PLAYERS)),
    st.dictionaries(form_keys, form_values, max_size=8),
    st.sampled_from(["/deal", "/check"]),
)
def test_any_form_of_any_game_is_answered_without_a_500(client, game, form, page):
    people = {f"name_{s}": n for s, n in enumerate(["A", "B", "C", "D"][: GAME_PLAYERS[game]])}
    url = client.post(f"/new/{game}", data={**people, "first_dealer": "0"}).headers["Location"]
    r = client.post(url + page, data=form)
    assert r.status_code in (200, 302, 400, 404, 409), r.status_code
