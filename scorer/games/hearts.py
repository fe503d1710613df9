"""Hearts and Black Maria: one family of penalty games (RULES.md; the Polish card-game
book, the Esperanto rules and the Czech rules, seeds 000, 002 and 004).

What differs between the two is mostly data: the cards removed, the pass
cycle, the penalty cards, whether a moon can be shot; Hearts alone has its
first lead (the lowest club) and its first-trick and hearts-led rules.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any

from ..cards import RANKS, display, pack, parse, rank_of, sort_key, suit_of
from ..i18n import L_, _, join, ngettext, pgettext
from .base import (
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
    end_options,
    only_fields,
    owners,
    pack_note,
    score_lines,
    tally,
)
from .tricks import Captured, Setup, TableState, follow, follow_reason

SPOT_VALUES = {
    "10-10-10-15": {"J": 10, "Q": 10, "K": 10, "A": 15},
    "11-12-13-14": {"J": 11, "Q": 12, "K": 13, "A": 14},
}
PASS_WORDS = {
    "left": L_("left"),
    "right": L_("right"),
    "across": L_("across"),
    "none": pgettext("pass", "none"),  # no pass this deal: not the trump column's "none"
}


def spot_value(card: str, table: str) -> int:
    rank = rank_of(card)
    return SPOT_VALUES[table].get(rank) or int(rank)


def _target_default(opts: dict) -> int:
    return 500 if opts.get("scoring") == "spot" else 100


SPOT_VALUES_OPTION = Option(
    "spot_values",
    "choice",
    "10-10-10-15",
    L_("Spot values"),
    L_("What J Q K A of hearts are worth under Spot scoring."),
    source=L_("the Esperanto rules (10-10-10-15); 11-12-13-14 a common variant"),
    choices=("10-10-10-15", "11-12-13-14"),
    choice_labels=(L_("J Q K 10, A 15"), L_("J 11, Q 12, K 13, A 14")),
    when=("scoring", "spot"),
    when_words=L_("Only when hearts score by their face value."),
)
OMNIBUS_OPTION = Option(
    "omnibus",
    "bool",
    False,
    L_("Omnibus (J♦ −10)"),
    L_("Whoever takes J♦ scores 10 points off."),
    source=L_("the Czech rules"),
)
TARGET_HELP = L_(
    "The match ends when a player reaches this total; lowest wins. Empty: 100, or 500 under Spot."
)
TARGET_SOURCE = L_("the Esperanto rules (100; 500 under Spot)")
TARGET_OPTION = replace(end_options(_target_default, TARGET_HELP, TARGET_SOURCE)[1], when=None)


class HeartsFamily(Game):
    higher_wins = False
    removed: dict[int, tuple[str, ...]] = {}
    moon_possible = True
    mark_legend = L_("☾ shot the moon")

    # --- the pack -------------------------------------------------------
    @cached_property
    def pack(self) -> tuple[str, ...]:
        return pack(without=self.removed[self.n])

    @cached_property
    def hearts_in_play(self) -> tuple[str, ...]:
        return tuple(c for c in self.pack if suit_of(c) == "H")

    @property
    def spot(self) -> bool:
        return self.opts.get("scoring") == "spot"

    @cached_property
    def penalty_cards(self) -> dict[str, int]:
        """The special cards and what each costs, in the order the form asks."""
        cards = {"QS": 25 if self.spot else 13}
        if self.spades_scored:
            cards.update({"KS": 10, "AS": 7})
        if self.opts.get("omnibus"):
            cards["JD"] = -10
        return cards

    spades_scored = False

    def heart_value(self, card: str) -> int:
        return spot_value(card, self.opts["spot_values"]) if self.spot else 1

    def first_leader(self, dealer: int) -> tuple[int | None, str]:
        return (dealer + 1) % self.n, ""

    # --- the fold ---------------------------------------------------------
    def plan(self, state: Any) -> Plan:
        dealer = self.dealer(state)
        number = state["played"] + 1
        leader, leader_text = self.first_leader(dealer)
        passing = self.passing(state["played"])
        return Plan(
            number=number,
            dealer=dealer,
            leader=leader,
            leader_text=leader_text,
            passing=passing,
            title=_("Deal %(n)s", n=number),
            notes=[*self.pack_notes, self.pass_note(passing)],
            fields=list(self.deal_fields),
        )

    @cached_property
    def pack_notes(self) -> tuple[str, ...]:
        """What to take out of the pack, if anything: the same before every deal."""
        removed = self.removed[self.n]
        return (pack_note(removed, len(self.pack) // self.n),) if removed else ()

    @cached_property
    def deal_fields(self) -> tuple[Field, ...]:
        """What the form asks after every deal (the same each time)."""
        fields = []
        if self.spot:
            fields.append(
                Field(
                    "partition",
                    "heart_cards",
                    _("Which hearts each player took"),
                    cards=self.hearts_in_play,
                )
            )
        else:
            fields.append(
                Field(
                    "counts",
                    "hearts",
                    _("Hearts taken"),
                    total=len(self.hearts_in_play),
                    high=len(self.hearts_in_play),
                )
            )
        for c in self.penalty_cards:
            fields.append(
                Field(
                    "owner", f"taken_by.{c}", _("Who took %(card)s?", card=display(c)), cards=(c,)
                )
            )
        return tuple(fields)

    def pass_note(self, passing: str) -> str:
        if passing == "none":
            return _("No passing this deal.")
        way, count = passing.split()
        return ngettext(
            "Pass %(count)s card %(way)s.",
            "Pass %(count)s cards %(way)s.",
            int(count),
            count=int(count),
            way=PASS_WORDS[way],
        )

    def check(self, entry: Any, plan: Plan) -> dict:
        entry = only_fields(entry, {"hearts", "heart_cards", "taken_by"})
        in_play = self.hearts_in_play
        out: dict = {}
        if "heart_cards" in entry:
            out["heart_cards"] = self._check_heart_cards(entry["heart_cards"], in_play)
            from_cards = [len(cs) for cs in out["heart_cards"]]
            if "hearts" in entry:
                given = counts(
                    entry["hearts"], self.n, "hearts", len(in_play), pgettext("taken", "hearts")
                )
                for s in range(self.n):
                    if given[s] != from_cards[s]:
                        raise EntryError(
                            ngettext(
                                "%(name)s: hearts says %(count)s, "
                                "but %(cards)s heart card is listed",
                                "%(name)s: hearts says %(count)s, "
                                "but %(cards)s heart cards are listed",
                                from_cards[s],
                                name=self.names[s],
                                count=given[s],
                                cards=from_cards[s],
                            ),
                            "hearts",
                        )
            out["hearts"] = from_cards
        elif self.spot:
            raise EntryError(
                _("under Spot scoring, say which hearts each player took"), "heart_cards"
            )
        elif "hearts" in entry:
            out["hearts"] = counts(
                entry["hearts"], self.n, "hearts", len(in_play), pgettext("taken", "hearts")
            )
        else:
            raise EntryError(_("say how many hearts each player took"), "hearts")
        specials = tuple(self.penalty_cards)
        out["taken_by"] = owners(entry.get("taken_by"), specials, self.n)
        return {
            "hearts": out["hearts"],
            **({"heart_cards": out["heart_cards"]} if "heart_cards" in out else {}),
            "taken_by": out["taken_by"],
        }

    def _check_heart_cards(self, value: Any, in_play: tuple[str, ...]) -> list[list[str]]:
        if not isinstance(value, list) or len(value) != self.n:
            raise EntryError(
                _("heart_cards needs one list of cards per player (%(n)s)", n=self.n), "heart_cards"
            )
        seen: dict[str, int] = {}
        out = []
        for s, cards in enumerate(value):
            if not isinstance(cards, list):
                raise EntryError(
                    _("heart_cards needs one list of cards per player (%(n)s)", n=self.n),
                    "heart_cards",
                )
            mine = []
            for raw in cards:
                c = parse(raw)
                if c is None or c not in in_play:
                    shown = display(c) if c else str(raw)[:12]
                    raise EntryError(
                        _("%(card)s is not a heart in play", card=shown), "heart_cards"
                    )
                if c in seen:
                    raise EntryError(_("%(card)s is listed twice", card=display(c)), "heart_cards")
                seen[c] = s
                mine.append(c)
            out.append(sorted(mine, key=lambda c: RANKS.index(rank_of(c))))
        missing = [c for c in in_play if c not in seen]
        if missing:
            raise EntryError(
                _("nobody took %(cards)s", cards=join(", ", [display(c) for c in missing])),
                "heart_cards",
            )
        return out

    def score(self, entry: dict, plan: Plan) -> Score:
        n = self.n
        cards = self.penalty_cards
        if "heart_cards" in entry:
            hearts = [sum(self.heart_value(c) for c in cs) for cs in entry["heart_cards"]]
        else:
            value = self.heart_value("2H")
            hearts = [k * value for k in entry["hearts"]]
        points = list(hearts)
        lines = [
            [count_words("hearts", entry["hearts"][s])] if entry["hearts"][s] else []
            for s in range(n)
        ]
        for c, value in cards.items():
            if c == "JD":
                continue  # added after any moon
            s = entry["taken_by"][c]
            points[s] += value
            lines[s].append(display(c))
        note = ""
        marks = [""] * n
        shooter = self.shooter(entry)
        if shooter is not None:
            value = sum(self.heart_value(c) for c in self.hearts_in_play) + cards["QS"]
            if self.opts["moon"] == "others":
                points = [0 if s == shooter else value for s in range(n)]
            else:
                points = [-value if s == shooter else 0 for s in range(n)]
            note = _("%(name)s shot the moon", name=self.names[shooter])
            lines[shooter].append(_("the moon"))
            marks[shooter] = "☾"
        if "JD" in cards:
            s = entry["taken_by"]["JD"]
            points[s] += cards["JD"]
            lines[s].append(display("JD"))
        text = score_lines(lines, points)
        return Score(points, text, note, marks=marks)

    def figures(self, rows: list) -> list[Figure]:
        """Q♠ taken; in Hearts also the moons shot, as the score counts them
        (none while the moon option is off)."""
        out = [
            tally(
                self.n,
                rows,
                "qs_taken",
                _("%(card)s taken", card=display("QS")),
                lambda entry, plan: [entry["taken_by"]["QS"]],
            )
        ]
        if self.moon_possible:
            out.append(
                tally(
                    self.n,
                    rows,
                    "moons",
                    _("Moons shot"),
                    lambda entry, plan: [s for s in (self.shooter(entry),) if s is not None],
                )
            )
        return out

    def shooter(self, entry: dict) -> int | None:
        if not self.moon_possible or self.opts.get("moon", "off") == "off":
            return None
        qs = entry["taken_by"]["QS"]
        if entry["hearts"][qs] == len(self.hearts_in_play):
            return qs
        return None

    # --- the engine -------------------------------------------------------------
    def engine_pack(self) -> tuple[str, ...]:
        return self.pack

    def engine_costs(self) -> tuple[dict[str, int], int]:
        costs = {c: self.heart_value(c) for c in self.hearts_in_play}
        costs.update(self.penalty_cards)
        return costs, 0

    def entry_from_play(self, plan: Plan, setup: Setup, captured: Captured, given: dict) -> dict:
        hearts = [[c for c in cards if suit_of(c) == "H"] for cards in captured.taken]
        entry: dict = {"hearts": [len(h) for h in hearts]}
        if self.spot:
            entry["heart_cards"] = [sorted(h, key=sort_key) for h in hearts]
        entry["taken_by"] = {c: captured.who_took(c) for c in self.penalty_cards}
        return entry

    def outcome(self, totals: list[int], played: int) -> Outcome:
        if not self.end_reached(totals, played):
            return Outcome(False)
        teams = self.teams()
        if teams:
            sums = [sum(totals[s] for s in t) for t in teams]
            return Outcome(True, sorted(s for i in self.best(sums) for s in teams[i]))
        return Outcome(True, self.best(totals))

    def describe(self, entry: dict, plan: Plan) -> str:
        parts = []
        for s in range(self.n):
            cards = [display(c) for c in entry.get("heart_cards", [[]] * self.n)[s]]
            cards += [display(c) for c, who in entry["taken_by"].items() if who == s]
            # a count of hearts in words ("10 hearts"): "10♥" reads as the ten of hearts
            count = entry["hearts"][s] if "heart_cards" not in entry else 0
            taken = [count_words("hearts", count)] if count else []
            taken += [join(", ", cards)] if cards else []
            if taken:
                parts.append(self.took(s, join(", ", taken)))
        return join("; ", parts)


class Hearts(HeartsFamily):
    key = "hearts"
    name = L_("Hearts")
    player_counts = (4, 3, 5, 6)
    source = L_("the Czech rules of Černá Marie, their “Standard Hearts” column")
    removed = {3: ("2D",), 4: (), 5: ("2C", "2D"), 6: ("2C", "2D", "2S", "3C")}
    cycles = {
        3: ("left", "right", "none"),
        4: ("left", "right", "across", "none"),
        5: ("left", "right", "none"),
        6: ("left", "right", "across", "none"),
    }
    options = (
        Option(
            "moon",
            "choice",
            "others",
            L_("Shooting the moon"),
            L_("Taking every heart and Q♠: what the shooter's deal is worth."),
            source=L_("the Czech rules"),
            choices=("others", "self", "off"),
            choice_labels=(
                L_("Everyone else gets 26"),
                L_("Shooter gets −26"),
                L_("Off: scored as taken"),
            ),
        ),
        Option(
            "scoring",
            "choice",
            "standard",
            L_("Scoring"),
            L_("Standard: a heart 1, Q♠ 13. Spot: hearts by face value, Q♠ 25."),
            source=L_("the Czech rules"),
            choices=("standard", "spot"),
            choice_labels=(pgettext("scoring", "Standard"), L_("Spot")),
        ),
        SPOT_VALUES_OPTION,
        OMNIBUS_OPTION,
        TARGET_OPTION,
    )

    def passing(self, played: int) -> str:
        way = self.cycles[self.n][played % len(self.cycles[self.n])]
        return "none" if way == "none" else f"{way} 3"

    @cached_property
    def lowest_club(self) -> str:
        return next(c for c in reversed(self.pack) if suit_of(c) == "C")

    def first_leader(self, dealer: int) -> tuple[int | None, str]:
        return None, _("%(card)s leads (whoever holds it)", card=display(self.lowest_club))

    # --- the engine: the lowest club leads; no heart nor Q♠ on the first trick;
    # hearts are not led until a heart has been played ---------------------------
    def engine_setup(self, plan: Plan, given: dict) -> Setup:
        setup = super().engine_setup(plan, given)
        setup.leader, setup.lead_card = None, self.lowest_club
        return setup

    def legal(self, hand: list[str], trick: list, state: TableState) -> list[str]:
        if state.number == 0:
            if not trick:
                lead = state.setup.lead_card
                return [lead] if lead in hand else list(hand)
            cards = follow(hand, trick)
            return [c for c in cards if c[-1] != "H" and c != "QS"] or cards
        if not trick and "H" not in state.suits_played:
            return [c for c in hand if c[-1] != "H"] or list(hand)
        return follow(hand, trick)

    def illegal_reason(
        self, card: str, hand: list[str], trick: list, state: TableState
    ) -> tuple[str, str, str] | None:
        if state.number == 0 and not trick:
            lead = state.setup.lead_card
            if card != lead and lead in hand:
                return ("rule", _("%(card)s leads the first trick", card=display(lead)), lead)
            return None
        why = follow_reason(card, hand, trick)
        if why:
            return why
        if state.number == 0 and (card[-1] == "H" or card == "QS"):
            safe = [c for c in follow(hand, trick) if c[-1] != "H" and c != "QS"]
            if safe:
                return ("rule", _("no heart and not Q♠ on the first trick"), safe[0])
        if not trick and card[-1] == "H" and "H" not in state.suits_played:
            safe = [c for c in hand if c[-1] != "H"]
            if safe:
                return ("rule", _("hearts may not be led until a heart has been played"), safe[0])
        return None


class BlackMaria(HeartsFamily):
    key = "black_maria"
    name = L_("Black Maria")
    player_counts = (3, 4, 5, 6)
    source = L_(
        "the Polish card-game book, the Esperanto rules (from gamerules.com) and the "
        "Czech rules of Černá Marie"
    )
    removed = {3: ("2C",), 4: (), 5: ("2C", "2D"), 6: ("2S", "2H", "2D", "2C")}
    moon_possible = False
    mark_legend = ""
    options = (
        Option(
            "scoring",
            "choice",
            "black_maria",
            L_("Scoring"),
            L_("Which cards cost points."),
            source=L_("the Polish card-game book; Black Lady and Spot: the Esperanto rules"),
            choices=("black_maria", "black_lady", "spot"),
            choice_labels=(
                L_("Black Maria: heart 1, Q♠ 13, K♠ 10, A♠ 7"),
                L_("Black Lady: heart 1, Q♠ 13 only"),
                L_("Spot: hearts by value, Q♠ 25, K♠ 10, A♠ 7"),
            ),
        ),
        SPOT_VALUES_OPTION,
        OMNIBUS_OPTION,
        *end_options(
            _target_default,
            TARGET_HELP,
            TARGET_SOURCE,
            end_source=L_("the Czech rules: a number of deals is the usual table practice"),
            deals_source=L_("the Czech rules"),
            deals_help=L_(
                "How many deals, when the match ends after a number of deals "
                "(a multiple of the number of players)."
            ),
        ),
        Option(
            "partnership",
            "bool",
            False,
            L_("Partnership (4 players)"),
            L_("Seats 1 and 3 against 2 and 4; the lower team total wins."),
            source=L_(
                "the Polish card-game book (“systemem bridżowym”: two against two, as in bridge)"
            ),
        ),
    )

    @property
    def spades_scored(self) -> bool:  # type: ignore[override]
        return self.opts["scoring"] != "black_lady"

    @classmethod
    def check_options(cls, opts: dict) -> None:
        if opts["partnership"] and opts["players"] != 4:
            raise EntryError(_("partnership play needs 4 players"), "partnership")
        if opts["end"] == "deals" and opts["deals"] % opts["players"]:
            raise EntryError(
                _(
                    "the number of deals must be a multiple of the players (%(n)s)",
                    n=opts["players"],
                ),
                "deals",
            )

    def passing(self, played: int) -> str:
        return "right 3"

    def teams(self) -> list[tuple[int, ...]] | None:
        return [(0, 2), (1, 3)] if self.opts["partnership"] else None
