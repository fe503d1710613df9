"""A match's history in words, with Undo on each change that can still be
taken back, and the one-tap Undo of this browser's last change."""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .. import store
from ..games import GAMES, EntryError, Game
from ..i18n import Text, _, join, lowered
from ..match import DealError, Match, fold
from ..store import get_db as db
from . import access
from .forms import (
    ConfirmForm,
    resent,
)
from .lookup import form_key, match_or_404, new_key, scored_or_403, title

bp = Blueprint("history", __name__)


def last_change(stored: store.Stored) -> dict | None:
    """The change this browser made last to the match, while it is the match's
    latest and Undo can take it back: {"event", "label"}, for the sheet's one-tap
    Undo (its key made by the phone as it is sent, else ``form_key``). (Once
    another phone has changed the match, an Undo on the sheet would take back
    something the table has moved on from: the history still offers it.)"""
    mine = session.get("last_change") or {}
    event_id = mine.get(stored.pub)
    if not isinstance(event_id, int):
        return None
    line = store.change(db(), stored.id, event_id, latest=True)
    if line is None or not line["undoable"]:
        return None
    return {
        "event": event_id,
        "label": undo_label(line, stored.match),
    }


def remember_change(stored_pub: str, change: store.Change) -> None:
    mine = dict(session.get("last_change") or {})
    mine[stored_pub] = change.event
    session["last_change"] = dict(list(mine.items())[-20:])  # the last few matches


# A deal's change in the history, and its undo: the key of its words (Game.words).
CHANGE_WORDS = {
    **{"add": "saved", "edit": "changed", "delete": "deleted", "restore": "restored"},
    **{"same": "same", "conflict": "conflict", "keep": "kept"},
}
UNDO_WORDS = {
    **{"delete": "undo_deleted", "edit": "undo_edit", "restore": "undo_restored"},
    "reopen": "undo_reopen",
}


# What the sheet's Undo button says it takes back: the key of its words (Game.words).
UNDO_LABELS = {
    **{"add": "undo_add", "edit": "undo_change", "delete": "undo_delete"},
    **{"restore": "undo_restore", "same": "undo_twice", "conflict": "undo_twice"},
    "keep": "undo_keep",
}


def undo_label(line: dict, match: Match) -> Text | str:
    """The Undo button's words for the change ``line``: what it takes back ("Undo
    saving deal 3"), as one message per kind of change."""
    if line["kind"] == "setup":
        if line.get("undoes"):
            return _("Undo putting the players and options back")
        return _("Undo the change of players and options")
    if line.get("undoes") and line["deal"]:
        return match.words("undo_undo", n=line["deal"])
    if line["kind"] in UNDO_LABELS and line["deal"]:
        return match.words(UNDO_LABELS[line["kind"]], n=line["deal"])
    return _("Undo")


def change_words(line: dict, match: Match) -> str:
    """A line of the history in words (a deal in the game's words)."""
    n = line["deal"]
    kind = line["kind"]
    if line.get("undoes"):
        if kind == "setup":
            return _("Players and options put back (an undo).")
        return match.words(UNDO_WORDS[kind], n=n) if kind in UNDO_WORDS else kind
    if kind in CHANGE_WORDS:
        return match.words(CHANGE_WORDS[kind], n=n)
    words = {
        "delete_match": _("The match was moved to the trash."),
        "restore_match": _("The match was taken out of the trash."),
        "rematch": _("The match was started as a rematch."),
        "import": _("The match was imported from a record."),
        "setup": _("Players or options changed."),
    }
    return words.get(kind) or _("The match was started.")


def setup_words(game: type[Game], before: dict | None, after: dict | None) -> Text | str:
    """A change of the players and options in the table's words, what changed only:
    "Ala is now Alicja; Target 100 → 200" (never the record's keys)."""
    if not before or not after:
        return ""
    parts: list[Any] = [
        _("%(old)s is now %(new)s", old=old, new=new)
        for old, new in zip(before["players"], after["players"])
        if old != new
    ]
    for option in game.options:
        old, new = before["options"].get(option.key), after["options"].get(option.key)
        if old != new and old is not None and new is not None:
            parts.append(
                _(
                    "%(option)s: %(old)s → %(new)s",
                    option=option.label,
                    # after the colon: "Sestřelení měsíce: všichni ostatní dostanou 26"
                    old=lowered(option.value_words(old)),
                    new=lowered(option.value_words(new)),
                )
            )
    return join("; ", parts)


def line_words(match: Match, line: dict, field: str) -> Text | str:
    """A history line's entry (or what it replaced) in words; a set-up change says
    what changed, once (its "before" is in it)."""
    if line["kind"] == "setup":
        return (
            setup_words(GAMES[match.game], line["before"], line["entry"])
            if field == "entry"
            else ""
        )
    return entry_words(match, line[field], line["deal"]) if line["deal"] and line[field] else ""


def entry_words(match: Match, entry, number: int | None) -> str:
    """An entry as the sheet says it (who took what), for the history and the
    side-by-side choice; the record's own form if the rules cannot say it now."""
    if entry is None:
        return ""
    try:
        rules = match.rules
        deals = match.deals[: (number or len(match.deals) + 1) - 1]
        standings = fold(Match(match.game, match.options, match.players, match.first_dealer, deals))
        plan = standings.next or standings.rows[-1].plan
        checked = rules.check({k: v for k, v in entry.items() if k != "play"}, plan)
        return str(rules.describe(checked, plan))
    except (EntryError, DealError, IndexError, AttributeError, TypeError, ValueError):
        return json.dumps(entry, ensure_ascii=False)


@bp.get("/m/<mid:match_id>/history")
def history(match_id: str):
    """Every change of the match with its time, in words; Undo on each that can
    be taken back now (for its scorers)."""
    stored = match_or_404(match_id)
    lines = []
    for line in reversed(store.history(db(), stored.id)):
        # a deal that has moved since (one before it deleted): its Undo acts on it as it is
        now = stored.number_of(line["deal_id"]) if line["deal_id"] else None
        lines.append(
            {
                **line,
                "words": change_words(line, stored.match),
                "moved": stored.match.words("now_numbered", n=now)
                if now and line["deal"] and now != line["deal"]
                else "",
                "key": new_key(),  # a second tap on its Undo repeats, not redoes
                "now": line_words(stored.match, line, "entry"),
                "then": line_words(stored.match, line, "before"),
            }
        )
    return render_template(
        "history.html",
        match_id=match_id,
        match=stored.match,
        title=title(stored.match),
        lines=lines,
        can_score=access.can_score(stored),
        confirm=ConfirmForm(),
    )


@bp.post("/m/<mid:match_id>/undo/<int:event>")
def undo(match_id: str, event: int):
    stored = scored_or_403(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    # the sheet's one-tap Undo takes back this phone's change only while it is the
    # match's latest (another phone's save after it would be taken back with it);
    # the history's Undo of any change that can still be taken back
    sheet = request.form.get("back") != "history"
    try:
        change = store.undo(db(), stored.id, event, key=form_key(), latest=sheet)
    except DealError as e:
        flash(_("Not undone: %(why)s", why=e.message))
    except store.StoreError as e:
        flash(resent(e) or _("Not undone: %(why)s.", why=e.message))
        sheet = False  # the history, where it can still be undone
    else:
        remember_change(stored.pub, change)
        line = {"kind": change.kind, "deal": change.number, "undoes": event}
        flash(change_words(line, stored.match))
    return redirect(
        url_for("sheet.sheet", match_id=match_id)
        if sheet
        else url_for("history.history", match_id=match_id)
    )
