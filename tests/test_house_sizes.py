"""The house's sizes: no module in generator/ over 500 lines, no function over 60.

A long module mixes concerns and a long function hides its steps; both
limits are in CONTRIBUTING. Modules are found by walking the package, and
functions (methods and nested functions too) with `ast`: a function's
length runs from its `def` line to its last line, decorators aside.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function in `source` longer than `limit`."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}."
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert child.end_lineno is not None     # set by ast.parse
                length = child.end_lineno - child.lineno + 1
                if length > limit:
                    found.append((name[:-1], length))
            visit(child, name)
    visit(ast.parse(source), "")
    return found


def modules() -> list[tuple[str, str]]:
    """(path under generator/, source) of every module of the package."""
    return [(path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))]


def test_the_measure_counts_from_the_def_line_to_the_last_and_finds_nested_functions_and_methods():
    body = "\n".join(f"    x{n} = {n}" for n in range(59))
    source = textwrap.dedent("""\
        @decorated
        def sixty():
        {body}

        class Host:
            def sixty_one(self):
                x = 0
        {body2}

            def outer(self):
                def inner():
                    y = 0
        {body3}
        """).format(body=body, body2=textwrap.indent(body, "    "), body3=textwrap.indent(body, "        "))
    # sixty: def + 59 lines; Host.sixty_one: def + 60; inner: def + 60, and outer holds it (62).
    assert long_functions(source) == [("Host.sixty_one", 61), ("Host.outer", 62), ("Host.outer.inner", 61)]
    assert long_functions(source, limit=61) == [("Host.outer", 62)]


def test_no_module_is_over_500_lines():
    over = {rel: source.count("\n") + (not source.endswith("\n")) for rel, source in modules()}
    over = {rel: lines for rel, lines in over.items() if lines > MAX_MODULE_LINES}
    assert not over, f"split these by concern (at most {MAX_MODULE_LINES} lines): {over}"


def test_no_function_is_over_60_lines():
    over = [f"{rel}: {name} ({lines} lines)" for rel, source in modules() for name, lines in long_functions(source)]
    assert not over, f"split these into named steps (at most {MAX_FUNCTION_LINES} lines): " + "; ".join(over)


def test_the_package_is_walked_whole():
    """The walk finds every floor and the modules this test was written against."""
    found = {rel for rel, _ in modules()}
    assert {"core/errors.py", "commands/cli.py", "systems/sixes/resolver.py", "render/site/writer.py"} <= found
    assert {rel.split("/")[0] for rel in found} >= {"core", "systems", "game", "render", "commands"}
