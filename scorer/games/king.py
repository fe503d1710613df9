"""King (Кинг), the Russian compendium game and Kierki's cousin: six negative
deals without trumps, each costing the same in all («не брать взяток»,
«не брать червей», «не брать мальчиков», «не брать девочек», «не брать две
последние», «не брать кинга»), the eralash («ералаш») that counts all of them
at once, then a positive part that pays it all back: a trump deal per player
in which the dealer's left-hand neighbour names trumps, or (option) each
negative deal again, positive (docs/rules.md, "King").

The deals are data (:func:`negative`, :data:`TRUMPS`), and so are the values:
every negative deal hands out :data:`TOTAL` (16 with four players and 32
cards, 72 with three and 36), so a thing is worth that total over how many of
it the pack holds (a trick 2, a heart 2, a jack 4 …), and a trump trick the
negative part over the tricks of the positive part (6), so that a match adds
up to 0 as the sources say it does.

Sources: card-games-online.com's "King Card Game" (four players, the order of
the deals, their values, the eralash, the trump deals), «50 способов
развлечься» as rulit.me gives it, kakprosto.ru and the sallydean.com and
koon.ru pages (the 32 cards, the values, the eldest's lead, the balance to 0);
the English Wikipedia's "King (card game)" (three players and their values,
the positive round of the same deals); benderbar.ru (a void player trumps).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import RANKS, pack
from ..i18n import L_, _, signed
from .base import Option, pack_note
from .compendium import Compendium, Contract

PACKS = {4: pack(RANKS[:8]), 3: pack(RANKS[:9])}  # A to 7: 32 cards; A to 6: 36
TRICKS = {n: len(cards) // n for n, cards in PACKS.items()}
PACK_WORDS = {4: L_("the 32 cards (A K Q J 10 9 8 7)"), 3: L_("the 36 cards (A K Q J 10 9 8 7 6)")}
TOTAL = {4: 16, 3: 72}  # what every negative deal hands out in all
SEEN = 3  # the cards each player is dealt before trumps are named
BOYS = ("jacks", "kings_jacks", "kings")


def negative(boys: str, eralash: bool) -> tuple[Contract, ...]:
    """The negative part in order, the boys as the option counts them."""
    deals = (
        Contract("tricks", counts=("tricks",)),
        Contract("hearts", counts=("hearts",), no_heart_lead=True),
        Contract("boys", counts=(boys,)),
        Contract("queens", counts=("queens",)),
        Contract("last_two", owners=("marked",)),
        Contract("king_of_hearts", owners=("KH",), no_heart_lead=True, king_first=True),
    )
    everything = Contract(
        "eralash",
        counts=("tricks", "hearts", boys, "queens"),
        owners=("KH", "marked"),
        no_heart_lead=True,
        king_first=True,
    )
    return deals + ((everything,) if eralash else ())


TRUMPS = Contract("trumps", counts=("tricks",), sign=1, trumps=True, must_trump=True)

NAMES = {
    -1: {
        "tricks": L_("no tricks"),
        "hearts": L_("no hearts"),
        "jacks": L_("no jacks"),
        "kings_jacks": L_("no kings or jacks"),
        "kings": L_("no kings"),
        "queens": L_("no queens"),
        "last_two": L_("no last two tricks"),
        "king_of_hearts": L_("no king of hearts"),
        "eralash": L_("the eralash (everything at once)"),
    },
    1: {
        "tricks": L_("take tricks"),
        "hearts": L_("take hearts"),
        "jacks": L_("take jacks"),
        "kings_jacks": L_("take kings or jacks"),
        "kings": L_("take kings"),
        "queens": L_("take queens"),
        "last_two": L_("take the last two tricks"),
        "king_of_hearts": L_("take the king of hearts"),
        "eralash": L_("the eralash (take everything)"),
        "trumps": L_("trumps"),
    },
}


class King(Compendium):
    key = "king"
    name = L_("King")
    player_counts = (4, 3)
    trump_chooser = "eldest"
    source = L_(
        "card-games-online.com, «50 ways to have fun» (rulit.me), kakprosto.ru and koon.ru "
        "for the four-player game; the English Wikipedia for three players and the positive "
        "round of the same deals"
    )
    options = (
        Option(
            "boys",
            "choice",
            "jacks",
            L_("The boys"),
            L_(
                "Which cards «no boys» counts: the jacks, the kings and jacks, or the kings; "
                "the deal costs as much as every other negative deal."
            ),
            source=L_(
                "card-games-online.com, rulit.me and sallydean.com: the jacks; the English "
                "Wikipedia («No Men», with three players): the kings and jacks; "
                "koon.ru's «simple King»: the kings"
            ),
            choices=BOYS,
            choice_labels=(L_("The jacks"), L_("The kings and jacks"), L_("The kings")),
        ),
        Option(
            "eralash",
            "bool",
            True,
            L_("The eralash"),
            L_(
                "A seventh negative deal, the eralash, counts everything the six before it "
                "counted at once; without it the negative part is six deals."
            ),
            source=L_(
                "card-games-online.com and koon.ru: with it; the English Wikipedia (three "
                "players): without"
            ),
        ),
        Option(
            "positive",
            "choice",
            "trumps",
            L_("The positive part"),
            L_(
                "A trump deal per player, every trick paying an equal share of what the "
                "negative part cost; or every negative deal again, paying what it cost."
            ),
            source=L_(
                "card-games-online.com: the trump deals; koon.ru, kakprosto.ru and the English "
                "Wikipedia (three players): the same deals again, positive"
            ),
            choices=("trumps", "mirror"),
            choice_labels=(L_("Trump deals"), L_("The same deals, positive")),
        ),
        Option(
            "king_led",
            "bool",
            False,
            L_("K♥ at a heart lead too"),
            L_(
                "In the deals that count K♥, whoever holds it must play it the first time "
                "hearts are led, as well as the first time they cannot follow suit."
            ),
            source=L_("koon.ru's «simple King», by agreement; the rh1 King program"),
        ),
    )

    @property
    def tricks(self) -> int:
        return TRICKS[self.n]

    @property
    def negative(self) -> tuple[Contract, ...]:
        return negative(self.opts["boys"], self.opts["eralash"])

    @property
    def sequence(self) -> tuple[Contract, ...]:
        """Every deal of the match in order: the negative part, then a trump deal
        per player or the negative deals again, positive."""
        if self.opts["positive"] == "trumps":
            return self.negative + (TRUMPS,) * self.n
        return self.negative + tuple(replace(c, sign=1) for c in self.negative)

    def marked(self) -> tuple[int, ...]:
        """The last two tricks."""
        return (self.tricks - 1, self.tricks)

    def worth(self, key: str, contract: Contract) -> int:
        """Every negative deal hands out :data:`TOTAL`: a thing is worth that over how
        many of it a deal holds; a trump trick, the negative part over the tricks of
        the trump deals."""
        total = TOTAL[self.n]
        if contract.trumps:
            return self.trump_trick()
        if key == "KH":
            return total
        if key.startswith("trick_"):
            return total // len(self.marked())
        return total // self.in_pack(key)

    def trump_trick(self) -> int:
        """What a trick of the trump deals pays: the negative part's cost shared over
        every trick of the positive part, so that a match adds up to 0."""
        cost = -sum(self.deal_total(c) for c in self.negative)
        return cost // (self.n * self.tricks)

    def king_led(self) -> bool:
        return self.opts["king_led"]

    def contract_name(self, contract: Contract) -> Any:
        key = contract.counts[0] if contract.key == "boys" else contract.key
        return NAMES[contract.sign][key]

    def pack_notes(self) -> list[Any]:
        return [pack_note((), self.tricks, PACK_WORDS[self.n])]

    def rule_notes(self, contract: Contract, dealer: int, eldest: int) -> list[Any]:
        if contract.trumps:
            return [
                _(
                    "%(dealer)s deals %(k)s cards to each player and stops; %(name)s names "
                    "trumps from them, then %(dealer)s deals the rest. Follow suit; a player "
                    "who cannot must trump.",
                    dealer=self.names[dealer],
                    name=self.names[eldest],
                    k=SEEN,
                ),
                _("%(points)s a trick.", points=signed(self.trump_trick())),
            ]
        notes = self.play_notes(contract)
        if contract.key == "eralash":
            total = abs(sum(self.deal_total(c) for c in self.negative[:6]))
            notes.insert(
                2,
                _(
                    "Everything the six deals before counted counts at once: %(total)s in all.",
                    total=total,
                ),
            )
        if contract.king_first:
            notes.append(
                _(
                    "Whoever holds K♥ must play it the first time they cannot follow suit "
                    "and the first time hearts are led."
                )
                if self.king_led()
                else _("Whoever holds K♥ must discard it the first time they cannot follow suit.")
            )
        return notes

    def engine_pack(self) -> tuple[str, ...]:
        return PACKS[self.n]
