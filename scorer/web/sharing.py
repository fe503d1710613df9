"""Sharing a match: the watch and score links with their QR codes, and the
score link itself (this browser scores the match from then on); under `make
table`, the page a phone trusts the table's certificate from."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import Forbidden

from .. import address, store
from ..i18n import _
from ..store import get_db as db
from . import access
from .lookup import match_or_404, scored_or_403, title

bp = Blueprint("sharing", __name__)


@bp.get("/m/<mid:match_id>/share")
def share(match_id: str):
    """Two links, each with its QR code drawn here as SVG (segno): one to watch,
    one to score (it carries the edit key). They lead to an address the other
    phones reach (scorer/address.py), said in a line when it is not the one
    this page was opened at, with a warning when it is this machine's own."""
    stored = scored_or_403(match_id)
    where = address.public_base(
        current_app.config.get("PUBLIC_URL"),
        current_app.config.get("LISTEN_HOST"),
        request.host_url,
    )
    watch = where.base + url_for("sheet.sheet", match_id=stored.pub)
    score = where.base + url_for("sharing.score_link", match_id=stored.pub, key=stored.edit_key)
    # under `make table`, for a phone new to the table: its links open only once it
    # trusts the table's certificate, from this page (on the plain-HTTP port)
    trust = current_app.config.get("TRUST_URL")
    codes = {
        name: qr_code(joining(link, trust)) for name, link in (("watch", watch), ("score", score))
    }
    return render_template(
        "share.html",
        match_id=match_id,
        match=stored.match,
        title=title(stored.match),
        watch=watch,
        score=score,
        codes=codes,
        where=where,
        here=urlsplit(where.opened).netloc,
        there=urlsplit(where.base).netloc,
    )


def joining(link: str, trust: str | None) -> str:
    """What a code to scan holds: ``link`` itself; under `make table`, the trust page
    with the link's path after its ``#``, so that one scan takes a phone new to the
    table through trusting its certificate and on to the match (static/scorer.js),
    and one that trusts it already on with a tap. After ``#`` the path (and a score
    link's key) never travels over the plain-HTTP port."""
    if not trust:
        return link
    parts = urlsplit(link)
    return f"{trust}#{parts.path}" + (f"?{parts.query}" if parts.query else "")


def qr_code(link: str) -> str:
    """``link``'s QR code, black on white whatever the page's colours (SVG, a data URI)."""
    return segno.make(link, error="m").svg_data_uri(scale=5, border=2, dark="#000", light="#fff")


@bp.get("/m/<mid:match_id>/score")
def score_link(match_id: str):
    """The score link: it carries the edit key once; this browser scores the
    match from now on, and the clean address is shown."""
    stored = match_or_404(match_id)
    if not stored.key_is(request.args.get("key")):
        access.refuse(
            Forbidden,
            _(
                "This score link is not right (or no longer): ask a scorer "
                "of the match for it again. With the match's address you "
                "can watch."
            ),
        )
    store.remember(db(), access.browser(), stored.id, "score")
    # the sheet says it (static/scorer.js), not a flash: the page the phone lands on is
    # the sheet's own bytes, which the service worker keeps with a 304
    return redirect(url_for("sheet.sheet", match_id=stored.pub, _anchor="scoring"))


# --- the table's certificate (`make table`: Caddy's local authority) ----------------------


def ca_certificate() -> bytes:
    """The certificate of the authority that signs this table's HTTPS (PEM), or 404
    when there is none (not served by `make table`, or Caddy not started yet)."""
    path = current_app.config.get("CA_CERT")
    if not path:
        abort(404)
    try:
        return Path(path).read_bytes()
    except OSError:
        abort(404)


@bp.get("/trust")
def trust():
    """How a phone trusts this table's certificate, once: the certificate to
    download (with its QR code, to scan from the machine's screen) and its
    fingerprint, how to install it, and the way on to Scorer over HTTPS."""
    pem = ca_certificate().decode("ascii", "replace")
    try:
        fingerprint, name = address.fingerprint(pem), address.certificate_name(pem)
    except ValueError:  # a file cut short (Caddy writing it): as if not there yet
        abort(404)
    trust_url = current_app.config.get("TRUST_URL") or request.base_url
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(trust_url))
    download = origin + url_for("sharing.certificate")
    return render_template(
        "trust.html",
        download=download,
        code=qr_code(download),
        fingerprint=fingerprint,
        name=name,
        scorer=(current_app.config.get("PUBLIC_URL") or "") + "/",
    )


@bp.get("/trust/ca.crt")
def certificate():
    return Response(
        ca_certificate(),
        mimetype="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="scorer-table-ca.crt"'},
    )
