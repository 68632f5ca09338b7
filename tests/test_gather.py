"""The one gather (game/gather.py) and the one reader of a game folder
(core/loading.open_regular inside `reading_game`).

Every command starts with the same gather, so `check` refuses what `build`
and `pack` would refuse, before anything renders; every file the game holds
or names is opened through one gate that refuses links leading out of the
game folder, files that are not regular files and oversize files, at the
line of the setting or data that names them; a page's front matter is read
by the YAML reader and checked by a model.
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

import generator
from generator.commands.cli import main
from generator.core.errors import DataError, Problem
from generator.game import gather as gather_module
from game_sites import build_site_only, new_game

PACKAGE = Path(generator.__file__).parent


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def lines(output: str) -> list[str]:
    return output.strip().splitlines()


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A game made as a user makes one, with its systems cut to Sixes and I6
    (fewer files to read) and a pages folder with one page; the current
    folder is the one holding it, so every file is shown as fair/..."""
    monkeypatch.chdir(tmp_path)
    game = new_game(tmp_path / "fair")
    for slug in ("d6xd6", "six-shooter", "sixes-system"):
        shutil.rmtree(game / slug)
    (game / "pages").mkdir()
    (game / "pages" / "welcome.md").write_text("# Welcome\n", encoding="utf-8")
    return game


def _settings(game: Path, text: str) -> None:
    """Replace a line of the starter's sixes.yaml (kept in place, so the
    other settings keep their lines)."""
    path = game / "sixes.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  cast_list: false", text), encoding="utf-8")


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def _break_i6(game: Path) -> None:
    traits = game / "i6" / "traits.yaml"
    traits.write_text(traits.read_text(encoding="utf-8") + "\nnot_a_key: 1\n", encoding="utf-8")


# --- one gather, every command -------------------------------------------------------

def test_check_build_pack_watch_and_serve_all_start_with_the_one_gather(game, tmp_path, monkeypatch):
    """Each command reaches the gather (the real one is replaced, wherever a
    command module holds it, by one that records the call and stops the
    run), and no command module reads data, pages or casting by another way."""
    import generator.commands.build as build_module     # imported before the patch, so they hold the real one
    import generator.commands.pack as pack_module
    calls: list[str] = []

    class Stop(KeyboardInterrupt):
        """Ends a watching command (serve, build --watch) as Ctrl-C would."""

    def recording(data_dir, settings, papers=(), **kwargs):
        calls.append("pack" if kwargs.get("pack") else "other")
        raise Stop()
    monkeypatch.setattr(gather_module, "gather", recording)
    for module in (build_module, pack_module):
        if hasattr(module, "gather"):
            monkeypatch.setattr(module, "gather", recording)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    commands = [["check"], ["build", "--no-cache"], ["build", "--watch", "--no-cache"],
                ["pack", "--system", "sixes", "--no-cache"], ["serve", "--port", port]]
    for command in commands:
        before = len(calls)
        run(*command, "--data", str(game))
        assert len(calls) == before + 1, command
    assert calls == ["other"] * 3 + ["pack", "other"]
    readers = {"load_all", "load_each", "read_own_pages", "check_casting", "casting_problems", "load_yaml"}
    for path in (PACKAGE / "commands").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
        allowed = {"load_all"} if path.name == "simulate.py" else set()     # `simulate` reads the Sixes game alone
        assert not (imported & readers) - allowed, path.name


def test_a_page_with_a_visibility_other_than_public_or_private_is_refused_by_check_and_by_build_before_rendering(
        game, monkeypatch):
    page = game / "pages" / "plot.md"
    page.write_text("---\nvisibility: secret\n---\nThe butler did it.\n", encoding="utf-8")
    expected = ("fair/pages/plot.md:2:13: error: visibility: found 'secret'; allowed: 'public', 'private'")
    checked = run("check", "--data", str(game))
    assert checked.exit_code == 1 and expected in lines(checked.output), checked.output
    import generator.commands.build as build_module
    entered = []
    # A run begins when it enters its BuildContext (made earlier, so that its cache can answer a build
    # with nothing changed before the gather).
    monkeypatch.setattr(build_module.BuildContext, "__enter__",
                        lambda self: entered.append(self) or pytest.fail("rendered"))
    built = run("build", "--data", str(game), "--no-cache")
    assert built.exit_code == 1 and expected in lines(built.output), built.output
    assert entered == [] and not (game / "output").exists()


