"""A deal form drawn again with what was typed (a refused save, an auction's call)
is still the form of the deal its page was for: its next save is that deal, the
same or kept for a choice, whatever another phone saved meanwhile; never the deal
after it, nor the deal that took an edited deal's place. (A walk-through of two
phones found a refused deal 2 saved again as deal 3, and an edit refused once
that overwrote another phone's edit of the same deal unasked.)

Black Maria, three players (RULES.md: a heart 1, Q♠ 13, K♠ 10, A♠ 7)."""

from __future__ import annotations

import re

from .helpers import hidden, new_bm
from .test_sharing import D1, D2, D3, as_form, key_of, text
from .test_web_compendium import one_auction_in

# deal 2 typed with one heart too few: 0 + 5 + 7 = 12 hearts, which the rules refuse
D2_TYPO = {"hearts": [0, 5, 7], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}
# deal 2 as a second phone has it: Ala 0, Bartek 6 + A♠ = 13, Celina 7 + Q♠ + K♠ = 30
D2_OTHER = {"hearts": [0, 6, 7], "taken_by": {"QS": 2, "KS": 2, "AS": 1}}


def deals(client, mid) -> list:
    return client.get(f"/api/matches/{mid}").get_json()["deals"]


def two_scorers(app, phones):
    a, b, _c = phones
    mid = new_bm(a)
    assert b.get(f"/m/{mid}/score?key={key_of(app, mid)}").status_code == 302
    return a, b, mid


def test_a_refused_deal_comes_back_as_its_own_deal_after_another_phone_saved_it(app, phones):
    a, b, mid = two_scorers(app, phones)
    a.post(f"/m/{mid}/deal", data=as_form(D1, text(a.get(f"/m/{mid}/deal"))))
    page_a, page_b = text(a.get(f"/m/{mid}/deal")), text(b.get(f"/m/{mid}/deal"))
    assert b.post(f"/m/{mid}/deal", data=as_form(D2, page_b)).status_code == 302
    r = a.post(f"/m/{mid}/deal", data=as_form(D2_TYPO, page_a))
    again = text(r)
    assert r.status_code == 400 and "Hearts add up to 12" in again
    assert hidden(again, "number") == "2" and "Save deal 2" in again and "deal 3" not in again
    assert hidden(again, "expect") == hidden(page_a, "expect")  # the page's own mark
    # put right, it is deal 2, the same as B's: stored once
    r = a.post(f"/m/{mid}/deal", data=as_form(D2, again))
    assert r.status_code == 302 and "/choice/" not in r.location
    assert deals(a, mid) == [D1, D2]


def test_a_refused_deal_put_right_differently_is_kept_for_the_choice(app, phones):
    a, b, mid = two_scorers(app, phones)
    a.post(f"/m/{mid}/deal", data=as_form(D1, text(a.get(f"/m/{mid}/deal"))))
    page_a, page_b = text(a.get(f"/m/{mid}/deal")), text(b.get(f"/m/{mid}/deal"))
    b.post(f"/m/{mid}/deal", data=as_form(D2, page_b))
    again = text(a.post(f"/m/{mid}/deal", data=as_form(D2_TYPO, page_a)))
    r = a.post(f"/m/{mid}/deal", data=as_form(D2_OTHER, again))
    assert r.status_code == 302 and "/choice/" in r.location
    assert deals(a, mid) == [D1, D2]  # B's stands until a scorer chooses


def test_a_refused_edit_keeps_its_mark_and_meets_the_other_phone_s_edit(app, phones):
    """A and B both open "Edit deal 2"; B saves; A's save is refused once (a typo).
    Put right, A's entry differs from B's: kept for the choice, B's not overwritten."""
    a, b, mid = two_scorers(app, phones)
    for entry in (D1, D2):
        a.post(f"/m/{mid}/deal", data=as_form(entry, text(a.get(f"/m/{mid}/deal"))))
    page_a, page_b = text(a.get(f"/m/{mid}/deal/2")), text(b.get(f"/m/{mid}/deal/2"))
    assert b.post(f"/m/{mid}/deal/2", data=as_form(D2_OTHER, page_b)).status_code == 302
    again = text(a.post(f"/m/{mid}/deal/2", data=as_form(D2_TYPO, page_a)))
    assert "Hearts add up to 12" in again
    assert hidden(again, "expect") == hidden(page_a, "expect")
    r = a.post(f"/m/{mid}/deal/2", data=as_form(D3, again))
    assert r.status_code == 302 and "/choice/" in r.location
    assert deals(a, mid) == [D1, D2_OTHER]


