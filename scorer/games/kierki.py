"""Kierki, the Polish compendium game: seven negative deals (the "rozgrywka"),
the last of them the "rozbójnik" that counts everything at once, then the
positive "odgrywka": a trump deal dealt by each player in turn, who names
trumps after seeing the first cards, and a closing deal of fan tan
("loteryjka") that pays the first two players out (docs/rules.md, "Kierki").

The deals are data: :data:`NEGATIVE` and the two positive kinds say what each
counts and which play rules hold; :data:`VALUES` what everything is worth,
with four players and with three (2♣ out of the pack, 17 cards each). The
sixth deal's tricks are an option (:data:`SIXTH`).

Sources: pagat.com's "Kierki" and the Polish Wikipedia's (the numbers of the
four-player game, the hearts-led rule, the dealer naming trumps after five
cards, six with three players); the Polish card-game book as transcribed in
github.com/casper01/CardGames (the three-player figures, the fan tan's prizes,
the other ways of scoring the sixth deal, the K♥ "at the first chance" by
agreement); zasadygry.pl (the last two tricks, the K♥ at the first chance).

The engine plays every deal: the trick deals by the usual rules with the
rules of :class:`Contract`, the fan tan as a layout (``Setup.layout``), which
is not played in tricks and so is entered, and refused by the trick-by-trick
check, by who went out first and second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import pack
from ..i18n import L_, _, pgettext, signed
from .base import EntryError, Field, Option, Plan, Score, pack_note, score_lines, seat
from .compendium import Compendium, Contract
from .tricks import Captured, Setup

REMOVED = {4: (), 3: ("2C",)}  # three players: 2♣ out, 17 cards each
PACKS = {n: pack(without=removed) for n, removed in REMOVED.items()}
TRICKS = {n: len(cards) // n for n, cards in PACKS.items()}
SEEN = {4: 5, 3: 6}  # the cards the dealer sees before naming trumps


@dataclass(frozen=True)
class Values:
    """What everything is worth, with a number of players (points, all positive:
    the negative part's are taken off)."""

    tricks: int  # a trick, in deal 1 and the robber
    hearts: int  # a heart
    queens: int  # a queen
    kings_jacks: int  # a king or a jack
    king_of_hearts: int  # K♥
    marked: int  # the sixth deal's marked tricks together (75 each for two)
    trump_trick: int  # a trick in the odgrywka's trump deals
    fan_tan: tuple[int, ...]  # to the first player out, the second …


VALUES = {
    # pagat.com, the Polish Wikipedia; the fan tan's prizes the Polish card-game book's
    4: Values(20, 20, 60, 30, 150, 150, 25, (800, 500)),
    # the Polish card-game book (a trick 15, K♥ 140, the marked tricks 140; fan tan
    # 790 and 485), which balances as the four-player game does
    3: Values(15, 20, 60, 30, 140, 140, 25, (790, 485)),
}

NEGATIVE = (
    Contract("tricks", counts=("tricks",)),
    Contract("hearts", counts=("hearts",), no_heart_lead=True),
    Contract("queens", counts=("queens",)),
    Contract("kings_jacks", counts=("kings_jacks",)),
    Contract("king_of_hearts", owners=("KH",), no_heart_lead=True, king_first=True),
    Contract("marked", owners=("marked",)),
    Contract(
        "robber",
        counts=("tricks", "hearts", "queens", "kings_jacks"),
        owners=("KH", "marked"),
        no_heart_lead=True,
        king_first=True,
    ),
)
TRUMPS = Contract("trumps", counts=("tricks",), sign=1, trumps=True)
FAN_TAN = Contract("fan_tan", sign=1, fan_tan=True)
PLACES = ("first", "second")  # the fan tan's entry: who went out first, second

# The sixth deal: the tricks it marks, by their number (-1 the last, -2 the one before).
SIXTH = {
    "seventh_last": (7, -1),
    "last_two": (-2, -1),
    "last": (-1,),
    "third_seventh": (3, 7),
    "third_eighth": (3, 8),
}

NAMES = {
    "tricks": L_("no tricks"),
    "hearts": L_("no hearts"),
    "queens": L_("no queens"),
    "kings_jacks": L_("no kings or jacks"),
    "king_of_hearts": L_("no king of hearts"),
    "robber": L_("the robber (everything at once)"),
    "trumps": L_("trumps"),
    "fan_tan": L_("fan tan"),
}
SIXTH_NAMES = {
    "seventh_last": L_("no 7th and last trick"),
    "last_two": L_("no last two tricks"),
    "last": L_("no last trick"),
    "third_seventh": L_("no 3rd and 7th trick"),
    "third_eighth": L_("no 3rd and 8th trick"),
}


class Kierki(Compendium):
    key = "kierki"
    name = L_("Kierki")
    player_counts = (4, 3)
    higher_wins = True
    decisions = ("trump",)
    seat_fields = PLACES  # the fan tan's: who went out first, second
    source = L_(
        "pagat.com and the Polish Wikipedia; the three-player figures, the fan tan's prizes "
        "and the variants from the Polish card-game book and zasadygry.pl"
    )
    options = (
        Option(
            "sixth",
            "choice",
            "seventh_last",
            L_("The sixth deal"),
            L_(
                "Which tricks the sixth deal (and the robber) marks: 150 in all, 75 each "
                "for two (140 and 70 with three players)."
            ),
            source=L_(
                "pagat.com and the Polish Wikipedia: the 7th and the last; zasadygry.pl: "
                "the last two; the Polish card-game book: the last, or any of these"
            ),
            choices=tuple(SIXTH),
            choice_labels=(
                L_("The 7th and the last trick"),
                L_("The last two tricks"),
                L_("The last trick (150)"),
                L_("The 3rd and the 7th trick"),
                L_("The 3rd and the 8th trick"),
            ),
        ),
        Option(
            "king_first",
            "bool",
            True,
            L_("K♥ at the first chance"),
            L_(
                "In the deals that count K♥, whoever holds it must discard it the first "
                "time they cannot follow suit."
            ),
            source=L_(
                "zasadygry.pl and the walczynskir/Kierki program's rules; the Polish card-game "
                "book: by agreement"
            ),
        ),
        Option(
            "fan_tan_start",
            "choice",
            "any",
            L_("The fan tan's first card"),
            L_(
                "Any card, whose rank every row then starts from; or an eight, every row "
                "starting from an eight."
            ),
            source=L_(
                "the Polish Wikipedia: any card; the Polish card-game book and the "
                "walczynskir/Kierki program: an eight"
            ),
            choices=("any", "8"),
            choice_labels=(L_("Any card"), L_("An eight")),
        ),
    )

    @property
    def values(self) -> Values:
        return VALUES[self.n]

    @property
    def tricks(self) -> int:
        return TRICKS[self.n]

    @property
    def sequence(self) -> tuple[Contract, ...]:
        """Every deal of the match in order: the seven negative, a trump deal per
        player, the fan tan."""
        return NEGATIVE + (TRUMPS,) * self.n + (FAN_TAN,)

    def marked(self) -> tuple[int, ...]:
        """The numbers of the sixth deal's tricks (from 1)."""
        return tuple(k if k > 0 else self.tricks + 1 + k for k in SIXTH[self.opts["sixth"]])

    def entry_label(self, key: str, sub: str | None = None) -> Any:
        """The fan tan's places as its questions say them; the rest as every
        compendium game says them."""
        if key in PLACES:
            return {"first": _("who went out first"), "second": _("who went out second")}[key]
        return super().entry_label(key, sub)

    def contract_name(self, contract: Contract) -> Any:
        if contract.key == "marked":
            return SIXTH_NAMES[self.opts["sixth"]]
        return NAMES[contract.key]

    def worth(self, key: str, contract: Contract) -> int:
        v = self.values
        if contract.trumps:
            return v.trump_trick
        if key == "KH":
            return v.king_of_hearts
        if key.startswith("trick_"):
            return v.marked // len(self.marked())
        return getattr(v, key)

    def king_first(self) -> bool:
        return self.opts["king_first"]

    def pack_notes(self) -> list[Any]:
        return [pack_note(REMOVED[self.n], self.tricks)] if REMOVED[self.n] else []

    def rule_notes(self, contract: Contract, dealer: int, eldest: int) -> list[Any]:
        v, notes = self.values, []
        name = self.names[dealer]
        if contract.fan_tan:
            first, second = v.fan_tan
            if self.opts["fan_tan_start"] == "any":
                notes.append(
                    _(
                        "Fan tan, no tricks: %(name)s lays out any card; every suit's row "
                        "starts at its rank and grows up and down one card at a time.",
                        name=self.names[eldest],
                    )
                )
            else:
                notes.append(
                    _(
                        "Fan tan, no tricks: %(name)s lays out an eight, or the next player "
                        "who holds one does; every suit's row starts at an eight and grows "
                        "up and down one card at a time.",
                        name=self.names[eldest],
                    )
                )
            notes.append(
                _(
                    "Whoever can lay out a card must; whoever cannot passes. The deal ends "
                    "when two players have laid out every card: %(first)s to the first, "
                    "%(second)s to the second.",
                    first=signed(first),
                    second=signed(second),
                )
            )
            return notes
        if contract.trumps:
            notes.append(
                _(
                    "%(name)s deals %(k)s cards to each player, looks at their own and names "
                    "trumps, then deals the rest. Follow suit; there is no duty to trump.",
                    name=name,
                    k=SEEN[self.n],
                )
            )
            notes.append(_("%(points)s a trick.", points=signed(v.trump_trick)))
            return notes
        notes += self.play_notes(contract)
        if contract.key == "robber":
            total = -sum(self.deal_total(c) for c in NEGATIVE[:-1])
            notes.insert(
                2,
                _(
                    "Everything the six deals before counted counts at once: %(total)s in all.",
                    total=total,
                ),
            )
        if contract.king_first and self.king_first():
            notes.append(
                _("Whoever holds K♥ must discard it the first time they cannot follow suit.")
            )
        return notes

    def fields_of(self, contract: Contract, plan: Plan) -> list[Field]:
        if contract.fan_tan:
            return [
                Field("owner", "first", _("Who went out first?")),
                Field("owner", "second", _("Who went out second?")),
            ]
        return super().fields_of(contract, plan)

    def deal_total(self, contract: Contract) -> int:
        if contract.fan_tan:
            return sum(self.values.fan_tan)
        return super().deal_total(contract)

    # --- the entry ---------------------------------------------------------------
    def entry_keys(self) -> set[str]:
        return super().entry_keys() | set(PLACES)

    def allowed_beside(self, contract: Contract) -> set[str]:
        return set(PLACES) if contract.fan_tan else set()

    def check(self, entry: Any, plan: Plan) -> dict:
        checked = super().check(entry, plan)
        if plan.context["contract"].fan_tan:
            return self.check_places(entry)
        return checked

    def check_places(self, entry: dict) -> dict:
        out = {}
        for place, question in zip(PLACES, (_("who went out first"), _("who went out second"))):
            if entry.get(place) is None:
                raise EntryError(_("say %(what)s", what=question), place)
            out[place] = seat(entry[place], self.n, place)
        if out["first"] == out["second"]:
            raise EntryError(
                _(
                    "%(name)s cannot go out both first and second: two players go out",
                    name=self.names[out["first"]],
                ),
                "second",
            )
        return out

    # --- scoring -------------------------------------------------------------------
    def score(self, entry: dict, plan: Plan) -> Score:
        contract: Contract = plan.context["contract"]
        if not contract.fan_tan:
            return super().score(entry, plan)
        points = [0] * self.n
        parts: list[list[Any]] = [[] for _s in range(self.n)]
        for place, prize, word in zip(
            PLACES, self.values.fan_tan, (_("out first"), _("out second"))
        ):
            points[entry[place]] += prize
            parts[entry[place]].append(word)
        return Score(points, score_lines(parts, points), tag=self.tag(contract, entry))

    def tag(self, contract: Contract, entry: dict) -> str:
        if contract.fan_tan:
            return pgettext("short", "fan tan")
        return super().tag(contract, entry)

    def describe(self, entry: dict, plan: Plan) -> str:
        if not plan.context["contract"].fan_tan:
            return super().describe(entry, plan)
        return _(
            "%(first)s out first, %(second)s out second",
            first=self.names[entry["first"]],
            second=self.names[entry["second"]],
        )

    # --- the engine -------------------------------------------------------------------
    def engine_pack(self) -> tuple[str, ...]:
        return PACKS[self.n]

    def checks(self, plan: Plan) -> bool:
        """The fan tan is laid out, not played in tricks: no trick-by-trick check."""
        return not plan.context["contract"].fan_tan

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        if not plan.context["contract"].fan_tan:
            return super().engine_setup(plan, given)
        return Setup(
            pack=PACKS[self.n],
            tricks=self.tricks,
            leader=plan.leader,
            layout=self.opts["fan_tan_start"],
            places=len(self.values.fan_tan),
        )

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        if plan.context["contract"].fan_tan:
            return dict(zip(PLACES, captured.finished))
        return super().entry_from_play(plan, setup, captured, given)
