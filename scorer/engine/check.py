"""A deal as played, trick by trick (docs/record.md): read it, check it, derive its entry.

Without ``hands`` each seat's hand is still known from the tricks: it is the
cards that seat plays from then on (all of them once every trick is in). So
one walk serves both forms: a card that breaks a rule while the seat holds a
card that proves it (held in the given hand, or played by that seat later) is
refused — a failure to follow, proved by a later card of the suit, is a
revoke. With a deal still in progress the same walk checks what is there and
says whose turn it is (:func:`progress`, for a trick-by-trick form).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import display, parse
from ..games.base import EntryError, Game, Plan
from ..games.tricks import Captured, Setup, TableState
from ..i18n import L_, _, filled, join, ngettext

PLAY_FIELDS = {"tricks", "hands"}


class PlayError(EntryError):
    def __init__(self, message: str):
        super().__init__(message, "play")


@dataclass
class Walk:
    """Where a recorded deal stands after its tricks are checked."""

    setup: Setup
    tricks: list[list[tuple[int, str]]]
    hands: list[list[str]] | None  # as given (after the pass), canonical
    winners: list[int] = field(default_factory=list)  # of each finished trick
    leader: int | None = None  # of the trick being played (or the next one)
    turn: int | None = None  # whose card is next; None once the deal is over
    legal: list[str] | None = None  # the cards ``turn`` may play, when hands are given
    complete: bool = False
    captured: Captured | None = None

    def record(self) -> dict:
        out: dict = {"tricks": [[[s, c] for s, c in trick] for trick in self.tricks]}
        if self.hands is not None:
            out["hands"] = [list(h) for h in self.hands]
        return out


# --- reading --------------------------------------------------------------------


def _card(value: Any) -> str | None:
    return parse(value) if isinstance(value, str) else None


def _shown(value: Any) -> str:
    c = _card(value)
    return display(c) if c else str(value)[:12]


def read(
    raw: Any, setup: Setup, n: int, complete: bool = True
) -> tuple[list[list[tuple[int, str]]], list[list[str]] | None]:
    """The tricks and hands of a ``play`` object, cards canonical; PlayError on shape,
    or for a deal laid out in rows (``Setup.layout``), which has no tricks to check."""
    if setup.layout:
        raise PlayError(
            _(
                "this deal is laid out in rows, not played in tricks: it cannot be checked "
                "trick by trick; enter who went out first and second"
            )
        )
    if not isinstance(raw, dict) or not isinstance(raw.get("tricks"), list):
        raise PlayError(
            _(
                "play must give the tricks: a list of tricks, each a list of "
                '[seat, card], such as [[0, "2C"], [1, "KC"], …]'
            )
        )
    extra = sorted(set(raw) - PLAY_FIELDS)
    if extra:
        raise PlayError(_("unknown field %(field)s in play", field=str(extra[0])[:20]))
    raw_tricks = raw["tricks"]
    want = setup.tricks
    if len(raw_tricks) > want or (complete and len(raw_tricks) < want):
        raise PlayError(
            _(
                "the tricks: %(got)s are given, where %(want)s are played",
                got=len(raw_tricks),
                want=want,
            )
        )
    tricks = []
    for k, raw_trick in enumerate(raw_tricks, start=1):
        last = k == len(raw_tricks)
        if not isinstance(raw_trick, list):
            raise PlayError(_("trick %(k)s must be a list of [seat, card]", k=k))
        if len(raw_trick) > n or (len(raw_trick) < n and (complete or not last)):
            raise PlayError(
                ngettext(
                    "trick %(k)s has %(got)s card, not %(n)s",
                    "trick %(k)s has %(got)s cards, not %(n)s",
                    len(raw_trick),
                    k=k,
                    got=len(raw_trick),
                    n=n,
                )
            )
        trick = []
        for item in raw_trick:
            if not isinstance(item, list) or len(item) != 2:
                raise PlayError(
                    _('trick %(k)s: each card is given as [seat, card], such as [0, "QS"]', k=k)
                )
            seat, card = item
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise PlayError(
                    _(
                        "trick %(k)s: %(value)s is not a seat (0 to %(last)s)",
                        k=k,
                        value=str(seat)[:12],
                        last=n - 1,
                    )
                )
            c = _card(card)
            if c is None:
                raise PlayError(
                    _("trick %(k)s: %(value)s is not a card", k=k, value=str(card)[:12])
                )
            trick.append((seat, c))
        tricks.append(trick)
    hands = None
    if raw.get("hands") is not None:
        hands = _read_hands(raw["hands"], setup, n)
    return tricks, hands


def _read_hands(raw: Any, setup: Setup, n: int) -> list[list[str]]:
    if not isinstance(raw, list) or len(raw) != n or not all(isinstance(h, list) for h in raw):
        raise PlayError(_("hands needs one list of cards per player (%(n)s)", n=n))
    pack = set(setup.pack)
    holder: dict[str, int] = {}
    hands = []
    for s, raw_hand in enumerate(raw):
        if len(raw_hand) != setup.tricks:
            raise PlayError(
                ngettext(
                    "hand %(seat)s has %(got)s card, but %(want)s each are played",
                    "hand %(seat)s has %(got)s cards, but %(want)s each are played",
                    len(raw_hand),
                    seat=s,
                    got=len(raw_hand),
                    want=setup.tricks,
                )
            )
        hand = []
        for value in raw_hand:
            c = _card(value)
            if c is None:
                raise PlayError(
                    _("hand %(seat)s: %(value)s is not a card", seat=s, value=str(value)[:12])
                )
            if c not in pack:
                raise PlayError(
                    _("hand %(seat)s: %(card)s is not in this game's pack", seat=s, card=display(c))
                )
            if c == setup.turned_up:
                raise PlayError(
                    _("%(card)s was turned up, so it cannot be in a hand", card=display(c))
                )
            if c in holder:
                raise PlayError(
                    _(
                        "%(card)s is in two hands (%(a)s and %(b)s)",
                        card=display(c),
                        a=holder[c],
                        b=s,
                    )
                )
            holder[c] = s
            hand.append(c)
        hands.append(hand)
    return hands


# --- checking ----------------------------------------------------------------------


def walk(
    rules: Game,
    setup: Setup,
    tricks: list,
    hands: list[list[str]] | None,
    complete: bool = True,
    out: Walk | None = None,
) -> Walk:
    """Check the tricks card by card; PlayError names the first thing that cannot be.

    ``out`` is filled in as the walk goes, so a caller that catches the error
    still sees how far the deal got."""
    n = rules.n
    names = rules.names
    w = out or Walk(setup, tricks, hands)
    played_in: dict[str, int] = {}  # card -> trick number (from 1)
    pack = set(setup.pack)
    for k, trick in enumerate(tricks, start=1):
        for seat, c in trick:
            if c not in pack:
                raise PlayError(
                    _("trick %(k)s: %(card)s is not in this game's pack", k=k, card=display(c))
                )
            if c == setup.turned_up:
                raise PlayError(
                    _(
                        "trick %(k)s: %(card)s was turned up and takes no part in play",
                        k=k,
                        card=display(c),
                    )
                )
            if played_in.get(c) == k:  # twice in this very trick
                raise PlayError(
                    _("trick %(k)s: %(card)s is played twice in it", k=k, card=display(c))
                )
            if c in played_in:
                raise PlayError(
                    _(
                        "trick %(k)s: %(card)s was already played in trick %(j)s",
                        k=k,
                        card=display(c),
                        j=played_in[c],
                    )
                )
            played_in[c] = k
            if hands is not None and c not in hands[seat]:
                raise PlayError(
                    _(
                        "trick %(k)s: %(name)s plays %(card)s, which is not in %(name)s's hand",
                        k=k,
                        name=names[seat],
                        card=display(c),
                    )
                )
    if setup.turn_up and setup.turned_up is None:
        rest = (
            pack.difference(*hands)
            if hands is not None
            else (pack.difference(played_in) if complete else set())
        )
        if len(rest) == 1:
            (turned_up,) = rest
            setup.turned_up, setup.trump = turned_up, turned_up[-1]
    # each seat's hand: as given, or what the seat is seen to play from now on
    held = [list(h) for h in hands] if hands is not None else [[] for _s in range(n)]
    if hands is None:
        for trick in tricks:
            for seat, c in trick:
                held[seat].append(c)

    def proof_words(seat: int, proof: str) -> str:
        if hands is not None:
            return _("%(name)s holds %(card)s", name=names[seat], card=display(proof))
        return _(
            "%(name)s plays %(card)s in trick %(j)s",
            name=names[seat],
            card=display(proof),
            j=played_in[proof],
        )

    leader = setup.leader
    if leader is None and setup.lead_card is None:  # anyone may lead
        leader = tricks[0][0][0] if tricks and tricks[0] else None
    elif leader is None:  # whoever holds the lead card
        leader = next((s for s in range(n) if setup.lead_card in held[s]), None)
        if leader is None and tricks and tricks[0]:
            raise PlayError(
                _(
                    "trick 1 must be led with %(card)s (whoever holds it leads)",
                    card=display(setup.lead_card),
                )
            )
    state = TableState(setup)
    step = setup.step
    w.leader = leader
    taken: list[list[str]] = [[] for _s in range(n)]
    for k, trick in enumerate(tricks, start=1):
        state.number = k - 1
        expected = leader
        so_far: list[tuple[int, str]] = []
        for seat, c in trick:
            if seat != expected:
                if not so_far:
                    if k == 1 and setup.leader is None:
                        raise PlayError(
                            _(
                                "trick 1 is led by %(who)s, but %(name)s holds %(card)s and leads",
                                who=names[seat],
                                name=names[leader],
                                card=display(setup.lead_card),
                            )
                        )
                    if k == 1:
                        raise PlayError(
                            _(
                                "trick 1 is led by %(who)s, but %(name)s leads",
                                who=names[seat],
                                name=names[leader],
                            )
                        )
                    raise PlayError(
                        _(
                            "trick %(k)s is led by %(who)s, but %(name)s won trick %(j)s and leads",
                            k=k,
                            who=names[seat],
                            name=names[leader],
                            j=k - 1,
                        )
                    )
                raise PlayError(
                    _(
                        "trick %(k)s: it is %(name)s's turn, not %(who)s's",
                        k=k,
                        name=names[expected],
                        who=names[seat],
                    )
                )
            hand = held[seat]
            why = rules.illegal_reason(c, hand, so_far, state)
            if why:
                kind, words, proof = why
                if kind == "follow" and hands is None:
                    raise PlayError(
                        _(
                            "trick %(k)s: %(name)s plays %(card)s on a %(suit)s lead, "
                            "but plays %(proof)s in trick %(j)s (a revoke)",
                            k=k,
                            name=names[seat],
                            card=display(c),
                            suit=words,
                            proof=display(proof),
                            j=played_in[proof],
                        )
                    )
                if kind == "follow":
                    raise PlayError(
                        _(
                            "trick %(k)s: %(name)s plays %(card)s, but holds %(proof)s "
                            "and must follow %(suit)s",
                            k=k,
                            name=names[seat],
                            card=display(c),
                            proof=display(proof),
                            suit=words,
                        )
                    )
                raise PlayError(
                    _(
                        "trick %(k)s: %(name)s may not play %(card)s (%(why)s; %(proof)s)",
                        k=k,
                        name=names[seat],
                        card=display(c),
                        why=words,
                        proof=proof_words(seat, proof),
                    )
                )
            hand.remove(c)
            so_far.append((seat, c))
            expected = (seat + step) % n
        if len(trick) < n:  # the trick being played
            w.turn = expected
            break
        if setup.trump is None and setup.turn_up and len({c[-1] for _s, c in trick}) > 1:
            raise PlayError(_("say which card was turned up: its suit is trump"))
        leader = trick[rules.trick_winner(trick, setup)][0]
        w.winners.append(leader)
        w.leader = leader
        taken[leader].extend(c for _s, c in trick)
        state.suits_played.update(c[-1] for _s, c in trick)
    else:
        w.turn = leader if len(tricks) < setup.tricks else None
        state.number = len(tricks)
    w.complete = len(w.winners) == setup.tricks
    if w.complete:
        w.captured = Captured(taken, list(w.winners), setup.turned_up)
    elif hands is not None and w.turn is not None:
        current = tricks[-1] if tricks and len(tricks[-1]) < n else []
        w.legal = rules.legal(held[w.turn], current, state)
    return w


# --- the quick entry beside the play -----------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str) and _card(a) and _card(b):
        return _card(a) == _card(b)
    if (
        isinstance(a, list)
        and isinstance(b, list)
        and (all(isinstance(x, str) for x in a) and all(isinstance(x, str) for x in b) and (a or b))
    ):
        return sorted(_card(x) or str(x)[:12] for x in a) == sorted(
            _card(x) or str(x)[:12] for x in b
        )
    return type(a) is type(b) and a == b  # 1 is not true


def _value_words(rules: Game, key: str, value: Any, seat_valued: bool) -> Any:
    """A value of the quick entry as a player says it: a seat by its player's name."""
    own = rules.entry_value(key, value)
    if own is not None:
        return own
    if value is None:
        return _("nobody") if seat_valued else _("nothing")
    if isinstance(value, int) and not isinstance(value, bool) and seat_valued:
        return rules.names[value] if 0 <= value < rules.n else str(value)
    if isinstance(value, str):
        return _shown(value)
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return join(", ", [_shown(x) for x in value]) if value else _("no cards")
    return str(value)[:60]


