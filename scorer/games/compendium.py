"""What the compendium games share (Kierki, King): a fixed sequence of deals,
each counting its own cards or tricks, as data.

A :class:`Contract` says what a deal counts (tricks, hearts, queens, jacks or
kings, K♥, marked tricks), whether it costs (the negative part) or pays (the
positive), and which play rules hold in it (no heart led, K♥ at the first
chance, trumps named and whether a void player must trump). A game
(:class:`Compendium`) gives its sequence of contracts and what each thing is
worth; this module does the rest the same way for every such game: the form's
questions, the checks of an entry (counts that add up, the robber's or the
eralash's counts that fit in each player's tricks), the points, the words on
the sheet, and the engine's play rules and derived entry.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

from ..cards import SUITS, SYMBOLS, display, rank_letter, rank_of, suit_of
from ..i18n import L_, _, and_list, join, pgettext, sentence, signed
from .base import (
    DEAL_WORDS,
    EntryError,
    Field,
    Game,
    Outcome,
    Plan,
    Score,
    count_words,
    counts,
    only_fields,
    owners,
    score_lines,
    took_no_trick,
    took_question,
)
from .tricks import Captured, Decision, Setup, TableState, follow, follow_reason

# The counts a table may enter, and which cards each counts (``tricks`` counts tricks).
COUNTED = {
    "hearts": lambda c: suit_of(c) == "H",
    "queens": lambda c: rank_of(c) == "Q",
    "kings_jacks": lambda c: rank_of(c) in ("K", "J"),
    "jacks": lambda c: rank_of(c) == "J",
    "kings": lambda c: rank_of(c) == "K",
}
COUNT_FIELDS = ("tricks", *COUNTED)
LABELS = {
    "tricks": L_("Tricks taken"),
    "hearts": L_("Hearts taken"),
    "queens": L_("Queens taken"),
    "kings_jacks": L_("Kings and jacks taken"),
    "jacks": L_("Jacks taken"),
    "kings": L_("Kings taken"),
}


@dataclass(frozen=True)
class Contract:
    """One kind of deal.

    ``counts``: the counts per seat the table enters; ``owners``: who took K♥
    (``KH``) and who took the marked tricks (``marked``). The play rules:
    ``no_heart_lead`` (no heart led while the leader holds another suit),
    ``king_first`` (K♥ discarded at the first chance), ``trumps`` (a player
    names them), ``must_trump`` (a player void in the suit led must trump).
    ``sign``: -1 the negative part, +1 the positive."""

    key: str
    counts: tuple[str, ...] = ()
    owners: tuple[str, ...] = ()
    no_heart_lead: bool = False
    king_first: bool = False
    sign: int = -1
    trumps: bool = False
    must_trump: bool = False
    fan_tan: bool = False


def trick_words(k: int, took: bool = False) -> Any:
    """A trick by its number ("trick 7"); ``took``: as "say who took …" names it."""
    # TRANSLATORS: named after "say who took", as its object (the accusative)
    return pgettext("took", "trick %(k)s", k=k) if took else _("trick %(k)s", k=k)


class Compendium(Game):
    """A game of a fixed sequence of contracts (override the data: ``sequence``,
    ``tricks``, ``engine_pack``, ``worth``, ``marked``, ``contract_name``,
    ``rule_notes``, ``pack_notes``)."""

    higher_wins = True
    # the sheet CSV's note column holds what each deal counts, or its trumps ("♥", "♠"):
    # "contract"
    deal_words = {**DEAL_WORDS, "note": pgettext("compendium", "note")}
    decisions = ("trump",)
    trump_chooser = "dealer"  # who names trumps: the dealer, or the eldest

    # --- the game's data (override) -------------------------------------------------
    @property
    @abstractmethod
    def sequence(self) -> tuple[Contract, ...]: ...

    @property
    @abstractmethod
    def tricks(self) -> int: ...

    @abstractmethod
    def worth(self, key: str, contract: Contract) -> int:
        """What one of ``key`` (a count, ``KH``, or a marked trick) is worth in
        ``contract``, as a positive number."""
        ...

    @abstractmethod
    def marked(self) -> tuple[int, ...]:
        """The numbers of the marked tricks (from 1)."""
        ...

    @abstractmethod
    def contract_name(self, contract: Contract) -> Any: ...

    def tag(self, contract: Contract, entry: dict) -> str:
        """A few characters beside the deal's number: what it counts (``+`` before
        a positive deal that counts as a negative one does)."""
        if contract.trumps:
            return SYMBOLS[entry["trump"]] if entry.get("trump") else pgettext("short", "trumps")
        if contract.counts and contract.owners:
            words = "∑"  # everything at once
        elif contract.owners == ("KH",):
            words = display("KH")
        elif contract.owners:
            words = join("·", [str(k) for k in self.marked()])
        elif contract.counts == ("tricks",):
            words = pgettext("short", "tricks")
        else:
            words = {
                "hearts": SYMBOLS["H"],
                "queens": rank_letter("Q"),
                "kings_jacks": join(" ", [rank_letter("K"), rank_letter("J")]),
                "jacks": rank_letter("J"),
                "kings": rank_letter("K"),
            }[contract.counts[0]]
        return words if contract.sign < 0 else join("", ["+", words])

    @abstractmethod
    def rule_notes(self, contract: Contract, dealer: int, eldest: int) -> list[Any]: ...

    def pack_notes(self) -> list[Any]:
        return []

    # --- shared --------------------------------------------------------------------------
    def in_pack(self, key: str) -> int:
        """How many of ``key`` a deal holds: tricks, or cards of a count."""
        if key == "tricks":
            return self.tricks
        return sum(1 for c in self.engine_pack() if COUNTED[key](c))

    def entry_label(self, key: str, sub: str | None = None) -> Any:
        """A count by its form's label, a trick or K♥ by its words (the check's
        differences name them so)."""
        if key == "taken_by" and sub is not None:
            return self.owner_words(sub)
        return LABELS.get(key) or super().entry_label(key, sub)

    def owner_keys(self, contract: Contract) -> tuple[str, ...]:
        """The ``taken_by`` keys of a deal: ``KH``, ``trick_7``, ``trick_13`` …"""
        keys: list[str] = []
        for o in contract.owners:
            keys += [f"trick_{k}" for k in self.marked()] if o == "marked" else [o]
        return tuple(keys)

    def owner_words(self, key: str, took: bool = False) -> Any:
        """K♥ or a trick by its words; ``took``: as the object of "say who took …"
        (context ``took``, the accusative: "ostatnią lewę", «взятку 7»)."""
        if key == "KH":
            return display("KH")
        k = int(key.split("_")[1])
        if k == self.tricks:
            # TRANSLATORS: named after "say who took", as its object (the accusative)
            return pgettext("took", "the last trick") if took else _("the last trick")
        if k == self.tricks - 1 and self.tricks in self.marked():
            # the one before a marked last trick: King's and Kierki's "last two"
            # TRANSLATORS: named after "say who took", as its object (the accusative)
            if took:
                return pgettext("took", "the second-to-last trick")
            return _("the second-to-last trick")
        return trick_words(k, took)

    def owner_question(self, key: str) -> Any:
        """The form's question, a card and a trick asked alike: "Who took K♥?", as
        the other games ask for Q♠, and "Who took trick 7?", the trick named as the
        object of "took" (``took_question``)."""
        if key == "KH":
            return _("Who took %(card)s?", card=display("KH"))
        return took_question(self.owner_words(key, took=True))

    def chooser(self, plan: Plan) -> int:
        """Who names trumps in a trump deal."""
        return plan.dealer if self.trump_chooser == "dealer" else plan.leader

    def deal_total(self, contract: Contract) -> int:
        """What a deal hands out in all (negative in the negative part)."""
        total = sum(self.worth(k, contract) * self.in_pack(k) for k in contract.counts)
        total += sum(self.worth(k, contract) for k in self.owner_keys(contract))
        return contract.sign * total

    def plan(self, state: Any) -> Plan:
        played = state["played"]
        contract = self.sequence[played]
        dealer = self.dealer(state)
        eldest = (dealer + 1) % self.n
        number = played + 1
        title = _(
            "Deal %(n)s of %(of)s: %(contract)s",
            n=number,
            of=len(self.sequence),
            contract=self.contract_name(contract),
        )
        plan = Plan(
            number=number,
            dealer=dealer,
            leader=eldest,
            title=title,
            notes=[*self.pack_notes(), *self.rule_notes(contract, dealer, eldest)],
            context={"contract": contract, "part": "negative" if contract.sign < 0 else "positive"},
            starts=contract.fan_tan,
        )
        plan.fields = self.fields_of(contract, plan)
        return plan

    def ahead(self, state: Any, k: int) -> Plan | None:
        if state["played"] + k >= len(self.sequence):
            return None
        return super().ahead(state, k)

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
        first_positive = next(k for k, c in enumerate(self.sequence) if c.sign > 0) + 1
        group = ""
        if plan.number == 1:
            group = _("Negative part")
        elif plan.number == first_positive:
            group = _("Positive part")
        return group, self.tag(contract, entry)

    def worth_words(self, key: str, contract: Contract) -> Any:
        points = signed(contract.sign * self.worth(key, contract))
        if key == "tricks":
            return _("%(points)s a trick", points=points)
        if key == "hearts":
            return _("%(points)s a heart", points=points)
        if key == "queens":
            return _("%(points)s a queen", points=points)
        if key == "kings_jacks":
            return _("%(points)s a king or jack", points=points)
        if key == "jacks":
            return _("%(points)s a jack", points=points)
        if key == "kings":
            return _("%(points)s a king", points=points)
        return _("%(what)s %(points)s", what=self.owner_words(key), points=points)

    def play_notes(self, contract: Contract) -> list[Any]:
        """What each thing is worth in a deal without trumps, and its play rules."""
        notes = [_("No trumps. Follow suit; otherwise play anything.")]
        worth = [self.worth_words(key, contract) for key in contract.counts]
        worth += [self.worth_words(key, contract) for key in self.owner_keys(contract)]
        # a sentence of its own: "Trick 7 −8; the last trick −8.", its first word big
        notes.append(sentence(join("; ", worth) + "."))
        if contract.no_heart_lead:
            notes.append(_("No heart may be led while the leader holds another suit."))
        return notes

    # --- the entry ---------------------------------------------------------------------
    def entry_keys(self) -> set[str]:
        """Every field an entry of this game may hold."""
        return {*COUNT_FIELDS, "taken_by", "trump"}

    def fields_of(self, contract: Contract, plan: Plan) -> list[Field]:
        fields = []
        if contract.trumps:
            fields.append(
                Field(
                    "choice",
                    "trump",
                    _("Trumps %(name)s named", name=self.names[self.chooser(plan)]),
                    choices=tuple((s, SYMBOLS[s]) for s in SUITS),
                    per_seat=False,
                    optional=True,
                )
            )
        for key in contract.counts:
            total = self.in_pack(key)
            fields.append(Field("counts", key, LABELS[key], total=total, high=total))
        for key in self.owner_keys(contract):
            fields.append(Field("owner", f"taken_by.{key}", self.owner_question(key)))
        return fields

    def check(self, entry: Any, plan: Plan) -> dict:
        contract: Contract = plan.context["contract"]
        entry = only_fields(entry, self.entry_keys())
        allowed = set(contract.counts) | ({"taken_by"} if contract.owners else set())
        allowed |= {"trump"} if contract.trumps else set()
        allowed |= self.allowed_beside(contract)
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
            out[key] = counts(entry[key], self.n, key, self.in_pack(key), LABELS[key])
        if contract.owners:
            keys = self.owner_keys(contract)
            out["taken_by"] = owners(
                entry.get("taken_by"),
                keys,
                self.n,
                labels={k: self.owner_words(k) for k in keys},
                asked={k: self.owner_words(k, took=True) for k in keys},
            )
        if "tricks" in contract.counts and contract.owners:
            self.check_fit(out)
        return out

    def allowed_beside(self, contract: Contract) -> set[str]:
        """Fields a contract of this game's own kind takes (Kierki's fan tan)."""
        return set()

    @staticmethod
    def say_how_many(key: str) -> Any:
        if key == "tricks":
            return _("say how many tricks each player took")
        noun = {
            "hearts": _("hearts"),
            "queens": _("queens"),
            "kings_jacks": _("kings and jacks"),
            "jacks": _("jacks"),
            "kings": _("kings"),
        }
        return _("say how many %(field)s each player took", field=noun[key])

    def check_fit(self, out: dict) -> None:
        """Everything at once (the robber, the eralash): what a player took must fit
        in their tricks (a trick holds one card from each player); a heart that is
        also a queen, jack or king (Q♥, J♥, K♥ for its taker) counts twice; a
        marked trick is one of the taker's tricks; K♥'s taker counts it."""
        n = self.n
        taken_by = out.get("taken_by", {})
        holder = taken_by.get("KH")
        ranked = [k for k in out if k in COUNTED and k != "hearts"]
        for s in range(n):
            t = out["tricks"][s]
            counted = {k: out[k][s] for k in out if k in COUNTED}
            # the fewest cards those counts can be: the hearts that count twice
            doubles = sum(
                min(counted[k], sum(1 for c in self.double_hearts(k) if c != "KH" or s == holder))
                for k in ranked
            )
            least = sum(counted.values()) - min(counted.get("hearts", 0), doubles)
            words = and_list(count_words(k, v) for k, v in counted.items() if v)
            if least and not t:
                raise EntryError(took_no_trick(self.names[s], words), "tricks")
            if least > n * t:
                raise EntryError(
                    _(
                        "%(name)s took %(tricks)s (%(cards)s): too few for %(counted)s",
                        name=self.names[s],
                        tricks=count_words("tricks", t, took=True),
                        cards=count_words("cards", n * t, took=True),
                        counted=words,
                    ),
                    "tricks",
                )
            marked = [k for k, who in taken_by.items() if who == s and k != "KH"]
            if marked and not t:
                owned = and_list(self.owner_words(k) for k in marked)
                raise EntryError(took_no_trick(self.names[s], owned), "taken_by")
            if len(marked) > t:
                raise EntryError(
                    _(
                        "%(name)s took %(tricks)s, so not %(marked)s",
                        name=self.names[s],
                        tricks=count_words("tricks", t, took=True),
                        marked=and_list(self.owner_words(k) for k in marked),
                    ),
                    "taken_by",
                )
        if holder is None:
            return
        with_king = tuple(k for k in out if k in COUNTED and COUNTED[k]("KH"))
        if any(not out[k][holder] for k in with_king):
            raise EntryError(self.king_counts(with_king, self.names[holder]), "taken_by")

    def double_hearts(self, key: str) -> tuple[str, ...]:
        """The hearts in this game's pack that ``key`` counts too (Q♥; J♥; K♥)."""
        return tuple(c for c in self.engine_pack() if suit_of(c) == "H" and COUNTED[key](c))

    @staticmethod
    def king_counts(keys: tuple[str, ...], name: str) -> Any:
        """K♥'s taker's counts that hold it cannot be 0: the rule, in words."""
        if "kings_jacks" in keys:
            return _(
                "%(name)s took K♥, which is a heart and a king too: %(name)s's hearts and "
                "kings or jacks cannot be 0",
                name=name,
            )
        if "kings" in keys:
            return _(
                "%(name)s took K♥, which is a heart and a king too: %(name)s's hearts and "
                "kings cannot be 0",
                name=name,
            )
        return _("%(name)s took K♥, which is a heart: %(name)s's hearts cannot be 0", name=name)

    # --- scoring -------------------------------------------------------------------
    def score(self, entry: dict, plan: Plan) -> Score:
        contract: Contract = plan.context["contract"]
        n = self.n
        points = [0] * n
        parts: list[list[Any]] = [[] for _s in range(n)]
        for key in contract.counts:
            for s in range(n):
                if entry[key][s]:
                    points[s] += contract.sign * entry[key][s] * self.worth(key, contract)
                    parts[s].append(count_words(key, entry[key][s]))
        for key, s in entry.get("taken_by", {}).items():
            points[s] += contract.sign * self.worth(key, contract)
            parts[s].append(self.owner_words(key))
        return Score(points, score_lines(parts, points), tag=self.tag(contract, entry))

    def describe(self, entry: dict, plan: Plan) -> str:
        contract: Contract = plan.context["contract"]
        parts = []
        if entry.get("trump"):
            parts.append(_("%(suit)s trumps", suit=SYMBOLS[entry["trump"]]))
        for s in range(self.n):
            took = [count_words(k, entry[k][s]) for k in contract.counts if entry[k][s]]
            took += [
                self.owner_words(k) for k, who in entry.get("taken_by", {}).items() if who == s
            ]
            if took:
                parts.append(self.took(s, join(", ", took)))
        return join("; ", parts)

    # --- the engine -------------------------------------------------------------------
    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        contract: Contract = plan.context["contract"]
        base = {"pack": self.engine_pack(), "tricks": self.tricks, "leader": plan.leader}
        # what taking each card and each trick costs (the simple player's guide):
        # the points it loses, negative where it gains
        harm = -contract.sign
        costs: dict[str, int] = {}
        for key in contract.counts:
            if key != "tricks":
                for c in self.engine_pack():
                    if COUNTED[key](c):
                        costs[c] = costs.get(c, 0) + harm * self.worth(key, contract)
        if "KH" in contract.owners:
            costs["KH"] = costs.get("KH", 0) + harm * self.worth("KH", contract)
        trick_cost = harm * self.worth("tricks", contract) if "tricks" in contract.counts else 0
        trump = None
        if contract.trumps:
            trump = given.get("trump")
            if trump not in SUITS:
                raise EntryError(
                    _("say which suit %(name)s named trumps", name=self.names[self.chooser(plan)]),
                    "trump",
                )
        return Setup(
            **base,
            trump=trump,
            costs=costs,
            trick_cost=trick_cost,
            no_lead="H" if contract.no_heart_lead else None,
            first_chance="KH" if contract.king_first and self.king_first() else None,
            first_chance_led=self.king_led(),
            must_trump=contract.must_trump,
        )

    def king_first(self) -> bool:
        """Is K♥ discarded at the first chance where a contract says so (option)?"""
        return True

    def king_led(self) -> bool:
        """Must K♥ be played, too, the first time its suit is led (option)?"""
        return False

    def engine_decision(self, plan: Plan, given: dict) -> Decision | None:
        """A player names trumps in a trump deal."""
        if not plan.context["contract"].trumps or "trump" in given:
            return None
        return Decision("trump", self.chooser(plan), SUITS, many=False)

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
        if not trick:
            return None
        led = suit_of(trick[0][1])
        void = not any(suit_of(c) == led for c in hand)
        chance = setup.first_chance
        if chance in hand and card != chance:
            if void:
                return (
                    "rule",
                    _(
                        "%(card)s must be discarded the first time its holder cannot follow suit",
                        card=display(chance),
                    ),
                    chance,
                )
            if setup.first_chance_led and suit_of(chance) == led:
                return (
                    "rule",
                    _(
                        "%(card)s must be played the first time its suit is led",
                        card=display(chance),
                    ),
                    chance,
                )
        if setup.must_trump and void and setup.trump and suit_of(card) != setup.trump:
            trump = next((c for c in hand if suit_of(c) == setup.trump), None)
            if trump:
                return (
                    "rule",
                    _(
                        "a player who cannot follow suit must trump (%(suit)s)",
                        suit=SYMBOLS[setup.trump],
                    ),
                    trump,
                )
        return None

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        contract: Contract = plan.context["contract"]
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
