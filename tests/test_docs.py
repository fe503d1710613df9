"""Docs that cannot drift. The README is the front door (at most 200 lines, the
quick start's `make run` and `make test` in its first 45) and docs/ holds the
rest by topic; every relative link and picture of either leads to a file (and
a heading, where it names one). Over ``GAMES``: every game has a row naming its
options in the README's table and in docs/playing.md's, a rules page with its
source and every option's help and source, and a section in docs/rules.md
naming each option; docs/record.md names every game and option key; every CLI
command is shown in the README or docs/. The glossary has its five languages,
the README links every docs page and nothing links ../shared/, and the worked
examples of docs/rules.md give the figures worked out there by hand (the
arithmetic is in rules.md and repeated in the comments)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from scorer.app import ROOT
from scorer.games import GAMES
from scorer.record import load

DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = {path: path.read_text(encoding="utf-8") for path in sorted(DOCS.glob("*.md"))}
# The README and every page of docs/: where the README alone was once checked.
ALL = "\n".join([README, *PAGES.values()])


def game_row(text: str, name: str) -> str | None:
    """The row of a game in a text's table of games, or None."""
    found = re.search(rf"^\| {re.escape(name)} \|.*$", text, re.MULTILINE)
    return found.group(0) if found else None


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("where", ["README.md", "docs/playing.md"])
def test_every_game_has_a_row_naming_its_options(key, where):
    """The README's short table of the games and the whole one in docs/playing.md."""
    game = GAMES[key]
    row = game_row((ROOT / where).read_text(encoding="utf-8"), str(game.name))
    assert row, f"{where} has no row for {game.name}"
    for option in game.options:
        assert option.key.replace("_", " ") in row.lower(), (
            f"{where}'s {game.name} row does not name the option {option.key}"
        )


@pytest.mark.parametrize("key", GAMES)
def test_every_option_has_a_label_help_and_a_source(key):
    for option in GAMES[key].options:
        assert str(option.label).strip(), f"{key}.{option.key} has no label"
        assert str(option.help).strip(), f"{key}.{option.key} has no help"
        assert str(option.source).strip(), f"{key}.{option.key} names no source"


@pytest.mark.parametrize("key", GAMES)
def test_every_game_has_a_rules_page_with_its_source_and_options(client, key):
    game = GAMES[key]
    index = client.get("/rules/").get_data(as_text=True)
    assert f'href="/rules/{key}"' in index
    r = client.get(f"/rules/{key}")
    assert r.status_code == 200
    page = html.unescape(r.get_data(as_text=True))
    assert f"<h1>{game.name}</h1>" in page
    assert str(game.source) in page
    for option in game.options:
        assert str(option.help) in page
        assert str(option.source) in page


def test_every_command_is_documented(app):
    commands = app.cli.commands
    assert "replay" in commands
    for name, command in commands.items():
        assert (command.help or "").strip(), f"flask {name} has no help"
        assert re.search(rf"\bscorer {re.escape(name)}\b", ALL), (
            f"neither the README nor docs/ shows `scorer {name}`"
        )


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, f"no section ## {title}"
    return match.group(1)


@pytest.mark.parametrize("key", list(GAMES))
def test_rules_md_has_a_section_per_game_naming_its_options(key):
    game = GAMES[key]
    text = section((DOCS / "rules.md").read_text(encoding="utf-8"), str(game.name))
    assert "Worked example" in text and "Source" in text
    for option in game.options:
        assert f"*{option.label}*" in text, (key, str(option.label))
    assert "seed 0" not in text.lower() and "seeds 0" not in text.lower()


def test_record_md_names_every_game_and_option_key():
    text = (DOCS / "record.md").read_text(encoding="utf-8")
    for key, game in GAMES.items():
        assert f"`{key}`" in text
        for option in game.options:
            assert f"`{option.key}`" in text, (key, option.key)
    for part in ("## The JSON API", "## The command line", "## The CSV", "`computed`", "`play`"):
        assert part in text


def test_glossary_has_the_five_languages_and_the_terms():
    text = (DOCS / "glossary.md").read_text(encoding="utf-8")
    assert "| English | Polski | Русский | Čeština | Esperanto |" in text
    for term in (
        "trick",
        "deal",
        "dealer",
        "eldest",
        "lead",
        "pass",
        "trump",
        "declaration",
        "capot",
        "shoot the moon",
        "stock",
        "discard",
        "round",
        "contract",
        "attackers",
        "defenders",
        "follow suit",
    ):
        assert re.search(rf"^\| \*\*{re.escape(term)}\*\* \|", text, re.M), term
    for name in ("Czarna Maria", "Černá Marie", "Nigra Maria", "Метаморфоза", "Metamorfozy"):
        assert name in text


