"""Checking a deal trick by trick, and "Who won this trick?".

The trick-by-trick page carries the deal so far in hidden fields (the tricks
as the record's ``play`` form, and the quick entry it is compared with), so it
works without JavaScript: every tap on a card is one small POST, answered by
the engine's :func:`scorer.engine.progress`.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import Optional

from .. import store
from ..cards import FULL_PACK, SUITS, SYMBOLS, display, parse, sort_key
from ..engine import deal, differences, progress, read
from ..games import GAMES, EntryError
from ..games.base import or_list
from ..i18n import L_, _, ngettext
from ..match import DealError
from ..record import RecordError, read_json
from .deal_form import deal_plan, page_mark, settle
from .entry import landed, refusal, save_deal
from .forms import (
    RadioField,
    SelectField,
    entry_from_form,
    form_problem,
    options,
    resent,
    whole_number,
)
from .lookup import new_key, scored_or_403, title

bp = Blueprint("play", __name__)


class CheckForm(FlaskForm):
    play = HiddenField()
    quick = HiddenField()
    expect = HiddenField()  # what the page saw (store.Stored marks)
    key = HiddenField()  # the idempotency key of its Save
    hands = HiddenField()  # the hands being entered, before the first card is played


def _json(text: Any, default: Any) -> Any:
    try:
        value = read_json(text) if text else default
    except RecordError:
        return default
    return value if isinstance(value, type(default)) else default


def _deal_number(raw: Any) -> int | None:
    """``?deal=N`` names a stored deal; no ``deal``: the next one; anything else: 404."""
    if raw in (None, ""):
        return None
    number = whole_number(raw)
    if number is None:
        abort(404)
    return number


def _quick_from_deal_form(rules, plan, names) -> dict:
    """What the quick entry form held when "check trick by trick" was tapped
    (as much of it as can be read: the check compares with what is there)."""
    try:
        fields, form = settle(rules, plan, names, request.form.copy())
    except EntryError:
        return {}
    form.validate()
    try:
        return entry_from_form(fields, names, form)
    except EntryError:
        return entry_from_form(fields, names, form, partial=True)


def _well_formed(rules, plan, play: Any, decisions: dict) -> tuple[dict, str | None]:
    """The tricks so far in the record's shape; a shape that cannot be read
    (only a tampered page sends one) starts the deal afresh, saying why."""
    try:
        setup = rules.engine_setup(plan, decisions)
        tricks, hands = read(play, setup, rules.n, complete=False)
    except EntryError as e:
        return {"tricks": []}, e.message
    out: dict = {"tricks": [[[s, c] for s, c in trick] for trick in tricks]}
    if hands is not None:
        out["hands"] = hands
    return out, None


def _tap(play: dict, seat: int, c: str, n: int) -> None:
    tricks = play.setdefault("tricks", [])
    if not tricks or len(tricks[-1]) >= n:
        tricks.append([])
    tricks[-1].append([seat, c])


def _undo(play: dict) -> None:
    tricks = play.get("tricks") or []
    while tricks and not tricks[-1]:
        tricks.pop()
    if tricks:
        tricks[-1].pop()
        if not tricks[-1]:
            tricks.pop()


def _score(rules, plan, entry: dict | None):
    if not entry:
        return None
    try:
        checked = rules.check({k: v for k, v in entry.items() if k != "play"}, plan)
        return rules.score(checked, plan).points
    except EntryError:
        return None


@bp.route("/m/<mid:match_id>/check", methods=["GET", "POST"])
def check_deal(match_id: str):
    stored_match = scored_or_403(match_id)
    match = stored_match.match
    number = _deal_number(request.values.get("deal"))
    rules, plan, stored = deal_plan(stored_match, number)
    if plan is None:
        flash(match.words("over"))
        return redirect(url_for("sheet.sheet", match_id=match_id))
    names, n = match.players, rules.n
    form = CheckForm()
    error = None
    if request.method == "POST" and "quick" not in request.form:
        # from the quick entry form: start with what it held
        quick = _quick_from_deal_form(rules, plan, names)
        play = {"tricks": []}
        expect, key = request.form.get("expect", ""), request.form.get("key") or new_key()
    elif request.method == "POST":
        if not form.validate():
            abort(400)
        quick = _json(form.quick.data, {})
        play = _json(form.play.data, {"tricks": []})
        expect, key = form.expect.data or "", form.key.data or new_key()
    else:
        quick = {k: v for k, v in (stored or {}).items() if k != "play"}
        play = (stored or {}).get("play") or {"tricks": []}
        expect, key = page_mark(stored_match, number), new_key()
    decisions = {k: quick[k] for k in rules.decisions if k in quick}
    play, error = _well_formed(rules, plan, play, decisions)
    before = progress(rules, plan, play, decisions)
    setup = _setup(rules, plan, decisions)
    draft = _draft(form.hands.data, setup, n) if request.method == "POST" else []
    if "enter_hands" in request.form and not play["tricks"] and setup:
        draft = [[] for _s in range(n)]
    elif "app_deals" in request.form and not play["tricks"] and _app_can_deal(setup, plan):
        play["hands"] = deal(setup, n, random.Random(), plan.dealer)[0]
        draft = []
    if draft and setup and "card" in request.form:
        draft = _deal_to(draft, parse(request.form.get("card")), setup)
        if all(len(h) == setup.tricks for h in draft):
            play["hands"], draft = draft, []
    elif draft and "undo" in request.form:
        for hand in reversed(draft):
            if hand:
                hand.pop()
                break
    elif "card" in request.form or "lead" in request.form:
        # "lead": one tap names who holds the card that must open the deal (Hearts' 2♣)
        lead = _lead_card(setup, play, before) if "lead" in request.form else None
        c = lead or parse(request.form.get("card"))
        seat = whole_number(request.form.get("lead" if lead else "seat", ""), 2)
        seat = seat if seat is not None and seat < n else before.turn
        if c is None:
            error = _("That is not a card.")
        elif seat is None:
            error = _("Say who played it.")
        else:
            _tap(play, seat, c, n)
    elif "undo" in request.form:
        _undo(play)
    now = progress(rules, plan, play, decisions)
    if "save" in request.form and not (now.complete and now.entry):
        error = match.words(
            "incomplete",
            num=setup.tricks if setup else 0,
            k=len(now.winners),
            n=setup.tricks if setup else "?",
        )
    elif "save" in request.form:
        try:
            change = save_deal(match_id, number, now.entry, expect, key, match)
        except DealError as e:
            error = refusal(e, number, match)
        except store.StoreError as e:
            why = e.message[:1].upper() + e.message[1:]
            error = resent(e) or match.words("nothing_saved", why=why)
        else:
            return landed(match_id, match, change)
    derived = {k: v for k, v in (now.entry or {}).items() if k != "play"}
    diffs = [d.message for d in differences(quick, derived, rules)] if derived and quick else []
    played = {c for trick in play.get("tricks", []) for _s, c in trick}
    pack = set(rules.engine_pack() or ())
    form = CheckForm(
        formdata=None,
        data={
            "play": json.dumps(play),
            "quick": json.dumps(quick),
            "expect": expect,
            "key": key,
            "hands": json.dumps(draft) if draft else "",
        },
    )
    held = play.get("hands")
    if draft:
        dealing = next(s for s in range(n) if len(draft[s]) < setup.tricks)
        allowed = set(_rest(draft, setup))
    elif held and now.turn is not None:
        dealing, allowed = None, set(held[now.turn]) - played
    else:
        dealing, allowed = None, pack - played
    lead_card = None if draft else _lead_card(setup, play, now)
    trick_rows = []
    for k, trick in enumerate(play.get("tricks", [])):
        winner = now.winners[k] if k < len(now.winners) else None
        trick_rows.append(
            {
                "cards": [(names[s], c) for s, c in trick],
                "winner": names[winner] if winner is not None else None,
            }
        )
    return render_template(
        "check.html",
        match_id=match_id,
        match=match,
        title=title(match),
        plan=plan,
        number=number,
        form=form,
        progress=now,
        tricks=trick_rows,
        played=played,
        pack=pack,
        suits=SUITS,
        error=error,
        quick=quick,
        derived=derived,
        diffs=diffs,
        quick_points=_score(rules, plan, quick),
        derived_points=_score(rules, plan, derived),
        words=rules.describe(rules.check(derived, plan), plan) if derived else "",
        seat_choices=list(enumerate(names)),
        cards=FULL_PACK,
        game=GAMES[match.game],
        draft=draft,
        dealing=dealing,
        allowed=sorted(allowed, key=sort_key),  # a hand as a player holds it: suit by suit
        hand_size=setup.tricks if setup else 0,
        hands_known=bool(held),
        lead_card=lead_card,
        app_can_deal=_app_can_deal(setup, plan),
        playable=setup is not None,  # Variety: not before its type and attackers are known
        turn_up=bool(setup and setup.turn_up),  # Knaves: the trump is the turned-up card's suit
    ), (400 if error else 200)


def _lead_card(setup, play: dict, now) -> str | None:
    """The card that must open the deal while nobody knows who holds it (Hearts'
    2♣, hands unknown): one tap on its holder plays it. None otherwise."""
    if setup is None or play.get("tricks") or now.turn is not None or now.problems:
        return None
    return setup.lead_card


def _app_can_deal(setup, plan) -> bool:
    """The app can deal fresh hands, unless the deal's hands come from elsewhere
    (Metamorphosis plays on with the cards taken) or a card is turned up (Knaves:
    the quick entry names it)."""
    return bool(setup) and plan.dealt and not setup.turn_up


def _setup(rules, plan, decisions: dict):
    try:
        return rules.engine_setup(plan, decisions)
    except EntryError:
        return None


def _draft(text: Any, setup, n: int) -> list[list[str]]:
    """The hands being tapped in, from the page; anything else than n lists of
    this pack's cards (only a tampered page sends it) starts them afresh."""
    draft = _json(text, [])
    if not setup or not draft:
        return []
    if len(draft) != n or not all(isinstance(h, list) for h in draft):
        return []
    pack = set(setup.pack)
    if not all(isinstance(c, str) and c in pack for h in draft for c in h) or any(
        len(h) > setup.tricks for h in draft
    ):
        return []
    return draft


