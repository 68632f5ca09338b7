"""Incremental builds: a second build with nothing changed renders nothing
and leaves the site alone; editing one character renders only that
character's sheet and the GM documents that list it; a change of print
option or of a stylesheet renders again; a failed build writes no cache."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from generator.core.errors import BuildError

from generator.commands.build import build
from generator.commands.context import BuildConfig
from generator.commands.output import OutputError
from generator.core.paper import A4, LETTER
from generator.render.options import PrintOptions
from starter_games import sixes_starter


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SIXES_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def starter(tmp_path):
    return sixes_starter(tmp_path / "data")


def cached_pdfs(data, out, paper=A4, **asked):
    """A build of the PDFs alone, one worker, through the cache."""
    return build(BuildConfig(data, out, (paper,), site=False, workers=1, cache=True, **asked))


def labels(report):
    return sorted(label.split(" ", 1)[1] for label in report.rendered)


def test_nothing_changed_renders_nothing_and_one_character_renders_its_documents(starter, tmp_path):
    out = tmp_path / "out"
    cold = build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    assert labels(cold) == ["sixes/gm/balance-report.pdf", "sixes/gm/gm-cheat-sheet.pdf",
                            "sixes/players/first-rival.pdf", "sixes/players/second-rival.pdf",
                            "sixes/public/hand-signal-cards.pdf", "sixes/public/rules-reference.pdf"]
    assert cold.site_built and cold.reused == 0
    sheet = out / "pdf" / "a4" / "sixes" / "players" / "second-rival.pdf"
    before = sheet.read_bytes()

    again = build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    assert again.rendered == [] and again.reused == 6 and not again.site_built
    assert sheet.read_bytes() == before
    assert (out / "site" / "index.html").is_file()
    assert sorted(p.name for p in out.iterdir()) == [".sixes-press.json", "gm", "pdf", "schemas", "site"]

    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("hit_points: 5", "hit_points: 6"))
    assert "hit_points: 6" in character.read_text()
    edited = build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    # The sheet itself, and the GM documents that list the cast (cheat sheet, balance report).
    assert labels(edited) == ["sixes/gm/balance-report.pdf", "sixes/gm/gm-cheat-sheet.pdf",
                              "sixes/players/first-rival.pdf"]
    assert not edited.site_built      # characters are not on the public site
    assert sheet.read_bytes() == before


def test_a_print_option_or_a_stylesheet_change_renders_again(starter, tmp_path, monkeypatch):
    out = tmp_path / "out"
    cached_pdfs(starter, out)
    saver = cached_pdfs(starter, out, options=PrintOptions(ink_saver=True))
    assert len(saver.rendered) == 6
    # Back to normal ink: both variants are cached.
    assert cached_pdfs(starter, out).rendered == []
    # A template folder with one CSS file changed invalidates every document.
    import generator.render.cache.keys as keys      # where every cache key is spelled
    templates = tmp_path / "templates"
    shutil.copytree(keys.TEMPLATES_DIR, templates)
    monkeypatch.setattr(keys, "TEMPLATES_DIR", templates)
    assert cached_pdfs(starter, out).rendered == []
    (templates / "base.css").write_text((templates / "base.css").read_text() + "\n/* changed */\n")
    assert len(cached_pdfs(starter, out).rendered) == 6


PIXEL = "<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'><rect width='8' height='8' fill='{}'/></svg>"


def test_a_game_file_renders_only_the_documents_that_show_it(starter, tmp_path):
    """A PDF's key covers the game files its HTML names (a portrait), not the
    whole folder: a new or edited file no document shows (a site page, a
    handout, a spare image) renders nothing again, and a portrait's new
    contents render the sheet that shows it and nothing else."""
    portrait = starter / "sixes" / "portraits" / "first.svg"
    portrait.parent.mkdir()
    portrait.write_text(PIXEL.format("#204060"))
    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text() + "portrait: sixes/portraits/first.svg\n")
    out = tmp_path / "out"
    assert len(cached_pdfs(starter, out).rendered) == 6

    (starter / "sixes" / "portraits" / "spare.svg").write_text(PIXEL.format("#000000"))
    (starter / "sixes" / "handouts").mkdir()
    (starter / "sixes" / "handouts" / "map.pdf").write_bytes(b"%PDF-1.7\n%%EOF\n")     # in no character's envelope
    (starter / "pages").mkdir()
    (starter / "pages" / "welcome.md").write_text("# Welcome\n\nBring a coat.\n")
    assert cached_pdfs(starter, out).rendered == []

    portrait.write_text(PIXEL.format("#a03020"))
    assert labels(cached_pdfs(starter, out)) == ["sixes/players/first-rival.pdf"]
    assert cached_pdfs(starter, out).rendered == []


def test_a_key_reads_only_the_game_files_the_html_gives_weasyprint(tmp_path):
    """A file: URL in an attribute or a CSS url() inside the game folder is
    read for the key; one outside it (the render refuses it), one climbing
    out with '..', a template's own file and a URL in the data's text are not."""
    from generator.core.paths import TEMPLATES_DIR
    from generator.render.cache.keys import named_files
    from generator.render.pdf.weasy import PdfJob
    game = tmp_path / "game"
    portrait, backdrop = game / "sixes" / "portraits" / "a b.png", game / "art" / "sea.png"
    html = (f'<img src="{portrait.as_uri()}"><div style="background: url(\'{backdrop.as_uri()}\')"></div>'
            f'<img src="{(TEMPLATES_DIR / "icons" / "attack.svg").as_uri()}"><img src="file:///etc/hostname">'
            f'<img src="{game.as_uri()}/../outside.png"><p>see file://{game}/secret.txt or '
            f'src=&#34;file://{game}/quoted.txt&#34;</p><img src="{portrait.as_uri()}">')
    job = PdfJob(html, TEMPLATES_DIR.as_uri() + "/", tmp_path / "x.pdf", A4, (TEMPLATES_DIR, game), "x")
    assert named_files(job) == [portrait, backdrop]


def test_a_build_with_nothing_changed_loads_nothing(starter, tmp_path, monkeypatch):
    """The last build's record (inputs key and output files) answers a build
    with nothing changed before the data is read; any change to the inputs,
    the options or the output folder means a real build."""
    import generator.commands.build as build_module
    out = tmp_path / "out"
    first = cached_pdfs(starter, out)
    assert not first.untouched
    real_gather = build_module.gather
    loads = []
    monkeypatch.setattr(build_module, "gather", lambda *a, **k: loads.append(1) or real_gather(*a, **k))

    again = cached_pdfs(starter, out)
    assert again.untouched and loads == [] and again.rendered == []
    assert again.pdfs == first.pdfs and again.reused == 6

    sheet = out / "pdf" / "a4" / "sixes" / "players" / "first-rival.pdf"
    sheet.unlink()                                              # the output folder changed
    restored = cached_pdfs(starter, out)
    assert not restored.untouched and loads == [1] and restored.rendered == [] and sheet.is_file()

    assert not cached_pdfs(starter, out, LETTER).untouched   # other options
    uncached = BuildConfig(starter, out, (LETTER,), site=False, workers=1, cache=False)
    assert not build(uncached).untouched    # no cache asked
    notes = starter / "sixes" / "game.yaml"
    notes.write_text(notes.read_text() + "\n# an organiser's comment\n")
    assert not cached_pdfs(starter, out, LETTER).untouched   # the data changed
    assert cached_pdfs(starter, out, LETTER).untouched


def test_a_site_made_but_never_swapped_in_is_made_again(starter, tmp_path):
    """The site's keys are written with the build's record, after the swap: a
    build that made a new site and then failed to swap it in must not leave
    the cache saying the site in the output folder is up to date."""
    out = tmp_path / "out"
    build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    game = starter / "sixes" / "game.yaml"
    game.write_text(game.read_text().replace("title:", "title: Renamed", 1))
    pipe = out / "site" / "pipe"
    os.mkfifo(pipe)                     # refused at the swap, after MkDocs built the new site
    with pytest.raises(OutputError, match="is not a regular file"):
        build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    assert "Renamed" not in (out / "site" / "index.html").read_text()
    pipe.unlink()
    again = build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    assert again.site_built and "Renamed" in (out / "site" / "index.html").read_text()


def test_a_build_with_nothing_changed_repeats_its_warnings(starter, tmp_path):
    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(re.sub(r"^hit_points: \d+", "hit_points: 9", character.read_text(), flags=re.M))
    out = tmp_path / "out"
    first = cached_pdfs(starter, out)
    again = cached_pdfs(starter, out)
    assert again.untouched and first.warnings and again.warnings == first.warnings


def test_the_command_says_when_nothing_changed(starter, tmp_path):
    import os
    import sys
    command = [sys.executable, "-m", "generator", "build", "--data", str(starter), "--out", str(tmp_path / "out"),
               "--paper", "a4", "--no-site", "--jobs", "1"]
    env = {**os.environ, "SIXES_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run(command, capture_output=True, text=True, env=env)
    second = subprocess.run(command, capture_output=True, text=True, env=env)
    assert first.returncode == second.returncode == 0
    assert "6 rendered" in first.stderr
    assert "Nothing changed since the last build" in second.stderr
    assert second.stdout == first.stdout                  # the same PDFs, in the same place


def test_a_failed_build_writes_no_cache(starter, tmp_path, monkeypatch):
    monkeypatch.setattr("generator.core.glyphs.check_glyphs", lambda *args: [])   # so the render itself fails
    character = starter / "sixes" / "characters" / "first-rival.yaml"
    character.write_text(character.read_text().replace("name: First Rival", "name: First Rival \u2603"))
    out = tmp_path / "out"
    with pytest.raises(BuildError):
        cached_pdfs(starter, out)
    assert not (tmp_path / "cache").exists()


def test_a_long_gm_document_renders_only_the_run_of_the_cast_that_changed(starter, tmp_path, monkeypatch):
    """With a run of one character per part, the cheat sheet is its rules, one
    roster part per character and the specials library; editing the second
    character's armour renders that one roster part, and the joined PDF is
    numbered right through."""
    from generator.systems.sixes import outputs
    monkeypatch.setattr(outputs, "ROWS_PER_PART", 1)
    out = tmp_path / "out"
    cold = cached_pdfs(starter, out)
    cheat = "a4 sixes/gm/gm-cheat-sheet.pdf"
    assert [p for p in cold.pieces if p.startswith(cheat)] == [f"{cheat} (part {k})" for k in range(1, 5)] + [
        f"{cheat} (page numbers)"]
    pdf = out / "pdf" / "a4" / "sixes" / "gm" / "gm-cheat-sheet.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")[:-1]
    assert [re.findall(r"Page (\d+) of (\d+)", page) for page in pages] == [
        [(str(k), str(len(pages)))] for k in range(1, len(pages) + 1)]
    assert all("GM only" in page for page in pages)               # the running title on every page
    from pypdf import PdfReader
    reader = PdfReader(pdf)
    assert reader.metadata is not None and (reader.metadata.title or "").endswith("GM cheat sheet")
    assert str(reader.root_object["/Lang"]) == "en"
    assert not list(out.rglob(".parts"))

    character = starter / "sixes" / "characters" / "second-rival.yaml"
    character.write_text(re.sub(r"(?m)^armour: \d+\n", "", character.read_text()) + "armour: 2\n")
    edited = cached_pdfs(starter, out)
    assert [p for p in edited.pieces if p.startswith(cheat)] == [f"{cheat} (part 3)"]
    assert "sixes/players/first-rival.pdf" not in " ".join(edited.pieces)


def test_another_output_folder_reuses_the_pdfs_and_a_week_unused_forgets_them(starter, tmp_path):
    """The rendered PDFs are shared by every output folder (a key is the
    PDF's content); what no build used for a week is removed after a build,
    and what the build used stays."""
    from generator.render.cache.pdfs import KEEP_UNUSED_SECONDS
    from generator.render.cache.storage import shared_pdfs_root
    first = cached_pdfs(starter, tmp_path / "out")
    second = cached_pdfs(starter, tmp_path / "elsewhere")
    assert len(first.rendered) == 6 and second.rendered == [] and second.reused == 6
    stale = shared_pdfs_root() / f"{'0' * 64}.pdf"
    stale.write_bytes(b"%PDF-1.7\n")
    stale.with_suffix(".json").write_text("[1, \"x\"]")
    kept = sorted(shared_pdfs_root().glob("*.pdf"))
    long_ago = stale.stat().st_mtime - KEEP_UNUSED_SECONDS - 60
    for path in shared_pdfs_root().iterdir():
        os.utime(path, (long_ago, long_ago))
    cached_pdfs(starter, tmp_path / "third")
    assert not stale.exists() and not stale.with_suffix(".json").exists()
    assert sorted(shared_pdfs_root().glob("*.pdf")) == [p for p in kept if p != stale]


def test_a_site_changed_since_the_last_build_is_built_again(starter, tmp_path):
    """The site counts as built only as the last build left it: a page gone
    from it (or a site put back or planted in its place) makes the next
    build with the same inputs build it again, not report a page that is
    not there."""
    out = tmp_path / "out"
    build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    (out / "site" / "index.html").unlink()
    again = build(BuildConfig(starter, out, (A4,), workers=1, cache=True))
    assert again.site_built and again.rendered == []
    assert (out / "site" / "index.html").is_file()
