"""Flask-WTF forms built from what a game asks (``Plan.fields``, ``Game.options``).

The forms only carry values and the CSRF token; what the values mean is
checked once, by the game module, through the same record shapes the API and
the importer use.
"""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms import IntegerField as _IntegerField
from wtforms import RadioField as _RadioField
from wtforms import SelectField as _SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, StopValidation, ValidationError
from wtforms.validators import NumberRange as _NumberRange

from .. import store
from ..cards import display
from ..games.base import EntryError, Field, Game
from ..i18n import L_, _
from ..record import invisible_char


def whole_number(text: Any, digits: int = 9) -> int | None:
    """A small whole number written in ASCII digits ("12"), else None ("²", "-1", "x")."""
    if isinstance(text, str) and 0 < len(text) <= digits and all("0" <= ch <= "9" for ch in text):
        return int(text)
    return None


# WTForms' own messages ("Not a valid integer value.") are not table words:
# these fields and the range check say what to do instead.


class IntegerField(_IntegerField):
    def process_formdata(self, valuelist):
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(_("write a whole number, such as 3")) from None


class NumberRange(_NumberRange):
    def __init__(self, low: int, high: int):
        super().__init__(low, high)

    def __call__(self, form, field):
        if field.data is not None and not self.min <= field.data <= self.max:
            raise StopValidation(
                _("write a number from %(low)s to %(high)s", low=self.min, high=self.max)
            )


class _OneOfTheChoices:
    def pre_validate(self, form):
        try:
            super().pre_validate(form)
        except ValidationError:
            raise ValidationError(_("tap one of the choices")) from None


class RadioField(_OneOfTheChoices, _RadioField):
    pass


class SelectField(_OneOfTheChoices, _SelectField):
    pass


def options(pairs) -> list[SelectChoice]:
    return [SelectChoice(str(value), label) for value, label in pairs]


# A form sent again with other values: the same hidden key (the page's Save or Undo
# sent once, then again after Back with something else typed). The store's own
# words are the API's ("this idempotency key was already used …"); a page says this.
RESENT = L_(
    "This form was already sent with other values. Reload the page and enter it again; "
    "nothing was saved."
)


def resent(e: Exception) -> Any:
    """RESENT for a store's refusal of a key used before (KeyReused), else None."""
    return RESENT if isinstance(e, store.KeyReused) else None


def form_problem(form) -> str:
    """What WTForms refused, in the labels the player sees."""
    for name, errors in form.errors.items():
        if name in form._fields and errors:
            # the label as a refusal names it: a question's "?" is not followed by ":"
            label = str(form[name].label.text).rstrip("?: ")
            return _("%(what)s: %(why)s", what=label, why=errors[0])
    return _("Some fields are not right; see below.")


class ConfirmForm(FlaskForm):
    """A bare form for POST buttons (delete, rematch): CSRF only."""


class ImportForm(FlaskForm):
    pass


# --- new match -------------------------------------------------------------

# Bytes of a form body that are not UTF-8 reach the form as %XX escapes (a
# urlencoded body: Werkzeug quotes them again) or as U+FFFD (multipart).
NOT_UTF8 = re.compile("%[89A-F][0-9A-F]|\ufffd")


def name_as_typed(form, field) -> None:
    """A player's name as a browser's text box sends it: no control or format
    character (a line break is no space here: a text box cannot hold one),
    nothing that came as bytes that are not UTF-8. Both the new-match and the
    set-up form; the record's own check (record.check_names) comes after."""
    text = field.data or ""
    for ch in text:
        why = invisible_char(ch)
        if why:
            raise StopValidation(why)
    if NOT_UTF8.search(text):
        raise StopValidation(_("the text holds a character that is not valid Unicode"))


