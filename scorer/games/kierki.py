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

from ..cards import SUITS, SYMBOLS, display, pack, rank_letter, rank_of, suit_of
from ..i18n import L_, _, and_list, join, ngettext, pgettext
from .base import (
    EntryError,
    Field,
    Game,
    Option,
    Outcome,
    Plan,
    Score,
    count_words,
    counts,
    only_fields,
    owners,
    pack_note,
    score_lines,
    seat,
)
from .tricks import Captured, Decision, Setup, TableState, follow, follow_reason

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

# The counts the table may enter, and which cards each counts (``tricks`` counts tricks).
COUNTED = {
    "hearts": lambda c: suit_of(c) == "H",
    "queens": lambda c: rank_of(c) == "Q",
    "kings_jacks": lambda c: rank_of(c) in ("K", "J"),
}
IN_PACK = {"hearts": 13, "queens": 4, "kings_jacks": 8}
COUNT_FIELDS = ("tricks", "hearts", "queens", "kings_jacks")


@dataclass(frozen=True)
class Contract:
    """One kind of deal.

    ``counts``: the counts per seat the table enters; ``owners``: who took K♥
    (``KH``) and who took the sixth deal's marked tricks (``marked``). The play
    rules: ``no_heart_lead`` (no heart led while the leader holds another suit),
    ``king_first`` (K♥ discarded at the first chance, under the option).
    ``sign``: -1 the negative part, +1 the positive."""

    key: str
    counts: tuple[str, ...] = ()
    owners: tuple[str, ...] = ()
    no_heart_lead: bool = False
    king_first: bool = False
    sign: int = -1
    trumps: bool = False
    fan_tan: bool = False