def test_a_refused_edit_of_a_deal_moved_up_edits_that_deal(app, phones):
    """A opens "Edit deal 2"; B deletes deal 1, so A's deal is deal 1 now. A's typo is
    this deal's own fault (not "after this change deal 1 could not stand"); put
    right, A's save edits that deal, not the deal that is number 2 now."""
    a, b, mid = two_scorers(app, phones)
    for entry in (D1, D2, D3):
        a.post(f"/m/{mid}/deal", data=as_form(entry, text(a.get(f"/m/{mid}/deal"))))
    page_a = text(a.get(f"/m/{mid}/deal/2"))
    page_b = text(b.get(f"/m/{mid}/deal/1"))
    delete = page_b[page_b.index("/delete") :]
    seen, key = (
        re.search(rf'name="{n}" value="([^"]*)"', delete).group(1) for n in ("seen", "key")
    )
    r = b.post(f"/m/{mid}/deal/1/delete", data={"seen": seen, "key": key})
    assert r.status_code == 302
    assert deals(a, mid) == [D2, D3]
    again = text(a.post(f"/m/{mid}/deal/2", data=as_form(D2_TYPO, page_a)))
    error = re.search(r'id="error"[^>]*>([^<]*)<', again).group(1)
    assert "Hearts add up to 12" in error and "could not stand" not in error
    assert "Edit deal 1" in again and f'action="/m/{mid}/deal/1"' in again  # its number now
    r = a.post(f"/m/{mid}/deal/2", data=as_form(D2_OTHER, again))
    assert r.status_code == 302
    assert deals(a, mid) == [D2_OTHER, D3]


def test_a_refused_last_deal_comes_back_when_the_match_ended_meanwhile(phones):
    """A match of three deals, two in. A and B open deal 3; A saves it, which ends
    the match. B's typo brings back B's form of deal 3 with what B typed (not "the
    match is over" and the entry gone); put right, it is deal 3, the same: once."""
    a, b, _c = phones
    made = a.post(
        "/api/matches",
        json={
            "game": "black_maria",
            "players": ["Ala", "Bartek", "Celina"],
            "options": {"end": "deals", "deals": 3},
            "deals": [D1, D2],
        },
    ).get_json()
    mid = made["id"]
    for phone in (a, b):
        assert phone.get(f"/m/{mid}/score?key={made['edit_key']}").status_code == 302
    page_a, page_b = text(a.get(f"/m/{mid}/deal")), text(b.get(f"/m/{mid}/deal"))
    assert a.post(f"/m/{mid}/deal", data=as_form(D3, page_a)).status_code == 302
    typo = {**D3, "hearts": [12, 0, 0]}
    r = b.post(f"/m/{mid}/deal", data=as_form(typo, page_b))
    again = text(r)
    assert r.status_code == 400 and "Hearts add up to 12" in again
    assert 'value="12"' in again and hidden(again, "number") == "3"
    r = b.post(f"/m/{mid}/deal", data=as_form(D3, again))
    assert r.status_code == 302 and "/choice/" not in r.location
    assert deals(a, mid) == [D1, D2, D3]


def test_an_auction_call_after_another_phone_saved_the_deal_keeps_the_deal_s_number(client):
    """Variety: A is calling deal 2's auction when deal 2 is saved elsewhere. A's next
    call draws A's form again as deal 2 (it said "Deal 2" over "Save deal 3", and
    the deal was stored again as deal 3)."""
    mid = one_auction_in(client)
    page = text(client.get(f"/m/{mid}/deal"))
    assert hidden(page, "number") == "2" and "Save deal 2" in page
    mark = hidden(page, "expect")
    r = client.post(f"/api/matches/{mid}/deals", json={"bids": [8, 5, 8], "tricks": 8})
    assert r.status_code == 201, r.get_json()
    form = {"expect": mark, "number": "2", "key": hidden(page, "key"), "bids": "8", "call": "5"}
    again = text(client.post(f"/m/{mid}/deal", data=form))
    assert hidden(again, "number") == "2" and hidden(again, "expect") == mark
    assert "Save deal 2" in again and "Save deal 3" not in again
    assert hidden(again, "bids") == "8,5"


