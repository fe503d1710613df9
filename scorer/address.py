"""The address the other phones at the table open: on the share page (its links
and QR codes) and in the terminal when the server starts.

In this order: the address the server was given (``SCORER_PUBLIC_URL``, such as
``https://scorer.example`` or what `make table` sets); else the address the page
was opened at, unless that is this machine's own (``127.0.0.1``, ``localhost``),
which no other phone reaches: then this machine's address on the local network,
if the server answers there (``HOST=0.0.0.0``); else the loopback address, with
a warning. The local-network address is found without sending anything: a UDP
socket's ``connect`` only asks the system which of its addresses would be used
to reach a private address."""

from __future__ import annotations

import hashlib
import io
import ipaddress
import os
import socket
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

import segno

from .i18n import _, said

# The ports `make table` serves (scorer/table.py): Scorer over HTTPS, the trust page
# over plain HTTP, and gunicorn behind them on 127.0.0.1.
HTTPS_PORT, HTTP_PORT, APP_PORT = 8443, 8000, 5000
# Private addresses no packet is sent to: only the route to each is looked up.
PROBES = ("10.254.254.254", "192.168.254.254", "172.31.254.254")
EVERYWHERE = ("0.0.0.0", "::", "")


def is_loopback(host: str | None) -> bool:
    """``127.0.0.1``, ``::1``, ``localhost``: this machine's own addresses."""
    name = (host or "").strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on its local network (the one it would send from
    to a private address), or None when it has none but its own."""
    for probe in PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))  # UDP: nothing is sent
                address = s.getsockname()[0]
        except OSError:
            continue
        if address not in EVERYWHERE and not is_loopback(address):
            return address
    return None


def host_in_url(host: str, port: int | str | None, scheme: str = "http") -> str:
    """``scheme://host[:port]``, an IPv6 address in brackets, a default port left out."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return (
        f"{scheme}://{host}"
        if port in (None, "", default, str(default))
        else f"{scheme}://{host}:{port}"
    )


@dataclass(frozen=True)
class Public:
    """Where the links lead: ``base`` (``scheme://host[:port]``, no slash after) and
    ``why``: ``configured`` (SCORER_PUBLIC_URL), ``opened`` (the page's own
    address), ``lan`` (this machine's local-network address in place of the
    loopback address the page was opened at) or ``loopback`` (no other phone
    reaches it: say so)."""

    base: str
    why: str
    opened: str = ""


def public_base(configured: str | None, listen: str | None, opened: str) -> Public:
    """The address for links to this server. ``configured``: SCORER_PUBLIC_URL;
    ``listen``: the address the server listens on (``HOST``); ``opened``: the
    page's own ``scheme://host[:port]``."""
    opened = opened.rstrip("/")
    if configured and configured.strip():
        return Public(configured.strip().rstrip("/"), "configured", opened)
    parts = urlsplit(opened)
    if not is_loopback(parts.hostname):
        return Public(opened, "opened", opened)
    lan = lan_address() if (listen or "").strip() in EVERYWHERE else None
    if lan:
        return Public(host_in_url(lan, parts.port, parts.scheme), "lan", opened)
    return Public(opened, "loopback", opened)


def banner(environ: dict | None = None, out: TextIO | None = None) -> str:
    """What the server prints when it is ready: the address the phones open and
    its QR code, or why there is none to scan. Returns the address."""
    env = os.environ if environ is None else environ
    out = out or sys.stdout
    listen, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "5000")
    trust = env.get("SCORER_TRUST_URL", "").strip()
    everywhere = listen.strip() in EVERYWHERE
    opened = host_in_url("127.0.0.1" if everywhere else listen, port)
    where = public_base(env.get("SCORER_PUBLIC_URL"), listen, opened)
    address = where.base + "/"
    if where.why == "loopback":
        print(said(_("Scorer: %(address)s (this machine only).", address=address), env), file=out)
        if everywhere:
            why = _("No other phone can open it: this machine has no network address.")
        else:
            why = _(
                "No other phone can open it: `make table` serves the table's network "
                "over HTTPS, `make run HOST=0.0.0.0` over plain HTTP."
            )
        print(said(why, env), file=out)
        out.flush()
        return address
    print(
        said(_("Scorer for the phones at the table: %(address)s", address=address), env), file=out
    )
    scan = address
    if trust:
        first = _(
            "A phone's first time: %(trust)s (trust this table's certificate once)", trust=trust
        )
        print(said(first, env), file=out)
        pem = read_certificate(env.get("SCORER_CA_CERT"))
        try:
            if pem:
                name = certificate_name(pem) or "?"
                named = _(
                    "the certificate: “%(name)s”, SHA-256 %(fingerprint)s",
                    name=name,
                    fingerprint=fingerprint(pem),
                )
                print("  " + said(named, env), file=out)
        except ValueError:  # a file cut short: the trust page says it can't be given
            pass
        scan = trust
    print(said(_("Scan it with a phone's camera (%(address)s):", address=scan), env), file=out)
    terminal_qr(scan, out)
    out.flush()
    return address


def terminal_qr(text: str, out: TextIO) -> None:
    """``text``'s QR code in half blocks (segno), its light modules drawn as blocks;
    on a terminal, white on black whatever the terminal's own colours (drawn in
    the terminal's, a light theme turns it inside out, and cameras miss it)."""
    drawn = io.StringIO()
    segno.make(text, error="m").terminal(out=drawn, compact=True)
    colour = out.isatty() if hasattr(out, "isatty") else False
    for line in drawn.getvalue().splitlines():
        print(f"\x1b[97;40m{line}\x1b[0m" if colour else line, file=out)


# --- the certificate of `make table`'s own authority -------------------------------------


def read_certificate(path: str | None) -> str | None:
    """The PEM text at ``path``, or None (no path; Caddy has not made it yet)."""
    try:
        return Path(path).read_text(encoding="ascii") if path else None
    except (OSError, ValueError):
        return None


def fingerprint(pem: str) -> str:
    """The certificate's SHA-256 fingerprint as phones show it: hex pairs, spaced."""
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    return " ".join(digest[i : i + 2] for i in range(0, len(digest), 2))


COMMON_NAME = bytes([0x06, 0x03, 0x55, 0x04, 0x03])  # the OID 2.5.4.3, in DER
# the string types a name is written in, and how each reads
STRINGS = {0x0C: "utf-8", 0x13: "ascii", 0x16: "ascii", 0x1E: "utf-16-be"}


def certificate_name(pem: str) -> str | None:
    """The name a phone lists the certificate by (its common name: the issuer's,
    which comes first and is the subject's own in a root), or None."""
    der = ssl.PEM_cert_to_DER_cert(pem)
    at = der.find(COMMON_NAME)
    if at < 0 or at + len(COMMON_NAME) + 2 > len(der):
        return None
    at += len(COMMON_NAME)
    codec, size = STRINGS.get(der[at]), der[at + 1]
    at += 2
    if size & 0x80:  # the long form: the length in the next one or two bytes
        width = size & 0x7F
        if width not in (1, 2):
            return None
        size, at = int.from_bytes(der[at : at + width], "big"), at + width
    if codec is None or at + size > len(der):
        return None
    try:
        return der[at : at + size].decode(codec) or None
    except UnicodeDecodeError:
        return None
