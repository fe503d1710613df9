"""The headers of every kind of page (Flask-Talisman), the session cookie, the
trusted hosts, and numbers in addresses."""

from __future__ import annotations

import re

import pytest

from scorer import create_app

DEAL = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}


@pytest.fixture
def mid(client):
    r = client.post(
        "/api/matches",
        json={"game": "black_maria", "players": ["Ala", "Bartek", "Celina"], "deals": [DEAL]},
    )
    return r.get_json()["id"]


def kinds_of_page(mid):
    """One address of each kind: pages, forms, rules, exports, the API, static
    files, an error page."""
    return [
        "/",
        "/new",
        "/new/hearts",
        f"/m/{mid}",
        f"/m/{mid}/deal",
        f"/m/{mid}/deal/1",
        f"/m/{mid}/check",
        "/rules/",
        "/rules/variety",
        "/who-won",
        f"/m/{mid}/export.csv",
        f"/m/{mid}/sheet.csv",
        f"/m/{mid}/record.json",
        f"/api/matches/{mid}",
        "/static/icon.svg",  # a static file a browser may open as a page
        "/sw.js",
        "/m/999999",
        "/api/matches/999999",
    ]


def test_every_kind_of_page_carries_the_safe_headers(client, mid):
    for url in kinds_of_page(mid):
        r = client.get(url)
        assert r.status_code in (200, 404), url
        csp = r.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, url
        assert "object-src 'none'" in csp, url
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, url
        assert r.headers.get("X-Frame-Options") == "DENY", url
        assert r.headers.get("X-Content-Type-Options") == "nosniff", url
        assert r.headers.get("Referrer-Policy") == "same-origin", url


def test_a_304_carries_what_a_cache_needs_and_not_the_page_s_safe_headers(client, mid):
    """The browser keeps the headers it stored with the page (its policy among
    them) when told it is current; a 304 needs only what a cache does."""
    seen = 0
    phone = {"Accept-Encoding": "br"}
    for url in [f"/m/{mid}", f"/m/{mid}?part=live", f"/api/matches/{mid}", "/sw.js"]:
        first = client.get(url, headers=phone)
        assert first.status_code == 200 and first.headers.get("ETag"), url
        assert "Content-Security-Policy" in first.headers, url
        again = client.get(url, headers={**phone, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, url
        assert again.headers["ETag"] == first.headers["ETag"], url
        assert again.headers.get("Cache-Control") == first.headers.get("Cache-Control"), url
        for name in ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"):
            assert name not in again.headers, (url, name)
        seen += 1
    assert seen == 4


def test_scripts_and_style_sheets_say_nosniff_and_no_more(client):
    """A script or style sheet is never a page: a page's CSP and frame rules mean
    nothing on it, and would cost every first visit their bytes."""
    page = client.get("/").get_data(as_text=True)
    for url in re.findall(r'"(/static/[^"]+\.(?:js|css))"', page) + ["/static/scorer.css"]:
        r = client.get(url)
        assert r.status_code == 200 and r.headers["X-Content-Type-Options"] == "nosniff", url
        for name in ("Content-Security-Policy", "X-Frame-Options", "Access-Control-Allow-Origin"):
            assert name not in r.headers, (url, name)


def test_no_page_holds_inline_script_or_style(client, mid):
    """The CSP allows none: a page that had some would break in the browser."""
    for url in kinds_of_page(mid)[:10]:
        page = client.get(url).get_data(as_text=True)
        assert "<script>" not in page and "<style" not in page, url
        assert " style=" not in page and " onclick=" not in page, url


def test_the_session_cookie_is_lax_and_secure_over_https(csrf_client):
    r = csrf_client.get("/new/hearts")  # the form's CSRF token starts a session
    cookie = r.headers.get("Set-Cookie", "")
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie
    fresh = csrf_client.application.test_client()  # a new browser, over HTTPS
    r = fresh.get("/new/hearts", base_url="https://localhost")
    assert "Secure" in r.headers.get("Set-Cookie", "")


def test_trusted_hosts_from_the_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORER_TRUSTED_HOSTS", "scorer.example, 192.168.1.20")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "h.db"), "SECRET_KEY": "x"})
    client = app.test_client()
    assert client.get("/", base_url="http://scorer.example").status_code == 200
    assert client.get("/", base_url="http://192.168.1.20").status_code == 200
    r = client.get("/", base_url="http://evil.example")
    assert r.status_code == 400 and "host name" in r.get_data(as_text=True)
    assert client.post("/api/matches", json={}, base_url="http://evil.example").status_code == 400


def test_without_the_setting_any_host_is_served(client):
    assert client.get("/", base_url="http://192.168.1.77:5000").status_code == 200


@pytest.mark.parametrize(
    "url", ["/m/１", "/m/{mid}/deal/１", "/m/{mid}/deal/¹", "/api/matches/١", "/m/{mid}/deal/٣"]
)
def test_numbers_in_addresses_are_ascii_digits_only(client, mid, url):
    assert client.get(url.format(mid=mid)).status_code == 404