def test_check_and_pack_keep_to_the_settings_systems(game, tmp_path, monkeypatch):
    """With `systems: [sixes]`, a broken i6/ folder is not read by either;
    pack goes on to plan its envelopes (stopped there: rendering is tested
    elsewhere)."""
    _break_i6(game)
    assert run("check", "--data", str(game)).exit_code == 1        # i6 is read while every system is in play
    _settings(game, "  cast_list: false\nsystems: [sixes]")
    checked = run("check", "--data", str(game))
    assert checked.exit_code == 0 and "(Sixes)" in checked.output, checked.output
    import generator.commands.pack as pack_module
    planned = []

    def stop(gathered, *args):
        planned.append(gathered.packed.system.slug)
        raise RuntimeError("planned")
    monkeypatch.setattr(pack_module, "plan_pack", stop)
    packed = run("pack", "--data", str(game), "--no-cache")
    assert planned == ["sixes"], packed.output
    assert "traits.yaml" not in packed.output


def test_a_misspelt_character_in_the_casting_is_reported_when_another_game_has_errors(game):
    _break_i6(game)
    (game / "casting.yaml").write_text("system: sixes\nenvelopes:\n  - player: Robin\n    character: Frist Rival\n",
                                       encoding="utf-8")
    checked = run("check", "--data", str(game))
    assert checked.exit_code == 1
    assert ("fair/casting.yaml:4:16: error: envelopes[0].character: no character called 'Frist Rival'; "
            "did you mean 'First Rival'?") in lines(checked.output), checked.output
    assert any(line.startswith("fair/i6/traits.yaml:") and "not_a_key" in line for line in lines(checked.output))


def test_no_loading_is_wrapped_in_a_catch_all():
    """A bug while loading is a traceback in the tests, never a silent skip."""
    for path in [*(PACKAGE / "game").glob("*.py"), PACKAGE / "core" / "loading.py", PACKAGE / "core" / "datafiles.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler):
                names = [n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)] if node.type else ["bare"]
                passes_on = isinstance(node.body[-1], ast.Raise) and node.body[-1].exc is None     # cleanup, then raise
                assert passes_on or not {"Exception", "BaseException", "bare"} & set(names), \
                    f"{path.name}:{node.lineno}"


# --- one reader: links out, odd files, oversize files -------------------------------------

@pytest.fixture
def secret(tmp_path) -> Path:
    """A private folder beside the game, with an image and a page in it."""
    folder = tmp_path / "private"
    folder.mkdir()
    Image.new("RGB", (8, 8), "red").save(folder / "face.png")
    (folder / "diary.md").write_text("# Diary\nMy bank PIN\n", encoding="utf-8")
    return folder


def test_a_pages_folder_that_links_out_of_the_game_is_refused_at_its_setting(game, secret):
    shutil.rmtree(game / "pages")
    os.symlink(secret, game / "pages")
    checked = run("check", "--data", str(game))
    line = _line_of(game / "sixes.yaml", "pages: pages")
    assert checked.exit_code == 1
    assert (f"fair/sixes.yaml:{line}:10: error: site.pages: the pages folder 'pages' is a link leading outside "
            "the game folder; keep the pages in a folder inside the game folder") in lines(checked.output)
    assert "PIN" not in checked.output


def test_a_logo_that_links_out_of_the_game_is_refused_at_its_setting_and_one_inside_is_read(game, secret):
    Image.new("RGB", (8, 8), "blue").save(game / "pages" / "real.png")
    os.symlink(game / "pages" / "real.png", game / "logo.png")
    _settings(game, "  cast_list: false\n  logo: logo.png")
    assert run("check", "--data", str(game)).exit_code == 0             # a link inside the game is fine
    (game / "logo.png").unlink()
    os.symlink(secret / "face.png", game / "logo.png")
    checked = run("check", "--data", str(game))
    line = _line_of(game / "sixes.yaml", "logo: logo.png")
    assert checked.exit_code == 1
    assert (f"fair/sixes.yaml:{line}:9: error: site.logo: the logo 'logo.png' is a link leading outside the game "
            "folder; copy the image into the game folder") in lines(checked.output), checked.output


