"""`make table`: Scorer over HTTPS for the phones at the table, Caddy (Debian's
package) in front of gunicorn.

- The table's network (the default): Caddy's own local certificate authority
  signs a certificate for this machine's address on the local network (or
  ``--host``); the phones open ``https://<address>:8443/``. Each phone trusts
  that authority once, from the page ``http://<address>:8000/trust`` (the
  certificate to download, with its QR code, and how to install it); the plain
  HTTP port serves that page and nothing else.
- ``SCORER_DOMAIN=scorer.example`` (``--domain``): a host with a public name
  that points at it, ports 80 and 443 open: Caddy gets an ordinary certificate
  for it automatically (Let's Encrypt or ZeroSSL) and renews it.

gunicorn serves on 127.0.0.1 (``--port``) as `make run` does, told the address
the phones open (``SCORER_PUBLIC_URL``), so its share page's links lead there,
and where the certificate and its page are. Caddy keeps its authority and
certificates in ``<instance>/caddy`` (a phone's trust outlives a restart), its
admin endpoint off, its log in ``<instance>/caddy/caddy.log``. Both stop
together: Ctrl-C, SIGTERM, or either one ending."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from .address import APP_PORT, HTTP_PORT, HTTPS_PORT, host_in_url, lan_address
from .app import ROOT
from .i18n import _, said

# Every log line Caddy writes (its errors, as when gunicorn is down or resets a
# connection, and a site's access log): the request without the score link's edit
# key (?key=, or inside the language switch's ?next=), its cookie, Bearer key and
# referring address (a page's address, which may hold ?key=). deploy/Caddyfile
# holds the same snippet (tests/test_table.py checks it).
PRIVATE = """\
# no edit key, cookie or referring address in any log line (errors and access alike)
(private) {
	format filter {
		wrap json
		fields {
			request>uri query {
				delete key
				delete next
			}
			request>headers>Cookie delete
			request>headers>Authorization delete
			request>headers>Referer delete
			resp_headers>Set-Cookie delete
		}
	}
}
"""

TABLE = """\
{{
	admin off
	skip_install_trust
	auto_https disable_redirects
	http_port {http_port}
	https_port {https_port}
	local_certs
	log default {{
		import private
	}}
}}

{https} {{
{bind}	tls internal
	reverse_proxy 127.0.0.1:{app_port}
}}

