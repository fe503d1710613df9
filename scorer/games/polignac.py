"""Polignac: avoid the jacks, above all J♠, the Polignac (RULES.md; Boussac 1896
and Wikipedia, named in the Polish card-game book, seed 000).

Cards rank K Q J A 10 9 8 7 in each suit. A player may declare capot (every
trick) when the table plays that option. The French way deals and plays to the
right.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import display, is_card, pack
from ..i18n import L_, _, and_list, join, ngettext, pgettext
from .base import (
    ENTRY_LABELS,
    EntryError,
    Field,
    Figure,
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
    seat,
    tally,
)
from .tricks import Captured, Setup

RANKS = ("K", "Q", "J", "A", "10", "9", "8", "7")  # high to low
JACKS = {"JS": 2, "JC": 1, "JH": 1, "JD": 1}  # J♠ is the Polignac
CAPOT = 5  # a made capot costs every other player 5; a failed one the declarer 5
SEVENS = {"black": ("7S", "7C"), "red": ("7H", "7D")}


class Polignac(Game):
    key = "polignac"
    name = L_("Polignac")
    player_counts = (4, 3, 5, 6)
    entry_labels = {**ENTRY_LABELS, "capot.made": L_("capot")}
    decisions = ("capot",)
    higher_wins = False
    source = L_("named in the Polish card-game book; the rules from Boussac (1896) and Wikipedia")
    mark_legend = L_("✓ made a capot · ✗ declared a capot and did not make it")
    options = (
        Option(
            "sevens",
            "choice",
            "black",
            L_("Sevens taken out"),
            L_("With 3, 5 or 6 players two sevens leave the pack."),
            source=L_("Boussac: either colour; Wikipedia: the black"),
            choices=("black", "red"),
            choice_labels=(L_("7♠ 7♣"), L_("7♥ 7♦")),
        ),
        Option(
            "capot",
            "bool",
            False,
            L_("Capot"),
            L_(
                "Before the first lead a player may declare to take every trick: made, "
                "every other player scores 5; failed, the declarer scores 5 more."
            ),
            source=L_("Boussac, Wikipedia; the jacks of a failed capot: house rule"),
        ),
        *end_options(
            20,
            L_("The first player to reach this total loses; the others share the win."),
            end_help=L_(
                "Play until a player reaches the target (that player loses), "
                "or a fixed number of deals (lowest wins)."
            ),
            end_source=L_(
                "Boussac, Wikipedia: the target; English card-game books: a number of deals"
            ),
            target_source=L_("Boussac: 10, 15 or 20; Wikipedia: 10 or 20"),
            deals_source=L_("English card-game books"),
        ),
        Option(
            "direction",
            "choice",
            "clockwise",
            L_("Direction"),
            L_(
                "Counter-clockwise: the deal passes to the right and the dealer's "
                "right-hand neighbour leads."
            ),
            source=L_("French tradition"),
            choices=("clockwise", "counterclockwise"),
            choice_labels=(L_("Clockwise (to the left)"), L_("Counter-clockwise (to the right)")),
        ),
    )

    @property
    def step(self) -> int:
        """+1: deal and play go left; -1: they go right."""
        return -1 if self.opts["direction"] == "counterclockwise" else 1

    @property
    def removed(self) -> tuple[str, ...]:
        return () if self.n == 4 else SEVENS[self.opts["sevens"]]

    def dealer(self, state: Any) -> int:
        return (state["first_dealer"] + self.step * state["played"]) % self.n

    def plan(self, state: Any) -> Plan:
        dealer = self.dealer(state)
        number = state["played"] + 1
        hand = len(pack(RANKS, self.removed)) // self.n
        notes = [
            _(
                "Cards rank K Q J A 10 9 8 7 in each suit: the ace between the jack "
                "and the ten. No trumps."
            )
        ]
        notes.append(pack_note(self.removed, hand, _("the 32 cards")))
        if self.step < 0:
            notes.append(_("Deal and play go to the right."))
        fields = [
            Field("owner", f"taken_by.{j}", _("Who took %(card)s?", card=display(j)), cards=(j,))
            for j in JACKS
        ]
        if self.opts["capot"]:
            notes.append(_("Before the first lead a player may declare capot."))
            fields += [
                Field(
                    "seat_choice",
                    "capot.seat",
                    _("Capot declared by"),
                    optional=True,
                    help=_("Leave on nobody when no one declared."),
                ),
                Field(
                    "flag",
                    "capot.made",
                    _("The capot was made (every trick)"),
                    help=_("After a made capot the jacks may be left out."),
                ),
            ]
        return Plan(
            number=number,
            dealer=dealer,
            leader=(dealer + self.step) % self.n,
            title=_("Deal %(n)s", n=number),
            notes=notes,
            fields=fields,
        )

    def check(self, entry: Any, plan: Plan) -> dict:
        entry = only_fields(entry, {"taken_by", "capot"})
        out: dict = {}
        capot = self.check_capot(entry)
        raw = entry.get("taken_by", {})
        if capot and capot["made"]:
            declarer = capot["seat"]
            if not isinstance(raw, dict) and raw is not None:
                raise EntryError(_("taken_by must say who took each card"), "taken_by")
            for jack, who in (raw or {}).items():
                if jack not in JACKS:
                    raise EntryError(
                        _(
                            "%(card)s is not scored in this deal",
                            card=display(jack) if is_card(jack) else str(jack)[:20],
                        ),
                        "taken_by",
                    )
                if who is not None and seat(who, self.n, display(jack)) != declarer:
                    raise EntryError(
                        _(
                            "%(name)s made a capot and took every trick, so %(card)s cannot be "
                            "%(other)s's",
                            name=self.names[declarer],
                            card=display(jack),
                            other=self.names[who],
                        ),
                        "taken_by",
                    )
            out["taken_by"] = dict.fromkeys(JACKS, declarer)
        else:
            out["taken_by"] = owners(raw, tuple(JACKS), self.n)
        if capot:
            out["capot"] = capot
        return out

    def check_capot(self, entry: dict) -> dict | None:
        if "capot" not in entry:
            return None
        if not self.opts["capot"]:
            raise EntryError(
                _("capot is not played in this match (the capot option is off)"), "capot"
            )
        raw = entry["capot"]
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise EntryError(
                _(
                    "capot must say who declared it and whether it was made: "
                    '{"seat": 0, "made": true}'
                ),
                "capot",
            )
        only_fields(raw, {"seat", "made"})
        if raw.get("seat") is None:
            raise EntryError(_("say who declared the capot"), "capot")
        made = raw.get("made")
        if not isinstance(made, bool):
            raise EntryError(_("capot made must be true or false"), "capot")
        return {"seat": seat(raw["seat"], self.n, _("the capot's declarer")), "made": made}

    def score(self, entry: dict, plan: Plan) -> Score:
        n = self.n
        capot = entry.get("capot")
        if capot and capot["made"]:
            s = capot["seat"]
            points = [0 if o == s else CAPOT for o in range(n)]
            text = [
                (_("capot made") if o == s else _("%(name)s's capot", name=self.names[s]))
                + f" → {points[o]}"
                for o in range(n)
            ]
            return Score(
                points,
                text,
                _("%(name)s made a capot", name=self.names[s]),
                tag=_("capot"),
                marks=["✓" if o == s else "" for o in range(n)],
            )
        points = [0] * n
        lines: list[list[str]] = [[] for _s in range(n)]
        for jack, value in JACKS.items():
            s = entry["taken_by"][jack]
            points[s] += value
            lines[s].append(display(jack))
        note = tag = ""
        marks = [""] * n
        if capot:
            s = capot["seat"]
            points[s] += CAPOT
            lines[s].append(_("failed capot"))
            note = _("%(name)s's capot failed", name=self.names[s])
            tag = _("capot ✗")
            marks[s] = "✗"
        text = score_lines(lines, points)
        return Score(points, text, note, tag, marks)

    # --- the engine: K Q J A 10 9 8 7, no trumps; play goes the way of the deal -----
    def engine_pack(self) -> tuple[str, ...]:
        return pack(RANKS, self.removed)

    def engine_costs(self) -> tuple[dict[str, int], int]:
        return dict(JACKS), 0

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        return replace(super().engine_setup(plan, given), ranks=RANKS, step=self.step)

    def entry_value(self, key: str, value: Any) -> Any | None:
        if isinstance(value, bool):  # a capot's "made"
            return pgettext("capot", "made") if value else pgettext("capot", "not made")
        return None

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        entry: dict = {"taken_by": {j: captured.who_took(j) for j in JACKS}}
        capot = given.get("capot")
        if (
            isinstance(capot, dict)
            and isinstance(capot.get("seat"), int)
            and not isinstance(capot.get("seat"), bool)
        ):
            made = all(w == capot["seat"] for w in captured.winners)
            entry["capot"] = {**capot, "made": made}
        return entry

    def outcome(self, totals: list[int], played: int) -> Outcome:
        if not self.end_reached(totals, played):
            return Outcome(False)
        if self.opts["end"] == "deals":
            return Outcome(True, self.best(totals))
        target = self.opts["target"]
        losers = [s for s in range(self.n) if totals[s] >= target]  # end_reached: some
        winners = [s for s in range(self.n) if totals[s] < target] or self.best(totals)
        note = ngettext(  # one loser or several: "Przegrywa Ala", "Przegrywają Ala i Bartek"
            "Lost, at %(target)s or more: %(names)s",
            "Lost, at %(target)s or more: %(names)s",
            len(losers),
            target=target,
            names=and_list(self.names[s] for s in losers),
        )
        return Outcome(True, winners, note)

    def figures(self, rows: list) -> list[Figure]:
        """Capots made (declared, and every trick taken)."""

        def made(entry: dict, plan: Plan) -> list[int]:
            capot = entry.get("capot")
            return [capot["seat"]] if capot and capot["made"] else []

        return [tally(self.n, rows, "capots_made", _("Capots made"), made)]

    def describe(self, entry: dict, plan: Plan) -> str:
        parts = []
        capot = entry.get("capot")
        for s in range(self.n):
            taken = [display(j) for j in JACKS if entry["taken_by"][j] == s]
            if taken and not (capot and capot["made"]):
                parts.append(self.took(s, join(", ", taken)))
        if capot:
            name = self.names[capot["seat"]]
            parts.append(
                _("%(name)s made a capot", name=name)
                if capot["made"]
                else _("%(name)s's capot failed", name=name)
            )
        return join("; ", parts)
