"""`sixes tracker` (issue 32): the GM's fight tracker served to a phone on
the local network, only at an address holding a secret made for the run.

The server is started on 127.0.0.1, port 0 (any free port): it listens as
soon as it is made, so a request can follow at once, with no waiting. The
command itself runs as a process, read until it prints its address.
"""
from __future__ import annotations

import http.client
import re
import signal
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
import segno
from matches import matched
from processes import PATIENCE, Output

from generator.commands.tracker import (SECRET_BYTES, _default_route_address, _interface_addresses, lan_addresses,
                                       make_server, new_secret, page_url, qr_text)
from generator.core.errors import visible
from generator.core.paths import DEFAULT_DATA_DIR
from generator.render.site.tracker import tracker_html

from test_sixes_tracker import example_game

PAGE = "<!doctype html><title>t</title><p>the tracker</p>"


@contextmanager
def serving(page: str = PAGE, secret: str | None = None, served=lambda client: None):
    """A tracker server in a thread; yields (port, secret)."""
    secret = secret or new_secret()
    server = make_server(page, secret, "127.0.0.1", 0, served)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], secret
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def ask(port: int, path: str, method: str = "GET") -> tuple[int, bytes, http.client.HTTPMessage]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.read(), response.headers
    finally:
        connection.close()


def test_only_the_secret_address_gets_the_page():
    sent: list[object] = []
    with serving(served=sent.append) as (port, secret):
        status, body, headers = ask(port, "/" + secret)
        assert (status, body.decode()) == (200, PAGE)
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert headers["Referrer-Policy"] == "no-referrer" and "private" in headers["Cache-Control"]
        assert sent == ["127.0.0.1"]
        wrong = secret[:-1] + ("A" if secret[-1] != "A" else "B")
        for path in ("/", "", "/index.html", "/" + wrong, "/" + secret[:-1], "/" + secret + "x",
                     "/" + secret + "/", "/" + secret + "?a=1", "/" + secret.swapcase(), "//" + secret,
                     "/../" + secret, "/favicon.ico", "/gm/sixes/fight-tracker.html"):
            status, body, headers = ask(port, path or "/")
            assert (status, body) == (404, b""), path
            assert headers["Cache-Control"] == "no-store"
        assert sent == ["127.0.0.1"]          # refusals send nothing and are not counted as sent


def test_a_refusal_gives_no_hint():
    """The same empty 404 for no secret, a wrong one, and a near miss; no
    software or version named in any answer."""
    with serving() as (port, secret):
        answers = {ask(port, path)[:2] for path in ("/", "/" + new_secret(), "/" + secret[:10])}
        assert answers == {(404, b"")}
        for path in ("/", "/" + secret):
            server = ask(port, path)[2]["Server"]
            assert "Python" not in server and "BaseHTTP" not in server


def test_head_answers_like_get_without_the_page_and_other_methods_get_nothing():
    with serving() as (port, secret):
        status, body, headers = ask(port, "/" + secret, "HEAD")
        assert (status, body, headers["Content-Length"]) == (200, b"", str(len(PAGE.encode())))
        assert ask(port, "/x", "HEAD")[0] == 404
        for method in ("POST", "PUT", "DELETE"):
            status, body, _ = ask(port, "/" + secret, method)
            assert status == 501 and PAGE.encode() not in body


def test_every_run_makes_its_own_secret_long_enough_to_guess_never():
    secrets_made = {new_secret() for _ in range(50)}
    assert len(secrets_made) == 50
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", s) for s in secrets_made) and SECRET_BYTES >= 16


def test_the_served_page_is_the_games_tracker():
    page = tracker_html(example_game())
    with serving(page) as (port, secret):
        assert ask(port, "/" + secret)[1].decode("utf-8") == page


def test_the_address_printed_names_this_machine_as_the_network_sees_it():
    assert lan_addresses("127.0.0.1") == ["127.0.0.1"] and lan_addresses("10.42.0.1") == ["10.42.0.1"]
    found = lan_addresses("0.0.0.0")
    assert found and len(set(found)) == len(found)
    assert not any(a.startswith("127.") or a == "0.0.0.0" for a in found)
    if sys.platform == "linux":     # the interfaces are listed, the default route's address among them
        listed = _interface_addresses()
        assert "127.0.0.1" in listed
        route = _default_route_address()
        assert route is None or (route in listed and found[0] == route)
    assert page_url("10.42.0.1", 8765, "abc") == "http://10.42.0.1:8765/abc"
    assert page_url("fe80::1", 8765, "abc") == "http://[fe80::1]:8765/abc"


def test_the_qr_code_printed_holds_the_address():
    """Read back from the terminal text (each character: the upper module's
    colour as foreground, the lower one's as background), it is segno's
    code for the URL, with dark modules dark whatever the terminal."""
    url = "http://192.168.1.20:8765/" + new_secret()
    text = visible(qr_text(url))
    rows = []
    for line in text.splitlines():
        cells = re.findall(r"\x1b\[(30|97);(40|107)m\u2580", line)
        rows.append([fg == "30" for fg, _ in cells])
        rows.append([bg == "40" for _, bg in cells])
    expected = [[bool(m) for m in row] for row in segno.make(url, error="m").matrix_iter(border=2)]
    assert rows[:len(expected)] == expected
    assert all(not module for row in rows[len(expected):] for module in row)     # an odd height's padding
    assert max(len(row) for row in rows) <= 80


