"""The command line: ``scorer replay FILE`` (a record in, its ``computed`` block
out), ``backup [FILE]``, ``restore FILE``, ``links`` and ``rebuild`` (every
match folded afresh from its entries and its summary written, then every
phone's ratings rated afresh from them). ``scorer`` (``main``) is the host's
command, every word of it in the language LANG asks for; ``flask --app scorer``
runs the same commands beside Flask's own (run, shell, routes), whose words are
Flask's English."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import textwrap
from pathlib import Path

import click
from flask import current_app, url_for
from flask.cli import FlaskGroup, with_appcontext
from flask_babel import force_locale

from . import address, store
from . import backup as backups
from .i18n import (
    DID_YOU_MEAN,
    N_,
    _,
    cli_locale,
    click_said,
    ngettext,
    said_now,
    sentence,
    speak_click,
    system_error,
)
from .match import DealError
from .record import RecordError, load, read_json
from .store import ratings as kept_ratings
from .web.lookup import title


def replay_text(text: str) -> dict:
    """The ``computed`` block of a record given as JSON text; RecordError if it
    cannot stand."""
    _match, standings = load(read_json(text))
    return standings.computed()


def say(text, err: bool = False) -> None:
    """A line a command prints on its own, as a sentence: its first letter a capital
    (the catalogs keep the message lower-case, as it is also a part of a longer line)."""
    click.echo(sentence(text), err=err)


def spoken(command):
    """A command that says its lines in the language LANG asks for (cli_locale)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        with force_locale(cli_locale()):
            return command(*args, **kwargs)

    return run


