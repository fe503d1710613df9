"""Slobberhannes: avoid the first trick, the last trick and the queen of clubs
(RULES.md; the Polish card-game book, seed 000, the 8-card game).
"""

from __future__ import annotations

from typing import Any

from ..cards import display, pack
from ..i18n import L_, _, join, pgettext
from .base import (
    ENTRY_LABELS,
    Field,
    Game,
    Option,
    Outcome,
    Plan,
    Score,
    end_options,
    only_fields,
    owners,
    pack_note,
    score_lines,
    took_question,
)
from .tricks import Captured, Setup

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
REMOVED = {3: ("7S", "7C"), 4: (), 5: ("7S", "7C"), 6: ("7S", "7C")}
PENALTIES = ("first_trick", "last_trick", "QC")  # in the order the form asks
WORDS = {"first_trick": L_("the first trick"), "last_trick": L_("the last trick"), "QC": L_("Q♣")}
# the tricks as "say who took …" names them (the accusative: "pierwszą lewę")
TOOK = {
    # TRANSLATORS: named after "say who took", as its object (the accusative)
    "first_trick": pgettext("took", "the first trick"),
    # TRANSLATORS: named after "say who took", as its object (the accusative)
    "last_trick": pgettext("took", "the last trick"),
}


class Slobberhannes(Game):
    key = "slobberhannes"
    name = L_("Slobberhannes")
    player_counts = (4, 3, 5, 6)
    entry_labels = {**ENTRY_LABELS, **WORDS}
    higher_wins = False
    source = L_("the Polish card-game book (the 8-card game)")
    options = (
        Option(
            "classic",
            "bool",
            False,
            L_("Classic scoring"),
            L_(
                "Q♣ costs 1, not 2; a player who takes the first trick, the last trick "
                "and Q♣ pays 1 more."
            ),
            source=L_("English card-game books"),
        ),
        *end_options(
            10,
            L_("The match ends when a player reaches this many penalty points; lowest wins."),
            target_source=L_("the Polish card-game book"),
            end_source=L_("the Polish card-game book: the target"),
            deals_source=L_("house rule"),
        ),
    )

    @property
    def values(self) -> dict[str, int]:
        return {"first_trick": 1, "last_trick": 1, "QC": 1 if self.opts["classic"] else 2}

    def plan(self, state: Any) -> Plan:
        dealer = self.dealer(state)
        number = state["played"] + 1
        removed = REMOVED[self.n]
        hand = len(pack(RANKS, removed)) // self.n
        note = pack_note(removed, hand, _("the 32 cards (A K Q J 10 9 8 7)"))
        # a trick asked as a card is, the trick the object of "took" (took_question);
        # the queen as every game asks of a card
        fields = [
            Field("owner", f"taken_by.{p}", took_question(TOOK[p]))
            if p != "QC"
            else Field("owner", "taken_by.QC", _("Who took %(card)s?", card=display("QC")))
            for p in PENALTIES
        ]
        return Plan(
            number=number,
            dealer=dealer,
            leader=(dealer + 1) % self.n,
            title=_("Deal %(n)s", n=number),
            notes=[note, _("No trumps.")],
            fields=fields,
        )

    def check(self, entry: Any, plan: Plan) -> dict:
        entry = only_fields(entry, {"taken_by"})
        return {
            "taken_by": owners(entry.get("taken_by"), PENALTIES, self.n, labels=WORDS, asked=TOOK)
        }

    def score(self, entry: dict, plan: Plan) -> Score:
        points = [0] * self.n
        lines: list[list[str]] = [[] for _s in range(self.n)]
        for p, value in self.values.items():
            s = entry["taken_by"][p]
            points[s] += value
            lines[s].append(WORDS[p])
        note = ""
        everything = self.took_everything(entry)
        if everything is not None and self.opts["classic"]:
            points[everything] += 1
            lines[everything].append(_("all three: 1 more"))
            note = _("%(name)s took all three", name=self.names[everything])
        text = score_lines(lines, points)
        return Score(points, text, note)

    # --- the engine: no trumps, follow suit ------------------------------------------
    def engine_pack(self) -> tuple[str, ...]:
        return pack(RANKS, REMOVED[self.n])

    def engine_costs(self) -> tuple[dict[str, int], int]:
        return {"QC": self.values["QC"]}, 0

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        return {
            "taken_by": {
                "first_trick": captured.winners[0],
                "last_trick": captured.winners[-1],
                "QC": captured.who_took("QC"),
            }
        }

    @staticmethod
    def took_everything(entry: dict) -> int | None:
        seats = set(entry["taken_by"].values())
        return seats.pop() if len(seats) == 1 else None

    def outcome(self, totals: list[int], played: int) -> Outcome:
        if not self.end_reached(totals, played):
            return Outcome(False)
        return Outcome(True, self.best(totals))

    def describe(self, entry: dict, plan: Plan) -> str:
        parts = []
        for s in range(self.n):
            taken = [WORDS[p] for p in PENALTIES if entry["taken_by"][p] == s]
            if taken:
                parts.append(self.took(s, join(", ", taken)))
        return join("; ", parts)
