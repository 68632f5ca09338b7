"""Joining a long document's rendered parts into one tagged PDF, with pikepdf (qpdf).

Edge layer; imports pikepdf, and reads the parts and writes the joined file
it is given (render/pdf/parts.py decides which). pypdf, which the pack's merges
use (render/pdf/tagged_merge.py), parsed and copied a tagged part's thousands of
structure elements in Python: at 300 characters that was 5 of the 7.5 s a
one-character rebuild took, for two documents of which one part had changed.
qpdf copies another file's objects in C++ and keeps one map per source file,
so a part's structure tree, copied after its pages, already points at the
copied pages and annotations: this module only links the parts' subtrees
under one /Document element and numbers the parent tree again.

The parent tree's keys: page k of the joined file is key k (in page order,
as WeasyPrint numbers a document rendered whole), then each annotation that
belongs to an element, in page order. Page numbers laid over the pages (the
stamp document's) are artifacts, their own marked content taken out, so
nothing of another document's tree is read aloud.

A process that builds again (`--watch`, `serve`, a benchmark) keeps each
document's last join in memory (`_kept`, by the document's label): a part
whose bytes are the same is not parsed or copied again, only linked, so a
one-character edit copies the one part it changed. qpdf numbers the objects
afresh as it writes, in the order it meets them from the catalog, so the
file is the same, byte for byte, as a join from nothing. Not with object
streams: qpdf orders each stream's objects by their numbers in memory, which
depend on what was copied first (a kept join wrote other bytes); without
them the cheat sheet is about 3 times larger (1 MB at 300 characters, as
pypdf wrote it) and written no slower.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import pikepdf
from pikepdf import Array, Dictionary, Name, Pdf

from .pdf_ua import xmp_metadata

_MARKS = ("BDC", "BMC", "EMC")
_NUMBER = Name("/SixesPageNumber")      # the stamp's form, in each page's resources
_REUSED_BEFORE_FRESH = 3                # copies kept per part before a join starts from nothing


@dataclass
class _Part:
    """One part as copied into a kept join: its pages as rendered (before
    stamping), and what of its structure tree the joined tree links."""

    pages: list[Any]
    contents: list[Any]                     # each page's own /Contents
    resources: list[Any]                    # each page's own /Resources
    kids: list[Any]                         # the reading-order subtrees its /Document listed
    orphans: list[Any]                      # elements outside the reading order its /Document parented
    marks: list[Any]                        # per page: its parent tree entry, or None (untagged)
    annotations: list[tuple[Any, Any]]      # (annotation, its element)
    title: str
    language: str | None


@dataclass
class _Joined:
    """A document's join kept in memory: the PDF, and its parts by their bytes."""

    pdf: Pdf = field(default_factory=Pdf.new)
    parts: dict[tuple[str, int], _Part] = field(default_factory=dict)
    copied: int = 0


_kept: dict[str, _Joined] = {}


def join_tagged(parts: Sequence[Path], stamp: Path, target: Path, fallback_language: str, keep: str) -> None:
    """Write `parts` one after another to `target`, each stamp page over its
    page, with one structure tree when the parts are tagged, titled as the
    first part is (each carries the document's <title> and language); under
    a temporary name first, so no half file is left. `keep` names the
    document whose last join this process may start from."""
    joined = _kept.pop(keep, None)
    if joined is None or joined.copied > _REUSED_BEFORE_FRESH * len(parts):
        joined = _Joined()
    wanted = _identities(parts)
    for identity, path in zip(wanted, parts, strict=True):
        if identity not in joined.parts:
            joined.parts[identity] = _copy_part(joined.pdf, path)
            joined.copied += 1
    joined.parts = {identity: joined.parts[identity] for identity in wanted}
    chosen = list(joined.parts.values())
    out = joined.pdf
    with Pdf.open(stamp) as numbers:
        _assemble(out, chosen, numbers)
    language = next((p.language for p in chosen if p.language), fallback_language)
    _describe(out, chosen[0].title, language)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    out.save(partial, min_version="1.7", fix_metadata_version=False,
             object_stream_mode=pikepdf.ObjectStreamMode.disable, deterministic_id=True)
    partial.replace(target)
    _kept[keep] = joined


def _identities(parts: Sequence[Path]) -> list[tuple[str, int]]:
    """Each part by its bytes (and which copy of those bytes, should two parts be alike)."""
    seen: dict[str, int] = {}
    found = []
    for path in parts:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        seen[digest] = seen.get(digest, -1) + 1
        found.append((digest, seen[digest]))
    return found


def _copy_part(out: Pdf, path: Path) -> _Part:
    """Copy one part's pages and structure tree into `out` (not yet in its page tree)."""
    with Pdf.open(path) as source:
        first = len(out.pages)
        out.pages.extend(source.pages)
        pages = [page.obj for page in out.pages[first:]]
        del out.pages[first:]
        part = _Part(pages, [page.get("/Contents") for page in pages], [page.get("/Resources") for page in pages],
                     [], [], [None] * len(pages), [], str(source.docinfo.get("/Title", "")),
                     str(source.Root["/Lang"]) if "/Lang" in source.Root else None)
        tree = source.Root.get("/StructTreeRoot")
        if tree is not None:
            _link(out.copy_foreign(tree), part)     # pages and annotations map to the copies just made
    return part


