"""What every game module provides, and the pieces they share.

A game is a class whose instance knows one match's options and number of
players. The match fold (``scorer.match``) asks it, deal after deal:

- ``start(first_dealer)`` → the state before deal 1 (plain data);
- ``plan(state)`` → the :class:`Plan` of the next deal: who deals, leads,
  passes, the trump, what to tell the table and which fields to ask;
- ``check(entry, plan)`` → the entry as stored, or :class:`EntryError`;
- ``score(entry, plan)`` → :class:`Score`, points per seat with a line each;
- ``advance(state, entry, plan)`` → the state after the deal;
- ``outcome(totals, deals_played)`` → :class:`Outcome`.

Nothing here knows Flask; strings a player reads go through ``scorer.i18n``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import RANKS, SYMBOLS, display, is_card, rank_letter, suit_of
from ..i18n import L_, Text, _, and_list, filled, join, ngettext, npgettext, pgettext
from .tricks import (
    Captured,
    Decision,
    Setup,
    TableState,
    follow,
    follow_reason,
    parse_passing,
    trick_winner,
)


class EntryError(ValueError):
    """An entry or option that cannot happen with real cards, in table words."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


# --- options ---------------------------------------------------------------

Default = Any  # a value, or a function of the options known so far


@dataclass(frozen=True)
class Option:
    key: str
    kind: str  # "choice", "bool", "int", "map"
    default: Default
    label: str
    help: str  # one line: what it does
    source: str = ""
    choices: tuple = ()
    choice_labels: tuple = ()
    low: int = 1
    high: int = 10_000
    when: tuple[str, str] | None = None  # (option, value): it applies only then
    when_words: Any = None  # that, as a player says it ("Only when the match is …")

    def default_for(self, opts: dict) -> Any:
        return self.default(opts) if callable(self.default) else self.default

    def parse(self, value: Any) -> Any:
        """The value from a record, strictly typed, or EntryError naming it."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise EntryError(_("option %(key)s must be true or false", key=self.key), self.key)
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise EntryError(_("option %(key)s must be a whole number", key=self.key), self.key)
            if not self.low <= value <= self.high:
                raise EntryError(
                    _(
                        "option %(key)s must be between %(low)s and %(high)s",
                        key=self.key,
                        low=self.low,
                        high=self.high,
                    ),
                    self.key,
                )
            return value
        if self.kind == "map":
            return self._parse_map(value)
        if self.kind == "choice":
            if isinstance(value, bool) or value not in self.choices:
                raise EntryError(
                    _(
                        "option %(key)s must be one of %(choices)s",
                        key=self.key,
                        choices=", ".join(str(c) for c in self.choices),
                    ),
                    self.key,
                )
            return value
        raise EntryError(_("option %(key)s cannot be read", key=self.key), self.key)

    def value_words(self, value: Any) -> Any:
        """A value of this option as the set-up form says it: a choice's label, yes
        or no, a number, each card with its points ("J♥ -4, J♦ -3")."""
        if self.kind == "choice":
            return dict(zip(self.choices, self.choice_labels or self.choices)).get(value, value)
        if self.kind == "bool":
            return _("yes") if value else _("no")
        if self.kind == "map" and isinstance(value, dict):
            return join(
                ", ",
                [join(" ", (display(k) if is_card(k) else k, str(v))) for k, v in value.items()],
            )
        return value

    def _parse_map(self, value: Any) -> dict:
        """A map over ``choices`` (such as jacks) of signed points; keys not named
        keep their default."""

        def label(k):
            return display(k) if is_card(k) else str(k)[:20]

        if not isinstance(value, dict):
            example = f'{{"{self.choices[0]}": 1}}'
            raise EntryError(
                _(
                    "option %(key)s must give points per card, such as %(example)s",
                    key=self.key,
                    example=example,
                ),
                self.key,
            )
        out = dict(self.default_for({}))
        for k, points in value.items():
            if k not in self.choices:
                raise EntryError(
                    _(
                        "option %(key)s: %(name)s is not one of %(choices)s",
                        key=self.key,
                        name=str(k)[:20],
                        choices=", ".join(self.choices),
                    ),
                    self.key,
                )
            if isinstance(points, bool) or not isinstance(points, int):
                raise EntryError(
                    _(
                        "option %(key)s: %(card)s must be a whole number of points",
                        key=self.key,
                        card=label(k),
                    ),
                    self.key,
                )
            if not self.low <= points <= self.high:
                raise EntryError(
                    _(
                        "option %(key)s: %(card)s must be between %(low)s and %(high)s",
                        key=self.key,
                        card=label(k),
                        low=self.low,
                        high=self.high,
                    ),
                    self.key,
                )
            out[k] = points
        return out


def end_options(
    target: Default,
    target_help: Any,
    target_source: Any = "",
    end_help: Any = None,
    end_source: Any = "",
    deals_source: Any = "",
    deals_help: Any = None,
) -> tuple[Option, Option, Option]:
    """The options ``end`` (target | deals), ``target`` and ``deals`` that several
    penalty games share; :meth:`Game.end_reached` reads them."""
    return (
        Option(
            "end",
            "choice",
            "target",
            L_("End"),
            end_help or L_("Play to a target total, or a fixed number of deals."),
            source=end_source,
            choices=("target", "deals"),
            choice_labels=(L_("At the target"), L_("After a number of deals")),
        ),
        Option(
            "target",
            "int",
            target,
            L_("Target"),
            target_help,
            source=target_source,
            low=1,
            high=100_000,
            when=("end", "target"),
            when_words=L_("Only when the match is played to a target score."),
        ),
        Option(
            "deals",
            "int",
            lambda o: 2 * o["players"],
            L_("Number of deals"),
            deals_help or L_("How many deals, when the match ends after a number of deals."),
            source=deals_source,
            low=1,
            high=1000,
            when=("end", "deals"),
            when_words=L_("Only when the match is played for a number of deals."),
        ),
    )


NOTHING = L_("nothing")


def score_lines(parts: list[list], points: list[int]) -> list[str]:
    """Per seat, what it took and its points: "5 hearts, Q♠ → 18", "nothing → 0"."""
    return [
        join(" → ", (join(", ", parts[s]) if parts[s] else NOTHING, points[s]))
        for s in range(len(points))
    ]


def count_words(what: str, k: int, took: bool = False) -> Any:
    """A count as a score line says it ("3 tricks", "1 heart"): ``what`` is
    tricks, cards, hearts, clubs, spades, queens, kings_jacks, jacks or kings.
    ``took``: tricks or cards as the object of "took" in a refusal ("Ala took 3
    tricks (9 cards)"), which a language may say in another case («Ala prenis 3
    trukojn (9 kartojn)»)."""
    if took:
        # TRANSLATORS: a count as the object of "took" (the accusative where a language has one)
        return {
            "tricks": lambda: npgettext("took", "%(num)s trick", "%(num)s tricks", k),
            "cards": lambda: npgettext("took", "%(num)s card", "%(num)s cards", k),
        }[what]()
    return {
        "tricks": lambda: ngettext("%(num)s trick", "%(num)s tricks", k),
        "cards": lambda: ngettext("%(num)s card", "%(num)s cards", k),
        "hearts": lambda: ngettext("%(num)s heart", "%(num)s hearts", k),
        "clubs": lambda: ngettext("%(num)s club", "%(num)s clubs", k),
        "spades": lambda: ngettext("%(num)s spade", "%(num)s spades", k),
        "queens": lambda: ngettext("%(num)s queen", "%(num)s queens", k),
        "kings_jacks": lambda: ngettext("%(num)s king or jack", "%(num)s kings or jacks", k),
        "jacks": lambda: ngettext("%(num)s jack", "%(num)s jacks", k),
        "kings": lambda: ngettext("%(num)s king", "%(num)s kings", k),
    }[what]()


def took_no_trick(name: Any, what: Any) -> Text:
    """A count refused for a player who took no trick at all: said so ("Celina took no
    trick, so cannot have 1 jack"), not as "took only 0 tricks (0 cards)" (three
    readers read that as a clerk's template)."""
    return _("%(name)s took no trick, so cannot have %(what)s", name=name, what=what)


def pack_note(removed: tuple[str, ...], hand: int, pack: Any = None) -> str:
    """What to take out of the pack before dealing, and how many cards each gets; the
    cards listed as the language lists them ("2♣, 2♦, 2♠ a 3♣")."""
    cards = and_list(display(c) for c in removed)
    if pack is None:
        return ngettext(
            "Take %(cards)s out of the pack: %(hand)s card each.",
            "Take %(cards)s out of the pack: %(hand)s cards each.",
            hand,
            cards=cards,
            hand=hand,
        )
    if removed:
        return ngettext(
            "From %(pack)s take out %(cards)s: %(hand)s card each.",
            "From %(pack)s take out %(cards)s: %(hand)s cards each.",
            hand,
            pack=pack,
            cards=cards,
            hand=hand,
        )
    return ngettext(
        "Play with %(pack)s: %(hand)s card each.",
        "Play with %(pack)s: %(hand)s cards each.",
        hand,
        pack=pack,
        hand=hand,
    )


def whole(value: Any, what: str, low: int = 0, high: int = 1000) -> int:
    """A whole number from an entry, or an EntryError in table words."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EntryError(_("%(what)s must be a whole number", what=what), what)
    if not low <= value <= high:
        raise EntryError(
            _("%(what)s must be between %(low)s and %(high)s", what=what, low=low, high=high), what
        )
    return value


def seat(value: Any, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise EntryError(
            _("%(what)s must be a seat from 0 to %(last)s", what=what, last=n - 1), what
        )
    return value


def counts(
    value: Any, n: int, what: str, total: int | None = None, label: str | None = None
) -> list[int]:
    """One whole number per seat; with ``total``, they must add up to it."""
    label = label or what
    if not isinstance(value, list) or len(value) != n:
        raise EntryError(_("%(what)s needs one number per player (%(n)s)", what=label, n=n), what)
    out = [whole(v, label, 0, 1000) for v in value]
    if total is not None and sum(out) != total:
        raise EntryError(
            _(
                "%(what)s add up to %(got)s, but %(want)s are in play",
                what=label,
                got=sum(out),
                want=total,
            ),
            what,
        )
    return out


def only_fields(entry: Any, allowed: set[str], words: dict | None = None) -> dict:
    """``entry`` if it is an object of ``allowed`` fields alone; its refusal in the
    game's deal words (``words``: Metamorphosis says "play")."""
    words = words or DEAL_WORDS
    if not isinstance(entry, dict):
        raise EntryError(filled(words["not_object"]))
    extra = sorted(set(entry) - allowed)
    if extra:
        raise EntryError(filled(words["unknown_field"], field=str(extra[0])[:40]), "entry")
    return entry


def owners(
    value: Any,
    cards: tuple[str, ...],
    n: int,
    what: str = "taken_by",
    optional: frozenset = frozenset(),
    labels: dict[str, str] | None = None,
    asked: dict[str, Any] | None = None,
) -> dict[str, int | None]:
    """Who took each of ``cards``: exactly those keys, one seat each.

    Keys in ``optional`` may be missing or null (a card out of play); ``labels``
    names keys that are not cards ("the first trick"), ``asked`` the same as the
    object of "say who took …" (context ``took``: the accusative some languages
    need, "pierwszą lewę")."""
    labels = labels or {}
    asked = asked or {}

    def name_of(key: str) -> str:
        return labels.get(key) or _card_name(key)

    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise EntryError(_("%(what)s must say who took each card", what=what), what)
    for key in value:
        if key not in cards:
            raise EntryError(_("%(card)s is not scored in this deal", card=name_of(key)), what)
    out = {c: None if value.get(c) is None else seat(value[c], n, name_of(c)) for c in cards}
    # every question not answered, named at once and in one message, in the order the
    # form asks them ("say who took the first trick, the last trick and Q♣")
    missing = [c for c in cards if out[c] is None and c not in optional]
    if missing:
        things = and_list(asked.get(c) or name_of(c) for c in missing)
        raise EntryError(_("say who took %(what)s", what=things), what)
    return out


def _card_name(key: Any) -> str:
    return display(key) if is_card(key) else str(key)[:20]


# --- a deal's plan, score and the match's outcome ---------------------------


@dataclass
class Field:
    """One thing the entry form asks, rendered by its kind.

    kinds: ``counts`` (a number per seat, ``total`` fills the last one in),
    ``number`` (one whole number), ``owner`` (which seat took ``card``),
    ``partition`` (which seat took each of ``cards``), ``choice`` (one of
    ``choices`` per seat or once), ``seat_choice``, ``seat_pair`` (two
    different seats, in order), ``calls`` (a sequence of ``choices`` made one
    tap at a time, such as an auction), ``flag`` and ``card``.
    """

    kind: str
    name: str
    label: str
    help: str = ""
    total: int | None = None
    cards: tuple[str, ...] = ()
    choices: tuple = ()
    optional: bool = False
    per_seat: bool = True
    high: int = 1000
    disabled: tuple = ()  # choices that may not be taken now (calls: the caller's own)
    info: tuple = ()  # lines to show with the field (whose call it is, the result)
    done: bool = False  # calls: the sequence is complete
    named: Any = None  # how a refusal names it, where the label is a question or a legend

    @property
    def called(self) -> Any:
        """The field as a refusal names it: ``named``, else its label."""
        return self.named if self.named is not None else self.label


@dataclass
class Plan:
    number: int  # 1-based deal number
    dealer: int
    leader: int | None
    leader_text: str = ""  # when the leader is not a known seat ("holds 2♣")
    passing: str | None = None  # "left 3", "right 3", "across 3", "none"
    trump: str | None = None  # a suit letter, or None
    dealt: bool = True  # False: no cards are dealt (Metamorphosis plays on with what was taken)
    title: str = ""
    notes: list[str] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    context: dict = field(default_factory=dict)
    starts: bool = False  # the leader opens a row, not a trick (Kierki's fan tan)

    def leader_words(self, names: list[str]) -> Any:
        """Who begins the deal, as its facts say it: "Bartek leads" (a trick),
        "Bartek starts" (a fan tan, where no trick is led), or ``leader_text``."""
        if self.leader is None:
            return self.leader_text
        name = names[self.leader]
        return _("%(name)s starts", name=name) if self.starts else _("%(name)s leads", name=name)


@dataclass
class Score:
    points: list[int]
    lines: list[str]  # per seat, "5 hearts, Q♠ → 18"
    note: str = ""  # about the deal as a whole ("Ala shot the moon")
    tag: str = ""  # a few characters shown beside the deal number ("♥", "capot")
    marks: list[str] = field(default_factory=list)  # per seat, a sign beside the points


@dataclass
class Outcome:
    finished: bool
    winners: list[int] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True)