def test_a_choice_made_on_a_page_drawn_before_another_phone_changed_the_deal_waits(app, phones):
    """B's entry of deal 2 met A's: B's choice page is open. A corrects deal 2 on the
    sheet meanwhile. B's "Replace" overwrote A's correction unseen; now nothing is
    changed and B's choice page shows the deal as it stands, to choose again."""
    a, b, mid = two_scorers(app, phones)
    save_next(a, mid, D1)
    early = text(b.get(f"/m/{mid}/deal"))
    save_next(a, mid, D2)
    r = b.post(f"/m/{mid}/deal", data=as_form(D2_OTHER, early))
    url = r.location
    assert "/choice/" in url
    choice = text(b.get(url))
    seen = field_named(choice, "seen")
    key = re.search(r'name="key" value="([^"]*)"', choice).group(1)
    fixed = {**D2, "taken_by": {"QS": 2, "KS": 1, "AS": 0}}  # A's correction: K♠ to Bartek
    page = text(a.get(f"/m/{mid}/deal/2"))
    assert a.post(f"/m/{mid}/deal/2", data=as_form(fixed, page)).status_code == 302
    sent = {"action": "replace", "key": key, "seen": seen}
    r = b.post(url, data=sent, follow_redirects=True)
    assert "Not changed: deal 2 was changed on another phone meanwhile." in text(r)
    assert deals(a, mid) == [D1, fixed]
    again = text(r)
    assert field_named(again, "seen") != seen  # drawn as the deal stands now
    sent = {"action": "replace", "key": key + "2", "seen": field_named(again, "seen")}
    assert b.post(url, data=sent).status_code == 302
    assert deals(a, mid) == [D1, D2_OTHER]  # chosen again, knowingly


def save_next(client, mid, entry) -> None:
    r = client.post(f"/m/{mid}/deal", data=as_form(entry, text(client.get(f"/m/{mid}/deal"))))
    assert r.status_code == 302


def field_named(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


def test_a_choice_stands_when_only_other_deals_changed_meanwhile(app, phones):
    """B's choice on deal 1 is open while deal 2 is saved (B's own queue sends it
    from that very page, offline deals caught up): the choice is made at once (it
    was refused once, the match's version having moved)."""
    a, b, mid = two_scorers(app, phones)
    early = text(b.get(f"/m/{mid}/deal"))
    save_next(a, mid, D1)
    url = b.post(f"/m/{mid}/deal", data=as_form(D2_OTHER, early)).location
    choice = text(b.get(url))
    save_next(a, mid, D2)
    key = re.search(r'name="key" value="([^"]*)"', choice).group(1)
    sent = {"action": "keep", "key": key, "seen": field_named(choice, "seen")}
    r = b.post(url, data=sent, follow_redirects=True)
    assert "Deal 1 stays as stored; the other entry is in the history." in text(r)
    assert deals(a, mid) == [D1, D2]
    assert not re.search(r"choose which stands", text(b.get(f"/m/{mid}")))


def test_an_auction_call_for_a_deal_after_the_next_draws_the_next_deal_s_form(client):
    """Variety, one deal in: a form a phone numbered 3 (its deal 2 held on the phone)
    posts a call. The server knows deal 2's auction only: the form came back with
    deal 2's calling order under deal 3's number, and its attackers were stored
    under deal 3's dealer. Now it is deal 2's form, numbered 2, and says so."""
    mid = one_auction_in(client)
    page = text(client.get(f"/m/{mid}/deal"))
    form = {"expect": hidden(page, "expect"), "number": "3", "key": hidden(page, "key")}
    again = text(client.post(f"/m/{mid}/deal", data={**form, "bids": "", "call": "5"}))
    assert hidden(again, "number") == "2" and "Save deal 2" in again
    assert "Deal 2 is not entered yet: it comes first" in again