def new_match_form(game: type[Game], formdata=None) -> FlaskForm:
    seats = max(game.player_counts)

    class NewMatchForm(FlaskForm):
        pass

    for s in range(seats):
        setattr(
            NewMatchForm,
            f"name_{s}",
            StringField(
                L_("Player %(n)s", n=s + 1),
                validators=[name_as_typed, Optional(), Length(max=200)],
            ),
        )
    dealer_choices = [("draw", L_("Draw lots (the app picks)"))] + [
        (str(s), L_("Player %(n)s", n=s + 1)) for s in range(seats)
    ]
    NewMatchForm.first_dealer = SelectField(
        L_("First dealer"), choices=options(dealer_choices), default="0"
    )
    for o in game.options:
        name = f"opt_{o.key}"
        if o.kind == "map":  # one number per key, blank keeps the default
            for key, label in zip(o.choices, o.choice_labels or o.choices):
                setattr(
                    NewMatchForm,
                    f"{name}__{key}",
                    IntegerField(label, validators=[Optional(), NumberRange(o.low, o.high)]),
                )
            continue
        if o.kind == "bool":
            field = BooleanField(o.label, default=o.default)
        elif o.kind == "choice":
            field = RadioField(
                o.label,
                choices=options(zip(o.choices, o.choice_labels or o.choices)),
                default=o.default,
            )
        else:
            field = IntegerField(o.label, validators=[Optional(), NumberRange(o.low, o.high)])
        setattr(NewMatchForm, name, field)
    return NewMatchForm(formdata=formdata)


def record_from_new_match(game: type[Game], form: FlaskForm) -> dict:
    """The record header a filled-in new-match form describes."""
    seats = max(game.player_counts)
    names = [(form[f"name_{s}"].data or "").strip() for s in range(seats)]
    filled = [n for n in names if n]
    options: dict[str, Any] = {}
    for o in game.options:
        if o.kind == "map":
            given = {k: form[f"opt_{o.key}__{k}"].data for k in o.choices}
            given = {k: v for k, v in given.items() if v is not None}
            if given:
                options[o.key] = given
            continue
        value = form[f"opt_{o.key}"].data
        if o.kind == "int" and value is None:
            continue  # blank: the default
        options[o.key] = value
    dealer = form.first_dealer.data
    record = {"game": game.key, "players": filled, "options": options}
    if dealer != "draw" and filled:  # with no names at all, the names are what is wrong
        try:
            seat = int(dealer)
        except (TypeError, ValueError):
            seat = -1
        # the dealer is named by row; rows left blank do not count
        rows = [i for i, n in enumerate(names) if n]
        if seat in rows:
            record["first_dealer"] = rows.index(seat)
        else:
            raise EntryError(_("the first dealer's row has no name"), "first_dealer")
    return record


# --- a deal ----------------------------------------------------------------


