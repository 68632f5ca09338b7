"""The project's documentation: README.md is the front door (short, every
link it makes reaching a file), and the guide and the contributors'
reference are a site (docs/mkdocs.yml over docs/pages/) that MkDocs builds
with --strict, so a link to a missing page or anchor, or a page left out of
the navigation, fails the suite rather than a reader."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = DOCS / "pages"
README_LIMIT = 250
# A Markdown link or image's target, and an HTML src/href (the README's picture).
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|\b(?:src|href)=\"([^\"]+)\"")


def build(config: Path, into: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` with the venv's MkDocs (the one pyproject pins)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(into)],
                          capture_output=True, text=True, timeout=300, env=env)


def test_the_documentation_site_builds_strictly_with_every_page(tmp_path):
    result = build(DOCS / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stderr
    built = {path.relative_to(tmp_path / "site").with_suffix(".md") for path in (tmp_path / "site").rglob("*.html")}
    pages = {path.relative_to(PAGES) for path in PAGES.rglob("*.md")}
    assert pages <= built, sorted(map(str, pages - built))
    assert (tmp_path / "site" / "img" / "character-sheet.png").is_file()    # docs/img/, shared with the README


def test_a_broken_link_or_a_page_out_of_the_navigation_fails_the_build(tmp_path):
    """The strict build is what makes the test above worth having: each of
    these, alone, must fail it."""
    cases = {
        "a missing page": ("guide/rulings.md", "\nSee [nothing](no-such-page.md).\n"),
        "a missing anchor": ("guide/rulings.md", "\nSee [nothing](settings.md#no-such-heading).\n"),
        "a page out of the navigation": ("guide/stray.md", "# Stray\n"),
    }
    for case, (page, text) in cases.items():
        copy = tmp_path / case.replace(" ", "-")
        shutil.copytree(DOCS, copy, ignore=shutil.ignore_patterns("_build"))
        with (copy / "pages" / page).open("a", encoding="utf-8") as file:
            file.write(text)
        result = build(copy / "mkdocs.yml", copy / "_build")
        assert result.returncode != 0, f"{case}: the strict build passed"
        assert Path(page).name in result.stderr or "no-such" in result.stderr, (case, result.stderr)


def relative_targets(markdown: str) -> list[str]:
    """Every link or image target in `markdown` that points into the repository."""
    targets = [found[0] or found[1] for found in LINK.findall(markdown)]
    return [target for target in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)]


def test_the_readme_is_short_and_each_of_its_links_reaches_a_file():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < README_LIMIT
    targets = relative_targets(readme)
    assert "docs/img/character-sheet.png" in targets and "CONTRIBUTING.md" in targets
    missing = [target for target in targets if not (ROOT / target.split("#")[0]).is_file()]
    assert not missing, missing


def test_the_link_reader_sees_the_kinds_of_link_the_readme_uses():
    text = ('[a](docs/a.md) [b](docs/b.md#part) ![c](img/c.png "title") <img src="d.png" width="4">'
            " [e](https://example.org) [f](#here) [g](mailto:x@example.org)")
    assert relative_targets(text) == ["docs/a.md", "docs/b.md#part", "img/c.png", "d.png"]


def test_the_readme_names_make_test_as_the_test_command_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^make test\b.*the test command", readme, re.MULTILINE)
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().endswith("exec make test")


def test_contributing_keeps_the_lanes_the_house_rules_and_the_dependencies():
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", contributing, re.MULTILINE)
    assert {"Setting up", "The test lanes", "House rules", "Dependencies, and why"} <= set(headings)
    assert "`make test`" in contributing and "`make test-fast`" in contributing


def test_every_benchmark_script_is_described_in_the_documentation():
    performance = (PAGES / "contributing" / "performance.md").read_text(encoding="utf-8")
    missing = [script.name for script in sorted((ROOT / "benchmarks").glob("*.py"))
               if f"`{script.name}`" not in performance]
    assert not missing, missing
