"""A reprint's files: only the pages, cards and labels that changed, and the GM's list.

Edge layer, in the pack room, beside assembly.py (whose merge it uses). The
reprint (game/reprint.py) says which parts of which envelope to print
again; this makes the documents for them from the pack's plan: a covers
document and a name-stamp document holding only the changed envelopes'
pages, a card sheet per run group holding only the changed cards (as few
sheets as the card size's grid allows), labels and badges of the changed
envelopes from the first place on a fresh sheet, and every changed sheet,
packet page and summary whole. Then it merges the pages in envelope order
into `reprint-pages.pdf` and writes the reprint sheet (`reprint.pdf`) and the
new pack's stuffing list marking each part kept, replaced or new.
"""
from __future__ import annotations

import csv
import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...core.i18n import _
from ...core.paper import Paper
from ...game.pack_plan import LABEL_STOCK, PackPlan
from ...game.pack_record import card_ids, doc_id, run_cards
from ...game.reprint import PAGES, Reprint, Sheets, Step, step_lines
from ...systems.base import Card, Document
from .assembly import Part, Piece, SourcePdfs, merge, spreadsheet_safe

PAGES_FILE, CARDS_FILE, LABELS_FILE, BADGES_FILE, SHEET_FILE, COVERS_FILE = (
    "reprint-pages.pdf", "reprint-cards.pdf", "reprint-labels.pdf", "reprint-badges.pdf", "reprint.pdf",
    "reprint-covers.pdf")


@dataclass
class ReprintDocs:
    """What a reprint renders: the subsets, and each whole document by its part id."""

    covers: Document | None = None
    stamps: Document | None = None
    labels: Document | None = None
    badges: Document | None = None
    cards: list[Document] = dataclasses.field(default_factory=list)
    whole: dict[str, Document] = dataclasses.field(default_factory=dict)

    def all(self) -> list[Document]:
        found = [self.covers, self.stamps, self.labels, self.badges, *self.cards, *self.whole.values()]
        return [d for d in found if d is not None]


def _numbers(reprint: Reprint, kind: str) -> list[int]:
    return [s.number for s, c in reprint.printed(kind) if s.number is not None]


def reprint_documents(plan: PackPlan, reprint: Reprint, paper: Paper, badges_per_sheet: int) -> ReprintDocs:
    """The documents a reprint renders, made from the pack's own."""
    docs = ReprintDocs()
    if numbers := _numbers(reprint, "cover"):
        pages = [p for p in plan.covers.context["pages"] if p["envelope"].number in numbers]
        sheets = [pages[k:k + 2] for k in range(0, len(pages), 2)] if plan.choices.half_covers else []
        docs.covers = dataclasses.replace(plan.covers, slug="reprint-covers",
                                          context={**plan.covers.context, "pages": pages, "sheets": sheets},
                                          max_pages=len(sheets) if sheets else len(pages))
    if plan.stamps is not None and (numbers := _numbers(reprint, "stamp")):
        stamped = [e for e in plan.stamps.context["envelopes"] if e.number in numbers]
        docs.stamps = dataclasses.replace(plan.stamps, slug="reprint-name-stamps",
                                          context={**plan.stamps.context, "envelopes": stamped}, max_pages=len(stamped))
    label_doc = plan.label_docs.get(paper)
    if label_doc is not None and (numbers := _numbers(reprint, "label")):
        docs.labels = _labels(label_doc, [e for e in plan.envelopes if e.number in numbers], paper)
    badge_doc = plan.badge_docs.get(paper)
    if badge_doc is not None and (names := [s.character for s, _c in reprint.printed("badge")]):
        badges = [b for sheet in badge_doc.context["sheets"] for b in sheet if b.get("name") in names]
        sheets = [badges[k:k + badges_per_sheet] for k in range(0, len(badges), badges_per_sheet)]
        docs.badges = dataclasses.replace(badge_doc, slug=f"reprint-{badge_doc.slug}",
                                          context={**badge_doc.context, "sheets": sheets}, max_pages=len(sheets))
    docs.cards = _cards(plan, reprint)
    by_id = {doc_id(d): d for d in _envelope_documents(plan)}
    for _step, change in reprint.printed():
        if change.kind in ("sheet", "page", "summary") and change.ident in by_id:
            docs.whole[change.ident] = by_id[change.ident]
    return docs


def _envelope_documents(plan: PackPlan) -> list[Document]:
    return [d for e in plan.envelopes for d in ((e.sheet,) if e.sheet else ()) + e.extra] + plan.docs.summaries


def _labels(label_doc: Document, envelopes: list[Any], paper: Paper) -> Document:
    """The changed envelopes' labels, from the first place of a fresh sheet."""
    stock = LABEL_STOCK[paper.name]
    placed = [(e, *stock.origin(k)) for k, e in enumerate(envelopes)]
    sheets = [placed[i:i + stock.per_sheet] for i in range(0, len(placed), stock.per_sheet)]
    return dataclasses.replace(label_doc, slug=f"reprint-{label_doc.slug}",
                               context={**label_doc.context, "sheets": sheets}, max_pages=len(sheets))


