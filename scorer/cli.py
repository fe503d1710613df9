"""``flask --app scorer replay FILE``: a record in, its ``computed`` block out."""

from __future__ import annotations

import json
import sys

import click
from flask.cli import with_appcontext

from .i18n import _
from .record import RecordError, load, read_json


def replay_text(text: str) -> dict:
    """The ``computed`` block of a record given as JSON text; RecordError if it
    cannot stand."""
    _match, standings = load(read_json(text))
    return standings.computed()


@click.command("replay")
@click.argument("file")
@with_appcontext  # as under `flask`, also under app.test_cli_runner()
def replay(file):
    """Validate a game record (- for standard input) and print its computed block."""
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


def register_cli(app) -> None:
    """Add the commands to ``app.cli`` (``flask --app scorer --help`` lists them)."""
    app.cli.add_command(replay)