# the plain-HTTP port: the page a phone trusts this table's certificate from, only
{http} {{
{bind}	@trust path /trust /trust/* /static/* /lang/*
	handle @trust {{
		reverse_proxy 127.0.0.1:{app_port}
	}}
	handle {{
		redir * /trust
	}}
}}
"""

DOMAIN = """\
{{
	admin off
	log default {{
		import private
	}}
}}

{domain} {{
{bind}	reverse_proxy 127.0.0.1:{app_port}
}}
"""


def caddyfile(
    host: str | None = None,
    *,
    domain: str | None = None,
    app_port: int = APP_PORT,
    https_port: int = HTTPS_PORT,
    http_port: int = HTTP_PORT,
    bind: str | None = None,
) -> str:
    """Caddy's configuration: the table's (its local authority) or a domain's."""
    listen = f"\tbind {bind}\n" if bind else ""
    if domain:
        config = DOMAIN.format(domain=domain, app_port=app_port, bind=listen)
    else:
        config = TABLE.format(
            https=host_in_url(host, https_port, "https"),
            http=host_in_url(host, http_port, "http"),
            http_port=http_port,
            https_port=https_port,
            app_port=app_port,
            bind=listen,
        )
    return f"{PRIVATE}\n{config}"


def caddy_root(folder: Path) -> Path:
    """The certificate of Caddy's local authority (XDG_DATA_HOME=<folder>/data)."""
    return folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def wait_for(port: int, host: str, proc: subprocess.Popen, log: Path, seconds: float = 30) -> None:
    """Until something listens on ``host:port`` (where Caddy was told to) or ``proc`` ends."""
    deadline = time.monotonic() + seconds
    while proc.poll() is None:
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
    raise SystemExit(said(_("scorer: Caddy did not start (its log: %(log)s)", log=str(log))))


def taken(ports: list[tuple[str | None, int]]) -> tuple[str, int] | None:
    """The first (address, port) something listens on already (another `make table`,
    say), or None; an address None: every one, IPv4 and IPv6, as Caddy listens
    unless told. Asked before starting: a second Caddy may share a port with the
    first (the kernel then splits the phones between two authorities), and a
    server that answers there is not the one started."""
    for host, port in ports:
        for address in (host,) if host else EVERY:
            if held(address, port):
                return address, port
    return None


EVERY = ("0.0.0.0", "::")


def held(address: str, port: int) -> bool:
    """Whether ``address:port`` is taken: it cannot be bound (or, a port kept for
    root, something answers it)."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    if family == socket.AF_INET6 and not socket.has_ipv6:
        return False
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # not a closing one
        try:
            s.bind((address, port))
            return False
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return True
            if e.errno not in (errno.EACCES, errno.EPERM):
                return False  # an address this machine has not (IPv6 off): Caddy says
    near = address if address not in EVERY else ("::1" if ":" in address else "127.0.0.1")
    try:
        socket.create_connection((near, port), timeout=0.5).close()
        return True
    except OSError:
        return False


def moved(folder: Path, host: str) -> str | None:
    """The address this table was served at the time before, when it was another
    (kept in ``folder``); ``host`` is kept for the next time."""
    kept = folder / "address"
    try:
        before = kept.read_text().strip() or None
    except OSError:
        before = None
    with contextlib.suppress(OSError):  # a note for next time: never what stops the table
        kept.write_text(host + "\n")
    return before if before != host else None


def start_caddy(caddy: str, folder: Path, config: str) -> tuple[subprocess.Popen, Path]:
    """Caddy started on ``config`` (written to ``<folder>/Caddyfile``), keeping its
    authority and certificates in ``folder``; its log (everything it writes) in
    ``<folder>/caddy.log``. Returns the process and that log's path."""
    (folder / "Caddyfile").write_text(config)
    log = folder / "caddy.log"
    proxy = subprocess.Popen(
        [caddy, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
        env={
            **os.environ,
            "HOME": str(folder),
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"),
        },
        stdout=open(log, "a"),  # Caddy's, for as long as it runs
        stderr=subprocess.STDOUT,
    )
    return proxy, log


def stop(proc: subprocess.Popen, how: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(how)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main(argv: list[str] | None = None) -> int:
    ask = argparse.ArgumentParser(prog="python -m scorer.table", description=__doc__.split("\n")[0])
    ask.add_argument("--domain", default=os.environ.get("SCORER_DOMAIN", "").strip() or None)
    ask.add_argument("--host", help="the name or address the phones open (default: this machine's)")
    ask.add_argument("--bind", help="the address Caddy listens on (default: every one)")
    ask.add_argument("--port", type=int, default=APP_PORT, help="gunicorn's, on 127.0.0.1")
    ask.add_argument("--https-port", type=int, default=HTTPS_PORT)
    ask.add_argument("--http-port", type=int, default=HTTP_PORT)
    args = ask.parse_args(argv)
    caddy = shutil.which("caddy")
    if not caddy:
        print(
            said(_("scorer: Caddy is missing (make table installs Debian's caddy)")),
            file=sys.stderr,
        )
        return 1
    instance = Path(os.environ.get("SCORER_INSTANCE") or ROOT / "instance")
    folder = instance / "caddy"
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "config").mkdir(exist_ok=True)
    env = {**os.environ, "PORT": str(args.port), "HOST": "127.0.0.1"}
    if args.domain:
        config = caddyfile(domain=args.domain, app_port=args.port, bind=args.bind)
        env["SCORER_PUBLIC_URL"] = f"https://{args.domain}"
        ready = 443
    else:
        host = args.host or lan_address()
        if not host:
            print(
                said(_("scorer: this machine has no network address; join the table's Wi-Fi first"))
            )
            return 1
        config = caddyfile(
            host,
            app_port=args.port,
            https_port=args.https_port,
            http_port=args.http_port,
            bind=args.bind,
        )
        env["SCORER_PUBLIC_URL"] = host_in_url(host, args.https_port, "https")
        env["SCORER_TRUST_URL"] = host_in_url(host, args.http_port, "http") + "/trust"
        env["SCORER_CA_CERT"] = str(caddy_root(folder))
        ready = args.https_port
    outside = args.bind  # Caddy's; None: every address
    ports = [(outside, ready), (outside, 80 if args.domain else args.http_port)]
    busy = taken(ports + [("127.0.0.1", args.port)])
    if busy:
        busy_words = _(
            "scorer: port %(port)s is in use already (is `make table` running? Stop it first, "
            "or choose other ports with --port, --https-port, --http-port)",
            port=str(busy[1]),
        )
        print(said(busy_words), file=sys.stderr)
        return 1
    if not args.domain and (before := moved(folder, host)):
        moved_words = _(
            "scorer: this table was at %(before)s the time before. A phone keeps the matches "
            "it opened there, and its right to score them, with that address; "
            "`make links BASE=%(base)s` gives each match not finished its score link at this one",
            before=before,
            base=env["SCORER_PUBLIC_URL"],
        )
        print(said(moved_words), file=sys.stderr)
    proxy, log = start_caddy(caddy, folder, config)
    app = None
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        wait_for(ready, args.bind or "127.0.0.1", proxy, log)  # where Caddy listens
        app = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "--config",
                str(ROOT / "gunicorn.conf.py"),
                "scorer:create_app()",
            ],
            cwd=ROOT,
            env=env,
        )
        while not stopping and proxy.poll() is None and app.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:  # Ctrl-C: Caddy and gunicorn were told too
        stopping.append(True)
    finally:
        stop(proxy)  # first: the phones' connections, and Caddy's to gunicorn, close
        if app:  # gunicorn's quick stop: a phone's queue sends again what was cut
            stop(app, signal.SIGINT)
    if stopping:
        return 0
    print(said(_("scorer: stopped (Caddy's log: %(log)s)", log=str(log))), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