# A difference between the quick entry and the tricks, one message per kind: who
# took a card or a trick; a player's count or cards; a value of the whole deal.
DIFFERENCE = {
    "taker": L_("%(what)s: %(given)s in the quick entry, %(derived)s by the tricks"),
    "seat": L_("%(what)s (%(name)s): %(given)s in the quick entry, %(derived)s by the tricks"),
    "deal": L_("%(what)s: %(given)s in the quick entry, %(derived)s by the tricks"),
}


def disagreement(given: dict, derived: dict, rules: Game) -> EntryError | None:
    """The first field where the quick entry beside ``play`` differs from the tricks."""
    return next(differences(given, derived, rules), None)


def differences(given: dict, derived: dict, rules: Game):
    """Every field where a quick entry differs from what the tricks say, in the
    table's words (EntryErrors whose message is data: DIFFERENCE's, the field
    named by the game, a seat by its player's name)."""

    def differ(kind: str, key: str, what: Any, a: Any, b: Any, **params) -> EntryError:
        seat_valued = kind == "taker"
        return EntryError(
            filled(
                DIFFERENCE[kind],
                what=what,
                given=_value_words(rules, key, a, seat_valued),
                derived=_value_words(rules, key, b, seat_valued),
                **params,
            ),
            key,
        )

    n = rules.n
    for key, want in derived.items():
        if key not in given:
            continue
        got = given[key]
        if isinstance(want, dict) and isinstance(got, dict):
            for sub, value in want.items():
                if sub in got and not _same(got[sub], value):
                    kind = "taker" if key == "taken_by" or sub == "seat" else "deal"
                    yield differ(kind, key, rules.entry_label(key, sub), got[sub], value)
        elif isinstance(want, list) and isinstance(got, list) and len(want) == len(got) == n:
            for s in range(n):
                if not _same(got[s], want[s]):
                    yield differ(
                        "seat", key, rules.entry_label(key), got[s], want[s], name=rules.names[s]
                    )
        elif not _same(got, want):
            kind = "taker" if key in rules.seat_fields else "deal"
            yield differ(kind, key, rules.entry_label(key), got, want)


