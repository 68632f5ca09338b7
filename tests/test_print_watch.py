"""`sixes build --watch`: a change under the watched folders triggers one
rebuild; no change, none."""
from __future__ import annotations

import os

from generator.watch import snapshot, watch


def test_a_change_triggers_one_rebuild_and_quiet_polls_none(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.yaml").write_text("x: 1\n")
    builds = []
    polls = []

    def fake_sleep(seconds):
        polls.append(seconds)
        if len(polls) == 2:     # during the second interval an editor saves a file
            path = data / "a.yaml"
            path.write_text("x: 22\n")
            os.utime(path, ns=(1, 1))

    count = watch([data], lambda: builds.append(1), interval=1.0, sleep=fake_sleep, polls=4)
    assert count == len(builds) == 2
    assert polls == [1.0, 1.0, 0.5, 1.0, 1.0]


def test_snapshot_sees_new_and_changed_files(tmp_path):
    before = snapshot([tmp_path])
    (tmp_path / "new.css").write_text("a {}")
    after = snapshot([tmp_path])
    assert before != after and str(tmp_path / "new.css") in after
