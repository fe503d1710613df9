"""Players across matches (issue 14 part 2): the statistics on hand-made matches,
every figure worked out by hand from RULES.md in a comment; a property that a
deleted match or an undone deal never counts and a restored one does; the player
pages, head to head, and renaming and merging through each match's history."""

from __future__ import annotations

import re
import secrets

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorer import store
from scorer.match import Match
from scorer.players import Sheet, head_to_head, names, stats
from scorer.record import load, name_key
from scorer.web import players as web_players

from .helpers import create, record


def sheet(pub: str, game: str, deals: list, players: list[str], options=None) -> Sheet:
    match, standings = load(record(game, deals, players, options))
    return Sheet(pub, f"2025-03-0{len(pub)}T20:00:00+00:00", match, standings)


def bm(qs, ks, as_, hearts) -> dict:
    return {"hearts": hearts, "taken_by": {"QS": qs, "KS": ks, "AS": as_}}


# Black Maria, target 40, Ala Bartek Celina (RULES.md: each heart 1, Q♠ 13, K♠ 10, A♠ 7):
#   deal 1 (RULES.md's example): Ala 4♥ + Q♠ = 17, Bartek 6♥ + K♠ + A♠ = 23, Celina 3♥ = 3
#   deal 2: Ala A♠ = 7, Bartek 5♥ = 5, Celina 8♥ + Q♠ + K♠ = 31       → 24, 28, 34
#   deal 3: Ala 3♥ + Q♠ = 16, Bartek 3♥ + K♠ = 13, Celina 7♥ + A♠ = 14 → 40, 41, 48
#   everyone is at 40 or over: over, lowest wins: Ala 1st, Bartek 2nd, Celina 3rd.
#   Q♠ taken: Ala 2 (deals 1 and 3), Bartek 0, Celina 1.
M1 = sheet(
    "m1",
    "black_maria",
    [bm(0, 1, 1, [4, 6, 3]), bm(2, 2, 0, [0, 5, 8]), bm(0, 1, 2, [3, 3, 7])],
    ["Ala", "Bartek", "Celina"],
    {"target": 40},
)
# Hearts, target 30, Bartek "ala" Darek Ewa (the same Ala: names are one player whatever
# their capitals); moon "others" (the default):
#   deal 1: ala takes all 13 hearts and Q♠: the moon, ala 0, every other 26
#   deal 2: Bartek 5♥ = 5, ala 2♥ = 2, Darek 3♥ + Q♠ = 16, Ewa 3♥ = 3
#   totals 31, 2, 42, 29: Bartek and Darek are over 30, lowest wins:
#   ala 1st, Ewa 2nd (29), Bartek 3rd (31), Darek 4th (42).
#   Q♠ taken: ala 1, Darek 1; moons: ala 1.
M2 = sheet(
    "m22",
    "hearts",
    [
        {"hearts": [0, 13, 0, 0], "taken_by": {"QS": 1}},
        {"hearts": [5, 2, 3, 3], "taken_by": {"QS": 2}},
    ],
    ["Bartek", "ala", "Darek", "Ewa"],
    {"target": 30},
)
# Black Maria, target 20, Celina Ala Bartek:
#   deal 1: Celina 4♥ + Q♠ = 17, Ala 6♥ + K♠ + A♠ = 23, Bartek 3♥ = 3
#   Ala is at 20 or over: over; Bartek 1st, Celina 2nd, Ala 3rd.
M3 = sheet(
    "m333",
    "black_maria",
    [bm(0, 1, 1, [4, 6, 3])],
    ["Celina", "Ala", "Bartek"],
    {"target": 20},
)
# Knaves (RULES.md's example): Ala 7 tricks + J♥ = 3; Bartek 6 tricks + J♦ + J♠ = 2;
# Celina 4 tricks + J♣ = 2. Nobody has 20: not over. Jacks taken: 1, 2, 1.
M4 = sheet(
    "m4444",
    "knaves",
    [{"tricks": [7, 6, 4], "taken_by": {"JH": 0, "JD": 1, "JS": 1, "JC": 2}}],
    ["Ala", "Bartek", "Celina"],
)
# Metamorphosis, Ala Bartek Celina, declarations 2, 4, 1 (RULES.md's deal 1 example):
#   deal 1 (-4 a club): clubs 3, 5, 0 → -12, -20, 0: Celina alone highest, she declared
#          deal 1: declaration won (+10)
#   deal 2 (+3 a heart): hearts 0, 1, 2 → 0, 3, 6: Celina highest; Ala declared 2: not won
#   deal 3 (-1 a card): tricks 1, 2, 9 → -3, -6, -27: Ala highest; nobody declared 3
#   deal 4 (+4 a spade): spades 4, 4, 5 → 16, 16, 20: Celina highest; Bartek declared 4: not won
#   declarations won: Ala 0, Bartek 0, Celina 1.
M5 = sheet(
    "m5555",
    "metamorphosis",
    [
        {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]},
        {"tricks": [0, 6, 6], "hearts": [0, 1, 2]},
        {"tricks": [1, 2, 9]},
        {"tricks": [4, 4, 4], "spades": [4, 4, 5]},
    ],
    ["Ala", "Bartek", "Celina"],
)
# Variety, Ala Bartek Celina Darek (RULES.md's examples):
#   deal 1, type 2 (+2 a trick), attackers Ala and Celina take 7 tricks: they +14, the
#          defenders +12: made (14 > 12)
#   deal 2, type 8 (-2 a trick), attackers Bartek and Darek take 8: -16 against -10: failed
#   contracts made as attacker: Ala 1, Bartek 0, Celina 1, Darek 0.
M6 = sheet(
    "m66666",
    "variety",
    [
        {"contract": 2, "attackers": [0, 2], "tricks": 7},
        {"contract": 8, "attackers": [1, 3], "tricks": 8},
    ],
    ["Ala", "Bartek", "Celina", "Darek"],
)
# Polignac with capot, Ala Bartek Celina Darek:
#   deal 1: Bartek declares capot and makes it: a capot made
#   deal 2: Ala declares capot and fails (J♠ to Ala, J♣ Bartek, J♥ Celina, J♦ Darek): none
#   capots made: Ala 0, Bartek 1.
M7 = sheet(
    "m777777",
    "polignac",
    [
        {"capot": {"seat": 1, "made": True}},
        {"taken_by": {"JS": 0, "JC": 1, "JH": 2, "JD": 3}, "capot": {"seat": 0, "made": False}},
    ],
    ["Ala", "Bartek", "Celina", "Darek"],
    {"capot": True},
)
# A match with no deal yet: it names Ala but does not count as played.
M8 = sheet("m8888888", "hearts", [], ["Ala", "Ewa", "Franek", "Gosia"])
SEASON = [M1, M2, M3, M4, M5, M6, M7, M8]


