"""Persistence with sqlite-utils: matches, their deals, an append-only events
log, and the answers given to writes that carried an idempotency key.

What the table said is the truth stored (game, options, players, first dealer,
the deal entries); every figure is computed by ``scorer.match``. Each match's
summary is written with every change, for the lists. One idea a module:

- :mod:`.db`: the connection, the write transaction (``BEGIN IMMEDIATE``: two
  phones or two workers saving at once take turns), the errors;
- :mod:`.stored`: a match as stored (:class:`Stored`), found by id;
- :mod:`.kept`: the one cache (the standings folded lately) and the summaries;
- :mod:`.listing`: what lists show, the trash, what a browser is to a match;
- :mod:`.writes`: every change, each a line of the history, with its
  preconditions (a page's mark, the API's ``If-Match``) and idempotency keys;
- :mod:`.deal_n`: the table's deal N, recorded by several phones once;
- :mod:`.history`: the history, and Undo.

The rest of Scorer uses this package's names (``store.get``, ``store.record_deal``).
"""

from .. import schema
from .db import (
    Busy,
    Gap,
    KeyReused,
    NotFound,
    Stale,
    StoreError,
    Undone,
    close_db,
    connect,
    get_db,
    now,
    writing,
)
from .deal_n import (
    CHOICES,
    anchored,
    choose,
    choose_together,
    conflict,
    conflicts,
    deleted_deal,
    record_deal,
    revive_deal,
)
from .history import UNDONE_AS, change, events, history, undo
from .kept import (
    STAMP,
    forget_recent,
    forget_summaries,
    init_app,
    pass_versions,
    rebuild,
    refresh_summaries,
    standings,
)
from .listing import (
    PER_PAGE,
    TRASH_DAYS,
    Summary,
    choices,
    listing,
    page_rows,
    remember,
    role_of,
    summaries,
    summarize,
    trash_since,
)
from .stored import Stored, edit_key, get, keys_match, legacy_pub, version_of
from .writes import (
    Change,
    add_deal,
    change_setup,
    create,
    create_all,
    delete_deal,
    delete_match,
    edit_deal,
    parse_mark,
    restore_match,
)

__all__ = [
    "Busy",
    "CHOICES",
    "PER_PAGE",
    "STAMP",
    "TRASH_DAYS",
    "UNDONE_AS",
    "Change",
    "Gap",
    "KeyReused",
    "NotFound",
    "Stale",
    "StoreError",
    "Stored",
    "Summary",
    "Undone",
    "add_deal",
    "anchored",
    "change",
    "change_setup",
    "choices",
    "choose",
    "choose_together",
    "close_db",
    "conflict",
    "conflicts",
    "connect",
    "create",
    "create_all",
    "delete_deal",
    "delete_match",
    "deleted_deal",
    "edit_deal",
    "edit_key",
    "events",
    "forget_recent",
    "forget_summaries",
    "get",
    "get_db",
    "history",
    "init_app",
    "keys_match",
    "legacy_pub",
    "listing",
    "page_rows",
    "now",
    "parse_mark",
    "pass_versions",
    "rebuild",
    "refresh_summaries",
    "record_deal",
    "remember",
    "restore_match",
    "revive_deal",
    "role_of",
    "schema",
    "standings",
    "summaries",
    "summarize",
    "trash_since",
    "undo",
    "version_of",
    "writing",
]
