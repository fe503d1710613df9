"""The phones at the table reach the server (issue 23): the share page's links and
QR codes lead to an address other phones open (SCORER_PUBLIC_URL first; else, for
a page opened through 127.0.0.1, this machine's local-network address, said in a
line; never the loopback address without a warning), and the server prints that
address and its QR code when it starts. The local-network address is checked as
text, never connected to."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import html
import io
import json
import os
import re
import shutil
import socket
import ssl
import struct
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from scorer import address, create_app, store, table
from scorer.games import GAMES, EntryError
from scorer.match import DealError
from scorer.web.sharing import joining

from .helpers import BM, ROOT, free_port, gunicorn, new_bm, tool_missing
from .test_sharing import key_of

LAN = "192.168.1.20"


def share_page(app, base_url: str) -> tuple[str, str]:
    """A match made through ``base_url``, and its share page as its scorer sees it."""
    phone = app.test_client()
    mid = phone.post("/new/black_maria", data=BM, base_url=base_url).headers["Location"]
    mid = mid.rsplit("/", 1)[1]
    r = phone.get(f"/m/{mid}/share", base_url=base_url)
    assert r.status_code == 200
    return mid, html.unescape(r.get_data(as_text=True))


def links(page: str) -> list[str]:
    return re.findall(r'<p class="link"><a href="([^"]+)"', page)


def make(tmp_path, **config):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.db"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


def test_the_public_url_comes_first(tmp_path):
    app = make(tmp_path, PUBLIC_URL="https://scorer.example/", LISTEN_HOST="0.0.0.0")
    mid, page = share_page(app, "http://127.0.0.1:5000")
    key = key_of(app, mid)
    assert links(page) == [
        f"https://scorer.example/m/{mid}",
        f"https://scorer.example/m/{mid}/score?key={key}",
    ]
    assert "These links lead to scorer.example, the address the phones at the table open." in page
    # opened at that address itself: nothing to say
    _mid, page = share_page(app, "https://scorer.example")
    assert 'class="where' not in page


def test_a_page_opened_through_loopback_links_the_local_network_address(tmp_path, monkeypatch):
    monkeypatch.setattr(address, "lan_address", lambda: LAN)
    app = make(tmp_path, LISTEN_HOST="0.0.0.0")
    for opened in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        mid, page = share_page(app, opened)
        assert links(page)[0] == f"http://{LAN}:8000/m/{mid}"
        assert links(page)[1].startswith(f"http://{LAN}:8000/m/{mid}/score?key=")
        here = opened.removeprefix("http://")
        assert (
            f"These links lead to {LAN}:8000, this machine's address on the local network, "
            f"which the other phones open ({here} opens on this machine only)."
        ) in page


def test_a_page_opened_at_another_address_links_that_address(tmp_path, monkeypatch):
    monkeypatch.setattr(address, "lan_address", lambda: LAN)
    app = make(tmp_path, LISTEN_HOST="0.0.0.0")
    mid, page = share_page(app, "http://10.0.0.7:8000")
    assert links(page)[0] == f"http://10.0.0.7:8000/m/{mid}"
    assert 'class="where' not in page


@pytest.mark.parametrize("listen, lan", [("127.0.0.1", LAN), ("0.0.0.0", None)])
def test_a_loopback_address_is_never_given_without_a_warning(tmp_path, monkeypatch, listen, lan):
    """A server that answers this machine only, or a machine with no local network
    address: the links stay what they are, and the page says no phone can open them."""
    monkeypatch.setattr(address, "lan_address", lambda: lan)
    app = make(tmp_path, LISTEN_HOST=listen)
    mid, page = share_page(app, "http://127.0.0.1:5000")
    assert links(page)[0] == f"http://127.0.0.1:5000/m/{mid}"
    warning = re.search(r'<p class="where warning" role="alert">([^<]*)</p>', page)
    assert warning and "127.0.0.1:5000, which only this machine opens" in warning.group(1)
    assert "make table" in warning.group(1)


def test_the_local_network_address_is_an_address_of_this_machine_not_its_own():
    found = address.lan_address()
    assert found is None or not address.is_loopback(found)
    assert [address.is_loopback(h) for h in ("127.0.0.1", "127.3.4.5", "[::1]", "localhost")] == [
        True
    ] * 4
    assert not any(address.is_loopback(h) for h in (LAN, "scorer.test", "10.0.0.1", None))


def test_the_banner_gives_the_local_network_address_and_its_qr_code(monkeypatch):
    monkeypatch.setattr(address, "lan_address", lambda: LAN)
    out = io.StringIO()
    said = address.banner({"HOST": "0.0.0.0", "PORT": "8000"}, out)
    assert said == f"http://{LAN}:8000/"
    lines = out.getvalue().splitlines()
    assert lines[0] == f"Scorer for the phones at the table: http://{LAN}:8000/"
    assert sum("▄" in line for line in lines) > 10  # the QR code, in half blocks
    out = io.StringIO()
    address.banner({"HOST": "0.0.0.0", "SCORER_PUBLIC_URL": "https://scorer.example"}, out)
    assert out.getvalue().startswith("Scorer for the phones at the table: https://scorer.example/")


def test_make_runs_first_lines_carry_an_address_that_answers(tmp_path):
    """gunicorn as `make run` starts it (this machine only): its first lines name
    the address, which answers, and say that no other phone can open it."""
    with gunicorn(tmp_path) as (port, _instance, log):
        deadline = time.monotonic() + 30
        while f"http://127.0.0.1:{port}/" not in (text := open(log.name).read()):
            assert time.monotonic() < deadline, text
            time.sleep(0.1)
        first = text.splitlines()[:8]
        url = re.search(r"(http://\S+/) \(this machine only\)", "\n".join(first)).group(1)
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200
        assert any("No other phone can open it" in line for line in first), first


# --- sharing a phone can use ---------------------------------------------------------


def test_share_is_in_a_scorers_top_bar_and_not_a_watchers(app):
    scorer, watcher = app.test_client(), app.test_client()
    mid = new_bm(scorer)
    bar = re.compile(r'<header class="bar">.*?</header>', re.S)
    top = bar.search(scorer.get(f"/m/{mid}").get_data(as_text=True)).group(0)
    assert f'<a class="share-link" href="/m/{mid}/share">Share</a>' in top
    top = bar.search(watcher.get(f"/m/{mid}").get_data(as_text=True)).group(0)
    assert "share-link" not in top


def test_send_and_copy_beside_each_link_and_the_score_link_says_so(app):
    scorer, other = app.test_client(), app.test_client()
    mid = new_bm(scorer)
    page = html.unescape(scorer.get(f"/m/{mid}/share").get_data(as_text=True))
    boxes = re.findall(r'<p class="actions" data-share="([^"]+)"', page)
    assert boxes == links(page)
    assert page.count("data-send hidden>Send</button>") == 2
    assert page.count(">Copy</button>") == 2
    r = other.get(f"/m/{mid}/score?key={key_of(app, mid)}")
    assert r.headers["Location"] == f"/m/{mid}#scoring"  # static/scorer.js says it there
    page = other.get(f"/m/{mid}").get_data(as_text=True)
    said = re.findall(r'<p role="status" data-hash="scoring" hidden>([^<]*)</p>', page)
    assert said == ["You score this match on this phone now."]


# --- `make table`: Caddy's configuration, the trust page -------------------------------


def adapted(tmp_path, text: str) -> dict:
    """Caddy's own reading of a Caddyfile (``caddy adapt``: it starts nothing and
    asks nothing of anyone)."""
    caddy = shutil.which("caddy")
    if not caddy:
        tool_missing("Debian's caddy is not installed (make test installs it)")
    (tmp_path / "Caddyfile").write_text(text)
    done = subprocess.run(
        [caddy, "adapt", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_tables_caddyfile_uses_the_local_authority_with_admin_off(tmp_path):
    config = adapted(tmp_path, table.caddyfile(LAN, app_port=5000))
    assert config["admin"] == {"disabled": True}
    servers = config["apps"]["http"]["servers"]
    assert sorted(a for s in servers.values() for a in s["listen"]) == [":8000", ":8443"]
    assert config["apps"]["tls"]["automation"]["policies"][0]["issuers"] == [{"module": "internal"}]
    assert f"https://{LAN}:8443" in table.caddyfile(LAN)
    assert "127.0.0.1:5000" in json.dumps(servers)
    bound = adapted(tmp_path, table.caddyfile("scorer.test", bind="127.0.0.1"))
    listen = [a for s in bound["apps"]["http"]["servers"].values() for a in s["listen"]]
    assert all(a.startswith("127.0.0.1:") for a in listen), listen


def test_a_domains_caddyfile_asks_for_an_ordinary_certificate(tmp_path):
    """SCORER_DOMAIN: automatic HTTPS for the name (read here, never started)."""
    config = adapted(tmp_path, table.caddyfile(domain="scorer.example", app_port=5001))
    assert config["admin"] == {"disabled": True}
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    assert server["routes"][0]["match"] == [{"host": ["scorer.example"]}]
    assert "127.0.0.1:5001" in json.dumps(server)
    assert "internal" not in json.dumps(config)
    # Caddy's own log (its errors name the request) without the edit key, as the table's
    fields = config["logging"]["logs"]["default"]["encoder"]["fields"]
    assert {"parameter": "key", "type": "delete"} in fields["request>uri"]["actions"]


def test_no_trust_page_without_the_tables_authority(tmp_path):
    app = make(tmp_path)
    assert app.test_client().get("/trust").status_code == 404
    assert app.test_client().get("/trust/ca.crt").status_code == 404
    app = make(tmp_path, CA_CERT=str(tmp_path / "not-yet.crt"))  # Caddy not started yet
    assert app.test_client().get("/trust").status_code == 404


def self_signed(tmp_path, name: str, *more: str, subject: str = "CN") -> str:
    """A root certificate named ``name`` (Debian's openssl), as PEM text."""
    if not shutil.which("openssl"):
        tool_missing("Debian's openssl is not installed (make test installs it)")
    key, crt = tmp_path / "ca.key", tmp_path / "ca.crt"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        + ["-nodes", "-keyout", str(key), "-out", str(crt), "-days", "1", "-utf8"]
        + ["-subj", f"/{subject}={name}", *more],
        check=True,
        capture_output=True,
    )
    return crt.read_text()


