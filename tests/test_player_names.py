"""Players' names as the pages draw them (scorer.web.player_names): whole, for the
page to cut with an ellipsis where it does not fit; what tells a name from another
beginning alike (its lead) is kept out of the cut."""

from __future__ import annotations

import pytest

from scorer.web import name_leads, player_names


@pytest.mark.parametrize(
    "names, leads",
    [
        # names that differ at their first letter: nothing to keep, the cut may fall anywhere
        (["Małgorzata", "Krzysztof", "Włodzimierz", "Zosia", "Łucja"], ["", "", "", "", ""]),
        (["Анастасия", "Борислав", "Zosia"], ["", "", ""]),
        # alike at the first letter: up to the first letter that differs
        (["Zosia", "Zbigniew", "Ala"], ["Zo", "Zb", ""]),
        (["Łucja", "Łukasz", "Ola"], ["Łuc", "Łuk", ""]),
        # alike further than three letters: the seat number instead
        (["Marek", "Maria", "Ola"], [1, 2, ""]),
        (["Katarzyna Nowak", "Katarzyna Kowalska", "Ola"], [1, 2, ""]),
        # the same name twice
        (["Ala", "Ala", "Bartek"], [1, 2, ""]),
        # a name no longer than a lead is always drawn whole; the longer one takes its seat
        (["Ala", "Alan", "Ola"], ["", 2, ""]),
    ],
)
def test_a_lead_keeps_alike_names_apart(names, leads):
    assert name_leads(names) == leads


def test_a_name_is_drawn_whole_with_its_full_name_as_title():
    drawn = player_names(["Zosia", "Zbigniew", "Włodzimierz"])
    # "Zo" and "sia", read as one word: "Zosia"
    assert drawn[0] == (
        '<span class="name" title="Zosia"><span class="lead" aria-hidden="true">Zo</span>'
        '<span class="rest" aria-hidden="true">sia</span><span class="sr-only">Zosia</span></span>'
    )
    whole = '<span class="name" title="Włodzimierz"><span class="rest">Włodzimierz</span></span>'
    assert drawn[2] == whole


def test_a_seat_number_is_shown_but_not_read_out_and_the_name_stays_whole():
    drawn = player_names(["Marek", "Maria", "Ola"])
    assert drawn[1] == (
        '<span class="name" title="Maria"><span class="lead seat" aria-hidden="true">2</span>'
        '<span class="rest">Maria</span></span>'
    )


def test_a_name_is_escaped():
    assert "&lt;b&gt;" in player_names(["<b>", "Ola", "Ewa"])[0]
