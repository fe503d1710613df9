"""Variety's auction and Metamorphosis' rounds through the phone forms."""

from __future__ import annotations

import re

import pytest

from scorer import store

FOUR = {
    "name_0": "Ala",
    "name_1": "Bartek",
    "name_2": "Celina",
    "name_3": "Darek",
    "first_dealer": "0",
}


def new(client, game, data):
    r = client.post(f"/new/{game}", data=data)
    assert r.status_code == 302
    return r.headers["Location"]


def stored(app, url):
    with app.app_context():
        return list(store.get(store.get_db(), url.rsplit("/", 1)[1]).match.deals)


def bids_in(page):
    return re.search(r'name="bids" type="hidden" value="([^"]*)"', page).group(1)


def call(client, url, bids, value):
    r = client.post(url + "/deal", data={"expect": "0", "bids": bids, "call": str(value)})
    return r, r.get_data(as_text=True)


def test_auction_call_by_call_then_counts(client, app):
    url = new(client, "variety", FOUR)
    page = client.get(url + "/deal").get_data(as_text=True)
    assert "Bartek calls" in page  # the dealer's (Ala's) left calls first
    r, page = call(client, url, "", 2)
    assert bids_in(page) == "2" and "Celina calls" in page
    r, page = call(client, url, "2", 5)
    r, page = call(client, url, "2,5", 2)  # Darek repeats Bartek's 2: the auction ends
    assert (
        "Type 2, ♣ trumps" in page
        and "Bartek and Darek attack, Ala and Celina defend; Celina leads" in page
    )
    assert 'name="tricks"' in page and 'name="red"' not in page
    # a call after the end changes nothing
    r, page = call(client, url, "2,5,2", 3)
    assert bids_in(page) == "2,5,2"
    # type 2, attackers 7 tricks: 14 each; defenders 6 tricks: 12 each (RULES.md)
    r = client.post(url + "/deal", data={"expect": "0", "bids": "2,5,2", "tricks": "7"})
    assert r.status_code == 302
    assert stored(app, url) == [
        {"bids": [2, 5, 2], "contract": 2, "attackers": [1, 3], "tricks": 7}
    ]
    page = client.get(url).get_data(as_text=True)
    assert re.findall(r'class="points">(-?\d+)<', page) == ["12", "14", "12", "14"]
    assert "Types called so far: Ala — · Bartek 2 · Celina 5 · Darek 2" in page


def test_a_finished_variety_sheet_no_longer_lists_the_types_called(client):
    """The types called so far are for the next auction: once the match is over
    (its eight deals) the sheet says who won, not the types."""
    import random  # noqa: PLC0415

    from scorer.autoplay import play_match  # noqa: PLC0415
    from scorer.engine import RANDOM  # noqa: PLC0415
    from scorer.games import GAMES  # noqa: PLC0415

    names = ["Ala", "Bartek", "Celina", "Darek"]
    rules = GAMES["variety"](GAMES["variety"].normalize_options({}, 4), names)
    deals = [e for _p, _t, e in play_match(rules, [RANDOM] * 4, random.Random(3))]
    assert len(deals) == 8
    record = {"game": "variety", "players": names, "first_dealer": 0}
    mid = client.post("/api/matches", json={**record, "deals": deals[:7]}).get_json()["id"]
    assert "Types called so far:" in client.get(f"/m/{mid}").get_data(as_text=True)
    mid = client.post("/api/matches", json={**record, "deals": deals}).get_json()["id"]
    page = client.get(f"/m/{mid}").get_data(as_text=True)
    assert "Types called so far:" not in page and "Rematch" in page


def test_a_player_may_not_repeat_their_own_call(client, app):
    url = new(client, "variety", FOUR)
    # Bartek 1, Celina 2, Darek 3, Ala 4; Bartek again: 1 is his own
    r, page = call(client, url, "1,2,3,4", 1)
    assert r.status_code == 400
    assert "Call 5: Bartek already named type 1 in this auction" in page
    assert bids_in(page) == "1,2,3,4"
    # and the button for his own call is disabled
    assert re.search(r'value="1" class="call" disabled', page)
    assert stored(app, url) == []


def test_undo_takes_back_the_last_call(client):
    url = new(client, "variety", FOUR)
    r = client.post(url + "/deal", data={"expect": "0", "bids": "3,4", "undo": "1"})
    assert bids_in(r.get_data(as_text=True)) == "3"


def test_the_ninth_call_ends_it(client, app):
    url = new(client, "variety", FOUR)
    # eight different types by B C D A B C D A; Bartek's ninth call repeats Celina's 2
    r, page = call(client, url, "1,2,3,4,5,6,7,8", 2)
    assert "Celina and Bartek attack" in page
    r = client.post(
        url + "/deal", data={"expect": "0", "bids": "1,2,3,4,5,6,7,8,2", "tricks": "13"}
    )
    assert r.status_code == 302
    # 13 tricks × 2 = 26 to Celina and Bartek; 0 to Ala and Darek, no bonus
    assert stored(app, url)[0]["attackers"] == [2, 1]