def merge(given: dict, derived: dict) -> dict:
    """The summary given beside ``play`` completed by what the tricks say."""
    out = dict(given)
    for key, value in derived.items():
        if isinstance(value, dict) and isinstance(given.get(key), dict):
            out[key] = {**given[key], **value}
        else:
            out[key] = value
    return out


def entry_with_play(rules: Game, raw: dict, plan: Plan) -> dict:
    """The fold's check of a deal that carries ``play``: the entry derived from the
    tricks, any summary beside it agreeing, checked by the game as usual; the
    ``play`` kept (cards canonical) beside the summary."""
    given = {k: v for k, v in raw.items() if k != "play"}
    setup = rules.engine_setup(plan, given)
    tricks, hands = read(raw["play"], setup, rules.n)
    return _entry(rules, plan, walk(rules, setup, tricks, hands), given)


def _entry(rules: Game, plan: Plan, w: Walk, given: dict) -> dict:
    """A whole deal's entry: derived from the tricks, agreeing with any summary
    given beside them, checked by the game, its ``play`` kept."""
    derived = rules.entry_from_play(plan, w.setup, w.captured, given)
    error = disagreement(given, derived, rules)
    if error:
        raise error
    entry = rules.check(merge(given, derived), plan)
    entry["play"] = w.record()
    return entry


