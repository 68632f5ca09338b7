"""Structure trees kept through a merge of our own tagged PDFs.

Edge layer; imports pypdf only, and reads and writes no file (`merge` in
render/pack/assembly.py hands it the PDFs it read). pypdf's `append` copies pages but not the structure tree a
tagged PDF hangs on them (nor the pages' /StructParents), so a merged
envelope or GM pack would lose every heading, table and alternative text.
WeasyPrint builds one subtree per page under its /Document element, each
naming its page (/Pg); a merge copies the subtrees of the pages it took,
points them at the copied pages, and rebuilds the parent tree (the map from
each page's marked content back to its element) with keys of its own.

What is not ours stays as it is: a handout's pages join with no structure
(an organiser's PDF has its own kind of tree, or none), and a stamp laid
over a page (a player's name) is marked as an artifact, not read aloud.
"""
from __future__ import annotations

from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (ArrayObject, BooleanObject, ContentStream, DecodedStreamObject, DictionaryObject,
                           IndirectObject, NameObject, NullObject, NumberObject)

from .pdf_ua import xmp_metadata


class TaggedMerge:
    """The structure tree of a PDF being merged by a pypdf PdfWriter."""

    def __init__(self, writer: PdfWriter) -> None:
        self.writer = writer
        self.document: Any = DictionaryObject({NameObject("/Type"): NameObject("/StructElem"),
                                          NameObject("/S"): NameObject("/Document"),
                                          NameObject("/K"): ArrayObject()})
        self.document_ref = writer._add_object(self.document)
        self.nums = ArrayObject()       # the parent tree: key, value, key, value...
        self.next_key = 0
        self.tagged = False             # whether any tagged PDF went in

    def add(self, reader: PdfReader, first: int, start: int, stop: int) -> bool:
        """Copy the subtrees of `reader`'s pages start..stop-1, which
        `writer.append` has just copied to pages first, first + 1...;
        returns whether `reader` was tagged the way WeasyPrint tags."""
        catalog: Any = reader.trailer["/Root"]
        tree = catalog.get("/StructTreeRoot")
        if tree is None:
            return False
        pages = {_number(reader.pages[i]): (reader.pages[i], self.writer.pages[first + i - start])
                 for i in range(start, stop)}
        marks: dict[int, dict[int, IndirectObject]] = {}     # new page's object number: MCID: element
        for document in _kids(tree.get_object()):
            for kid in _kids(document.get_object()):
                page: Any = kid.get_object().raw_get("/Pg")
                if page is not None and page.idnum in pages:
                    self.document["/K"].append(self._copy(kid.get_object(), self.document_ref, pages, marks))
        self._copy_orphans(tree.get_object(), pages, marks)
        for _, new_page in pages.values():
            found = marks.get(_number(new_page), {})
            new_page[NameObject("/StructParents")] = NumberObject(self._key(
                ArrayObject(found.get(mcid, NullObject()) for mcid in range(max(found, default=-1) + 1))))
        self.tagged = True
        return True

    def _copy_orphans(self, tree: Any, pages: dict[int, tuple[Any, Any]],
                      marks: dict[int, dict[int, IndirectObject]]) -> None:
        """WeasyPrint maps a page margin's marked content (running title,
        page number) to elements outside the reading order (children of
        nothing): copy those the same way, mapped but unread, so the merged
        page is what the document rendered whole was."""
        nums = tree.get("/ParentTree", DictionaryObject()).get("/Nums", ArrayObject())
        keyed = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        for source_page, page in pages.values():
            done = marks.get(_number(page), {})
            source_marks = keyed.get(int(source_page.get("/StructParents", -1)))
            for mcid, element in enumerate(source_marks if isinstance(source_marks, ArrayObject) else []):
                if mcid in done or not hasattr(element, "idnum"):
                    continue
                top = element.get_object()      # up to the element the Document does not list
                while top.get("/P") is not None and top["/P"].get("/S") not in ("/Document", None):
                    top = top["/P"]
                self._copy(top, self.document_ref, pages, marks)
                done = marks.get(_number(page), {})

    def _key(self, value: Any) -> int:
        key, self.next_key = self.next_key, self.next_key + 1
        self.nums.extend([NumberObject(key), value])
        return key

    def _copy(self, element: DictionaryObject, parent: IndirectObject, pages: dict[int, tuple[Any, Any]],
              marks: dict[int, dict[int, IndirectObject]]) -> IndirectObject:
        """A copy of one structure element and everything under it."""
        new = DictionaryObject()
        ref = self.writer._add_object(new)
        own_page: Any = element.raw_get("/Pg")
        source_page, page = pages[own_page.idnum]
        for key, value in element.items():
            if key not in ("/P", "/Pg", "/K"):
                new[NameObject(key)] = value.clone(self.writer)
        new[NameObject("/P")], new[NameObject("/Pg")] = parent, page.indirect_reference
        kids = ArrayObject()
        for kid in _kids(element):
            if isinstance(kid, int):                        # marked content on the element's page
                kids.append(NumberObject(kid))
                marks.setdefault(_number(page), {})[int(kid)] = ref
            elif kid.get_object().get("/Type") == "/OBJR":  # a link or form field: its annotation
                kids.append(self._annotation(kid.get_object(), ref, source_page, page))
            elif kid.get_object().raw_get("/Pg") is not None and kid.get_object().raw_get("/Pg").idnum in pages:
                kids.append(self._copy(kid.get_object(), ref, pages, marks))
        new[NameObject("/K")] = kids
        return ref

    def _annotation(self, reference: DictionaryObject, element: IndirectObject, source_page: Any,
                    page: Any) -> DictionaryObject:
        """The copied page's annotation in the place of the source's, keyed to its element."""
        wanted = reference.raw_get("/Obj").idnum
        index = next(i for i, a in enumerate(source_page["/Annots"]) if a.idnum == wanted)
        annotation = page["/Annots"][index]
        annotation.get_object()[NameObject("/StructParent")] = NumberObject(self._key(element))
        return DictionaryObject({NameObject("/Type"): NameObject("/OBJR"), NameObject("/Obj"): annotation,
                                 NameObject("/Pg"): page.indirect_reference})

    def finish(self, title: str) -> None:
        """Hang the tree on the catalog, marked and identified as PDF/UA-1;
        nothing when no tagged PDF went in (an --untagged build's)."""
        if not self.tagged:
            return
        root = DictionaryObject({
            NameObject("/Type"): NameObject("/StructTreeRoot"), NameObject("/K"): ArrayObject([self.document_ref]),
            NameObject("/ParentTree"): self.writer._add_object(DictionaryObject({NameObject("/Nums"): self.nums})),
            NameObject("/ParentTreeNextKey"): NumberObject(self.next_key)})
        root_ref = self.writer._add_object(root)
        self.document[NameObject("/P")] = root_ref
        catalog = self.writer._root_object
        catalog[NameObject("/StructTreeRoot")] = root_ref
        catalog[NameObject("/MarkInfo")] = DictionaryObject({NameObject("/Marked"): BooleanObject(True)})
        metadata = DecodedStreamObject()
        metadata.set_data(xmp_metadata(title))
        metadata.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
        catalog[NameObject("/Metadata")] = self.writer._add_object(metadata)


def as_artifact(page: Any) -> Any:
    """A copy of a stamp page (in a scratch writer of its own) whose content
    is one artifact, its own marks taken out: an overlay's marked content
    would point into another document's structure tree."""
    scratch = PdfWriter()
    copy = scratch.add_page(page)
    content = ContentStream(copy.get_contents(), scratch)
    kept = [(operands, op) for operands, op in content.operations if op not in (b"BDC", b"BMC", b"EMC")]
    content.operations = [([NameObject("/Artifact")], b"BMC"), *kept, ([], b"EMC")]
    copy.replace_contents(content)
    return copy


def _number(page: Any) -> int:
    """A page's object number: what a structure element's /Pg names."""
    return int(page.indirect_reference.idnum)


def _kids(element: DictionaryObject) -> list[Any]:
    kids = element.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, ArrayObject) else [kids]