NEGATIVE = (
    Contract("tricks", counts=("tricks",)),
    Contract("hearts", counts=("hearts",), no_heart_lead=True),
    Contract("queens", counts=("queens",)),
    Contract("kings_jacks", counts=("kings_jacks",)),
    Contract("king_of_hearts", owners=("KH",), no_heart_lead=True, king_first=True),
    Contract("marked", owners=("marked",)),
    Contract(
        "robber",
        counts=COUNT_FIELDS,
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
    "robber": L_("the robber: everything at once"),
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
LABELS = {
    "tricks": L_("Tricks taken"),
    "hearts": L_("Hearts taken"),
    "queens": L_("Queens taken"),
    "kings_jacks": L_("Kings and jacks taken"),
}


def _signed(points: int) -> str:
    return f"{points:+d}"


class Kierki(Game):
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
        """A count by its form's label, a trick or K♥ by its words, the fan tan's
        places as its questions say them."""
        if key == "taken_by" and sub is not None:
            return self.owner_words(sub)
        if key in PLACES:
            return {"first": _("who went out first"), "second": _("who went out second")}[key]
        return LABELS.get(key) or super().entry_label(key, sub)

    def owner_keys(self, contract: Contract) -> tuple[str, ...]:
        """The ``taken_by`` keys of a deal: ``KH``, ``trick_7``, ``trick_13`` …"""
        keys: list[str] = []
        for o in contract.owners:
            keys += [f"trick_{k}" for k in self.marked()] if o == "marked" else [o]
        return tuple(keys)

    def owner_words(self, key: str) -> Any:
        if key == "KH":
            return display("KH")
        k = int(key.split("_")[1])
        if k == self.tricks:
            return _("the last trick")
        return _("trick %(k)s", k=k)

    def contract_name(self, contract: Contract) -> Any:
        if contract.key == "marked":
            return SIXTH_NAMES[self.opts["sixth"]]
        return NAMES[contract.key]

    def worth(self, key: str) -> int:
        """What one of ``key`` (a count, ``KH``, or a marked trick) is worth."""
        v = self.values
        if key == "KH":
            return v.king_of_hearts
        if key.startswith("trick_"):
            return v.marked // len(self.marked())
        return getattr(v, key)

    # --- the fold -------------------------------------------------------------
    def plan(self, state: Any) -> Plan:
        played = state["played"]
        contract = self.sequence[played]
        dealer = self.dealer(state)
        eldest = (dealer + 1) % self.n
        number = played + 1
        notes = [pack_note(REMOVED[self.n], self.tricks)] if REMOVED[self.n] else []
        notes += self.rule_notes(contract, dealer, eldest)
        fields = self.fields_of(contract, dealer)
        title = _(
            "Deal %(n)s of %(of)s: %(contract)s",
            n=number,
            of=len(self.sequence),
            contract=self.contract_name(contract),
        )
        return Plan(
            number=number,
            dealer=dealer,
            leader=eldest,
            title=title,
            notes=notes,
            fields=fields,
            context={"contract": contract, "part": "negative" if contract.sign < 0 else "positive"},
        )

    def ahead(self, state: Any, k: int) -> Plan | None:
        if state["played"] + k >= len(self.sequence):
            return None
        return super().ahead(state, k)

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
                    first=_signed(first),
                    second=_signed(second),
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
            notes.append(_("%(points)s a trick.", points=_signed(v.trump_trick)))
            return notes
        notes.append(_("No trumps. Follow suit; otherwise play anything."))
        worth = [self.worth_words(key) for key in contract.counts]
        worth += [self.worth_words(key) for key in self.owner_keys(contract)]
        notes.append(join("; ", worth) + ".")
        if contract.key == "robber":
            total = sum(self.deal_total(c) for c in NEGATIVE[:-1])
            notes.append(
                _(
                    "Everything the six deals before counted counts at once: %(total)s in all.",
                    total=total,
                )
            )
        if contract.no_heart_lead:
            notes.append(_("No heart may be led while the leader holds another suit."))
        if contract.king_first and self.opts["king_first"]:
            notes.append(
                _("Whoever holds K♥ must discard it the first time they cannot follow suit.")
            )
        return notes

    def worth_words(self, key: str) -> Any:
        points = _signed(-self.worth(key))
        if key == "tricks":
            return _("%(points)s a trick", points=points)
        if key == "hearts":
            return _("%(points)s a heart", points=points)
        if key == "queens":
            return _("%(points)s a queen", points=points)
        if key == "kings_jacks":
            return _("%(points)s a king or jack", points=points)
        return _("%(what)s %(points)s", what=self.owner_words(key), points=points)

    def fields_of(self, contract: Contract, dealer: int) -> list[Field]:
        if contract.fan_tan:
            return [
                Field("owner", "first", _("Who went out first?")),
                Field("owner", "second", _("Who went out second?")),
            ]
        fields = []
        if contract.trumps:
            fields.append(
                Field(
                    "choice",
                    "trump",
                    _("Trumps %(name)s named", name=self.names[dealer]),
                    choices=tuple((s, SYMBOLS[s]) for s in SUITS),
                    per_seat=False,
                    optional=True,
                )
            )
        for key in contract.counts:
            total = self.tricks if key == "tricks" else IN_PACK[key]
            fields.append(Field("counts", key, LABELS[key], total=total, high=total))
        for key in self.owner_keys(contract):
            fields.append(
                Field(
                    "owner", f"taken_by.{key}", _("Who took %(what)s?", what=self.owner_words(key))
                )
            )
        return fields

    def deal_total(self, contract: Contract) -> int:
        """What a deal hands out in all (negative in the rozgrywka)."""
        v = self.values
        if contract.fan_tan:
            return sum(v.fan_tan)
        if contract.trumps:
            return self.tricks * v.trump_trick
        total = sum(
            self.worth(k) * (self.tricks if k == "tricks" else IN_PACK[k]) for k in contract.counts
        )
        return contract.sign * (total + sum(self.worth(k) for k in self.owner_keys(contract)))

    # --- the entry ---------------------------------------------------------------
    def check(self, entry: Any, plan: Plan) -> dict:
        contract: Contract = plan.context["contract"]
        entry = only_fields(entry, {*COUNT_FIELDS, "taken_by", "trump", *PLACES})
        allowed = set(contract.counts) | ({"taken_by"} if contract.owners else set())
        allowed |= {"trump"} if contract.trumps else set()
        allowed |= set(PLACES) if contract.fan_tan else set()
        for key in entry:
            if key not in allowed:
                raise EntryError(
                    _(
                        "%(field)s: nothing of the kind is counted in deal %(n)s (%(contract)s)",
                        field=key,
                        n=plan.number,
                        contract=self.contract_name(contract),
                    ),
                    key,
                )
        if contract.fan_tan:
            return self.check_places(entry)
        out: dict = {}
        if contract.trumps and entry.get("trump") is not None:
            if entry["trump"] not in SUITS:
                raise EntryError(
                    _("trump must be one of %(suits)s", suits="S H D C (♠ ♥ ♦ ♣)"), "trump"
                )
            out["trump"] = entry["trump"]
        for key in contract.counts:
            if entry.get(key) is None:
                raise EntryError(self.say_how_many(key), key)
            total = self.tricks if key == "tricks" else IN_PACK[key]
            out[key] = counts(entry[key], self.n, key, total, LABELS[key])
        if contract.owners:
            labels = {k: self.owner_words(k) for k in self.owner_keys(contract)}
            out["taken_by"] = owners(
                entry.get("taken_by"), self.owner_keys(contract), self.n, labels=labels
            )
        if contract.key == "robber":
            self.check_fit(out)
        return out

    @staticmethod
    def say_how_many(key: str) -> Any:
        if key == "tricks":
            return _("say how many tricks each player took")
        noun = {"hearts": _("hearts"), "queens": _("queens"), "kings_jacks": _("kings and jacks")}
        return _("say how many %(field)s each player took", field=noun[key])

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

    def check_fit(self, out: dict) -> None:
        """The robber: what a player took must fit in their tricks (a trick holds one
        card from each player); K♥ is a heart and a king; a marked trick is a trick."""
        n = self.n
        holder = out["taken_by"]["KH"]
        for s in range(n):
            t = out["tricks"][s]
            h, q, kj = out["hearts"][s], out["queens"][s], out["kings_jacks"][s]
            # the fewest cards those counts can be: Q♥, J♥ and (its taker's) K♥ count twice
            doubles = min(q, 1) + min(kj, 2 if s == holder else 1)
            least = h + q + kj - min(h, doubles)
            if least > n * t:
                counted = join(
                    ", ", [count_words(k, out[k][s]) for k in COUNT_FIELDS[1:] if out[k][s]]
                )
                raise EntryError(
                    _(
                        "%(name)s took %(tricks)s (%(cards)s): too few for %(counted)s",
                        name=self.names[s],
                        tricks=count_words("tricks", t),
                        cards=ngettext("%(num)s card", "%(num)s cards", n * t),
                        counted=counted,
                    ),
                    "tricks",
                )
            marked = [k for k, who in out["taken_by"].items() if who == s and k != "KH"]
            if len(marked) > t:
                raise EntryError(
                    _(
                        "%(name)s took %(tricks)s, so not %(marked)s",
                        name=self.names[s],
                        tricks=count_words("tricks", t),
                        marked=and_list(self.owner_words(k) for k in marked),
                    ),
                    "taken_by",
                )
        if not out["hearts"][holder] or not out["kings_jacks"][holder]:
            raise EntryError(
                _(
                    "%(name)s took K♥, which is a heart and a king too: %(name)s's hearts and "
                    "kings or jacks cannot be 0",
                    name=self.names[holder],
                ),
                "taken_by",
            )

    # --- scoring -------------------------------------------------------------------
    def score(self, entry: dict, plan: Plan) -> Score:
        contract: Contract = plan.context["contract"]
        n = self.n
        points = [0] * n
        parts: list[list[Any]] = [[] for _s in range(n)]
        if contract.fan_tan:
            for place, prize, word in zip(
                PLACES, self.values.fan_tan, (_("out first"), _("out second"))
            ):
                points[entry[place]] += prize
                parts[entry[place]].append(word)
        elif contract.trumps:
            for s in range(n):
                points[s] = entry["tricks"][s] * self.values.trump_trick
                parts[s].append(count_words("tricks", entry["tricks"][s]))
        else:
            for key in contract.counts:
                for s in range(n):
                    if entry[key][s]:
                        points[s] -= entry[key][s] * self.worth(key)
                        parts[s].append(count_words(key, entry[key][s]))
            for key, s in entry.get("taken_by", {}).items():
                points[s] -= self.worth(key)
                parts[s].append(self.owner_words(key))
        return Score(points, score_lines(parts, points), tag=self.tag(contract, entry))

    def tag(self, contract: Contract, entry: dict) -> str:
        """A few characters beside the deal's number: what it counts."""
        if contract.trumps:
            return SYMBOLS[entry["trump"]] if entry.get("trump") else pgettext("short", "trumps")
        if contract.key == "hearts":
            return SYMBOLS["H"]
        if contract.key == "queens":
            return rank_letter("Q")
        if contract.key == "kings_jacks":
            return join(" ", [rank_letter("K"), rank_letter("J")])
        if contract.key == "king_of_hearts":
            return display("KH")
        if contract.key == "marked":
            return join("·", [str(k) for k in self.marked()])
        if contract.key == "robber":
            return "∑"  # everything at once
        if contract.key == "tricks":
            return pgettext("short", "tricks")
        return pgettext("short", "fan tan")

    def advance(self, state: Any, entry: dict, plan: Plan) -> Any:
        return {**state, "played": state["played"] + 1}

    def outcome(self, totals: list[int], played: int) -> Outcome:
        if played < len(self.sequence):
            return Outcome(False)
        return Outcome(True, self.best(totals))

    def chart_axis(self, plan: Plan, entry: dict) -> tuple[str, str]:
        """The negative part and the positive begin groups; each deal is labelled
        with what it counts."""
        contract: Contract = plan.context["contract"]
        group = ""
        if plan.number == 1:
            group = _("Negative part")
        elif plan.number == len(NEGATIVE) + 1:
            group = _("Positive part")
        return group, self.tag(contract, entry)

    def describe(self, entry: dict, plan: Plan) -> str:
        contract: Contract = plan.context["contract"]
        names = self.names
        if contract.fan_tan:
            return _(
                "%(first)s out first, %(second)s out second",
                first=names[entry["first"]],
                second=names[entry["second"]],
            )
        parts = []
        if entry.get("trump"):
            parts.append(_("%(suit)s trumps", suit=SYMBOLS[entry["trump"]]))
        for s in range(self.n):
            took = [count_words(k, entry[k][s]) for k in contract.counts if entry[k][s]]
            took += [
                self.owner_words(k) for k, who in entry.get("taken_by", {}).items() if who == s
            ]
            if took:
                parts.append(names[s] + " " + join(", ", took))
        return join("; ", parts)

    # --- the engine -------------------------------------------------------------------
    def engine_pack(self) -> tuple[str, ...]:
        return PACKS[self.n]

    def checks(self, plan: Plan) -> bool:
        """The fan tan is laid out, not played in tricks: no trick-by-trick check."""
        return not plan.context["contract"].fan_tan

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        contract: Contract = plan.context["contract"]
        base = {"pack": PACKS[self.n], "tricks": self.tricks, "leader": plan.leader}
        if contract.fan_tan:
            return Setup(**base, layout=self.opts["fan_tan_start"], places=len(self.values.fan_tan))
        if contract.trumps:
            trump = given.get("trump")
            if trump not in SUITS:
                raise EntryError(
                    _("say which suit %(name)s named trumps", name=self.names[plan.dealer]),
                    "trump",
                )
            return Setup(**base, trump=trump, trick_cost=-self.values.trump_trick)
        costs: dict[str, int] = {}
        for key in contract.counts:
            if key != "tricks":
                for c in PACKS[self.n]:
                    if COUNTED[key](c):
                        costs[c] = costs.get(c, 0) + self.worth(key)
        if "KH" in contract.owners:
            costs["KH"] = costs.get("KH", 0) + self.worth("KH")
        return Setup(
            **base,
            costs=costs,
            trick_cost=self.worth("tricks") if "tricks" in contract.counts else 0,
            no_lead="H" if contract.no_heart_lead else None,
            first_chance="KH" if contract.king_first and self.opts["king_first"] else None,
        )

    def engine_decision(self, plan: Plan, given: dict) -> Decision | None:
        """The dealer names trumps in a trump deal."""
        if not plan.context["contract"].trumps or "trump" in given:
            return None
        return Decision("trump", plan.dealer, SUITS, many=False)

    def legal(self, hand: list[str], trick: list, state: TableState) -> list[str]:
        return [
            c for c in follow(hand, trick) if self.illegal_reason(c, hand, trick, state) is None
        ]

    def illegal_reason(
        self, card: str, hand: list[str], trick: list, state: TableState
    ) -> tuple[str, str, str] | None:
        why = follow_reason(card, hand, trick)
        if why:
            return why
        setup = state.setup
        if not trick and setup.no_lead and suit_of(card) == setup.no_lead:
            other = next((c for c in hand if suit_of(c) != setup.no_lead), None)
            if other:
                return (
                    "rule",
                    _(
                        "no %(suit)s may be led while the leader holds another suit",
                        suit=SYMBOLS[setup.no_lead],
                    ),
                    other,
                )
        chance = setup.first_chance
        if trick and chance in hand and card != chance:
            led = suit_of(trick[0][1])
            if not any(suit_of(c) == led for c in hand):
                return (
                    "rule",
                    _(
                        "%(card)s must be discarded the first time its holder cannot follow suit",
                        card=display(chance),
                    ),
                    chance,
                )
        return None

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        contract: Contract = plan.context["contract"]
        if contract.fan_tan:
            return dict(zip(PLACES, captured.finished))
        entry: dict = {}
        if contract.trumps:
            entry["trump"] = setup.trump
        for key in contract.counts:
            if key == "tricks":
                entry[key] = captured.tricks()
            else:
                entry[key] = [sum(1 for c in cards if COUNTED[key](c)) for cards in captured.taken]
        if contract.owners:
            entry["taken_by"] = {
                key: captured.who_took(key) if key == "KH" else captured.winners[int(key[6:]) - 1]
                for key in self.owner_keys(contract)
            }
        return entry
