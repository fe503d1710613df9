"""What a phone really moves on its first and repeat visit of a page, counted on
the wire: a TCP relay between Chromium (Debian's, through Playwright, at phone
size) and the server counts every byte the server sends, headers included,
per request; the service worker's own fetches (its script, the files it keeps
for offline use) pass through it too. A benchmark, not a test: it prints.

A connection may carry several requests (gevent's workers keep it open): the
relay reads each request's head and each answer's length (Content-Length,
chunks, or none for a 304) to tell them apart."""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time

from playwright.sync_api import sync_playwright


def message_length(buf: bytes | bytearray, bodiless: bool = False) -> int | None:
    """The length of the HTTP message at the start of ``buf``, head and body, or
    None while it is not all there. ``bodiless``: an answer without a body (to a
    HEAD, or a 304)."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = bytes(buf[:end]).decode("latin-1").lower()
    start = end + 4
    if bodiless or re.match(r"http/1\.[01] (1\d\d|204|304)", head):
        return start
    if re.search(r"^transfer-encoding:.*chunked", head, re.M):
        at = start
        while True:  # chunks: a size line, the data, CRLF; the last has size 0
            line_end = buf.find(b"\r\n", at)
            if line_end < 0:
                return None
            size = int(bytes(buf[at:line_end]).split(b";")[0], 16)
            at = line_end + 2 + size + 2
            if size == 0:
                return at if len(buf) >= at else None
            if len(buf) < at:
                return None
    length = re.search(r"^content-length:\s*(\d+)", head, re.M)
    total = start + (int(length.group(1)) if length else 0)
    return total if len(buf) >= total else None


class Relay:
    """127.0.0.1:<port> → 127.0.0.1:<target>; ``seen``: (request line, bytes
    the server sent for it) per request, in the order they were answered."""

    def __init__(self, target: int):
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.seen: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.last = time.monotonic()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _a = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._carry, args=(client,), daemon=True).start()

    def _carry(self, client: socket.socket) -> None:
        server = socket.create_connection(("127.0.0.1", self.target))
        asked: list[str] = []  # the request lines not answered yet, in order
        pending = bytearray()

        def up() -> None:  # the phone's requests, as they are
            try:
                while data := client.recv(65536):
                    pending.extend(data)
                    while (n := message_length(pending, bodiless=True)) is not None:
                        line = bytes(pending[: pending.find(b"\r\n")]).decode("latin-1")
                        with self.lock:
                            asked.append(line)
                        del pending[:n]
                    server.sendall(data)
            except OSError:
                pass
            try:
                server.shutdown(socket.SHUT_WR)
            except OSError:
                pass

        t = threading.Thread(target=up, daemon=True)
        t.start()
        answer = bytearray()
        try:
            while data := server.recv(65536):
                answer.extend(data)
                while answer:
                    with self.lock:
                        line = asked[0] if asked else ""
                    n = message_length(answer, bodiless=line.startswith("HEAD "))
                    if n is None:
                        break
                    self._answered(asked, n)
                    del answer[:n]
                client.sendall(data)
        except OSError:
            pass
        if answer:  # an answer that ran until the connection closed
            self._answered(asked, len(answer))
        client.close()
        server.close()
        t.join(1)

    def _answered(self, asked: list[str], size: int) -> None:
        with self.lock:
            line = asked.pop(0) if asked else "?"
            self.seen.append((line, size))
            self.last = time.monotonic()

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            seen, self.seen = self.seen, []
        return seen

    def quiet(self, for_s: float, most: float = 20) -> None:
        """Wait until nothing has been carried for ``for_s`` seconds."""
        end = time.monotonic() + most
        while time.monotonic() < end and time.monotonic() - self.last < for_s:
            time.sleep(0.05)


def show(title: str, seen: list[tuple[str, int]]) -> int:
    print(f"  {title}:")
    total = 0
    for line, size in seen:
        total += size
        print(f"    {line.rsplit(' ', 1)[0][:60]:60} {size:>6}")
    print(f"    in all: {len(seen)} request(s), {total / 1024:.1f} KB")
    return total


def visit(server_port: int, path: str, cookie: str | None, who: str) -> tuple[int, int]:
    """A phone's first visit of ``path`` (all it moves until the service worker
    has kept what it keeps and the network is quiet), then a second visit; with
    ``cookie`` the browser of a scorer, without it a phone that watches. The
    first visit's bytes and requests."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    relay = Relay(server_port)
    base = f"http://127.0.0.1:{relay.port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        if cookie:
            context.add_cookies([{"name": "scorer_browser", "value": cookie, "url": base}])
        page = context.new_page()
        page.goto(base + path, wait_until="load")
        page.locator("html[data-offline=ready]").wait_for(state="attached")
        relay.quiet(1.0)
        seen = relay.take()
        kept = page.evaluate(
            "caches.open('scorer-v1').then(c => c.keys()).then(ks => ks.map(k => k.url))"
        )
        print(f"\n{who}: first visit of {path} in Chromium at phone size, on the wire:")
        first = [s for s in seen if "part=live" not in s[0]]
        total = show("everything, in order (the service worker's too)", first)
        print(f"  kept for offline use: {len(kept)} files")
        for url in kept:
            print(f"    {url.removeprefix(base)}")
        page.goto(base + path, wait_until="load")
        relay.quiet(1.0)
        again = [s for s in relay.take() if "part=live" not in s[0]]
        show("repeat visit", again)
        page.wait_for_timeout(2500)  # the live sheet asks every 2 s
        polls = [size for line, size in relay.take() if "part=live" in line]
        if polls:
            print(f"  then a live poll with nothing new: {polls[-1]} bytes")
        browser.close()
    relay.listener.close()
    return total, len(first)