def _rest(draft: list[list[str]], setup) -> list[str]:
    """The cards of the pack not yet in a hand (nor turned up)."""
    taken = {c for hand in draft for c in hand} | {setup.turned_up}
    return [c for c in setup.pack if c not in taken]


def _deal_to(draft: list[list[str]], c: str | None, setup) -> list[list[str]]:
    """The card goes to the first hand still short; the last hand takes the rest."""
    if c is None or c not in _rest(draft, setup):
        return draft
    seat = next(s for s in range(len(draft)) if len(draft[s]) < setup.tricks)
    draft[seat].append(c)
    short = [s for s in range(len(draft)) if len(draft[s]) < setup.tricks]
    rest = _rest(draft, setup)
    if len(short) == 1 and len(rest) == setup.tricks - len(draft[short[0]]):
        draft[short[0]].extend(rest)
    return draft


# --- who won this trick? ----------------------------------------------------------

NO_TRUMP = ""


class TrickForm(FlaskForm):
    class Meta:
        csrf = False  # a question, not a change: nothing is stored

    game = SelectField(L_("Game"), validators=[Optional()])
    trump = RadioField(L_("Trump"), validators=[Optional()], default=NO_TRUMP)
    contract = SelectField(L_("The Variety deal type"), validators=[Optional()])
    cards = StringField(
        L_("The cards in the order played, the lead first"), validators=[Optional()]
    )


