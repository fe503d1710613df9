"""Knaves, Slobberhannes and Polignac through the phone forms and the API:
a deal entered, and bad entries refused with a clear message, nothing stored."""

from __future__ import annotations

import re

import pytest

from scorer import store

from .helpers import new_game


def deals(app, mid):
    with app.app_context():
        return list(store.get(store.get_db(), mid).match.deals)


def totals(client, mid):
    page = client.get(f"/m/{mid}").get_data(as_text=True)
    return [int(x) for x in re.findall(r'class="points">(-?\d+)<', page)]


# --- Knaves -----------------------------------------------------------------


def knaves_form(tricks, jh, jd, jc, js, turn_up="", expect=0):
    data = {f"tricks__{s}": str(t) for s, t in enumerate(tricks) if t is not None}
    data.update(
        {
            "taken_by_JH": jh,
            "taken_by_JD": jd,
            "taken_by_JC": jc,
            "taken_by_JS": js,
            "turn_up": turn_up,
            "expect": str(expect),
        }
    )
    return data


def test_knaves_form_example_and_sheet_trump(client, app):
    mid = new_game(client, "knaves", 3)
    # RULES.md example: A 7 + J♥ (-4) = 3; B 6 + J♦ (-3) + J♠ (-1) = 2; C 4 + J♣ (-2) = 2
    # Celina's tricks left empty: 17 - 7 - 6 = 4
    r = client.post(f"/m/{mid}/deal", data=knaves_form([7, 6, None], "0", "1", "2", "1", "5H"))
    assert r.status_code == 302
    assert totals(client, mid) == [3, 2, 2]
    page = client.get(f"/m/{mid}").get_data(as_text=True)
    assert '<small class="tag">♥</small>' in page  # the trump, beside deal 1


def test_knaves_turned_up_jack_is_out_of_play_on_the_form(client, app):
    mid = new_game(client, "knaves", 3)
    # J♥ turned up: A 7 tricks = 7; B 6 + J♦ -3 = 3; C 4 + J♣ -2 + J♠ -1 = 1
    r = client.post(f"/m/{mid}/deal", data=knaves_form([7, 6, 4], "none", "1", "2", "2", "JH"))
    assert r.status_code == 302 and totals(client, mid) == [7, 3, 1]


@pytest.mark.parametrize(
    "form, message",
    [
        (knaves_form([7, 6, 5], "0", "1", "2", "1"), "Tricks add up to 18, but 17 are in play"),
        (
            knaves_form([0, 13, 4], "0", "1", "2", "1"),
            "Ala took no trick, so cannot have 1 jack",
        ),
        (
            knaves_form([7, 6, 4], "none", "1", "2", "1", "5H"),
            "J♥ was not turned up, so it was in play: say who took it",
        ),
        (knaves_form([7, 6, 4], "0", "1", "2", "1", "JH"), "J♥ was turned up"),
    ],
)
def test_knaves_bad_entries(client, app, form, message):
    mid = new_game(client, "knaves", 3)
    r = client.post(f"/m/{mid}/deal", data=form)
    assert r.status_code == 400 and message in r.get_data(as_text=True)
    assert deals(app, mid) == []


# --- Slobberhannes ------------------------------------------------------------


def slob_form(first, last, qc, expect):
    return {
        "taken_by_first_trick": str(first),
        "taken_by_last_trick": str(last),
        "taken_by_QC": str(qc),
        "expect": str(expect),
    }


def test_slobberhannes_to_the_end_and_no_deal_after(client, app):
    mid = new_game(client, "slobberhannes", 4, end="target")
    # RULES.md example: A first trick, B Q♣, C last trick: 1, 2, 1, 0
    client.post(f"/m/{mid}/deal", data=slob_form(0, 2, 1, 0))
    assert totals(client, mid) == [1, 2, 1, 0]
    # then Ala takes all three (4) three times: 1 + 4 = 5, 9 (< 10, play on), 13 ≥ 10: over
    for k in range(3):
        client.post(f"/m/{mid}/deal", data=slob_form(0, 0, 0, k + 1))
    assert totals(client, mid) == [13, 2, 1, 0]
    page = client.get(f"/m/{mid}").get_data(as_text=True)
    assert "Darek wins" in page
    r = client.post(f"/m/{mid}/deal", data=slob_form(1, 1, 1, 4))
    assert len(deals(app, mid)) == 4
    r = client.post(
        "/api/matches",
        json={"game": "slobberhannes", "players": ["A", "B", "C", "D"], "deals": deals(app, mid)},
    )
    mid2 = r.get_json()["id"]
    r = client.post(
        f"/api/matches/{mid2}/deals",
        json={"taken_by": {"first_trick": 0, "last_trick": 0, "QC": 0}},
    )
    assert r.status_code == 400 and r.get_json()["error"] == "deal 5: the match is already over"


