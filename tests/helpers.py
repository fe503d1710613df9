"""Small helpers shared by the tests: build a record and replay it, make a match
(through the API, the new-match form or a live server) and read a page's hidden
fields, serve Scorer under gunicorn."""

from __future__ import annotations

import html
import os
import random
import re
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import NoReturn

import pytest

from scorer import store
from scorer.autoplay import play_match
from scorer.engine import RANDOM, SIMPLE, entry_with_play
from scorer.games import GAMES, EntryError, Game
from scorer.games.base import Plan
from scorer.games.tricks import TableState
from scorer.record import RecordError, load

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]
# the new-match form of a three-player Black Maria, as a phone posts it
BLACK_MARIA_FORM = {
    "name_0": "Ala",
    "name_1": "Bartek",
    "name_2": "Celina",
    "first_dealer": "0",
    "opt_scoring": "black_maria",
    "opt_end": "target",
}


def record(
    game: str,
    deals: list,
    players: int | list = 4,
    options: dict | None = None,
    first_dealer: int = 0,
) -> dict:
    names = NAMES[:players] if isinstance(players, int) else players
    return {
        "format": "scorer-record",
        "version": 1,
        "game": game,
        "options": options or {},
        "players": names,
        "first_dealer": first_dealer,
        "deals": deals,
    }


# The same, its spot values set: what new_bm posts.
BM = {**BLACK_MARIA_FORM, "opt_spot_values": "10-10-10-15"}


def made(client, data: dict) -> dict:
    """A match made through the API (``POST /api/matches``) from ``data``, a record or
    the API's shorter body; asserts it was made (201) and returns the answer: the
    record with its id and edit key."""
    r = client.post("/api/matches", json=data)
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()


def create(
    client, game: str, deals=(), players: int | list = 4, options: dict | None = None
) -> str:
    """A match of ``game`` made through the API from ``record(...)``: its id."""
    return made(client, record(game, list(deals), players, options))["id"]


def to_deals(deals=(), of: int = 30) -> dict:
    """The API's body for a Black Maria match of Ala, Bartek and Celina that ends
    after ``of`` deals, with ``deals`` in."""
    return {
        "game": "black_maria",
        "players": ["Ala", "Bartek", "Celina"],
        "options": {"end": "deals", "deals": of},
        "deals": list(deals),
    }


def new_match(client, deals=(), of: int = 30) -> str:
    """A Black Maria match of ``of`` deals (``to_deals``) made through the API: its id."""
    return made(client, to_deals(deals, of))["id"]


def new_bm(client, **extra: str) -> str:
    """A Black Maria match made through the new-match form (``BM``, with ``extra``
    fields over it), as a phone makes one: its id (this browser scores it)."""
    r = client.post("/new/black_maria", data={**BM, **extra})
    assert r.status_code == 302, r.get_data(as_text=True)
    return r.headers["Location"].rsplit("/", 1)[1]


def new_game(client, game: str, players: int = 4, **options: str) -> str:
    """A match of ``game`` made through the new-match form: the first ``players`` of
    Ala, Bartek, Celina and Darek, Ala dealing first, ``options`` as its opt_ fields;
    its id."""
    data = {f"name_{n}": name for n, name in enumerate(NAMES[: min(players, 4)])}
    data["first_dealer"] = "0"
    data.update({f"opt_{k}": v for k, v in options.items()})
    r = client.post(f"/new/{game}", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)
    return r.headers["Location"].rsplit("/", 1)[1]


def served_made(request, live_server: str, data: dict) -> dict:
    """A match made through the live server's API from ``data`` with a browser's
    ``request`` (``context.request``: its cookie, so that browser scores it);
    asserts it was made (201) and returns the answer, the record with its id and
    edit key. ``live_server`` is "" for a request that has its own base URL."""
    r = request.post(live_server + "/api/matches", data=data)
    assert r.status == 201, r.text()
    return r.json()


def served_match(
    context, live_server: str, game: str, deals=(), players: int | list = 4, options=None
) -> str:
    """A match of ``game`` made through the live server's API from ``record(...)``
    with the browser context's request: the address of its sheet."""
    made = served_made(context.request, live_server, record(game, list(deals), players, options))
    return f"{live_server}/m/{made['id']}"


def go(page, locator) -> None:
    """Tap a link or button and wait for the page it leads to."""
    with page.expect_navigation():
        locator.tap()


def start_on_phone(page, live_server: str, game: str, names: list, **options) -> str:
    """A match of ``game`` started on the new-match form as a phone starts one (the
    names typed, each option tapped or typed): the address of its sheet."""
    page.goto(live_server + f"/new/{game}")
    for s, name in enumerate(names):
        page.fill(f"#name_{s}", name)
    for key, value in options.items():
        if value is True:
            page.locator(f"#opt_{key}").check()
        elif key == "target":
            page.fill(f"#opt_{key}", str(value))
        else:
            page.locator(f"label.chip:has(input[name=opt_{key}][value='{value}'])").tap()
    go(page, page.get_by_role("button", name="Start the match"))
    return page.url


def hidden(page: str, name: str) -> str:
    """The value of the page's hidden field ``name``, as the HTML writes it."""
    return re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page).group(1)


def hidden_unescaped(page: str, name: str) -> str:
    """The value of the page's hidden field ``name`` as the browser reads it
    (``&quot;`` and the like unescaped)."""
    return html.unescape(hidden(page, name))


def computed(
    game: str,
    deals: list,
    players: int | list = 4,
    options: dict | None = None,
    first_dealer: int = 0,
) -> dict:
    _match, standings = load(record(game, deals, players, options, first_dealer))
    return standings.computed()