def test_readme_links_the_docs_not_the_shared_folder():
    for path, text in [(ROOT / "README.md", README), *PAGES.items()]:
        assert "../shared" not in text, f"{path.name} links ../shared/, which a clone lacks"
    for doc in ("docs/rules.md", "docs/record.md", "docs/glossary.md"):
        assert f"({doc})" in README
    for doc in ("rules.md", "record.md", "glossary.md"):
        assert (DOCS / doc).exists()
    index = PAGES[DOCS / "README.md"]
    for path in PAGES:
        assert f"(docs/{path.name})" in README, f"the README does not link docs/{path.name}"
        if path.name != "README.md":
            assert f"({path.name})" in index, f"docs/README.md does not list {path.name}"


# --- the README as the front door, and links that lead somewhere ------------------------


def test_readme_is_a_front_door_with_the_quick_start_on_its_first_screen():
    lines = README.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move the rest into docs/"
    first = "\n".join(lines[:45])
    for command in ("make run", "make test"):
        assert command in first, f"`{command}` is not in the README's first 45 lines"


def prose(text: str) -> str:
    """The text without its code: fenced blocks, indented blocks, inline code."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"^(?: {4}|\t).*$", "", text, flags=re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation out,
    spaces to hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", prose(text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        if n:
            seen[f"{slug}-{n}"] = 1
    return set(seen)


def targets(text: str) -> list[str]:
    """Every link and picture a Markdown page points at."""
    body = prose(text)
    found = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", body)
    found += re.findall(
        r"""<(?:img|a|source)\b[^>]*?\b(?:src|href|srcset)=["']([^"']+)["']""", body
    )
    return found


CHANGELOG = ROOT / "CHANGELOG.md"
PAGE_FILES = [ROOT / "README.md", *PAGES, CHANGELOG]


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_leads_to_a_file(path: Path):
    text = path.read_text(encoding="utf-8")
    for target in targets(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.exists(), f"{path.name}: {target} leads to no file"
        if anchor and dest.suffix == ".md":
            assert anchor in anchors(dest.read_text(encoding="utf-8")), (
                f"{path.name}: {target}: {dest.name} has no heading #{anchor}"
            )


# --- the changelog: what was true before, out of the pages that say what is now ---------

# Keep a Changelog's kinds of change (https://keepachangelog.com/en/1.1.0/).
KINDS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_changelog_is_linked_and_in_keep_a_changelogs_form():
    assert "(CHANGELOG.md)" in README, "the README does not link CHANGELOG.md"
    assert "(../CHANGELOG.md)" in PAGES[DOCS / "README.md"], "docs/README.md does not"
    text = CHANGELOG.read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert sections[0] == "[Unreleased]", sections[0]
    days = sections[1:]
    assert days and all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) for day in days), days
    assert days == sorted(days, reverse=True), "the days are not newest first"
    for block in re.split(r"^## .+$", text, flags=re.M)[1:]:
        kinds = re.findall(r"^### (.+)$", block, re.M)
        assert kinds and set(kinds) <= KINDS and len(kinds) == len(set(kinds)), kinds


def test_the_make_test_time_is_one_dated_figure_where_it_is_given():
    """The README and docs/development.md give the same run of `make test`, dated;
    the runs before it are the changelog's."""
    development = PAGES[DOCS / "development.md"]
    for name, text in (("README.md", README), ("docs/development.md", development)):
        times = re.findall(r"\b\d+ min \d+ s\b", prose(text))
        assert len(times) == 1, f"{name} gives {len(times)} make test times: {times}"
    same = re.search(r"\b(\d+ min \d+ s)\b.{0,80}?(\d{4}-\d{2}-\d{2})", prose(README), re.S)
    assert same, "the README's make test time has no date beside it"
    time, day = same.groups()
    assert time in development and day in development
    assert f"## {day}" in CHANGELOG.read_text(encoding="utf-8")


# --- the worked examples of docs/rules.md ---------------------------------------------

