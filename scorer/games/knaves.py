"""Knaves: three players, a point for every trick, points off for the jacks
(RULES.md; the Polish card-game book, seed 000, "Tradycyjny angielski wariant").

The last card of the pack is turned up for trump and takes no part in play,
so every deal has 17 tricks; when that card is a jack, the jack is out of
play and scores for nobody.
"""

from __future__ import annotations

from typing import Any

from ..cards import FULL_PACK, SYMBOLS, display, parse, suit_of
from ..i18n import L_, _, join, ngettext, pgettext, sentence
from .base import (
    DEAL_WORDS,
    EntryError,
    Field,
    Figure,
    Game,
    Option,
    Outcome,
    Plan,
    Score,
    count_words,
    counts,
    only_fields,
    owners,
    score_lines,
    tally,
    took_no_trick,
)
from .tricks import Captured, Setup

TRICKS = 17  # 52 cards: 17 each to three players, the 52nd turned up
JACKS = ("JH", "JD", "JC", "JS")
JACK_VALUES = {"JH": -4, "JD": -3, "JC": -2, "JS": -1}


class Knaves(Game):
    key = "knaves"
    name = L_("Knaves")
    player_counts = (3,)
    # the sheet CSV's note column holds each deal's trump suit (a turned-up jack's in
    # full): "trumps"
    deal_words = {**DEAL_WORDS, "note": pgettext("knaves", "note")}
    players_option = False
    decisions = ("turn_up",)
    higher_wins = True
    source = L_(
        "the Polish card-game book (“Tradycyjny angielski wariant”: the traditional English game)"
    )
    options = (
        Option(
            "target",
            "int",
            20,
            L_("Target"),
            L_("The match ends when a player has this many points; the highest total wins."),
            source=L_("the Polish card-game book (20; 21 in some sources)"),
            low=1,
            high=100_000,
        ),
        Option(
            "jack_values",
            "map",
            lambda o: dict(JACK_VALUES),
            L_("Jack values"),
            L_(
                "Points for taking each jack: J♥ −4, J♦ −3, J♣ −2, J♠ −1 unless "
                "the table agrees otherwise."
            ),
            source=L_("the defaults: the Polish card-game book"),
            choices=JACKS,
            choice_labels=tuple(display(j) for j in JACKS),
            low=-100,
            high=100,
        ),
    )

    def plan(self, state: Any) -> Plan:
        dealer = self.dealer(state)
        number = state["played"] + 1
        notes = [
            _(
                "17 cards each; turn the last card up: its suit is trump and it takes no "
                "part in play."
            )
        ]
        fields = [
            Field("counts", "tricks", _("Tricks taken"), total=TRICKS, high=TRICKS),
            Field(
                "card",
                "turn_up",
                _("The turned-up card (trump)"),
                cards=FULL_PACK,
                help=_("A jack turned up is out of play and scores for nobody."),
            ),
        ]
        for jack in JACKS:
            fields.append(
                Field(
                    "owner",
                    f"taken_by.{jack}",
                    _("Who took %(card)s?", card=display(jack)),
                    cards=(jack,),
                    optional=True,
                )
            )
        return Plan(
            number=number,
            dealer=dealer,
            leader=(dealer + 1) % self.n,
            title=_("Deal %(n)s", n=number),
            notes=notes,
            fields=fields,
        )

    def check(self, entry: Any, plan: Plan) -> dict:
        entry = only_fields(entry, {"tricks", "taken_by", "turn_up"})
        out: dict = {
            "tricks": counts(
                entry.get("tricks"), self.n, "tricks", TRICKS, pgettext("taken", "tricks")
            )
        }
        turn_up = None
        if entry.get("turn_up") is not None:
            turn_up = parse(entry["turn_up"])
            if turn_up is None:
                raise EntryError(_("turn_up must be a card, such as JH or 10S"), "turn_up")
            out["turn_up"] = turn_up
        out_of_play = frozenset({turn_up} & set(JACKS))
        raw = entry.get("taken_by", {})
        if isinstance(raw, dict):
            for jack in out_of_play:
                if raw.get(jack) is not None:
                    raise EntryError(
                        _(
                            "%(card)s was turned up: it takes no part in play, so nobody took it",
                            card=display(jack),
                        ),
                        "taken_by",
                    )
            for jack in JACKS:  # "out of play" said of a jack that was not turned up
                if jack in raw and raw[jack] is None and jack not in out_of_play:
                    if turn_up is None:  # or the turned-up card was not given
                        raise EntryError(
                            _(
                                "%(card)s is out of play only if it was the turned-up card: "
                                "pick it there, or say who took it",
                                card=display(jack),
                            ),
                            "taken_by",
                        )
                    raise EntryError(
                        _(
                            "%(card)s was not turned up, so it was in play: say who took it",
                            card=display(jack),
                        ),
                        "taken_by",
                    )
        taken_by = owners(raw, JACKS, self.n, optional=out_of_play)
        for s in range(self.n):
            jacks = [j for j in JACKS if taken_by[j] == s]
            jack_words = ngettext("%(num)s jack", "%(num)s jacks", len(jacks))
            if jacks and not out["tricks"][s]:
                raise EntryError(took_no_trick(self.names[s], jack_words), "taken_by")
            if len(jacks) > 3 * out["tricks"][s]:
                raise EntryError(
                    ngettext(
                        "%(name)s took %(tricks)s (%(cards)s card): too few for %(jacks)s",
                        "%(name)s took %(tricks)s (%(cards)s cards): too few for %(jacks)s",
                        3 * out["tricks"][s],
                        name=self.names[s],
                        cards=3 * out["tricks"][s],
                        tricks=count_words("tricks", out["tricks"][s], took=True),
                        jacks=jack_words,
                    ),
                    "taken_by",
                )
        out["taken_by"] = taken_by
        return out

    def score(self, entry: dict, plan: Plan) -> Score:
        values = self.opts["jack_values"]
        points = list(entry["tricks"])
        lines: list[list[str]] = [
            [ngettext("%(num)s trick", "%(num)s tricks", k)] if k else [] for k in entry["tricks"]
        ]
        for jack in JACKS:
            s = entry["taken_by"][jack]
            if s is not None:
                points[s] += values[jack]
                lines[s].append(display(jack))
        text = score_lines(lines, points)
        turn_up = entry.get("turn_up")
        # a line of its own: begins with a capital («Открытая карта: 3♦»); the same
        # words stay small inside the entry in words (describe)
        note = sentence(_("%(card)s turned up", card=display(turn_up))) if turn_up else ""
        # the trump suit beside the deal number; a turned jack (out of play) in full
        tag = ""
        if turn_up:
            tag = display(turn_up) if turn_up in JACKS else SYMBOLS[suit_of(turn_up)]
        return Score(points, text, note, tag=tag)

    # --- the engine: the card left after the deal is turned up for trump ------------
    def engine_pack(self) -> tuple[str, ...]:
        return FULL_PACK

    def engine_costs(self) -> tuple[dict[str, int], int]:
        return {j: -v for j, v in self.opts["jack_values"].items()}, -1

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        setup = super().engine_setup(plan, given)
        setup.tricks = TRICKS
        setup.turn_up = True
        turned_up = parse(given.get("turn_up"))
        if turned_up is not None:
            setup.turned_up, setup.trump = turned_up, suit_of(turned_up)
        return setup

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        return {
            "tricks": captured.tricks(),
            "turn_up": captured.turned_up,
            "taken_by": {j: captured.who_took(j) for j in JACKS},
        }

    def outcome(self, totals: list[int], played: int) -> Outcome:
        if max(totals) < self.opts["target"]:
            return Outcome(False)
        if len(self.best(totals)) > 1:
            return Outcome(
                False, note=_("Two or more players share the highest total at the target: play on.")
            )
        return Outcome(True, self.best(totals))

    def figures(self, rows: list) -> list[Figure]:
        """Jacks taken (a jack turned up is nobody's)."""
        return [
            tally(
                self.n,
                rows,
                "jacks_taken",
                # TRANSLATORS: a player's statistic, beside "Games played", "Moons shot"
                pgettext("stat", "Jacks taken"),
                lambda entry, plan: [s for s in entry["taken_by"].values() if s is not None],
            )
        ]

    def describe(self, entry: dict, plan: Plan) -> str:
        parts = []
        for s in range(self.n):
            taken = [ngettext("%(num)s trick", "%(num)s tricks", entry["tricks"][s])]
            taken += [display(j) for j in JACKS if entry["taken_by"][j] == s]
            parts.append(self.took(s, join(", ", taken)))
        if entry.get("turn_up"):
            parts.append(_("%(card)s turned up", card=display(entry["turn_up"])))
        return join("; ", parts)
