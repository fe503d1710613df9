"""Every kind of page in every language at 320 and 390 px, read by a layout checker
(issue 25): no text clipped by its box (its scroll width over its client width) and
no page wider than the screen; no word broken inside a table heading, a chip or a
button; no two controls on top of each other; no line of a message beginning in
lower case; no record field name (``taken_by``, ``(bids)``) in the visible text; no
date in another language's words. A failure names the page, the language, the width
and the element.

One browser, one live server; the matches are made through the API first and every
page is reached by its URL, laid out at both widths without a reload.

It runs in ``make test``: the faults it found when it was written (issue 25, item 3:
the deal forms' name chips clipped at 320 px, the check page's card pad over its
chips, rules-table words broken letter by letter, the league's names, about 1,400
lines over 20 pages × 5 languages) are fixed."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from babel.dates import get_month_names

from scorer.autoplay import play_match
from scorer.engine import RANDOM
from scorer.games import GAMES
from scorer.i18n import LANGUAGES

from .helpers import served_made

pytestmark = pytest.mark.browser

WIDTHS = (320, 390)
# long names as players write them, one of them a woman's (the chips' clipping)
NAMES = ["Aleksandra", "Bartłomiej", "Katarzyna", "Władysław", "Zbigniew"]

# What the page's script returns: one line a problem, "what — element".
CHECK = r"""() => {
  const out = [];
  const seen = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true })
      && r.right > 0 && r.left < window.innerWidth;  // not a control kept off the screen
  };
  const name = (e) => {
    let n = e.tagName.toLowerCase();
    if (e.id) n += "#" + e.id;
    if (e.classList.length) n += "." + [...e.classList].join(".");
    const text = (e.innerText || e.value || e.getAttribute("aria-label") || "").trim();
    return n + (text ? ` "${text.slice(0, 40).replace(/\s+/g, " ")}"` : "");
  };
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1)
    out.push(`the page is ${root.scrollWidth} px wide — html`);
  // text cut by its box: a box that hides what overflows, and whose text is wider
  // (the cheap question first: most boxes let what overflows show); a line of text
  // cut with an ellipsis that shows is cut visibly, not clipped (a player's name)
  const ruler = document.createElement("canvas").getContext("2d");
  const marked = (e, style) => {
    if (style.textOverflow !== "ellipsis" || !/^(nowrap|pre)$/.test(style.whiteSpace)) return false;
    // text-overflow draws its "…" in a block container's own line of inline content only
    if (!["block", "inline-block", "flow-root", "list-item", "table-cell"].includes(style.display))
      return false;
    for (const c of e.querySelectorAll("*"))
      if (getComputedStyle(c).display !== "inline") return false;  // none cut whole
    // the line's first letter is clipped, never replaced: room for it and the "…"
    ruler.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return e.clientWidth >= ruler.measureText([...e.textContent.trim()][0] + "\u2026").width;
  };
  for (const e of document.querySelectorAll("main *, header *")) {
    const style = getComputedStyle(e);
    if (!["hidden", "clip"].includes(style.overflowX)) continue;
    if (e.clientWidth <= 1 || !e.textContent.trim() || !seen(e)) continue;  // not .sr-only
    if (e.scrollWidth > e.clientWidth + 1 && !marked(e, style))
      out.push(`text clipped (${e.scrollWidth} > ${e.clientWidth} px) — ${name(e)}`);
  }
  // a field's grey word cut by its box (the last count's "auto": "zbyte" for "zbytek")
  for (const e of document.querySelectorAll("main input[placeholder]")) {
    if (!e.placeholder || e.value || !seen(e)) continue;
    const style = getComputedStyle(e, "::placeholder");
    const box = getComputedStyle(e);
    ruler.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = e.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
    if (ruler.measureText(e.placeholder).width > room + 0.5)
      out.push(`the field's word "${e.placeholder}" is cut by its box — ${name(e)}`);
  }
  // a word broken inside: a word of a heading cell, a chip, a button or a legend (a
  // question's label, the check's "who leads") on two lines (a hyphenated word's
  // parts are words: "kor-" then "reĝo" is a break where a typesetter makes one)
  const labels = "main th, main td, main .chip, main button, main a.button, main legend";
  for (const e of document.querySelectorAll(labels)) {
    if (!seen(e)) continue;
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      // the parts of a hyphenated word apart: a line may break after its hyphen, but
      // not inside an ordinal ("7-ю", "7-an": a number and its ending are one word)
      const re = /\d+[-\u2011][^\s\u00a0-]+|[^\s\u00a0-]{2,}-?/g;
      let m;
      while ((m = re.exec(t.data))) {
        const range = document.createRange();
        range.setStart(t, m.index);
        range.setEnd(t, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const tops = new Set(rects.map((r) => Math.round(r.top)));
        if (tops.size > 1)
          out.push(`the word "${m[0]}" is broken over ${tops.size} lines — ${name(e)}`);
      }
    }
  }
  // controls on top of each other (an input inside its chip or file button is the chip;
  // a control pinned to the screen's edge, the deal form's Save, floats over the form
  // by design and the form scrolls from under it)
  const pinned = (e) => {
    for (; e; e = e.parentElement)
      if (["sticky", "fixed"].includes(getComputedStyle(e).position)) return true;
    return false;
  };
  const typed = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not([type=file])";
  const controls = [...document.querySelectorAll(
    ["button", "a", "select", "textarea", "summary", "label.chip", typed].map((c) => "main " + c)
      .join(", ")
  )].filter((e) => seen(e) && !pinned(e));
  const boxes = controls.map((e) => e.getBoundingClientRect());
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++) {
      if (controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) {
        const size = `${Math.round(w)}×${Math.round(h)} px`;
        out.push(`overlaps ${name(controls[j])} (${size}) — ${name(controls[i])}`);
      }
    }
  // a message shown alone begins each of its lines as a sentence
  for (const e of document.querySelectorAll(".error, .flash, [role=alert], [role=status]")) {
    if (!seen(e)) continue;
    for (const line of e.innerText.split("\n").map((l) => l.trim()).filter(Boolean))
      if (/^\p{Ll}/u.test(line))
        out.push(`a message line starts in lower case: "${line.slice(0, 50)}" — ${name(e)}`);
  }
  return out;
}"""

# The page's visible words, and its dates, in one question to the page.
WORDS = """() => [document.querySelector("main").innerText,
  [...document.querySelectorAll("time")].map((t) => t.innerText)]"""
# The record's keys, as no page may show them (the API's refusals may).
FIELD = re.compile(
    r"\b[a-z]+_[a-z_]+\b|\((?:bids|contract|attackers|hearts|capot|made|tricks)\)"
    r"|\b(?:True|False|None)\b"
)


@cache
def months(lang: str) -> set[str]:
    words = set()
    for width in ("abbreviated", "wide"):
        for context in ("format", "stand-alone"):
            words |= {m.strip(".").lower() for m in get_month_names(width, context, lang).values()}
    if lang == "eo":  # Scorer's own Esperanto dates (i18n.EO_MONTHS)
        words |= {"januaro", "februaro", "marto", "aprilo", "majo", "junio", "julio"}
        words |= {"aŭgusto", "septembro", "oktobro", "novembro", "decembro"}
    return words


def foreign_months(text: str, lang: str) -> list[str]:
    """Words of a date (in a <time>) that are another language's months, not this one's."""
    others = set().union(*(months(o) for o in LANGUAGES if o != lang)) - months(lang)
    return [w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in others]


def make(request, game: str, players: int, deals: list, options: dict | None = None) -> str:
    record = {"game": game, "players": NAMES[:players], "first_dealer": 0, "deals": deals}
    if options:
        record["options"] = options
    return "/m/" + served_made(request, "", record)["id"]


BM1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
BM2 = {"hearts": [2, 1, 10], "taken_by": {"QS": 1, "KS": 2, "AS": 2}}
VARIETY1 = {"bids": [2, 3, 6, 2], "contract": 2, "attackers": [1, 0], "tricks": 7}
META1 = {"declarations": [1, 2, 1], "tricks": [3, 5, 4], "clubs": [3, 5, 0]}
KIERKI_BEFORE_4 = [{"tricks": [3, 4, 2, 4]}, {"hearts": [0, 6, 4, 3]}, {"queens": [2, 0, 1, 1]}]


def played_with_tricks(game: str, players: int) -> dict:
    """A deal played by the engine, its tricks kept: the check page shows it whole,
    the points by the tricks beside the quick entry's."""
    cls = GAMES[game]
    rules = cls(cls.normalize_options({}, players), NAMES[:players])
    _plan, tricks, entry = next(play_match(rules, [RANDOM] * players, random.Random(3)))
    return {**entry, "play": tricks.record()}