def test_the_certificates_name_is_read_in_each_way_a_name_is_written(tmp_path):
    """UTF8String (Caddy's), a long one (its length in the long form), BMPString
    (UTF-16: read as such, not as UTF-8 with its zero bytes), PrintableString; a
    certificate with no common name has none; a broken file is no name, and the
    server still starts (its banner leaves the line out)."""
    long = "Я" * 64  # 128 bytes
    assert address.certificate_name(self_signed(tmp_path, long)) == long
    mask = tmp_path / "mask.cnf"  # openssl's old string types: BMP, else Printable
    mask.write_text("[req]\ndistinguished_name = dn\nstring_mask = pkix\n[dn]\n")
    assert address.certificate_name(self_signed(tmp_path, "Włodek CA", "-config", str(mask))) == (
        "Włodek CA"
    )
    assert address.certificate_name(self_signed(tmp_path, "Caddy Root", "-config", str(mask))) == (
        "Caddy Root"
    )
    assert address.certificate_name(self_signed(tmp_path, "Caddy", subject="O")) is None
    (tmp_path / "cut.crt").write_text(self_signed(tmp_path, "Cut short")[:200])
    out = io.StringIO()
    cut = str(tmp_path / "cut.crt")
    env = {"SCORER_PUBLIC_URL": "https://scorer.test:8443", "SCORER_CA_CERT": cut}
    address.banner({**env, "SCORER_TRUST_URL": "http://scorer.test:8000/trust"}, out)
    assert "the certificate:" not in out.getvalue() and "Scan it" in out.getvalue()
    assert make(tmp_path, CA_CERT=cut).test_client().get("/trust").status_code == 404