# --- a deal in progress (for a trick-by-trick form) --------------------------------


@dataclass
class Progress:
    """Where a deal being entered trick by trick stands."""

    winners: list[int]  # the winner of each finished trick, in order
    leader: int | None  # who leads the trick being played (or the next one)
    turn: int | None  # whose card is next; None when the deal is over (or unknown)
    legal: list[str] | None  # the cards ``turn`` may play (only when hands are given)
    trump: str | None
    problems: list[str]  # the first thing that cannot be, in table words (empty: fine)
    complete: bool
    entry: dict | None  # the deal's entry (quick-entry shape, checked) once complete

    @property
    def leading(self) -> bool:
        """Is ``turn`` to lead, the trick being played still without a card?"""
        return self.turn is not None and self.turn == self.leader


def progress(rules: Game, plan: Plan, play: Any, given: dict | None = None) -> Progress:
    """Check the tricks entered so far of the deal ``plan`` describes.

    ``play`` is the record's ``play`` form, its last trick possibly unfinished
    and the later ones missing; ``given``: decisions entered beside it
    (Knaves ``turn_up``, Polignac ``capot``). Never raises for bad input: the
    first problem is in ``problems`` and the figures stop there."""
    given = given if isinstance(given, dict) else {}
    try:
        setup = rules.engine_setup(plan, given)
    except EntryError as e:
        return Progress([], None, None, None, None, [e.message], False, None)
    w = Walk(setup, [], None)
    problems: list[str] = []
    entry = None
    try:
        tricks, hands = read(play, setup, rules.n, complete=False)
        w.tricks, w.hands = tricks, hands
        walk(rules, setup, tricks, hands, complete=False, out=w)
        if w.complete:
            entry = _entry(rules, plan, w, given)
    except EntryError as e:
        problems.append(e.message)
        w.turn, w.legal = None, None
    return Progress(
        list(w.winners),
        w.leader,
        w.turn,
        w.legal,
        setup.trump,
        problems,
        w.complete and not problems,
        entry,
    )
