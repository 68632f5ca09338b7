"""The one way the tool listens on a network: waitress, with limits.

Commands floor: waitress, the standard library, and click for the one line
a problem prints. `sixes tracker` (the GM's phone, over a local network)
and `sixes serve` (the built site, on this machine) both answer through
`Listener`; nothing else in the tool opens a server socket (tests/test_network.py
reads the code for one). Waitress rather than http.server: one thread
watches every connection (poll, not a thread each), so idle ones cost a
descriptor and nothing more, and it has the limits a network needs. What
the tool adds, one place each:

- the host is checked before it is resolved: an IP address, or a host name
  of letters, digits, hyphens and dots (`host_problem`); one that does not
  resolve, or an address or port not ours to take, is `PortUnavailable`;
- a connection idle for IDLE_SECONDS (none sent, or half a request) is
  closed (waitress's `channel_timeout`, checked every CLEANUP_SECONDS);
- at most `connection_limit()` connections at once, a third of what the
  process's open-file limit leaves (a response may spool to a file, and a
  build needs its own), so accepting never runs out of descriptors; one
  client address holds at most half of them (PER_CLIENT at most). At a
  limit, a new connection takes the place of the one idle the longest
  (the client's own at its limit): idle connections, however many, cannot
  lock the phone out; a burst waits in the kernel's queue (BACKLOG);
- if accepting fails all the same (out of descriptors), accepting pauses
  for PAUSE_SECONDS rather than spinning on the CPU;
- a request's head is at most HEAD_BYTES and no request may carry a body;
- every problem is one escaped line on stderr, each at most once a minute,
  never a traceback (`OneLine`).
"""
from __future__ import annotations

import errno
import ipaddress
import logging
import re
import socket
import threading
import time
from http import HTTPStatus
from typing import Any, Callable, Iterable

import click
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from ..core.errors import UserError, visible

StartResponse = Callable[[str, list[tuple[str, str]]], Any]
App = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

IDLE_SECONDS = 10          # a browser keeps a connection for its next request; a phone asks once
CLEANUP_SECONDS = 2
BACKLOG = 1024              # the kernel caps it (somaxconn); a burst of connections waits rather than fails
MOST_CONNECTIONS = 100
PER_CLIENT = 20             # a browser opens at most 6 to one server
RESERVED_FILES = 32         # descriptors kept for the rest of the process (standard streams, a build's files)
PAUSE_SECONDS = 1.0
HEAD_BYTES = 16 * 1024
THREADS = 4
REPEAT_SECONDS = 60.0
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")
_OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class PortUnavailable(UserError):
    """The address or port cannot be listened on (taken, not ours, or no
    such host): a usage error, so exit status 2, as for any option click refuses."""

    exit_status = 2


def host_problem(host: str) -> str | None:
    """Why `host` cannot be listened on, or None: an IP address (IPv6
    without brackets) or an ASCII host name of at most 253 characters."""
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    if len(host) <= 253 and host.isascii() and _HOST_NAME.fullmatch(host):
        return None
    return ("not an address of this machine nor a host name: give an IP address such as 192.168.1.20 or ::, "
            "or a name of letters, digits, hyphens and dots (at most 253 characters)")