def game(player, key):
    return next(g for g in player.games if g.game == key)


def figures(g) -> dict[str, int]:
    return {key: count for key, (_label, count) in g.figures.items()}


def test_ala_over_the_season():
    ala = stats(SEASON, name_key("ALA"))
    assert ala.name == "Ala"  # as spelt in the first (latest) match given
    assert [g.game for g in ala.games] == [
        "hearts",
        "black_maria",
        "knaves",
        "polignac",
        "variety",
        "metamorphosis",
    ]
    assert len(ala.matches) == 8  # every match naming her, the one without a deal too
    # Black Maria: M1 (1st of 3, over) and M3 (3rd of 3, over): 2 played, 1 won, places
    # 1 and 3: average 2; best M1, worst M3; Q♠ 2 in M1 + 0 in M3
    black_maria = game(ala, "black_maria")
    assert len(black_maria.played) == 2 and len(black_maria.finished) == 2
    assert black_maria.won == 1
    assert black_maria.average_place == 2
    assert black_maria.best.sheet.pub == "m1" and black_maria.best.place == 1
    assert black_maria.worst.sheet.pub == "m333" and black_maria.worst.place == 3
    assert black_maria.worst.total == 23
    assert figures(black_maria) == {"qs_taken": 2}
    # Hearts: M2 only (M8 has no deal): won it, place 1; Q♠ 1, moons 1
    hearts = game(ala, "hearts")
    assert (len(hearts.played), hearts.won, hearts.average_place) == (1, 1, 1)
    assert figures(hearts) == {"qs_taken": 1, "moons": 1}
    # Knaves: not over: played 1, won 0, no place, no best match; jacks 1
    knaves = game(ala, "knaves")
    assert (len(knaves.played), len(knaves.finished), knaves.won) == (1, 0, 0)
    assert knaves.average_place is None and knaves.best is None and knaves.worst is None
    assert figures(knaves) == {"jacks_taken": 1}
    assert figures(game(ala, "metamorphosis")) == {"declarations_won": 0}
    assert figures(game(ala, "variety")) == {"contracts_made": 1}
    assert figures(game(ala, "polignac")) == {"capots_made": 0}
    assert ala.others == ["Bartek", "Celina", "Darek", "Ewa", "Franek", "Gosia"]