def test_the_trust_page_names_the_certificate_as_the_phone_lists_it(tmp_path):
    """The name a phone's settings list (its common name) and the fingerprint in
    spaced pairs, as phones show them (a line breaks between pairs, not inside one);
    the server's first lines say both, to check the page against."""
    name = "Caddy Local Authority - 2026 ECC Root"
    pem = self_signed(tmp_path, name)
    (tmp_path / "root.crt").write_text(pem)
    der = ssl.PEM_cert_to_DER_cert(pem)
    pairs = re.findall("..", hashlib.sha256(der).hexdigest().upper())
    app = make(
        tmp_path,
        CA_CERT=str(tmp_path / "root.crt"),
        TRUST_URL="http://scorer.test:8000/trust",
        PUBLIC_URL="https://scorer.test:8443",
    )
    page = html.unescape(app.test_client().get("/trust").get_data(as_text=True))
    assert f"The phone lists it as “{name}”." in page
    assert f"Its SHA-256 fingerprint: {' '.join(pairs)}" in page
    out = io.StringIO()
    env = {
        "SCORER_PUBLIC_URL": "https://scorer.test:8443",
        "SCORER_CA_CERT": str(tmp_path / "root.crt"),
    }
    address.banner({**env, "SCORER_TRUST_URL": "http://scorer.test:8000/trust"}, out)
    assert f"  the certificate: “{name}”, SHA-256 {' '.join(pairs)}" in out.getvalue().splitlines()
    # on the plain-HTTP port the page leads on to Scorer over HTTPS, nowhere else
    assert re.search(r'<a class="brand" href="https://scorer.test:8443/">', page)
    assert 'href="/rules/"' not in page


