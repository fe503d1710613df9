"""Checking a deal trick by trick on the phone form, and "Who won this trick?"."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from scorer.engine import RANDOM, play_deal
from scorer.games import GAMES
from scorer.match import Match, fold

from .helpers import hidden_unescaped, new_bm
from .test_web import deal_form, stored


def tap(client, mid, page, card, seat=None, **extra):
    data = {
        "play": hidden_unescaped(page, "play"),
        "quick": hidden_unescaped(page, "quick"),
        "expect": hidden_unescaped(page, "expect"),
        "card": card,
        **extra,
    }
    if seat is not None:
        data["seat"] = str(seat)
    r = client.post(f"/m/{mid}/check", data=data)
    return r, r.get_data(as_text=True)


def start(client):
    mid = new_bm(client)
    r = client.post(f"/m/{mid}/check", data=deal_form([4, 6, 3], 0, 1, 1, expect=0, check="1"))
    assert r.status_code == 200
    return mid, r.get_data(as_text=True)


def test_the_check_starts_from_the_quick_entry_and_names_whose_turn(client):
    mid, page = start(client)
    assert json.loads(hidden_unescaped(page, "quick")) == {
        "hearts": [4, 6, 3],
        "taken_by": {"QS": 0, "KS": 1, "AS": 1},
    }
    # Ala deals; Bartek, the eldest, leads
    assert "<legend>Bartek leads</legend>" in page
    # 2♣ is out of a 3-player Black Maria pack
    assert re.search(r'value="2C" class="pick"\s+disabled', page)


def test_a_trick_names_its_winner_and_the_next_leader(client):
    mid, page = start(client)
    r, page = tap(client, mid, page, "5H")  # Bartek leads 5♥
    assert "<legend>Celina plays</legend>" in page  # follows, not leads
    r, page = tap(client, mid, page, "9H")  # Celina 9♥
    r, page = tap(client, mid, page, "KH")  # Ala K♥ wins
    assert '<span class="won">→ Ala</span>' in page and "<legend>Ala leads</legend>" in page
    assert re.search(r'value="KH" class="pick red"\s+disabled', page)  # played: greyed


def test_what_cannot_be_is_flagged(client):
    # the picker greys these out; a page sent anyway is answered by name
    mid, page = start(client)
    r, page = tap(client, mid, page, "5H")
    r, second = tap(client, mid, page, "5H")  # played twice
    assert "5♥ is played twice in it" in second  # in this very trick
    r, page = tap(client, mid, page, "2C")  # not in the pack
    assert "2♣ is not in this game&#39;s pack" in page


def test_a_leader_who_did_not_win_the_last_trick_is_flagged(client):
    mid, page = start(client)
    for c in ("5H", "9H", "KH"):  # Ala wins trick 1
        r, page = tap(client, mid, page, c)
    r, page = tap(client, mid, page, "3D", seat=1)  # Bartek leads trick 2
    assert "Trick 2 is led by Bartek, but Ala won trick 1 and leads" in html.unescape(page)


def test_a_revoke_is_flagged(client):
    mid, page = start(client)
    # trick 1: Bartek 5♥, Celina 2♠ (no heart?), Ala K♥; trick 2: Ala 3♦, Bartek 7♦, Celina 4♥
    for c in ("5H", "2S", "KH", "3D", "7D", "4H"):
        r, page = tap(client, mid, page, c)
    assert (
        "Trick 1: Celina plays 2♠ on a ♥ lead, but plays 4♥ in trick 2 (a revoke)"
        in html.unescape(page)
    )


def test_undo_takes_back_the_last_card(client):
    mid, page = start(client)
    r, page = tap(client, mid, page, "5H")
    data = {
        "play": hidden_unescaped(page, "play"),
        "quick": hidden_unescaped(page, "quick"),
        "expect": "0",
        "undo": "1",
    }
    page = client.post(f"/m/{mid}/check", data=data).get_data(as_text=True)
    assert json.loads(hidden_unescaped(page, "play")) == {"tricks": []}


def test_saving_needs_a_whole_deal(client, app):
    mid, page = start(client)
    r, page = tap(client, mid, page, "5H", save="1")
    assert "Save the checked deal" not in page
    assert stored(app, mid).deals == []


def test_garbage_in_the_hidden_fields_changes_nothing(client, app):
    mid, page = start(client)
    for play in [
        "{nope",
        "[" * 50_000,
        json.dumps({"tricks": "x"}),
        json.dumps({"tricks": [[[9, "ZZ"]]]}),
    ]:
        r = client.post(
            f"/m/{mid}/check",
            data={"play": play, "quick": "{", "expect": "0", "card": "5H", "save": "1"},
        )
        assert r.status_code in (200, 400)
    assert stored(app, mid).deals == []


@pytest.mark.parametrize(
    "query, answer",
    [
        (
            "game=hearts&cards=10C+KC+2C+7H",
            "K♣, card 2, wins: the highest card of the suit led (♣)",
        ),
        ("game=knaves&trump=H&cards=AS+KS+2H", "2♥, card 3, wins: a trump (♥) beats every card"),
        (
            "game=knaves&trump=H&cards=AS+KD+QS",
            "A♠, card 1, wins: the highest card of the suit led (♠) wins; "
            "other suits cannot win (no trump was played)",
        ),
        ("game=polignac&cards=AC+KC+7C", "K♣, card 2, wins"),
        ("game=polignac&cards=AC+JC+10C+7C", "J♣, card 2, wins"),
        # Variety type 6: clubs trump, the lowest card wins
        (
            "game=variety&contract=variety:6&cards=5C+KC+2H+9C",
            "5♣, card 1, wins: the lowest trump wins",
        ),
        (
            "game=variety&contract=variety:6&cards=5H+KH+2H+9S",
            "2♥, card 3, wins: no trump was played: the lowest card",
        ),
        (
            "game=variety&contract=variety:6&cards=5H+KH+9C+3C",
            "3♣, card 4, wins: the lowest trump wins",
        ),
        ("game=metamorphosis&trump=D&cards=AC+KC+2D", "2♦, card 3, wins: a trump (♦) beats"),
        ("game=hearts&trump=S&cards=2S+AS+KS", "A♠, card 2, wins: trumps (♠) were led"),
        # the pack depends on the number of players: with 4, Black Maria keeps 2♣ (RULES.md)
        ("game=black_maria&cards=2C+KC+AC+3C", "A♣, card 3, wins"),
        # Polignac with 5 players may take out the red sevens instead: 7♣ stays
        ("game=polignac&cards=AC+KC+7C+8C+9C", "K♣, card 2, wins"),
    ],
)
def test_who_won_this_trick(client, query, answer):
    page = client.get("/trick?" + query).get_data(as_text=True)
    assert answer in html.unescape(page)


@pytest.mark.parametrize(
    "query, problem",
    [
        # a trick has a card from each player: three cards, three players' pack
        ("game=polignac&cards=2C+KC+AC", "2♣ is not in the pack of Polignac with 3 players"),
        # RULES.md: 3-player Black Maria takes out 2♣
        ("game=black_maria&cards=2C+KC+AC", "2♣ is not in the pack of Black Maria with 3 players"),
        (
            "game=black_maria&cards=QS+2S",
            "A trick has one card from each player, and Black Maria is played by 3, 4, 5 or 6 "
            "players: not 2 cards",
        ),
        # six players: Black Maria takes out all four 2s, Hearts 2♣ 2♦ 2♠ 3♣
        (
            "game=black_maria&cards=2C+KC+AC+3C+4C+5C",
            "2♣ is not in the pack of Black Maria with 6 players",
        ),
        ("game=hearts&cards=3C+KC+AC+4C+5C+6C", "3♣ is not in the pack of Hearts with 6 players"),
        # Slobberhannes with 5 or 6 takes out 7♠ and 7♣, with no other choice
        (
            "game=slobberhannes&cards=7C+KC+AC+8C+9C",
            "7♣ is not in the pack of Slobberhannes with 5 players",
        ),
        ("game=hearts&cards=ZZ+KC", "ZZ is not a card"),
        ("game=hearts&cards=KC+KC+AC", "A card appears twice"),
        (
            "game=hearts&cards=KC",
            "A trick has one card from each player, and Hearts is played by 3, 4, 5 or 6 "
            "players: not 1 card",
        ),
        ("game=bridge&cards=KC+AC", "Game: tap one of the choices"),
        ("game=hearts&trump=X&cards=KC+AC", "Trump: tap one of the choices"),
        (
            "game=variety&contract=variety:99&cards=KC+AC",
            "The Variety deal type: tap one of the choices",
        ),
        ("game=hearts&contract=variety:6&cards=KC+AC+QC", "That deal type is not one of Hearts"),
    ],
)
def test_who_won_refuses_what_cannot_be(client, query, problem):
    r = client.get("/trick?" + query)
    assert r.status_code == 400 and problem in html.unescape(r.get_data(as_text=True))


def test_hands_entered_first_then_every_card_is_checked(client, app):
    names = ["Ala", "Bartek", "Celina"]
    rules = GAMES["black_maria"](GAMES["black_maria"].normalize_options({}, 3), names)
    plan = fold(Match("black_maria", rules.opts, names)).next
    played = play_deal(rules, plan, [RANDOM] * 3, random.Random(3))
    mid, page = start(client)

    def post(**data):
        base = {
            "play": hidden_unescaped(page, "play"),
            "quick": hidden_unescaped(page, "quick"),
            "expect": "0",
            "hands": hidden_unescaped(page, "hands"),
        }
        return client.post(f"/m/{mid}/check", data={**base, **data}).get_data(as_text=True)

    page = post(enter_hands="1")
    assert "Ala's hand: 0 of 17 cards" in html.unescape(page)
    for seat in (0, 1):  # two hands tapped in; Celina's is what is left
        for c in played.hands[seat]:
            page = post(card=c)
    hands = json.loads(hidden_unescaped(page, "play"))["hands"]
    assert hands[:2] == played.hands[:2] and sorted(hands[2]) == sorted(played.hands[2])
    assert "Hands known" in page
    # Bartek leads; only his cards can be tapped
    bartek = set(played.hands[1])
    enabled = set(re.findall(r'value="(\w+)" class="pick(?: red)?">', page))
    assert enabled == bartek
    # Bartek leads a suit; Celina, holding that suit, plays another: named at once
    lead = played.hands[1][0]
    suit = lead[-1]
    follow = [c for c in played.hands[2] if c[-1] == suit]
    other = [c for c in played.hands[2] if c[-1] != suit]
    page = post(card=lead)
    assert follow and other  # seed 3 deals Celina both kinds
    page = post(card=other[0])
    assert re.search(r"Trick 1: Celina plays .+, but holds .+ and must follow", html.unescape(page))


def test_the_app_can_deal_the_hands(client):
    mid, page = start(client)
    page = client.post(
        f"/m/{mid}/check",
        data={
            "play": hidden_unescaped(page, "play"),
            "quick": hidden_unescaped(page, "quick"),
            "expect": "0",
            "hands": "",
            "app_deals": "1",
        },
    ).get_data(as_text=True)
    hands = json.loads(hidden_unescaped(page, "play"))["hands"]
    # 3-player Black Maria: 17 each from the 51 cards without 2♣, every card once
    assert [len(h) for h in hands] == [17, 17, 17]
    cards = [c for h in hands for c in h]
    assert len(set(cards)) == 51 and "2C" not in cards
    # Bartek leads: the picker offers just his cards
    assert set(re.findall(r'value="(\w+)" class="pick(?: red)?">', page)) == set(hands[1])
    # and his hand is listed as a player holds it: ♠ ♥ ♦ ♣, each from the ace down
    # (a Russian reader met «… 5♥ Т♥ К♣ К♠», the record's codes in alphabetical order)
    held = re.search(r'<p class="hand">(.*?)</p>', page, re.S).group(1)
    shown = [html.unescape(t) for t in re.findall(r"<b[^>]*>(.*?)</b>", held)]
    ranks = "A K Q J 10 9 8 7 6 5 4 3 2".split()
    order = sorted(hands[1], key=lambda c: ("SHDC".index(c[-1]), ranks.index(c[:-1])))
    assert shown == [c[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[-1]] for c in order]


def test_no_app_deal_where_hands_come_from_elsewhere(client):
    r = client.post(
        "/new/knaves", data={"name_0": "A", "name_1": "B", "name_2": "C", "first_dealer": "0"}
    )
    url = r.headers["Location"]
    page = client.post(url + "/check", data={"expect": "0", "check": "1"}).get_data(as_text=True)
    assert "Enter the hands" in page and "Let the app deal" not in page


@pytest.mark.parametrize(
    "form",
    [
        {"hands": "[1]", "card": "2S"},
        {"hands": '["x"]', "undo": "1"},
        {"hands": "[{}]", "card": "2S"},
        {"hands": "[[[1],[2]]]", "card": "2S"},
        {"hands": '[["ZZ"], [], []]', "card": "2S"},
        {"play": '{"tricks": [[]]}', "undo": "1"},
        {"seat": "²", "card": "2S"},
        {"seat": "99", "card": "2S"},
    ],
)
def test_tampered_check_pages_change_nothing(client, app, form):
    mid, page = start(client)
    data = {
        "play": hidden_unescaped(page, "play"),
        "quick": hidden_unescaped(page, "quick"),
        "expect": "0",
        **form,
    }
    r = client.post(f"/m/{mid}/check", data=data)
    assert r.status_code in (200, 400)
    assert stored(app, mid).deals == []


def test_saving_an_unfinished_deal_says_why(client, app):
    mid, page = start(client)
    r, page = tap(client, mid, page, "5H", save="1")
    assert r.status_code == 400 and "the deal is not complete yet (0 of 17 tricks)" in page
    assert stored(app, mid).deals == []


def test_check_from_a_half_filled_metamorphosis_or_variety_form(client):
    for game, names, data in [
        ("metamorphosis", 3, {"check": "1", "expect": "0"}),
        ("metamorphosis", 3, {"check": "1", "expect": "0", "declarations__0": "1"}),
        ("variety", 4, {"check": "1", "expect": "0", "bids": "9"}),
        (
            "variety",
            4,
            {
                "check": "1",
                "expect": "0",
                "contract": "2",
                "attackers__0": "0",
                "attackers__1": "9",
            },
        ),
        (
            "variety",
            4,
            {
                "check": "1",
                "expect": "0",
                "contract": "2",
                "attackers__0": "2",
                "attackers__1": "-1",
            },
        ),
    ]:
        people = {f"name_{s}": n for s, n in enumerate(["A", "B", "C", "D"][:names])}
        url = client.post(f"/new/{game}", data={**people, "first_dealer": "0"}).headers["Location"]
        assert client.post(url + "/check", data=data).status_code in (200, 400)
        assert client.post(url + "/deal", data=data).status_code in (200, 400)


def test_one_tap_on_its_holder_plays_the_card_that_opens_the_deal(client):
    """Hearts: whoever holds 2♣ leads it (RULES.md), so with the hands unknown the
    check asks who holds it, and one tap on Celina plays it for her; Darek, on her
    left, plays next. A form post, as without JavaScript."""
    r = client.post(
        "/new/hearts",
        data={
            "name_0": "Ala",
            "name_1": "Bartek",
            "name_2": "Celina",
            "name_3": "Darek",
            "first_dealer": "0",
        },
    )
    mid = r.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/m/{mid}/check").get_data(as_text=True)
    assert "2♣ leads (whoever holds it)" in page
    # four chips a row: the whole name, for the page to cut where it does not fit
    celina = '<span class="name" title="Celina"><span class="rest">Celina</span></span>'
    assert f'name="lead" value="2">{celina}</button>' in page
    assert 'class="picker"' not in page  # nothing else can open the deal
    r = client.post(
        f"/m/{mid}/check",
        data={"play": hidden_unescaped(page, "play"), "quick": "{}", "expect": "0", "lead": "2"},
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert json.loads(hidden_unescaped(page, "play")) == {"tricks": [[[2, "2C"]]]}
    assert "<legend>Darek plays</legend>" in page
    assert 'name="lead"' not in page and 'class="picker"' in page
    # once a card is down, "lead" opens nothing: the page is refused, nothing changes
    r = client.post(
        f"/m/{mid}/check",
        data={"play": hidden_unescaped(page, "play"), "quick": "{}", "expect": "0", "lead": "1"},
    )
    assert r.status_code == 400 and "That is not a card." in r.get_data(as_text=True)
    assert json.loads(hidden_unescaped(r.get_data(as_text=True), "play")) == {
        "tricks": [[[2, "2C"]]]
    }


@pytest.mark.parametrize(
    "game, names, trump, enter",
    [
        # Hearts' first deal passes three cards: the hands are entered after it
        ("hearts", 4, "No trumps", "Enter the hands (after the passing)"),
        # Knaves: the trump is the suit of the card turned up, not yet entered
        ("knaves", 3, "Trump: the suit of the turned-up card", "Enter the hands<"),
        # Metamorphosis' first deal has no trump and no passing: its title says "no
        # trumps", and no chip says it again (the Russian reader, 29)
        ("metamorphosis", 3, "", "Enter the hands<"),
    ],
)
def test_the_check_says_the_deal_s_trump_and_passing_as_the_game_has_them(
    client, game, names, trump, enter
):
    people = {f"name_{s}": n for s, n in enumerate(["Ala", "Bartek", "Celina", "Darek"][:names])}
    url = client.post(f"/new/{game}", data={**people, "first_dealer": "0"}).headers["Location"]
    page = html.unescape(client.get(url + "/check").get_data(as_text=True))
    if trump:
        assert f"<li>{trump}</li>" in page
    else:
        assert "<li>No trumps</li>" not in page and "no trumps" in page
    assert enter in page
    assert ("passing" in page) == (game == "hearts")
