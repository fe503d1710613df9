"""Variety (Robert Abbott, 1963): eight kinds of deal, chosen by an auction,
two against two with partners that change every deal (RULES.md, seed 003;
the kyhote.com transcription for the variant).

The eight deal types are data (:data:`TYPES`); the kyhote.com variant is the
same table with two rows changed (:data:`VARIANTS`). The auction is a plain
function, :func:`auction`, so the entry form and the tests can follow it call
by call.

The table enters what the attackers took; the defenders took the rest. The
engine (``scorer.engine``) plays and checks a deal from the auction (or the
type and attackers): the type's trump, the lowest card winning in type 6, the
first namer's left leading; it counts what the attackers took with
:data:`COUNTED_CARDS`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..cards import FULL_PACK, RED, SYMBOLS
from ..i18n import L_, _, join, ngettext, pgettext
from .base import (
    DEAL_WORDS,
    ENTRY_LABELS,
    EntryError,
    Field,
    Figure,
    Game,
    Option,
    Outcome,
    Plan,
    Score,
    count_words,
    only_fields,
    seat,
    tally,
    whole,
)
from .tricks import Captured, Decision, Setup

PLAYERS = 4
TRICKS = 13
BONUS = 10  # to each defender when the attackers do not score more
MAJORITY = 12  # type 1: to the side that took more tricks

# What a side can take, and how many of each there are in the pack.
IN_PACK = {
    "tricks": TRICKS,
    "spades": 13,
    "red": 26,
    "black": 26,
    "black_tj": 4,
    "red_tj": 4,
    "clubs": 13,
}
# The counts the table may enter (all for the attackers).
COUNT_FIELDS = ("tricks", "spades", "red", "black_tj", "red_tj", "clubs")
# The cards each count is made of (``tricks`` counts tricks).
TENS_JACKS = ("10", "J")
COUNTED_CARDS = {
    "spades": lambda c: c[-1] == "S",
    "red": lambda c: c[-1] in RED,
    "black": lambda c: c[-1] not in RED,
    "black_tj": lambda c: c[-1] not in RED and c[:-1] in TENS_JACKS,
    "red_tj": lambda c: c[-1] in RED and c[:-1] in TENS_JACKS,
    "clubs": lambda c: c[-1] == "C",
}
LABELS = {
    "tricks": L_("the attackers' tricks"),
    "spades": L_("the attackers' spades"),
    "red": L_("the attackers' red cards"),
    "black_tj": L_("the attackers' black tens and jacks"),
    "red_tj": L_("the attackers' red tens and jacks"),
    "clubs": L_("the attackers' clubs"),
}


@dataclass(frozen=True)
class DealType:
    """One row of the table of deal types.

    ``fields``: what the table enters for the attackers (besides an optional
    ``tricks``). ``values``: points for each thing a side took (``black`` in
    type 4 is 4 × tricks - red). ``majority``: points to the side that took
    more tricks (type 1).
    """

    number: int
    trump: str | None  # a suit letter, or None: no trumps
    counted: Any  # what is counted, in words
    words: Any  # the scoring in a few words
    fields: tuple[str, ...]
    values: dict
    majority: int = 0
    lowest_wins: bool = False

    @property
    def shown(self) -> tuple[str, ...]:
        """The quantities that score, in the order a score line lists them."""
        if self.majority:
            return ("tricks",)
        return tuple(self.values)


TYPES: dict[int, DealType] = {
    t.number: t
    for t in (
        DealType(
            1,
            None,
            L_("tricks"),
            L_("+12 to the side that took more tricks"),
            ("tricks",),
            {},
            majority=MAJORITY,
        ),
        DealType(2, "C", L_("tricks"), L_("+2 a trick"), ("tricks",), {"tricks": 2}),
        DealType(3, "H", L_("spades"), L_("+2 for each spade taken"), ("spades",), {"spades": 2}),
        DealType(
            4,
            "D",
            L_("red and black cards"),
            L_("+1 for each red card, −1 for each black card taken"),
            ("tricks", "red"),
            {"red": 1, "black": -1},
        ),
        DealType(
            5,
            "S",
            L_("black and red tens and jacks"),
            L_("+5 for each black 10 and J, −5 for each red 10 and J taken"),
            ("black_tj", "red_tj"),
            {"black_tj": 5, "red_tj": -5},
        ),
        DealType(
            6,
            "C",
            L_("red cards"),
            L_("+1 for each red card taken; the lowest card wins the trick"),
            ("red",),
            {"red": 1},
            lowest_wins=True,
        ),
        DealType(7, "S", L_("clubs"), L_("−2 for each club taken"), ("clubs",), {"clubs": -2}),
        DealType(8, None, L_("tricks"), L_("−2 a trick"), ("tricks",), {"tricks": -2}),
    )
}

VARIANTS: dict[str, dict[int, DealType]] = {
    "standard": TYPES,
    "kyhote": {
        **TYPES,
        2: replace(TYPES[2], words=L_("+1 a trick"), values={"tricks": 1}),
        7: replace(TYPES[7], words=L_("−1 for each club taken"), values={"clubs": -1}),
    },
}


def trump_words(trump: str | None) -> str:
    return _("%(suit)s trumps", suit=SYMBOLS[trump]) if trump else _("no trumps")


# --- the auction ---------------------------------------------------------------


def caller(dealer: int, j: int) -> int:
    """The seat that makes call ``j`` (from 0): the dealer's left calls first."""
    return (dealer + 1 + j) % PLAYERS