def _link(tree: Any, part: _Part) -> None:
    """What of a copied part's tree the joined tree needs: the reading-order
    subtrees its /Document lists, the elements outside the reading order
    (page margins' running title) whose parent was that /Document, and the
    parent tree's entry of each page and annotation."""
    keyed = _numbers(tree.get("/ParentTree"))
    for old in _kids(tree):
        if old.get("/S") != Name.Document:
            continue
        part.kids += [kid for kid in _kids(old) if isinstance(kid, Dictionary)]
        old_id, seen = old.objgen, {kid.objgen for kid in part.kids}
        for entry in keyed.values():
            for element in entry if isinstance(entry, Array) else [entry]:
                while isinstance(element, Dictionary) and element.objgen not in seen:     # up to the top
                    seen.add(element.objgen)
                    parent = element.get("/P")
                    if parent is not None and parent.objgen == old_id:
                        part.orphans.append(element)
                    element = parent
    for k, page in enumerate(part.pages):
        part.marks[k] = keyed.get(int(page.get("/StructParents", -1)), Array())
        for annotation in page.get("/Annots", Array()):
            if "/StructParent" in annotation:
                part.annotations.append((annotation, keyed.get(int(annotation.StructParent))))


def _assemble(out: Pdf, parts: list[_Part], numbers: Pdf) -> None:
    """The page tree, the stamped numbers and the structure tree of `parts`, in order."""
    del out.pages[:]
    for part in parts:
        for page in part.pages:
            out.pages.append(pikepdf.Page(page))
    tagged = any(m is not None for part in parts for m in part.marks)
    opening = out.make_stream(b"q\n")
    pages = [(page, contents, resources) for part in parts
             for page, contents, resources in zip(part.pages, part.contents, part.resources, strict=True)]
    for (page, contents, resources), number in zip(pages, numbers.pages, strict=True):     # a number each
        _stamp(out, page, contents, resources, number, opening, tagged)
    if "/StructTreeRoot" in out.Root:
        del out.Root.StructTreeRoot
    if tagged:
        _hang(out, parts)


def _stamp(out: Pdf, page: Any, contents: Any, resources: Any, number: Any, opening: Any, tagged: bool) -> None:
    """Lay a stamp page over `page` as it was rendered, as one artifact
    without marks of its own when tagged."""
    form = out.copy_foreign(number.as_form_xobject())
    if tagged:
        kept = [op for op in pikepdf.parse_content_stream(form) if str(op.operator) not in _MARKS]
        form.write(pikepdf.unparse_content_stream(kept))
    drawn = b"q " + str(_NUMBER).encode("ascii") + b" Do Q"
    closing = out.make_stream(b"\nQ\n" + (b"/Artifact BMC " + drawn + b" EMC\n" if tagged else drawn + b"\n"))
    own = list(contents) if isinstance(contents, Array) else [] if contents is None else [contents]
    page.Contents = Array([opening, *own, closing])
    fresh, xobjects = _shallow(resources), _shallow(resources.get("/XObject") if resources is not None else None)
    xobjects[_NUMBER] = form
    fresh.XObject = xobjects
    page.Resources = fresh


def _shallow(dictionary: Any) -> Dictionary:
    """A new dictionary of the same entries (the page's own is left as rendered)."""
    return Dictionary({key: dictionary[key] for key in dictionary.keys()}) if dictionary is not None else Dictionary()


def _hang(out: Pdf, parts: list[_Part]) -> None:
    """The joined structure tree, its parent tree keyed anew, on the catalog."""
    document = out.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, K=Array()))
    nums, key, annotations = Array(), 0, []
    for part in parts:
        for element in part.kids + part.orphans:
            element.P = document
        document.K.extend(part.kids)
        annotations += part.annotations
        for page, marks in zip(part.pages, part.marks, strict=True):
            if marks is not None:
                page.StructParents = key
                nums.extend(Array([key, marks]))
            elif "/StructParents" in page:
                del page.StructParents
            key += 1
    for annotation, element in annotations:
        annotation.StructParent = key
        nums.extend(Array([key, element]))
        key += 1
    root = out.make_indirect(Dictionary(Type=Name.StructTreeRoot, K=Array([document]),
                                        ParentTree=out.make_indirect(Dictionary(Nums=nums)),
                                        ParentTreeNextKey=key))
    document.P = root
    out.Root.StructTreeRoot = root
    out.Root.MarkInfo = Dictionary(Marked=True)


def _describe(out: Pdf, title: str, language: str) -> None:
    """The title and language every PDF we make carries, shown by viewers,
    and PDF/UA-1 declared when tagged."""
    out.docinfo = out.make_indirect(Dictionary(Title=pikepdf.String(title), Producer=pikepdf.String("Sixes Press")))
    out.Root.Lang = pikepdf.String(language)
    out.Root.ViewerPreferences = Dictionary(DisplayDocTitle=True)
    if "/StructTreeRoot" in out.Root:
        metadata = out.make_stream(xmp_metadata(title))
        metadata.Type, metadata.Subtype = Name.Metadata, Name.XML
        out.Root.Metadata = metadata
    elif "/Metadata" in out.Root:
        del out.Root.Metadata


def _numbers(tree: Any) -> dict[int, Any]:
    """A number tree (the parent tree) as a dict, its /Kids followed."""
    found: dict[int, Any] = {}
    if tree is None:
        return found
    nums = tree.get("/Nums", Array())
    for i in range(0, len(nums) - 1, 2):
        found[int(nums[i])] = nums[i + 1]
    for kid in tree.get("/Kids", Array()):
        found.update(_numbers(kid))
    return found


def _kids(element: Any) -> list[Any]:
    kids = element.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, Array) else [kids]
