"""Pages and parts drawn once and kept by this process: what is drawn from a
version of a match is never drawn again for it, nor compressed again. The
sheet's head, tail and next deal, and the whole sheet a version shows every
phone of one role and language, are kept under the sheet's ETag, which names
all they are drawn from (the match's version, the language, scorer or watcher,
all deals or the latest); the API read and the exports under the match's
version and what else they depend on. A kept body is compressed here, once per
encoding this request accepts (``packed``: Brotli or gzip, at Flask-Compress's
configured levels); Flask-Compress leaves a body that has its encoding, and
compresses the pages drawn for one request. Every write makes a new version,
so a kept part is never stale; a worker that has not drawn it yet draws it."""

from __future__ import annotations

import gzip
from collections.abc import Callable

import brotli
from flask import (
    Response,
    current_app,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from markupsafe import Markup, escape

from ..i18n import locale_now, number
from ..recent import Recent
from ..store import Stored

# a box carries hundreds of tables, each drawn for scorers and watchers, in their
# languages: the sheet's parts are a few kB each
DRAWN = 1024


def drawn() -> Recent:
    """This app's kept parts (a test's app has its own)."""
    return current_app.extensions.setdefault("scorer.drawn", Recent(DRAWN))


# whole sheets mid-match (scorer.web.sheet), 10–30 kB each and a third of that
# compressed: a few hundred tables
PAGES = 256


def drawn_pages() -> Recent:
    """This app's kept sheets, and their compressed bytes."""
    return current_app.extensions.setdefault("scorer.pages", Recent(PAGES))


# whole bodies (the API read, the CSVs) are larger and asked for less often
BODIES = 128


def kept_body(kind: str, stored: Stored, make: Callable[[], str | bytes]) -> str | bytes:
    """A body drawn from a version of a match (in the page's language), made once
    by this process: a long match's CSV or record is not written out again for
    every download of the same version."""
    kept = current_app.extensions.setdefault("scorer.bodies", Recent(BODIES))
    return kept.get((kind, stored.pub, stored.version, str(get_locale())), make)


def kept_download(
    kind: str, stored: Stored, make: Callable[[], str | bytes], headers: dict
) -> Response:
    """A download drawn from a version of a match (``kept_body``, kept as bytes),
    compressed once per version, language and encoding (``packed``): Brotli over a
    2,000-deal CSV took twice what the whole request of a short one does, on
    every download."""
    kept = current_app.extensions.setdefault("scorer.bodies", Recent(BODIES))
    key = (kind, stored.pub, stored.version, str(get_locale()))
    return packed(
        Response(headers=headers),
        kept,
        key,
        lambda: kept_body(kind, stored, lambda: _bytes(make())),
    )


# Our encodings, best first: Brotli, else gzip (Chrome also takes zstd, which at
# Flask-Compress's level made a sheet a sixth bigger; every browser takes one of these).
ENCODINGS = ("br", "gzip")


def accepted() -> str | None:
    """The encoding of ENCODINGS this request's Accept-Encoding takes (its quality
    first, then ours), None for none."""
    return request.accept_encodings.best_match(ENCODINGS)


def compress(data: bytes, encoding: str, level: int | None = None) -> bytes:
    """``data`` in ``encoding`` at Flask-Compress's configured level (``level``:
    Brotli's quality instead)."""
    config = current_app.config
    if encoding == "br":
        return brotli.compress(data, quality=level or config["COMPRESS_BR_LEVEL"])
    return gzip.compress(data, config["COMPRESS_LEVEL"], mtime=0)


def packed(
    response: Response, kept: Recent, key: tuple, body: Callable[[], str | bytes]
) -> Response:
    """``response`` with ``body()`` (kept in ``kept`` under ``key`` by the caller,
    or by its own ``get``), compressed for this request once per ``key`` and
    encoding, and answered 304 where the request names its ETag. A body under
    Flask-Compress's least size, or for a request that takes no encoding of ours,
    goes as it is."""
    config = current_app.config
    encoding = accepted()
    if encoding is not None and response.mimetype in config["COMPRESS_MIMETYPES"]:

        def pack() -> bytes | None:
            plain = _bytes(body())
            if len(plain) < config["COMPRESS_MIN_SIZE"]:
                return None
            return compress(plain, encoding, BIG_LEVEL if len(plain) >= BIG_PAGE else None)

        data = kept.get((*key, encoding), pack)
        if data is not None:
            response.set_data(data)
            response.headers["Content-Encoding"] = encoding
            response.vary.add("Accept-Encoding")
            return response.make_conditional(request)
    response.set_data(_bytes(body()))
    return response


# "Show all" of a long match is a page of hundreds of kB (465 kB at 1,000 deals):
# Brotli at level 5 took 8 ms of it, at 3 2.3 ms for a sixth more bytes (40 kB, not
# 34). Smaller pages keep Flask-Compress's level (scorer/app.py's COMPRESS_BR_LEVEL).
BIG_PAGE, BIG_LEVEL = 64 * 1024, 3


def pack_big(response: Response) -> Response:
    """A page drawn for one request past BIG_PAGE, compressed here at BIG_LEVEL
    for a browser that takes Brotli (Flask-Compress leaves a body that has its
    encoding); else as it is."""
    data = response.get_data()
    if len(data) >= BIG_PAGE and accepted() == "br":
        response.set_data(compress(data, "br", BIG_LEVEL))
        response.headers["Content-Encoding"] = "br"
    return response


def _bytes(body: str | bytes) -> bytes:
    return body.encode() if isinstance(body, str) else body


def deal_rows(shown, seats: int, can_score: bool, match_id: str, edit: str) -> Markup:
    """The deals table's rows, drawn here rather than by the template: "Show all"
    of a 1,000-deal match is 4,000 cells, and a template's loop drew them in a
    fifth of a second. Each row: its number (a scorer's link to edit it, its tag),
    then per seat the deal's points with their sign and mark, and the total."""
    locale = locale_now()  # once: Babel's Locale is slow to name 4,000 times
    link = url_for("entry.edit_deal", match_id=match_id, number=0)[:-1]
    label = str(escape(edit))  # the game's "Edit deal {n}", the number put in below
    out = []
    for row in shown:
        n = row.number
        named = label.replace("{n}", str(n))
        head = f'<a href="{link}{n}" aria-label="{named}">{n} ✎</a>' if can_score else n
        tag = f'<small class="tag">{escape(row.tag)}</small>' if row.tag else ""
        cells = []
        for s in range(seats):
            mark = row.marks[s] if row.marks else ""
            mark = f'<span class="mark">{escape(mark)}</span> ' if mark else ""
            points, total = row.points[s], row.totals[s]
            points = (
                f"+{points}"
                if 0 < points < 1000
                else ("0" if points == 0 else signed(points, locale))
            )
            total = str(total) if 0 <= total < 1000 else number(total, locale)
            cells.append(
                f'<td><span class="pts">{mark}{points}</span><span class="run">{total}</span></td>'
            )
        out.append(f'<tr>\n    <th scope="row">{head}{tag}</th>\n    {"".join(cells)}\n  </tr>')
    return Markup("\n".join(out))


def signed(value: int, locale) -> str:
    """Points with their sign (+3, -2, 0), as the locale writes numbers."""
    return ("+" if value > 0 else "") + number(value, locale)


def draw(template: str, context: dict) -> Markup:
    return Markup(render_template(template, **context))


def per_language(template: str, words=None) -> Markup:
    """A part of every page that is the same in every page of a language (its
    links, its script and the offline queue's words: templates/base.html), drawn
    once per language (and ``words``, the game whose deal words it says: the queue
    counts Metamorphosis' plays as plays): two dozen words and half a dozen
    addresses that every page drew again."""
    locale = str(get_locale())
    game = getattr(words, "key", None) or getattr(words, "game", None)  # a Game, a Match
    key = ("per_language", template, locale, game)
    return drawn().get(key, lambda: draw(template, {"words": words}))
