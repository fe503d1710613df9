"""The table over HTTPS, as `make table` serves it (issue 23): scorer/table.py starts
Caddy (its local authority only, bound to 127.0.0.1, admin off) in front of
gunicorn for the host name ``scorer.test``, which the test's Chromium maps to
127.0.0.1 (``--host-resolver-rules``, every other name unresolved): nothing is
sent anywhere but loopback.

- The server's first lines give the address the phones open and the trust page.
- A phone that does not trust the table yet is refused by Chromium
  (ERR_CERT_AUTHORITY_INVALID); from the trust page it downloads the certificate
  (the page's QR code, read by zbarimg, leads to it); trusted through an NSS
  database (certutil), as a phone trusts it once, the same Chromium opens
  Scorer over HTTPS. No certificate error is ignored by a flag.
- The laptop opens Scorer at 127.0.0.1, starts a match and taps "Share" (in its
  top bar); the QR codes of the share page, read from a screenshot by zbarimg,
  lead to ``https://scorer.test:<port>``, not to a loopback address; a phone
  opens the score link's and lands on the match, told it scores now; its page
  is secure: the service worker registers, the wake-lock switch shows; offline,
  a deal waits on the phone, and it is sent once when the network is back.

The phone reaches the table through a line the test can cut (``Wire``, a CONNECT
proxy on 127.0.0.1): Chromium's offline emulation and aborted routes let a write
through now and then (seen in CI), a phone off the network sends nothing."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error, expect

from scorer import address

from .helpers import ROOT, free_port, go, start_on_phone, tool_missing
from .test_browser import shot
from .test_browser_offline import WAITING, cut_network, enter, restore_network
from .test_browser_sharing import fill_deal

pytestmark = pytest.mark.browser

HOST = "scorer.test"
RESOLVE = f"--host-resolver-rules=MAP {HOST} 127.0.0.1, EXCLUDE 127.0.0.1, MAP * ~NOTFOUND"


@dataclass
class Table:
    public: str  # https://scorer.test:<port>/
    trust: str  # http://scorer.test:<port>/trust
    app: str  # gunicorn itself: http://127.0.0.1:<port>
    root: Path  # the certificate of Caddy's local authority
    first: list[str]  # the server's first lines


class Wire:
    """The phone's line to the table: an HTTP CONNECT proxy on 127.0.0.1 that
    tunnels to ``HOST`` (on 127.0.0.1) only. Cut, it drops every tunnel and answers
    nothing more, as a phone off the network reaches nothing, until it is mended."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.proxy = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.up = True
        self.tunnels = 0  # opened so far
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._tunnel, args=(conn,), daemon=True).start()

    def _tunnel(self, conn: socket.socket):
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 8192:
            if not (chunk := conn.recv(1024)):
                break
            head += chunk
        target = re.match(rb"CONNECT ([^\s:]+):(\d+) ", head)
        with self.lock:
            if not (self.up and target and target.group(1).decode() == HOST):
                conn.close()
                return
            far = socket.create_connection(("127.0.0.1", int(target.group(2))))
            self.open |= {conn, far}
            self.tunnels += 1
        conn.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        threading.Thread(target=self._pipe, args=(far, conn), daemon=True).start()
        self._pipe(conn, far)

    def _pipe(self, source: socket.socket, sink: socket.socket):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            self._drop(s)

    def _drop(self, s: socket.socket):
        with self.lock:
            self.open.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()

    def cut(self):
        with self.lock:
            self.up = False
            cables = list(self.open)
        for s in cables:
            self._drop(s)

    def mend(self):
        with self.lock:
            self.up = True


