"""What a game system contributes, described as data.

Core layer: no rendering imports. A system says which documents and pages it
makes (template name, context, audience); the renderer at the edge turns
those descriptions into PDFs and Markdown. Adding a system means adding one
package that exposes a `SYSTEM` (System.of_package) and registering it in
`systems/__init__.py`.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Mapping, Sequence

from ..core.errors import Problem
from ..core.glossary import Glossary
from ..core.memo import Work

if TYPE_CHECKING:
    from pydantic import BaseModel

# Who may see a document: `public` ones are linked from the site; `player`
# and `gm` ones hold secrets and never reach it.
Audience = Literal["public", "player", "gm"]
AUDIENCE_FOLDERS: dict[str, str] = {"public": "public", "player": "players", "gm": "gm"}


# The shared N-up sheet every deck is laid out on (render/pdf/cards.py): a
# Document with `cards` uses it as its template.
CARD_SHEET = "cards/sheet.html"


class Deferred(Mapping[str, Any]):
    """A document context worked out on first read. The build reads each
    document's context as it goes, with earlier documents already rendering,
    so a slow derivation (the Sixes balance report's simulations) overlaps
    the rendering instead of holding it up."""

    def __init__(self, derive: Callable[[], Mapping[str, Any]]):
        self._derive = derive
        self._value: Mapping[str, Any] | None = None

    def _context(self) -> Mapping[str, Any]:
        if self._value is None:
            self._value = self._derive()
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._context()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._context())

    def __len__(self) -> int:
        return len(self._context())


@dataclass(frozen=True)
class Card:
    """One card of a deck. Systems describe a card's face; the shared card
    sheet (render/pdf/cards.py) lays every deck out N-up with cut marks, so all
    systems get the same sizes, marks and backs."""

    label: str                # names the card in lint errors, e.g. "Challenge: The Vault"
    front: str                # template for the face, given the document context plus `card`
    context: Mapping[str, Any] = field(default_factory=dict)
    back: str | None = None   # template for the back, or None for a blank back


@dataclass(frozen=True)
class Document:
    """One PDF to render, once per paper size. A document with `cards` is a
    card sheet: `template` is then the shared sheet and `max_pages` a budget
    for the whole deck."""

    slug: str                 # file name stem, unique within the system
    title: str                # PDF metadata title and progress label
    template: str             # Jinja template under templates/
    audience: Audience
    context: Mapping[str, Any]
    max_pages: int            # the pages it is laid out for
    cards: tuple[Card, ...] = ()
    handouts: tuple[Path, ...] = ()   # PDFs the data gives this (player) document's envelope in a pack
    # Whether its text flows on when the game's runs longer than max_pages plan
    # (render/jobs.Budget): a reference, a sheet. Not where each page is one
    # thing (a cover, a sheet of labels), whose page count is exact.
    flowing: bool = True

    @property
    def folder(self) -> str:
        """Output sub-folder by audience, so an organiser sees at a glance
        which PDFs must never be posted online."""
        return AUDIENCE_FOLDERS[self.audience]


@dataclass(frozen=True)
class Page:
    """One generated site page (Markdown) under the system's section."""

    path: str                 # relative to the system's section, e.g. "actions.md"
    title: str
    template: str
    context: Mapping[str, Any]
    downloads: tuple[str, ...] = ()   # slugs of public documents to link
    shown: bool = True                # False: nothing on it is public, so the site leaves it out


@dataclass(frozen=True)
class CastEntry:
    """One public character on the site's optional cast list (settings
    site.cast_list): only what every player may know. The system picks its
    public characters and their public fields; the site writer prints them."""

    name: str
    faction: str = ""             # a faction, or the short line a system has instead (descriptor, concept)
    description: str = ""         # the public description, never a secret field
    portrait: Path | None = None  # an image file inside the data folder


# The GM's notes on a system's characters (each one's `gm_notes`,
# core/privacy.gm_notes_field): a GM document of its own, so they reach the
# GM pack and never a player's copy of a sheet, nor the site.
GM_NOTES = "gm-notes"
_NOTES_WIDTH_MM, _NOTES_PT, _NOTES_LINES_A_PAGE = 170.0, 11.0, 45


def gm_notes_document(title: str, notes: Sequence[tuple[str, str]]) -> list[Document]:
    """The document of the characters' GM notes, (name, notes) each, in
    the game's order; none when no character has notes."""
    from ..core.i18n import _
    from ..core.measure import line_count
    notes = [(name, text) for name, text in notes if text.strip()]
    if not notes:
        return []
    lines = sum(3 + line_count(text, _NOTES_WIDTH_MM, _NOTES_PT) for _name, text in notes)
    return [Document(GM_NOTES, _("{title}: the GM's notes on the cast").format(title=title), "gm_notes.html", "gm",
                     {"title": title, "notes": notes}, max_pages=1 + lines // _NOTES_LINES_A_PAGE)]


def no_simulations(game: Any) -> Iterable[Work]:
    return ()


@dataclass(frozen=True)
class System:
    slug: str                 # folder name under data/ and the site section
    title: str
    # load(folder, display_root) -> (the game or None, problems). Every
    # system's game has `folder`, `info` (what its game.yaml says: title,
    # blurb, ...) and `rulings`, so shared code reads `game.info.title` alike.
    load: Callable[[Path, Path], tuple[Any, list[Problem]]]
    documents: Callable[[Any], list[Document]]
    pages: Callable[[Any], list[Page]]
    schemas: Mapping[str, type[BaseModel]]   # file kind -> model, for JSON Schema export
    starter: Path                 # a small valid data folder for `sixes new` (English; see starter_in)
    hand_written: tuple[str, ...] = field(default=("index.md",))   # site/<slug>/ pages, in nav order
    summary: str = ""             # one line about the rule system (the site shows the game's pitch)
    # Slow remembered computations the documents will read (memo.Work): the
    # build starts them in its worker pool first, so they run beside the renders.
    simulations: Callable[[Any], Iterable[Work]] = no_simulations
    # The public characters, for the site's cast list; None for a system without characters.
    cast_list: Callable[[Any], Iterable[CastEntry]] | None = None
    # recast(game, slugs): the game with its characters in a casting file's
    # order (their sheets' slugs), the rest after (core/cast_order.py); None
    # for a system without character sheets. A pack makes one envelope per
    # `player` document, in this order (game/pack_plan.py).
    recast: Callable[[Any, Sequence[str]], Any] | None = None
    # The system's words for its ideas, by id (its glossary.py): what a
    # document outside the system (a pack's cover) calls them too.
    glossary: Glossary = field(default_factory=lambda: Glossary({}))

    @classmethod
    def of_package(cls, dataset: ModuleType, outputs: ModuleType, **facts: Any) -> System:
        """A system from the parts every package keeps in the same places:
        `dataset.load_game`, `outputs.documents` and `outputs.pages`, any of
        OPTIONAL_PARTS its outputs define and DATASET_PARTS its dataset defines, and the starter folder beside
        them. `facts` say the rest: slug, title, summary, schemas."""
        optional = {name: getattr(outputs, name) for name in OPTIONAL_PARTS if hasattr(outputs, name)}
        optional |= {name: getattr(dataset, name) for name in DATASET_PARTS if hasattr(dataset, name)}
        return cls(load=dataset.load_game, documents=outputs.documents, pages=outputs.pages,
                   starter=Path(inspect.getfile(dataset)).with_name("starter"), **optional, **facts)


# What a system's outputs module may define beyond documents and pages.
OPTIONAL_PARTS = ("simulations", "cast_list")
# What a system's dataset module may define beyond load_game.
DATASET_PARTS = ("recast",)


def starter_in(system: System, language: str) -> Path:
    """The starter game `sixes new --language` copies: the one written in
    `language` (a `starter-<language>` folder beside the English one, e.g.
    starter-fr, its texts written in that language and its file names the
    same), else the English one."""
    written = system.starter.with_name(f"starter-{language.split('-')[0]}")
    return written if written.is_dir() else system.starter
