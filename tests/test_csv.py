"""The two CSV exports as a spreadsheet opens them: every text field quoted, so
splitting on , ; tab and space at once (LibreOffice with every separator
ticked) still gives the header's columns; numbers unquoted; file names that
say the game, the players and the date."""

from __future__ import annotations

import re
from datetime import date
from urllib.parse import unquote

import pytest

from scorer import store
from scorer.games import GAMES

from .helpers import create, record

SEPARATORS = ",; \t"
# Names holding the separators and a quote, in three scripts; one starts like a formula.
NAMES = ['Ala, "As"', "Bartek; B", "Юлия Ц", "=Darek"]
BLACK_MARIA = [
    {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
    {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
    {"hearts": [2, 1, 10], "taken_by": {"QS": 1, "KS": 2, "AS": 2}},
]
# One short match per game, every kind of entry the game has.
SAMPLES = {
    "hearts": (
        4,
        [
            {"hearts": [3, 5, 2, 3], "taken_by": {"QS": 1}},
            {"hearts": [0, 13, 0, 0], "taken_by": {"QS": 1}},
        ],
    ),
    "black_maria": (3, BLACK_MARIA),
    "knaves": (
        3,
        [{"tricks": [7, 6, 4], "taken_by": {"JH": 0, "JD": 1, "JC": 2, "JS": 1}, "turn_up": "5H"}],
    ),
    "slobberhannes": (4, [{"taken_by": {"first_trick": 0, "last_trick": 2, "QC": 1}}]),
    "polignac": (
        4,
        [{"taken_by": {"JS": 0, "JC": 1, "JH": 2, "JD": 3}}, {"capot": {"seat": 3, "made": True}}],
        {"capot": True},
    ),
    "metamorphosis": (
        3,
        [
            {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]},
            {"tricks": [0, 6, 6], "hearts": [0, 1, 2]},
            {"tricks": [1, 2, 9]},
        ],
    ),
    "variety": (
        4,
        [
            {"bids": [2, 3, 6, 2], "contract": 2, "attackers": [1, 0], "tricks": 7},
            {"contract": 5, "attackers": [0, 1], "black_tj": 2, "red_tj": 1},
        ],
    ),
    "kierki": (
        4,
        [
            {"tricks": [3, 4, 2, 4]},
            {"hearts": [0, 6, 4, 3]},
            {"queens": [2, 0, 1, 1]},
            {"kings_jacks": [3, 2, 2, 1]},
            {"taken_by": {"KH": 2}},
            {"taken_by": {"trick_7": 1, "trick_13": 3}},
            {
                "tricks": [4, 3, 3, 3],
                "hearts": [5, 3, 3, 2],
                "queens": [1, 1, 1, 1],
                "kings_jacks": [3, 2, 2, 1],
                "taken_by": {"KH": 0, "trick_7": 1, "trick_13": 0},
            },
            {"trump": "H", "tricks": [4, 3, 3, 3]},
        ],
    ),
    "king": (
        4,
        [
            {"tricks": [2, 3, 1, 2]},
            {"hearts": [0, 5, 2, 1]},
            {"jacks": [1, 0, 2, 1]},
            {"queens": [2, 0, 1, 1]},
            {"taken_by": {"trick_7": 1, "trick_8": 3}},
            {"taken_by": {"KH": 2}},
            {
                "tricks": [3, 2, 2, 1],
                "hearts": [3, 2, 2, 1],
                "jacks": [1, 1, 1, 1],
                "queens": [1, 1, 1, 1],
                "taken_by": {"KH": 0, "trick_7": 1, "trick_8": 0},
            },
            {"trump": "C", "tricks": [3, 2, 2, 1]},
        ],
    ),
}


def split(text: str, separators: str = SEPARATORS) -> list[list[tuple[str, bool]]]:
    """Rows of (field, quoted) as a spreadsheet splits them: any of ``separators``
    outside quotes ends a field, a line end outside quotes ends a row, "" inside
    quotes is one quote."""
    rows, row, field, quoted, inside = [], [], [], False, False
    i = 0
    while i < len(text):
        ch = text[i]
        if inside:
            if ch == '"' and text[i + 1 : i + 2] == '"':
                field.append('"')
                i += 1
            elif ch == '"':
                inside = False
            else:
                field.append(ch)
        elif ch == '"':
            inside = quoted = True
        elif ch in separators or ch == "\n":
            row.append(("".join(field), quoted))
            field, quoted = [], False
            if ch == "\n":
                rows.append(row)
                row = []
        elif ch != "\r":
            field.append(ch)
        i += 1
    assert not inside and not field and not row, "the file ends inside a field"
    return rows


def odd_names_match(client, game, players: int, deals, options=None) -> str:
    """A match of ``game`` whose first ``players`` are NAMES above: its id."""
    return create(client, game, deals, NAMES[:players], options)


def download(client, url):
    r = client.get(url)
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "text/csv; charset=utf-8"  # one charset
    body = r.get_data().decode("utf-8")
    assert body.startswith("\ufeff")
    return body[1:], r.headers["Content-Disposition"]


def test_there_is_a_sample_for_every_game():
    assert set(SAMPLES) == set(GAMES)


@pytest.mark.parametrize("game", sorted(SAMPLES))
@pytest.mark.parametrize("export", ["export.csv", "sheet.csv"])
def test_every_row_has_the_headers_columns_whatever_the_separator(client, game, export):
    mid = odd_names_match(client, game, *SAMPLES[game])
    body, _disposition = download(client, f"/m/{mid}/{export}")
    rows = split(body)
    assert len(rows) > 1
    for row in rows:
        assert len(row) == len(rows[0]), row
        for value, quoted in row:
            # numbers as numbers; text (even empty) quoted and never a formula
            assert quoted or re.fullmatch(r"-?\d+", value), value
            assert not (quoted and value and value[0] in "=+-@"), value
    assert all(quoted for _value, quoted in rows[0])  # the header is text
    # comma alone reads the same columns
    assert [len(r) for r in split(body, ",")] == [len(r) for r in rows]


def test_the_sheet_as_a_table_holds_the_totals_worked_out_by_hand(client):
    # Black Maria (RULES.md: each heart 1, Q♠ 13, K♠ 10, A♠ 7), Ala deals first:
    #   deal 1: Ala 4♥ Q♠ = 17, Bartek 6♥ K♠ A♠ = 23, Celina 3♥ = 3 → 17, 23, 3
    #   deal 2: Ala A♠ = 7, Bartek 5♥ = 5, Celina 8♥ Q♠ K♠ = 31      → 24, 28, 34
    #   deal 3: Ala 2♥ = 2, Bartek 1♥ Q♠ = 14, Celina 10♥ K♠ A♠ = 27 → 26, 42, 61
    # lowest wins: Ala 1st, Bartek 2nd, Celina 3rd
    r = client.post("/api/matches", json=record("black_maria", BLACK_MARIA, 3))
    body, _disposition = download(client, f"/m/{r.get_json()['id']}/sheet.csv")
    rows = [[v for v, _q in row] for row in split(body)]
    assert rows == [
        [
            "deal",
            "dealer",
            "Ala: points",
            "Ala: total",
            "Bartek: points",
            "Bartek: total",
            "Celina: points",
            "Celina: total",
        ],
        ["1", "Ala", "17", "17", "23", "23", "3", "3"],
        ["2", "Bartek", "7", "24", "5", "28", "31", "34"],
        ["3", "Celina", "2", "26", "14", "42", "27", "61"],
        ["total", "", "", "26", "", "42", "", "61"],
        ["place", "", "", "1", "", "2", "", "3"],
    ]


def test_a_game_that_notes_its_deals_keeps_the_note_in_its_own_column_named_for_it(client):
    # Variety, Ala deals: type 2 clubs trumps, Bartek and Ala attack, 7 tricks: 7 × 2 = 14
    # for each attacker, 6 × 2 = 12 for each defender, 14 > 12 so no bonus
    mid = odd_names_match(client, "variety", 4, SAMPLES["variety"][1][:1])
    body, _disposition = download(client, f"/m/{mid}/sheet.csv")
    rows = [[v for v, _q in row] for row in split(body)]
    assert rows[0][:3] == ["deal", "dealer", "type"]  # what Variety notes: the type played
    assert rows[1] == ["1", 'Ala, "As"', "2 ♣", "14", "14", "14", "14", "12", "12", "12", "12"]


def test_kierki_and_king_name_the_note_column_for_what_a_deal_counts(client):
    # Kierki's first deal counts tricks (its note "tricks"); the column is the contract
    # played, in Polish the kind of deal ("rodzaj rozdania"), not a "note" ("oznaczenie")
    mid = odd_names_match(client, "kierki", 4, SAMPLES["kierki"][1][:1])
    body, _disposition = download(client, f"/m/{mid}/sheet.csv")
    rows = [[v for v, _q in row] for row in split(body)]
    assert rows[0][:3] == ["deal", "dealer", "contract"] and rows[1][2] == "tricks"
    client.get("/lang/pl?next=/")
    body, _disposition = download(client, f"/m/{mid}/sheet.csv")
    assert [v for v, _q in split(body)[0]][:3] == ["rozdanie", "rozdający", "rodzaj rozdania"]


def test_metamorphosis_names_its_note_column_and_its_export_for_its_plays(client):
    """A Metamorphosis deal is a play of a round: its sheet's note column holds the
    round and the play (R1·1) and is headed "round"; the export's button counts
    plays in Russian, deals in every other game."""
    mid = odd_names_match(client, "metamorphosis", 3, SAMPLES["metamorphosis"][1][:1])
    body, _disposition = download(client, f"/m/{mid}/sheet.csv")
    rows = [[v for v, _q in row] for row in split(body)]
    assert rows[0][:3] == ["deal", "dealer", "round"] and rows[1][2] == "R1·1"
    ru = {"Accept-Language": "ru"}
    assert "Скачать все розыгрыши подробно (CSV)" in client.get(f"/m/{mid}", headers=ru).get_data(
        as_text=True
    )
    other = odd_names_match(client, "black_maria", 3, BLACK_MARIA)
    page = client.get(f"/m/{other}", headers=ru).get_data(as_text=True)
    assert "Скачать все сдачи подробно (CSV)" in page


def test_the_file_names_say_the_game_the_players_and_the_date(client):
    mid = odd_names_match(client, "black_maria", 3, BLACK_MARIA)
    today = date.today().isoformat()
    for export, suffix in [("export.csv", ""), ("sheet.csv", "_sheet")]:
        _body, disposition = download(client, f"/m/{mid}/{export}")
        plain = re.search(r'filename="([^"]*)"', disposition).group(1)
        full = re.search(r"filename\*=UTF-8''(\S+)", disposition).group(1)
        # spaces become -, the separators and quotes of the names are no file-name characters
        assert unquote(full) == f"Black-Maria_Ala,-As-Bartek;-B-Юлия-Ц_{today}{suffix}.csv"
        # the ASCII fallback drops what ASCII cannot write
        assert plain == f"Black-Maria_Ala,-As-Bartek;-B_{today}{suffix}.csv"
        assert plain.isascii() and full.isascii()


def test_the_date_in_a_file_name_is_the_day_the_match_was_started(client, app):
    mid = odd_names_match(client, "black_maria", 3, BLACK_MARIA)
    with app.app_context():
        db = store.get_db()
        db.execute(
            "update matches set created = ? where pub = ?", ["2026-03-14T21:05:00+00:00", mid]
        )
        db.conn.commit()
    _body, disposition = download(client, f"/m/{mid}/export.csv")
    assert re.search(r'filename="[^"]*_2026-03-14\.csv"', disposition)


def test_file_names_keep_accents_in_full_and_fold_them_in_ascii(client):
    r = client.post("/api/matches", json=record("hearts", [], ["Łucja", "José", "Zoë", "Ærø"]))
    _body, disposition = download(client, f"/m/{r.get_json()['id']}/export.csv")
    plain = re.search(r'filename="([^"]*)"', disposition).group(1)
    full = unquote(re.search(r"filename\*=UTF-8''(\S+)", disposition).group(1))
    assert plain.startswith("Hearts_Lucja-Jose-Zoe-AEro_")
    assert full.startswith("Hearts_Łucja-José-Zoë-Ærø_")


def test_the_sheet_offers_both_exports(client):
    mid = odd_names_match(client, "black_maria", 3, BLACK_MARIA)
    page = client.get(f"/m/{mid}").get_data(as_text=True)
    assert f'href="/m/{mid}/export.csv"' in page and f'href="/m/{mid}/sheet.csv"' in page
    assert client.get("/m/999/sheet.csv").status_code == 404