def verified(port: int, cafile: Path) -> bool:
    """A GET through Caddy on 127.0.0.1 for scorer.test, its certificate checked."""
    ctx = ssl.create_default_context(cafile=str(cafile))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=2) as raw,
        ctx.wrap_socket(raw, server_hostname=HOST) as s,
    ):
        s.sendall(f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
        return s.recv(64).startswith(b"HTTP/1.1 200")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    if not shutil.which("caddy"):
        tool_missing("Debian's caddy is not installed (make test installs it)")
    folder = tmp_path_factory.mktemp("table")
    app_port, tls_port, http_port = free_port(), free_port(), free_port()
    log = open(folder / "table.log", "w+")  # read while it runs
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer.table", "--host", HOST, "--bind", "127.0.0.1"]
        + ["--port", str(app_port), "--https-port", str(tls_port), "--http-port", str(http_port)],
        cwd=ROOT,
        env={**os.environ, "SCORER_INSTANCE": str(folder / "instance"), "WORKERS": "1"},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    root = folder / "instance/caddy/data/caddy/pki/authorities/local/root.crt"
    try:
        deadline = time.monotonic() + 60
        while "Scan it" not in (out := Path(log.name).read_text()):
            assert proc.poll() is None and time.monotonic() < deadline, out
            time.sleep(0.1)
        first = out.splitlines()[:10]
        while True:  # the site's certificate comes a moment after the authority's
            try:
                if verified(tls_port, root):
                    break
            except (OSError, ssl.SSLError):
                assert time.monotonic() < deadline, out
                time.sleep(0.05)
        said = "\n".join(first)
        yield Table(
            public=re.search(r"Scorer for the phones at the table: (\S+)", said).group(1),
            trust=re.search(r"A phone's first time: (\S+)", said).group(1),
            app=f"http://127.0.0.1:{app_port}",
            root=root,
            first=first,
        )
    finally:
        proc.send_signal(signal.SIGTERM)  # it stops Caddy and gunicorn
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def launch(playwright, launch_args, home: Path):
    """Chromium with ``home``'s NSS database (what it trusts beside the system's)."""
    return playwright.chromium.launch(
        **{
            **launch_args,
            "env": {**os.environ, "HOME": str(home)},
            "args": [*launch_args.get("args", []), RESOLVE],
        }
    )


def decoded(locator, path: Path) -> str:
    """What zbarimg reads in a screenshot of ``locator`` (a QR code)."""
    locator.screenshot(path=str(path))
    done = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture(scope="module")
def trusting(playwright, browser_type_launch_args, browser_context_args, table, tmp_path_factory):
    """A browser that trusts the table: its certificate taken from the trust page
    by a browser that did not, as a phone takes it once."""
    if not (shutil.which("certutil") and shutil.which("zbarimg")):
        tool_missing("certutil or zbarimg is missing (make test installs them)")
    folder = tmp_path_factory.mktemp("phone")
    db = folder / "home" / ".pki" / "nssdb"
    db.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "--empty-password", "-d", f"sql:{db}"], check=True)
    stranger = launch(playwright, browser_type_launch_args, folder / "home")
    context = stranger.new_context(**browser_context_args)
    with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
        context.new_page().goto(table.public)
    page = context.new_page()
    page.goto(table.trust)
    shot(page, "trust-phone.png", full_page=True)
    link = page.get_by_role("link", name="Download the certificate").get_attribute("href")
    assert decoded(page.locator("img.qr"), folder / "ca-qr.png") == link
    assert link == table.trust + "/ca.crt"
    pem = page.evaluate("url => fetch(url).then(r => r.text())", link)
    assert pem == table.root.read_text()
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    shown = page.get_by_text("Its SHA-256 fingerprint").inner_text()
    assert shown.split(": ", 1)[1].replace(" ", "") == digest
    assert (
        page.get_by_role("link", name="Open Scorer", exact=True).get_attribute("href")
        == table.public
    )
    # the page in the phone's language: its links pass on the plain-HTTP port
    go(page, page.get_by_role("link", name="Polski"))
    expect(page.locator("h1")).to_have_text("Zaufaj certyfikatowi tego stołu")
    assert page.url == table.trust
    go(page, page.get_by_role("link", name="English"))
    stranger.close()
    (folder / "ca.crt").write_text(pem)
    subprocess.run(
        ["certutil", "-A", "-n", "scorer-table", "-t", "C,,", "-i", str(folder / "ca.crt")]
        + ["-d", f"sql:{db}"],
        check=True,
    )
    browser = launch(playwright, browser_type_launch_args, folder / "home")
    yield browser
    browser.close()


def stored_deals(table: Table, match_id: str) -> list:
    with urllib.request.urlopen(f"{table.app}/api/matches/{match_id}") as r:
        return json.load(r)["deals"]


def test_the_server_prints_the_address_and_the_trust_page(table):
    assert table.public == f"https://{HOST}:{urlsplit(table.public).port}/"
    assert table.trust == f"http://{HOST}:{urlsplit(table.trust).port}/trust"
    scan = next(n for n, line in enumerate(table.first) if line.startswith("Scan it"))
    assert table.first[scan] == f"Scan it with a phone's camera ({table.trust}):"
    assert all("▄" in line for line in table.first[scan + 3 : scan + 6])  # its QR code