def test_the_game_figures_of_the_others():
    bartek, celina, darek = (stats(SEASON, name_key(n)) for n in ("Bartek", "Celina", "Darek"))
    # Black Maria: Bartek 2nd in M1, 1st in M3: average 1.5, won 1, best M3, worst M1
    bm_bartek = game(bartek, "black_maria")
    assert (bm_bartek.won, bm_bartek.average_place) == (1, 1.5)
    assert (bm_bartek.best.sheet.pub, bm_bartek.worst.sheet.pub) == ("m333", "m1")
    assert figures(bm_bartek) == {"qs_taken": 0}
    # Hearts: Bartek 3rd in M2, no moon
    assert game(bartek, "hearts").average_place == 3
    assert figures(game(bartek, "hearts")) == {"qs_taken": 0, "moons": 0}
    assert figures(game(bartek, "knaves")) == {"jacks_taken": 2}
    assert figures(game(bartek, "polignac")) == {"capots_made": 1}
    assert figures(game(celina, "metamorphosis")) == {"declarations_won": 1}
    assert figures(game(celina, "variety")) == {"contracts_made": 1}
    # Q♠ to Celina in M1's deal 2 and in M3's deal 1 (she sits first there)
    assert figures(game(celina, "black_maria")) == {"qs_taken": 2}
    assert figures(game(darek, "hearts")) == {"qs_taken": 1, "moons": 0}
    assert figures(game(darek, "variety")) == {"contracts_made": 0}


def test_best_and_worst_on_the_same_place_go_by_the_margin():
    # Two Black Maria matches Ala wins, target 20 (Celina's total ends each):
    #   A: Ala 3♥ = 3, Bartek 6♥ + Q♠ = 19, Celina 4♥ + K♠ + A♠ = 21 (over): Ala 16 ahead of 19
    #   C: Ala 5♥ = 5, Bartek 4♥ + A♠ = 11, Celina 4♥ + Q♠ + K♠ = 27: Ala 6 ahead of 11
    a = sheet(
        "a", "black_maria", [bm(1, 2, 2, [3, 6, 4])], ["Ala", "Bartek", "Celina"], {"target": 20}
    )
    c = sheet(
        "c", "black_maria", [bm(2, 2, 1, [5, 4, 4])], ["Ala", "Bartek", "Celina"], {"target": 20}
    )
    ala = game(stats([c, a], "ala"), "black_maria")
    assert [p.place for p in ala.finished] == [1, 1]
    assert (a.margin(0), c.margin(0)) == (16, 6)
    assert ala.best.sheet.pub == "a" and ala.worst.sheet.pub == "c"


