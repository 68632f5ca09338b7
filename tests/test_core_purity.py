"""Layering and originality checks that need a fresh interpreter or an outside tool.

- The core (loading, validation, the Sixes rules and dataset) pulls in no
  rendering or command-line library, even after loading the example data.
- `sixes --help` stays instant because WeasyPrint and MkDocs load lazily.
- No project file repeats a rules source word for word (../shared/tools/seed-overlap).
"""
from __future__ import annotations

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


def run_fresh(code: str) -> subprocess.CompletedProcess:
    """Run `code` in a new interpreter from the project root, so nothing this
    test session already imported can hide or fake an import."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=120)


def imported_top_level(stdout: str) -> tuple[set[str], set[str]]:
    """(top-level package names, full module names) from the JSON list printed last."""
    modules = json.loads(stdout.strip().splitlines()[-1])
    return {name.split(".")[0] for name in modules}, set(modules)


def test_core_imports_no_rendering_or_cli_code():
    result = run_fresh("""
        import json, sys
        import generator.errors, generator.loading, generator.validation, generator.paths
        import generator.systems
        import generator.systems.sixes.rules
        import generator.systems.sixes.dataset
        import generator.build
        from generator.paths import DEFAULT_DATA_DIR
        loaded, problems = generator.build.load_all(DEFAULT_DATA_DIR)
        assert [item.system.slug for item in loaded][0] == "sixes", loaded
        assert len(loaded[0].game.cast) > 0
        print(json.dumps(sorted(sys.modules)))
    """)
    assert result.returncode == 0, result.stderr
    top_level, modules = imported_top_level(result.stdout)
    # The listing is real: the core and its own dependencies are in it.
    assert {"generator.systems.sixes.rules", "generator.systems.sixes.dataset", "generator.build"} <= modules
    assert {"pydantic", "yaml"} <= top_level
    leaked = sorted(top_level & set(RENDERING_AND_CLI))
    assert leaked == [], f"the core imported {leaked}"


def test_cli_help_does_not_import_weasyprint_or_mkdocs():
    result = run_fresh("""
        import json, sys
        import generator.cli
        before = sorted(sys.modules)
        try:
            generator.cli.main(["--help"], prog_name="sixes")
        except SystemExit as exc:
            assert exc.code == 0, exc.code
        print(json.dumps([before, sorted(sys.modules)]))
    """)
    assert result.returncode == 0, result.stderr
    assert "Usage: sixes" in result.stdout
    before, after = json.loads(result.stdout.strip().splitlines()[-1])
    assert "generator.cli" in before and "click" in before
    for stage, modules in (("import generator.cli", before), ("sixes --help", after)):
        assert "weasyprint" not in modules, f"{stage} imported weasyprint"
        assert "mkdocs" not in modules, f"{stage} imported mkdocs"


@pytest.mark.skipif(not SHARED_DIR.is_dir(), reason="../shared (the rules sources and tools) is absent")
def test_no_file_repeats_a_rules_source_word_for_word():
    result = subprocess.run([sys.executable, str(SEED_OVERLAP), str(PROJECT_ROOT)], cwd=PROJECT_ROOT,
                            capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0 and output == "", f"seed-overlap exit {result.returncode}:\n{output}"
