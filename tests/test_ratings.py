"""Ratings per game (issue 24). Each expected figure comes from openskill itself,
called here on the same places (never from what Scorer printed): the model with
its defaults, ``rate`` on the match's sides and places; a tie (a place several
sides share) as the mean of ``rate`` over every order of the tied sides, the
rule docs/players.md gives and the module scorer.ratings states. Every match's
places are worked out by hand in its comment (RULES.md's Black Maria: each
heart 1, Q♠ 13, K♠ 10, A♠ 7; the lowest total wins; over at the target).

Then the invariants, with Hypothesis (a better place never ends below a worse
one; an unrated player starts at the library's default; matches of one day go
by the time they began); the league, the player's line, the sheet's chances
and moves, the CSV and the season ZIP, seasons, and `rebuild`."""

from __future__ import annotations

import csv
import io
import itertools
import re
import zipfile
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorer import ratings, store
from scorer.store import ratings as kept
from scorer.web.access import COOKIE

from .helpers import create

MODEL = PlackettLuce()


def bm(hearts, qs, ks, as_) -> dict:
    return {"hearts": hearts, "taken_by": {"QS": qs, "KS": ks, "AS": as_}}


# The hand-built season, each match one deal of Black Maria to a target of 20:
# M3: Ala, Bartek, Celina: hearts 4 6 3, Q♠ K♠ A♠ to Ala Bartek Bartek: 17, 23, 3:
#     Bartek is over 20: Celina 1st, Ala 2nd, Bartek 3rd.
M3 = (["Ala", "Bartek", "Celina"], [bm([4, 6, 3], 0, 1, 1)], {}, [2, 3, 1])
# M4: four players, hearts 2 2 4 5, Q♠ to Darek, K♠ to Celina, A♠ to Darek:
#     2, 2, 14, 25: Ala and Bartek share 1st, Celina 3rd, Darek 4th.
M4 = (["Ala", "Bartek", "Celina", "Darek"], [bm([2, 2, 4, 5], 3, 2, 3)], {}, [1, 1, 3, 4])
# M5: five, hearts 1 1 1 5 5, Q♠ K♠ to Ewa, A♠ to Darek: 1, 1, 1, 12, 28:
#     Celina, Ala, Bartek share 1st; Darek 4th; Ewa 5th.
M5 = (
    ["Celina", "Ala", "Bartek", "Darek", "Ewa"],
    [bm([1, 1, 1, 5, 5], 4, 4, 3)],
    {},
    [1, 1, 1, 4, 5],
)
# M6: six (2♠ 2♥ 2♦ 2♣ out: 12 hearts), hearts 0 0 2 3 3 4, Q♠ K♠ to Franek, A♠ to Ewa:
#     0, 0, 2, 3, 10, 27: Ewa and Darek share 1st, then Ala, Celina, Bartek, Franek.
M6 = (
    ["Ewa", "Darek", "Ala", "Celina", "Bartek", "Franek"],
    [bm([0, 0, 2, 3, 3, 4], 5, 5, 4)],
    {},
    [1, 1, 3, 4, 5, 6],
)
# MP: the partnership, Ala and Celina against Bartek and Darek; hearts 0 5 0 8, Q♠ to
#     Darek, K♠ A♠ to Bartek: 0, 22, 0, 21: Ala and Celina 0 against 43: they win.
MP = (
    ["Ala", "Bartek", "Celina", "Darek"],
    [bm([0, 5, 0, 8], 3, 1, 1)],
    {"partnership": True},
    None,
)
MP_TEAMS = [["Ala", "Celina"], ["Bartek", "Darek"]]
MP_RANKS = [1, 2]


def rated(client, match, target: int = 20) -> str:
    """One of the matches above (players, deals, options, places), to ``target``: its id."""
    players, deals, options, _places = match
    return create(client, "black_maria", deals, players, {"target": target, **options})