def test_head_to_head():
    # Black Maria: M1 Ala 1st, Bartek 2nd; M3 Bartek 1st, Ala 3rd: one each.
    # Hearts: M2 ala 1st, Bartek 3rd. Knaves M4 is not over: together, not counted.
    meetings = {m.game: m for m in head_to_head(SEASON, "ala", "bartek")}
    assert set(meetings) == {
        "black_maria",
        "hearts",
        "knaves",
        "polignac",
        "variety",
        "metamorphosis",
    }
    black_maria = meetings["black_maria"]
    assert [s.pub for s in black_maria.together] == ["m1", "m333"]
    assert (black_maria.first_higher, black_maria.second_higher, black_maria.level) == (1, 1, 0)
    hearts = meetings["hearts"]
    assert (hearts.first_higher, hearts.second_higher, hearts.finished) == (1, 0, 1)
    knaves = meetings["knaves"]
    assert (len(knaves.together), knaves.finished) == (1, 0)
    # Ewa met Ala only in Hearts (M2, Ewa 2nd) and M8 (no deal: not counted)
    (only,) = head_to_head(SEASON, "ewa", "ala")
    assert (only.game, only.first_higher, only.second_higher) == ("hearts", 0, 1)
    assert head_to_head(SEASON, "franek", "ala") == []


def test_partners_place_level():
    # Black Maria partnership (seats 0+2 against 1+3), target 20:
    #   deal 1: Ala 4♥ = 4, Bartek 3♥ + Q♠ = 16, Celina 3♥ + K♠ = 13, Darek 3♥ + A♠ = 10
    #   teams: Ala + Celina 17, Bartek + Darek 26; nobody is at 20: not over
    #   deal 2: Ala 10♥ = 10, Bartek 3♥ + A♠ = 10, Celina Q♠ = 13, Darek K♠ = 10
    #   totals 14, 26, 26, 20: over; teams 40 and 46: Ala and Celina win, both 1st: level
    match = sheet(
        "p",
        "black_maria",
        [
            {"hearts": [4, 3, 3, 3], "taken_by": {"QS": 1, "KS": 2, "AS": 3}},
            {"hearts": [10, 3, 0, 0], "taken_by": {"QS": 2, "KS": 3, "AS": 1}},
        ],
        ["Ala", "Bartek", "Celina", "Darek"],
        {"partnership": True, "target": 20},
    )
    assert match.standings.finished and match.standings.winners == [0, 2]
    (meeting,) = head_to_head([match], "ala", "celina")
    assert (meeting.first_higher, meeting.second_higher, meeting.level) == (0, 0, 1)
    assert game(stats([match], "celina"), "black_maria").won == 1


def test_names_are_one_per_player_in_the_latest_spelling():
    later = Match("hearts", {}, ["ALA", "Ewa", "Ola", "Ula"])
    assert names([later, M1.match, M2.match]) == [
        "ALA",
        "Ewa",
        "Ola",
        "Ula",
        "Bartek",
        "Celina",
        "Darek",
    ]
    assert stats(SEASON, "zosia") is None


# --- through the store: deleted matches, undone deals, restored ones ---------------------

DEAL = st.builds(
    lambda hearts, qs, ks, as_: bm(qs, ks, as_, [hearts.count(s) for s in range(3)]),
    st.lists(st.integers(0, 2), min_size=13, max_size=13),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 2),
)
STEP = st.tuples(
    st.sampled_from(["undo_add", "delete", "restore", "trash", "untrash"]),
    st.integers(0, 2),
    st.integers(0, 5),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.lists(DEAL, max_size=4), min_size=1, max_size=3), st.lists(STEP, max_size=8))
