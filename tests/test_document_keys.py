"""A document's HTML is taken from the last build only under its inputs'
key (render/cache/keys.document_key): a template, the data it shows, the
game's language (a setting), the print options and the code each reach it;
an unchanged document is not made again; and the bytes are a cold build's."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from fractions import Fraction

import pytest

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.core.i18n import speaking, words_for
from generator.core.paper import A4
from generator.game.load import load_all
from generator.render.cache.documents import DocumentCache
from generator.render.cache.fingerprint import Fingerprints, Unknown
from generator.render.options import DEFAULT_OPTIONS, PrintOptions
from generator.systems.base import Deferred
from starter_games import sixes_starter


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """The test's own cache folder, and none of the HTML an earlier build in
    this process kept in memory (render/cache/documents.py: a test that
    counts what is made must start from nothing, whatever ran before it)."""
    import generator.render.cache.documents as documents
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(documents, "_kept", {})


@pytest.fixture
def starter(tmp_path):
    return sixes_starter(tmp_path / "data")


def sheet_keys(data, tmp_path, options=DEFAULT_OPTIONS) -> dict[str, str | None]:
    """Each Sixes document's HTML key, as a new build would work it out."""
    loaded, _ = load_all(data)
    cache = DocumentCache(tmp_path / "out")
    return {doc.slug: cache.key(doc, options) for item in loaded for doc in item.system.documents(item.game)}


def test_every_input_of_a_document_reaches_its_key(starter, tmp_path, monkeypatch):
    before = sheet_keys(starter, tmp_path)
    assert before["first-rival"] and before["second-rival"] and before["first-rival"] != before["second-rival"]
    assert before["balance-report"] is None             # worked out when first read: made every build
    assert sheet_keys(starter, tmp_path) == before      # the same inputs, the same keys

    # A data edit: the character's own sheet, never the other's.
    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("hit_points: 5", "hit_points: 6"))
    edited = sheet_keys(starter, tmp_path)
    assert edited["first-rival"] != before["first-rival"] and edited["second-rival"] == before["second-rival"]

    # A setting: the game's language (and so every word of its catalogue).
    with speaking(words_for("fr")):
        french = sheet_keys(starter, tmp_path)
    assert french["second-rival"] != edited["second-rival"]
    # A print option.
    assert sheet_keys(starter, tmp_path, PrintOptions(ink_saver=True))["second-rival"] != edited["second-rival"]

    # A template: any file under templates/.
    import generator.render.cache.keys as keys      # where every key is spelled
    templates = tmp_path / "templates"
    shutil.copytree(keys.TEMPLATES_DIR, templates)
    monkeypatch.setattr(keys, "TEMPLATES_DIR", templates)
    assert sheet_keys(starter, tmp_path) == edited
    sheet = templates / "sixes" / "character_sheet.html"
    sheet.write_text(sheet.read_text() + "\n")
    templated = sheet_keys(starter, tmp_path)
    assert templated["second-rival"] != edited["second-rival"]

    # The code version: the package's own code, and the libraries that write HTML (Jinja, Babel...).
    monkeypatch.setattr(keys, "package_version", lambda: "another version")
    coded = sheet_keys(starter, tmp_path)
    assert coded["second-rival"] != templated["second-rival"]
    monkeypatch.setattr(keys, "version", lambda name: "another version")
    assert sheet_keys(starter, tmp_path)["second-rival"] != coded["second-rival"]


def test_a_key_is_the_same_in_another_process(starter, tmp_path):
    """Sets and strings hash differently in each interpreter; a key must not."""
    script = ("import sys; from pathlib import Path; sys.path.insert(0, 'tests');"
              "from test_document_keys import sheet_keys;"
              f"print(sheet_keys(Path({str(starter)!r}), Path({str(tmp_path)!r}))['first-rival'])")
    keys = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(keys) == 1 and keys != {""}


def test_what_has_no_fingerprint_is_unknown():
    prints = Fingerprints()
    assert prints.of({"a": [1, Fraction(1, 3)], "b": {2, 3}}) == prints.of({"a": [1, Fraction(1, 3)], "b": {3, 2}})
    assert prints.of({"a": 1, "b": 2}) != prints.of({"b": 2, "a": 1})     # templates iterate in order
    assert prints.of([1]) != prints.of([True]) and prints.of(["1"]) != prints.of([1])
    scale = 2
    with pytest.raises(Unknown):
        prints.of({"f": lambda x: x * scale})              # a closure: its values are not in its name
    with pytest.raises(Unknown):
        prints.of({"later": Deferred(lambda: pytest.fail("derived to be fingerprinted"))})
    with pytest.raises(Unknown):
        prints.of(object())


def test_an_unchanged_document_is_not_made_again_and_the_bytes_are_a_cold_builds(starter, tmp_path, monkeypatch):
    import generator.render.pdf.jobs as jobs
    made: list[str] = []
    real = jobs.prepare_html

    def counted(doc, options):
        made.append(doc.slug)
        return real(doc, options)
    monkeypatch.setattr(jobs, "prepare_html", counted)

    def go(out, cache=True):
        return build(BuildConfig(starter, out, (A4,), site=False, workers=1, cache=cache))

    out = tmp_path / "out"
    go(out)
    assert "first-rival" in made and "second-rival" in made
    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("hit_points: 5", "hit_points: 6"))
    made.clear()
    edited = go(out)
    # The edited sheet and the documents that list the cast; the balance report every build.
    assert sorted(made) == ["balance-report", "first-rival", "gm-cheat-sheet"]
    assert sorted(label.split("/")[-1] for label in edited.rendered) == [
        "balance-report.pdf", "first-rival.pdf", "gm-cheat-sheet.pdf"]
    cold = tmp_path / "cold"
    go(cold, cache=False)
    pdfs = sorted(p.relative_to(out) for p in (out / "pdf").rglob("*.pdf"))
    assert pdfs and pdfs == sorted(p.relative_to(cold) for p in (cold / "pdf").rglob("*.pdf"))
    assert [p for p in pdfs if (out / p).read_bytes() != (cold / p).read_bytes()] == []


def test_an_edits_documents_go_to_the_pool_before_the_unchanged_ones(starter, tmp_path, monkeypatch):
    """The documents whose HTML must be made again are handed to the render
    pool first, so the pool renders them while this process takes the rest
    from the caches (the one-character rebuild waits on the edit alone)."""
    import generator.render.pdf.batch as batch
    added: list[str] = []
    real = batch.RenderBatch.add

    def recorded(self, job):
        added.append(job.target.name)
        return real(self, job)
    monkeypatch.setattr(batch.RenderBatch, "add", recorded)

    def go():
        return build(BuildConfig(starter, tmp_path / "out", (A4,), site=False, workers=1, cache=True))
    go()
    character = starter / "sixes" / "characters" / "second-rival.yaml"
    character.write_text(character.read_text().replace("hit_points: 6", "hit_points: 5"))
    added.clear()
    go()
    made = ["second-rival.pdf", "gm-cheat-sheet.pdf"]        # balance-report.pdf: derived later, always last
    assert sorted(added[:2]) == sorted(made) and added[-1] == "balance-report.pdf", added
    assert len(added) > 4