def _cards(plan: PackPlan, reprint: Reprint) -> list[Document]:
    """The changed cards, a sheet run per card run group (its context), in envelope order."""
    wanted = {(s.number, c.ident) for s, c in reprint.printed("card")}
    if not wanted:
        return []
    chosen: dict[int, list[Card]] = {}
    runs: dict[int, Document] = {}
    for number, cards in run_cards(plan).items():
        for ident, (run_doc, card) in zip(card_ids(cards), cards, strict=True):
            if (number, ident) in wanted:
                runs[id(run_doc)] = run_doc
                chosen.setdefault(id(run_doc), []).append(card)
    return [dataclasses.replace(runs[key], slug=f"reprint-cards-{k + 1}", cards=tuple(cards),
                                max_pages=len(cards))
            for k, (key, cards) in enumerate(chosen.items())]


Rendered = Mapping[str, tuple[Path, Part]]     # a reprint document's folder/slug -> its file and page count


def _key(doc: Document) -> str:
    return f"{doc.folder}/{doc.slug}"


def page_pieces(plan: PackPlan, reprint: Reprint, docs: ReprintDocs, rendered: Rendered
                ) -> list[tuple[Step, list[Piece]]]:
    """Each envelope's pages to print, in envelope order: its cover, name
    stamp, then its sheet, packet pages, summaries and handouts as the envelope holds them."""
    covers = _numbers(reprint, "cover") if docs.covers is not None and not plan.choices.half_covers else []
    stamps = _numbers(reprint, "stamp") if docs.stamps is not None else []
    handouts = {e.number: dict((p.name, (p, name)) for p, name in e.titled_handouts()) for e in plan.envelopes}
    found = []
    for step in reprint.steps:
        pieces = []
        for change in step.printed:
            if change.kind not in PAGES or step.number is None:
                continue
            if change.kind == "cover" and step.number in covers:
                path, _part = rendered[_key(docs.covers)]     # type: ignore[arg-type]
                k = covers.index(step.number)
                pieces.append(Piece(path, Part(_("cover"), 1), (k, k + 1)))
            elif change.kind == "stamp" and step.number in stamps:
                path, _part = rendered[_key(docs.stamps)]     # type: ignore[arg-type]
                k = stamps.index(step.number)
                pieces.append(Piece(path, Part(_("name stamp"), 1), (k, k + 1)))
            elif change.ident in docs.whole:
                path, part = rendered[change.ident]
                pieces.append(Piece(path, Part(change.title, part.pages)))
            elif change.kind == "handout" and change.ident in handouts.get(step.number, {}):
                path, name = handouts[step.number][change.ident]
                pieces.append(Piece(path, Part(change.title, 0), handout=True))
        if pieces:
            found.append((step, pieces))
    return found


def merge_pages(plan: PackPlan, pieces: list[tuple[Step, list[Piece]]], target: Path, sources: SourcePdfs
                ) -> dict[int, tuple[int, int]]:
    """reprint-pages.pdf; returns each envelope's first and last page in it."""
    flat = [p for _step, group in pieces for p in group]
    contents = merge(flat, target, _("{title}: pages to reprint").format(title=plan.title), plan.choices.duplex,
                     sources)
    where, page, k = {}, 1, 0
    for step, group in pieces:
        count = sum(c.pages + c.blank for c in contents[k:k + len(group)])
        where[step.number or 0] = (page, page + count - 1)
        page, k = page + count, k + len(group)
    return where


def sheet_document(plan: PackPlan, paper: Paper, reprint: Reprint, sheets: Sheets,
                   where: Mapping[int, tuple[int, int]], files: list[str]) -> Document:
    """The reprint sheet: envelope by envelope what to take out, put in and set aside."""
    rows = [{"number": s.number, "was": s.was, "label": s.label, "character": s.character,
             "lines": step_lines(s), "pages": where.get(s.number or 0)}
            for s in reprint.steps if s.changes or s.number is None or s.was is None]
    return Document("reprint", _("{title}: what to reprint").format(title=plan.title), "pack/reprint.html", "gm",
                    {"title": plan.title, "paper": paper.label, "since": reprint.since, "rows": rows,
                     "sheets": sheets, "files": files, "options": reprint.options, "nothing": reprint.nothing},
                    max_pages=max(1, math.ceil((len(rows) * 3 + 10) / 40)))


def write_manifest(folder: Path, new_record: Mapping[str, Any], reprint: Reprint) -> None:
    """The new pack's stuffing list, a row a part, each marked kept, replaced or new."""
    marks = {(s.number, c.kind, c.ident): ("replaced" if c.old else "new") if c.action == "print" else c.action
             for s in reprint.steps for c in s.changes}
    with open(folder / "manifest.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["envelope", "player", "character", "part", "reprint"])
        for envelope in new_record["envelopes"]:
            for part in envelope["parts"]:
                mark = marks.get((envelope["number"], part["kind"], part["id"]), "kept")
                writer.writerow([spreadsheet_safe(v) for v in (envelope["number"], envelope["player"],
                                                               envelope["character"], part["title"], mark)])