@example(  # each kind of step once, in an order where each one acts
    [
        [bm(0, 1, 2, [13, 0, 0]), bm(0, 0, 0, [0, 13, 0]), bm(1, 1, 1, [0, 0, 13])],
        [bm(0, 0, 0, [1, 2, 10])],
    ],
    [
        ("undo_add", 0, 0),
        ("delete", 0, 1),
        ("restore", 0, 0),
        ("trash", 1, 0),
        ("untrash", 1, 0),
        ("trash", 1, 0),
    ],
)
def test_statistics_count_only_live_deals_of_live_matches(app, matches, steps):
    """Whatever is deleted, undone, trashed or restored, a player's figures are those
    of the deals still standing in the matches not in the trash."""
    browser = secrets.token_urlsafe(24)  # a new phone for each example
    with app.app_context():
        db = store.get_db()
        model = []  # per match: its row id, whether it is in the trash, [deal id, entry, live]
        for deals in matches:
            empty, _standings = load(record("black_maria", [], 3, {"target": 1000}))
            stored = store.create(db, empty, browser=browser)
            row = {"id": stored.id, "trashed": False, "deals": []}
            for entry in deals:
                change = store.add_deal(db, stored.id, entry)
                deal_id = store.get(db, stored.id).deal_ids[-1]
                row["deals"].append(
                    {"id": deal_id, "entry": entry, "live": True, "add": change.event}
                )
            model.append(row)
        for kind, i, j in steps:
            row = model[i % len(model)]
            live = [d for d in row["deals"] if d["live"]]
            if kind == "trash" and not row["trashed"]:
                store.delete_match(db, row["id"])
                row["trashed"] = True
            elif kind == "untrash" and row["trashed"]:
                store.restore_match(db, row["id"])
                row["trashed"] = False
            elif row["trashed"]:
                continue  # a match in the trash is not changed
            elif kind == "undo_add" and row["deals"]:
                deal = row["deals"][j % len(row["deals"])]
                if deal["live"] and deal["add"]:
                    store.undo(db, row["id"], deal["add"])
                    deal["live"] = False
                    deal["add"] = None  # undone once; it comes back by "restore"
            elif kind == "delete" and live:
                deal = live[j % len(live)]
                store.delete_deal(db, row["id"], live.index(deal) + 1)
                deal["live"] = False
            elif kind == "restore":
                lines = [
                    line
                    for line in store.history(db, row["id"])
                    if line["kind"] == "delete" and line["undoable"]
                ]
                if lines:
                    store.undo(db, row["id"], lines[-1]["id"])
                    next(d for d in row["deals"] if d["id"] == lines[-1]["deal_id"])["live"] = True
        with app.test_request_context(headers={"Cookie": f"scorer_browser={browser}"}):
            ala = stats(web_players.sheets(), "ala")
        standing = [
            [d["entry"] for d in row["deals"] if d["live"]] for row in model if not row["trashed"]
        ]
        played = [deals for deals in standing if deals]
        queens = sum(1 for deals in played for e in deals if e["taken_by"]["QS"] == 0)
        if not played:
            assert ala is None or ala.games == []
            return
        (black_maria,) = ala.games
        assert len(black_maria.played) == len(played)
        assert figures(black_maria) == {"qs_taken": queens}
        assert len(ala.matches) == len(standing)


# --- the pages -----------------------------------------------------------------------------


def players_of(client, pub) -> list[str]:
    return client.get(f"/api/matches/{pub}").get_json()["players"]


def figure(html: str, label: str) -> list[str]:
    """The values a page gives for ``label`` in its lists of figures, in order."""
    return re.findall(rf"<dt>{re.escape(label)}</dt><dd>([^<]*)</dd>", html)


def alert(html: str) -> str:
    return re.search(r'role="alert"[^>]*>([^<]*)<', html).group(1)