def rate_as_openskill(teams: list[list[str]], ranks: list[int], skill: dict) -> None:
    """One match through openskill's ``rate``: each team a list of names, a place
    per team; tied teams: the mean over every order of them (the stated rule)."""
    groups = [[i for i, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]
    orders = [
        list(itertools.chain(*p)) for p in itertools.product(*map(itertools.permutations, groups))
    ]
    sums = defaultdict(lambda: [0.0, 0.0])
    for order in orders:
        strict = [order.index(i) + 1 for i in range(len(teams))]
        out = MODEL.rate([[skill[n] for n in team] for team in teams], ranks=strict)
        for team, rated in zip(teams, out):
            for name, r in zip(team, rated):
                sums[name][0] += r.mu
                sums[name][1] += r.sigma
    for name, (mu, sigma) in sums.items():
        skill[name] = MODEL.rating(mu=mu / len(orders), sigma=sigma / len(orders))


def expected(*matches) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per player after the matches, in order, from openskill."""
    skill = defaultdict(MODEL.rating)
    for match in matches:
        if match is MP:
            rate_as_openskill(MP_TEAMS, MP_RANKS, skill)
        else:
            players, _deals, _options, places = match
            rate_as_openskill([[p] for p in players], places, skill)
    return {name: (r.mu, r.sigma) for name, r in skill.items()}


def browser(client) -> str:
    cookie = client.get_cookie(COOKIE)
    return cookie.value if cookie else ""  # a phone that has seen nothing


def league_of(app, client, season=ratings.ALL_TIME) -> dict[str, tuple[float, float]]:
    with app.app_context():
        found = kept.league(store.get_db(), browser(client), season)
    assert [lg.game for lg in found] in ([], ["black_maria"])
    return {s.name: (s.skill.mu, s.skill.sigma) for lg in found for s in lg.standings}


def close(got: dict, want: dict) -> bool:
    return got.keys() == want.keys() and all(
        got[k] == pytest.approx(want[k], rel=1e-12, abs=1e-12) for k in want
    )


def test_a_season_is_rated_as_openskill_rates_it(app, client):
    for match in (M3, M4, M5, M6, MP):
        rated(client, match)
    assert close(league_of(app, client), expected(M3, M4, M5, M6, MP))


def test_without_a_tie_a_match_is_one_call_of_openskills_rate(app, client):
    rated(client, M3)
    a, b, c = (MODEL.rating() for _ in range(3))
    (a,), (b,), (c,) = MODEL.rate([[a], [b], [c]], ranks=[2, 3, 1])
    assert close(
        league_of(app, client),
        {"Ala": (a.mu, a.sigma), "Bartek": (b.mu, b.sigma), "Celina": (c.mu, c.sigma)},
    )


def test_a_partnership_is_rated_as_two_teams(app, client):
    rated(client, MP)
    (a, c), (b, d) = MODEL.rate(
        [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]], ranks=[1, 2]
    )
    got = league_of(app, client)
    assert close(
        got,
        {
            "Ala": (a.mu, a.sigma),
            "Celina": (c.mu, c.sigma),
            "Bartek": (b.mu, b.sigma),
            "Darek": (d.mu, d.sigma),
        },
    )
    assert got["Ala"] == got["Celina"] and got["Bartek"] == got["Darek"]


def test_a_match_deleted_edited_or_restored_changes_the_ratings_after_it(app, client):
    m3, m4 = rated(client, M3), rated(client, M4)
    rated(client, M6)
    assert close(league_of(app, client), expected(M3, M4, M6))
    assert client.delete(f"/api/matches/{m4}").status_code == 200  # to the trash
    assert close(league_of(app, client), expected(M3, M6))
    r = client.post(f"/m/{m4}/restore")
    assert r.status_code == 302
    assert close(league_of(app, client), expected(M3, M4, M6))
    # M3's deal edited: hearts 3 6 4 (the same cards otherwise): 16, 23, 4: Celina 1st,
    # Ala 2nd, Bartek 3rd as before; hearts 6 3 4: 19, 20, 4: Celina, Ala, Bartek again.
    # Q♠ to Celina instead: 4 + 0, 6 + 17, 3 + 13 = 4, 23, 16: Ala 1st, Celina 2nd, Bartek 3rd.
    r = client.put(f"/api/matches/{m3}/deals/1", json=bm([4, 6, 3], 2, 1, 1))
    assert r.status_code == 200, r.get_json()
    edited = (M3[0], [bm([4, 6, 3], 2, 1, 1)], {}, [1, 3, 2])
    assert close(league_of(app, client), expected(edited, M4, M6))


def test_only_a_change_is_rated_again(app, client, runner, monkeypatch):
    rated(client, M3)
    rated(client, M4)
    league_of(app, client)
    calls = []
    real = ratings.rate_one
    monkeypatch.setattr(ratings, "rate_one", lambda *a: calls.append(a[0].pub) or real(*a))
    league_of(app, client)
    assert calls == []  # nothing changed: what is kept is read
    playing = rated(client, (M4[0], [], {}, None))
    league_of(app, client)
    assert calls == []  # a match not over rates nothing
    m6 = rated(client, M6)
    assert close(league_of(app, client), expected(M3, M4, M6))
    assert calls == [m6]  # the new match only: the ones before it keep their moves
    assert client.delete(f"/api/matches/{playing}").status_code == 200
    league_of(app, client)
    assert calls == [m6]
    m3 = rated(client, M3)  # Ala, Bartek, Celina again
    assert close(league_of(app, client), expected(M3, M4, M6, M3))
    assert calls == [m6, m3]
    # what was kept one change at a time is what rating everything afresh gives
    assert runner.invoke(args=["rebuild"]).exit_code == 0


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("add"), st.sampled_from([M3, M4, M5, M6, MP])),
            st.tuples(st.sampled_from(["delete", "restore"]), st.integers(0, 9)),
        ),
        min_size=1,
        max_size=7,
    )
)
def test_after_any_adds_deletes_and_restores_the_ratings_are_openskills(app, steps):
    """What is kept, one change at a time, is openskill over the matches standing."""
    client = app.test_client()  # a phone of its own for each example
    made: list[tuple[str, tuple]] = []  # every match made, in order
    gone: set[str] = set()
    for kind, what in steps:
        if kind == "add":
            made.append((rated(client, what), what))
        elif made:
            pub = made[what % len(made)][0]
            if kind == "delete" and pub not in gone:
                assert client.delete(f"/api/matches/{pub}").status_code == 200
                gone.add(pub)
            elif kind == "restore" and pub in gone:
                assert client.post(f"/m/{pub}/restore").status_code == 302
                gone.discard(pub)
        standing = [match for pub, match in made if pub not in gone]
        assert close(league_of(app, client), expected(*standing))


def set_began(app, pub: str, when: str) -> None:
    with app.app_context():
        db = store.get_db()
        db.execute("update matches set created = ? where pub = ?", [when, pub])
        db.conn.commit()


def test_matches_of_one_day_are_rated_in_the_order_they_began(app, client):
    evening, morning = rated(client, M3), rated(client, M4)
    set_began(app, evening, "2025-03-08T20:00:00+00:00")
    set_began(app, morning, "2025-03-08T09:30:00+00:00")
    got = league_of(app, client)
    assert close(got, expected(M4, M3))
    assert not close(got, expected(M3, M4))  # the order matters here: the test can tell


def test_an_unrated_player_starts_at_the_librarys_default(app, client):
    assert (ratings.NEW.mu, ratings.NEW.sigma) == (MODEL.rating().mu, MODEL.rating().sigma)
    assert ratings.NEW.rating == pytest.approx(MODEL.rating().ordinal()) == 0
    rated(client, M3)
    pub = rated(client, M4)  # Darek's first match
    with app.app_context():
        moves = kept.moved(store.get_db(), browser(client), pub).moves
    darek = next(m for m in moves if m.name == "Darek")
    assert darek.before == ratings.NEW
    assert next(m for m in moves if m.name == "Ala").before != ratings.NEW


# --- the invariants -------------------------------------------------------------------

skills = st.builds(ratings.Skill, st.floats(5, 45), st.floats(0.5, 9))


@st.composite
def matches(draw):
    """A match of 2 to 6 sides: their skills, and places (competition ranking: ties share)."""
    n = draw(st.integers(2, 6))
    totals = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    places = [1 + sum(1 for o in totals if o < t) for t in totals]
    return draw(st.lists(skills, min_size=n, max_size=n)), places


@settings(max_examples=150, deadline=None)
@given(matches(), st.data())
def test_a_better_place_never_ends_below_a_worse_one(match, data):
    before, places = match
    i, j = data.draw(st.permutations(range(len(places))))[:2]
    before = list(before)
    before[j] = before[i]  # the same skill before the match
    after = [side[0] for side in ratings.update([[s] for s in before], places)]
    if places[i] < places[j]:
        assert after[i].mu >= after[j].mu - 1e-9
        assert after[i].rating >= after[j].rating - 1e-9
    elif places[i] == places[j]:
        assert after[i].mu == pytest.approx(after[j].mu)
        assert after[i].sigma == pytest.approx(after[j].sigma)


@settings(max_examples=100, deadline=None)
@given(matches(), st.data())
def test_placing_better_never_gives_a_lower_rating(match, data):
    before, places = match
    i = data.draw(st.integers(0, len(places) - 1))
    worse = data.draw(st.integers(places[i], len(places)))
    lower = list(places)
    lower[i] = worse
    up = ratings.update([[s] for s in before], places)[i][0]
    down = ratings.update([[s] for s in before], lower)[i][0]
    assert up.rating >= down.rating - 1e-9


def test_openskill_alone_can_put_players_tied_first_below_the_third():
    """Why a tie is the mean of its orders: openskill's own tie terms, on places
    1, 1, 3, 4, 5 of five new players, give the third more than the two tied first."""
    out = MODEL.rate([[MODEL.rating()] for _ in range(5)], ranks=[1, 1, 3, 4, 5])
    assert out[0][0].mu < out[2][0].mu
    ours = ratings.update([[ratings.NEW]] * 5, [1, 1, 3, 4, 5])
    assert ours[0][0].mu == ours[1][0].mu > ours[2][0].mu > ours[3][0].mu > ours[4][0].mu


# --- the pages ----------------------------------------------------------------------------


def cells(html: str, game: str) -> list[list[str]]:
    """A league table's rows (place, player, rating, ±, matches, last change)."""
    section = re.search(
        rf'<section class="league" aria-labelledby="league-{game}">(.*?)</section>', html, re.S
    )
    rows = re.findall(r"<tr>(.*?)</tr>", section.group(1), re.S)[1:]
    return [
        [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in rows
    ]


def tenth(v: float) -> str:
    """A rating as a page prints it: to a tenth, a minus sign (U+2212) before a negative."""
    return f"{round(v, 1) + 0.0:.1f}".replace("-", "\u2212")


def test_the_players_page_shows_the_league(app, client):
    rated(client, M3)
    rated(client, M4)
    want = expected(M3, M4)
    ordinal = {n: mu - 3 * sigma for n, (mu, sigma) in want.items()}
    ranked = sorted(want, key=lambda n: -round(ordinal[n], 1))
    page = client.get("/players").get_data(as_text=True)
    rows = cells(page, "black_maria")
    assert [r[1] for r in rows] == ranked
    for row in rows:
        name = row[1]
        assert row[2] == tenth(ordinal[name]) and row[3] == tenth(want[name][1])
    assert {r[1]: r[4] for r in rows} == {"Ala": "2", "Bartek": "2", "Celina": "2", "Darek": "1"}
    # the change in the latest match: Ala's in M4
    before = expected(M3)["Ala"]
    assert {r[1]: r[5] for r in rows}[
        "Ala"
    ] == f"{round(ordinal['Ala'] - (before[0] - 3 * before[1]), 1):+.1f}"
    assert 'href="/players/league.csv"' in page
    assert "<h2>Everyone</h2>" in page and 'href="/p/Darek"' in page


def test_a_league_per_season(app, client):
    old, new = rated(client, M3), rated(client, M4)
    set_began(app, old, "2024-12-31T23:00:00+00:00")
    set_began(app, new, "2025-01-02T10:00:00+00:00")
    assert close(league_of(app, client, ratings.Season.parse(year="2025")), expected(M4))
    assert close(league_of(app, client, ratings.Season.parse(year="2024")), expected(M3))
    assert close(league_of(app, client, ratings.Season.parse(start="2025-01-02")), expected(M4))
    assert close(league_of(app, client), expected(M3, M4))
    page = client.get("/players?year=2025").get_data(as_text=True)
    assert "The league of 2025" in page and 'aria-current="page">2025<' in page
    assert [r[1] for r in cells(page, "black_maria")][-1] == "Darek"
    assert "Celina" in page  # in the list of everyone, not in 2025's league
    assert "2024</a>" in page  # each year a match ended in is offered
    page = client.get("/players?from=2026-01-01").get_data(as_text=True)
    assert "No match of this season is over yet." in page
    for bad in ("year=20x5", "year=12", "from=2025-13-01", "from=yesterday"):
        r = client.get(f"/players?{bad}")
        assert r.status_code == 400, bad
        assert "A season is a year (2025) or the day it began (2025-03-01)." in r.get_data(
            as_text=True
        )


def league_csv(body: str) -> list[list[str]]:
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


def test_the_league_as_csv_and_in_the_season_zip(app, client):
    rated(client, (["Ala", "=1+1", "Celina"], M3[1], {}, M3[3]))
    r = client.get("/players/league.csv")
    assert r.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(
        r"attachment; filename=\"(scorer-league_\d{4}-\d\d-\d\d\.csv)\"; filename\*=UTF-8''\1",
        r.headers["Content-Disposition"],
    )
    text = r.get_data(as_text=True)
    rows = league_csv(text)
    assert rows[0] == ["game", "place", "player", "rating", "uncertainty", "matches", "last change"]
    want = expected((["Ala", "=1+1", "Celina"], M3[1], {}, M3[3]))
    by_name = {row[2]: row for row in rows[1:]}
    assert set(by_name) == {"Ala", "'=1+1", "Celina"}  # a formula made inert, as in every CSV
    for name, (mu, sigma) in want.items():
        row = by_name["'" + name if name.startswith("=") else name]
        assert row[0] == "Black Maria" and row[5] == "1"
        # a CSV keeps the hyphen-minus a spreadsheet reads as a number's sign
        assert row[3] == f"{round(mu - 3 * sigma, 1) + 0.0:.1f}" and row[4] == tenth(sigma)
    assert text.splitlines()[1].startswith('"Black Maria",1,"Celina",')  # numbers bare
    r = client.get("/players/league.csv?year=2025")
    assert "scorer-league_2025_" in r.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(client.get("/season.zip").data)) as zf:
        assert zf.read("league.csv").decode("utf-8") == text
        body = client.get("/season.zip").data
    r = client.post(
        "/season/import",
        data={"season": (io.BytesIO(body), "s.zip")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 302  # league.csv is no record: skipped, like results.csv


def test_the_sheet_gives_the_chances_before_and_the_moves_after(app, client):
    rated(client, M3)
    rated(client, M4)
    want = expected(M3, M4)
    pub = rated(client, (["Bartek", "Ala", "Ewa"], [], {}, None))
    page = client.get(f"/m/{pub}").get_data(as_text=True)
    odds = MODEL.predict_win(
        [[MODEL.rating(*want["Bartek"])], [MODEL.rating(*want["Ala"])], [MODEL.rating()]]
    )
    b, a, e = (f"{round(p * 100)}%" for p in odds)
    assert f"Chances to win, from the ratings: Bartek {b}, Ala {a}, and Ewa {e}." in page
    # the first deal entered: no chances any more; the match over: each rating's move
    # Bartek 4♥ + Q♠, Ala 6♥ + K♠ A♠, Ewa 3♥: 17, 23, 3: Ewa 1st, Bartek 2nd, Ala 3rd
    client.post(f"/api/matches/{pub}/deals", json=bm([4, 6, 3], 0, 1, 1))
    page = client.get(f"/m/{pub}").get_data(as_text=True)
    assert "Chances to win" not in page
    moved = re.search(r'<section class="moved".*?</section>', page, re.S).group(0)
    after = expected(M3, M4, (["Bartek", "Ala", "Ewa"], [], {}, [2, 3, 1]))
    lines = re.findall(
        r'<a href="/p/(\w+)">\w+</a> <strong>([^<]*)</strong> <span class="quiet">([^<]*)</span>',
        moved,
    )
    for name, rating, change in lines:
        now = after[name][0] - 3 * after[name][1]
        was = want[name][0] - 3 * want[name][1] if name in want else 0
        assert rating == tenth(now) and change == "+" * (now > was) + tenth(now - was)
    assert [n for n, _r, _c in lines] == ["Bartek", "Ala", "Ewa"]


def test_the_chances_of_a_partnership_are_its_teams(app, client):
    rated(client, MP)
    want = expected(MP)
    pub = rated(client, (MP[0], [], {"partnership": True}, None))
    page = client.get(f"/m/{pub}").get_data(as_text=True)
    odds = MODEL.predict_win([[MODEL.rating(*want[n]) for n in team] for team in MP_TEAMS])
    first, second = (f"{round(p * 100)}%" for p in odds)
    assert f"Ala and Celina {first}, Bartek and Darek {second}." in page


def test_no_chances_where_nobody_has_a_rating(client):
    pub = rated(client, (M3[0], [], {}, None))
    assert "Chances to win" not in client.get(f"/m/{pub}").get_data(as_text=True)


def test_a_player_page_draws_the_rating_line(app, client):
    rated(client, M3)
    rated(client, M4)
    page = client.get("/p/Ala").get_data(as_text=True)
    rating = re.search(r'<dl class="rating">(.*?)</dl>', page, re.S).group(1)
    mu, sigma = expected(M3, M4)["Ala"]
    assert f"<dt>Rating</dt><dd>{tenth(mu - 3 * sigma)} ± {tenth(sigma)}</dd>" in rating
    svg = re.search(r'<svg[^>]*class="rating-svg".*?</svg>', page, re.S).group(0)
    assert "The rating of Ala after each of 2 matches: from 0.0 to " + tenth(mu - 3 * sigma) in svg
    assert len(re.search(r'points="([^"]*)"', svg).group(1).split()) == 3  # before, after each
    assert "<dt>In the league</dt>" in rating


def test_rebuild_names_ratings_that_differed(app, client, runner):
    rated(client, M3)
    pub = rated(client, M4)
    want = expected(M3, M4)
    with app.app_context():
        db = store.get_db()
        kept.league(db, browser(client))
        # M4's kept moves say something else, still marked current
        db.execute("update rating_moves set moves = replace(moves, '2', '3') where pub = ?", [pub])
        db.execute("update ratings set league = replace(league, '2', '3')")
        db.conn.commit()
    result = runner.invoke(args=["rebuild"])
    assert result.exit_code == 1
    assert (
        f"Phone {browser(client)[:8]}: kept ratings differed from match {pub} on" in result.output
    )
    assert "The ratings of 1 phone rated afresh; 1 differed from what was kept." in result.output
    assert close(league_of(app, client), want)
    again = runner.invoke(args=["rebuild"])
    assert again.exit_code == 0 and "1 phone rated afresh; 0 differed" in again.output
