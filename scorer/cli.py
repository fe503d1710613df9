"""``flask --app scorer replay FILE``: a record in, its ``computed`` block out."""

from __future__ import annotations

import json
import sys

import click

from .i18n import _, cli_locale
from .record import RecordError, load, read_json


def replay_text(text: str) -> dict:
    _match, standings = load(read_json(text))
    return standings.computed()


def register_cli(app) -> None:
    @app.cli.command("replay")
    @click.argument("file")
    def replay(file):
        """Validate a game record (- for standard input) and print its computed block."""
        from flask_babel import force_locale

        with force_locale(cli_locale()):  # the errors in the language LANG asks for
            _replay(file)


def _replay(file) -> None:
    """The command's work; its one-line errors are drawn in the locale set around it."""
    try:
        if file == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(file, encoding="utf-8") as f:
                text = f.read()
    except (UnicodeDecodeError, OSError) as e:
        click.echo(_("cannot read %(file)s: %(why)s", file=file,
                     why=getattr(e, "strerror", None) or str(e)[:120]), err=True)
        sys.exit(1)
    try:
        computed = replay_text(text)
    except RecordError as e:
        click.echo(e.message, err=True)
        sys.exit(1)
    except Exception as e:  # never a traceback: one line, exit 1
        click.echo(_("cannot replay this record: %(why)s", why=type(e).__name__), err=True)
        sys.exit(1)
    click.echo(json.dumps(computed, ensure_ascii=False))