def test_slobberhannes_missing_tap(client, app):
    mid = new_game(client, "slobberhannes", 4)
    r = client.post(
        f"/m/{mid}/deal", data={"taken_by_first_trick": "0", "taken_by_QC": "1", "expect": "0"}
    )
    assert r.status_code == 400 and "Say who took the last trick" in r.get_data(as_text=True)
    assert deals(app, mid) == []


def test_slobberhannes_three_players_told_to_remove_sevens(client):
    mid = new_game(client, "slobberhannes", 3)
    page = client.get(f"/m/{mid}/deal").get_data(as_text=True)
    assert "take out 7♠ and 7♣: 10 cards each" in page


# --- Polignac -------------------------------------------------------------------


def pol_form(js, jc, jh, jd, expect, capot="", made=False):
    data = {
        "taken_by_JS": str(js),
        "taken_by_JC": str(jc),
        "taken_by_JH": str(jh),
        "taken_by_JD": str(jd),
        "capot_seat": capot,
        "expect": str(expect),
    }
    if made:
        data["capot_made"] = "y"
    return data


def test_polignac_form_card_order_and_capot(client, app):
    mid = new_game(client, "polignac", 4, capot="y")
    page = client.get(f"/m/{mid}/deal").get_data(as_text=True)
    assert "K Q J A 10 9 8 7" in page
    # A J♠ 2; B J♣ + J♥ 2; C J♦ 1; D 0
    assert client.post(f"/m/{mid}/deal", data=pol_form(0, 1, 1, 2, 0)).status_code == 302
    assert totals(client, mid) == [2, 2, 1, 0]
    # Darek declares capot and makes it: Darek 0, every other player 5 → 7, 7, 6, 0
    r = client.post(f"/m/{mid}/deal", data={"capot_seat": "3", "capot_made": "y", "expect": "1"})
    assert r.status_code == 302, r.get_data(as_text=True)
    assert totals(client, mid) == [7, 7, 6, 0]


def test_polignac_capot_refused_when_off(client, app):
    r = client.post("/api/matches", json={"game": "polignac", "players": ["A", "B", "C", "D"]})
    mid = r.get_json()["id"]
    r = client.post(f"/api/matches/{mid}/deals", json={"capot": {"seat": 0, "made": True}})
    assert r.status_code == 400 and "capot" in r.get_json()["error"]
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == []


def test_polignac_counterclockwise_sheet(client):
    mid = new_game(client, "polignac", 4, direction="counterclockwise")
    client.post(f"/m/{mid}/deal", data=pol_form(0, 1, 1, 2, 0))
    page = client.get(f"/m/{mid}").get_data(as_text=True)
    # deal 2: the deal moves right from Ala (0) to Darek (3); Darek's right, Celina, leads
    assert "Darek deals" in page and "Celina leads" in page


@pytest.mark.parametrize(
    "game, names, deal, message",
    [
        # two players on one jack: the record has room for one seat per jack
        (
            "knaves",
            3,
            {"tricks": [7, 6, 4], "taken_by": {"JH": [0, 1], "JD": 1, "JC": 2, "JS": 1}},
            "J♥ must be a seat from 0 to 2",
        ),
        (
            "polignac",
            4,
            {"taken_by": {"JS": [0, 2], "JC": 1, "JH": 1, "JD": 2}},
            "J♠ must be a seat from 0 to 3",
        ),
        (
            "knaves",
            3,
            {"tricks": [7, 6, 5], "taken_by": {"JH": 0, "JD": 1, "JC": 2, "JS": 1}},
            "tricks add up to 18, but 17 are in play",
        ),
        (
            "slobberhannes",
            4,
            {"taken_by": {"first_trick": 0, "last_trick": 4, "QC": 1}},
            "the last trick must be a seat from 0 to 3",
        ),
    ],
)
def test_api_refuses_bad_entries_and_stores_nothing(client, game, names, deal, message):
    r = client.post("/api/matches", json={"game": game, "players": ["A", "B", "C", "D"][:names]})
    mid = r.get_json()["id"]
    r = client.post(f"/api/matches/{mid}/deals", json=deal)
    assert r.status_code == 400 and message in r.get_json()["error"]
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == []


def test_knaves_tie_at_the_target_says_play_on(client):
    # A 6 tricks, B 6, C 5 and all four jacks: 6, 6, 5 - 10 = -5; target 5: A and B level
    deal = {"tricks": [6, 6, 5], "taken_by": {"JH": 2, "JD": 2, "JC": 2, "JS": 2}}
    r = client.post(
        "/api/matches",
        json={
            "game": "knaves",
            "players": ["A", "B", "C"],
            "options": {"target": 5},
            "deals": [deal],
        },
    )
    assert r.get_json()["computed"]["totals"] == [6, 6, -5]
    assert not r.get_json()["computed"]["finished"]
    page = client.get(f"/m/{r.get_json()['id']}").get_data(as_text=True)
    assert "share the highest total at the target: play on" in page and "Enter deal 2" in page
