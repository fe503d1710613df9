"""Docs that cannot drift (as sqlite-utils' and Datasette's test_docs do): every
game in ``GAMES`` has its README row and its rules page, every option says
what it does and where the rule comes from, and every command on the app's
command line is in the README."""

from __future__ import annotations

import html
import re

import pytest

from scorer import ROOT
from scorer.games import GAMES

README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_row(name: str) -> str | None:
    """The README's "What each game supports" row of a game, or None."""
    found = re.search(rf"^\| {re.escape(name)} \|.*$", README, re.MULTILINE)
    return found.group(0) if found else None


@pytest.mark.parametrize("key", GAMES)
def test_every_game_has_a_readme_row_naming_its_options(key):
    game = GAMES[key]
    row = readme_row(str(game.name))
    assert row, f"README has no row for {game.name}"
    for option in game.options:
        assert option.key.replace("_", " ") in row.lower(), (
            f"README's {game.name} row does not name the option {option.key}")


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
        assert re.search(rf"flask --app scorer {re.escape(name)}\b", README), (
            f"README does not show `flask --app scorer {name}`")