def test_saving_before_the_auction_ends_is_refused(client, app):
    url = new(client, "variety", FOUR)
    r = client.post(url + "/deal", data={"expect": "0", "bids": "1,2"})
    assert r.status_code == 400 and "The auction has not ended" in r.get_data(as_text=True)
    assert stored(app, url) == []


@pytest.mark.parametrize(
    "chosen, words",
    [
        ({"contract": "5", "attackers__0": "0"}, "choose both players"),
        ({"contract": "5", "attackers__0": "1", "attackers__1": "1"}, "two different players"),
        ({"attackers__0": "0", "attackers__1": "2"}, "Say which type was played (1 to 8)"),
    ],
)
def test_the_untracked_step_says_what_it_waits_for(client, app, chosen, words):
    """'Use this type and these attackers' with one attacker, the same player twice
    or no type: the page says why no count came, keeps the taps and stores nothing."""
    url = new(client, "variety", FOUR)
    r = client.post(url + "/deal", data={"expect": "0", "bids": "", "step": "1", **chosen})
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and words in page and 'name="black_tj"' not in page
    for name, value in chosen.items():  # the taps stay
        tags = re.findall(rf'<input [^>]*name="{name}"[^>]*value="{value}"[^>]*>', page)
        assert tags and all(" checked" in tag for tag in tags), name
    assert stored(app, url) == []


def test_untracked_auction_type_and_attackers(client, app):
    url = new(client, "variety", FOUR)
    r = client.post(
        url + "/deal",
        data={
            "expect": "0",
            "bids": "",
            "contract": "5",
            "attackers__0": "0",
            "attackers__1": "2",
            "step": "1",
        },
    )
    page = r.get_data(as_text=True)
    assert 'name="black_tj"' in page and 'name="red_tj"' in page
    # type 5: attackers 1 black 10/J and 1 red (0); defenders 3 black, 3 red (0): a tie → +10
    r = client.post(
        url + "/deal",
        data={
            "expect": "0",
            "bids": "",
            "contract": "5",
            "attackers__0": "0",
            "attackers__1": "2",
            "black_tj": "1",
            "red_tj": "1",
        },
    )
    assert r.status_code == 302
    assert stored(app, url) == [{"contract": 5, "attackers": [0, 2], "black_tj": 1, "red_tj": 1}]
    page = client.get(url).get_data(as_text=True)
    assert re.findall(r'class="points">(-?\d+)<', page) == ["0", "10", "0", "10"]


def test_a_count_that_cannot_be_is_refused(client, app):
    url = new(client, "variety", FOUR)
    r = client.post(url + "/deal", data={"expect": "0", "bids": "4,4", "tricks": "2", "red": "9"})
    assert r.status_code == 400 and "not 9 red ones" in r.get_data(as_text=True)
    assert stored(app, url) == []


def test_editing_a_variety_deal_shows_its_auction(client, app):
    url = new(client, "variety", FOUR)
    client.post(url + "/deal", data={"expect": "0", "bids": "2,5,2", "tricks": "7"})
    page = client.get(url + "/deal/1").get_data(as_text=True)
    assert bids_in(page) == "2,5,2" and 'value="7"' in page


# --- Metamorphosis ------------------------------------------------------------


def test_metamorphosis_declarations_and_helper_on_the_sheet(client, app):
    url = new(
        client,
        "metamorphosis",
        {"name_0": "Ala", "name_1": "Bartek", "name_2": "Celina", "first_dealer": "0"},
    )
    form = {
        "expect": "0",
        "declarations__0": "1",
        "declarations__1": "2",
        "declarations__2": "1",
        "tricks__0": "3",
        "tricks__1": "5",
        "clubs__0": "3",
        "clubs__1": "5",
        "clubs__2": "0",
    }
    assert client.post(url + "/deal", data=form).status_code == 302
    page = client.get(url).get_data(as_text=True)
    # RULES.md: -12, -20, 0, and Celina declared deal 1 → +10
    assert re.findall(r'class="points">(−?\d+)<', page) == ["−12", "−20", "10"]
    assert "Deal 2 (round 1, deal 2 of 4)" in page
    assert "Declarations: Ala deal 1, Bartek deal 2, Celina deal 1" in page
    assert (
        "Bartek discards 3 cards face down." in page and "Ala draws 3 cards from the stock." in page
    )
    # declarations again on deal 2 are refused
    r = client.post(
        url + "/deal",
        data={
            "expect": "1",
            "tricks__0": "4",
            "tricks__1": "4",
            "hearts__0": "0",
            "hearts__1": "0",
            "hearts__2": "0",
        },
    )
    assert r.status_code == 302
    assert "declarations" not in stored(app, url)[1]


