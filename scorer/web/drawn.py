"""Parts of pages drawn once and kept by this process: what is drawn from a
version of a match is never drawn again for it. The sheet's head and tail
(chart, deals, words) are kept under the sheet's ETag, which names all they are
drawn from (the match's version, the language, scorer or watcher, all deals or
the latest); the API read and the exports under the match's version and what
else they depend on. Every write makes a new version, so a kept part is never
stale; a worker that has not drawn it yet draws it."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    current_app,
    render_template,
)
from flask_babel import get_locale
from markupsafe import Markup

from ..recent import Recent
from ..store import Stored

# a box carries hundreds of tables, each drawn for scorers and watchers, in their
# languages: the sheet's parts are a few kB each
DRAWN = 1024


def drawn() -> Recent:
    """This app's kept parts (a test's app has its own)."""
    return current_app.extensions.setdefault("scorer.drawn", Recent(DRAWN))


# whole bodies (the API read, the CSVs) are larger and asked for less often
BODIES = 128


def kept_body(kind: str, stored: Stored, make: Callable[[], str | bytes]) -> str | bytes:
    """A body drawn from a version of a match (in the page's language), made once
    by this process: a long match's CSV or record is not written out again for
    every download of the same version."""
    kept = current_app.extensions.setdefault("scorer.bodies", Recent(BODIES))
    return kept.get((kind, stored.pub, stored.version, str(get_locale())), make)


def draw(template: str, context: dict) -> Markup:
    return Markup(render_template(template, **context))