class SpokenHelp:
    """A command's help (a message marked N_) and its --help, said where they are
    shown, in the language the command speaks."""

    def format_help_text(self, ctx, formatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(said_now(self.help))

    def get_short_help_str(self, limit: int = 45) -> str:
        """The help's first sentence, or as much of it as fits ``limit``."""
        first = re.split(r"\. |; ", said_now(self.help).partition("\n\n")[0])[0].rstrip(".")
        return textwrap.shorten(first + ".", limit, placeholder="...")

    def get_help_option(self, ctx):
        """--help, said now (click makes it once and keeps it)."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = click_said("Show this message and exit.")
        return option


class Spoken(SpokenHelp, click.Command):
    """A command whose help is said in the language the command speaks; its
    options' too (SpokenOption), and what its usage line names."""

    def parse_args(self, ctx, args):
        """What is typed, named in the command's language in its usage line, its
        help and its errors ([OPTIONS], FILE, TEXT: click's placeholders)."""
        self.options_metavar = click_said("[OPTIONS]")
        for param in self.params:
            if isinstance(param, click.Argument):
                typed = click_said(param.name.upper())
                param.metavar = typed if param.required else f"[{typed}]"
            elif isinstance(param, click.Option) and not param.is_flag:
                param.metavar = click_said(getattr(param, "typed", param.type.name.upper()))
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as e:
            raise suggested(e) from None


def suggested(e: click.NoSuchOption) -> click.NoSuchOption:
    """A mistyped option's suggestions quoted as the command's language quotes a word
    („--base”, «--base»), not in the straight quotes click gives them."""
    if e.possibilities:
        quoted = ", ".join(click_said("'{name}'").format(name=p) for p in sorted(e.possibilities))
        hint = click_said(DID_YOU_MEAN, len(e.possibilities))  # click's own words
        e.message = f"{e.message} {hint.format(possibility=quoted, possibilities=quoted)}"
        e.possibilities = None
    return e


class SpokenArgument(click.Argument):
    """An argument named in an error as the command's language quotes a word
    („PLIK”, «ФАЙЛ»), not in click's straight quotes."""

    def get_error_hint(self, ctx) -> str:
        name = self.make_metavar(ctx) if ctx is not None else self.human_readable_name
        return click_said("'{name}'").format(name=name.strip("[]"))


class SpokenOption(click.Option):
    """An option whose help is said in the command's language; ``typed``: the word
    its usage shows for what is typed (one of i18n.CLICK_WORDS: ADDRESS)."""

    def __init__(self, *args, typed: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if typed:
            self.typed = typed

    def get_help_record(self, ctx):
        record = super().get_help_record(ctx)
        if record is None or not self.help:
            return record
        names, rest = record
        return names, rest.replace(self.help, said_now(self.help), 1)


def register_cli(app) -> None:
    """Add the commands to ``app.cli`` (``flask --app scorer --help`` lists them),
    and click's own words in the command's language (speak_click)."""
    speak_click()
    app.cli.add_command(replay)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(rebuild_command)
    app.cli.add_command(links_command)


@click.command(
    "replay",
    cls=Spoken,
    help=N_("Validate a game record (- for standard input) and print its computed block."),
)
@click.argument("file", cls=SpokenArgument)
@with_appcontext  # as under `flask`, also under app.test_cli_runner()
@spoken
def replay(file):
    """Validate a game record (- for standard input) and print its computed block."""
    try:
        if file == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(file, encoding="utf-8") as f:
                text = f.read()
    except (UnicodeDecodeError, OSError) as e:
        say(_("cannot read %(file)s: %(why)s", file=file, why=system_error(e)), err=True)
        sys.exit(1)
    try:
        computed = replay_text(text)
    except RecordError as e:
        say(e.message, err=True)
        sys.exit(1)
    except Exception as e:  # never a traceback: one line, exit 1
        say(_("cannot replay this record: %(why)s", why=type(e).__name__), err=True)
        sys.exit(1)
    click.echo(json.dumps(computed, ensure_ascii=False))


def backup_folder() -> Path:
    return Path(current_app.instance_path) / "backups"


@click.command(
    "backup",
    cls=Spoken,
    help=N_(
        "Write a consistent copy of the database (default: instance/backups/scorer-<time>.db), "
        "safe while the app serves."
    ),
)
@click.argument("file", required=False, cls=SpokenArgument)
@with_appcontext
@spoken
def backup_command(file):
    """Write a consistent copy of the database (default: instance/backups/scorer-<time>.db),
    safe while the app serves."""
    target = Path(file) if file else backup_folder() / f"scorer-{backups.stamp()}.db"
    try:
        made = backups.backup(current_app.config["DATABASE"], target)
    except Exception as e:  # one line, exit 1: never a traceback
        say(_("cannot back up: %(why)s", why=system_error(e)), err=True)
        sys.exit(1)
    click.echo(str(made))


@click.command(
    "restore",
    cls=Spoken,
    help=N_(
        "Check a copy (integrity, schema) and put it in place of the database; the database "
        "as it was is kept in instance/backups/ first."
    ),
)
@click.argument("file", cls=SpokenArgument)
@with_appcontext
@spoken
def restore_command(file):
    """Check a copy (integrity, schema) and put it in place of the database; the
    database as it was is kept in instance/backups/ first."""
    try:
        kept = backups.restore(current_app.config["DATABASE"], file, backup_folder())
    except backups.BackupError as e:
        say(_("nothing restored: %(why)s", why=e.message), err=True)
        sys.exit(1)
    except Exception as e:
        say(_("nothing restored: %(why)s", why=system_error(e)), err=True)
        sys.exit(1)
    say(
        _(
            "restored from %(file)s; the database as it was is kept in %(kept)s",
            file=file,
            kept=str(kept),
        )
    )


@click.command(
    "rebuild",
    cls=Spoken,
    help=N_(
        "Fold every match afresh from its entries, then rate every phone's matches afresh; "
        "name any whose summary or kept ratings differed."
    ),
)
@with_appcontext
@spoken
def rebuild_command():
    """Fold every match afresh from its entries, then rate every phone's matches
    afresh; name any whose summary or kept ratings differed."""
    db = store.connect(current_app.config["DATABASE"])
    try:
        unreadable = list(backups.unreadable(db))  # as a restore reads a copy
        if not unreadable:
            count, differed = store.rebuild(db)
            phones, rated_differed = kept_ratings.rebuild(db)
    finally:
        db.close()
    if unreadable:
        for pub, why in unreadable:
            say(_("%(id)s: %(why)s", id=pub, why=why), err=True)
        say(
            ngettext(
                "%(num)s match cannot be read: nothing was folded or rated afresh.",
                "%(num)s matches cannot be read: nothing was folded or rated afresh.",
                len(unreadable),
            ),
            err=True,
        )
        sys.exit(1)
    for pub, why in differed:
        say(_("%(id)s: %(why)s", id=pub, why=why))
    say(
        ngettext(
            "%(num)s match folded afresh; %(d)s differed from what was kept.",
            "%(num)s matches folded afresh; %(d)s differed from what was kept.",
            count,
            d=len(differed),
        )
    )
    for phone, pub in rated_differed:
        say(
            _(
                "phone %(phone)s: kept ratings differed from match %(id)s on",
                phone=phone[:8],
                id=pub,
            )
        )
    say(
        ngettext(
            "The ratings of %(num)s phone rated afresh; %(d)s differed from what was kept.",
            "The ratings of %(num)s phones rated afresh; %(d)s differed from what was kept.",
            phones,
            d=len(rated_differed),
        )
    )
    sys.exit(1 if differed or rated_differed else 0)


LINKS = 10  # the latest matches not finished that `links` gives, without --all


@click.command(
    "links",
    cls=Spoken,
    help=N_(
        "The score link of each match not finished (the latest changed first, 10 at most), "
        "with its QR code; a phone that opens it scores the match from then on."
    ),
)
@click.option(
    "--base",
    cls=SpokenOption,
    typed="ADDRESS",
    help=N_(
        "The address the phones open (default: SCORER_PUBLIC_URL, else what `make table` "
        "serves, https://<this machine's address>:8443)."
    ),
)
@click.option(
    "--all",
    "everything",
    cls=SpokenOption,
    is_flag=True,
    help=N_("Every match, finished ones too."),
)
@with_appcontext
@spoken
def links_command(base, everything):
    """The score link of each match not finished (the latest changed first, 10 at
    most), with its QR code: a phone that opens it scores the match from then on.
    For the evening the table's address changed: a phone keeps its matches, and its
    right to score them, with the address it opened them at."""
    base = (base or os.environ.get("SCORER_PUBLIC_URL", "")).strip().rstrip("/")
    if not base:
        lan = address.lan_address()
        base = address.host_in_url(lan, address.HTTPS_PORT, "https") if lan else ""
    day = current_app.jinja_env.filters["day"]  # a stored time as the pages write its date
    if not base.startswith(("http://", "https://")):
        say(_("no address the phones open: give it, --base https://…"), err=True)
        sys.exit(1)
    db = store.connect(current_app.config["DATABASE"])
    try:
        given = 0
        for (pub,) in db.execute(
            "select pub from matches where deleted is null and game != '' "
            "order by updated desc, id desc"
        ):
            if not everything and given == LINKS:
                break
            stored = store.get(db, pub)
            try:
                over = store.standings(db, stored).finished
            except DealError:  # one today's rules cannot read: its link is given too
                over = False
            if over and not everything:
                continue
            given += 1
            with current_app.test_request_context(base_url=base):
                link = url_for(
                    "sharing.score_link", match_id=pub, key=stored.edit_key, _external=True
                )
            deals = stored.match.words("count", num=len(stored.deal_ids))
            when = _("last change %(date)s", date=day(stored.updated))
            click.echo(f"{title(stored.match)} · {deals} · {when}\n{link}")
            address.terminal_qr(link, sys.stdout)
        if not given:
            say(
                _("no match here")
                if everything
                else _("no match here is still being played (--all gives the finished ones)")
            )
    finally:
        db.close()


class Host(SpokenHelp, FlaskGroup):
    """``scorer``: the app's commands alone (no run, shell or routes, which are a
    developer's, through ``flask --app scorer``), on the app ``create_app`` makes
    (SCORER_INSTANCE, as the server's), with nothing of Flask's own English: no
    --app, --env-file, --debug or --version (a ``.env`` is still read). Run by
    ``scorer.host.main``."""

    def __init__(self, create_app):
        super().__init__(
            name="scorer",
            create_app=create_app,
            add_default_commands=False,
            add_version_option=False,
            help=N_(
                "Scorer's commands for whoever runs it: a copy of the matches and putting"
                " one back, the score links, every match worked out again, a record checked."
            ),
        )
        self.params = [p for p in self.params if p.name not in ("app", "env_file", "debug")]

    def parse_args(self, ctx, args):
        self.options_metavar = click_said("[OPTIONS]")
        self.subcommand_metavar = click_said("COMMAND [ARGS]...")
        return super().parse_args(ctx, args)