def test_metamorphosis_count_above_cards_taken_is_refused(client, app):
    url = new(
        client,
        "metamorphosis",
        {"name_0": "Ala", "name_1": "Bartek", "name_2": "Celina", "first_dealer": "0"},
    )
    form = {
        "expect": "0",
        "declarations__0": "1",
        "declarations__1": "2",
        "declarations__2": "3",
        "tricks__0": "1",
        "tricks__1": "5",
        "clubs__0": "4",
        "clubs__1": "5",
        "clubs__2": "0",
    }
    r = client.post(url + "/deal", data=form)
    assert r.status_code == 400 and "Ala took 1 trick (3 cards): too few for 4 clubs" in r.get_data(
        as_text=True
    )
    assert stored(app, url) == []


def test_auction_edge_cases_through_the_api(client):
    r = client.post("/api/matches", json={"game": "variety", "players": ["A", "B", "C", "D"]})
    mid = r.get_json()["id"]
    deal = f"/api/matches/{mid}/deals"
    # a player repeating their own call (B's fifth call repeats B's first)
    r = client.post(deal, json={"bids": [1, 2, 3, 4, 1], "tricks": 7})
    assert r.status_code == 400 and "call 5: B already named type 1" in r.get_json()["error"]
    # calls after the end
    r = client.post(deal, json={"bids": [2, 2, 5], "tricks": 7})
    assert r.status_code == 400 and "call 3 is one too many" in r.get_json()["error"]
    # bids and contract disagree
    r = client.post(deal, json={"bids": [2, 2], "contract": 3, "spades": 4})
    assert (
        r.status_code == 400
        and "the calls choose type 2, but the type played is 3" in r.get_json()["error"]
    )
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == []
    # a repeat on the second call: B and C attack type 2; 7 tricks → 14, 12 to the others
    r = client.post(deal, json={"bids": [2, 2], "tricks": 7})
    assert r.status_code == 201 and r.get_json()["per_deal"] == [[12, 14, 14, 12]]
    # the ninth call: dealer now B, so C calls first: C D A B C D A B C
    r = client.post(deal, json={"bids": [1, 2, 3, 4, 5, 6, 7, 8, 2], "tricks": 6})
    # type 2 named first by D, repeated by C: D and C attack, 6 tricks → 12; A, B 7 → 14,
    # and the attackers did not score more: A, B +10 → 24
    assert r.status_code == 201 and r.get_json()["per_deal"][1] == [24, 24, 12, 12]


def one_auction_in(client) -> str:
    """A Variety match made through the API, its deal 1 entered by its calls
    (Bartek 2, Celina 3, Darek 6, Ala 2), this client scoring it: its id."""
    made = client.post(
        "/api/matches",
        json={
            "game": "variety",
            "players": ["Ala", "Bartek", "Celina", "Darek"],
            "deals": [{"bids": [2, 3, 6, 2], "tricks": 7}],
        },
    ).get_json()
    assert client.get(f"/m/{made['id']}/score?key={made['edit_key']}").status_code == 302
    return made["id"]


def test_a_choice_between_an_auction_and_its_type_and_attackers_lines_up_each_question(client):
    """Deal 1 stored by its calls (Bartek 2, Celina 3, Darek 6, Ala 2: Ala repeats
    Bartek's type 2, so Bartek and Ala attack), entered again as type 2 with Bartek
    and Ala: a line for each question either side asks, each side's answer to it
    (the other side's tricks, 7, stood beside the stored "The attackers' tricks"
    as 2, its type; the auction's type and attackers were not shown)."""
    mid = one_auction_in(client)
    other = {"contract": 2, "attackers": [1, 0], "tricks": 7}
    r = client.post(f"/api/matches/{mid}/deals?deal=1", json=other)
    assert r.status_code == 409
    page = client.get(f"/m/{mid}/choice/{r.get_json()['conflict']}").get_data(as_text=True)
    rows = {
        cells[0]: cells[1:3]
        for row in re.findall(r"<tr.*?</tr>", page, re.S)
        if len(cells := [c for c in re.split(r"\s*<[^>]+>\s*", row) if c.strip()]) >= 3
    }
    assert rows["The auction"] == ["2,3,6,2", "—"]
    assert rows["The attackers&#39; tricks"] == ["7", "7"]
    # the auction's own type and attackers beside those typed: the same
    # each row named short, as a refusal names it, not by the form's long question
    assert rows["The type played"] == ["2", "2"]
    assert rows["The attackers (1)"] == ["Bartek", "Bartek"]
    assert rows["The attackers (2)"] == ["Ala", "Ala"]
    assert not any(k.startswith(("Auction not tracked", "The attackers: who")) for k in rows)
