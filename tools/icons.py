"""Draw the PNG icons of static/ from its SVGs with Debian's Chromium (make icons).

The manifest names PNGs at 192 and 512 px (what Android asks for to install),
a maskable one (full bleed, the spade inside the central safe circle) and the
Apple touch icon (180 px, no transparency). They are committed; run this after
changing icon.svg or icon-maskable.svg."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
ICONS = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon-maskable.svg", 180, "apple-touch-icon.png"),
]


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for svg, size, png in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            body = base64.b64encode((STATIC / svg).read_bytes()).decode()
            page.set_content(
                f"<body style='margin:0'><img src='data:image/svg+xml;base64,{body}' "
                f"width='{size}' height='{size}' style='display:block'></body>"
            )
            page.screenshot(path=str(STATIC / png), omit_background=svg == "icon.svg")
            page.close()
            print(png, size)
        browser.close()


if __name__ == "__main__":
    main()