def test_a_player_page_counts_what_this_phone_sees(app, client):
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    create(client, "black_maria", M3.match.deals, ["Celina", "Ala", "Bartek"], {"target": 20})
    elsewhere = app.test_client()  # another phone's match: not seen here until watched
    other = create(elsewhere, "black_maria", M1.match.deals, ["ala", "Ewa", "Franek"])
    page = client.get("/p/ala").get_data(as_text=True)
    # M1 and M3 as worked out above: 2 played, 1 won, places 1 and 3, Q♠ 2 + 0
    assert figure(page, "Matches played") == ["2"]
    assert figure(page, "Won") == ["1"]
    assert figure(page, "Average place") == ["2"]
    assert figure(page, "Q♠ taken") == ["2"]
    best, worst = re.findall(r"<strong>(?:Best|Worst) match</strong><small>([^·]*· [^·]*)·", page)
    assert (best, worst) == ("place 1 · total 40 ", "place 3 · total 23 ")
    client.get(f"/m/{other}")  # watched: it counts now (not over: played, no place)
    page = client.get("/p/Ala").get_data(as_text=True)
    assert figure(page, "Matches played") == ["3"]
    assert figure(page, "Q♠ taken") == ["4"]  # seat 0 took Q♠ in deals 1 and 3 there too
    assert figure(page, "Average place") == ["2"]
    assert client.get("/p/Ewa").status_code == 200
    assert elsewhere.get("/p/Celina").status_code == 404  # the other phone never saw her
    assert client.get("/p/Zosia").status_code == 404
    assert client.get("/p/Ala?vs=Zosia").status_code == 404
    assert client.get("/p/Ala?vs=ALA").status_code == 404  # no head to head with oneself


def test_the_sheet_links_every_name_to_its_player_page(client):
    pub = create(client, "hearts", [], ["Ala", "Bartek/B", "Celina?", "Darek Nowak"])
    sheet = client.get(f"/m/{pub}").get_data(as_text=True)
    for link in ("/p/Ala", "/p/Bartek/B", "/p/Celina%3F", "/p/Darek%20Nowak"):
        assert f'href="{link}"' in sheet
        assert client.get(link).status_code == 200


def test_head_to_head_on_the_player_page(client):
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    create(client, "black_maria", M3.match.deals, ["Celina", "Ala", "Bartek"], {"target": 20})
    create(client, "hearts", M2.match.deals, ["Bartek", "ala", "Darek", "Ewa"], {"target": 30})
    page = client.get("/p/Ala?vs=bartek").get_data(as_text=True)
    # the player is called as in the latest match: "ala" (Hearts)
    assert "ala and Bartek, head to head" in page
    # Hearts: M2, ala 1st, Bartek 3rd; Black Maria: one each (worked out above)
    assert figure(page, "Matches together") == ["1", "2"]
    assert figure(page, "ala placed higher") == ["1", "1"]
    assert figure(page, "Bartek placed higher") == ["0", "1"]
    assert figure(page, "Level") == ["0", "0"]
    assert 'href="/p/ala?vs=Ewa"' in page


def test_the_new_match_form_offers_the_names_this_phone_has_used(app, client):
    create(client, "hearts", [], ["Ala", "Bartek", "Celina", "Darek"])
    create(client, "knaves", [], ["Ewa", "ala", "Bartek"])  # the latest: its spellings first
    page = client.get("/new/hearts").get_data(as_text=True)
    datalist = re.search(r'<datalist id="known-names">(.*?)</datalist>', page).group(1)
    offered = re.findall(r'<option value="([^"]*)">', datalist)
    assert offered == ["Ewa", "ala", "Bartek", "Celina", "Darek"]
    assert re.findall(r'data-name="([^"]*)"', page) == offered
    assert 'list="known-names"' in page
    assert "data-name" not in app.test_client().get("/new/hearts").get_data(as_text=True)


def history_of(app, pub) -> list[dict]:
    with app.app_context():
        return store.history(store.get_db(), pub)


