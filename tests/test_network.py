"""The servers on a network (issue 45): `sixes tracker` and `sixes serve`
answer through one gate (generator/commands/network.py), built for a
network: idle connections closed, a limit on connections under the
process's open-file limit, a share per client, one line per problem and
never a traceback.

The loaded runs start the real command with its open-file limit lowered,
then hold more connections than that limit from many loopback addresses
(127.0.0.2 onwards: the whole 127/8 is this machine), leave requests half
sent, half closed and reset, and then ask as the phone does (from
127.0.0.1): the page must come at once. Every step waits for an event (a
line printed, an answer, a connection closed), never for a time.
"""
from __future__ import annotations

import ast
import http.client
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from click.testing import CliRunner
from matches import matched
from processes import PATIENCE, Output, session_processes, wait_gone

from generator.commands import network
from generator.commands.cli import main
from generator.commands.network import Listener, PortUnavailable, host_problem
from generator.commands.tracker import make_server, new_secret
from generator.core.paths import DEFAULT_DATA_DIR, PROJECT_ROOT
from generator.systems.d6xd6 import SYSTEM as D6XD6

PACKAGE = PROJECT_ROOT / "generator"
SIXES = Path(sys.executable).with_name("sixes")
GATE = "commands/network.py"
# What only a server does: the modules that make one, and the calls that listen.
SERVER_MODULES = {"http.server", "socketserver", "waitress", "wsgiref", "asyncio", "xmlrpc.server", "aiohttp",
                  "uvicorn"}
SERVER_CALLS = {"bind", "listen", "accept", "create_server", "start_server"}


def _server_parts(path: Path) -> list[str]:
    """The imports of a server module and the calls that listen, in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        found += [f"import {name}" for name in names
                  if any(name == module or name.startswith(module + ".") for module in SERVER_MODULES)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SERVER_CALLS:
            found.append(f"{ast.unparse(node.func)}() at line {node.lineno}")
    return found


def test_nothing_but_the_gate_makes_a_server():
    """Found from the code: a module added tomorrow that listens on its own fails here."""
    found = {path.relative_to(PACKAGE).as_posix(): parts for path in sorted(PACKAGE.rglob("*.py"))
             if (parts := _server_parts(path))}
    assert set(found) == {GATE}, found
    tracker, serve = (PACKAGE / "commands" / "tracker.py").read_text(), (PACKAGE / "commands" / "serve.py").read_text()
    assert "Listener(" in tracker and "Listener(" in serve


def test_the_finder_sees_a_server_made_another_way(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import socketserver\nfrom http.server import HTTPServer\nimport http.client\ns.listen(5)\n")
    assert _server_parts(sample) == ["import socketserver", "import http.server", "s.listen() at line 4"]


# --- --host ------------------------------------------------------------------

@pytest.mark.parametrize("host", ["a\x00b", "\udcff", "a" * 300, "ü" * 70, "bad host", "a..b", "-a", "[::1]",
                                  "\x1b[31m", ""])
def test_a_host_that_is_no_host_name_is_one_usage_line(host):
    result = CliRunner().invoke(main, ["tracker", "--data", str(DEFAULT_DATA_DIR), "--host", host, "--no-qr"])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)              # no traceback: click's own exit
    error = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and "Invalid value for '--host'" in error[0] and "host name" in error[0], result.output
    assert "\x1b" not in result.output and "\x00" not in result.output
    with pytest.raises(PortUnavailable, match="cannot serve on"):          # the gate itself refuses it too
        make_server("page", new_secret(), host, 0)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "0.0.0.0", "localhost", "fe80::1%1", "a-1.example"])
def test_addresses_and_host_names_pass(host):
    assert host_problem(host) is None


# --- the gate's own limits, in this process ------------------------------------

def _reset(connection: socket.socket) -> None:
    """Close with a reset (RST), as a client that goes away mid-request does."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def _closed_by_server(connection: socket.socket) -> bool:
    """Waits (up to PATIENCE) for the server to close `connection`."""
    connection.settimeout(PATIENCE)
    try:
        while connection.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_an_idle_or_half_sent_connection_is_closed(capfd):
    server = Listener(lambda environ, start: network.answer(start, 200, b"ok", []), "127.0.0.1", 0,
                      idle_seconds=1)
    with ExitStack() as stack:
        stack.enter_context(_running(server))
        port = server.server_address[1]
        idle = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        half = stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        half.sendall(b"GET / HTTP/1.1\r\nHost: a\r\n")
        assert _closed_by_server(idle) and _closed_by_server(half)
        assert _ask("127.0.0.1", port, "/")[0] == 200
    assert "Traceback" not in capfd.readouterr().err


class _running:
    def __init__(self, server: Listener):
        self.server = server

    def __enter__(self):
        import threading
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self.server

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def _ask(source: str, port: int, path: str, method: str = "GET") -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE, source_address=(source, 0))
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


# --- loaded runs of the commands -------------------------------------------------