def test_the_table_sends_no_hsts_where_a_phone_trusts_it_over_plain_http(tmp_path):
    """HSTS ignores ports: a phone that had it from https://scorer.test:8443 would
    open the trust page on http://scorer.test:8000 over HTTPS, and fail, for a year."""
    hsts = "Strict-Transport-Security"
    own = make(tmp_path, TRUST_URL="http://scorer.test:8000/trust").test_client()
    assert hsts not in own.get("/rules/", base_url="https://scorer.test:8443").headers
    public = make(tmp_path).test_client()  # a real certificate (SCORER_DOMAIN): HSTS as ever
    assert hsts in public.get("/rules/", base_url="https://scorer.example").headers


def test_a_code_takes_a_phone_new_to_the_table_through_the_trust_page(tmp_path):
    """One scan: under `make table` each code holds the trust page with the link's
    path after its # (not sent over plain HTTP); elsewhere the link itself."""
    trust = "http://scorer.test:8000/trust"
    assert joining("https://scorer.test:8443/m/abcdefghijkl", trust) == (
        "http://scorer.test:8000/trust#/m/abcdefghijkl"
    )
    assert joining("https://scorer.test:8443/m/abcdefghijkl/score?key=k-y_1", trust) == (
        "http://scorer.test:8000/trust#/m/abcdefghijkl/score?key=k-y_1"
    )
    assert joining("http://192.168.1.5:5000/m/abcdefghijkl", None) == (
        "http://192.168.1.5:5000/m/abcdefghijkl"
    )
    app = make(tmp_path, PUBLIC_URL="https://scorer.test:8443", TRUST_URL=trust)
    _mid, page = share_page(app, "http://127.0.0.1:5000")
    assert links(page)[0].startswith("https://scorer.test:8443/m/")  # Copy and Send: the link
    assert "new to this table" not in page  # no second code to scan first


