"""The chart of the running totals: plain data in, SVG text out.

Drawn on the server so the sheet needs no JavaScript; one ``path`` per
seat from 0 before deal 1 through the total after every deal (in deals and
points, placed by one transform), the target as
a dashed line where the match has one, the deal numbers along the bottom and,
where the game labels its deals (Metamorphosis' rounds, Variety's
contracts), those labels under the numbers.

The drawing is ``WIDTH`` units wide (``viewBox``) and is scaled to the page,
so at 320 px a unit is about a CSS pixel. Lines and text carry classes
(``seat0`` …, ``target``, ``grid``) for the page's colours; the attributes
alone (``currentColor``) still draw a readable chart. Each seat also has its
own dash pattern, so the lines differ without colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from .i18n import _, page_number

WIDTH = 320
FONT = 12
GAP = 6  # the least room between two labels side by side
TOP = 16  # room above the plot for the target's label
PLOT_HEIGHT = 150
LINE = 2.5
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2")  # per seat


@dataclass(frozen=True)
class Chart:
    """What the chart shows: the totals after each deal (one list per deal, one
    number per seat), the target or None, and per deal the name of a group that
    begins with it and a short label ("" for none)."""

    totals: list[list[int]]
    target: int | None = None
    groups: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    at: tuple[int, ...] = ()  # the deal each row of ``totals`` is after (): 1, 2, 3 …
    title: str = ""  # what it shows, in the game's words (the game's "chart")

    @property
    def deals(self) -> tuple[int, ...]:
        return self.at or tuple(range(1, len(self.totals) + 1))


POINTS = 160  # a longer match is drawn through this many of its deals, evenly spread


def sample(deals: int, points: int = POINTS) -> list[int]:
    """The deal numbers a line through ``deals`` deals is drawn through: every
    one up to ``points``, else ``points`` of them evenly spread, the last one
    always (a 320-unit chart shows no more)."""
    if deals <= points:
        return list(range(1, deals + 1))
    return sorted({round(k * deals / points) for k in range(1, points + 1)})


def from_standings(standings) -> Chart:
    """The chart of a match's standings (``scorer.match.Standings``); the rules
    say the target and how to label each deal. Only the deals it draws are read
    (a game that labels none has no labels to read)."""
    rules, kept = standings.rules, standings.kept
    at = sample(len(kept))
    axis = [k.axis for k in kept] if rules.labels_deals() else []
    return Chart(
        totals=[list(kept[d - 1].totals) for d in at],
        target=rules.target(),
        groups=tuple(g for g, _l in axis),
        labels=tuple(lab for _g, lab in axis),
        at=tuple(at) if len(at) < len(kept) else (),
        title=str(rules.words("chart")),
    )


def nice_step(span: float, ticks: int = 4) -> int:
    """A whole step of 1, 2 or 5 times a power of ten giving about ``ticks`` steps."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return int(m * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def num(v: float) -> str:
    """A coordinate with at most one decimal: 12, 12.5."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def signed(v: int) -> str:
    """A value's label as the sheet writes the same number (its locale's minus sign)."""
    return page_number(v)


def svg(chart: Chart) -> str:
    """The chart as an SVG element (text), or "" before the first deal."""
    if not chart.totals:
        return ""
    deals = chart.deals[-1]
    seats = len(chart.totals[0])
    values = [0] + [v for row in chart.totals for v in row]
    if chart.target is not None:
        values.append(chart.target)
    low, high = min(values), max(values)
    step = nice_step(high - low)
    y0, y1 = math.floor(low / step) * step, math.ceil(high / step) * step
    if y0 == y1:
        y1 = y0 + step
    ticks = list(range(y0, y1 + 1, step))

    labels = list(chart.labels) + [""] * (deals - len(chart.labels))
    left = math.ceil(max(width(signed(t)) for t in ticks) + 8)  # room for the numbers
    # room for half the last deal's number or label, centred under its point
    right = math.ceil(max(width(str(deals)), width(labels[-1])) / 2 + 3)
    pw, ph = WIDTH - left - right, PLOT_HEIGHT
    dx = pw / deals

    def x(i: int) -> float:
        return left + i * dx

    def y(v: float) -> float:
        return TOP + ph * (y1 - v) / (y1 - y0)

    bottom = TOP + ph
    out: list[str] = []
    # the value axis: a grid line and a number per tick
    for t in ticks:
        cls = "grid zero" if t == 0 else "grid"
        out.append(
            f'<line class="{cls}" x1="{num(left)}" x2="{num(left + pw)}" y1="{num(y(t))}" '
            f'y2="{num(y(t))}" stroke="currentColor" stroke-opacity="0.2"/>'
        )
        out.append(
            f'<text class="tick" x="{num(left - 5)}" y="{num(y(t) + FONT * 0.35)}" '
            f'text-anchor="end">{signed(t)}</text>'
        )
    out.append(
        f'<rect class="plot" x="{num(left)}" y="{num(TOP)}" width="{num(pw)}" '
        f'height="{num(ph)}" fill="none" stroke="currentColor" stroke-opacity="0.3"/>'
    )

    row_y = bottom + FONT + 4  # the deal numbers' baseline
    every = _every(dx, width(str(deals)) + 4)
    for i in range(every, deals + 1, every):
        out.append(
            f'<text class="deal" x="{num(x(i))}" y="{num(row_y)}" text-anchor="middle">{i}</text>'
        )
    height = row_y + 4

    if any(labels):
        widest = max(width(lab) for lab in labels)
        rows = next((r for r in (1, 2) if widest + GAP <= r * dx), 0)
        if rows:  # side by side; in two staggered rows if one is too tight
            for i, lab in enumerate(labels, 1):
                if lab:
                    base = height + (FONT + 2) * ((i - 1) % rows + 1)
                    out.append(
                        f'<text class="label" x="{num(x(i))}" y="{num(base)}" '
                        f'text-anchor="middle">{escape(lab)}</text>'
                    )
            height += (FONT + 2) * rows + 4
        else:  # turned a quarter, read from bottom to top, every deal that fits
            skip = _every(dx, FONT + 2)
            top = height + 2
            for i in range(1, deals + 1, skip):
                if labels[i - 1]:
                    cx = x(i) + FONT * 0.35
                    out.append(
                        f'<text class="label" transform="translate({num(cx)},{num(top)}) '
                        f'rotate(-90)" text-anchor="end">{escape(labels[i - 1])}</text>'
                    )
            height = top + widest + 4

    groups = list(chart.groups) + [""] * (deals - len(chart.groups))
    starts = [i for i, g in enumerate(groups, 1) if g]
    if starts:
        base = height + FONT
        for k, i in enumerate(starts):
            end = starts[k + 1] - 1 if k + 1 < len(starts) else deals
            a, b = x(i - 1), x(end)
            if i > 1:
                out.append(
                    f'<line class="group" x1="{num(a)}" x2="{num(a)}" y1="{num(TOP)}" '
                    f'y2="{num(base)}" stroke="currentColor" stroke-opacity="0.45" '
                    f'stroke-dasharray="3 3"/>'
                )
            if width(groups[i - 1]) <= b - a:
                out.append(
                    f'<text class="group" x="{num((a + b) / 2)}" y="{num(base)}" '
                    f'text-anchor="middle">{escape(groups[i - 1])}</text>'
                )
        height = base + 4

    if chart.target is not None:
        ty = y(chart.target)
        out.append(
            f'<line class="target" x1="{num(left)}" x2="{num(left + pw)}" y1="{num(ty)}" '
            f'y2="{num(ty)}" stroke="currentColor" stroke-width="1.5" '
            f'stroke-dasharray="6 4"/>'
        )
        words = escape(_("target %(n)s", n=signed(chart.target)))
        out.append(
            f'<text class="target" x="{num(left + pw - 2)}" y="{num(ty - 4)}" '
            f'text-anchor="end">{words}</text>'
        )

    # the lines in the match's own units, deals along and points up, placed by one
    # transform (a line's width and dashes in the page's pixels: non-scaling-stroke)
    k = ph / (y1 - y0)
    out.append(
        f'<g class="lines" transform="matrix({_exact(dx)} 0 0 {_exact(-k)} {num(left)} '
        f'{_exact(y(0))})">'
    )
    for s in range(seats):
        points = list(zip((0, *chart.deals), [0] + [row[s] for row in chart.totals]))
        out.append(
            f'<path class="seat{s}" d="{path(points)}" vector-effect="non-scaling-stroke"'
            f"{_line_style(s)}/>"
        )
    out.append("</g>")

    title = escape(chart.title or _("Running totals after each deal"))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" '
        f'viewBox="0 0 {WIDTH} {num(height)}" role="img" aria-label="{title}" '
        f'font-size="{FONT}" fill="currentColor"><title>{title}</title>' + "".join(out) + "</svg>"
    )


def path(points: list[tuple[int, int]]) -> str:
    """A line through ``points`` (deal, total) as an SVG path's data: the first
    point ("M0 0"), then each next one as a step from the last, in whole deals
    and points ("l1 17 1 7 1-3"): the totals exactly, in few bytes."""
    (x0, y0), steps = points[0], []
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        steps.append(f"{bx - ax} {by - ay}")
    return f"M{x0} {y0}" + ("l" + " ".join(steps).replace(" -", "-") if steps else "")


def _exact(v: float) -> str:
    """A scale or offset with six significant digits (a point 1,000 deals or
    points away is off by less than a hundredth of a unit)."""
    return f"{v:.6g}"


def width(text: str) -> float:
    """About how wide ``text`` is drawn at the chart's size: a little wider than
    most sans-serif faces draw digits and letters, a space narrower, a symbol
    (♠, ⚔) wider."""
    return FONT * sum(0.32 if ch == " " else 0.9 if ord(ch) > 0x2000 else 0.64 for ch in text)


def swatch(seat: int) -> str:
    """A short piece of a seat's line, for the legend beside the chart."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="swatch" viewBox="0 0 28 8" '
        f'width="28" height="8" aria-hidden="true"><polyline class="seat{seat}" '
        f'points="0,4 28,4"{_line_style(seat)}/></svg>'
    )


