"""`sixes tracker`: the GM's fight tracker onto a phone, over the local network.

Commands floor: the standard library, click, the one server gate
(network.py: timeouts, limits, one line per problem), and segno for the QR
code (imported when one is printed). The page is the one self-contained
file the build writes to gm/sixes/fight-tracker.html (render/site/tracker.py),
made here from the loaded data. Guarantees, one function each:

- only a request for exactly `/<secret>` gets the page: the secret is made
  for this run with `secrets.token_urlsafe` and never stored; every other
  path, a wrong secret, a query string, gets the same empty 404 (compared
  in constant time, so the answer's timing tells nothing either): `tracker_app`;
- nothing else is ever served: no file system, no site, no listing;
- the URL printed names this machine as the phone sees it, found without
  sending anything (a UDP socket's connect picks a route but sends no
  packet), else from the network interfaces (a hotspot with no default
  route), else from the host name: `lan_addresses`;
- the page asks for nothing once loaded, so it keeps working after the
  server stops (the browser tests check it).
"""
from __future__ import annotations

import hmac
import secrets
import socket
from typing import TYPE_CHECKING, Any, Callable

import click

from ..core.errors import Drawing, half_blocks, visible
from ..render.pause import pause_at
from .network import App, Listener, StartResponse, answer

if TYPE_CHECKING:
    from ..game.folder import Game

# 16 bytes: 128 bits, 22 characters in the URL, which keeps the QR code small.
SECRET_BYTES = 16
# An address never contacted (TEST-NET-1): connecting a UDP socket to it only
# asks the kernel which of our addresses carries the default route.
ROUTE_PROBE = "192.0.2.1"
# Linux's ioctl for an interface's IPv4 address (SIOCGIFADDR).
_GET_ADDRESS = 0x8915
# The browser may keep the page for a week: opening it again from the home
# screen then works from its cache, with the laptop gone. It is GM material
# on the GM's own phone; `private` keeps shared caches out.
CACHE_CONTROL = "private, max-age=604800"


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


HEADERS = [("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
           ("X-Robots-Tag", "noindex, nofollow")]


def tracker_app(page: str, secret: str, served: Callable[[str], None] = lambda client: None) -> App:
    """The WSGI application: GET and HEAD of exactly `/<secret>` get the
    page, any other target an empty 404, any other method an empty 501.
    `served` hears the client's address each time the page is sent."""
    body = page.encode("utf-8")
    wanted = ("/" + secret).encode("ascii")

    def app(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        method = environ["REQUEST_METHOD"]
        if method not in ("GET", "HEAD"):
            return answer(start_response, 501, b"", [*HEADERS, ("Cache-Control", "no-store")])
        # The target as sent (the path unquoted, "//" kept, the query with it), as its bytes.
        target = environ.get("REQUEST_URI", "").encode("latin-1")
        if not hmac.compare_digest(target, wanted):
            return answer(start_response, 404, b"", [("Content-Type", "text/plain; charset=utf-8"),
                                                     ("Cache-Control", "no-store"), *HEADERS], method == "GET")
        if method == "GET":
            served(environ["REMOTE_ADDR"])
        return answer(start_response, 200, body, [("Content-Type", "text/html; charset=utf-8"),
                                                  ("Cache-Control", CACHE_CONTROL), *HEADERS], method == "GET")
    return app


def make_server(page: str, secret: str, host: str, port: int,
                served: Callable[[str], None] = lambda client: None) -> Listener:
    """A server of `page` at /<secret> only, listening on host:port (port 0: any free one)."""
    return Listener(tracker_app(page, secret, served), host, port)


def lan_addresses(host: str) -> list[str]:
    """The addresses a phone on the same network may reach this machine at,
    the likeliest first: `host` itself when one was given; else the one
    carrying the default route, then every other interface's (Linux), then
    the host name's; the host name itself when nothing else is found."""
    if host not in ("", "0.0.0.0", "::"):
        return [host]
    found = [_default_route_address(), *_interface_addresses(), *_host_name_addresses()]
    usable = [a for a in dict.fromkeys(found) if a and not a.startswith("127.")]
    return usable or [socket.gethostname()]


def _default_route_address() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((ROUTE_PROBE, 9))
            return s.getsockname()[0]
        except OSError:
            return None


def _interface_addresses() -> list[str]:
    """Every network interface's IPv4 address, where the system says (Linux);
    elsewhere none, and the host name answers instead."""
    try:
        import fcntl
        import struct
        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(s.fileno(), _GET_ADDRESS, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def _host_name_addresses() -> list[str]:
    try:
        return socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return []


def page_url(address: str, port: int, secret: str) -> str:
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}/{secret}"


def qr_text(url: str) -> Drawing:
    """The URL as a QR code for a terminal, drawn by the terminal gate's
    `half_blocks` (two modules a character, so a code fits 80 columns, in
    explicit colours: phone cameras do not all read a code printed light on
    dark); a 2-module quiet zone, M error correction."""
    import segno
    return half_blocks([bool(m) for m in row] for row in segno.make(url, error="m").matrix_iter(border=2))


def sixes_page(where: Game) -> str:
    """The tracker page of the game folder's Sixes game (`where`: a located
    game folder), made from its data: no build needed. Invalid data stops
    here with every problem, before anything listens."""
    from ..core.i18n import speaking
    from ..game.gather import gather
    from ..render.site.tracker import tracker_html
    from .failures import Failed
    gathered = gather(where.data_dir, where.settings, site=False)     # a casting file sets the cast order
    game = next((item.game for item in gathered.loaded if item.system.slug == "sixes"), None)
    if game is None:
        raise Failed(f"{where.shown} holds no Sixes game (a sixes/ folder), so there is no fight tracker to serve")
    with speaking(gathered.words):
        return tracker_html(game)


def run(where: Game, host: str, port: int, qr: bool) -> None:
    """Serve the page until Ctrl-C (or SIGTERM), saying where and to whom.
    Ctrl-C before it serves (the game still being read) is exit 130."""
    from .failures import Interrupted
    try:
        pause_at("tracker-reading")      # tests only (render/pause.py)
        page = sixes_page(where)
    except KeyboardInterrupt:
        raise Interrupted("Interrupted: nothing was served.") from None
    secret = new_secret()
    server = make_server(page, secret, host, port,
                         served=lambda client: click.echo(f"Sending the tracker to {visible(client)}.", err=True))
    try:
        address, *others = lan_addresses(host)
        url = page_url(address, server.server_address[1], secret)
        click.echo(f"The GM's fight tracker, for your phone only: {visible(url)}")
        if qr:
            click.echo(visible(qr_text(url)), color=True)     # a Drawing, printed as drawn (a pipe too: asked for)
        click.echo("Open it on a phone on this network (the QR code, or type the address). "
                   "Ctrl-C to stop: the page keeps working on the phone.", err=True)
        if others:
            click.echo(f"This machine's other addresses: {visible(', '.join(others))}. If the phone is on one of "
                       "those networks, run again with --host ADDRESS.", err=True)
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("Stopped serving the tracker; the secret address is gone with it.", err=True)
    finally:
        server.server_close()
