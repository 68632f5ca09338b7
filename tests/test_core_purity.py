"""Layering and originality checks that need a fresh interpreter or an outside tool.

- Every import in the package, at the top of a module or inside a function,
  goes down the floors generator/__init__.py describes (core, systems, game,
  render, commands), and the pure floors name no rendering or command-line
  library.
- The core (loading, validation, the Sixes rules and dataset) pulls in no
  rendering or command-line library, even after loading the example data.
- `sixes --help` stays instant because WeasyPrint and MkDocs load lazily.
- No project file repeats a rules source word for word (../shared/tools/seed-overlap).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = PROJECT_ROOT.parent / "shared"
SEED_OVERLAP = SHARED_DIR / "tools" / "seed-overlap"

# Top-level packages the core must never import: rendering, site, CLI, terminal.
RENDERING_AND_CLI = ("weasyprint", "jinja2", "mkdocs", "material", "click", "rich")


PACKAGE_DIR = PROJECT_ROOT / "generator"
# Each floor and the floors it may import (its own included).
FLOORS = {
    "core": {"core"},
    "systems": {"core", "systems"},
    "game": {"core", "systems", "game"},
    "render": {"core", "systems", "game", "render"},
    "commands": {"core", "systems", "game", "render", "commands"},
}
PURE_FLOORS = ("core", "systems", "game")


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in a module, lazy ones included."""
    module = ".".join(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    package = package.removesuffix(".__init__")
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None:     # `from .. import systems`: the names are modules
                found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, target))
    return found


def floor_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "generator" and len(parts) > 1 and parts[1] in FLOORS else None


