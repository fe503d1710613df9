"""Small helpers shared by the tests: build a record and replay it."""

from __future__ import annotations

from functools import partial

import pytest

from scorer.record import RecordError, load

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]


def record(
    game: str,
    deals: list,
    players: int | list = 4,
    options: dict | None = None,
    first_dealer: int = 0,
) -> dict:
    names = NAMES[:players] if isinstance(players, int) else players
    return {
        "format": "scorer-record",
        "version": 1,
        "game": game,
        "options": options or {},
        "players": names,
        "first_dealer": first_dealer,
        "deals": deals,
    }


def computed(
    game: str,
    deals: list,
    players: int | list = 4,
    options: dict | None = None,
    first_dealer: int = 0,
) -> dict:
    _match, standings = load(record(game, deals, players, options, first_dealer))
    return standings.computed()


def points(
    game: str, deal: dict, players: int | list = 4, options: dict | None = None
) -> list[int]:
    """The points of one deal, per seat."""
    return computed(game, [deal], players, options)["per_deal"][0]


def make_record(
    game: str,
    deals: list,
    options: dict | None = None,
    players: int = 4,
    first_dealer: int = 0,
    names: list[str] | None = None,
) -> dict:
    rec = {
        "format": "scorer-record",
        "version": 1,
        "game": game,
        "players": names or NAMES[:players],
        "first_dealer": first_dealer,
        "deals": deals,
    }
    if options is not None:
        rec["options"] = options
    return rec


def replay(make, deals: list, **kw) -> dict:
    return load(make(deals, **kw))[1].computed()


def refusal(make, deals: list, **kw) -> str:
    """The message a record is refused with (the test fails if it is accepted)."""
    with pytest.raises(RecordError) as e:
        load(make(deals, **kw))
    return e.value.message


def bind(game: str, **defaults):
    """record, computed and refused for one game's tests."""
    make = partial(make_record, game, **defaults)
    return make, partial(replay, make), partial(refusal, make)
