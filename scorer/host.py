"""The ``scorer`` command (pyproject.toml's script): the host's commands
(scorer/cli.py's ``Host``) on the app the server runs, click's own words in the
command's language from its very first line."""

from __future__ import annotations

from .app import create_app
from .cli import Host
from .i18n import speak_click


def main() -> None:
    speak_click()
    Host(create_app).main(prog_name="scorer")
