"""Static files under hashed names, cached for good and compressed (WhiteNoise);
pages compressed (Flask-Compress); the API's JSON left as it is (issue 11)."""

from __future__ import annotations

import gzip
import html
import re
import urllib.parse
from pathlib import Path

import brotli

from scorer import assets

from .helpers import NAMES, made

STATIC = Path(__file__).resolve().parent.parent / "static"
GZIP = {"Accept-Encoding": "gzip"}


def linked(page: str, name: str) -> str:
    stem, ext = name.rsplit(".", 1)
    found = re.search(rf'"(/static/{stem}\.[0-9a-f]{{12}}\.{ext})"', page)
    assert found, name
    return found.group(1)


def served(name: str) -> bytes:
    """What a file of static/ is served as: a script or style sheet minified."""
    return assets.minified(name, (STATIC / name).read_bytes())


def test_pages_link_static_files_by_hashed_names_cached_for_a_year(client):
    page = client.get("/").get_data(as_text=True)
    for name in ("scorer.css", "app.js", "apple-touch-icon.png"):
        url = linked(page, name)
        r = client.get(url)
        expected = (
            b";\n".join(map(served, assets.BUNDLES[name])) if name == "app.js" else served(name)
        )
        assert r.status_code == 200 and r.data == expected
        cache = r.headers["Cache-Control"]
        assert "immutable" in cache and re.search(r"max-age=(\d+)", cache).group(1) == "31536000"
        assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_the_scripts_every_page_runs_come_as_one_file_in_their_order(client):
    page = client.get("/").get_data(as_text=True)
    scripts = re.findall(r'<script src="/static/([^"]+)"', page)
    assert len(scripts) == 1 and scripts[0].startswith("app.")
    app_js = client.get(linked(page, "app.js")).get_data(as_text=True)
    places = [app_js.index(served(name).decode()) for name in assets.BUNDLES["app.js"]]
    assert places == sorted(places) and places[0] == 0
    assert "offline.js" in assets.BUNDLES["app.js"] and "scorer.js" in assets.BUNDLES["app.js"]


def test_a_deal_form_s_style_sheet_and_scripts_come_only_to_a_page_with_one(client):
    """forms.css and forms.js (entry.js, pad.js, queue.js) are linked by the deal
    page, the check and a sheet drawn with the next deal's form; a sheet that links
    to the deal page instead, or a watcher's, gets scorer.css and app.js alone, which
    names both for a form drawn later."""

    def files(url, who=client):
        page = who.get(url).get_data(as_text=True)
        for name in ("forms", "forms-css"):
            assert re.search(rf'data-{name}="/static/forms\.[0-9a-f]{{12}}\.(js|css)"', page)
        scripts = re.findall(r'<script src="/static/([a-z]+)\.', page)
        sheets = re.findall(r'<link rel="stylesheet" href="/static/([a-z]+)\.', page)
        return sheets, scripts

    three = made(client, {"game": "black_maria", "players": NAMES[:3]})["id"]  # the form fits
    five = made(client, {"game": "black_maria", "players": NAMES[:5]})["id"]  # it does not
    both = (["scorer", "forms"], ["app", "forms"])
    assert files(f"/m/{three}") == both
    assert files(f"/m/{three}/deal") == (["scorer", "forms"], ["htmx", "taps", "app", "forms"])
    assert files(f"/m/{five}") == (["scorer"], ["app"])
    assert files(f"/m/{five}/deal")[0] == ["scorer", "forms"]
    assert files(f"/m/{three}", client.application.test_client()) == (["scorer"], ["app"])
    assert files("/") == (["scorer"], ["app"])
    page = client.get(f"/m/{three}").get_data(as_text=True)
    assert client.get(linked(page, "forms.js")).data == b";\n".join(
        map(served, assets.BUNDLES["forms.js"])
    )
    assert client.get(linked(page, "forms.css")).data == served("forms.css")
    assert set(assets.BUNDLES["forms.js"]) == {"entry.js", "pad.js", "queue.js"}
    assert not set(assets.BUNDLES["forms.js"]) & set(assets.BUNDLES["app.js"])