@pytest.mark.parametrize("where", ["pages/notes.md", "pages/deep/notes.md", "sixes/characters/third.yaml",
                                   "casting.yaml", "i6/game.yaml"])
def test_every_file_the_game_holds_is_refused_when_a_link_leads_it_outside(game, secret, where):
    """The file itself a link, or (pages/deep) a folder on its way."""
    target = game / where
    if where == "i6/game.yaml":
        target.unlink()
    if where == "pages/deep/notes.md":
        os.symlink(secret, game / "pages" / "deep")
        shutil.copy(secret / "diary.md", secret / "notes.md")
    else:
        os.symlink(secret / "diary.md", target)
    checked = run("check", "--data", str(game))
    assert checked.exit_code == 1, checked.output
    named = "pages/deep" if where == "pages/deep/notes.md" else where    # the folder on its way is named
    assert any(line.startswith(f"fair/{named}") and "outside" in line for line in lines(checked.output)), \
        checked.output
    assert "PIN" not in checked.output


def test_a_named_pipe_or_an_oversize_page_is_refused_without_waiting(game):
    os.mkfifo(game / "pages" / "pipe.md")
    (game / "pages" / "huge.md").write_text("# Huge\n" + "x" * (300 * 1024), encoding="utf-8")
    checked = run("check", "--data", str(game))
    assert checked.exit_code == 1
    assert "fair/pages/pipe.md: error: found a named pipe (FIFO), not a regular file; a page must be a plain file" \
        in lines(checked.output), checked.output
    assert any(line.startswith("fair/pages/huge.md: error: the file is") and "more than the 256 KiB allowed" in line
               for line in lines(checked.output)), checked.output