def test_a_phone_scans_the_share_page_and_scores_offline_proof_over_https(
    trusting, browser_context_args, table, tmp_path
):
    laptop = trusting.new_context(**browser_context_args).new_page()
    sheet = start_on_phone(laptop, table.app, "black_maria", ["Ala", "Bartek", "Celina"])
    match_id = sheet.rsplit("/", 1)[1]
    share = laptop.locator(".bar .share-link")
    expect(share).to_be_in_viewport()  # a scorer sees it without scrolling
    # a browser with the Web Share API (Chromium on a phone): Send hands the link to it
    laptop.add_init_script(
        "navigator.share = d => (window.sent = d, Promise.resolve());"
        "navigator.canShare = () => true;"
    )
    laptop.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=table.app)
    go(laptop, share)
    expect(laptop.locator(".where")).to_have_text(
        f"These links lead to {HOST}:{urlsplit(table.public).port}, "
        "the address the phones at the table open."
    )
    shot(laptop, "share-phone.png")
    # one scan for a phone new to the table: each code opens the trust page (on the
    # plain-HTTP port: the HTTPS links fail until the phone trusts the table), the
    # match's path after its # (never sent over plain HTTP), and leads on to it
    watch_code = decoded(laptop.locator("#watch img.qr"), tmp_path / "watch.png")
    score_code = decoded(laptop.locator("#score img.qr"), tmp_path / "score.png")
    assert watch_code == f"{table.trust}#/m/{match_id}"
    assert score_code.startswith(f"{table.trust}#/m/{match_id}/score?key=")
    joiner = trusting.new_context(**browser_context_args).new_page()
    joiner.goto(score_code)
    expect(joiner.locator("h1")).to_have_text("Trust this table's certificate")
    onward = joiner.get_by_role("link", name="Open Scorer", exact=True)
    score = onward.get_attribute("href")
    assert score == table.public + score_code.split("#/", 1)[1]
    go(joiner, onward)  # installed and trusted: on to the match, scoring it
    watch = f"{table.public}m/{match_id}"
    assert joiner.url == watch and joiner.evaluate("window.isSecureContext") is True
    expect(joiner.locator("p.flash")).to_have_text("You score this match on this phone now.")
    joiner.goto(watch_code)  # the watch code likewise, for a phone that trusts already
    go(joiner, joiner.get_by_role("link", name="Done already? Open Scorer"))
    assert joiner.url == watch
    joiner.context.close()
    assert not address.is_loopback(urlsplit(score).hostname)
    laptop.locator("#watch").get_by_role("button", name="Send").tap()
    assert laptop.evaluate("window.sent.url") == watch
    laptop.locator("#score").get_by_role("button", name="Copy").tap()
    expect(laptop.locator("#score [role=status]")).to_have_text("Copied.")
    assert laptop.evaluate("navigator.clipboard.readText()") == score

    # the phone opens the score link: the match, secure, and it scores now
    wire = Wire()
    phone = trusting.new_context(**browser_context_args, proxy={"server": wire.proxy}).new_page()
    phone.goto(score)
    assert phone.url == watch
    assert wire.tunnels  # the phone reaches the table by the wire
    expect(phone.locator("p.flash")).to_have_text("You score this match on this phone now.")
    assert phone.evaluate("window.isSecureContext") is True
    expect(phone.locator("html[data-offline=ready]")).to_have_count(1)  # the worker keeps it
    phone.reload()
    expect(phone.locator("html[data-offline=ready]")).to_have_count(1)
    assert phone.evaluate("navigator.serviceWorker.controller.scriptURL") == table.public + "sw.js"
    expect(phone.locator("[data-awake]")).to_be_visible()
    expect(phone.get_by_role("switch", name="Keep the screen on")).to_be_visible()

    # offline: the deal waits on the phone, and is sent once when the network is back
    enter(phone)
    fill_deal(phone, [4, 6, 3], 0, 1, 1)  # Ala 4 + Q♠ 17, Bartek 6 + K♠ + A♠ 23, Celina 3
    wire.cut()
    cut_network(phone)
    go(phone, phone.get_by_role("button", name="Save deal 1"))
    note = phone.locator("#queue-note")
    expect(note).to_have_text(WAITING)
    assert stored_deals(table, match_id) == []
    wire.mend()
    restore_network(phone)
    expect(note).to_have_text("Deal 1 saved.", timeout=12000)
    deal = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    assert stored_deals(table, match_id) == [deal]
    phone.evaluate("dispatchEvent(new Event('online'))")  # nothing is left to send
    phone.wait_for_timeout(1000)
    assert stored_deals(table, match_id) == [deal]
    laptop.goto(watch.replace(table.public, table.app + "/"))
    assert [int(t) for t in laptop.locator(".totals .points").all_inner_texts()] == [17, 23, 3]
    phone.context.close()
    laptop.context.close()


def test_a_phone_that_opened_scorer_over_https_opens_the_trust_page_again(
    trusting, browser_context_args, table
):
    """No HSTS from the table's own authority: it ignores ports, and would send the
    trust page (plain HTTP, the same name) to HTTPS for a year, where a phone that
    removed the certificate after an evening could not trust it again."""
    page = trusting.new_context(**browser_context_args).new_page()
    answer = page.goto(table.public)
    assert answer.ok and "strict-transport-security" not in answer.headers
    answer = page.goto(table.trust)
    assert answer.ok and page.url == table.trust
    expect(page.locator("h1")).to_have_text("Trust this table's certificate")
    expect(page.get_by_text("The phone lists it as")).to_contain_text("Caddy Local Authority")
    page.context.close()