def test_rename_and_merge_go_through_each_match_history(app, client):
    m1 = create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    m2 = create(client, "hearts", M2.match.deals, ["Bartek", "ala", "Darek", "Ewa"], {"target": 30})
    m3 = create(client, "knaves", [], ["Alka", "Bartek", "Celina"])
    elsewhere = app.test_client()
    watched = create(elsewhere, "knaves", [], ["Ala", "Ewa", "Franek"])
    client.get(f"/m/{watched}")  # this phone watches it: it counts, but is not renamed
    r = client.post("/players/rename", data={"old": "ala", "new": "  Alicja  "})
    assert r.status_code == 302 and r.headers["Location"] == "/p/Alicja"
    assert players_of(client, m1) == ["Alicja", "Bartek", "Celina"]
    assert players_of(client, m2) == ["Bartek", "Alicja", "Darek", "Ewa"]
    assert players_of(client, watched) == ["Ala", "Ewa", "Franek"]
    page = client.get("/p/Alicja").get_data(as_text=True)
    assert "ala is now Alicja in 2 matches; each one&#39;s history can undo it." in page
    assert figure(page, "Matches played") == ["1", "1"]  # Hearts M2, Black Maria M1
    # one change of each match's history, undone there
    (line,) = [x for x in history_of(app, m1) if x["kind"] == "setup"]
    assert line["before"]["players"] == ["Ala", "Bartek", "Celina"] and line["undoable"]
    assert client.post(f"/m/{m1}/undo/{line['id']}").status_code == 302
    assert players_of(client, m1) == ["Ala", "Bartek", "Celina"]
    assert players_of(client, m2) == ["Bartek", "Alicja", "Darek", "Ewa"]  # its own history
    # merge: Alka is the same person as Ala (rename one spelling into the other)
    r = client.post("/players/rename", data={"old": "Alka", "new": "Ala"})
    assert r.status_code == 302
    assert players_of(client, m3) == ["Ala", "Bartek", "Celina"]
    assert client.get("/p/Alka").status_code == 404
    assert [x["kind"] for x in history_of(app, m3)][-1] == "setup"


def test_a_rename_that_would_seat_one_name_twice_changes_nothing_anywhere(app, client):
    m1 = create(client, "knaves", [], ["Ola", "Bartek", "Celina"])
    m2 = create(client, "knaves", [], ["Ala", "Ola", "Celina"])  # Ala sits here already
    before = {pub: history_of(app, pub) for pub in (m1, m2)}
    r = client.post("/players/rename", data={"old": "Ola", "new": "ALA"})
    assert r.status_code == 400
    assert alert(r.get_data(as_text=True)) == (
        "Nothing was renamed: in Knaves · Ala, Ola, Celina, two players cannot both be "
        "called ALA: the sheet could not tell them apart."
    )
    assert 'value="ALA"' in r.get_data(as_text=True)  # what was typed is kept
    assert players_of(client, m1) == ["Ola", "Bartek", "Celina"]  # checked before any change
    assert {pub: history_of(app, pub) for pub in (m1, m2)} == before
    r = client.post("/players/rename", data={"old": "ola", "new": "Ola"})
    assert alert(r.get_data(as_text=True)) == "Nothing to rename: that is already its name."
    r = client.post("/players/rename", data={"old": "Ola", "new": "   "})
    assert r.status_code == 400 and "a player name is empty" in alert(r.get_data(as_text=True))
    r = client.post("/players/rename", data={"old": "Ola", "new": "O\u200bla"})
    assert r.status_code == 400 and "invisible format character" in r.get_data(as_text=True)
    # a phone that only watches renames nothing
    watcher = app.test_client()
    watcher.get(f"/m/{m1}")
    watcher.get(f"/m/{m1}?part=live")  # its sheet's poll: it watches the match
    r = watcher.post("/players/rename", data={"old": "Ola", "new": "Olga"})
    assert r.status_code == 400
    assert alert(r.get_data(as_text=True)).startswith("Nothing to rename")
    assert players_of(client, m1) == ["Ola", "Bartek", "Celina"]


def test_rename_needs_the_form_token(csrf_client):
    r = csrf_client.post("/players/rename", data={"old": "Ala", "new": "Ola"})
    assert r.status_code == 400