class Figure:
    """Something the table entered, counted per seat over a match's deals (Q♠
    taken, moons shot …), for the player pages."""

    key: str  # the same in every match and language: what the player pages add up
    label: Any  # what the page calls it (a Text)
    counts: list[int]  # per seat


def tally(n: int, rows: list, key: str, label: Any, seats: Callable[[dict, Plan], list]) -> Figure:
    """A :class:`Figure` of ``rows`` (the standings' deal rows): per seat, how
    often ``seats(entry, plan)`` names it (a seat named twice in one deal, as
    the taker of two jacks, counts twice)."""
    out = [0] * n
    for row in rows:
        for s in seats(row.entry, row.plan):
            out[s] += 1
    return Figure(key, label, out)


def took_question(what: Any) -> Any:
    """The form's question of a trick, the trick as its object (``what``: named
    after "took", the accusative), as "Who took Q♠?" asks of a card: «Кто взял
    первую взятку?», «Kiu prenis la unuan trukon?»."""
    # TRANSLATORS: %(what)s is a trick named as the object of "took" (the accusative)
    return pgettext("took", "Who took %(what)s?", what=what)


# A deal's words on the pages, filled in where they are drawn (Game.words); a game
# that counts something else has its own, the same messages in its context
# (Metamorphosis: its plays, rozgrywki and розыгрыши; docs/glossary.md).
DEAL_WORDS = {
    "title": L_("Deal %(n)s"),
    "enter": L_("Enter deal %(n)s"),
    "save": L_("Save deal %(n)s"),
    "in_words": L_("Deal %(n)s in words"),
    "count": ngettext("%(num)s deal", "%(num)s deals", 0),
    "entering": L_("Entering a deal"),
    "check": L_("Check this deal trick by trick"),
    "check_title": L_("Check deal %(n)s trick by trick"),
    "delete_all": L_("Delete the match and all its deals"),
    "column": L_("deal"),  # the CSV's and the spreadsheet's column of deal numbers
    "note": L_("note"),  # the sheet CSV's column of each deal's tag (capot, a contract…)
    "export_csv": L_("Export every deal in detail (CSV)"),  # the sheet's button
    "deals": L_("Deals"),  # the sheet's table of them
    "show_all": L_("Show all %(n)s deals"),  # under the table of the latest
    "edit": L_("Edit deal %(n)s"),
    "chart": L_("Running totals after each deal"),
    # what the sheet, the history and the forms say of a deal
    "saved": L_("Deal %(n)s saved."),
    "changed": L_("Deal %(n)s changed."),
    "deleted": L_("Deal %(n)s deleted."),
    "restored": L_("Deal %(n)s restored."),
    "same": L_("Deal %(n)s entered twice, the same: stored once."),
    "conflict": L_("Deal %(n)s entered twice, differently: both kept for a choice."),
    "kept": L_("Deal %(n)s kept as stored; the other entry set aside."),
    "undo_deleted": L_("Deal %(n)s deleted (an undo)."),
    "undo_edit": L_("Deal %(n)s put back as it was (an undo)."),
    "undo_restored": L_("Deal %(n)s restored (an undo)."),
    "undo_reopen": L_("Deal %(n)s waits for the choice again (an undo)."),
    # the sheet's Undo button, per change it takes back
    "undo_add": L_("Undo saving deal %(n)s"),
    "undo_change": L_("Undo the change to deal %(n)s"),
    "undo_delete": L_("Undo deleting deal %(n)s"),
    "undo_restore": L_("Undo bringing deal %(n)s back"),
    "undo_twice": L_("Undo the second entry of deal %(n)s"),
    "undo_keep": L_("Undo the choice made for deal %(n)s"),
    "undo_undo": L_("Undo the undo of deal %(n)s"),
    # under a history line whose deal has moved since (a deal before it deleted)
    "now_numbered": L_("It is deal %(n)s now."),
    # a record's deal refused (the API, an import)
    "not_object": L_("a deal must be a JSON object"),
    "unknown_field": L_("unknown field %(field)s in this deal"),
    "reflowed": L_("Deal %(n)s changed; the totals after it were counted again."),
    "same_elsewhere": L_(
        "Deal %(n)s was already entered on another phone, the same: nothing was stored twice."
    ),
    "back": L_("Deal %(n)s is back, with your entry."),
    "stays": L_("Deal %(n)s stays as stored; the other entry is in the history."),
    "replaced": L_("Deal %(n)s replaced; the totals after it were counted again."),
    "undeletable": L_("Deal %(n)s cannot be deleted: %(why)s"),
    "deleted_reflowed": L_("Deal %(n)s deleted; the totals after it were counted again."),
    "save_checked_as": L_("Save the checked deal as deal %(n)s"),
    "save_checked": L_("Save the checked deal"),
    "delete": L_("Delete deal %(n)s"),
    "delete_up": L_("Delete deal %(n)s; later deals move up"),
    "delete_ask": L_("Delete deal %(n)s?"),
    "as_now": L_("Deal %(n)s as it stands now"),
    "delete_as_now": L_("Delete deal %(n)s as it stands now"),
    "two_entries": L_("Deal %(n)s: two entries"),
    "over": L_("The match is over: no more deals."),
    "watching": L_("You are watching: the scorers enter the deals, and this sheet follows them."),
    "share_scorer": L_(
        "Whoever opens this link can enter, change and delete deals on their phone from then on. "
        "Give it only to those who keep the score."
    ),
    "has_two": L_("Deal %(n)s has two entries: choose which stands"),
    "yours_differs": L_(
        "Deal %(n)s was already entered on another phone, and yours differs. Both are kept until "
        "you choose; the cells that differ are marked."
    ),
    "other_differs": L_(
        "Another phone entered deal %(n)s differently. Both are kept until you choose; the cells "
        "that differ are marked."
    ),
    "keep_stored": L_("Keep deal %(n)s as stored"),
    "replace_yours": L_("Replace deal %(n)s with yours"),
    "replace_other": L_("Replace deal %(n)s with the other entry"),
    "add_new": L_("Add it as deal %(n)s, a new deal"),
    "was_deleted": L_("Deal %(n)s was deleted"),
    "deleted_while": L_(
        "While you edited it, deal %(n)s was deleted on another phone (%(at)s). Your entry is "
        "here: nothing was saved yet."
    ),
    "bring_back": L_("Bring deal %(n)s back with your entry"),
    "incomplete": ngettext(
        "Not saved: the deal is not complete yet (%(k)s of %(n)s trick).",
        "Not saved: the deal is not complete yet (%(k)s of %(n)s tricks).",
        0,
    ),
    "nothing_saved": L_(
        "%(why)s: nothing was saved. Go back to the sheet to see the deals as "
        "they stand; this page keeps your tricks until you leave it."
    ),
    "more_waiting": ngettext(
        "%(num)s more deal waits for a choice on the sheet.",
        "%(num)s more deals wait for a choice on the sheet.",
        0,
    ),
    "choice_made": L_(
        "This choice was made already (on this phone or another): the sheet shows "
        "the deal as it stands."
    ),
    "entries_deleted": L_("The deal these entries were for was deleted on another phone."),
    "replace_deals": L_("Replace deals %(numbers)s with the other entries"),
    "deals_replaced": L_("Those deals replaced; the totals after them were counted again."),
    "could_not_stand": L_(
        "Nothing was saved: after this change deal %(n)s could not stand (%(why)s)."
    ),
    "setup_hint": L_(
        "Correct a name or change an option; a change that a stored deal could not stand under "
        "is refused with the reason. It is one change of the history, undone from there."
    ),
    "other_questions": L_(
        "{what}: its questions depend on the deal before it. Enter it once the connection is back."
    ),
    # what the queue note and the sheet's rows say of deals waiting on the phone
    # (static/queue.js fills in {list}: "2–5, 7")
    "queue_waiting": L_("Deals {list}: not saved yet — waiting for the connection."),
    "queue_behind": L_("Deals {list}: not saved yet — first put right the one refused above."),
    "queue_row_held": L_("not saved: open it above"),
    # the refusals of the fold and the store, which the API and an import show too
    "refused": L_("deal %(n)s: %(message)s"),
    "no_deal": L_("there is no deal %(n)s"),
    "not_yet": L_("deal %(n)s is not entered yet: it comes first"),
    "undone": L_("deal %(n)s was deleted on another phone after this was typed."),
    "not_yet_here": L_(
        "This was typed as deal %(typed)s, but deal %(n)s is not entered yet. If it is deal "
        "%(n)s, save it here; otherwise, leave this page: it waits on this phone until deal "
        "%(n)s is entered."
    ),
    "undone_here": L_(
        "This was typed as deal %(typed)s, after a deal %(gone)s that another phone has deleted "
        "since. If it is deal %(n)s, save it here; otherwise, leave this page: it waits on this "
        "phone until deal %(n)s is entered."
    ),
    "saved_meanwhile": L_("deal %(n)s was saved on another phone meanwhile"),
    "changed_meanwhile": L_("deal %(n)s was changed on another phone meanwhile"),
    "deleted_meanwhile": L_("deal %(n)s was deleted on another phone meanwhile"),
    "deals_changed": L_("the deals have changed since"),  # on this phone or another
    "entered_meanwhile": L_(
        "deal %(n)s was entered meanwhile: the other entry cannot be added as a new deal"
    ),
    "choice_gone": L_("the deal this choice is about was deleted on another phone meanwhile"),
    "one_deal_twice": L_("two of these entries are for one deal: choose between them first"),
    "brought_back": L_("the deal was brought back on another phone meanwhile"),
    "entered_differently": L_(
        "deal %(n)s is entered already, and differently: both entries are kept until a scorer "
        "chooses"
    ),
}


