"""The GM's fight tracker: one self-contained HTML file per Sixes game.

Edge layer. The page (templates/sixes/tracker/) carries its CSS, its
scripts and the game's data inline, so it opens from the file system on a
phone with no network and makes no request at all; a Content Security
Policy in the page says so to the browser too (scripts and styles only by
their hashes, nothing to fetch, connect to or submit).

The data is JSON inside a non-executed <script type="application/json">,
escaped for that context: every <, > and & as a \\u escape (so no "</script>"
or "<!--" can appear), and U+2028 and U+2029 as well. The page reads it with
JSON.parse and prints every value with textContent, never as HTML.

It is GM material (every figure, every secret special): it is written under
the output's `gm/` entry, beside nothing public, and the site writer never
copies it (render/site/writer.py copies public PDFs only).
"""
from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable
from urllib.parse import quote

from markupsafe import Markup

from ...core.i18n import _, script_catalogue
from ...core.paths import TEMPLATES_DIR
from ..html import render_template

if TYPE_CHECKING:          # the Sixes system is imported only when a tracker is made
    from ...systems.sixes.dataset import SixesGame

# The output entry the tracker lives in, and where inside it.
GM_ENTRY = "gm"
TRACKER_FILE = "fight-tracker.html"
SOURCES = TEMPLATES_DIR / "sixes" / "tracker"
PAGE_TEMPLATE = "sixes/tracker/tracker.html"
TRACKER_DOMAIN = "tracker"       # its catalogue domain (scripts/extract-messages)

_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value: Any) -> str:
    """`value` as JSON that is safe between <script> tags: nothing in it can
    end the element, open a comment, or end a JavaScript line."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "".join(_SCRIPT_ESCAPES.get(ch, ch) for ch in text)


def _inline(name: str, closing: str) -> str:
    """A shipped CSS or JavaScript file, checked to stay inside its element."""
    text = (SOURCES / name).read_text(encoding="utf-8")
    if closing in text.lower() or "<!--" in text:
        raise ValueError(f"{SOURCES / name} contains {closing!r} or '<!--' and cannot be inlined")
    return text


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


# The page's icon: a die's six on the tracker's black and amber, as SVG.
ICON_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="18" '
            'fill="#000"/><rect x="14" y="14" width="68" height="68" rx="12" fill="#ffc247"/>'
            + "".join(f'<circle cx="{x}" cy="{y}" r="7" fill="#000"/>' for x in (34, 62) for y in (30, 48, 66))
            + "</svg>")


def data_url(media_type: str, text: str) -> str:
    return f"data:{media_type},{quote(text, safe='')}"


def manifest(title: str) -> str:
    """The web app manifest, as a data: URL: what a browser that installs
    pages needs (name, standalone display, colours, icon), with no file to
    fetch. No start_url: it defaults to the page's own address, secret and all."""
    return data_url("application/manifest+json", json.dumps({
        "name": _("{title}: fight tracker").format(title=title), "short_name": _("Fight tracker"),
        "display": "standalone",
        "background_color": "#000000", "theme_color": "#000000",
        "icons": [{"src": data_url("image/svg+xml", ICON_SVG), "sizes": "any", "type": "image/svg+xml"}],
    }, ensure_ascii=False))


def page_data(game: SixesGame) -> dict:
    """What the page's scripts read: the game's tracker data and, as
    `messages`, the tracker's words in the game's language (its screens and
    the round's log, whose ids narration.py shares)."""
    from ...systems.sixes.tracker import tracker_data
    return {**tracker_data(game), "messages": script_catalogue(TRACKER_DOMAIN)}


def tracker_html(game: SixesGame) -> str:
    """The page for one Sixes game (a SixesGame)."""
    css = _inline("tracker.css", "</style")
    scripts = [_inline("resolver.js", "</script"), _inline("app.js", "</script")]
    policy = ("default-src 'none'; style-src " + _hash(css) + "; script-src " + " ".join(map(_hash, scripts))
              + "; img-src data:; manifest-src data:; base-uri 'none'; form-action 'none'")
    return render_template(PAGE_TEMPLATE, {
        "title": game.info.title,
        "policy": policy,
        "manifest": manifest(game.info.title),
        "icon": data_url("image/svg+xml", ICON_SVG),
        "css": Markup(css),
        "scripts": [Markup(s) for s in scripts],
        "data": Markup(script_json(page_data(game))),
    })


def tracker_path(root: Path, slug: str = "sixes") -> Path:
    """Where a build puts a game's tracker: OUT/gm/<system>/fight-tracker.html."""
    return Path(root) / GM_ENTRY / slug / TRACKER_FILE


def write_trackers(root: Path, loaded: Iterable) -> list[Path]:
    """Write the tracker of every Sixes game among `loaded` (build.Loaded)
    under `root` (the staging folder); returns the files written."""
    written = []
    for item in loaded:
        if item.system.slug != "sixes":
            continue
        target = tracker_path(root, item.system.slug)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(tracker_html(item.game), encoding="utf-8")
        written.append(target)
    return written
