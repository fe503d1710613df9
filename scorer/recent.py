"""What this process made lately and may be asked for again (:class:`Recent`):
the latest few, each made once. Its users key what they keep by a match's
public id and version, which every change moves on, so nothing kept is ever
stale; a process that has not made it yet makes it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

_MISSING = object()


class Recent:
    """The latest ``size`` things made, by key (least recently used goes first)."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: Hashable, default: Any = None) -> Any:
        """What is kept under ``key``, or ``default``."""
        with self.lock:
            found = self.items.get(key, _MISSING)
            if found is _MISSING:
                return default
            self.items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key`` (in place of what was kept there)."""
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """What is kept under ``key``, made (and kept) if it is not."""
        found = self.peek(key, _MISSING)
        if found is not _MISSING:
            return found
        made = make()
        with self.lock:
            self.items[key] = made
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return made
