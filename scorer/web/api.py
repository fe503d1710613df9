"""The JSON API of docs/record.md: matches and deals, in the record's own shapes.

Reads carry an ``ETag`` (the match's version); a write may carry ``If-Match``
(412 and nothing stored when the match has changed since) and
``Idempotency-Key`` (a repeat answers as the first request did and stores
nothing more). A write to a match or deal that has gone is a 404 with a
message, never a 500.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, request
from werkzeug.exceptions import BadRequest

from .. import store
from ..i18n import _
from ..match import DealError
from ..record import RecordError, dump, load, read_json
from ..store import get_db as db
from . import access
from .drawn import kept_body
from .forms import whole_number
from .lookup import match_or_404

bp = Blueprint("api", __name__, url_prefix="/api")
KEY_MAX = 200  # characters of an Idempotency-Key


def refuse(message: str, code: int = 400):
    return jsonify(error=message), code


def body():
    if not request.is_json:
        abort(415)
    try:
        return read_json(request.get_data())
    except RecordError as e:
        raise bad_request(_("the body cannot be read: %(why)s", why=e.message)) from None


def bad_request(message: str) -> BadRequest:
    e = BadRequest()
    e.scorer_message = message
    return e


def if_match(match_id: str) -> int | None:
    """The match version ``If-Match`` names (None: no header, or ``*``). A tag
    that names no version of this match can never hold: -1. The store checks it
    inside the write, after a repeat's first answer has had its chance."""
    if not request.headers.get("If-Match") or request.if_match.star_tag:
        return None
    for tag in request.if_match.as_set():
        left, dot, right = tag.partition(".")
        if left == str(match_id) and dot and right.isascii() and right.isdigit():
            return int(right)
    return -1


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > KEY_MAX or not key.isprintable():
        raise bad_request(_("Idempotency-Key must be 1 to %(n)s printable characters", n=KEY_MAX))
    return key


def with_etag(response, match_id: str, version: int):
    response.set_etag(f"{match_id}.{version}")
    return response


def answer(match_id: str, write):
    """Run a store write; its outcome, or its refusal, as JSON."""
    try:
        change = write()
    except DealError as e:
        return refuse(e.message)
    except store.Stale as e:
        return refuse(e.message, 412)
    except store.Gap as e:
        return jsonify(error=e.message, next=e.number), 409
    except store.KeyReused as e:
        return refuse(e.message, 422)
    except store.NotFound as e:
        return refuse(e.message, 404)
    if change.kind == "same":
        body = f'{{"deal":{change.number},"same":true,"computed":{change.computed_json()}}}'
        return with_etag(Response(body, mimetype="application/json"), match_id, change.version)
    if change.kind == "conflict":
        stored = store.get(db(), match_id)
        found = store.conflict(db(), stored, change.conflict)
        return with_etag(
            jsonify(
                error=stored.match.words("entered_differently", n=change.number),
                deal=change.number,
                stored=found["stored"],
                yours=found["entry"],
                conflict=change.conflict,
            ),
            match_id,
            change.version,
        ), 409
    code = 201 if change.kind == "add" else 200
    computed = Response(change.computed_json(), mimetype="application/json")
    return with_etag(computed, match_id, change.version), code


@bp.post("/matches")
def create_match():
    data = body()
    try:
        match, standings = load(data)
    except RecordError as e:
        return refuse(e.message)
    # The browser the request came from (a page's script) scores it; any client
    # gets the edit key, once, for its writes.
    stored = store.create(db(), match, kind="api", browser=access.browser())
    record = {**dump(match, standings, stored.pub), "edit_key": stored.edit_key}
    return with_etag(jsonify(record), stored.pub, stored.version), 201


@bp.get("/matches/<mid:match_id>")
def get_match(match_id: str):
    stored = match_or_404(match_id)

    def record() -> bytes:
        try:
            standings = store.standings(db(), stored)
        except DealError:
            standings = None  # dump leaves the computed block out; the deals are given
        return jsonify(dump(stored.match, standings, match_id)).get_data()

    body = kept_body("record", stored, record)
    response = with_etag(Response(body, mimetype="application/json"), match_id, stored.version)
    return response.make_conditional(request)


@bp.delete("/matches/<mid:match_id>")
def delete_match(match_id: str):
    access.require_key(match_id)
    try:
        store.delete_match(db(), match_id, if_version=if_match(match_id))
    except store.Stale as e:
        return refuse(e.message, 412)
    except store.NotFound as e:
        return refuse(e.message, 404)
    return jsonify(deleted=match_id), 200


@bp.post("/matches/<mid:match_id>/deals")
def add_deal(match_id: str):
    """The next deal; with ``?deal=N``, the table's deal N (docs/record.md): stored when
    it is the next, 200 "same" when deal N is stored and the same, 409 with both
    entries when it differs, 409 when a deal before it is not in yet."""
    access.require_key(match_id)
    data = body()
    version, key = if_match(match_id), idempotency_key()
    if "deal" in request.args:
        number = whole_number(request.args["deal"])
        if not number:
            raise bad_request(_("deal must be the number of a deal (1, 2, 3 …)"))
        return answer(
            match_id,
            lambda: store.record_deal(db(), match_id, number, data, if_version=version, key=key),
        )
    return answer(
        match_id, lambda: store.add_deal(db(), match_id, data, if_version=version, key=key)
    )


@bp.route("/matches/<mid:match_id>/deals/<int:number>", methods=["PUT", "DELETE"])
def change_deal(match_id: str, number: int):
    access.require_key(match_id)
    version, key = if_match(match_id), idempotency_key()
    if request.method == "PUT":
        data = body()
        return answer(
            match_id,
            lambda: store.edit_deal(db(), match_id, number, data, if_version=version, key=key),
        )
    return answer(
        match_id, lambda: store.delete_deal(db(), match_id, number, if_version=version, key=key)
    )


@bp.get("/matches/<mid:match_id>/history")
def history(match_id: str):
    """Every change in order (docs/record.md): when, what kind, which deal, the entry."""
    stored = match_or_404(match_id)
    changes = store.history(db(), stored.id)
    place = {line["id"]: n for n, line in enumerate(changes, 1)}  # an undo names its line
    lines = [
        {
            "at": line["at"],
            "kind": line["kind"],
            "deal": line["deal"],
            "entry": line["entry"],
            **({"before": line["before"]} if line["before"] is not None else {}),
            **({"undoes": place[line["undoes"]]} if line["undoes"] else {}),
        }
        for line in changes
    ]
    return with_etag(jsonify(history=lines), stored.pub, stored.version).make_conditional(request)