@dataclass(frozen=True)
class AuctionState:
    """Where an auction stands after some calls.

    While it runs, ``turn`` is the seat to call next and ``barred`` the types
    that seat may not name (its own earlier calls). Once ended, ``turn`` is
    None and ``contract``, ``attackers`` (first namer, then the repeater),
    ``defenders`` and ``leader`` (the first namer's left) are set.
    """

    dealer: int
    calls: tuple[int, ...]
    ended: bool
    turn: int | None
    barred: tuple[int, ...]
    called: tuple[tuple[int, ...], ...]  # per seat, its calls in this auction, in order
    contract: int | None = None
    attackers: tuple[int, int] | None = None
    defenders: tuple[int, int] | None = None
    leader: int | None = None


def _who(s: int, names: list[str] | None) -> str:
    return names[s] if names else _("seat %(s)s", s=s)


def auction(dealer: int, calls: Any, names: list[str] | None = None) -> AuctionState:
    """Follow the calls (deal type numbers, in order) from the dealer's left.

    EntryError, in table words, for a call that is not a type 1–8, a player
    naming their own earlier call again, or a call after the auction ended.
    An auction that has not ended yet is not an error here: see ``ended``.
    """
    if not isinstance(calls, (list, tuple)):
        raise EntryError(_("bids must list the calls in order, such as [2, 3, 6, 2]"), "bids")
    called: list[list[int]] = [[] for _s in range(PLAYERS)]
    first_namer: dict[int, int] = {}
    for j, call in enumerate(calls):
        who = caller(dealer, j)
        if isinstance(call, bool) or not isinstance(call, int) or not 1 <= call <= len(TYPES):
            raise EntryError(
                _(
                    "call %(j)s (%(name)s) must be a deal type from 1 to 8",
                    j=j + 1,
                    name=_who(who, names),
                ),
                "bids",
            )
        if call in called[who]:
            raise EntryError(
                _(
                    "call %(j)s: %(name)s already named type %(type)s in this "
                    "auction and may not name it again",
                    j=j + 1,
                    name=_who(who, names),
                    type=call,
                ),
                "bids",
            )
        if call in first_namer:
            if j + 1 < len(calls):
                raise EntryError(
                    _(
                        "the auction ended at call %(j)s, when %(name)s named type "
                        "%(type)s again; call %(next)s is one too many",
                        j=j + 1,
                        name=_who(who, names),
                        type=call,
                        next=j + 2,
                    ),
                    "bids",
                )
            called[who].append(call)
            first = first_namer[call]
            defenders = tuple(s for s in range(PLAYERS) if s not in (first, who))
            return AuctionState(
                dealer,
                tuple(calls),
                True,
                None,
                (),
                tuple(tuple(c) for c in called),
                call,
                (first, who),
                defenders,
                (first + 1) % PLAYERS,
            )  # type: ignore[arg-type]
        first_namer[call] = who
        called[who].append(call)
    turn = caller(dealer, len(calls))
    return AuctionState(
        dealer,
        tuple(calls),
        False,
        turn,
        tuple(sorted(called[turn])),
        tuple(tuple(c) for c in called),
    )