def points(
    game: str, deal: dict, players: int | list = 4, options: dict | None = None
) -> list[int]:
    """The points of one deal, per seat."""
    return computed(game, [deal], players, options)["per_deal"][0]


def make_record(
    game: str,
    deals: list,
    options: dict | None = None,
    players: int = 4,
    first_dealer: int = 0,
    names: list[str] | None = None,
) -> dict:
    rec = {
        "format": "scorer-record",
        "version": 1,
        "game": game,
        "players": names or NAMES[:players],
        "first_dealer": first_dealer,
        "deals": deals,
    }
    if options is not None:
        rec["options"] = options
    return rec


def replay(make, deals: list, **kw) -> dict:
    return load(make(deals, **kw))[1].computed()


def refusal(make, deals: list, **kw) -> str:
    """The message a record is refused with (the test fails if it is accepted)."""
    with pytest.raises(RecordError) as e:
        load(make(deals, **kw))
    return e.value.message


def bind(game: str, **defaults):
    """record, computed and refused for one game's tests."""
    make = partial(make_record, game, **defaults)
    return make, partial(replay, make), partial(refusal, make)


# --- a compendium game's deals by number (Kierki, King) ----------------------------


def rules_of(key: str, n: int = 4, **options) -> Game:
    """A game's rules for ``n`` players named from NAMES, options as a record gives them."""
    game = GAMES[key]
    return game(game.normalize_options(options, n), NAMES[:n])


def plan_of(rules: Game, number: int) -> Plan:
    """The plan of deal ``number`` (from 1) of a game whose plan hangs on the number only."""
    return rules.plan({**rules.start(0), "played": number - 1})


def deal_points(rules: Game, number: int, entry: dict) -> list[int]:
    plan = plan_of(rules, number)
    return rules.score(rules.check(entry, plan), plan).points


def deal_refusal(rules: Game, number: int, entry: dict) -> str:
    """The message deal ``number``'s entry is refused with (the test fails if accepted)."""
    with pytest.raises(EntryError) as e:
        rules.check(entry, plan_of(rules, number))
    return str(e.value.message)


def state_for(rules: Game, number: int, given: dict | None = None) -> TableState:
    """The engine's table at the start of deal ``number``, for ``legal`` and its reasons."""
    return TableState(rules.engine_setup(plan_of(rules, number), given or {}))


def check_autoplayed(rules: Game, seed: int, oracle) -> None:
    """A whole match played by the engine (the simple player on odd seeds): every deal
    scored as ``oracle(rules, plan, played)`` counts the cards, handing out its fixed
    total; every third deal the same through the record's play form; 0 in all."""
    n = rules.n
    player = SIMPLE if seed % 2 else RANDOM
    totals = [0] * n
    want = [rules.deal_total(c) for c in rules.sequence]
    deals = list(play_match(rules, [player] * n, random.Random(seed), seed % n))
    assert len(deals) == len(rules.sequence)
    for k, (plan, played, entry) in enumerate(deals):
        got = rules.score(entry, plan).points
        assert got == oracle(rules, plan, played), (k, plan.context["contract"].key)
        assert sum(got) == want[k]
        totals = [a + b for a, b in zip(totals, got)]
        if played.tricks and k % 3 == 0:
            record = played.record()
            beside = {"trump": entry["trump"]} if "trump" in entry else {}
            assert entry_with_play(rules, {"play": record, **beside}, plan) == {
                **entry,
                "play": record,
            }
    assert sum(totals) == 0


ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).parent / "gunicorn"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def gunicorn(tmp_path: Path, workers: int = 1, **settings: str):
    """Scorer served as `make run` serves it (gunicorn.conf.py) on a free port of
    127.0.0.1 with an instance folder of its own (``settings``: more of its
    environment); yields (port, instance, log: its output, read after the block),
    and stops it."""
    port, instance = free_port(), tmp_path / "instance"
    log = open(tmp_path / "server.log", "w+")
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SCORER_INSTANCE": str(instance),
        "WORKERS": str(workers),
        **settings,
    }
    proc = subprocess.Popen(
        [str(GUNICORN), "--config", "gunicorn.conf.py", "scorer:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield port, instance, log
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.seek(0)


def tool_missing(reason: str) -> NoReturn:
    """A tool `make test` installs (Debian's Chromium, Caddy, certutil, zbarimg,
    openssl) is not here: the test is skipped where pytest is run by hand, and fails
    where the environment says CI (CI=true, as CI services set it), where a skip
    would let a run pass whose test never ran."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(f"{reason}; under CI every test runs", pytrace=False)
    pytest.skip(reason)


def short_busy_wait(monkeypatch, seconds: float) -> None:
    """The store's connections wait ``seconds`` for the write lock (10 s when served)."""
    connect = store.db.connect

    def waiting(path: str):
        db = connect(path)
        db.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        return db

    monkeypatch.setattr(store.db, "connect", waiting)


def chained(text: str) -> list[str]:
    """The clauses of ``text`` that chain two colons (issue 37: "Not changed: with
    these, deal 1: when …"): split into sentences and ``;`` clauses, leaving out
    what is in brackets or quotes, placeholders and clock times."""
    text = re.sub(r"%\(\w+\)s|\{\w*\}|\d+:\d\d", "x", str(text))
    for pattern in (r"\([^()]*\)", r"\{[^{}]*\}"):
        while re.search(pattern, text):
            text = re.sub(pattern, "", text)
    text = re.sub(r"“[^”]*”|«[^»]*»|„[^”“]*[”“]|`[^`]*`|\"[^\"]*\"", "", text)
    return [c for c in re.split(r"(?<=[.;!?])\s+|\n", text) if len(re.findall(r":(?=\s|$)", c)) > 1]
