"""The record of docs/record.md: options, players, export, and the replay CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scorer.match import fold
from scorer.record import RecordError, dump, load, to_csv

EXAMPLE = {
    "format": "scorer-record",
    "version": 1,
    "game": "black_maria",
    "options": {"players": 3, "scoring": "black_maria", "omnibus": False, "target": 100},
    "players": ["Ala", "Bartek", "Celina"],
    "first_dealer": 0,
    "deals": [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
    ],
}


def test_the_example_of_record_md():
    # deal 1: 4+13=17, 6+10+7=23, 3 ; deal 2: A♠ 7, 5, 8+13+10=31 (docs/record.md)
    _m, standings = load(EXAMPLE)
    assert standings.computed() == {
        "per_deal": [[17, 23, 3], [7, 5, 31]],
        "totals": [24, 28, 34],
        "finished": False,
        "winners": [],
        "next": {"dealer": 2, "leader": 0, "pass": "right 3"},
    }


def test_dump_then_load_gives_the_same_match_and_computed_is_ignored():
    m, standings = load(EXAMPLE)
    out = dump(m, standings, 7)
    assert out["id"] == 7 and out["computed"]["totals"] == [24, 28, 34]
    out["computed"]["totals"] = [0, 0, 0]  # import ignores it
    m2, st2 = load(json.loads(json.dumps(out)))
    assert m2 == m and st2.computed()["totals"] == [24, 28, 34]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"game": "bridge"}, "game must be one of"),
        ({"format": "pgn"}, "format must be scorer-record"),
        ({"version": 2}, "version must be 1"),
        ({"options": {"players": 4}}, "option players says 4, but 3 names are given"),
        ({"options": {"moon": "others"}}, "unknown option moon"),
        ({"options": {"omnibus": "yes"}}, "option omnibus must be true or false"),
        ({"options": {"omnibus": None}}, "option omnibus must be true or false"),
        ({"options": {"scoring": None}}, "option scoring must be one of"),
        ({"options": {"target": "100"}}, "option target must be a whole number"),
        ({"options": {"target": 2.5}}, "option target must be a whole number"),
        ({"options": {"target": 10**20}}, "option target must be between"),
        ({"options": {"target": True}}, "option target must be a whole number"),
        ({"options": []}, "options must be a JSON object"),
        (
            {"players": ["Ala", "Bartek"], "options": {}},
            "Black Maria is played by 3 to 6 players, not 2",
        ),
        ({"players": ["Ala", "Bar\u202etek", "Celina"]}, "an invisible format character (U+202E)"),
        ({"players": ["Ala", "Bartek\u200b", "Celina"]}, "an invisible format character (U+200B)"),
        ({"players": ["Ala", "Bar\u00adtek", "Celina"]}, "an invisible format character (U+00AD)"),
        ({"players": ["Ala", "\u200b", "Celina"]}, "an invisible format character (U+200B)"),
        ({"players": ["Ala", "Bar\u0007tek", "Celina"]}, "a control character (U+0007)"),
        ({"players": ["Ala", "\u0301\u0302", "Celina"]}, "a player name needs a letter, a digit"),
        (
            {"players": ["Ala", "\U000f0000", "Celina"]},
            "a character that cannot be shown (U+F0000)",
        ),
        ({"players": ["Ala", " ala ", "Celina"]}, "two players cannot both be called ala"),
        (
            {"players": ["Zoé", "Zoe\u0301", "Celina"]},
            "two players cannot both be called Zoe\u0301",
        ),
        ({"options": None}, "options must be a JSON object"),
        ({"players": ["Ala", "", "Celina"]}, "a player name is empty"),
        ({"players": ["Ala", "B" * 41, "Celina"]}, "at most 40 characters"),
        ({"players": ["Ala", "B" * 10_000, "Celina"]}, "at most 40 characters"),
        ({"players": ["Ala", 5, "Celina"]}, "every player name must be text"),
        ({"players": "Ala, Bartek, Celina"}, "players must be a list"),
        ({"first_dealer": 3}, "first_dealer must be a seat from 0 to 2"),
        ({"first_dealer": "0"}, "first_dealer must be a seat"),
        ({"deals": {"1": {}}}, "deals must be a list"),
    ],
)
def test_bad_records_are_refused_by_name(change, message):
    with pytest.raises(RecordError) as e:
        load({**EXAMPLE, **change})
    assert message in e.value.message


def test_record_must_be_an_object():
    with pytest.raises(RecordError):
        load([EXAMPLE])


def test_names_in_any_script_and_trimmed():
    names = ["Łucja", "Юлия", " Čeněk  "]
    m, _ = load({**EXAMPLE, "players": names, "options": {}})
    assert m.players == ["Łucja", "Юлия", "Čeněk"]
    # tabs and line breaks inside a name become one space
    m, _ = load({**EXAMPLE, "players": ["Ala\tMaria", "Bartek\n", "Ce  lina"], "options": {}})
    assert m.players == ["Ala Maria", "Bartek", "Ce lina"]
    # docs/record.md: no format characters at all, the zero-width non-joiner included
    with pytest.raises(RecordError, match="U\\+200C"):
        load({**EXAMPLE, "players": ["می\u200cخواهم", "Ala", "Bartek"], "options": {}})


def test_what_an_export_adds_is_ignored_and_options_default():
    extra = {"id": "abc", "edit_key": "k", "computed": {"totals": [1]}}
    m, _ = load({**EXAMPLE, "options": {}, **extra})
    assert m.options == {
        "players": 3,
        "scoring": "black_maria",
        "spot_values": "10-10-10-15",
        "omnibus": False,
        "end": "target",
        "target": 100,
        "deals": 6,
        "partnership": False,
    }


def test_an_unknown_top_level_key_is_refused_by_name():
    with pytest.raises(RecordError, match="unknown field comment in the record"):
        load({**EXAMPLE, "comment": "x"})


def test_csv_has_a_row_per_deal_and_player_then_totals():
    m, standings = load(EXAMPLE)
    text = to_csv(m, standings, "Black Maria")
    assert text.startswith("\ufeff")
    lines = text[1:].strip().split("\r\n")
    assert lines[0] == '"match","deal","dealer","player","seat","entry","points","total","place"'
    assert len(lines) == 1 + 2 * 3 + 3
    assert lines[1].startswith('"Black Maria",1,"Ala","Ala",1,')  # text quoted, numbers not
    assert lines[1].endswith(',17,17,""')
    assert lines[6].endswith(',31,34,""')  # Celina deal 2: 31, running 34
    assert lines[-1] == '"Black Maria","total","","Celina",3,"","",34,3'  # the place so far


# --- flask --app scorer replay ---------------------------------------------------


def replay(runner, tmp_path, data, stdin=False):
    """``flask replay`` run in this process, from a file or from standard input."""
    if stdin:
        return runner.invoke(args=["replay", "-"], input=data)
    path = tmp_path / "record.json"
    path.write_text(data, encoding="utf-8")
    return runner.invoke(args=["replay", str(path)])


def test_replay_prints_computed(runner, tmp_path):
    r = replay(runner, tmp_path, json.dumps(EXAMPLE))
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["totals"] == [24, 28, 34]
    r = replay(runner, tmp_path, json.dumps(EXAMPLE), stdin=True)
    assert r.exit_code == 0 and json.loads(r.stdout)["per_deal"][1] == [7, 5, 31]
    # saved by an editor that writes a byte-order mark first (Windows' Notepad)
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(EXAMPLE).encode())
    r = runner.invoke(args=["replay", str(tmp_path / "bom.json")])
    assert r.exit_code == 0 and json.loads(r.stdout)["totals"] == [24, 28, 34]


BAD_DEAL_3 = json.dumps(
    {
        **EXAMPLE,
        "deals": EXAMPLE["deals"]
        + [{"hearts": [4, 6, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}],
    }
)


@pytest.mark.parametrize(
    "text, message",
    [
        (BAD_DEAL_3, "Deal 3: hearts add up to 14, but 13 are in play"),
        ("{not json", "Not JSON: cut off or mistyped at line 1, column 2"),  # where it is
        ("[" * 100_000, "Not JSON"),
        ("", "Not JSON: it is empty"),
    ],
)
def test_replay_refuses_in_one_line_exit_1(runner, tmp_path, text, message):
    r = replay(runner, tmp_path, text)
    assert r.exit_code == 1
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.exception is not None
    assert isinstance(r.exception, SystemExit)  # no other exception escaped the command
    assert r.stdout == ""


def test_replay_missing_file(runner, tmp_path):
    r = runner.invoke(args=["replay", str(tmp_path / "nope.json")])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    # the system's error in our words (scorer.i18n.system_error), in LANG's language
    assert r.stderr.strip() == f"Cannot read {tmp_path / 'nope.json'}: there is no such file"


def test_replay_as_a_real_process_exits_1_with_one_line(tmp_path):
    """The one test through a real ``flask`` process: its exit status and its
    standard error, as a shell script sees them."""
    path = tmp_path / "record.json"
    path.write_text(BAD_DEAL_3, encoding="utf-8")
    env = {**os.environ, "SCORER_INSTANCE": str(tmp_path / "instance")}
    r = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorer", "replay", str(path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert r.returncode == 1
    assert r.stderr == "Deal 3: hearts add up to 14, but 13 are in play\n"
    assert r.stdout == ""


def test_fold_is_pure_and_edits_reflow():
    m, _ = load(EXAMPLE)
    m.deals[0] = {"hearts": [3, 6, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    standings = fold(m)
    # deal 1 now 16, 23, 4; plus deal 2 (7, 5, 31) → 23, 28, 35
    assert standings.totals == [23, 28, 35]
