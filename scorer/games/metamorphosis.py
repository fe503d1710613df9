"""Metamorphosis (Robert Abbott): rounds of four deals with different trumps and
scoring, a declared deal worth +10, and no reshuffle inside a round
(RULES.md; Mendelev's encyclopedia and the Polish card-game book, seeds 003 and
000, for the default; the short Russian summary, seed 001, for the variant).

The four deals of each variant are data (``VARIANTS``). Because the cards a player took are that
player's next hand, the app also tells the table how to get every hand back
to 12 before each deal: :meth:`Metamorphosis.card_flow` gives the steps as
data, and the plan's notes say them in words. The engine (``scorer.engine``)
plays a round with real cards by doing those same steps (``engine_moves``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import FULL_PACK, SYMBOLS
from ..i18n import L_, Text, _, and_list, join, ngettext, npgettext, pgettext, signed
from .base import (
    ENTRY_LABELS,
    NOTHING,
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
    tally,
    took_no_trick,
    whole,
)
from .tricks import Captured, Decision, Setup

PACK = 52
HAND = 12  # cards each, so 12 tricks a deal
SUIT_CARDS = 13
BONUS = 10  # for winning the declared deal outright


@dataclass(frozen=True)
class DealRule:
    trump: str | None  # a suit letter, or None for no trumps
    counted: str  # the entry field counted ("clubs", "hearts", "spades"), or "cards"
    points: int  # per card counted


@dataclass(frozen=True)
class Variant:
    deals: tuple[DealRule, ...]  # the round's four deals, in order
    deal_moves: bool  # True: the next round is dealt by whoever led deal 1 of the round before


VARIANTS: dict[str, Variant] = {
    # Mendelev's encyclopedia and the Polish book: the deal moves one seat left each round
    "standard": Variant(
        (
            DealRule(None, "clubs", -4),
            DealRule("D", "hearts", 3),
            DealRule(None, "cards", -1),
            DealRule(None, "spades", 4),
        ),
        deal_moves=True,
    ),
    # the short Russian summary: deal 2 +4 a heart, deal 4 -4 a spade; the deal never
    # moves ("the fifth deal is led by whoever led the first")
    "seed001": Variant(
        (
            DealRule(None, "clubs", -4),
            DealRule("D", "hearts", 4),
            DealRule(None, "cards", -1),
            DealRule(None, "spades", -4),
        ),
        deal_moves=False,
    ),
}
COUNTED_FIELDS = ("clubs", "hearts", "spades")
COUNTED_SUITS = {"clubs": "C", "hearts": "H", "spades": "S"}
DECLARABLE = (1, 2, 3, 4)  # the indicators A, 2, 3, 4
ROUNDS = {2: 4, 3: 3}  # players → rounds of four deals


class Step(NamedTuple):
    """One move of cards before a deal.

    actions: ``shuffle`` (seat: the dealer; the whole pack is gathered: count
    52), ``deal`` (seat gets count cards from the shuffled pack, ``source``
    "stock": what is left is the stock), ``discard`` (seat puts count cards
    face down on the discard pile), ``refill`` (the count face-down discards
    are shuffled into the stock; seat None), ``draw`` (seat draws count from
    the stock), ``take`` (seat takes count cards from the hand of seat
    ``source``, its left-hand neighbour)."""

    seat: int | None
    action: str
    count: int
    source: int | str | None


@dataclass
class Flow:
    steps: list[Step]
    hands: list[int]  # after the steps: 12 each
    stock: int
    discards: int


def trump_words(trump: str | None) -> str:
    return {
        None: _("no trumps"),
        "D": _("diamonds trumps"),
        "H": _("hearts trumps"),
        "S": _("spades trumps"),
        "C": _("clubs trumps"),
    }[trump]


def rule_words(rule: DealRule) -> str:
    p = signed(rule.points)
    scores = {
        "clubs": lambda: _("%(points)s for every club taken", points=p),
        "hearts": lambda: _("%(points)s for every heart taken", points=p),
        "spades": lambda: _("%(points)s for every spade taken", points=p),
        "cards": lambda: _("%(points)s for every card taken", points=p),
    }[rule.counted]()
    return trump_words(rule.trump) + ", " + scores


def counted_words(counted: str, k: int) -> str:
    return count_words(counted, k)


def counted_noun(counted: str) -> str:
    """What a deal counts, as a sentence names it ("clubs"): the record's key
    ``clubs`` is no word to a Polish or Russian player."""
    return {"clubs": _("clubs"), "hearts": _("hearts"), "spades": _("spades")}[counted]


def taken_noun(counted: str) -> str:
    """The count as a refusal names it: "clubs" in English (docs/record.md's "hearts add
    up to 12"), the question's own words where a language says them ("vzaté kříže")."""
    return {
        "clubs": pgettext("taken", "clubs"),
        "hearts": pgettext("taken", "hearts"),
        "spades": pgettext("taken", "spades"),
    }[counted]


def field_label(counted: str) -> str:
    return {"clubs": _("Clubs taken"), "hearts": _("Hearts taken"), "spades": _("Spades taken")}[
        counted
    ]


def chain(hands: list[int]) -> list[int]:
    """After deal 2: x[s] = cards seat s takes from seat s+1, the smallest
    non-negative solution of x[s] = 12 - hands[s] + x[s-1]."""
    n = len(hands)
    x = [0] * n
    for s in range(1, n):
        x[s] = x[s - 1] + HAND - hands[s]
    low = min(x)
    return [v - low for v in x]


# TRANSLATORS: the ace as a declaration chip (it declares deal 1 of the round; the
# legend above the chips says so): the language's letter of the ace, then "(1)"
ACE = L_("A (1)")


class Metamorphosis(Game):
    key = "metamorphosis"
    name = L_("Metamorphosis")
    # A round is dealt once and played four times: Polish and Russian count its plays
    # (rozgrywki, розыгрыши), where other games count deals (docs/glossary.md).
    deal_words = {
        "title": pgettext("metamorphosis", "Deal %(n)s"),
        "enter": pgettext("metamorphosis", "Enter deal %(n)s"),
        "save": pgettext("metamorphosis", "Save deal %(n)s"),
        "in_words": pgettext("metamorphosis", "Deal %(n)s in words"),
        "count": npgettext("metamorphosis", "%(num)s deal", "%(num)s deals", 0),
        "entering": pgettext("metamorphosis", "Entering a deal"),
        "check": pgettext("metamorphosis", "Check this deal trick by trick"),
        "check_title": pgettext("metamorphosis", "Check deal %(n)s trick by trick"),
        "delete_all": pgettext("metamorphosis", "Delete the match and all its deals"),
        "column": pgettext("metamorphosis", "deal"),
        "note": pgettext("metamorphosis", "note"),  # its tag, R1·1 (the round and play): "round"
        "export_csv": pgettext("metamorphosis", "Export every deal in detail (CSV)"),
        "deals": pgettext("metamorphosis", "Deals"),
        "show_all": pgettext("metamorphosis", "Show all %(n)s deals"),
        "edit": pgettext("metamorphosis", "Edit deal %(n)s"),
        "chart": pgettext("metamorphosis", "Running totals after each deal"),
        "saved": pgettext("metamorphosis", "Deal %(n)s saved."),
        "changed": pgettext("metamorphosis", "Deal %(n)s changed."),
        "deleted": pgettext("metamorphosis", "Deal %(n)s deleted."),
        "restored": pgettext("metamorphosis", "Deal %(n)s restored."),
        "same": pgettext("metamorphosis", "Deal %(n)s entered twice, the same: stored once."),
        "conflict": pgettext(
            "metamorphosis", "Deal %(n)s entered twice, differently: both kept for a choice."
        ),
        "kept": pgettext("metamorphosis", "Deal %(n)s kept as stored; the other entry set aside."),
        "undo_deleted": pgettext("metamorphosis", "Deal %(n)s deleted (an undo)."),
        "undo_edit": pgettext("metamorphosis", "Deal %(n)s put back as it was (an undo)."),
        "undo_restored": pgettext("metamorphosis", "Deal %(n)s restored (an undo)."),
        "now_numbered": pgettext("metamorphosis", "It is deal %(n)s now."),
        "not_object": pgettext("metamorphosis", "a deal must be a JSON object"),
        "unknown_field": pgettext("metamorphosis", "unknown field %(field)s in this deal"),
        "undo_add": pgettext("metamorphosis", "Undo saving deal %(n)s"),
        "undo_change": pgettext("metamorphosis", "Undo the change to deal %(n)s"),
        "undo_delete": pgettext("metamorphosis", "Undo deleting deal %(n)s"),
        "undo_restore": pgettext("metamorphosis", "Undo bringing deal %(n)s back"),
        "undo_twice": pgettext("metamorphosis", "Undo the second entry of deal %(n)s"),
        "undo_keep": pgettext("metamorphosis", "Undo the choice made for deal %(n)s"),
        "undo_undo": pgettext("metamorphosis", "Undo the undo of deal %(n)s"),
        "undo_reopen": pgettext(
            "metamorphosis", "Deal %(n)s waits for the choice again (an undo)."
        ),
        "reflowed": pgettext(
            "metamorphosis", "Deal %(n)s changed; the totals after it were counted again."
        ),
        "same_elsewhere": pgettext(
            "metamorphosis",
            "Deal %(n)s was already entered on another phone, the same: nothing was stored twice.",
        ),
        "back": pgettext("metamorphosis", "Deal %(n)s is back, with your entry."),
        "stays": pgettext(
            "metamorphosis", "Deal %(n)s stays as stored; the other entry is in the history."
        ),
        "replaced": pgettext(
            "metamorphosis", "Deal %(n)s replaced; the totals after it were counted again."
        ),
        "undeletable": pgettext("metamorphosis", "Deal %(n)s cannot be deleted: %(why)s"),
        "deleted_reflowed": pgettext(
            "metamorphosis", "Deal %(n)s deleted; the totals after it were counted again."
        ),
        "save_checked_as": pgettext("metamorphosis", "Save the checked deal as deal %(n)s"),
        "save_checked": pgettext("metamorphosis", "Save the checked deal"),
        "delete": pgettext("metamorphosis", "Delete deal %(n)s"),
        "delete_up": pgettext("metamorphosis", "Delete deal %(n)s; later deals move up"),
        "delete_ask": pgettext("metamorphosis", "Delete deal %(n)s?"),
        "as_now": pgettext("metamorphosis", "Deal %(n)s as it stands now"),
        "delete_as_now": pgettext("metamorphosis", "Delete deal %(n)s as it stands now"),
        "two_entries": pgettext("metamorphosis", "Deal %(n)s: two entries"),
        "over": pgettext("metamorphosis", "The match is over: no more deals."),
        "watching": pgettext(
            "metamorphosis",
            "You are watching: the scorers enter the deals, and this sheet follows them.",
        ),
        "share_scorer": pgettext(
            "metamorphosis",
            "Whoever opens this link can enter, change and delete deals on their phone from then "
            "on. Give it only to those who keep the score.",
        ),
        "has_two": pgettext("metamorphosis", "Deal %(n)s has two entries: choose which stands"),
        "yours_differs": pgettext(
            "metamorphosis",
            "Deal %(n)s was already entered on another phone, and yours differs. Both are kept "
            "until you choose; the cells that differ are marked.",
        ),
        "other_differs": pgettext(
            "metamorphosis",
            "Another phone entered deal %(n)s differently. Both are kept until you choose; the "
            "cells that differ are marked.",
        ),
        "keep_stored": pgettext("metamorphosis", "Keep deal %(n)s as stored"),
        "replace_yours": pgettext("metamorphosis", "Replace deal %(n)s with yours"),
        "replace_other": pgettext("metamorphosis", "Replace deal %(n)s with the other entry"),
        "add_new": pgettext("metamorphosis", "Add it as deal %(n)s, a new deal"),
        "was_deleted": pgettext("metamorphosis", "Deal %(n)s was deleted"),
        "deleted_while": pgettext(
            "metamorphosis",
            "While you edited it, deal %(n)s was deleted on another phone (%(at)s). Your entry "
            "is here: nothing was saved yet.",
        ),
        "bring_back": pgettext("metamorphosis", "Bring deal %(n)s back with your entry"),
        "incomplete": npgettext(
            "metamorphosis",
            "Not saved: the deal is not complete yet (%(k)s of %(n)s trick).",
            "Not saved: the deal is not complete yet (%(k)s of %(n)s tricks).",
            0,
        ),
        "nothing_saved": pgettext(
            "metamorphosis",
            "%(why)s: nothing was saved. Go back to the sheet to see the deals as "
            "they stand; this page keeps your tricks until you leave it.",
        ),
        "queue_waiting": pgettext(
            "metamorphosis", "Deals {list}: not saved yet — waiting for the connection."
        ),
        "queue_behind": pgettext(
            "metamorphosis", "Deals {list}: not saved yet — first put right the one refused above."
        ),
        "queue_row_held": pgettext("metamorphosis", "not saved: open it above"),
        "more_waiting": npgettext(
            "metamorphosis",
            "%(num)s more deal waits for a choice on the sheet.",
            "%(num)s more deals wait for a choice on the sheet.",
            0,
        ),
        "choice_made": pgettext(
            "metamorphosis",
            "This choice was made already (on this phone or another): the sheet shows "
            "the deal as it stands.",
        ),
        "entries_deleted": pgettext(
            "metamorphosis", "The deal these entries were for was deleted on another phone."
        ),
        "replace_deals": pgettext(
            "metamorphosis", "Replace deals %(numbers)s with the other entries"
        ),
        "deals_replaced": pgettext(
            "metamorphosis", "Those deals replaced; the totals after them were counted again."
        ),
        "could_not_stand": pgettext(
            "metamorphosis",
            "Nothing was saved: after this change deal %(n)s could not stand (%(why)s).",
        ),
        "setup_hint": pgettext(
            "metamorphosis",
            "Correct a name or change an option; a change that a stored deal could not stand "
            "under is refused with the reason. It is one change of the history, undone from "
            "there.",
        ),
        "other_questions": pgettext(
            "metamorphosis",
            "{what}: its questions depend on the deal before it. Enter it once the connection is "
            "back.",
        ),
        "refused": pgettext("metamorphosis", "deal %(n)s: %(message)s"),
        "no_deal": pgettext("metamorphosis", "there is no deal %(n)s"),
        "not_yet": pgettext("metamorphosis", "deal %(n)s is not entered yet: it comes first"),
        "undone": pgettext(
            "metamorphosis", "deal %(n)s was deleted on another phone after this was typed."
        ),
        "not_yet_here": pgettext(
            "metamorphosis",
            "This was typed as deal %(typed)s, but deal %(n)s is not entered yet. If it is deal "
            "%(n)s, save it here; otherwise, leave this page: it waits on this phone until deal "
            "%(n)s is entered.",
        ),
        "undone_here": pgettext(
            "metamorphosis",
            "This was typed as deal %(typed)s, after a deal %(gone)s that another phone has "
            "deleted since. If it is deal %(n)s, save it here; otherwise, leave this page: it "
            "waits on this phone until deal %(n)s is entered.",
        ),
        "saved_meanwhile": pgettext(
            "metamorphosis", "deal %(n)s was saved on another phone meanwhile"
        ),
        "changed_meanwhile": pgettext(
            "metamorphosis", "deal %(n)s was changed on another phone meanwhile"
        ),
        "deleted_meanwhile": pgettext(
            "metamorphosis", "deal %(n)s was deleted on another phone meanwhile"
        ),
        "deals_changed": pgettext("metamorphosis", "the deals have changed since"),
        "entered_meanwhile": pgettext(
            "metamorphosis",
            "deal %(n)s was entered meanwhile: the other entry cannot be added as a new deal",
        ),
        "choice_gone": pgettext(
            "metamorphosis", "the deal this choice is about was deleted on another phone meanwhile"
        ),
        "one_deal_twice": pgettext(
            "metamorphosis", "two of these entries are for one deal: choose between them first"
        ),
        "brought_back": pgettext(
            "metamorphosis", "the deal was brought back on another phone meanwhile"
        ),
        "entered_differently": pgettext(
            "metamorphosis",
            "deal %(n)s is entered already, and differently: both entries are kept until a "
            "scorer chooses",
        ),
    }
    player_counts = (3, 2)  # RULES.md: 2 or 3; 3 is the default
    entry_labels = {**ENTRY_LABELS, **{counted: taken_noun(counted) for counted in COUNTED_SUITS}}
    decisions = ("declarations",)
    higher_wins = True
    source = L_(
        "Mendelev's Encyclopedia of Games (Russian) and the Polish card-game book; the "
        "variant from a short Russian summary"
    )
    trump_in_title = True  # "…: no trumps, -4 for every club taken"
    mark_legend = L_(
        "✓ won that deal outright · ✗ had declared that deal and did not win it outright"
    )
    options = (
        Option(
            "variant",
            "choice",
            "standard",
            L_("Variant"),
            L_(
                "Standard: deal 2 +3 a heart, deal 4 +4 a spade, and the deal moves one "
                "seat left each round. The short Russian summary: deal 2 +4 a heart, deal 4 "
                "−4 a spade, and the first dealer deals every round."
            ),
            source=L_(
                "Mendelev's encyclopedia and the Polish card-game book (standard); "
                "the short Russian summary"
            ),
            choices=("standard", "seed001"),
            choice_labels=(
                pgettext("variant", "Standard"),
                # TRANSLATORS: the variant chosen, as the option's value says it ("by the
                # short Russian summary"), not the source's name its source line cites
                pgettext("variant", "The short Russian summary"),
            ),
        ),
    )

    @property
    def variant(self) -> str:
        return self.opts.get("variant", "standard")

    @property
    def deals(self) -> tuple[DealRule, ...]:
        return VARIANTS[self.variant].deals

    @property
    def rounds(self) -> int:
        return ROUNDS[self.n]

    def left(self, s: int, k: int = 1) -> int:
        return (s + k) % self.n

    # --- state ---------------------------------------------------------------
    def start(self, first_dealer: int) -> Any:
        return {
            "first_dealer": first_dealer,
            "played": 0,  # deals played in the game
            "round": 1,  # of the next deal
            "deal": 1,  # of the next deal within its round, 1-4
            "dealer": first_dealer,  # who dealt (deals) this round's cards
            "leaders": [],  # who led each deal of this round so far
            "declarations": None,  # this round's, per seat (1-4), once made
            "hands": [0] * self.n,  # cards each player holds now (taken last deal)
            "stock": 0,  # face-down stock
            "discards": 0,  # face-down discard pile
        }

    def dealer(self, state: Any) -> int:
        return state["dealer"]

    def leader(self, state: Any) -> int:
        """RULES.md "Leads": deals 1 and 2 the eldest, deal 3 the left-hand neighbour
        of deal 2's leader, deal 4 deal 3's leader."""
        leaders = state["leaders"]
        d = state["deal"]
        if d in (1, 2):
            return self.left(state["dealer"])  # the eldest
        if d == 3:
            return self.left(leaders[1])
        return leaders[2]

    # --- the cards between deals -----------------------------------------------
    def card_flow(self, state: Any) -> Flow:
        """How the table gets every hand to 12 before the next deal, in order."""
        n = self.n
        d = state["deal"]
        hands = list(state["hands"])
        stock, discards = state["stock"], state["discards"]
        steps: list[Step] = []
        if d == 1:
            dealer = state["dealer"]
            steps.append(Step(dealer, "shuffle", PACK, None))
            for k in range(1, n + 1):
                steps.append(Step(self.left(dealer, k), "deal", HAND, "stock"))
            return Flow(steps, [HAND] * n, PACK - HAND * n, 0)
        leader = self.leader(state)
        order = [self.left(leader, k) for k in range(n)]
        if d == 3:  # after deal 2: take from the left-hand neighbour's hand
            x = chain(hands)
            zero = next(s for s in order if x[s] == 0)
            for k in range(1, n):
                s = (zero - k) % n  # going right from a seat that takes nothing
                if x[s]:
                    steps.append(Step(s, "take", x[s], self.left(s)))
                    hands[s] += x[s]
                    hands[self.left(s)] -= x[s]
            return Flow(steps, hands, stock, discards)
        # after deals 1 and 3: discard the excess face down, draw from the stock
        for s in order:
            if hands[s] > HAND:
                steps.append(Step(s, "discard", hands[s] - HAND, None))
                discards += hands[s] - HAND
                hands[s] = HAND
        need = sum(HAND - h for h in hands if h < HAND)
        if need > stock:  # house rule: shuffle the discards into the stock
            steps.append(Step(None, "refill", discards, "discards"))
            stock, discards = stock + discards, 0
        for s in order:
            if hands[s] < HAND:
                steps.append(Step(s, "draw", HAND - hands[s], "stock"))
                stock -= HAND - hands[s]
                hands[s] = HAND
        return Flow(steps, hands, stock, discards)

    def flow_notes(self, state: Any, flow: Flow) -> list[str]:
        names = self.names
        d = state["deal"]
        notes = []
        if d != 1:
            held = ", ".join(f"{names[s]} {state['hands'][s]}" for s in range(self.n))
            if d == 3:
                notes.append(
                    _(
                        "No new deal: each player picks up the cards they took (%(held)s).",
                        held=held,
                    )
                )
            else:
                notes.append(
                    ngettext(
                        "No new deal: each player picks up the cards they took "
                        "(%(held)s); the stock holds %(num)s card.",
                        "No new deal: each player picks up the cards they took "
                        "(%(held)s); the stock holds %(num)s cards.",
                        state["stock"],
                        held=held,
                    )
                )
        stock = state["stock"]
        for step in flow.steps:
            who = names[step.seat] if step.seat is not None else ""
            if step.action == "shuffle":
                notes.append(
                    ngettext(
                        "%(name)s shuffles the whole pack and deals 12 cards to each "
                        "player; the other %(num)s card lies face down as the stock.",
                        "%(name)s shuffles the whole pack and deals 12 cards to each "
                        "player; the other %(num)s cards lie face down as the stock.",
                        flow.stock,
                        name=who,
                    )
                )
            elif step.action == "discard":
                notes.append(
                    ngettext(
                        "%(name)s discards %(num)s card face down.",
                        "%(name)s discards %(num)s cards face down.",
                        step.count,
                        name=who,
                    )
                )
            elif step.action == "refill":
                need = sum(draw.count for draw in flow.steps if draw.action == "draw")
                notes.append(
                    ngettext(
                        "The stock has only %(stock)s and %(need)s are needed: shuffle the "
                        "%(count)s face-down discard into it (house rule).",
                        "The stock has only %(stock)s and %(need)s are needed: shuffle the "
                        "%(count)s face-down discards into it (house rule).",
                        step.count,
                        stock=counted_words("cards", stock),
                        need=need,
                        count=step.count,
                    )
                )
                stock += step.count
            elif step.action == "draw":
                notes.append(
                    ngettext(
                        "%(name)s draws %(num)s card from the stock.",
                        "%(name)s draws %(num)s cards from the stock.",
                        step.count,
                        name=who,
                    )
                )
                stock -= step.count
            elif step.action == "take":
                notes.append(
                    ngettext(
                        "%(name)s takes %(num)s card from the hand of %(giver)s.",
                        "%(name)s takes %(num)s cards from the hand of %(giver)s.",
                        step.count,
                        name=who,
                        giver=names[step.source],
                    )
                )
        if any(step.action == "take" for step in flow.steps):
            notes.append(
                _(
                    "The cards are taken blind: the giver holds their hand face down "
                    "and the taker draws without seeing it."
                )
            )
        if d != 1:
            if not flow.steps:
                notes.append(_("Everyone holds 12: nothing to exchange."))
            elif d in (2, 4):
                notes.append(
                    ngettext(
                        "Everyone now holds 12; the stock holds %(num)s card.",
                        "Everyone now holds 12; the stock holds %(num)s cards.",
                        flow.stock,
                    )
                )
            else:
                notes.append(_("Everyone now holds 12."))
        return notes

    # --- the fold ------------------------------------------------------------------
    def plan(self, state: Any) -> Plan:
        d, r = state["deal"], state["round"]
        rule = self.deals[d - 1]
        flow = self.card_flow(state)
        decl = state["declarations"]
        notes = [] if d == 1 else [self.declared_words(decl)]
        notes += self.flow_notes(state, flow)
        fields = []
        if d == 1:
            notes.append(
                _(
                    "Before play each player declares the deal of this round they "
                    "expect to win: an ace (deal 1), 2, 3 or 4 laid face down; turn "
                    "them up together."
                )
            )
            fields.append(
                Field(
                    "choice",
                    "declarations",
                    _("Declarations"),
                    help=_(
                        "The deal of this round each player expects to win. "
                        "Winning it outright is worth +10."
                    ),
                    choices=((1, ACE), (2, "2"), (3, "3"), (4, "4")),
                )
            )
        fields.append(Field("counts", "tricks", _("Tricks taken"), total=HAND, high=HAND))
        if rule.counted != "cards":
            fields.append(
                Field(
                    "counts",
                    rule.counted,
                    field_label(rule.counted),
                    help=_(
                        "Not more than 13, and not more than the cards each "
                        "player took (%(n)s a trick).",
                        n=self.n,
                    ),
                    high=SUIT_CARDS,
                )
            )
        title = _(
            "Deal %(number)s (round %(round)s, deal %(deal)s of 4): %(rule)s",
            number=state["played"] + 1,
            round=r,
            deal=d,
            rule=rule_words(rule),
        )
        return Plan(
            number=state["played"] + 1,
            dealer=state["dealer"],
            leader=self.leader(state),
            trump=rule.trump,
            title=title,
            notes=notes,
            fields=fields,
            dealt=d == 1,
            context={"round": r, "deal": d, "rule": rule, "declarations": decl, "flow": flow},
        )

    def declared_list(self, decl: list[int]) -> Text:
        """Each player's declaration: "Ala deal 1, Bartek deal 3, …"."""
        return join(
            ", ",
            [_("%(name)s deal %(deal)s", name=self.names[s], deal=decl[s]) for s in range(self.n)],
        )

    def declared_words(self, decl: list[int]) -> str:
        """The declarations as a deal page's note, a sentence of its own."""
        return _("Declarations: %(list)s", list=self.declared_list(decl))

    def check(self, entry: Any, plan: Plan) -> dict:
        entry = only_fields(entry, {"declarations", "tricks", *COUNTED_FIELDS}, self.deal_words)
        d = plan.context["deal"]
        rule: DealRule = plan.context["rule"]
        n = self.n
        out: dict = {}
        if d == 1:
            if entry.get("declarations") is None:
                raise EntryError(
                    _("this deal opens a round: say which deal (1 to 4) each player declared"),
                    "declarations",
                )
            out["declarations"] = self.check_declarations(entry["declarations"])
        elif "declarations" in entry:
            raise EntryError(
                _(
                    "declarations are made once a round, with its first deal; "
                    "this is deal %(deal)s of the round",
                    deal=d,
                ),
                "declarations",
            )
        for name in COUNTED_FIELDS:
            if name in entry and name != rule.counted:
                raise EntryError(
                    _(
                        "%(field)s are not counted in this deal (%(rule)s)",
                        field=counted_noun(name),
                        rule=rule_words(rule),
                    ),
                    name,
                )
        if entry.get("tricks") is None:
            raise EntryError(_("say how many tricks each player took"), "tricks")
        out["tricks"] = counts(entry["tricks"], n, "tricks", HAND, pgettext("taken", "tricks"))
        if rule.counted != "cards":
            name = rule.counted
            if entry.get(name) is None:
                raise EntryError(
                    _("say how many %(field)s each player took", field=counted_noun(name)), name
                )
            got = counts(entry[name], n, name, None, taken_noun(name))
            for s in range(n):
                cards = out["tricks"][s] * n
                if got[s] and not cards:
                    raise EntryError(
                        took_no_trick(self.names[s], counted_words(name, got[s])), name
                    )
                if got[s] > cards:
                    raise EntryError(
                        _(
                            "%(name)s took %(tricks)s (%(cards)s): too few for %(counted)s",
                            name=self.names[s],
                            tricks=count_words("tricks", out["tricks"][s], took=True),
                            cards=count_words("cards", cards, took=True),
                            counted=counted_words(name, got[s]),
                        ),
                        name,
                    )
            if sum(got) > SUIT_CARDS:
                raise EntryError(
                    _(
                        "%(field)s add up to %(got)s, but the pack has only 13",
                        field=counted_noun(name),
                        got=sum(got),
                    ),
                    name,
                )
            out[name] = got
        return out

    def check_declarations(self, value: Any) -> list[int]:
        n = self.n
        if not isinstance(value, list) or len(value) != n:
            raise EntryError(
                _("declarations needs one deal (1 to 4) per player (%(n)s)", n=n), "declarations"
            )
        for s, v in enumerate(value):
            whole(v, _("%(name)s's declaration", name=self.names[s]), 1, 4)
        return list(value)

    def base_points(self, entry: dict, rule: DealRule) -> tuple[list[int], list[int]]:
        """The cards counted per seat, and what they score (before the bonus)."""
        if rule.counted == "cards":
            taken = [t * self.n for t in entry["tricks"]]
        else:
            taken = list(entry[rule.counted])
        return taken, [k * rule.points for k in taken]

    def outright(
        self, entry: dict, plan: Plan
    ) -> tuple[list[int], list[int], list[int], int | None]:
        """A deal's reckoning before the bonus: the round's declarations, the
        cards counted and their points per seat, and who won the deal outright
        (strictly the highest points; None for a tie)."""
        ctx = plan.context
        decl = entry["declarations"] if ctx["deal"] == 1 else ctx["declarations"]
        taken, base = self.base_points(entry, ctx["rule"])
        best = self.best(base)
        return decl, taken, base, (best[0] if len(best) == 1 else None)

    def figures(self, rows: list) -> list[Figure]:
        """Declarations won: the deal a player declared, won outright (+10)."""

        def won(entry: dict, plan: Plan) -> list[int]:
            decl, _taken, _base, winner = self.outright(entry, plan)
            return [winner] if winner is not None and decl[winner] == plan.context["deal"] else []

        return [tally(self.n, rows, "declarations_won", _("Declarations won"), won)]

    def score(self, entry: dict, plan: Plan) -> Score:
        ctx = plan.context
        rule: DealRule = ctx["rule"]
        d = ctx["deal"]
        decl, taken, base, winner = self.outright(entry, plan)
        best = self.best(base)
        points = list(base)
        lines = []
        for s in range(self.n):
            words = counted_words(rule.counted, taken[s])
            if not taken[s]:
                words = NOTHING  # "nothing → 0", as every game's score line says it
            elif rule.counted == "cards":
                words = (
                    ngettext("%(num)s trick", "%(num)s tricks", entry["tricks"][s]) + ", " + words
                )
            line = join(" → ", [words, base[s]])  # a number drawn as the page writes it
            if decl[s] == d:
                if s == winner:
                    points[s] += BONUS
                    line = join(", ", [line, join(" → ", [_("declared and won +10"), points[s]])])
                elif s in best:
                    line += ", " + _("declared, tied: no bonus")
                else:
                    line += ", " + _("declared, not won")
            lines.append(line)
        if winner is not None:
            note = _("%(name)s won the deal", name=self.names[winner])
            if decl[winner] == d:
                note += ", " + _("as declared: +10")
        else:
            note = _(
                "%(names)s tied for the deal: no winner",
                names=and_list(self.names[s] for s in best),
            )
        marks = ["✓" if s == winner else ("✗" if decl[s] == d else "") for s in range(self.n)]
        # TRANSLATORS: under a Metamorphosis deal's number: its round and its play in the
        # round ("R2·3": round 2, play 3), R the language's first letter of "round"
        tag = _("R%(round)s·%(deal)s", round=ctx["round"], deal=d)
        return Score(points, lines, note, tag=tag, marks=marks)

    def advance(self, state: Any, entry: dict, plan: Plan) -> Any:
        flow: Flow = plan.context["flow"]
        leaders = state["leaders"] + [plan.leader]
        new = {
            **state,
            "played": state["played"] + 1,
            "hands": [t * self.n for t in entry["tricks"]],
            "stock": flow.stock,
            "discards": flow.discards,
            "leaders": leaders,
        }
        if state["deal"] == 1:
            new["declarations"] = list(entry["declarations"])
        if state["deal"] < 4:
            new["deal"] = state["deal"] + 1
            return new
        # the round is over: the next is dealt by the player who led its deal 1, or,
        # when the deal never moves (seed001), by the game's first dealer again
        dealer = leaders[0] if VARIANTS[self.variant].deal_moves else state["dealer"]
        return {
            **new,
            "round": state["round"] + 1,
            "deal": 1,
            "dealer": dealer,
            "leaders": [],
            "declarations": None,
        }

    # --- the engine: 12 tricks from hands of 12, the deal table's trump; between
    # deals the cards move as card_flow says ---------------------------------------
    def engine_pack(self) -> tuple[str, ...]:
        return FULL_PACK

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        rule: DealRule = plan.context["rule"]
        costs, trick_cost = {}, 0
        if rule.counted == "cards":
            trick_cost = -rule.points * self.n  # a trick is n cards
        else:
            suit = COUNTED_SUITS[rule.counted]
            costs = {c: -rule.points for c in FULL_PACK if c[-1] == suit}
        return Setup(
            pack=FULL_PACK,
            tricks=HAND,
            leader=plan.leader,
            trump=rule.trump,
            costs=costs,
            trick_cost=trick_cost,
        )

    def engine_moves(self, plan: Plan) -> list:
        return list(plan.context["flow"].steps)

    def engine_decision(self, plan: Plan, given: dict) -> Decision | None:
        """Each player's declaration, on the deal that opens a round."""
        made = given.get("declarations", [])
        if plan.context["deal"] != 1 or not isinstance(made, list) or len(made) >= self.n:
            return None
        return Decision("declarations", len(made), DECLARABLE)

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        rule: DealRule = plan.context["rule"]
        entry: dict = {"tricks": captured.tricks()}
        if rule.counted != "cards":
            suit = COUNTED_SUITS[rule.counted]
            entry[rule.counted] = [sum(c[-1] == suit for c in cards) for cards in captured.taken]
        return entry

    def outcome(self, totals: list[int], played: int) -> Outcome:
        if played < 4 * self.rounds:
            return Outcome(False)
        return Outcome(True, self.best(totals))

    def chart_axis(self, plan: Plan, entry: dict) -> tuple[str, str]:
        """Each round's first deal starts a group; a deal's label is what a card
        counted is worth: "−4♣", "+3♥", "−1" (every card), "+4♠"."""
        ctx = plan.context
        rule: DealRule = ctx["rule"]
        group = _("Round %(n)s", n=ctx["round"]) if ctx["deal"] == 1 else ""
        suit = COUNTED_SUITS.get(rule.counted)
        return group, join("", [signed(rule.points), SYMBOLS[suit] if suit else ""])

    def describe(self, entry: dict, plan: Plan) -> str:
        rule: DealRule = plan.context["rule"]
        parts = []
        for s in range(self.n):
            words = [ngettext("%(num)s trick", "%(num)s tricks", entry["tricks"][s])]
            if rule.counted == "cards":
                words.append(counted_words("cards", entry["tricks"][s] * self.n))
            else:
                words.append(counted_words(rule.counted, entry[rule.counted][s]))
            parts.append(self.took(s, join(", ", words)))
        text = join("; ", parts)
        if "declarations" in entry:
            # a part of the line after "; ": lower-case, not the deal page's note
            text += "; " + _(
                "declarations: %(list)s", list=self.declared_list(entry["declarations"])
            )
        return text