def test_nothing_but_the_gate_opens_a_file_of_the_game():
    """Every call in generator/ that opens or copies a file is listed here
    with why it may: the gate itself, a decoder of bytes the gate read, or
    a file that is not the game's (the tool's own, or what it wrote). A new
    reader fails this test until it goes through the gate or is added here,
    reviewed."""
    allowed = {
        ("core/loading.py", "open_regular"): "the gate",
        ("core/assets.py", "raster_fault"): "decodes the file object the gate opened",
        ("core/assets.py", "pdf_fault"): "decodes the file object the gate opened",
        ("game/casting.py", "paper_mismatches"): "decodes bytes the gate read",
        ("game/handout_title.py", "_metadata_title"): "decodes bytes the gate read (a handout's /Title)",
        ("render/pack/assembly.py", "SourcePdfs.read"): "decodes bytes the gate read",
        ("core/glyphs.py", "_declared"): "the tool's own stylesheet and fonts",
        ("render/html.py", "_read_icon"): "the tool's own icons",
        ("render/site/tracker.py", "_inline"): "the tool's own tracker sources",
        ("render/pdf/weasy.py", "make_fetcher.ProjectFetcher.fetch"): "WeasyPrint reads the tool's templates and the "
                                                            "portraits the gather checked, real paths only",
        ("commands/new.py", "run"): "copies the tool's starter game into a new folder",
        ("core/i18n.py", "_shipped"): "the tool's own catalogues",
        ("commands/catalogue.py", "write_catalogue"): "writes the game's catalogue file whole (read through the gate "
                                                      "first by read_own_catalogue)",
        ("commands/deploy.py", "to_folder"): "copies the built site",
        ("commands/output.py", "write_whole"): "writes sixes cast's casting file whole (a new file, renamed)",
        ("game/cast_solve.py", "_highs"): "/dev/null, for the moment HiGHS prints its banner on the C output",
        ("commands/output.py", "OutputFolder._take_lock"): "the output folder's lock",
        ("render/cache/marker.py", "marked"): "the marker the tool wrote into its own cache folder",
        ("commands/output.py", "OutputFolder.record"): "the output folder's record",
        ("commands/output.py", "OutputFolder._carry_users_files"): "the user's own files in the output folder",
        ("commands/output.py", "OutputFolder._recover"): "the output folder's journal",
        ("render/pack/assembly.py", "Manifest.write"): "writes the manifest",
        ("render/pack/reprint.py", "write_manifest"): "writes a reprint's stuffing list",
        ("commands/serve.py", "site_app.app"): "serves the built site",
        ("render/pdf/parts.py", "save_pdf"): "writes a PDF",
        ("render/site/writer.py", "stage_sources"): "the tool's site sources, icons and the PDFs the build made",
        ("render/site/writer.py", "_list_games"): "staged pages the tool wrote",
        ("render/site/writer.py", "_hand_written_entry"): "the tool's own site sources, staged",
        ("render/site/publish.py", "publish_image"): "writes what the gate read (open_regular), re-encoded",
        ("render/pack/assembly.py", "zip_papers"): "zips the pack this run staged (its own files, not the game's)",
        ("render/site/publish.py", "_reencode"): "decodes bytes the gate read (open_regular) from memory",
        ("render/site/writer.py", "_unlink_empty_pages"): "staged pages the tool wrote",
        ("render/site/mkdocs_build.py", "config_overrides"): "the tool's mkdocs.yml",
        ("render/site/mkdocs_build.py", "stem_typed_words"): "the tool's theme patch and the built site",
        ("render/site/mkdocs_build.py", "prune_site"): "the built site",
        ("render/site/mkdocs_build.py", "search_languages"): "the built search index",
        ("render/cache/keys.py", "file_hash"): "hashes regular files to tell a change; never parsed nor published",
        ("render/cache/keys.py", "staged_pages"): "hashes the pages the tool staged, to tell which changed",
        ("render/cache/builds.py", "BuildCache.staged_site_unchanged"): "the tool's mkdocs.yml, hashed",
        ("render/cache/builds.py", "BuildCache.previous_site"): "the build record the tool wrote in its output",
        ("render/site/mkdocs_build.py", "_page_plugin.PagePlugin.on_files"): "the search index of the site the last "
                                                                       "build made",
        ("render/site/mkdocs_build.py", "build_site"): "copies the site the last build made, for a partial build",
        ("render/site/partial.py", "merge_search_index"): "the search index MkDocs just wrote",
        ("render/pdf/tagged_join.py", "join_tagged"): "PDFs this run rendered, and the page-number stamp it made",
        ("render/pdf/tagged_join.py", "_copy_part"): "a PDF this run rendered",
        ("render/pdf/tagged_join.py", "_identities"): "hashes PDFs this run rendered",
        ("render/pdf/batch.py", "RenderBatch._fetch"): "a PDF from the render cache",
        ("render/pdf/jobs.py", "prepare_remembered"): "a document's HTML from the cache (DocumentCache.fetch)",
        ("core/pids.py", "gone"): "the kernel's status of a pid (/proc)",
        **{("render/cache/" + module, name): "the cache folder the tool writes, and the tool's own code and config"
           for module, name in (("storage.py", "read_text"), ("keys.py", "code_version"), ("keys.py", "site_key"),
                                ("keys.py", "site_inputs_key"), ("pdfs.py", "_read_entry"),
                                ("pdfs.py", "_used_keys"), ("storage.py", "write_whole"),
                                ("pdfs.py", "RenderCache.fetch"), ("pdfs.py", "RenderCache.store"),
                                ("codec.py", "load_memo"), ("builds.py", "_unchanged_build"),
                                ("builds.py", "_site_there"), ("documents.py", "DocumentCache.fetch"))},
    }
    assert _file_openers() == set(allowed)


_OPENERS = {"open", "read_text", "read_bytes", "copyfile", "copy", "copy2", "copytree", "PdfReader", "fdopen",
            "file_digest", "fetch", "write_bytes"}


def _file_openers() -> set[tuple[str, str]]:
    """(module, function) of every call in the package that opens, reads or
    copies a file (writes of bytes read elsewhere too: `write_bytes`)."""
    found: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        finder = _OpenerFinder(path.relative_to(PACKAGE).as_posix(), found)
        finder.visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


class _OpenerFinder(ast.NodeVisitor):
    """Adds (module, enclosing function) to `found` for each ungated opener call of one module."""

    def __init__(self, module: str, found: set[tuple[str, str]]):
        self.module, self.found = module, found
        self.stack: list[str] = []

    def visit_FunctionDef(self, node):
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()
    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def visit_Call(self, node):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in _OPENERS and not _gated(node):
            self.found.add((self.module, ".".join(self.stack) or "<module>"))
        self.generic_visit(node)


