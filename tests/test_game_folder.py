"""A game folder is the project: `sixes new` makes one with its settings,
every command run inside it (or below it) finds it, settings are checked
like data, serve and watch never destroy output, and the installed wheel
works outside the clone."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.commands.cli import main
from generator.core.paths import PROJECT_ROOT
from generator.game.settings import SETTINGS_FILE
from generator.systems.sixes import SYSTEM as SIXES


# No test here looks at the cache: their builds share the run's
# (conftest.run_cache), so the starter each one builds is rendered once.


def run(*args, cwd: Path | None = None):
    old = Path.cwd()
    if cwd:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture
def game(tmp_path) -> Path:
    """A game folder with only the Sixes system (fast to build)."""
    result = run("new", tmp_path / "my-game")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "my-game"
    for extra in ("six-shooter", "d6xd6", "i6", "sixes-system"):
        shutil.rmtree(folder / extra)
    return folder


def test_new_writes_settings_data_and_schemas_and_says_what_next(tmp_path):
    result = run("new", tmp_path / "lantern-fair")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "lantern-fair"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [SETTINGS_FILE, "schemas", "sixes", "six-shooter", "d6xd6", "i6", "sixes-system"])
    assert 'name: "Lantern Fair"' in (folder / SETTINGS_FILE).read_text()
    assert (folder / "schemas" / "settings.schema.json").is_file()
    assert "`sixes check`, `sixes build` (into output/) or `sixes serve`" in result.output


def test_commands_inside_a_game_folder_or_below_need_no_flags(game):
    checked = run("check", cwd=game / "sixes" / "characters")
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == f"OK: {game} is valid (Sixes).\n"
    built = run("build", "--paper", "A4", "--no-site", "--jobs", "1", cwd=game)
    assert built.exit_code == 0, built.output
    assert (game / "output" / "pdf" / "a4" / "sixes" / "players" / "first-rival.pdf").is_file()
    assert not (game / "output" / "pdf" / "letter").exists()


def test_outside_a_game_folder_a_command_says_how_to_make_one(tmp_path):
    result = run("check", cwd=tmp_path)
    assert result.exit_code == 1
    assert f"error: no {SETTINGS_FILE} in {tmp_path} or any folder above it" in result.output
    assert "`sixes new mygame`" in result.output and "Traceback" not in result.output


def test_a_data_folder_without_settings_builds_with_data_and_out_only(tmp_path):
    data = tmp_path / "old-game"
    shutil.copytree(SIXES.starter, data / "sixes")
    refused = run("build", "--data", data, "--paper", "a4", cwd=tmp_path)
    assert refused.exit_code == 1 and "so say where the output goes with --out DIR" in refused.output
    built = run("build", "--data", data, "--out", tmp_path / "out", "--paper", "a4", "--no-site", "--jobs", "1")
    assert built.exit_code == 0, built.output


@pytest.mark.parametrize("settings, expected", [
    ("papr: a4\n", f"{SETTINGS_FILE}:1:1: error: papr: unknown key 'papr'; did you mean 'paper'?"),
    ("paper: A3\n", f"{SETTINGS_FILE}:1:8: error: paper: found 'a3'"),
    ("systems: [sixse]\n", f"{SETTINGS_FILE}:1:11: error: systems[0]: unknown game system 'sixse'; did you mean "
                           "'sixes'?"),
    ("site:\n  primary: bleu\n", f"{SETTINGS_FILE}:2:12: error: site.primary: found 'bleu'"),
    ("output: /etc\n", f"{SETTINGS_FILE}:1:9: error: output: '/etc' is an absolute path"),
    ("site:\n  logo: ../secret.png\n", f"{SETTINGS_FILE}:2:9: error: site.logo:"),
    ("site:\n  logo: images/../../secret.png\n", "paths are relative to the game folder (the one holding sixes.yaml)"),
    ("site: !!python/object/apply:os.system [echo]\n", f"{SETTINGS_FILE}:1:7: error:"),
])
def test_settings_are_checked_like_data(game, settings, expected):
    (game / SETTINGS_FILE).write_text(settings)
    result = run("check", cwd=game)
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert "Traceback" not in result.output


def test_the_settings_name_files_by_the_one_path_rule(game):
    """Relative to the game folder, '..' too while it stays inside (core/game_paths.py)."""
    (game / "images").mkdir()
    (game / "images" / "logo.png").write_bytes(_tiny_png())
    (game / SETTINGS_FILE).write_text("site:\n  logo: pages/../images/logo.png\n")
    result = run("check", cwd=game)
    assert result.exit_code == 0, result.output


def _tiny_png() -> bytes:
    from io import BytesIO

    from PIL import Image
    out = BytesIO()
    Image.new("RGB", (4, 4)).save(out, format="PNG")
    return out.getvalue()


def test_paper_choices_take_any_case(game):
    (game / SETTINGS_FILE).write_text("paper: Letter\n")
    built = run("build", "--no-site", "--jobs", "1", cwd=game)
    assert built.exit_code == 0, built.output
    assert (game / "output" / "pdf" / "letter").is_dir() and not (game / "output" / "pdf" / "a4").exists()


def test_building_one_paper_keeps_the_other_papers_pdfs(game):
    assert run("build", "--paper", "both", "--no-site", "--jobs", "1", cwd=game).exit_code == 0
    letter = sorted((game / "output" / "pdf" / "letter").rglob("*.pdf"))
    assert letter
    assert run("build", "--paper", "a4", "--no-site", "--jobs", "1", cwd=game).exit_code == 0
    assert sorted((game / "output" / "pdf" / "letter").rglob("*.pdf")) == letter


def test_serve_checks_its_port_before_building(game):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--port", port, cwd=game)
    assert result.exit_code == 2
    assert f"error: cannot serve on port {port}" in result.output and "--port" in result.output
    assert not (game / "output").exists()


def test_every_command_summary_in_help_is_whole():
    result = run("--help")
    for line in result.output.splitlines():
        if line.startswith("  ") and not line.lstrip().startswith("-"):
            assert not line.rstrip().endswith("..."), line


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_wheel_installs_and_works_outside_the_clone(tmp_path):
    """Build the wheel, install it into a new virtual environment in a
    folder that knows nothing of this clone, and use it as a new user would."""
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(PROJECT_ROOT)],
                   check=True, capture_output=True, timeout=600)
    wheel = next(wheels.glob("sixes_press-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    pip = subprocess.run([str(env_dir / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=1200)
    assert pip.returncode == 0, pip.stderr[-2000:]
    sixes = str(env_dir / "bin" / "sixes")
    home = tmp_path / "elsewhere"
    home.mkdir()
    env = {**os.environ, "SIXES_CACHE_DIR": str(tmp_path / "cache")}

    def sixes_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sixes, *args], cwd=folder, capture_output=True, text=True, env=env, timeout=900)
        assert done.returncode == 0, done.stdout + done.stderr
        return done
    sixes_in(home, "new", "fair")
    game = home / "fair"
    for extra in ("six-shooter", "d6xd6", "i6", "sixes-system"):
        shutil.rmtree(game / extra)
    sixes_in(game, "check")
    sixes_in(game, "build", "--paper", "a4")
    sixes_in(game, "pack", "--paper", "a4")
    sheet = game / "output" / "pdf" / "a4" / "sixes" / "players" / "first-rival.pdf"
    text = subprocess.run(["pdftotext", str(sheet), "-"], capture_output=True, text=True).stdout
    assert "First Rival" in text
    index = (game / "output" / "site" / "index.html").read_text()
    assert "<html" in index and "Fair" in index
    assert list((game / "output" / "pack" / "sixes" / "a4" / "envelopes").glob("*.pdf"))
    installed = subprocess.run([str(env_dir / "bin" / "python"), "-c",
                                "import generator.core.paths as p; print(p.TEMPLATES_DIR)"],
                               capture_output=True, text=True, cwd=home).stdout.strip()
    assert installed.startswith(str(env_dir)), installed


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.org", *args], cwd=cwd,
                          capture_output=True, text=True, check=True)
    return done.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_deploy_publishes_the_site_to_a_branch_of_a_local_bare_repository(game, tmp_path, monkeypatch):
    for key, value in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
                       "GIT_COMMITTER_EMAIL": "t@example.org"}.items():
        monkeypatch.setenv(key, value)
    bare = tmp_path / "published.git"
    git("init", "--bare", "-q", str(bare), cwd=tmp_path)
    git("init", "-q", cwd=game)
    git("remote", "add", "origin", str(bare), cwd=game)
    refused = run("deploy", cwd=game)
    assert refused.exit_code == 1 and "run `sixes build` first" in refused.output
    assert run("build", "--paper", "a4", "--jobs", "1", cwd=game).exit_code == 0
    result = run("deploy", "-m", "First rules", cwd=game)
    assert result.exit_code == 0, result.output
    files = git("ls-tree", "-r", "--name-only", "gh-pages", cwd=bare).split()
    assert "index.html" in files and ".nojekyll" in files and "sixes/index.html" in files
    assert git("log", "-1", "--format=%s", "gh-pages", cwd=bare).strip() == "First rules"


def test_deploy_to_a_folder_keeps_the_users_files_and_refuses_one_it_did_not_make(game, tmp_path):
    (game / SETTINGS_FILE).write_text("deploy:\n  folder: public\n")
    assert run("build", "--paper", "a4", "--jobs", "1", cwd=game).exit_code == 0
    (game / "public").mkdir()
    (game / "public" / "notes.txt").write_text("mine")
    refused = run("deploy", cwd=game)
    assert refused.exit_code == 1 and "was not made by Sixes Press" in refused.output
    shutil.rmtree(game / "public")
    assert run("deploy", cwd=game).exit_code == 0
    (game / "public" / "CNAME").write_text("rules.example.org\n")
    assert run("deploy", cwd=game).exit_code == 0
    assert (game / "public" / "index.html").is_file()
    assert (game / "public" / "CNAME").read_text() == "rules.example.org\n"


def test_the_site_takes_its_name_language_and_colours_from_the_settings_as_text(game):
    (game / SETTINGS_FILE).write_text(
        'site:\n  name: "</title><script>alert(1)</script> Fair & Square"\n'
        '  description: "<img src=x onerror=alert(2)>"\n  language: de\n  primary: teal\n  accent: amber\n')
    assert run("build", "--paper", "a4", "--jobs", "1", cwd=game).exit_code == 0
    index = (game / "output" / "site" / "index.html").read_text()
    assert "<script>alert" not in index and "<img src=x" not in index
    assert "<title>" in index and "Fair &amp; Square" in index
    assert '<html lang="de"' in index and 'data-md-color-primary="teal"' in index
    assert 'data-md-color-accent="amber"' in index


def test_without_a_name_in_the_settings_the_site_is_named_after_the_game(tmp_path):
    data = tmp_path / "old-game"
    shutil.copytree(SIXES.starter, data / "sixes")
    title = next(line.split(":", 1)[1].strip() for line in (data / "sixes" / "game.yaml").read_text().splitlines()
                 if line.startswith("title:"))
    assert run("build", "--data", data, "--out", tmp_path / "out", "--paper", "a4", "--jobs", "1").exit_code == 0
    assert f"<title>{title}</title>" in (tmp_path / "out" / "site" / "index.html").read_text()


@pytest.mark.parametrize("folder", ["output/site/sub", "output/site", "output/gm", "output", "pages"])
def test_deploy_to_a_folder_in_the_output_or_where_the_game_reads_is_refused(game, folder):
    """Inside the site it copies, the copy went on copying itself; over gm/
    it replaced the GM's files with the public site; into the settings'
    pages folder (absent yet) the next build would read the site as pages."""
    assert run("build", "--paper", "a4", "--jobs", "1", cwd=game).exit_code == 0
    before = sorted(str(p.relative_to(game)) for p in game.rglob("*"))
    (game / SETTINGS_FILE).write_text(f"deploy:\n  folder: {folder}\n")
    result = run("deploy", cwd=game)
    assert result.exit_code == 1 and "refusing to write into" in result.output, result.output
    assert sorted(str(p.relative_to(game)) for p in game.rglob("*")) == before


def test_an_output_folder_where_the_game_will_read_its_pages_is_refused_before_it_exists(game):
    (game / SETTINGS_FILE).write_text("output: pages\n")
    assert not (game / "pages").exists()
    result = run("build", "--paper", "a4", "--jobs", "1", "--no-site", cwd=game)
    assert result.exit_code == 1 and "it is the game data" in result.output, result.output
    assert not (game / "pages").exists()


@pytest.mark.parametrize("folder, language, name", [
    ("lantern-fair", "en", "Lantern Fair"), ("the_night's_game", "en-GB", "The Night's Game"),
    ("la-nuit-des-masques", "fr", "La nuit des masques"), ("sœur_bénédicte", "fr", "Sœur bénédicte"),
    ("die-Nacht-der-Masken", "de", "Die Nacht der Masken"), ("---", "fr", "My Game")])
def test_a_new_games_name_is_cased_as_its_language_sets_a_title(folder, language, name):
    from generator.commands.new import folder_title
    assert folder_title(folder, language) == name


def test_new_names_a_french_game_in_sentence_case(tmp_path):
    result = run("new", "--language", "fr", tmp_path / "la-nuit-des-masques")
    assert result.exit_code == 0, result.output
    assert 'name: "La nuit des masques"' in (tmp_path / "la-nuit-des-masques" / SETTINGS_FILE).read_text()


def test_after_building_each_paper_in_turn_the_site_offers_both(game):
    """build --paper a4, then build --paper letter: the output holds both
    papers' PDFs, and the site offers both (not only the last run's)."""
    for paper in ("a4", "letter"):
        built = run("build", "--paper", paper, "--jobs", "1", cwd=game)
        assert built.exit_code == 0, built.output
    site = game / "output" / "site"
    for paper in ("a4", "letter"):
        assert list((site / "downloads" / paper / "sixes").glob("*.pdf")), paper
    pages = [p.read_text(encoding="utf-8") for p in (site / "sixes").rglob("*.html")]
    assert any("downloads/a4/sixes/" in page and "downloads/letter/sixes/" in page for page in pages)
