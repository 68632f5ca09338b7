"""No import cycle in generator/.

Two modules that import each other work only while the order of their first
imports happens to suit them, and neither can be read (or moved) alone. The
graph is built from the source with ast: every import, at a module's top or
inside a function (lazy imports run too, only later), except those under
`if TYPE_CHECKING:`, which never run. `from package import name` is an edge
to the module `package.name` when there is one, else to the package.
"""
from __future__ import annotations

import ast
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "generator"

Graph = dict[str, dict[str, int]]       # module -> {module it imports: line of the first such import}


def modules_under(root: Path, package: str) -> dict[str, Path]:
    """Every module of `package` (a folder under `root`) by its dotted name."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _running_nodes(node: ast.AST):
    """Every node below `node` that can run: the body of `if TYPE_CHECKING:` is left out, its else kept."""
    for child in ast.iter_child_nodes(node):
        kept = child.orelse if isinstance(child, ast.If) and _type_checking(child) else [child]
        for each in kept:
            yield each
            yield from _running_nodes(each)


def _targets(node: ast.AST, package: str, known: dict[str, Path]) -> list[str]:
    """The modules of the package an import statement loads (None of another package's)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    found = []
    for alias in node.names:
        if f"{base}.{alias.name}" in known:
            found.append(f"{base}.{alias.name}")
        elif base in known:
            found.append(base)
    return found


def import_graph(root: Path, package: str = PACKAGE) -> Graph:
    known = modules_under(root, package)
    graph: Graph = {}
    for name, path in known.items():
        home = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in _running_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node, home, known):
                if target != name:
                    edges.setdefault(target, getattr(node, "lineno", 0))
        graph[name] = edges
    return graph


def find_cycle(graph: Graph) -> list[str]:
    """One cycle of the graph as [a, b, ..., a], or [] when there is none (depth first, iterative)."""
    state: dict[str, str] = {}          # "open" while on the path, "done" once every edge out is seen
    for start in sorted(graph):
        if start in state:
            continue
        path, todo = [start], [iter(sorted(graph[start]))]
        state[start] = "open"
        while todo:
            following = next(todo[-1], None)
            if following is None:
                state[path.pop()] = "done"
                todo.pop()
            elif state.get(following) == "open":
                return path[path.index(following):] + [following]
            elif following not in state:
                state[following] = "open"
                path.append(following)
                todo.append(iter(sorted(graph.get(following, {}))))
    return []


def described(cycle: list[str], graph: Graph) -> str:
    return "import cycle: " + " -> ".join(
        f"{here} (line {graph[here][there]})" for here, there in zip(cycle, cycle[1:], strict=False)) + \
        f" -> {cycle[-1]}"


def test_generator_has_no_import_cycle():
    graph = import_graph(PROJECT_ROOT)
    # The graph is real: a top-level import and a lazy one (inside render_checked) are in it.
    assert "generator.render.pdf.weasy" in graph["generator.render.pdf.batch"]
    assert "generator.render.pdf.batch" in graph["generator.render.pdf.jobs"]
    cycle = find_cycle(graph)
    assert cycle == [], described(cycle, graph)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_lazy_import_cycle_is_found_and_named(tmp_path):
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/floor/__init__.py": "",
        "pkg/floor/a.py": "from .b import thing\n",
        "pkg/floor/b.py": "import os\n\n\ndef thing():\n    from . import c\n    return c\n",
        "pkg/floor/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nfrom ..floor import a\n",
    })
    graph = import_graph(tmp_path, "pkg")
    cycle = find_cycle(graph)
    assert cycle == ["pkg.floor.a", "pkg.floor.b", "pkg.floor.c", "pkg.floor.a"]
    assert described(cycle, graph) == ("import cycle: pkg.floor.a (line 1) -> pkg.floor.b (line 5) -> "
                                       "pkg.floor.c (line 4) -> pkg.floor.a")


def test_an_import_for_the_type_checker_alone_is_no_cycle(tmp_path):
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import B\n",
        "pkg/b.py": ("from __future__ import annotations\nimport typing\n"
                     "if typing.TYPE_CHECKING:\n    from pkg.a import A\nelse:\n    import json\nB = 1\n"),
    })
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.a"] == {"pkg.b": 1} and graph["pkg.b"] == {}
    assert find_cycle(graph) == []