def run_command(spawn, *args: str, data: Path = DEFAULT_DATA_DIR) -> subprocess.Popen:
    """`sixes tracker` as a process of its own session (conftest `spawn`
    fails the test if any of it outlives the test)."""
    return spawn([Path(sys.executable).with_name("sixes"), "tracker", "--data", str(data), *args],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)


def test_the_command_serves_the_page_until_stopped_and_then_nothing(spawn):
    process = run_command(spawn, "--host", "127.0.0.1", "--port", "0", "--no-qr")
    try:
        assert process.stdout is not None
        line = process.stdout.readline()          # waits for the command to say where it listens
        url = re.search(r"http://127\.0\.0\.1:(\d+)/([A-Za-z0-9_-]{22})$", line.strip())
        assert url, line
        port, secret = int(url.group(1)), url.group(2)
        status, body, _ = ask(port, "/" + secret)
        assert status == 200 and body.decode("utf-8") == tracker_html(example_game())
        assert ask(port, "/")[:2] == (404, b"")
    finally:
        process.terminate()                      # SIGTERM: handled like Ctrl-C
        out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, err
    assert "Sending the tracker to 127.0.0.1." in err and "Stopped serving the tracker" in err
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def _modules(printed: str) -> list[list[bool]]:
    """The module matrix a terminal shows: each upper half block is two
    modules, the upper one dark where its foreground is black (30), the
    lower one dark where its background is (40)."""
    rows = []
    for line in printed.splitlines():
        cells = re.findall(r"\x1b\[(30|97);(40|107)m\u2580", line)
        if cells:
            rows.append([fg == "30" for fg, _ in cells])
            rows.append([bg == "40" for _, bg in cells])
    return rows


def _image(modules: list[list[bool]], scale: int = 8, margin: int = 4):
    """The matrix as a black-on-white picture with a wide quiet zone, as a camera would see the screen."""
    from PIL import Image, ImageDraw
    size = (len(modules[0]) + 2 * margin) * scale, (len(modules) + 2 * margin) * scale
    picture = Image.new("L", size, 255)
    draw = ImageDraw.Draw(picture)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                left, top = (x + margin) * scale, (y + margin) * scale
                draw.rectangle([left, top, left + scale - 1, top + scale - 1], fill=0)
    return picture


def test_the_qr_code_the_command_prints_scans_to_the_address(spawn):
    """What `sixes tracker --qr` prints, decoded by a QR reader we did not
    write, is the address it printed: the blocks reach the terminal as
    colours, not as escaped text (the terminal gate passes the tool's own
    drawing and nothing else)."""
    import zxingcpp
    process = run_command(spawn, "--host", "127.0.0.1", "--port", "0", "--qr")
    err = Output(process.stderr)
    err.wait_for("Open it on a phone")            # printed after the code, each line flushed
    process.send_signal(signal.SIGINT)
    out = Output(process.stdout).rest()
    err.rest()
    assert process.wait(PATIENCE) == 0, err.text
    url = matched(re.search(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{22}", out)).group(0)
    assert "\\x1b" not in out and "\u2580" in out
    found = zxingcpp.read_barcodes(_image(_modules(out)))
    assert [(code.format, code.text) for code in found] == [(zxingcpp.BarcodeFormat.QRCode, url)]


def test_a_drawing_is_made_from_booleans_only_and_is_escaped_used_as_text():
    from generator.core.errors import Drawing, half_blocks
    drawn = half_blocks([[True, False], [False, True]])
    assert visible(drawn) == "\x1b[30;107m\u2580\x1b[97;40m\u2580\x1b[0m"
    assert "\x1b" not in str(drawn) and "\x1b" not in visible(f"{drawn}")      # as text, escaped like any
    # Wrong types on purpose: what a caller slipping text or numbers in would pass.
    for made in (lambda: half_blocks([["\x1b[2J"]]), lambda: half_blocks([[1, 0]]),  # type: ignore[list-item]
                 lambda: Drawing("\x1b[2J", object())):
        with pytest.raises(TypeError):
            made()


def test_a_taken_port_is_a_usage_error_before_anything_is_served(spawn):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        process = run_command(spawn, "--host", "127.0.0.1", "--port", str(taken.getsockname()[1]), "--no-qr")
        out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 2 and out == ""
    assert "cannot serve on 127.0.0.1 port" in err and "--port" in err


def test_without_a_default_route_the_interfaces_answer_and_last_the_host_name(monkeypatch):
    """A laptop's own hotspot has no default route: its interface address is
    printed; with nothing found at all, the machine's name."""
    import generator.commands.tracker as served
    monkeypatch.setattr(served, "_default_route_address", lambda: None)
    monkeypatch.setattr(served, "_interface_addresses", lambda: ["127.0.0.1", "10.42.0.1"])
    monkeypatch.setattr(served, "_host_name_addresses", lambda: ["127.0.1.1"])
    assert lan_addresses("0.0.0.0") == ["10.42.0.1"]
    monkeypatch.setattr(served, "_interface_addresses", lambda: [])
    assert lan_addresses("0.0.0.0") == [socket.gethostname()]


def test_invalid_data_stops_the_command_at_its_line_before_anything_listens(tmp_path, spawn):
    import shutil
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", tmp_path / "sixes")
    sheet = tmp_path / "sixes" / "characters" / "kit-penhale.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("hit_points:", "hit_points: lots\nold_hit_points:"),
                     encoding="utf-8")
    process = run_command(spawn, "--host", "127.0.0.1", "--port", "0", data=tmp_path)
    out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 1 and "http://" not in out + err
    assert re.search(r"kit-penhale\.yaml:\d+:\d+: error: hit_points", err), err