def test_the_package_is_laid_out_as_its_floors():
    """Nothing sits at the package root but its description and `python -m`."""
    loose = sorted(p.name for p in PACKAGE_DIR.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == [], f"modules outside a floor: {loose}"
    assert sorted(p.name for p in PACKAGE_DIR.iterdir() if (p / "__init__.py").is_file()) == sorted(FLOORS)
    for floor in FLOORS:
        doc = ast.get_docstring(ast.parse((PACKAGE_DIR / floor / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "import" in doc.lower(), f"generator/{floor}/__init__.py must say what it may import"


def test_every_import_goes_down_the_floors():
    wrong = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        here = floor_of(".".join(path.relative_to(PROJECT_ROOT).parts))
        if here is None:
            continue
        for line, module in imports_of(path):
            there = floor_of(module)
            shown = f"{path.relative_to(PROJECT_ROOT)}:{line}: {module}"
            if there is not None and there not in FLOORS[here]:
                wrong.append(f"{shown} ({here} may not import {there})")
            if here in PURE_FLOORS and module.split(".")[0] in RENDERING_AND_CLI:
                wrong.append(f"{shown} ({here} is pure)")
    assert wrong == []


# render/'s rooms and the rooms each may import; "shared" is render/'s own
# modules (html, options, charts...). The cache names a PDF job for types only.
ROOMS = {
    "shared": {"shared", "fit"},
    "fit": {"shared", "fit"},
    "pdf": {"shared", "fit", "cache", "pdf"},
    "site": {"shared", "site"},
    "pack": {"shared", "fit", "pdf", "pack"},
    "cache": {"cache", "pdf"},
}
RENDER_DIR = PACKAGE_DIR / "render"


def room_of(module: str) -> str | None:
    """A render module's room, 'shared' for render/'s own modules; None outside render/."""
    parts = module.split(".")
    if parts[:2] != ["generator", "render"]:
        return None
    return parts[2] if len(parts) > 3 and parts[2] in ROOMS else "shared"


def test_render_is_laid_out_as_its_rooms():
    """Every render/ package is a room that says what it is for and may import."""
    packages = sorted(p.name for p in RENDER_DIR.iterdir() if (p / "__init__.py").is_file())
    assert packages == sorted(set(ROOMS) - {"shared"})
    for room in packages:
        doc = ast.get_docstring(ast.parse((RENDER_DIR / room / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "import" in doc.lower(), f"generator/render/{room}/__init__.py must say what it may import"


def test_every_render_import_stays_in_its_rooms():
    wrong = []
    for path in sorted(RENDER_DIR.rglob("*.py")):
        module = ".".join(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
        here = "shared" if path.parent == RENDER_DIR else room_of(module)
        assert here is not None
        for line, imported in imports_of(path):
            there = room_of(imported)
            if imported == "generator.render":
                continue
            if there is not None and there not in ROOMS[here]:
                wrong.append(f"{path.relative_to(PROJECT_ROOT)}:{line}: {imported} ({here} may not import {there})")
    assert wrong == []


def test_the_room_check_can_fail(tmp_path):
    """A site module reaching into the PDF room is what the check above reports."""
    fake = tmp_path / "generator" / "render" / "site" / "fake.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..pdf.weasy import render_pdf\nfrom ..html import md_text\n")
    global PROJECT_ROOT
    real_root = PROJECT_ROOT
    PROJECT_ROOT = tmp_path
    try:
        found = [(room_of(module), module) for _, module in imports_of(fake)]
    finally:
        PROJECT_ROOT = real_root
    assert found == [("pdf", "generator.render.pdf.weasy"), ("shared", "generator.render.html")]
    assert "pdf" not in ROOMS["site"]


def test_the_floor_check_sees_lazy_and_relative_imports(tmp_path):
    """The check above can fail: a lazy relative import upwards is found."""
    module = PACKAGE_DIR / "core" / "errors.py"
    fake = tmp_path / "generator" / "core" / "fake.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("def f():\n    from ..render.pdf.cards import x\n    import jinja2\n    from .. import commands\n")
    global PROJECT_ROOT
    real_root = PROJECT_ROOT
    PROJECT_ROOT = tmp_path
    try:
        assert imports_of(fake) == [(2, "generator.render.pdf.cards"), (3, "jinja2"), (4, "generator.commands")]
    finally:
        PROJECT_ROOT = real_root
    assert (2, "generator.render.pdf.cards") not in imports_of(module)


def run_fresh(code: str) -> subprocess.CompletedProcess:
    """Run `code` in a new interpreter from the project root, so nothing this
    test session already imported can hide or fake an import."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=300)


def imported_top_level(stdout: str) -> tuple[set[str], set[str]]:
    """(top-level package names, full module names) from the JSON list printed last."""
    modules = json.loads(stdout.strip().splitlines()[-1])
    return {name.split(".")[0] for name in modules}, set(modules)


def test_core_imports_no_rendering_or_cli_code():
    result = run_fresh("""
        import json, sys
        import generator.core.errors, generator.core.loading, generator.core.validation, generator.core.paths
        import generator.systems
        import generator.systems.sixes.rules
        import generator.systems.sixes.dataset
        import generator.systems.i6.odds, generator.systems.i6.combat, generator.systems.i6.dataset
        import generator.game.load, generator.game.settings, generator.game.casting
        from generator.core.paths import DEFAULT_DATA_DIR
        loaded, problems = generator.game.load.load_all(DEFAULT_DATA_DIR)
        assert [item.system.slug for item in loaded] == [s.slug for s in generator.systems.SYSTEMS], loaded
        assert len(loaded[0].game.cast) > 0
        print(json.dumps(sorted(sys.modules)))
    """)
    assert result.returncode == 0, result.stderr
    top_level, modules = imported_top_level(result.stdout)
    # The listing is real: the core and its own dependencies are in it.
    assert {"generator.systems.sixes.rules", "generator.systems.sixes.dataset", "generator.game.load"} <= modules
    assert {"pydantic", "yaml"} <= top_level
    leaked = sorted(top_level & set(RENDERING_AND_CLI))
    assert leaked == [], f"the core imported {leaked}"


def test_cli_help_does_not_import_weasyprint_or_mkdocs():
    result = run_fresh("""
        import json, sys
        import generator.commands.cli
        before = sorted(sys.modules)
        try:
            generator.commands.cli.main(["--help"], prog_name="sixes")
        except SystemExit as exc:
            assert exc.code == 0, exc.code
        print(json.dumps([before, sorted(sys.modules)]))
    """)
    assert result.returncode == 0, result.stderr
    assert "Usage: sixes" in result.stdout
    before, after = json.loads(result.stdout.strip().splitlines()[-1])
    assert "generator.commands.cli" in before and "click" in before
    for stage, modules in (("import generator.commands.cli", before), ("sixes --help", after)):
        assert "weasyprint" not in modules, f"{stage} imported weasyprint"
        assert "mkdocs" not in modules, f"{stage} imported mkdocs"


@pytest.mark.skipif(not SHARED_DIR.is_dir(), reason="../shared (the rules sources and tools) is absent")
def test_no_file_repeats_a_rules_source_word_for_word():
    result = subprocess.run([sys.executable, str(SEED_OVERLAP), str(PROJECT_ROOT)], cwd=PROJECT_ROOT,
                            capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0 and output == "", f"seed-overlap exit {result.returncode}:\n{output}"