def _gated(call: ast.Call) -> bool:
    """A write whose bytes come from the gate (`asset_bytes`, `read_limited`)."""
    return any(isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name)
               and arg.func.id in ("asset_bytes", "read_limited") for arg in call.args)


# --- front matter, read by the YAML reader ----------------------------------------------

PRIVATE_PAGES = {
    "crlf.md": b"---\r\ntitle: Plot\r\nvisibility: private\r\n---\r\nThe butler did it, in the library.\r\n",
    "cr.md": b"---\rvisibility: private\r---\rThe gardener saw everything.\r",
    "bom.md": "\ufeff---\r\nvisibility: private\r\n---\r\nThe cook kept the key.\r\n".encode("utf-8"),
}
SECRETS = ("butler", "gardener", "cook")


def test_private_pages_stay_off_the_site_whatever_their_line_endings(game, tmp_path):
    for name, data in PRIVATE_PAGES.items():
        (game / "pages" / name).write_bytes(data)
    (game / "pages" / "open.md").write_bytes(b"---\r\ntitle: Open day\r\n---\r\nEveryone may read this.\r\n")
    site = build_site_only(game, tmp_path / "out")
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    searchable = " ".join(doc["text"] + doc["title"] for doc in index["docs"]).lower()
    published = " ".join(p.read_text(encoding="utf-8", errors="replace").lower()
                         for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".json", ".xml"))
    assert "everyone may read this" in searchable and "open day" in published
    for word in SECRETS:
        assert word not in searchable and word not in published, word
    assert not any((site / name.replace(".md", "")).exists() for name in PRIVATE_PAGES)


def test_a_misspelt_front_matter_key_is_an_error_with_a_did_you_mean(game):
    (game / "pages" / "plot.md").write_bytes(b"---\r\ntitle: Plot\r\nvisiblity: private\r\n---\r\nSecret.\r\n")
    (game / "pages" / "theme.md").write_text("---\ntemplate: ../../etc/passwd\n---\nx\n", encoding="utf-8")
    checked = run("check", "--data", str(game))
    assert checked.exit_code == 1
    shown = lines(checked.output)
    assert "fair/pages/plot.md:3:1: error: visiblity: unknown key 'visiblity'; did you mean 'visibility'?" in shown, \
        shown
    assert any(line.startswith("fair/pages/theme.md:2:1: error: template: unknown key 'template'")
               for line in shown), shown


def test_front_matter_keeps_the_yaml_reader_s_limits_and_refusals(game):
    (game / "pages" / "tag.md").write_text("---\ntitle: !!python/object:os.system x\n---\nx\n", encoding="utf-8")
    (game / "pages" / "open.md").write_text("---\ntitle: never closed\n\n# Text\n", encoding="utf-8")
    (game / "pages" / "list.md").write_text("---\n- a\n- b\n---\nx\n", encoding="utf-8")
    checked = run("check", "--data", str(game))
    shown = lines(checked.output)
    assert checked.exit_code == 1
    assert any(line.startswith("fair/pages/tag.md:2:8: error: title: unknown YAML tag") for line in shown), shown
    assert ("fair/pages/open.md:1:1: error: front matter that never ends; close it with a line of three dashes "
            "(---)") in shown
    assert any(line.startswith("fair/pages/list.md:2:1: error:") for line in shown), shown


def test_the_gather_raises_every_problem_at_once(game, secret):
    """Data, pages, logo and casting problems in one DataError."""
    _break_i6(game)
    (game / "pages" / "plot.md").write_text("---\nvisibility: secret\n---\nx\n", encoding="utf-8")
    os.symlink(secret / "face.png", game / "logo.png")
    _settings(game, "  cast_list: false\n  logo: logo.png")
    (game / "casting.yaml").write_text("system: sixes\nenvelopes:\n  - player: Robin\n    character: Nobody\n",
                                       encoding="utf-8")
    from generator.game.settings import load_settings
    with pytest.raises(DataError) as caught:
        gather_module.gather(game, load_settings(game, game.parent))
    files = {p.file for p in caught.value.problems if p.severity == "error"}
    assert files == {"fair/i6/traits.yaml", "fair/pages/plot.md", "fair/sixes.yaml", "fair/casting.yaml"}, \
        [str(p) for p in caught.value.problems]
    assert all(isinstance(p, Problem) for p in caught.value.problems)
