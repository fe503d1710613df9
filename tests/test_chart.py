"""The chart of the running totals (scorer.chart): the SVG read back as XML,
every point where the totals, worked out by hand, put it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorer.chart import Chart, from_standings, path, svg
from scorer.games import GAMES
from scorer.record import load

from .helpers import record

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)  # fails the test if the SVG is not well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def plot_box(root) -> tuple[float, float, float, float]:
    rect = root.find("svg:rect[@class='plot']", NS)
    return tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))


def lines(root) -> dict[str, list[tuple[float, float]]]:
    """Each seat's line as the points it goes through on the chart: a path's
    "M x y" then "l dx dy …" steps (a minus sign may start the next number), in
    deals and points, placed by its group's transform (a matrix: x scaled and
    moved, y scaled and moved)."""
    out = {}
    group = root.find("svg:g[@class='lines']", NS)
    a, b, c, d, e, f = map(
        float, re.fullmatch(r"matrix\((.*)\)", group.get("transform")).group(1).split()
    )
    assert b == c == 0  # no turn, no slant
    for p in group.findall("svg:path", NS):
        move, steps = re.fullmatch(r"M([^l]+)(?:l(.*))?", p.get("d")).groups()
        number = r"-?(?:\d+\.?\d*|\.\d+)"
        x, y = map(float, re.findall(number, move))
        points = [(x, y)]
        values = [float(v) for v in re.findall(number, steps or "")]
        for dx, dy in zip(values[::2], values[1::2]):
            x, y = x + dx, y + dy
            points.append((x, y))
        out[p.get("class")] = [(a * x + e, d * y + f) for x, y in points]
    assert not root.findall("svg:path", NS)  # every line is in the group
    return out


def texts(root, cls: str) -> list[str]:
    return [t.text for t in root.findall(f"svg:text[@class='{cls}']", NS)]


def chart_of(game, deals, players, options=None):
    _match, standings = load(record(game, deals, players, options))
    return parse(svg(from_standings(standings)))


# Black Maria, 3 players, target 50 (RULES.md: each heart 1, Q♠ 13, K♠ 10, A♠ 7):
#   deal 1: hearts 4 6 3, Q♠ Ala, K♠ A♠ Bartek → Ala 4+13 = 17, Bartek 6+10+7 = 23, Celina 3
#   deal 2: hearts 0 5 8, Q♠ K♠ Celina, A♠ Ala → 7, 5, 8+13+10 = 31 → totals 24, 28, 34
#   deal 3: hearts 2 1 10, Q♠ Bartek, K♠ A♠ Celina → 2, 1+13 = 14, 10+10+7 = 27
#           → totals 26, 42, 61: Celina is past 50, the match is over
BLACK_MARIA = [
    {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
    {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
    {"hearts": [2, 1, 10], "taken_by": {"QS": 1, "KS": 2, "AS": 2}},
]


def test_one_line_per_player_through_the_running_totals():
    root = chart_of("black_maria", BLACK_MARIA, 3, {"target": 50})
    # values from 0 to 61 and the target 50: a span of 61 in about four steps of
    # 15.25 or more gives steps of 20, so the axis runs 0, 20, 40, 60, 80
    assert texts(root, "tick") == ["0", "20", "40", "60", "80"]
    x0, y0, w, h = plot_box(root)

    def at(deal, total):  # deal 0 is the start; 3 deals share the width, 80 the height
        return x0 + w * deal / 3, y0 + h * (80 - total) / 80

    expected = {
        "seat0": [at(0, 0), at(1, 17), at(2, 24), at(3, 26)],
        "seat1": [at(0, 0), at(1, 23), at(2, 28), at(3, 42)],
        "seat2": [at(0, 0), at(1, 3), at(2, 34), at(3, 61)],
    }
    got = lines(root)
    assert set(got) == set(expected)  # one line per player, nothing else
    for seat, points in expected.items():
        assert len(got[seat]) == 4
        for (gx, gy), (ex, ey) in zip(got[seat], points):
            assert gx == pytest.approx(ex, abs=0.06) and gy == pytest.approx(ey, abs=0.06), seat
    # the target: a line at 50, 30 of 80 below the top, and its words
    target = root.find("svg:line[@class='target']", NS)
    assert float(target.get("y1")) == pytest.approx(y0 + h * 30 / 80, abs=0.06)
    assert texts(root, "target") == ["target 50"]
    assert texts(root, "deal") == ["1", "2", "3"]
    assert root.find("svg:title", NS).text == "Running totals after each deal"


def test_no_target_line_when_the_match_ends_after_a_number_of_deals():
    root = chart_of("black_maria", BLACK_MARIA[:2], 3, {"end": "deals", "deals": 6})
    assert root.find("svg:line[@class='target']", NS) is None
    # 0 to 34 in steps of 10 (34 / 4 = 8.5 → 10): 0 … 40
    assert texts(root, "tick") == ["0", "10", "20", "30", "40"]


def test_negative_totals_and_a_minus_sign():
    # Metamorphosis, the worked example of RULES.md: deal 1 -12, -20, +10
    root = chart_of(
        "metamorphosis", [{"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]}], 3
    )
    # -20 to 10: 30 / 4 = 7.5 → steps of 10, from -20 to 10
    assert texts(root, "tick") == ["−20", "−10", "0", "10"]  # as the sheet writes them
    x0, y0, w, h = plot_box(root)
    assert lines(root)["seat1"][1] == (pytest.approx(x0 + w), pytest.approx(y0 + h))  # -20
    assert lines(root)["seat2"][1][1] == pytest.approx(y0)  # +10 at the top


def test_metamorphosis_marks_rounds_and_what_each_deal_counts():
    deals = [
        {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]},
        {"tricks": [0, 6, 6], "hearts": [0, 1, 2]},
        {"tricks": [1, 2, 9]},
        {"tricks": [4, 4, 4], "spades": [4, 4, 5]},
        {"declarations": [1, 1, 1], "tricks": [4, 4, 4], "clubs": [1, 1, 1]},
    ]
    root = chart_of("metamorphosis", deals, 3)
    # RULES.md: clubs -4 each, hearts +3 (diamonds trumps), every card -1, spades +4
    assert texts(root, "label") == ["−4♣", "+3♥", "−1", "+4♠", "−4♣"]
    assert texts(root, "group") == ["Round 1", "Round 2"]
    # round 2 begins after deal 4: its separator stands at 4 fifths of the width
    x0, _y0, w, _h = plot_box(root)
    sep = root.findall("svg:line[@class='group']", NS)
    assert len(sep) == 1 and float(sep[0].get("x1")) == pytest.approx(x0 + w * 4 / 5, abs=0.06)
    assert root.find("svg:line[@class='target']", NS) is None  # no target in Metamorphosis


def test_variety_writes_each_contract_under_its_deal():
    deals = [
        {"contract": 2, "attackers": [0, 2], "tricks": 7},
        {"contract": 8, "attackers": [1, 3], "tricks": 8},
        {"contract": 5, "attackers": [0, 1], "black_tj": 2, "red_tj": 1},
    ]
    root = chart_of("variety", deals, 4)
    # type 2 clubs trumps, type 8 no trumps, type 5 spades trumps
    assert texts(root, "label") == ["2 ♣", "8 NT", "5 ♠"]
    assert len(lines(root)) == 4


def test_games_without_labels_write_only_deal_numbers():
    root = chart_of("black_maria", BLACK_MARIA, 3)
    assert texts(root, "label") == [] and texts(root, "group") == []


def test_many_deals_number_every_fifth_and_turn_long_labels():
    # 60 deals in 281 or so units: under 5 a deal; two-digit numbers need about
    # 19, so every 5th deal is numbered (5 × 4.7 ≥ 19 > 2 × 4.7)
    totals = [[d, -d] for d in range(1, 61)]
    root = parse(svg(Chart(totals, None, labels=tuple("3 ♠" for _ in totals))))
    assert texts(root, "deal") == [str(d) for d in range(5, 61, 5)]
    labels = root.findall("svg:text[@class='label']", NS)
    assert labels and all("rotate(-90)" in t.get("transform") for t in labels)
    assert len(lines(root)["seat0"]) == 61


def test_no_chart_before_the_first_deal():
    assert svg(Chart([], 100)) == ""


def test_names_and_labels_are_escaped():
    root = parse(svg(Chart([[1, 2]], None, groups=("<Round & 1>",), labels=("a<b",))))
    assert texts(root, "label") == ["a<b"] and texts(root, "group") == ["<Round & 1>"]


def test_the_sheet_shows_the_chart_and_a_legend_in_seat_colours(client):
    r = client.post("/api/matches", json=record("black_maria", BLACK_MARIA, 3))
    page = client.get(f"/m/{r.get_json()['id']}").get_data(as_text=True)
    start = page.index("<svg", page.index('class="chart"'))
    root = parse(page[start : page.index("</svg>", start) + 6])
    assert sorted(lines(root)) == ["seat0", "seat1", "seat2"]
    for s, name in enumerate(["Ala", "Bartek", "Celina"]):
        assert f'<li class="seat{s}">' in page and name in page
    empty = client.post("/api/matches", json=record("black_maria", [], 3))
    assert 'class="chart"' not in client.get(f"/m/{empty.get_json()['id']}").get_data(as_text=True)


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_every_seat_has_a_colour_that_reads_in_light_and_dark():
    """WCAG's contrast ratio; 3:1 is the least for lines and other non-text marks."""
    css = (Path(__file__).parent.parent / "static" / "scorer.css").read_text()
    light, dark = css.split("@media (prefers-color-scheme: dark)", 1)
    seats = max(max(g.player_counts) for g in GAMES.values())
    for scheme in (light, dark.split("}", 1)[0]):
        colours = dict(re.findall(r"--([a-z0-9]+):\s*(#[0-9a-f]{6})", scheme))
        for s in range(seats):
            for ground in ("bg", "card"):
                a, b = sorted([_luminance(colours[f"seat{s}"]), _luminance(colours[ground])])
                assert (b + 0.05) / (a + 0.05) >= 3, (s, ground)
        assert len({colours[f"seat{s}"] for s in range(seats)}) == seats  # all different


def test_a_line_is_written_as_whole_steps_of_deals_and_points():
    # 0 → 17 → 24 → 21 after deals 1, 2, 3; then deal 10 (a long match drawn through
    # some of its deals) at 30
    d = path([(0, 0), (1, 17), (2, 24), (3, 21), (10, 30)])
    assert d == "M0 0l1 17 1 7 1-3 7 9", d
    assert path([(0, 0)]) == "M0 0"