NAMES = ["Ala", "Bartek", "Celina", "Darek"]
HEARTS = [r + "H" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def per_deal(game, deals, players=4, options=None):
    record = {
        "format": "scorer-record",
        "version": 1,
        "game": game,
        "players": NAMES[:players],
        "first_dealer": 0,
        "deals": deals,
        "options": options or {},
    }
    return load(record)[1].computed()["per_deal"]


def test_hearts_plain_deal():
    # A 3 hearts; B 5 hearts + Q♠ = 18; C 5; D 0: 26 in all
    assert per_deal("hearts", [{"hearts": [3, 5, 5, 0], "taken_by": {"QS": 1}}]) == [[3, 18, 5, 0]]


def test_hearts_spot_moon():
    # spot hearts 54 + 10 + 10 + 10 + 15 = 99, with Q♠ 25: 124
    moon = {"heart_cards": [HEARTS, [], [], []], "taken_by": {"QS": 0}}
    assert per_deal("hearts", [moon], options={"scoring": "spot"}) == [[0, 124, 124, 124]]
    # the shooter -124, and J♦ -10 after the moon: -134
    moon = {**moon, "taken_by": {"QS": 0, "JD": 0}}
    assert per_deal(
        "hearts", [moon], options={"scoring": "spot", "moon": "self", "omnibus": True}
    ) == [[-134, 0, 0, 0]]


def test_knaves_with_a_jack_turned_up():
    # J♥ turned up: A 8 - 3 = 5, B 5 - 2 - 1 = 2, C 4: 11 = 17 - 3 - 2 - 1
    deal = {"tricks": [8, 5, 4], "turn_up": "JH", "taken_by": {"JD": 0, "JC": 1, "JS": 1}}
    assert per_deal("knaves", [deal], players=3) == [[5, 2, 4]]


def test_slobberhannes_classic_all_three():
    # classic: first 1 + last 1 + Q♣ 1 + 1 for all three = 4
    deal = {"taken_by": {"first_trick": 0, "last_trick": 0, "QC": 0}}
    assert per_deal("slobberhannes", [deal], options={"classic": True}) == [[4, 0, 0, 0]]


def test_polignac_failed_capot():
    # D failed, took J♣: 5 + 1 = 6; A J♠ 2, B J♥ 1, C J♦ 1
    deal = {"capot": {"seat": 3, "made": False}, "taken_by": {"JS": 0, "JC": 3, "JH": 1, "JD": 2}}
    assert per_deal("polignac", [deal], options={"capot": True}) == [[2, 1, 1, 6]]


def test_black_maria_partnership_lower_team_wins():
    # seats 1 and 3 (A, C) against 2 and 4 (B, D); each deal's points in the comments
    deals = [
        {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0, "KS": 1, "AS": 0}},  # 33, 10, 0, 0
        {"hearts": [7, 6, 0, 0], "taken_by": {"QS": 1, "KS": 1, "AS": 1}},  # 7, 36, 0, 0
        {"hearts": [0, 0, 13, 0], "taken_by": {"QS": 2, "KS": 3, "AS": 3}},  # 0, 0, 26, 17
        {"hearts": [0, 12, 1, 0], "taken_by": {"QS": 1, "KS": 3, "AS": 2}},  # 0, 25, 8, 10
        {"hearts": [0, 3, 10, 0], "taken_by": {"QS": 1, "KS": 2, "AS": 2}},  # 0, 16, 27, 0
    ]
    record = {
        "format": "scorer-record",
        "version": 1,
        "game": "black_maria",
        "players": NAMES,
        "options": {"players": 4, "partnership": True},
        "first_dealer": 0,
        "deals": deals,
    }
    c = load(record)[1].computed()
    # A 33 + 7 = 40; B 10 + 36 + 25 + 16 = 87; C 26 + 8 + 27 = 61; D 17 + 10 = 27
    assert c["totals"] == [40, 87, 61, 27] and not c["finished"]
    # D takes 13 hearts, K♠ and A♠ (30), B Q♠ (13): B 100 reaches the target;
    # A + C = 40 + 61 = 101, B + D = 100 + 57 = 157: A and C win
    deals.append({"hearts": [0, 0, 0, 13], "taken_by": {"QS": 1, "KS": 3, "AS": 3}})
    c = load(record)[1].computed()
    assert c["totals"] == [40, 100, 61, 57] and c["finished"] and c["winners"] == [0, 2]
