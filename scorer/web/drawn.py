"""Parts of pages drawn once and kept by this process (:class:`Drawn`): what
is drawn from a version of a match is never drawn again for it."""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import (
    current_app,
    render_template,
)
from markupsafe import Markup


class Drawn:
    """Parts of pages drawn once and kept by this process, the latest ``size``: the
    sheet's head and tail (chart, deals, words), under the sheet's ETag, which
    names all they are drawn from (the match's version, the language, scorer or
    watcher, all deals or the latest). Every write makes a new version, so a kept
    part is never stale; a worker that has not drawn it yet draws it."""

    def __init__(self, size: int = 32):
        self.size = size
        self.parts: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, draw):
        with self.lock:
            if key in self.parts:
                self.parts.move_to_end(key)
                return self.parts[key]
        part = draw()
        with self.lock:
            self.parts[key] = part
            while len(self.parts) > self.size:
                self.parts.popitem(last=False)
        return part


def drawn() -> Drawn:
    """This app's kept parts (a test's app has its own)."""
    return current_app.extensions.setdefault("scorer.drawn", Drawn())


def draw(template: str, context: dict) -> Markup:
    return Markup(render_template(template, **context))
