"""Installable (issue 13 part 4): the manifest names PNG icons of the sizes phones ask
for, a maskable one, and every page links an Apple touch icon; the files are real PNGs
of the sizes they claim."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (refuses anything else)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_png_icons_192_512_and_maskable(client):
    r = client.get("/static/manifest.json")
    assert r.status_code == 200
    manifest = json.loads(r.get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    pngs = [i for i in manifest["icons"] if i["type"] == "image/png"]
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in pngs}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in pngs:
        assert client.get(icon["src"]).status_code == 200
        w, h = png_size(STATIC / icon["src"].removeprefix("/static/"))
        assert f"{w}x{h}" == icon["sizes"]


def test_every_page_links_the_manifest_and_an_apple_touch_icon(client):
    page = client.get("/").get_data(as_text=True)
    manifest = re.search(r'<link rel="manifest" href="(/manifest\.en\.webmanifest)">', page)
    assert manifest and json.loads(client.get(manifest.group(1)).data)["icons"]
    href = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page).group(1)
    r = client.get(href)
    assert r.status_code == 200 and r.data == (STATIC / "apple-touch-icon.png").read_bytes()
    assert png_size(STATIC / "apple-touch-icon.png") == (180, 180)


DESCRIPTIONS = {
    "en": "A score pad for trick-taking card games played with real cards",
    "pl": "Notes do zapisywania punktów w\u00a0grach lewowych – przy stole, prawdziwymi kartami",
    "ru": "Блокнот для счёта в карточных играх на взятки — за столом, с настоящими картами",
    "cs": "Zápis bodů ke zdvihovým hrám, které hrajete s\u00a0opravdovými kartami u\u00a0stolu",
    "eo": "Poentokajero por kartludoj kun trukoj, ludataj per veraj kartoj",
}


def test_the_manifest_says_its_description_in_the_page_s_language(client):
    static = json.loads((STATIC / "manifest.json").read_text("utf-8"))
    for lang, description in DESCRIPTIONS.items():
        page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
        href = re.search(r'<link rel="manifest" href="([^"]+)">', page).group(1)
        assert href == f"/manifest.{lang}.webmanifest"
        r = client.get(href)
        assert r.status_code == 200 and r.mimetype == "application/manifest+json"
        said = json.loads(r.get_data(as_text=True))
        assert said["description"] == description and said["lang"] == lang
        assert said["icons"] == static["icons"] and said["start_url"] == "/"
    assert client.get("/manifest.xx.webmanifest").status_code == 404


def test_the_keep_awake_switch_is_on_the_sheet_hidden_until_the_script_shows_it(client):
    r = client.post("/api/matches", json={"game": "hearts", "players": ["A", "B", "C", "D"]})
    page = client.get(f"/m/{r.get_json()['id']}").get_data(as_text=True)
    # without JavaScript (or the Screen Wake Lock API) the switch could do nothing: hidden
    assert '<div class="awake" data-awake hidden>' in page
    assert 'role="switch" id="awake"> Keep the screen on</label>' in page
