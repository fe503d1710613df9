"""What a phone really moves on its first and repeat visit of a page, counted on
the wire: a TCP relay between Chromium (Debian's, through Playwright, at phone
size) and the server counts every byte the server sends, headers included,
per request; the service worker's own fetches (its script, the files it keeps
for offline use) pass through it too. A benchmark, not a test: it prints.

gunicorn's sync workers close every connection after one answer, so each
connection the relay carries is one request: its first line names it."""

from __future__ import annotations

import shutil
import socket
import threading
import time

from playwright.sync_api import sync_playwright


class Relay:
    """127.0.0.1:<port> → 127.0.0.1:<target>; ``seen``: (request line, bytes
    the server sent) per connection, in the order they ended."""

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
        first = bytearray()

        def up() -> None:  # the phone's request, as it is
            try:
                while data := client.recv(65536):
                    if len(first) < 512:
                        first.extend(data[:512])
                    server.sendall(data)
            except OSError:
                pass
            try:
                server.shutdown(socket.SHUT_WR)
            except OSError:
                pass

        t = threading.Thread(target=up, daemon=True)
        t.start()
        sent = 0
        try:
            while data := server.recv(65536):
                sent += len(data)
                client.sendall(data)
        except OSError:
            pass
        client.close()
        server.close()
        t.join(1)
        if sent:
            line = bytes(first).split(b"\r\n", 1)[0].decode("latin-1")
            with self.lock:
                self.seen.append((line, sent))
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


def visit(server_port: int, path: str, cookie: str | None, who: str) -> None:
    """A phone's first visit of ``path`` (all it moves until the service worker
    has kept what it keeps and the network is quiet), then a second visit; with
    ``cookie`` the browser of a scorer, without it a phone that watches."""
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
        show("everything, in order (the service worker's too)", first)
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