def _set(entry: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for p in parents:
        entry = entry.setdefault(p, {})
    entry[last] = value


def _get(entry: dict, path: str) -> Any:
    for p in path.split("."):
        if not isinstance(entry, dict) or p not in entry:
            return None
        entry = entry[p]
    return entry


def field_id(f: Field, *parts: Any) -> str:
    return "__".join([f.name.replace(".", "_")] + [str(p) for p in parts])


def deal_form(
    fields: list[Field],
    names: list[str],
    formdata=None,
    data: dict | None = None,
    token: bool = True,
):
    """A form for the deal: one input per seat and field, by the field's kind; with
    the CSRF token unless ``token`` is False (a form every phone is shown)."""
    n = len(names)
    seat_choices = [(str(s), name) for s, name in enumerate(names)]

    class DealForm(FlaskForm):
        expect = HiddenField()  # what the page saw: store.Stored.deal_mark / next_mark
        number = HiddenField()  # a new deal's: the number of the table's deal it records
        key = HiddenField()  # the page's idempotency key: a second tap repeats, not redoes

    for f in fields:
        if f.kind == "counts":
            for s in range(n):
                setattr(
                    DealForm,
                    field_id(f, s),
                    IntegerField(names[s], validators=[Optional(), NumberRange(0, f.high)]),
                )
        elif f.kind == "owner":
            choices = seat_choices + ([("none", _("out of play"))] if f.optional else [])
            setattr(
                DealForm,
                field_id(f),
                RadioField(f.label, choices=options(choices), validators=[Optional()]),
            )
        elif f.kind == "partition":
            for c in f.cards:
                setattr(
                    DealForm,
                    field_id(f, c),
                    RadioField(c, choices=options(seat_choices), validators=[Optional()]),
                )
        elif f.kind == "choice":
            choices = [(v, str(label)) for v, label in f.choices]
            if f.per_seat:
                for s in range(n):
                    setattr(
                        DealForm,
                        field_id(f, s),
                        RadioField(names[s], choices=options(choices), validators=[Optional()]),
                    )
            else:
                setattr(
                    DealForm,
                    field_id(f),
                    RadioField(f.label, choices=options(choices), validators=[Optional()]),
                )
        elif f.kind == "seat_choice":
            choices = ([("", _("nobody"))] if f.optional else []) + seat_choices
            setattr(
                DealForm,
                field_id(f),
                RadioField(
                    f.label,
                    choices=options(choices),
                    default="" if f.optional else None,
                    validators=[Optional()],
                ),
            )
        elif f.kind == "flag":
            setattr(DealForm, field_id(f), BooleanField(f.label))
        elif f.kind == "number":
            setattr(
                DealForm,
                field_id(f),
                IntegerField(f.label, validators=[Optional(), NumberRange(0, f.high)]),
            )
        elif f.kind == "calls":
            setattr(DealForm, field_id(f), HiddenField())
        elif f.kind == "seat_pair":
            for i, label in enumerate((_("first"), _("second"))):
                setattr(
                    DealForm,
                    field_id(f, i),
                    RadioField(label, choices=options(seat_choices), validators=[Optional()]),
                )
        elif f.kind == "card":
            setattr(
                DealForm,
                field_id(f),
                SelectField(
                    f.label,
                    choices=options([("", "—")] + [(c, display(c)) for c in f.cards]),
                    validators=[Optional()],
                ),
            )
    return DealForm(formdata=formdata, data=data, meta=form_meta(token))


def form_meta(token: bool) -> dict:
    """A form's WTForms meta: without its CSRF token (``token`` False) on a page
    every phone is shown (scorer.web.sheet)."""
    return {} if token else {"csrf": False}


def _int_or_raw(value: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def parse_calls(text: Any) -> list:
    """ "3,5,2" → [3, 5, 2]; a token that is no number stays, for the game to refuse."""
    return [_int_or_raw(t) for t in str(text or "").split(",") if t.strip()]


def entry_from_form(fields: list[Field], names: list[str], form, partial: bool = False) -> dict:
    """The record entry the form describes. Blank counts: the last one is filled in.

    ``partial``: what has been entered so far, for a form whose questions
    depend on earlier answers; nothing missing is an error yet."""
    n = len(names)
    entry: dict = {}
    for f in fields:
        if partial and f.kind not in ("calls", "choice", "seat_pair"):
            continue
        if f.kind == "calls":
            calls = parse_calls(form[field_id(f)].data)
            if calls:
                _set(entry, f.name, calls)
        elif f.kind == "number":
            value = form[field_id(f)].data
            if value is not None:
                _set(entry, f.name, value)
        elif f.kind == "seat_pair":
            pair = [_int_or_raw(form[field_id(f, i)].data) for i in (0, 1)]
            given = [p for p in pair if p not in (None, "", "None")]
            if len(given) == 2:
                _set(entry, f.name, pair)
            elif given and not partial:
                raise EntryError(_("%(what)s: choose both players", what=f.called), f.name)
        elif f.kind == "counts":
            values = [form[field_id(f, s)].data for s in range(n)]
            blanks = [s for s, v in enumerate(values) if v is None]
            if f.total is not None and len(blanks) == 1:
                known = sum(v for v in values if v is not None)
                values[blanks[0]] = f.total - known
                if values[blanks[0]] < 0:
                    raise EntryError(
                        _(
                            "%(what)s add up to %(got)s, but %(want)s are in play",
                            what=f.called,
                            got=known,
                            want=f.total,
                        ),
                        f.name,
                    )
            elif f.total is not None and blanks and sum(v or 0 for v in values) == f.total:
                for s in blanks:  # the counts given already make the total: 0 for the rest
                    values[s] = 0
            elif blanks and not (f.optional and len(blanks) == n):
                raise EntryError(
                    _(
                        "%(what)s: fill in a number for %(name)s",
                        what=f.called,
                        name=names[blanks[0]],
                    ),
                    f.name,
                )
            if not (f.optional and len(blanks) == n):
                _set(entry, f.name, values)
        elif f.kind == "owner":
            value = form[field_id(f)].data
            if value == "none":
                _set(entry, f.name, None)
            elif value not in (None, "", "None"):
                _set(entry, f.name, _int_or_raw(value))
        elif f.kind == "partition":
            hands: list[list[str]] = [[] for _s in range(n)]
            for c in f.cards:
                value = _int_or_raw(form[field_id(f, c)].data)
                if isinstance(value, int) and 0 <= value < n:
                    hands[value].append(c)
            _set(entry, f.name, hands)
        elif f.kind == "choice":
            if f.per_seat:
                values = [_int_or_raw(form[field_id(f, s)].data) for s in range(n)]
                if any(v in (None, "", "None") for v in values):
                    if f.optional and all(v in (None, "", "None") for v in values):
                        continue
                    missing = next(s for s, v in enumerate(values) if v in (None, "", "None"))
                    raise EntryError(
                        _("%(what)s: choose one for %(name)s", what=f.called, name=names[missing]),
                        f.name,
                    )
                _set(entry, f.name, values)
            else:
                value = form[field_id(f)].data
                if value not in (None, "", "None"):
                    _set(entry, f.name, _int_or_raw(value))
        elif f.kind == "seat_choice":
            value = form[field_id(f)].data
            if value not in (None, "", "None"):
                _set(entry, f.name, _int_or_raw(value))
        elif f.kind == "flag":
            parent = f.name.rsplit(".", 1)[0] if "." in f.name else None
            if form[field_id(f)].data:
                _set(entry, f.name, True)
            elif parent and _get(entry, parent) is not None:
                _set(entry, f.name, False)  # a box left unticked says no
        elif f.kind == "card":
            value = form[field_id(f)].data
            if value:
                _set(entry, f.name, value)
    return entry


def form_data_from_entry(fields: list[Field], n: int, entry: dict) -> dict:
    """The form's values for a stored entry (to edit it)."""
    data: dict[str, Any] = {}
    for f in fields:
        value = _get(entry, f.name)
        if value is None and f.kind != "owner":
            continue
        if f.kind == "calls":
            data[field_id(f)] = ",".join(str(c) for c in value)
        elif f.kind == "seat_pair":
            for i in (0, 1):
                data[field_id(f, i)] = str(value[i])
        elif f.kind == "number":
            data[field_id(f)] = value
        elif f.kind == "counts" or (f.kind == "choice" and f.per_seat):
            for s in range(n):
                data[field_id(f, s)] = value[s] if isinstance(value, list) else None
        elif f.kind == "owner":
            if value is None and f.optional and _get(entry, f.name.rsplit(".", 1)[0]) is not None:
                data[field_id(f)] = "none"
            elif value is not None:
                data[field_id(f)] = str(value)
        elif f.kind == "partition":
            for s, cards in enumerate(value):
                for c in cards:
                    data[field_id(f, c)] = str(s)
        elif f.kind in ("choice", "seat_choice", "card"):
            data[field_id(f)] = str(value)
        elif f.kind == "flag":
            data[field_id(f)] = bool(value)
    return data