def played_deals(game: str, players: int) -> list[dict]:
    """A whole match's deals played by the engine (every deal of a compendium)."""
    cls = GAMES[game]
    rules = cls(cls.normalize_options({}, players), NAMES[:players])
    return [
        entry for _plan, _tricks, entry in play_match(rules, [RANDOM] * players, random.Random(5))
    ]


@pytest.fixture(scope="module")
def pages(browser, live_server):
    """Every kind of page: its name and path."""
    context = browser.new_context(base_url=live_server)
    request = context.request  # this phone scores the matches it makes
    bm = make(request, "black_maria", 3, [BM1, BM2])
    ended = make(request, "black_maria", 3, [BM1], {"target": 20})  # Bartłomiej's 23 ends it
    polignac = make(request, "polignac", 4, [], {"capot": True})
    variety = make(request, "variety", 4, [VARIETY1])
    meta = make(request, "metamorphosis", 3, [META1])
    declaring = make(request, "metamorphosis", 3, [])  # a round's first deal: declarations
    hearts = make(request, "hearts", 4, [{"hearts": [3, 4, 5, 1], "taken_by": {"QS": 2}}])
    five = make(request, "hearts", 5, [])  # five counts abreast: the last one's word fits
    checked = make(request, "hearts", 4, [played_with_tricks("hearts", 4)])
    # Kierki's deal 4 asks for the kings and jacks («мальчики»), King's first deal
    kierki = make(request, "kierki", 4, KIERKI_BEFORE_4)
    # Kierki's sixth deal asks for trick 7 («Кто взял 7-ю взятку?»: never «7-» / «ю»)
    sixth = make(request, "kierki", 4, played_deals("kierki", 4)[:5])
    king = make(request, "king", 4, [])
    # every deal's short label on the sheets («взятки», «домино»: whole, never «взятк|и»)
    kierki_whole = make(request, "kierki", 4, played_deals("kierki", 4))
    king_whole = make(request, "king", 4, played_deals("king", 4))
    scorer = context.storage_state()
    context.close()
    return scorer, {
        "home": "/",
        "new match": "/new/black_maria",
        "new Polignac": "/new/polignac",
        "sheet": bm,
        "end screen": ended,
        "history": bm + "/history",
        "set-up": bm + "/setup",
        "check, Black Maria": bm + "/check?deal=2",
        "deal, Black Maria": bm + "/deal",
        "deal, Hearts": hearts + "/deal",
        "deal, Hearts with five": five + "/deal",
        "deal, Polignac with capot": polignac + "/deal",
        "deal, Variety": variety + "/deal",
        "check, Variety": variety + "/check?deal=1",
        "check, a whole deal of Hearts": checked + "/check?deal=1",
        "sheet, Metamorphosis": meta,
        "deal, Metamorphosis": meta + "/deal",
        "deal, Metamorphosis with declarations": declaring + "/deal",
        "rules, Metamorphosis": "/rules/metamorphosis",
        "rules, Variety": "/rules/variety",
        "deal, Kierki": kierki + "/deal",
        "deal, Kierki's sixth": sixth + "/deal",
        "deal, King": king + "/deal",
        "sheet, Kierki": kierki_whole,
        "sheet, King": king_whole,
        "rules, Kierki": "/rules/kierki",
        "rules, King": "/rules/king",
        "trick": "/trick?game=black_maria&cards=QS+KS+2S",
        "players": "/players",
        "player": "/p/Aleksandra",
    }


