"""Our own check that no heading of a tagged PDF is empty (PDF/UA-1 7.4),
held while the `pdfua` package's rule UA-14-001 cannot run on our files.

pdfua 0.1.3's `as_integer` asks `getattr(value, "is_integer", False)` of
every kid of a heading; on a pikepdf Array (a heading whose /K lists its
kids, as WeasyPrint writes every heading) pikepdf answers with ValueError
instead of AttributeError, so the rule stops and reports itself skipped.
tests/pdfua_upstream.md is the report to send. This check walks the
structure tree itself: a heading (/H, /H1 to /H6) is empty unless one of its
marked-content items (an MCID, on the element's page or its MCR's) draws
text with a non-empty string.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf

HEADINGS = {"/H", "/H1", "/H2", "/H3", "/H4", "/H5", "/H6"}
_SHOWS_TEXT = {"Tj", "TJ", "'", '"'}


def _drawn(operands) -> bool:
    """A text operator's operands hold a string with something in it."""
    for operand in operands:
        if isinstance(operand, pikepdf.String) and len(bytes(operand)) > 0:
            return True
        if isinstance(operand, pikepdf.Array) and _drawn(list(operand)):
            return True
    return False


def _texts_by_mcid(page: pikepdf.Page) -> set[int]:
    """The MCIDs of a page whose marked content draws text."""
    drawn: set[int] = set()
    stack: list[int | None] = []
    for instruction in pikepdf.parse_content_stream(page):
        operands, operator = instruction.operands, instruction.operator
        name = str(operator)
        if name == "BDC":
            props = operands[1] if len(operands) > 1 else None
            mcid = props.get("/MCID") if isinstance(props, pikepdf.Dictionary) else None
            stack.append(int(mcid) if mcid is not None else None)
        elif name == "BMC":
            stack.append(None)
        elif name == "EMC" and stack:
            stack.pop()
        elif name in _SHOWS_TEXT and _drawn(operands):
            drawn.update(m for m in stack if m is not None)
    return drawn


def _marked(node, page, found: list[tuple[object, int]]) -> None:
    """Every (page, MCID) a structure element reaches, through its kids."""
    if isinstance(node, pikepdf.Array):
        for kid in node:
            _marked(kid, page, found)
        return
    if isinstance(node, int) or (isinstance(node, pikepdf.Object) and node._type_code == pikepdf.ObjectType.integer):
        found.append((page, int(node)))
        return
    if not isinstance(node, pikepdf.Dictionary):
        return
    page = node.get("/Pg", page)
    if node.get("/Type") == pikepdf.Name("/MCR"):
        found.append((page, int(node["/MCID"])))
        return
    if "/K" in node:
        _marked(node["/K"], page, found)


def empty_headings(path: Path) -> list[str]:
    """'/H2 on page 3' for each heading that draws no text."""
    empty: list[str] = []
    with pikepdf.open(path) as pdf:
        root = pdf.Root.get("/StructTreeRoot")
        if root is None:
            return ["no structure tree"]
        numbers: dict[Any, int] = {page.objgen: n for n, page in enumerate(pdf.pages, 1)}
        drawn = {page.objgen: _texts_by_mcid(page) for page in pdf.pages}
        stack = [root.get("/K")]
        while stack:
            node = stack.pop()
            if isinstance(node, pikepdf.Array):
                stack.extend(node)
                continue
            if not isinstance(node, pikepdf.Dictionary) or "/S" not in node:
                continue
            if str(node["/S"]) in HEADINGS:
                items: list[tuple[Any, int]] = []
                _marked(node.get("/K"), node.get("/Pg"), items)
                if not any(p is not None and mcid in drawn.get(p.objgen, set()) for p, mcid in items):
                    where = node.get("/Pg")
                    page_number = numbers.get(where.objgen) if where is not None else None
                    empty.append(f"{node['/S']} on page {page_number or '?'}")
            if "/K" in node:
                stack.append(node["/K"])
    return empty