def _assault(stack: ExitStack, port: int, clients: int, each: int) -> None:
    """From `clients` addresses (127.0.0.2 on), `each` connections apiece:
    idle, half a request, half a request then half closed, half a request
    then reset, a request reset before its answer is read, a line of
    garbage, a head over the gate's limit; each kind in turn."""
    for n in range(clients * each):
        source = f"127.0.0.{2 + n % clients}"
        connection = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE, source_address=(source, 0))
        kind = n % 7
        if kind == 0:
            stack.enter_context(connection)                       # idle, kept open
            continue
        if kind == 6:
            connection.sendall(b"GET / HTTP/1.1\r\nX: " + b"a" * (network.HEAD_BYTES * 2) + b"\r\n\r\n")
            stack.enter_context(connection)
            continue
        connection.sendall({1: b"GET /abc HTTP/1.1\r\nHost: x\r\n", 2: b"GET /abc HTTP/1.1\r\nHo",
                            3: b"GET /abc HTTP/1.1\r\nHost: x\r\n", 4: b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                            5: b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n"}[kind])
        if kind == 2:
            connection.shutdown(socket.SHUT_WR)
            stack.enter_context(connection)
        elif kind in (3, 4):
            _reset(connection)
        else:
            stack.enter_context(connection)


def _lowered(limit: int, *command: object) -> list[str]:
    """`command` run with its open-file limit lowered to `limit`."""
    return ["sh", "-c", f'ulimit -n {limit:d} && exec "$0" "$@"', *map(str, command)]


def _problems(err: str, expected: set[str]) -> list[str]:
    """The lines of `err` that are neither expected nor the gate's one-line reports."""
    return [line for line in err.splitlines()
            if line and not line.startswith("server: ") and not any(e in line for e in expected)]


def test_a_loaded_tracker_prints_no_traceback_and_keeps_serving_the_phone(spawn):
    process = spawn(_lowered(64, SIXES, "tracker", "--data", DEFAULT_DATA_DIR, "--host", "127.0.0.1", "--port", "0",
                             "--no-qr"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                    cwd=PROJECT_ROOT)
    out = Output(process.stdout)
    out.wait_for("\n")
    found = re.search(r"http://127\.0\.0\.1:(\d+)/([A-Za-z0-9_-]{22})", out.text)
    assert found, out.text
    port, secret = int(found.group(1)), found.group(2)
    with ExitStack() as stack:
        _assault(stack, port, clients=20, each=15)                 # 300 connections, 64 files
        for _ in range(3):
            status, body = _ask("127.0.0.1", port, "/" + secret)
            assert status == 200 and b"fight tracker" in body
        assert _ask("127.0.0.1", port, "/")[0] == 404
    process.send_signal(signal.SIGINT)
    err = Output(process.stderr).rest()
    assert process.wait(PATIENCE) == 0, err
    assert "Traceback" not in err and "Error" not in err, err
    assert "cannot take a new connection" not in err, err            # accepting never ran out of files
    assert _problems(err, {"Open it on a phone", "Sending the tracker to 127.0.0.1.",
                           "Stopped serving the tracker"}) == [], err
    assert "connections are open, the most this server takes" in err   # the limit was reached, and said once
    assert err.count("the most this server takes") == 1


@pytest.fixture
def small_game(tmp_path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(D6XD6.starter, game / D6XD6.slug)
    (game / "sixes.yaml").write_text("paper: a4\n", encoding="utf-8")
    return game


def test_a_loaded_serve_prints_no_traceback_and_keeps_serving_pages(spawn, small_game, tmp_path):
    with socket.socket() as probe:                  # serve takes no port 0: a free one, as test_gather finds it
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    process = spawn(_lowered(256, SIXES, "serve", "--data", small_game, "--port", free), stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=PROJECT_ROOT,
                    env={**os.environ, "SIXES_CACHE_DIR": str(tmp_path / "cache")})
    out, err = Output(process.stdout), Output(process.stderr)
    err.wait_for("(Ctrl-C to stop)")
    port = int(matched(re.search(r"http://127\.0\.0\.1:(\d+)/", err.text)).group(1))
    out.wait_for("Schemas for editors")                               # the first build is done
    with ExitStack() as stack:
        _assault(stack, port, clients=30, each=12)                 # 360 connections, 256 files
        status, body = _ask("127.0.0.1", port, "/")
        assert status == 200 and b"/__sixes_build" in body
        assert _ask("127.0.0.1", port, "/__sixes_build") == (200, b"1")
        assert _ask("127.0.0.1", port, "/../../etc/passwd")[0] == 404
    os.killpg(process.pid, signal.SIGINT)           # as a terminal sends Ctrl-C: the rendering workers too
    rest = err.rest()
    process.wait(PATIENCE)
    assert wait_gone(session_processes(process.pid)) == []
    assert "Traceback" not in rest, rest
    assert "cannot take a new connection" not in rest, rest
    assert "connections are open, the most this server takes" in rest


# --- Ctrl-C before the tracker serves ---------------------------------------------

def test_ctrl_c_while_the_tracker_reads_the_game_is_exit_130(spawn):
    process = spawn([SIXES, "tracker", "--data", DEFAULT_DATA_DIR, "--host", "127.0.0.1", "--port", "0", "--no-qr"],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE, cwd=PROJECT_ROOT,
                    env={**os.environ, "SIXES_TEST_PAUSE_AT": "tracker-reading"})
    err = Output(process.stderr)
    err.wait_for("sixes-test: paused at tracker-reading")
    os.killpg(process.pid, signal.SIGINT)
    rest = err.rest()
    assert process.wait(PATIENCE) == 130, rest
    assert "Interrupted: nothing was served." in rest and "Aborted!" not in rest and "Traceback" not in rest, rest
    assert process.stdout.read() == b""
