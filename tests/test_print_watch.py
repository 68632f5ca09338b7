"""`sixes build --watch`: a change under the watched folders triggers one
rebuild; no change, none."""
from __future__ import annotations

import os

from generator.commands.watch import snapshot, watch


def test_a_change_triggers_one_rebuild_and_quiet_polls_none(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.yaml").write_text("x: 1\n")
    builds: list[list[str]] = []
    polls = []

    def fake_sleep(seconds):
        polls.append(seconds)
        if len(polls) == 2:     # during the second interval an editor saves a file
            path = data / "a.yaml"
            path.write_text("x: 22\n")
            os.utime(path, ns=(1, 1))

    count = watch([data], builds.append, interval=1.0, sleep=fake_sleep, polls=4)
    assert count == len(builds) == 2
    assert builds == [[], [str(data / "a.yaml")]]
    assert polls == [1.0, 1.0, 0.5, 1.0, 1.0]


def test_an_edit_saved_during_the_first_build_is_built_too(tmp_path):
    """The first look at the files is taken before the first build, so a
    save that lands while it runs (or just after its last line) is seen."""
    (tmp_path / "a.yaml").write_text("x: 1\n")
    builds = []

    def rebuild(changed):
        builds.append(changed)
        if len(builds) == 1:
            (tmp_path / "a.yaml").write_text("x: 333\n")

    assert watch([tmp_path], rebuild, interval=1.0, sleep=lambda seconds: None, polls=1) == 2
    assert builds == [[], [str(tmp_path / "a.yaml")]]


def test_snapshot_sees_new_and_changed_files(tmp_path):
    before = snapshot([tmp_path])
    (tmp_path / "new.css").write_text("a {}")
    after = snapshot([tmp_path])
    assert before != after and str(tmp_path / "new.css") in after


def test_serve_injects_live_reload_and_reports_the_build_number(tmp_path):
    import threading
    import urllib.request
    from generator.commands.serve import BUILD_ENDPOINT, BuildCounter, make_server
    (tmp_path / "index.html").write_text("<html><body><p>rules</p></body></html>")
    (tmp_path / "style.css").write_text("p {}")
    counter = BuildCounter()
    server = make_server(tmp_path, counter, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page = urllib.request.urlopen(base + "/").read().decode()
        assert page.startswith("<html><body><p>rules</p><script>") and BUILD_ENDPOINT in page
        assert urllib.request.urlopen(base + "/style.css").read() == b"p {}"
        assert urllib.request.urlopen(base + BUILD_ENDPOINT).read() == b"0"
        counter.bump()
        assert urllib.request.urlopen(base + BUILD_ENDPOINT).read() == b"1"
        assert (tmp_path / "index.html").read_text() == "<html><body><p>rules</p></body></html>"
    finally:
        server.shutdown()
        server.server_close()