def test_every_page_in_every_language_fits_a_phone(browser, live_server, pages):
    scorer, pages = pages
    failures = []
    for lang in LANGUAGES:
        context = browser.new_context(
            base_url=live_server,
            viewport={"width": WIDTHS[0], "height": 844},
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            storage_state=scorer,
            service_workers="block",
        )
        page = context.new_page()
        for what, path in pages.items():
            page.goto(path)
            assert page.locator("html").get_attribute("lang") == lang, (what, lang)
            for width in WIDTHS:  # the same page, laid out again at each width
                page.set_viewport_size({"width": width, "height": 844})
                where = f"{what} ({path}) [{lang}, {width} px]"
                failures += [f"{where}: {p}" for p in page.evaluate(CHECK)]
            text, times = page.evaluate(WORDS)
            where = f"{what} ({path}) [{lang}]"
            failures += [f"{where}: a record field name {m!r}" for m in FIELD.findall(text)]
            for t in times:
                if foreign_months(t, lang):
                    failures.append(f"{where}: a date in another language's words {t!r}")
        context.close()
    assert failures == [], "\n".join(failures)


# The checker itself: a name cut with an ellipsis that shows is a visible cut; a name
# cut without one, or by a box too narrow for a letter and its "…", is clipped.
CUTS = """<style>p { width: 40px; overflow: hidden; white-space: nowrap }</style>
<main style="font: 16px sans-serif">
<p id="ellipsis" style="text-overflow: ellipsis">Włodzimierz</p>
<p id="clipped">Włodzimierz</p>
<p id="flex" style="display: flex; text-overflow: ellipsis">Włodzimierz</p>
<p id="narrow" style="width: 12px; text-overflow: ellipsis">Włodzimierz</p>
</main>"""


def test_the_checker_takes_an_ellipsis_for_a_visible_cut_and_still_finds_a_clipping(browser):
    page = browser.new_page(viewport={"width": 320, "height": 640})
    page.set_content(CUTS)
    assert page.eval_on_selector("#ellipsis", "e => e.scrollWidth > e.clientWidth")  # it is cut
    found = page.evaluate(CHECK)
    clipped = [line.split(" — ")[1].split(" ")[0] for line in found if "text clipped" in line]
    # text-overflow draws no "…" in a flex box, nor where a letter and it do not fit
    assert clipped == ["p#clipped", "p#flex", "p#narrow"], found
    page.close()