# --- the game --------------------------------------------------------------------


class Variety(Game):
    key = "variety"
    name = L_("Variety")
    player_counts = (4,)
    entry_labels = {**ENTRY_LABELS, **LABELS}
    # the sheet CSV's note column holds each deal's type and trumps ("2 ♣"): "type"
    deal_words = {**DEAL_WORDS, "note": pgettext("variety", "note")}
    players_option = False
    decisions = ("bids", "contract", "attackers")
    higher_wins = True
    source = L_(
        "Robert Abbott (1963), as Mendelev's Encyclopedia of Games (Russian) gives it; "
        "the variant: kyhote.com"
    )
    mark_legend = L_("⚔ attacked in that deal")
    options = (
        Option(
            "deals",
            "int",
            8,
            L_("Number of deals"),
            L_("How many deals: 8 (each player deals twice), 4, or another multiple of 4."),
            source=L_("Mendelev's encyclopedia: 8"),
            low=4,
            high=1000,
        ),
        Option(
            "tie",
            "choice",
            "defenders",
            L_("A tie"),
            L_(
                "When the attackers score exactly as much as the defenders: the defenders "
                "get their +10 each as if the attackers had failed, or nobody gets a bonus."
            ),
            source=L_("kyhote.com (a tie is a failure); Mendelev's encyclopedia does not say"),
            choices=("defenders", "nobody"),
            choice_labels=(L_("Defenders +10 each"), L_("No bonus")),
        ),
        Option(
            "variant",
            "choice",
            "standard",
            L_("Scoring table"),
            L_("kyhote.com scores type 2 at +1 a trick and type 7 at −1 a club."),
            source=L_("Mendelev's encyclopedia; kyhote.com"),
            choices=("standard", "kyhote"),
            choice_labels=(
                L_("Mendelev's encyclopedia"),
                L_("kyhote.com: type 2 +1 a trick, type 7 −1 a club"),
            ),
        ),
    )

    @classmethod
    def check_options(cls, opts: dict) -> None:
        if opts["deals"] % PLAYERS:
            raise EntryError(
                _(
                    "the number of deals must be 4, 8 or another multiple of 4, so "
                    "that everyone deals equally often"
                ),
                "deals",
            )

    @property
    def types(self) -> dict[int, DealType]:
        return VARIANTS[self.opts["variant"]]

    # --- the fold ---------------------------------------------------------
    def start(self, first_dealer: int) -> Any:
        return {"first_dealer": first_dealer, "played": 0, "called": [[] for _s in range(self.n)]}

    def plan(self, state: Any) -> Plan:
        dealer = self.dealer(state)
        number = state["played"] + 1
        first = caller(dealer, 0)
        notes = [
            _(
                "%(name)s calls first; then each player in turn to the left names a deal type "
                "(1 to 8).",
                name=self.names[first],
            ),
            _(
                "No player may name the same type twice. The first type named again, by "
                "another player, is played: whoever named it first and whoever repeated it "
                "attack; their left-hand neighbour, the first namer's, leads."
            ),
        ]
        context = {
            "first_caller": first,
            "order": [caller(dealer, j) for j in range(PLAYERS)],
            "types": [
                {
                    "number": t.number,
                    "trump": t.trump,
                    "counted": t.counted,
                    "words": t.words,
                    "fields": t.fields,
                }
                for t in self.types.values()
            ],
            "called": self.called(state),
        }
        return Plan(
            number=number,
            dealer=dealer,
            leader=None,
            leader_text=_("The first namer's left-hand neighbour leads"),
            title=_("Deal %(n)s", n=number),
            notes=notes,
            fields=[],
            context=context,
        )

    def check(self, entry: Any, plan: Plan) -> dict:
        entry = only_fields(entry, {"bids", "contract", "attackers", *COUNT_FIELDS})
        out: dict = {}
        contract, attackers = self._contract(entry, plan, out)
        dt = self.types[contract]
        out["contract"] = contract
        out["attackers"] = list(attackers)
        for key in COUNT_FIELDS:
            if key in entry and key != "tricks" and key not in dt.fields:
                raise EntryError(
                    _(
                        "type %(n)s counts %(what)s; %(field)s has no place in it",
                        n=contract,
                        what=dt.counted,
                        field=key,
                    ),
                    key,
                )
        for key in ("tricks",) + tuple(f for f in dt.fields if f != "tricks"):
            if key in entry:
                out[key] = self._count(entry[key], key)
            elif key in dt.fields:
                raise EntryError(
                    _(
                        "type %(n)s: say how many %(what)s the attackers took",
                        n=contract,
                        what=_count_noun(key),
                    ),
                    key,
                )
        self._check_fit(dt, out)
        return out

    def _contract(self, entry: dict, plan: Plan, out: dict) -> tuple[int, tuple[int, int]]:
        """The type played and the attackers, from ``bids`` or ``contract`` + ``attackers``."""
        contract = attackers = None
        if "contract" in entry:
            contract = whole(entry["contract"], "contract", 1, len(TYPES))
        if "attackers" in entry:
            raw = entry["attackers"]
            if not isinstance(raw, list) or len(raw) != 2:
                raise EntryError(
                    _(
                        "attackers must be two players: first whoever named the type "
                        "first, then whoever repeated it"
                    ),
                    "attackers",
                )
            attackers = (seat(raw[0], self.n, "attackers"), seat(raw[1], self.n, "attackers"))
            if attackers[0] == attackers[1]:
                raise EntryError(_("the two attackers must be two different players"), "attackers")
        if entry.get("bids") == [] and (contract is not None or attackers is not None):
            entry = {k: v for k, v in entry.items() if k != "bids"}  # no calls: not tracked
        if "bids" in entry:
            state = auction(plan.dealer, entry["bids"], self.names)
            if not state.ended:
                turn = self.names[state.turn] if state.turn is not None else ""
                raise EntryError(
                    _(
                        "the auction has not ended: no type has been named twice "
                        "yet (%(name)s calls next)",
                        name=turn,
                    ),
                    "bids",
                )
            if contract is not None and contract != state.contract:
                raise EntryError(
                    _(
                        "the calls choose type %(bids)s, but the type played is %(c)s",
                        bids=state.contract,
                        c=contract,
                    ),
                    "contract",
                )
            if attackers is not None and attackers != state.attackers:
                raise EntryError(
                    _(
                        "the calls make %(a)s the attackers, but the attackers given are %(b)s",
                        a=self._pair(state.attackers),
                        b=self._pair(attackers),
                    ),
                    "attackers",
                )
            out["bids"] = list(state.calls)
            return state.contract, state.attackers  # type: ignore[return-value]
        if contract is None and attackers is None:
            raise EntryError(_("say the calls, or the type played and the attackers"), "bids")
        if contract is None:
            raise EntryError(_("say which type was played (1 to 8)"), "contract")
        if attackers is None:
            raise EntryError(
                _("say who attacked: first whoever named the type first, then whoever repeated it"),
                "attackers",
            )
        return contract, attackers

    def _count(self, value: Any, key: str) -> int:
        try:
            return whole(value, LABELS[key], 0, IN_PACK[key])
        except EntryError as e:
            raise EntryError(e.message, key) from None

    def _check_fit(self, dt: DealType, out: dict) -> None:
        """Refuse counts that the cards each side took cannot hold."""
        if "tricks" not in out:
            return
        tricks = out["tricks"]
        if dt.number == 4:
            red = out["red"]
            if red > 4 * tricks:
                raise EntryError(
                    ngettext(
                        "the attackers took %(tricks)s, %(cards)s card, so not %(red)s red ones",
                        "the attackers took %(tricks)s, %(cards)s cards, so not %(red)s red ones",
                        4 * tricks,
                        tricks=count_words("tricks", tricks),
                        cards=4 * tricks,
                        red=red,
                    ),
                    "red",
                )
            if 4 * tricks - red > IN_PACK["black"]:
                raise EntryError(
                    ngettext(
                        "the attackers took %(tricks)s, %(cards)s card: with %(red)s red "
                        "that makes %(black)s black, but there are only 26",
                        "the attackers took %(tricks)s, %(cards)s cards: with %(red)s red "
                        "that makes %(black)s black, but there are only 26",
                        4 * tricks,
                        tricks=count_words("tricks", tricks),
                        cards=4 * tricks,
                        red=red,
                        black=4 * tricks - red,
                    ),
                    "red",
                )
            return
        cards = [f for f in dt.fields if f != "tricks"]
        if not cards:
            return
        mine = {f: out[f] for f in cards}
        theirs = {f: IN_PACK[f] - out[f] for f in cards}
        for side, got, took in (
            (_("the attackers"), mine, tricks),
            (_("the defenders"), theirs, TRICKS - tricks),
        ):
            if sum(got.values()) and not took:
                raise EntryError(
                    _(
                        "%(side)s took no trick, so cannot have %(what)s",
                        side=side,
                        what=_side_words(dt, got),
                    ),
                    cards[0],
                )
            if sum(got.values()) > 4 * took:
                raise EntryError(
                    ngettext(
                        "%(side)s took %(tricks)s, %(cards)s card: too few for %(what)s",
                        "%(side)s took %(tricks)s, %(cards)s cards: too few for %(what)s",
                        4 * took,
                        side=side,
                        tricks=count_words("tricks", took, took=True),
                        cards=4 * took,
                        what=_side_words(dt, got),
                    ),
                    cards[0],
                )

    # --- the entry form ---------------------------------------------------------
    def entry_fields(self, plan: Plan, partial: dict) -> list[Field]:
        """The auction call by call; or, untracked, the type and the attackers;
        then only the counts the type needs, for the attackers."""
        bids = partial.get("bids") or []
        state = auction(plan.dealer, bids, self.names)
        choices = tuple(
            (
                t.number,
                _(
                    "%(n)s · %(trump)s · %(words)s",
                    n=t.number,
                    trump=trump_words(t.trump),
                    words=t.words,
                ),
            )
            for t in self.types.values()
        )
        if state.ended:
            info = (self.result_words(state.contract, state.attackers),)
        else:
            info = (_("%(name)s calls", name=self.names[state.turn]),)
        if bids:
            info = (
                _(
                    "Calls: %(calls)s",
                    calls=", ".join(
                        f"{self.names[caller(plan.dealer, j)]} {c}" for j, c in enumerate(bids)
                    ),
                ),
            ) + info
        fields = [
            Field(
                "calls",
                "bids",
                _("The auction"),
                choices=choices,
                disabled=state.barred,
                info=info,
                done=state.ended,
            )
        ]
        contract, attackers = state.contract, state.attackers
        if not bids:
            fields += [
                Field(
                    "choice",
                    "contract",
                    _("Auction not tracked? The type played"),
                    choices=tuple((t.number, str(t.number)) for t in self.types.values()),
                    per_seat=False,
                    optional=True,
                    named=_("the type played"),
                ),
                Field(
                    "seat_pair",
                    "attackers",
                    _("The attackers: who named it first, then who repeated it"),
                    optional=True,
                    named=_("the attackers"),
                ),
            ]
            contract, attackers = partial.get("contract"), partial.get("attackers")
            seats = range(self.n)
            if (
                contract in self.types
                and isinstance(attackers, list)
                and len(attackers) == 2
                and all(type(a) is int and a in seats for a in attackers)
                and attackers[0] != attackers[1]
            ):
                fields[0] = Field(
                    "calls",
                    "bids",
                    _("The auction"),
                    choices=choices,
                    info=(self.result_words(contract, attackers),),
                    done=True,
                )
            else:
                contract = None
        if contract:
            dt = self.types[contract]
            for key in dt.fields:
                fields.append(
                    Field(
                        "number",
                        key,
                        str(LABELS[key]).capitalize(),
                        help=_("The defenders took the rest."),
                        total=IN_PACK[key] if key != "red" or dt.number != 4 else None,
                        high=IN_PACK[key],
                    )
                )
        return fields

    def result_words(self, contract: int, attackers: Any) -> str:
        dt = self.types[contract]
        first, second = attackers
        defenders = [s for s in range(self.n) if s not in attackers]
        return _(
            "Type %(n)s, %(trump)s, %(words)s. %(att)s attack, %(dfn)s defend; %(leader)s leads.",
            n=dt.number,
            trump=trump_words(dt.trump),
            words=dt.words,
            att=self._pair((first, second)),
            dfn=self._pair(defenders),
            leader=self.names[(first + 1) % self.n],
        )

    def summary(self, state: Any) -> list[str]:
        called = self.called(state)
        if not any(called):
            return []
        return [
            _(
                "Types called so far: %(list)s",
                list=" · ".join(
                    f"{self.names[s]} {', '.join(map(str, c)) or '—'}" for s, c in enumerate(called)
                ),
            )
        ]

    # --- scoring -------------------------------------------------------------
    def counts(self, entry: dict) -> tuple[dict, dict]:
        """What the attackers and the defenders took, of what the type counts."""
        dt = self.types[entry["contract"]]
        mine = {f: entry[f] for f in COUNT_FIELDS if f in entry}
        if dt.number == 4:
            mine["black"] = 4 * entry["tricks"] - entry["red"]
        theirs = {f: IN_PACK[f] - v for f, v in mine.items()}
        return mine, theirs

    def side_points(self, dt: DealType, took: dict) -> int:
        points = sum(value * took[what] for what, value in dt.values.items())
        if dt.majority and 2 * took["tricks"] > TRICKS:
            points += dt.majority
        return points

    def sides(self, entry: dict) -> tuple[int, int]:
        """The attackers' points and the defenders' (before any bonus)."""
        dt = self.types[entry["contract"]]
        mine, theirs = self.counts(entry)
        return self.side_points(dt, mine), self.side_points(dt, theirs)

    def figures(self, rows: list) -> list[Figure]:
        """Contracts made as attacker: the attackers scored more than the defenders."""

        def made(entry: dict, plan: Plan) -> list[int]:
            att, dfn = self.sides(entry)
            return list(entry["attackers"]) if att > dfn else []

        return [tally(self.n, rows, "contracts_made", _("Contracts made as attacker"), made)]

    def score(self, entry: dict, plan: Plan) -> Score:
        dt = self.types[entry["contract"]]
        attackers = tuple(entry["attackers"])
        defenders = tuple(s for s in range(self.n) if s not in attackers)
        mine, theirs = self.counts(entry)
        att, dfn = self.sides(entry)
        tie = att == dfn
        bonus = att < dfn or (tie and self.opts["tie"] == "defenders")
        points = [att if s in attackers else dfn + (BONUS if bonus else 0) for s in range(self.n)]
        lines = []
        for s in range(self.n):
            if s in attackers:
                lines.append(_("attacker: %(took)s → %(p)s", took=_side_words(dt, mine), p=att))
            elif bonus:
                lines.append(
                    _(
                        "defender: %(took)s → %(p)s, +10 → %(total)s",
                        took=_side_words(dt, theirs),
                        p=dfn,
                        total=points[s],
                    )
                )
            else:
                lines.append(_("defender: %(took)s → %(p)s", took=_side_words(dt, theirs), p=dfn))
        note = _(
            "Type %(n)s, %(trump)s: %(att)s %(a)s, %(dfn)s %(d)s.",
            n=dt.number,
            trump=trump_words(dt.trump),
            att=self._pair(attackers),
            a=att,
            dfn=self._pair(defenders),
            d=dfn,
        )
        if tie and bonus:
            note += " " + _("A tie counts as the attackers' failure: the defenders get +10 each.")
        elif tie:
            note += " " + _("A tie: no bonus.")
        elif bonus:
            note += " " + _("The attackers failed: the defenders get +10 each.")
        return Score(
            points,
            lines,
            note,
            tag=self.tag(dt),
            marks=["⚔" if s in attackers else "" for s in range(self.n)],
        )

    def tag(self, dt: DealType) -> str:
        return f"{dt.number} " + (SYMBOLS[dt.trump] if dt.trump else _("NT"))

    # --- who called what ------------------------------------------------------
    def calls_by_seat(self, entry: dict, dealer: int) -> list[list[int]]:
        """Per seat, the types it named in this deal's auction. Without the calls,
        only what is known: both attackers named the type played."""
        if "bids" in entry:
            return [list(c) for c in auction(dealer, entry["bids"]).called]
        return [[entry["contract"]] if s in entry["attackers"] else [] for s in range(self.n)]

    def advance(self, state: Any, entry: dict, plan: Plan) -> Any:
        called = [
            sorted(set(before) | set(now))
            for before, now in zip(state["called"], self.calls_by_seat(entry, plan.dealer))
        ]
        return {**state, "played": state["played"] + 1, "called": called}

    def called(self, state: Any) -> list[list[int]]:
        """Per seat, the types that player has named so far in the match, sorted."""
        return [list(c) for c in state["called"]]

    # --- the engine: 13 tricks from 13 each; the type's trump, the lowest card wins
    # in type 6; the first namer's left leads ----------------------------------------
    def engine_pack(self) -> tuple[str, ...]:
        return FULL_PACK

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        contract, attackers = self._contract(dict(given), plan, {})
        dt = self.types[contract]
        costs: dict[str, int] = {}
        trick_cost = -1 if dt.majority else 0
        for what, value in dt.values.items():  # both sides score alike: harm = -value
            if what == "tricks":
                trick_cost -= value
                continue
            for c in FULL_PACK:
                if COUNTED_CARDS[what](c):
                    costs[c] = costs.get(c, 0) - value
        return Setup(
            pack=FULL_PACK,
            tricks=TRICKS,
            leader=(attackers[0] + 1) % PLAYERS,
            trump=dt.trump,
            lowest_wins=dt.lowest_wins,
            costs=costs,
            trick_cost=trick_cost,
        )

    @classmethod
    def contracts(cls) -> list[tuple[Any, str, str | None, bool]]:
        return [
            (
                t.number,
                _(
                    "%(n)s · %(trump)s · %(words)s",
                    n=t.number,
                    trump=trump_words(t.trump),
                    words=t.words,
                ),
                t.trump,
                t.lowest_wins,
            )
            for t in TYPES.values()
        ]

    def trick_setup(self, trump: str | None, lowest_wins: bool = False) -> Setup:
        """One trick judged without an auction: the trump and the rule as asked."""
        return Setup(
            pack=FULL_PACK, tricks=TRICKS, leader=None, trump=trump, lowest_wins=lowest_wins
        )

    def engine_decision(self, plan: Plan, given: dict) -> Decision | None:
        """The auction's calls one by one, unless the type and attackers are given."""
        if "bids" not in given and ("contract" in given or "attackers" in given):
            return None
        state = auction(plan.dealer, given.get("bids", []), self.names)
        if state.ended:
            return None
        return Decision("bids", state.turn, tuple(t for t in self.types if t not in state.barred))

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        """The attackers' tricks and the counts the type needs; the auction (or the
        type and attackers) stays as given."""
        contract, attackers = self._contract(dict(given), plan, {})
        took = [c for s in attackers for c in captured.taken[s]]
        entry = {"tricks": sum(captured.winners.count(s) for s in attackers)}
        for what in self.types[contract].fields:
            if what != "tricks":
                entry[what] = sum(1 for c in took if COUNTED_CARDS[what](c))
        return entry

    # --- the end ------------------------------------------------------------------
    def outcome(self, totals: list[int], played: int) -> Outcome:
        if played < self.opts["deals"]:
            return Outcome(False)
        return Outcome(True, self.best(totals))

    def chart_axis(self, plan: Plan, entry: dict) -> tuple[str, str]:
        """Each deal is labelled with its contract, as beside its number on the sheet."""
        return "", self.tag(self.types[entry["contract"]])

    def describe(self, entry: dict, plan: Plan) -> str:
        dt = self.types[entry["contract"]]
        attackers = entry["attackers"]
        defenders = [s for s in range(self.n) if s not in attackers]
        mine, _theirs = self.counts(entry)
        parts = []
        if "bids" in entry:
            parts.append(_("calls %(calls)s", calls=", ".join(str(c) for c in entry["bids"])))
        parts.append(_("type %(n)s, %(trump)s", n=dt.number, trump=trump_words(dt.trump)))
        parts.append(
            _(
                "%(att)s attack, %(dfn)s defend, %(leader)s leads",
                att=self._pair(attackers),
                dfn=self._pair(defenders),
                leader=self.names[(attackers[0] + 1) % self.n],
            )
        )
        took = _side_words(dt, mine)
        if "tricks" in entry and "tricks" not in dt.shown:
            took = count_words("tricks", entry["tricks"]) + ", " + took
        parts.append(_("the attackers took %(took)s", took=took))
        return join("; ", parts)

    def _pair(self, seats: Any) -> str:
        a, b = seats
        return _("%(a)s and %(b)s", a=self.names[a], b=self.names[b])


