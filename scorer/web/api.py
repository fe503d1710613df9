"""The JSON API of RECORD.md: matches and deals, in the record's own shapes."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request

from .. import store
from ..match import DealError
from ..record import RecordError, dump, load, read_json
from ..i18n import _
from . import db
from .matches import get_match as _match

bp = Blueprint("api", __name__, url_prefix="/api")


def refuse(message: str, code: int = 400):
    return jsonify(error=message), code


def body():
    if not request.is_json:
        abort(415)
    try:
        return read_json(request.get_data())
    except RecordError as e:
        raise _bad(_("the body cannot be read: %(why)s", why=e.message)) from None


def _bad(message: str):
    from werkzeug.exceptions import BadRequest

    e = BadRequest()
    e.scorer_message = message
    return e


@bp.post("/matches")
def create_match():
    data = body()
    try:
        match, standings = load(data)
    except RecordError as e:
        return refuse(e.message)
    match_id = store.create(db(), match, kind="api")
    return jsonify(dump(match, standings, match_id)), 201


@bp.get("/matches/<int:match_id>")
def get_match(match_id: int):
    return jsonify(dump(_match(match_id), match_id=match_id))


@bp.post("/matches/<int:match_id>/deals")
def add_deal(match_id: int):
    _match(match_id)
    data = body()
    try:
        standings = store.add_deal(db(), match_id, data)
    except DealError as e:
        return refuse(e.message)
    return jsonify(standings.computed()), 201


@bp.route("/matches/<int:match_id>/deals/<int:number>", methods=["PUT", "DELETE"])
def change_deal(match_id: int, number: int):
    match = _match(match_id)
    if not 1 <= number <= len(match.deals):
        return refuse(_("there is no deal %(n)s", n=number), 404)
    try:
        if request.method == "PUT":
            standings = store.edit_deal(db(), match_id, number, body())
        else:
            standings = store.delete_deal(db(), match_id, number)
    except DealError as e:
        return refuse(e.message)
    return jsonify(standings.computed()), 200