@bp.route("/trick", methods=["GET"])
def who_won():
    form = TrickForm(request.args)
    form.game.choices = options((key, g.name) for key, g in GAMES.items())
    form.trump.choices = options([(NO_TRUMP, _("No trumps"))] + [(s, SYMBOLS[s]) for s in SUITS])
    contracts = {}
    for key, cls in GAMES.items():
        for value, label, _trump, _low in cls.contracts():
            contracts[f"{key}:{value}"] = label
    form.contract.choices = options([("", "—")] + list(contracts.items()))
    answer = problem = None
    if request.args.get("cards"):
        if not form.validate():
            problem = form_problem(form)
        else:
            answer, problem = _answer(form)
    return render_template("trick.html", form=form, answer=answer, problem=problem), (
        400 if problem else 200
    )


def _answer(form: TrickForm) -> tuple[str | None, str | None]:
    key = form.game.data if form.game.data in GAMES else None
    if key is None:
        return None, _("Choose the game.")
    cls = GAMES[key]
    raw = (form.cards.data or "").replace(",", " ").split()
    trick = [parse(t) for t in raw]
    bad = [t for t, c in zip(raw, trick) if c is None]
    if bad:
        return None, _(
            "%(text)s is not a card (write them like QS 10H 2C, or Q♠)", text=bad[0][:12]
        )
    # each player plays one card to a trick: its cards are the number at the table,
    # whose pack it is (RULES.md: 2♣ is out of a 3-player Black Maria)
    counts = sorted(cls.player_counts)
    if len(trick) not in counts:
        return None, ngettext(
            "A trick has one card from each player, and %(game)s is played by %(choices)s "
            "players: not %(num)s card.",
            "A trick has one card from each player, and %(game)s is played by %(choices)s "
            "players: not %(num)s cards.",
            len(trick),
            game=cls.name,
            choices=or_list(counts),
        )
    if len(set(trick)) != len(trick):
        return None, _("A card appears twice.")
    counts = [len(trick)]
    rules = _rules(cls, counts[0])
    trump, lowest = (form.trump.data or None), False
    if form.contract.data:
        chosen = [
            (t, low)
            for value, _label, t, low in cls.contracts()
            if form.contract.data == f"{key}:{value}"
        ]
        if not chosen:
            return None, _("That deal type is not one of %(game)s.", game=cls.name)
        trump, lowest = chosen[0]
    try:
        setup = rules.trick_setup(trump, lowest)
    except EntryError as e:
        return None, e.message
    pack = _packs(cls, counts)
    outside = [c for c in trick if c not in pack]
    if outside:
        return None, ngettext(
            "%(card)s is not in the pack of %(game)s with %(players)s players.",
            "%(card)s is not in the pack of %(game)s with %(players)s players.",
            counts[-1],
            card=display(outside[0]),
            game=cls.name,
            players=or_list(counts),
        )
    setup = replace(setup, pack=tuple(c for c in FULL_PACK if c in pack))
    seats = list(range(len(trick)))
    winner = rules.trick_winner(list(zip(seats, trick)), setup)
    return rules.trick_reason(trick, winner, setup), None


def _rules(cls, n: int, options: dict | None = None):
    return cls(cls.normalize_options(options or {}, n), [str(i + 1) for i in range(n)])


def _packs(cls, counts: list[int]) -> set[str]:
    """Every card that some table of this game may hold with one of ``counts``
    players: the pack depends on the number of players (RULES.md's removed cards)
    and on options such as Polignac's sevens."""
    cards: set[str] = set()
    variants = [{}] + [{o.key: v} for o in cls.options if o.kind == "choice" for v in o.choices]
    for n in counts:
        for variant in variants:
            try:
                cards |= set(_rules(cls, n, variant).engine_pack() or FULL_PACK)
            except EntryError:
                continue  # a choice this number of players cannot take
    return cards
