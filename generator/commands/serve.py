"""`sixes serve`: the built site on http://localhost, rebuilt and reloaded on change.

Commands floor: the standard library's HTTP server, and click for what
`run` prints. The server runs in a thread while the command watches the
data and templates (watch.py) and rebuilds through the cache; every HTML
page served gets a small script that asks `/__sixes_build` once a second
and reloads the page when the build number changes. The files on disk are
never modified.
"""
from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.errors import UserError, visible
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


class LiveReloadHandler(SimpleHTTPRequestHandler):
    counter: BuildCounter

    def log_message(self, format: str, *args: Any) -> None:   # quiet: the build prints what matters
        pass

    def do_GET(self) -> None:
        if self.path.split("?")[0] == BUILD_ENDPOINT:
            self._send_fresh(str(self.counter.value).encode(), "text/plain")
            return
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix == ".html" and path.is_file():
            self._send_fresh(inject_reload(path.read_bytes()), "text/html; charset=utf-8")
            return
        super().do_GET()

    def _send_fresh(self, body: bytes, content_type: str) -> None:
        """A response the browser must not cache: it changes with every build."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class PortUnavailable(UserError):
    """The port cannot be listened on (taken, or not ours to take): a usage
    error, so exit status 2, as for any option click refuses."""

    exit_status = 2


def make_server(site_dir: Path, counter: BuildCounter, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    handler = type("Handler", (LiveReloadHandler,), {"counter": counter})
    try:
        return ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(site_dir)))
    except OSError as exc:
        raise PortUnavailable(f"cannot serve on port {port} ({exc.strerror or exc}); "
                              "pass --port with a free port") from None


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