def test_scripts_and_style_sheets_lose_their_comments_and_spaces():
    css = "/* the page */\nbody {\n  color: red;\n}\n"
    assert assets.minified("a.css", css.encode()) == b"body{color:red}"
    js = "// a note\nvar a = 1;  /* more */\nfunction f(x) {\n  return x / 2; // half\n}\n"
    assert assets.minified("a.js", js.encode()) == b"var a=1;function f(x){return x/2;}"
    assert assets.minified("htmx.min.js", js.encode()) == js.encode()  # already minified
    assert assets.minified("icon.svg", b"<svg>  </svg>") == b"<svg>  </svg>"
    for name in ("scorer.css", "queue.js"):
        assert len(served(name)) < 0.8 * (STATIC / name).stat().st_size


def test_a_plain_name_is_served_but_not_for_good(client):
    r = client.get("/static/scorer.css")
    assert r.status_code == 200 and r.data == served("scorer.css")
    assert "immutable" not in r.headers["Cache-Control"]


def test_static_files_and_pages_come_compressed_to_who_accepts_it(client):
    page = client.get("/").get_data(as_text=True)
    css = client.get(linked(page, "scorer.css"), headers=GZIP)
    assert css.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(css.data) == served("scorer.css")
    assert len(css.data) < len(served("scorer.css")) / 2
    mid = client.post(
        "/api/matches", json={"game": "hearts", "players": ["Ala", "Bartek", "Celina", "Darek"]}
    ).get_json()["id"]
    plain = client.get(f"/m/{mid}")
    packed = client.get(f"/m/{mid}", headers=GZIP)
    assert (
        packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    )
    assert b"Ala" in gzip.decompress(packed.data) and len(packed.data) < len(plain.data) / 2
    api = client.get(f"/api/matches/{mid}", headers=GZIP)  # the ETag a client sends back
    assert "Content-Encoding" not in api.headers and api.headers["ETag"] == f'"{mid}.1"'


def test_the_live_sheet_answers_304_to_its_compressed_page_s_etag(client):
    mid = client.post(
        "/api/matches", json={"game": "hearts", "players": ["Ala", "Bartek", "Celina", "Darek"]}
    ).get_json()["id"]
    first = client.get(f"/m/{mid}?part=live", headers=GZIP)
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    again = client.get(
        f"/m/{mid}?part=live", headers={**GZIP, "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304


def test_a_changed_file_gets_a_new_name_and_the_old_one_stays(tmp_path):
    static, target = tmp_path / "static", tmp_path / "build"
    static.mkdir()
    (static / "a.css").write_text("body { color: red; }\n" * 50)
    first = assets.build(static, target, bundles={})["a.css"]
    (static / "a.css").write_text("body { color: blue; }\n" * 50)
    second = assets.build(static, target, bundles={})["a.css"]
    assert first != second and re.fullmatch(r"a\.[0-9a-f]{12}\.css", second)
    assert "red" in (target / first).read_text() and "blue" in (target / second).read_text()
    assert gzip.decompress((target / (second + ".gz")).read_bytes()) == b"body{color:blue}" * 50


def test_a_phone_that_takes_every_coding_gets_a_page_in_brotli(client):
    """Chrome asks for "gzip, deflate, br, zstd": Brotli makes the smaller page."""
    mid = client.post(
        "/api/matches", json={"game": "hearts", "players": ["Ala", "Bartek", "Celina", "Darek"]}
    ).get_json()["id"]
    r = client.get(f"/m/{mid}", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert r.headers["Content-Encoding"] == "br" and b"Darek" in brotli.decompress(r.data)


def test_the_page_s_icon_is_drawn_in_the_page(client):
    """The icon a tab shows is the page's own (a data URI of static/icon.svg): a
    first visit saves a request; the manifest's icons stay files."""
    page = client.get("/").get_data(as_text=True)
    icon = re.search(
        r'<link rel="icon" href="data:image/svg\+xml,([^"]+)" type="image/svg\+xml">', page
    )
    drawn = urllib.parse.unquote(html.unescape(icon.group(1)))
    assert drawn == (STATIC / "icon.svg").read_text().strip().replace('"', "'")
