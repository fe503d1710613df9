"""The short names that head the deals table's columns on a narrow phone."""

from __future__ import annotations

import pytest

from scorer.web import short_names


@pytest.mark.parametrize(
    "names, most, short",
    [
        # names that fit stay whole
        (["Ala", "Bartek", "Celina"], 8, ["Ala", "Bartek", "Celina"]),
        # longer ones are cut to what fits ...
        (["Małgorzata", "Wojciech", "Maria", "Wiktoria"], 5, ["Małgo", "Wojci", "Maria", "Wikto"]),
        # ... and longer where another name starts the same way
        (["Marianna", "Marika", "Ola", "Ewa"], 4, ["Maria", "Marik", "Ola", "Ewa"]),
        (["Marek", "Maria", "Mar"], 3, ["Mare", "Mari", "Mar"]),
        # a name that begins another stays whole, the other takes its initial
        (["Marek", "Marek K", "Celina"], 4, ["Marek", "MarK", "Celi"]),
        # the initials of later words tell two first names apart
        (["Katarzyna Nowak", "Katarzyna Kowalska", "A", "B", "C", "D"], 4, ["KatN", "KatK"]),
        # the same name twice: the seat tells them apart
        (["Ala", "Ala", "Bartek"], 8, ["Ala1", "Ala2", "Bartek"]),
    ],
)
def test_short_names_are_distinct_and_start_like_the_name(names, most, short):
    got = short_names(names, most)
    assert len(set(got)) == len(names)
    assert got[: len(short)] == short
    for name, s in zip(names, got):
        assert s[:1] == name[:1]


def test_the_default_length_follows_the_number_of_players():
    # three: six letters, seven kept whole ("one more is no wider than six and …")
    assert short_names(["Wojciech", "Wiktoria", "Ala"]) == ["Wojcie", "Wiktor", "Ala"]
    assert short_names(["Bartosz", "Wiktoria", "Ala"]) == ["Bartosz", "Wiktor", "Ala"]
    assert short_names(["Wojciech", "Wiktoria", "Ala", "Ola", "Ewa", "Iza"])[:2] == ["Wojc", "Wikt"]