def test_the_table_says_when_its_address_changed_since_the_time_before(tmp_path):
    """Said as it starts, with what to do (`make links`); kept for the next time."""
    assert table.moved(tmp_path, "192.168.1.5") is None  # the first time
    assert table.moved(tmp_path, "192.168.1.5") is None
    assert table.moved(tmp_path, "192.168.1.7") == "192.168.1.5"
    assert table.moved(tmp_path, "192.168.1.7") is None


def test_a_second_table_on_ports_in_use_says_so_and_starts_nothing(tmp_path, monkeypatch, capsys):
    """Another `make table` holds the HTTPS port: before, a second one's Caddy failed
    (said only in its log) while its start-up check reached the first's port, and
    ended in a traceback; one holding the plain-HTTP port shared it with the first."""
    monkeypatch.setenv("SCORER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setattr(table.shutil, "which", lambda _name: "/usr/bin/false")
    started = []
    monkeypatch.setattr(table.subprocess, "Popen", lambda *a, **k: started.append(a))
    for which in ("--https-port", "--http-port", "--port"):
        with socket.create_server(("127.0.0.1", 0)) as held:
            busy = held.getsockname()[1]
            ports = {"--https-port": free_port(), "--http-port": free_port(), "--port": free_port()}
            ports[which] = busy
            argv = ["--host", "scorer.test", "--bind", "127.0.0.1"]
            argv += [str(x) for pair in ports.items() for x in pair]
            assert table.main(argv) == 1
        said = capsys.readouterr().err
        assert f"scorer: port {busy} is in use already (is `make table` running?" in said
    assert started == []
    assert not (tmp_path / "instance" / "caddy" / "Caddyfile").exists()


def test_a_port_is_taken_on_any_address_caddy_would_listen_on(monkeypatch):
    """Unbound, Caddy listens on every address, IPv6 too: a port held on [::1]
    alone is taken. A port kept for root (Caddy has the capability, this process
    not): taken when something answers it here."""
    if socket.has_ipv6:
        with socket.create_server(("::1", 0), family=socket.AF_INET6) as held:
            port = held.getsockname()[1]
            assert table.taken([(None, port)]) == ("::", port)
            assert table.taken([("127.0.0.1", port)]) is None  # told: that address alone

    class Root(socket.socket):  # binding as an ordinary user a port below 1024
        def bind(self, address):
            raise PermissionError(errno.EACCES, "Permission denied")

    silent = free_port()
    with socket.create_server(("127.0.0.1", 0)) as answering:
        port = answering.getsockname()[1]
        monkeypatch.setattr(table.socket, "socket", Root)
        assert table.taken([(None, port)]) == ("0.0.0.0", port)
        assert table.taken([(None, silent)]) is None


def test_the_terminals_qr_code_is_white_on_black_whatever_the_terminals_colours():
    """Half blocks draw the light modules: in the terminal's own colours a light
    theme turns the code inside out. On a terminal each line says its colours;
    in a log, no escape codes."""

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty, log = Terminal(), io.StringIO()
    address.terminal_qr("http://scorer.test:8000/trust", tty)
    address.terminal_qr("http://scorer.test:8000/trust", log)
    drawn = tty.getvalue().splitlines()
    assert len(drawn) > 10 and all(
        line.startswith("\x1b[97;40m") and line.endswith("\x1b[0m") for line in drawn
    )
    assert [
        line[len("\x1b[97;40m") : -len("\x1b[0m")] for line in drawn
    ] == log.getvalue().splitlines()
    assert "\x1b" not in log.getvalue()


def test_links_gives_each_match_not_finished_its_score_link_at_the_new_address(
    tmp_path, monkeypatch
):
    """Another evening, another address: a phone keeps its matches and its right to
    score them with the address it opened them at. `flask links` (make links)
    gives each match not finished its score link at the address the phones open
    now, with its QR code; a phone that opens it scores the match there."""
    app = make(tmp_path)
    api = app.test_client()
    bm = {"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}
    deal = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    going = api.post("/api/matches", json={**bm, "deals": [deal]}).get_json()
    over = api.post(  # three deals of three: over
        "/api/matches", json={**bm, "options": {"end": "deals", "deals": 3}, "deals": [deal] * 3}
    ).get_json()
    assert over["computed"]["finished"] and not going["computed"]["finished"]
    base = "https://192.168.7.7:8443"
    said = app.test_cli_runner().invoke(args=["links", "--base", base])
    assert said.exit_code == 0, said.output
    link = f"{base}/m/{going['id']}/score?key={going['edit_key']}"
    lines = said.output.splitlines()
    today = time.strftime("%Y", time.gmtime())
    assert lines[0].startswith("Black Maria · Ala, Bartek, Celina · 1 deal · last change ")
    assert lines[0].endswith(today) and lines[1] == link  # "Dec 2, 2026": told apart by day
    assert sum("▄" in line for line in lines) > 10  # its QR code
    assert over["id"] not in said.output
    every = app.test_cli_runner().invoke(args=["links", "--base", base, "--all"]).output
    assert f"{base}/m/{over['id']}/score?key={over['edit_key']}" in every
    # a phone new to that address opens the link: it scores the match now
    phone = app.test_client()
    opened = phone.get(link.removeprefix(base), base_url=base)
    assert opened.status_code == 302 and opened.headers["Location"] == f"/m/{going['id']}#scoring"
    sheet = phone.get(f"/m/{going['id']}", base_url=base).get_data(as_text=True)
    assert "You score this match on this phone now." in sheet

    # a match today's rules cannot read (a rule changed since) is given too, not a crash
    def unreadable(_db, from_row):
        raise DealError(1, EntryError("the hearts add up to 14"), GAMES["black_maria"])

    monkeypatch.setattr(store, "standings", unreadable)
    said = app.test_cli_runner().invoke(args=["links", "--base", base])
    assert said.exit_code == 0 and link in said.output and over["id"] in said.output
    monkeypatch.undo()
    # with no address given, set, or found, it says so
    monkeypatch.delenv("SCORER_PUBLIC_URL", raising=False)
    monkeypatch.setattr(address, "lan_address", lambda: None)
    said = app.test_cli_runner().invoke(args=["links"])
    assert said.exit_code == 1 and "--base" in said.output
    said = app.test_cli_runner().invoke(args=["links"], env={"LANG": "pl_PL.UTF-8"})
    assert said.exit_code == 1 and "podaj go" in said.output  # in the command's language
    monkeypatch.setattr(address, "lan_address", lambda: "192.168.7.8")
    said = app.test_cli_runner().invoke(args=["links"])
    assert f"https://192.168.7.8:8443/m/{going['id']}/score?key=" in said.output
    # nothing to give: said, not a silence
    (tmp_path / "empty").mkdir()
    empty = make(tmp_path / "empty").test_cli_runner()
    assert (
        empty.invoke(args=["links", "--base", base]).output
        == "No match here is still being played (--all gives the finished ones)\n"
    )
    assert empty.invoke(args=["links", "--base", base, "--all"]).output == "No match here\n"


# --- a real host: deploy/scorer.service and deploy/Caddyfile ----------------------------

DEPLOY = ROOT / "deploy"


def test_the_systemd_unit_verifies_and_starts_what_make_run_starts(tmp_path):
    unit = (DEPLOY / "scorer.service").read_text()
    start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1)
    assert start == "/srv/scorer/.venv/bin/gunicorn --config gunicorn.conf.py 'scorer:create_app()'"
    assert "--config gunicorn.conf.py 'scorer:create_app()'" in (ROOT / "Makefile").read_text()
    for setting in ("HOST=127.0.0.1", "SCORER_PUBLIC_URL=https://", "SCORER_TRUSTED_HOSTS="):
        assert setting in unit
    verify = shutil.which("systemd-analyze")
    if not verify:
        pytest.skip("systemd-analyze is not installed")
    here = tmp_path / "scorer.service"  # its paths where this checkout is, so they exist
    here.write_text(unit.replace("/srv/scorer", str(ROOT)))
    done = subprocess.run([verify, "verify", str(here)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    here.write_text(unit.replace("/srv/scorer", str(ROOT)).replace("Type=exec", "Type=nonsense"))
    done = subprocess.run([verify, "verify", str(here)], capture_output=True, text=True)
    assert "nonsense" in done.stderr  # it does read the file


# A request carrying every secret a phone sends: the score link's key (and the same
# inside a language switch's next=), its cookie, the API's Bearer key, and a page
# address holding a key as its Referer.
SECRETS = (
    "Cookie: scorer=SECRET-COOKIE\r\nAuthorization: Bearer SECRET-BEARER\r\n"
    "Referer: https://scorer.test/m/abcdefghijkl/score?key=SECRET-REFERER\r\n"
    "Connection: close\r\n\r\n"
)


def ask(port: int, target: str, host: str, root: Path | None = None, seconds: float = 20) -> bytes:
    """The status line of ``GET target`` sent with SECRETS to 127.0.0.1:``port``,
    over HTTPS trusting ``root`` when given, tried until Caddy answers."""
    request = f"GET {target} HTTP/1.1\r\nHost: {host}\r\n{SECRETS}".encode()
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
                if root is None:
                    raw.sendall(request)
                    return raw.recv(64).split(b"\r\n")[0]
                ctx = ssl.create_default_context(cafile=str(root))
                with ctx.wrap_socket(raw, server_hostname=host.split(":")[0]) as s:
                    s.sendall(request)
                    return s.recv(64).split(b"\r\n")[0]
        except (OSError, ssl.SSLError):
            assert time.monotonic() < deadline
            time.sleep(0.05)


def no_secret_in_any_file(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix not in (".crt", ".key", ".json", ".db"):
            text = path.read_text(errors="replace")
            assert "SECRET" not in text, (path, [x for x in text.splitlines() if "SECRET" in x])


def test_the_servers_caddy_keeps_keys_and_cookies_out_of_its_log(tmp_path):
    """deploy/Caddyfile served for real, with its site on a high port of 127.0.0.1
    and a certificate of Caddy's local authority in place of the public one, and
    nobody where gunicorn should be (a 502): neither the site's access log nor
    Caddy's own (the journal, its standard error here) holds a secret."""
    caddy = shutil.which("caddy")
    if not caddy:
        tool_missing("Debian's caddy is not installed (make test installs it)")
    port, log = free_port(), tmp_path / "scorer.log"
    options = (
        "\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\thttp_port {free_port()}\n\tlocal_certs\n"
    )
    text = (DEPLOY / "Caddyfile").read_text()
    assert table.PRIVATE in text  # the same snippet as make table's
    text = text.replace("{\n\tlog default {", "{\n" + options + "\tlog default {", 1)
    text = text.replace(
        "scorer.example {", f"scorer.test:{port} {{\n\tbind 127.0.0.1\n\ttls internal", 1
    )
    text = text.replace("127.0.0.1:5000", f"127.0.0.1:{free_port()}")  # nobody there: a 502
    (tmp_path / "Caddyfile").write_text(text.replace("/var/log/caddy/scorer.log", str(log)))
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    journal = open(tmp_path / "journal.log", "w")
    proc = subprocess.Popen(
        [caddy, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        stdout=journal,
        stderr=journal,
    )
    root = tmp_path / "data/caddy/pki/authorities/local/root.crt"
    try:
        for target in (
            "/m/abcdefghijkl/score?key=SECRET-KEY&lang=pl",
            "/lang/pl?next=/m/abcdefghijkl/score%3Fkey%3DSECRET-NEXT",
        ):
            assert ask(port, target, f"scorer.test:{port}", root) == b"HTTP/1.1 502 Bad Gateway"
    finally:
        proc.terminate()
        proc.wait(10)
        journal.close()
    written = log.read_text()
    assert "/m/abcdefghijkl/score?lang=pl" in written
    said = (tmp_path / "journal.log").read_text()
    assert '"uri":"/m/abcdefghijkl/score?lang=pl"' in said  # the error names the request
    no_secret_in_any_file(tmp_path)


def test_the_tables_caddy_keeps_the_key_out_of_its_log_with_gunicorn_down(tmp_path):
    """`make table`'s Caddy (its configuration, started as scorer/table.py starts
    it): with gunicorn up, the plain-HTTP port's language switch with a line break
    in next= goes home (it answered 500). With gunicorn down (not started yet,
    restarting) and then resetting each connection, Caddy's error log names each
    request, and no line of it, nor of gunicorn's log, carries a key."""
    caddy = shutil.which("caddy")
    if not caddy:
        tool_missing("Debian's caddy is not installed (make test installs it)")
    https, http = free_port(), free_port()
    folder = tmp_path / "caddy"
    (folder / "data").mkdir(parents=True)
    with gunicorn(tmp_path) as (app_port, _instance, _log):
        config = table.caddyfile(
            "scorer.test", app_port=app_port, https_port=https, http_port=http, bind="127.0.0.1"
        )
        proxy, log = table.start_caddy(caddy, folder, config)
        try:
            table.wait_for(https, "127.0.0.1", proxy, log)
            plain = f"scorer.test:{http}"
            deadline = time.monotonic() + 30
            while (said := ask(http, "/lang/pl?next=/x%0Ay", plain)).endswith(b"502 Bad Gateway"):
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.1)
            assert said == b"HTTP/1.1 302 Found"
            with socket.create_connection(("127.0.0.1", http)) as s:
                s.sendall(f"GET /lang/pl?next=/x%0Ay HTTP/1.1\r\nHost: {plain}\r\n\r\n".encode())
                assert b"\r\nLocation: /\r\n" in s.recv(4096)
        except BaseException:
            table.stop(proxy)
            raise
    root = table.caddy_root(folder)
    secure = f"scorer.test:{https}"
    try:
        assert ask(https, "/m/abcdefghijkl/score?key=SECRET-KEY&lang=pl", secure, root).endswith(
            b" 502 Bad Gateway"
        )
        assert ask(http, "/lang/pl?next=/m/abcdefghijkl/score%3Fkey%3DSECRET-NEXT", plain).endswith(
            b" 502 Bad Gateway"
        )
        with socket.create_server(("127.0.0.1", app_port)) as resetting:
            resetting.settimeout(10)

            def reset_each() -> None:
                for _ in range(2):
                    with contextlib.suppress(OSError):
                        conn, _addr = resetting.accept()
                        conn.setsockopt(
                            socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                        )
                        conn.recv(1024)
                        conn.close()  # a reset, not a close

            thread = threading.Thread(target=reset_each)
            thread.start()
            target = "/m/abcdefghijkl/score?key=SECRET-RESET&lang=pl"
            assert ask(https, target, secure, root).endswith(b" 502 Bad Gateway")
            resetting.close()
            thread.join(20)
    finally:
        table.stop(proxy)
    written = log.read_text()
    lines = [x for x in written.splitlines() if '"uri":"/m/abcdefghijkl/score?lang=pl"' in x]
    assert len(lines) == 2 and '"uri":"/lang/pl"' in written, written
    no_secret_in_any_file(tmp_path)