def connection_limit() -> int:
    """The most connections open at once: a third of what the open-file
    limit leaves once RESERVED_FILES are kept, between 4 and MOST_CONNECTIONS."""
    try:
        import resource
    except ImportError:             # Windows: no such limit on sockets
        return MOST_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_CONNECTIONS
    return max(4, min(MOST_CONNECTIONS, (soft - RESERVED_FILES) // 3))


def bound_socket(host: str, port: int, host_option: bool = True) -> socket.socket:
    """A socket bound to host:port (port 0: any free one), not yet listening.
    `host_option`: whether the user chose the host (and may choose another)."""
    problem = host_problem(host)
    if problem:
        raise PortUnavailable(f"cannot serve on {host}: {problem}")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as exc:
        raise PortUnavailable(f"cannot serve on {host}: no such address on this network "
                              f"({getattr(exc, 'strerror', None) or exc}); pass --host with an address "
                              "of this machine") from None
    made = socket.socket(family, kind, proto)
    try:
        made.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        made.bind(address)
    except OSError as exc:
        made.close()
        if not host_option:
            raise PortUnavailable(f"cannot serve on port {port:d} ({exc.strerror or exc}); "
                                  "pass --port with a free port") from None
        raise PortUnavailable(f"cannot serve on {host} port {port:d} ({exc.strerror or exc}); "
                              "pass --port with a free port, or --host with an address of this machine") from None
    return made


class Listener:
    """`app` served on host:port until `shutdown` (from another thread) or
    Ctrl-C (in the thread running `serve_forever`). Listens once made."""

    def __init__(self, app: App, host: str, port: int, idle_seconds: int = IDLE_SECONDS, host_option: bool = True):
        made = bound_socket(host, port, host_option)
        limit = connection_limit()
        adjust = Adjustments(sockets=[made], ident="sixes", threads=THREADS, backlog=BACKLOG,
                             connection_limit=limit + 8, channel_timeout=idle_seconds, log_socket_errors=False,
                             cleanup_interval=min(CLEANUP_SECONDS, idle_seconds), asyncore_use_poll=True,
                             max_request_header_size=HEAD_BYTES, max_request_body_size=0)
        report_problems()
        tasks = ThreadedTaskDispatcher()
        self._map: dict[int, Any] = {}
        try:
            self._server = _Guarded(app, self._map, _sock=made, dispatcher=tasks, adj=adjust, bind_socket=False,
                                    sockinfo=(made.family, made.type, made.proto, made.getsockname()))
        except OSError as exc:           # listen() refused
            made.close()
            raise PortUnavailable(f"cannot serve on {host} port {port:d} ({exc.strerror or exc})") from None
        tasks.set_thread_count(THREADS)
        self._server.limit = limit
        self._server.per_client = max(1, min(PER_CLIENT, limit // 2))
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()
        self.server_address: tuple[str, int] = made.getsockname()[:2]

    def serve_forever(self) -> None:
        self._stopped.clear()
        try:
            while not self._stop.is_set():
                wasyncore.loop(timeout=1, map=self._map, use_poll=True, count=1)
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop `serve_forever` (running in another thread) and wait for it."""
        self._stop.set()
        self._server.pull_trigger()
        self._stopped.wait()

    def server_close(self) -> None:
        """Close every connection and the listening socket; the worker threads end."""
        self._server.task_dispatcher.shutdown(timeout=1)
        wasyncore.close_all(self._map)


class _Guarded(TcpWSGIServer):
    """Waitress's server, with room made for each new connection and no
    spinning when out of descriptors."""

    limit = MOST_CONNECTIONS
    per_client = PER_CLIENT
    paused_until = 0.0

    def readable(self) -> bool:
        accepting = bool(super().readable())        # also closes the idle connections
        return accepting and time.monotonic() >= self.paused_until

    def handle_accept(self) -> None:
        try:
            conn, address = self.socket.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return
        except OSError as exc:
            if exc.errno in _OUT_OF_FILES:
                self.paused_until = time.monotonic() + PAUSE_SECONDS
            report(f"cannot take a new connection ({exc.strerror or exc}); trying again shortly")
            return
        try:
            self.set_socket_options(conn)
        except OSError:                  # the client has gone already
            conn.close()
            return
        if not self._room_for(address[0]):
            conn.close()
            return
        self.channel_class(self, conn, address, self.adj, map=self._map)

    def _room_for(self, client: str) -> bool:
        """Whether one more connection from `client` may be taken, once
        the longest idle one is closed if a limit is reached (the client's
        own when it holds its most, else anyone's): no idle one, no room."""
        channels = list(self.active_channels.values())
        own = [channel for channel in channels if channel.addr[0] == client]
        if len(own) >= self.per_client:
            report(f"{client} holds {len(own):d} connections, the most one client may; closing its idle ones")
            return _close_longest_idle(own)
        if len(channels) >= self.limit:
            report(f"{len(channels):d} connections are open, the most this server takes (the open-file limit "
                   "allows no more); closing the idle ones")
            return _close_longest_idle(channels)
        return True


def _close_longest_idle(channels: list[Any]) -> bool:
    """Close the connection idle the longest (no request under way, nothing
    left to send); False when every one is busy."""
    idle = [channel for channel in channels if not channel.requests and not channel.total_outbufs_len]
    if not idle:
        return False
    min(idle, key=lambda channel: channel.last_activity).handle_close()
    return True


def answer(start_response: StartResponse, status: int, body: bytes, headers: Iterable[tuple[str, str]],
           with_body: bool = True) -> list[bytes]:
    """A whole response: the status with its reason, the headers, the length, the body (none for HEAD)."""
    start_response(f"{status:d} {HTTPStatus(status).phrase}", [*headers, ("Content-Length", str(len(body)))])
    return [body] if with_body else []


# --- one line per problem ----------------------------------------------------

_last_said: dict[str, float] = {}
_said_lock = threading.Lock()


def report(message: str) -> None:
    """`message` on stderr as one escaped line, unless it was said in the last minute."""
    now = time.monotonic()
    with _said_lock:
        if now - _last_said.get(message, -REPEAT_SECONDS) < REPEAT_SECONDS:
            return
        _last_said[message] = now
    click.echo(f"server: {visible(message)}", err=True)


class OneLine(logging.Handler):
    """Waitress's warnings and errors, each as one line: the message and,
    for an exception, its kind and text; never the traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                failure = record.exc_info[1]
                message += f": {type(failure).__name__}: {failure}"
            report(message)
        # A record whose arguments do not fit its format (TypeError, ValueError),
        # or a terminal gone (OSError: a closed or broken stderr): the report is
        # dropped rather than logging's own traceback printed in its place.
        except (TypeError, ValueError, OSError):
            pass


def report_problems() -> None:
    """Send waitress's log to `OneLine` (once per process); its queue's
    depth under load is not a problem to report."""
    log = logging.getLogger("waitress")
    if not any(isinstance(h, OneLine) for h in log.handlers):
        log.addHandler(OneLine(logging.WARNING))
        log.setLevel(logging.WARNING)
        log.propagate = False
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