def _line_style(seat: int) -> str:
    dash = DASHES[seat % len(DASHES)]
    return f' fill="none" stroke="currentColor" stroke-width="{LINE}" stroke-linejoin="round"' + (
        f' stroke-dasharray="{dash}"' if dash else ""
    )


def _every(space: float, needed: float) -> int:
    """Label every k-th deal, k the first of 1, 2, 5, 10, 20, 50 … that leaves
    ``needed`` units between labels ``space`` apart."""
    power = 1
    while True:
        for m in (1, 2, 5):
            if m * power * space >= needed:
                return m * power
        power *= 10


RATING_HEIGHT = 90  # the rating line's plot: a small picture beside a player's figures


def rating_line(values: list[float], label: str) -> str:
    """A player's rating over time in one game as a small SVG line: ``values``
    the rating before the first match, then after each (a long run is drawn
    through ``POINTS`` of them); ``label`` says it in words for a screen reader
    (the web layer writes it in the page's language). "" for no match."""
    if len(values) < 2:
        return ""
    at = [0, *sample(len(values) - 1)]
    low, high = math.floor(min(values)), math.ceil(max(values))
    step = nice_step(high - low, 3)
    y0, y1 = math.floor(low / step) * step, math.ceil(high / step) * step
    if y0 == y1:
        y1 = y0 + step
    ticks = list(range(y0, y1 + 1, step))
    left = math.ceil(max(width(signed(t)) for t in ticks) + 8)
    last = len(values) - 1
    right = math.ceil(width(str(last)) / 2 + 3)
    pw, ph = WIDTH - left - right, RATING_HEIGHT
    dx = pw / last

    def x(i: int) -> float:
        return left + i * dx

    def y(v: float) -> float:
        return TOP / 2 + ph * (y1 - v) / (y1 - y0)

    out = []
    for t in ticks:
        out.append(
            f'<line class="grid" x1="{num(left)}" x2="{num(left + pw)}" y1="{num(y(t))}" '
            f'y2="{num(y(t))}" stroke="currentColor" stroke-opacity="0.2"/>'
            f'<text class="tick" x="{num(left - 5)}" y="{num(y(t) + FONT * 0.35)}" '
            f'text-anchor="end">{signed(t)}</text>'
        )
    base = TOP / 2 + ph + FONT + 4
    every = _every(dx, width(str(last)) + 4)
    for i in range(every, last + 1, every):  # the matches' numbers
        out.append(
            f'<text class="deal" x="{num(x(i))}" y="{num(base)}" text-anchor="middle">{i}</text>'
        )
    points = " ".join(f"{num(x(i))},{num(y(values[i]))}" for i in at)
    out.append(
        f'<polyline class="rating" points="{points}" fill="none" stroke="currentColor" '
        f'stroke-width="{LINE}" stroke-linejoin="round"/>'
        f'<circle class="rating" cx="{num(x(last))}" cy="{num(y(values[-1]))}" r="3.5"/>'
    )
    words = escape(label)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-svg" '
        f'viewBox="0 0 {WIDTH} {num(base + 4)}" role="img" aria-label="{words}" '
        f'font-size="{FONT}" fill="currentColor"><title>{words}</title>' + "".join(out) + "</svg>"
    )