# The quick entry's fields as the check page names them where the tricks say
# otherwise (scorer/engine/check.py, differences); a game with fields of its own
# adds their labels (a card of ``taken_by`` is named by the card).
ENTRY_LABELS = {
    "hearts": pgettext("taken", "hearts"),
    "heart_cards": pgettext("taken", "hearts"),
    "tricks": pgettext("taken", "tricks"),
    "turn_up": L_("the turned-up card"),
}


class Game(ABC):
    key = ""
    name = ""
    deal_words = DEAL_WORDS
    player_counts: tuple[int, ...] = (4,)
    players_option = True  # the record's options may say how many play (docs/record.md)
    higher_wins = False
    options: tuple[Option, ...] = ()
    source = ""
    mark_legend = ""  # what Score.marks mean, shown under the sheet's table
    trump_in_title = False  # a deal's title says its trump or "no trumps" (no chip repeats it)
    decisions: tuple[str, ...] = ()  # entry fields that are no cards (kept beside a play)
    entry_labels: dict[str, Any] = ENTRY_LABELS  # see ENTRY_LABELS
    seat_fields: tuple[str, ...] = ()  # entry fields beside taken_by whose value is a seat

    def __init__(self, options: dict, names: list[str]):
        self.opts = options
        self.names = list(names)
        self.n = len(names)

    @classmethod
    def words(cls, key: str, **params) -> Text:
        """A deal's words in this game (DEAL_WORDS): ``words("enter", n=3)``."""
        return filled(cls.deal_words[key], **params)

    # Options -----------------------------------------------------------
    @classmethod
    def normalize_options(cls, raw: Any, names: int) -> dict:
        """Options of a record, defaults filled in; EntryError names a bad one
        (``null`` too: leave the key out to take every default)."""
        if not isinstance(raw, dict):
            raise EntryError(_("options must be a JSON object"), "options")
        known = {o.key for o in cls.options} | ({"players"} if cls.players_option else set())
        for key in raw:
            if key not in known:
                raise EntryError(
                    _("unknown option %(key)s for %(game)s", key=str(key)[:40], game=cls.name),
                    "options",
                )
        if "players" in raw:
            p = raw["players"]
            if isinstance(p, bool) or not isinstance(p, int) or p not in cls.player_counts:
                raise EntryError(
                    _(
                        "option players must be one of %(choices)s",
                        choices=", ".join(map(str, cls.player_counts)),
                    ),
                    "players",
                )
            if p != names:
                raise EntryError(
                    ngettext(
                        "option players says %(p)s, but %(names)s name is given",
                        "option players says %(p)s, but %(names)s names are given",
                        names,
                        p=p,
                        names=names,
                    ),
                    "players",
                )
        if names not in cls.player_counts:
            counts = sorted(cls.player_counts)
            low, high = counts[0], counts[-1]
            # a run of three counts or more is a range ("3 to 6"); two are "2 or 3"
            if len(counts) > 2 and counts == list(range(low, high + 1)):
                refusal = ngettext(
                    "%(game)s is played by %(low)s to %(high)s player, not %(n)s",
                    "%(game)s is played by %(low)s to %(high)s players, not %(n)s",
                    high,
                    game=cls.name,
                    low=low,
                    high=high,
                    n=names,
                )
            else:
                refusal = ngettext(
                    "%(game)s is played by %(choices)s player, not %(n)s",
                    "%(game)s is played by %(choices)s players, not %(n)s",
                    high,
                    game=cls.name,
                    choices=or_list(counts),
                    n=names,
                )
            raise EntryError(refusal, "players")
        opts: dict = {"players": names}
        for o in cls.options:
            opts[o.key] = o.parse(raw[o.key]) if o.key in raw else o.default_for(opts)
        cls.check_options(opts)
        if not cls.players_option:
            del opts["players"]  # docs/record.md names no players option for this game
        return opts

    @classmethod  # noqa: B027 (a hook most games leave empty)
    def check_options(cls, opts: dict) -> None:
        """Cross-checks between options (override); EntryError names the option."""

    @classmethod
    def option_condition(cls, option: Option) -> str:
        """When an option applies only under another's value, that as a player says it
        (``when_words``: "Only when the match is played to a target score."; readers of
        three languages read "Only when End is “At the target”." as a filled-in
        template); else "". Drawn now, in the page's language."""
        return str(option.when_words) if option.when is not None else ""

    # The fold's questions (override) -------------------------------------
    def start(self, first_dealer: int) -> Any:
        return {"first_dealer": first_dealer, "played": 0}

    def dealer(self, state: Any) -> int:
        return (state["first_dealer"] + state["played"]) % self.n

    @abstractmethod
    def plan(self, state: Any) -> Plan:
        """The next deal's plan."""

    @abstractmethod
    def check(self, entry: Any, plan: Plan) -> dict:
        """The entry as stored, or EntryError."""

    @abstractmethod
    def score(self, entry: dict, plan: Plan) -> Score:
        """Points per seat."""

    def advance(self, state: Any, entry: dict, plan: Plan) -> Any:
        return {**state, "played": state["played"] + 1}

    def ahead(self, state: Any, k: int) -> Plan | None:
        """The plan of the deal ``k`` after the next one (the next: ``state``), where
        it follows from the deal numbers alone: a phone without the network shows
        it for the deals it enters meanwhile. None where it depends on what the
        table enters (a game whose ``advance`` keeps more than the count)."""
        if type(self).advance is not Game.advance:
            return None
        return self.plan({**state, "played": state["played"] + k})

    @abstractmethod
    def outcome(self, totals: list[int], played: int) -> Outcome:
        """Whether the match is over, and who won."""

    def teams(self) -> list[tuple[int, ...]] | None:
        return None

    def who_wins(self) -> Text:
        """What wins the match, as the sheet says it under the totals: the highest or
        lowest total, a pair's in a partnership."""
        if self.teams():
            if self.higher_wins:
                return _("The pair with the higher total wins.")
            return _("The pair with the lower total wins.")
        return _("Highest total wins.") if self.higher_wins else _("Lowest total wins.")

    def entry_fields(self, plan: Plan, partial: dict) -> list[Field]:
        """What the form asks, given what has been entered so far (``partial``).

        Most games ask the same every time: ``plan.fields``. A game whose
        questions depend on earlier answers (Variety: the counts depend on the
        type the auction chose) overrides this; EntryError for a step that
        cannot be taken (a player repeating their own call)."""
        return plan.fields

    def entry_label(self, key: str, sub: str | None = None) -> Any:
        """What the check page calls a field of the quick entry (``sub``: a part of
        it, as ``taken_by``'s Q♠ or ``capot``'s ``made``): ENTRY_LABELS' words,
        else a card's own name."""
        label = self.entry_labels.get(f"{key}.{sub}" if sub else key)
        if label is None and sub is not None:
            label = self.entry_labels.get(sub)
        if label is None and sub is not None and is_card(sub):
            label = display(sub)
        return label if label is not None else key

    def entry_value(self, key: str, value: Any) -> Any | None:
        """A value of the quick entry in the game's own words where it has them (a
        capot made); None: as any value is said (a name for a seat, a number, cards)."""
        return None

    def summary(self, state: Any) -> list[str]:
        """Lines the score sheet shows about the match so far, while a deal is still to
        be played (override): Variety's types called, for the next auction."""
        return []

    def describe(self, entry: dict, plan: Plan) -> str:
        """The entry in words, for the sheet and the CSV."""
        return ""

    def took(self, seat: int, taken: Any) -> Text:
        """A player's part of the entry in words: the name, then what they took, as a
        line of the check's table reads ("Bartek: the first trick, Q♠")."""
        return _("%(name)s: %(taken)s", name=self.names[seat], taken=taken)

    def figures(self, rows: list) -> list[Figure]:
        """What the table entered that a player page counts, over a match's deal
        rows (``Standings.rows``: each deal's entry and plan), one count per
        seat (:func:`tally`). Most games count nothing beyond the places (override)."""
        return []

    def target(self) -> int | None:
        """The total that ends the match (the chart draws it), or None when the
        match ends after a number of deals (``end: deals``, or no target at all)."""
        if self.opts.get("end", "target") != "target":
            return None
        return self.opts.get("target")

    def labels_deals(self) -> bool:
        """Does the chart write anything under a deal (``chart_axis`` overridden)?"""
        return type(self).chart_axis is not Game.chart_axis

    def chart_axis(self, plan: Plan, entry: dict) -> tuple[str, str]:
        """What the chart writes under a deal: the name of a group of deals that
        begins with it ("Round 2", else "") and the deal's short label ("3 ♠",
        else ""). Most games write only the deal numbers (override)."""
        return "", ""

    # The engine's questions (scorer.engine; see games/tricks.py) ---------
    def engine_pack(self) -> tuple[str, ...] | None:
        """The cards in play, RULES.md's removals made; None: the engine cannot
        play this game yet."""
        return None

    def checks(self, plan: Plan) -> bool:
        """Can the deal of ``plan`` be checked trick by trick (the entry form offers
        it)? Every deal the engine plays in tricks can (override)."""
        return self.engine_pack() is not None

    def engine_costs(self) -> tuple[dict[str, int], int]:
        """What taking each card, and what taking a trick, costs a player (in
        points of harm): the simple player's guide, not the score."""
        return {}, 0

    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        """How the deal of ``plan`` is played. ``given``: what the table entered
        beside the tricks (Knaves ``turn_up``, a Variety auction …)."""
        pack = self.engine_pack()
        if pack is None:
            raise EntryError(
                _("%(game)s cannot be checked trick by trick yet", game=self.name), "play"
            )
        costs, trick_cost = self.engine_costs()
        return Setup(
            pack=pack,
            tricks=len(pack) // self.n,
            leader=plan.leader,
            trump=plan.trump,
            passing=parse_passing(plan.passing),
            costs=costs,
            trick_cost=trick_cost,
        )

    def engine_decision(self, plan: Plan, given: dict) -> Decision | None:
        """The next choice the table makes beside the cards, before the first lead,
        given those made so far (``given``); None once there is none left to make.
        By default there is none."""
        return None

    def engine_moves(self, plan: Plan) -> list | None:
        """How the cards reach the hands before the deal of ``plan``: steps
        ``(seat, action, count, source)`` (``scorer.engine.table.Table``), done
        after each player picks up what they took in the deal before when
        ``plan.dealt`` is False. None: shuffle and deal ``Setup.tricks`` each."""
        return None

    def legal(self, hand: list[str], trick: list, state: TableState) -> list[str]:
        """The cards of ``hand`` that may be played to ``trick`` (a list of (seat,
        card)); by default follow suit, else anything."""
        return follow(hand, trick)

    def illegal_reason(
        self, card: str, hand: list[str], trick: list, state: TableState
    ) -> tuple[str, str, str] | None:
        """Why ``card`` may not be played, or None; agrees with :meth:`legal`.

        (kind, words, proof): kind ``follow`` (words: the suit led) or ``rule``
        (words: the rule, "no heart on the first trick"); proof: a card in the
        hand that shows it."""
        return follow_reason(card, hand, trick)

    def trick_winner(self, trick: list, setup: Setup) -> int:
        """The position in ``trick`` of the winning card."""
        return trick_winner(trick, setup)

    @classmethod
    def contracts(cls) -> list[tuple[Any, str, str | None, bool]]:
        """Kinds of deal that set the trump and the trick rule, for "Who won this
        trick?": (value, label, trump, lowest wins). Most games have none."""
        return []

    def trick_setup(self, trump: str | None, lowest_wins: bool = False) -> Setup:
        """How one trick of this game is judged with the given trump."""
        plan = self.plan(self.start(0))
        setup = self.engine_setup(plan, {})
        return replace(setup, trump=trump, lowest_wins=lowest_wins, turn_up=False, turned_up=None)

    def trick_reason(self, trick: list[str], winner: int, setup: Setup) -> str:
        """Which card wins ``trick`` (cards in the order played) and the rule that decided."""
        card, led = trick[winner], suit_of(trick[0])
        trump = setup.trump is not None and suit_of(card) == setup.trump
        if setup.lowest_wins:
            rule = (
                _("the lowest trump wins")
                if trump
                else _(
                    "no trump was played: the lowest card of the suit led (%(suit)s) wins",
                    suit=SYMBOLS[led],
                )
            )
        elif trump and led != setup.trump:
            rule = _(
                "a trump (%(suit)s) beats every card of the suit led; the highest trump wins",
                suit=SYMBOLS[setup.trump],
            )
        elif trump:
            rule = _("trumps (%(suit)s) were led: the highest trump wins", suit=SYMBOLS[led])
        else:
            rule = _(
                "the highest card of the suit led (%(suit)s) wins; other suits cannot win",
                suit=SYMBOLS[led],
            )
            if setup.trump is not None:
                rule += " " + _("(no trump was played)")
        if tuple(setup.ranks) != RANKS:
            rule += " " + _(
                "— the order here is %(order)s",
                order=join(" ", [rank_letter(r) for r in setup.ranks]),
            )
        return _(
            "%(card)s, card %(k)s, wins: %(rule)s.", card=display(card), k=winner + 1, rule=rule
        )

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        """The deal's entry in the quick-entry shape, from what each seat took
        (``given``: what the table entered beside the tricks)."""
        raise EntryError(_("%(game)s cannot be checked trick by trick yet", game=self.name), "play")

    # Shared helpers ----------------------------------------------------
    def end_reached(self, totals: list[int], played: int) -> bool:
        """After a fixed number of deals (``end: deals``), else when a total reaches the target."""
        if self.opts.get("end", "target") == "deals":
            return played >= self.opts["deals"]
        return max(totals) >= self.opts["target"]

    def best(self, values: list[int]) -> list[int]:
        """Seats (or indexes) holding the best value: highest or lowest."""
        target = max(values) if self.higher_wins else min(values)
        return [i for i, v in enumerate(values) if v == target]


def or_list(items: list) -> str:
    """ "3", "3 or 4", "3, 4, 5 or 6"."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else join(", ", items[:-1]) + " " + _("or") + " " + items[-1]
