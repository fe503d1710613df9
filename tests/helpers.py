"""Small helpers shared by the tests: build a record and replay it."""

from __future__ import annotations

from scorer.record import load

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]


def record(game: str, deals: list, players: int | list = 4, options: dict | None = None,
           first_dealer: int = 0) -> dict:
    names = NAMES[:players] if isinstance(players, int) else players
    return {"format": "scorer-record", "version": 1, "game": game, "options": options or {},
            "players": names, "first_dealer": first_dealer, "deals": deals}


def computed(game: str, deals: list, players: int | list = 4, options: dict | None = None,
             first_dealer: int = 0) -> dict:
    _match, standings = load(record(game, deals, players, options, first_dealer))
    return standings.computed()


def points(game: str, deal: dict, players: int | list = 4, options: dict | None = None) -> list[int]:
    """The points of one deal, per seat."""
    return computed(game, [deal], players, options)["per_deal"][0]
