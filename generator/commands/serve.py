"""`sixes serve`: the built site on http://localhost, rebuilt and reloaded on change.

Commands floor: the one server gate (network.py: timeouts, limits, one
line per problem), and click for what `run` prints. The server runs in a thread while the command watches the
data and templates (watch.py) and rebuilds through the cache; every HTML
page served gets a small script that asks `/__sixes_build` once a second
and reloads the page when the build number changes. The files on disk are
never modified.
"""
from __future__ import annotations

import mimetypes
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import click

from ..core.errors import visible
from .network import App, Listener, StartResponse, answer
from .network import PortUnavailable as PortUnavailable      # where its callers and tests have found it
from .locate import config_for
from .reports import build_once
from .watch import watch_game

if TYPE_CHECKING:
    from ..game.folder import Game

BUILD_ENDPOINT = "/__sixes_build"
RELOAD_SCRIPT = (
    "<script>(function(){var seen=null;setInterval(function(){fetch('" + BUILD_ENDPOINT + "')"
    ".then(function(r){return r.text()}).then(function(n){if(seen!==null&&n!==seen){location.reload()}seen=n})"
    ".catch(function(){})},1000)})();</script>"
)


class BuildCounter:
    """How many builds have finished; the pages reload when it moves."""

    def __init__(self) -> None:
        self.value = 0
        self.lock = threading.Lock()

    def bump(self) -> None:
        with self.lock:
            self.value += 1


def inject_reload(html: bytes) -> bytes:
    marker = b"</body>"
    script = RELOAD_SCRIPT.encode()
    return html.replace(marker, script + marker, 1) if marker in html else html + script


def site_app(site_dir: Path, counter: BuildCounter) -> App:
    """The WSGI application: GET and HEAD of the site's files (a folder's
    index.html for the folder; a folder named without its slash is sent
    there), each HTML page with the reload script; `BUILD_ENDPOINT` answers
    the build number; anything else an empty 404, another method 501."""
    def app(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        method = environ["REQUEST_METHOD"]
        if method not in ("GET", "HEAD"):
            return answer(start_response, 501, b"", [])
        with_body = method == "GET"
        path = environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8", "replace")
        if path == BUILD_ENDPOINT:
            return answer(start_response, 200, str(counter.value).encode(), FRESH + [TEXT], with_body)
        found = site_file(site_dir, path)
        if found is None:
            return answer(start_response, 404, b"", [TEXT], with_body)
        if found.is_dir():
            where = quote(path + "/") + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else "")
            return answer(start_response, 301, b"", [("Location", where)], with_body)
        body = found.read_bytes()
        if found.suffix == ".html":
            return answer(start_response, 200, inject_reload(body), FRESH + [HTML], with_body)
        kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        return answer(start_response, 200, body, [("Content-Type", kind)], with_body)
    return app


FRESH = [("Cache-Control", "no-store")]       # changes with every build: the browser must not keep it
TEXT = ("Content-Type", "text/plain; charset=utf-8")
HTML = ("Content-Type", "text/html; charset=utf-8")


def site_file(site_dir: Path, path: str) -> Path | None:
    """The file `path` names inside the site (a folder's index.html; the
    folder itself when `path` lacks its final slash), or None: a `..`, a
    link leading out of the site or anything but a regular file is none."""
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts or any("\0" in part for part in parts):
        return None
    root = site_dir.resolve()
    try:
        found = root.joinpath(*parts).resolve()
    except (OSError, RuntimeError):      # a loop of links
        return None
    if not found.is_relative_to(root):
        return None
    if found.is_dir():
        if not path.endswith("/"):
            return found
        found = found / "index.html"
    return found if found.is_file() else None


def make_server(site_dir: Path, counter: BuildCounter, port: int, host: str = "127.0.0.1") -> Listener:
    return Listener(site_app(site_dir, counter), host, port, host_option=False)


def run(game: Game, port: int, strict: bool) -> None:
    """Serve the game's built site and rebuild it (through the cache) on
    every change until Ctrl-C; open pages reload after each build that passed."""
    assert game.out_dir is not None     # located with needs_out=True
    counter = BuildCounter()
    server = make_server(game.out_dir / "site", counter, port)     # the port first: a taken port costs no build

    def after(passed: bool) -> None:
        if passed:
            counter.bump()
    try:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        click.echo(f"Serving {visible(game.out_dir / 'site')} at http://127.0.0.1:{server.server_address[1]:d}/ "
                   "(Ctrl-C to stop)", err=True)
        config = config_for(game, strict=strict, cache=True)
        watch_game(game, lambda: build_once(config), after)
    finally:
        server.shutdown()
        server.server_close()