# --- words ---------------------------------------------------------------------------


def _count_noun(key: str) -> str:
    """What a type counts, as "say how many … the attackers took" asks it (the
    context "how many": Czech, Polish and Russian ask in the genitive)."""
    return {
        "tricks": pgettext("how many", "tricks"),
        "spades": pgettext("how many", "spades"),
        "red": pgettext("how many", "red cards"),
        "black_tj": pgettext("how many", "black tens and jacks"),
        "red_tj": pgettext("how many", "red tens and jacks"),
        "clubs": pgettext("how many", "clubs"),
    }[key]


def _side_words(dt: DealType, took: dict) -> str:
    """What a side took, of what the type counts: "7 tricks", "3 red, 5 black"."""
    words = []
    for what in dt.shown:
        k = took[what]
        if what == "tricks":
            words.append(count_words("tricks", k))
        elif what == "spades":
            words.append(ngettext("%(num)s spade", "%(num)s spades", k))
        elif what == "clubs":
            words.append(ngettext("%(num)s club", "%(num)s clubs", k))
        elif what == "red" and dt.number == 4:
            words.append(ngettext("%(num)s red", "%(num)s red", k))
        elif what == "black":
            words.append(ngettext("%(num)s black", "%(num)s black", k))
        elif what == "red":
            words.append(ngettext("%(num)s red card", "%(num)s red cards", k))
        elif what == "black_tj":
            words.append(ngettext("%(num)s black 10/J", "%(num)s black 10/J", k))
        elif what == "red_tj":
            words.append(ngettext("%(num)s red 10/J", "%(num)s red 10/J", k))
    if dt.number == 4 and dt.shown[-2:] == ("red", "black"):  # "14 red and 14 black"
        words[-2:] = [_("%(a)s and %(b)s", a=words[-2], b=words[-1])]
    return join(", ", words)
