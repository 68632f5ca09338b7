"""The casting file: which player gets which character, in envelope order.

Core layer: reads YAML through `loading` and validates with a model, so a
mistake is reported at file:line:column with a did-you-mean, like any data;
pypdf is imported only to measure a handout's pages. `sixes check` and
`sixes pack` both read it in the one gather (gather.py), through
`check_casting`, so a casting file is checked the same way before anything
is printed.

    # casting.yaml, in the game folder (found there), or named with --casting
    system: sixes                        # only needed when the folder holds several games with characters
    envelopes:
      - player: Alex Morgan
        character: Ned Tregarth          # the character's name or its file name
        handouts: [handouts/map.pdf]     # optional PDFs, relative to the game folder (core/game_paths.py)
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Iterable, Mapping

from pydantic import Field

from ..core import naming
from ..core.assets import asset_fault
from ..core.errors import Problem, close_matches, did_you_mean
from ..core.game_paths import RULE, PathFault, game_path
from ..core.glyphs import unprintable_text
from ..core.loading import YamlDocument, load_yaml
from ..core.paper import PAPERS, Paper
from ..core.text import FILE_NAME
from ..core.validation import DataModel, validate
from ..systems.base import Document, System

CASTING_FILE = "casting.yaml"
# Sizes a handout may have besides the papers (core/paper.py), in millimetres,
# portrait. A page within TOLERANCE_MM of a size (either way up) is that size.
OTHER_SIZES_MM = {"A5": (148.0, 210.0), "A3": (297.0, 420.0), "US Legal": (215.9, 355.6)}
TOLERANCE_MM = 2.0
# Enough PDFs to suggest a near miss from; a game folder holding more is searched no further.
MAX_SUGGESTED = 5000
# The most envelopes one pack holds (--players, or a casting file's entries).
# Each is printed and stuffed by hand: 500 is a large convention's worth. A
# pack is merged envelope by envelope, about a second for ten, so this keeps
# it to minutes; a bigger event is packed as several games.
MAX_ENVELOPES = 500
ENVELOPES_CEILING = f"a pack holds at most {MAX_ENVELOPES} envelopes, each printed and stuffed by hand"
MAX_HANDOUTS = 50               # in one envelope


class Role(DataModel):
    player: str = Field(min_length=1, description="The player's name, as written on the envelope.")
    character: str = Field(min_length=1, description="A character's name, or its file name without .yaml.")
    handouts: Annotated[list[str], FILE_NAME] = Field(default_factory=list, max_length=MAX_HANDOUTS,
                                description="PDF files for this envelope, relative to the game folder.")


class CastingFile(DataModel):
    system: str | None = Field(default=None, description=(
        "The game these envelopes are for (its folder name, e.g. sixes); needed only when the game folder "
        "holds more than one game with characters."))
    envelopes: list[Role] = Field(min_length=1, max_length=MAX_ENVELOPES,
                                  description="One entry per envelope, in the order to stuff them.")


@dataclass(frozen=True)
class Casting:
    player: str
    slug: str | None               # the character's document slug; None when characters were not checked
    handouts: tuple[Path, ...]
    at: tuple[str, int, int] = ("", 0, 0)   # file, line, column of its handouts (else its entry), for a pack's problems
    player_at: tuple[str, int, int] = ("", 0, 0)    # file, line, column of its player's name


@dataclass(frozen=True)
class CastingCheck:
    """What a casting file says once checked: the game it is for (None when
    that could not be told), its roles in envelope order, and every problem."""

    system: str | None
    roles: list[Casting]
    problems: list[Problem]


def find_casting(game_dir: Path) -> Path | None:
    """The game folder's own casting file, if it has one."""
    path = Path(game_dir) / CASTING_FILE
    return path if path.is_file() else None


def found_as(game_dir: Path) -> str:
    """How problems name a casting file found in the game folder: like the
    game's data files, from the folder holding the game ('mygame/casting.yaml')."""
    return f"{Path(game_dir).resolve().name}/{CASTING_FILE}"


def check_casting(path: Path, games: Mapping[str, Mapping[str, str] | None], game_dir: Path,
                  papers: Iterable[Paper] = (), *, shown: str | None = None, present: Iterable[str] = (),
                  skip: Iterable[Path] = (), packing: str | None = None) -> CastingCheck:
    """Check a casting file against the games it may be for.

    `games` maps each game (system slug) with characters to its characters'
    names and document slugs, or to None when that game's data did not load
    (its characters cannot be checked, everything else is). `present` lists
    every game in the folder, for a `system:` naming one without characters.
    Handouts are PDF files inside `game_dir` (not inside `skip`, the output),
    named relative to it; one whose pages are not of every paper in `papers`
    is a warning. `packing` is the game a pack is being made of: a casting
    whose `system:` names another is refused."""
    shown = shown or str(path)
    doc, problems = load_yaml(path, shown)
    if doc is None:
        return CastingCheck(None, [], problems)
    model, found = validate(CastingFile, doc)
    problems.extend(found)
    if model is None:
        return CastingCheck(None, [], problems)
    problems.extend(unprintable_text([doc]))        # players' names go onto envelope covers and labels
    system, found = _choose_game(doc, model, games, list(present), packing)
    problems.extend(found)
    characters = games.get(system) if system else None
    if system is not None and characters is None:
        problems.append(doc.problem((), f"characters not checked: the {system} game's data has errors",
                                    hint="fix those, then check again", severity="warning"))
    roles = _resolve(doc, model, characters, problems)
    handouts = _check_handouts(doc, model, Path(game_dir), tuple(papers), [Path(s) for s in skip], problems)
    return CastingCheck(system, [Casting(role.player, slug, handouts[i],
                                         (doc.display, *doc.position(("envelopes", i, "handouts") if role.handouts
                                                                     else ("envelopes", i))),
                                         (doc.display, *doc.position(("envelopes", i, "player"))))
                                 for i, (role, slug) in enumerate(zip(model.envelopes, roles, strict=True))], problems)


def load_casting(path: Path, characters: Mapping[str, str], game_dir: Path | tuple[Path, ...],
                 papers: Iterable[Paper] = (), *, system: str = "game", skip: Iterable[Path] = ()
                 ) -> tuple[list[Casting], list[Problem]]:
    """The casting of one game, as `sixes pack` reads it: `characters` maps
    each character's name to its document slug. A `system:` in the file must
    name this game. (`game_dir` may be given as a tuple, the older form: its
    first entry is the game folder.)"""
    if isinstance(game_dir, tuple):
        game_dir = game_dir[0]
    checked = check_casting(path, {system: characters}, game_dir, papers, present=[system], skip=skip)
    return checked.roles, checked.problems


def _choose_game(doc: YamlDocument, model: CastingFile, games: Mapping[str, Mapping[str, str] | None],
                 present: list[str], packing: str | None = None) -> tuple[str | None, list[Problem]]:
    """The game a casting file is for: the one its `system:` names, the only
    one with characters, or the one whose characters it names (most of them)."""
    if packing is not None and model.system not in (None, packing) and model.system in present:
        return None, [doc.problem(("system",), f"this casting is for {model.system}, but the pack is of {packing}",
                                  hint=f"pack with --system {model.system}, or pass the casting file of {packing}")]
    if model.system is not None:
        if model.system in games:
            return model.system, []
        if model.system in present:
            return None, [doc.problem(("system",), f"the {model.system} game has no characters to cast",
                                      hint="cast a game with character sheets: " + ", ".join(games)
                                      if games else "this folder has no game with characters")]
        return None, [doc.problem(("system",), f"no game '{model.system}' in this folder",
                                  hint=did_you_mean(model.system, list(games)) or
                                  ("the games with characters here: " + ", ".join(games) if games
                                   else "this folder has no game with characters"))]
    if len(games) == 1:
        return next(iter(games)), []
    if not games:
        return None, [doc.problem((), "this folder has no game with characters to cast",
                                  hint="a casting file is for games with character sheets (sixes, six-shooter, i6)")]
    wanted = {naming.slug(role.character) for role in model.envelopes}
    named = {slug: len(wanted & ({naming.slug(n) for n in names} | set(names.values())))
             for slug, names in games.items() if names is not None}
    best = max(named.values(), default=0)
    winners = [slug for slug, count in named.items() if count == best]
    if best and len(winners) == 1 and len(named) == len(games):
        return winners[0], []
    listed = ", ".join(games)
    if len(named) < len(games) and best == 0:
        # Some games did not load, so which one the names belong to cannot be told yet.
        return None, [doc.problem((), "characters not checked: the games they may belong to have errors",
                                  hint=f"fix those first, or add `system:` (one of {listed})", severity="warning")]
    return None, [doc.problem((), f"this folder holds {len(games)} games with characters ({listed}); "
                                  "which one is this casting for?", hint=f"add `system: {next(iter(games))}` "
                                                                         f"(or another of {listed}) at the top")]


def _resolve(doc: YamlDocument, model: CastingFile, characters: Mapping[str, str] | None,
             problems: list[Problem]) -> list[str | None]:
    """Each role's character slug. A role names its character by name (any
    case or punctuation: naming.slug); a character's file name is accepted
    only where no character has that name, with a warning, since a file name
    can look like another's name. A character or a player cast twice is an error."""
    slugs: list[str | None] = []
    cast: dict[str, int] = {}          # character slug -> envelope number
    players: dict[str, int] = {}       # player name's slug -> envelope number
    for i, role in enumerate(model.envelopes):
        number = i + 1
        key = naming.slug(role.player)
        if key in players:
            problems.append(doc.problem(("envelopes", i, "player"),
                                        f"'{role.player}' is cast twice (envelope {players[key]} is theirs too)",
                                        hint="give each player one envelope; if one person plays two parts, tell "
                                             f"the envelopes apart, e.g. '{role.player} (2)'"))
        else:
            players[key] = number
        slugs.append(None)
        if characters is None:
            continue
        where = ("envelopes", i, "character")
        by_name = {naming.slug(name): (name, slug) for name, slug in characters.items()}
        by_file = {slug: name for name, slug in characters.items()}
        wanted = naming.slug(role.character)
        if wanted in by_name:
            name, slug = by_name[wanted]
        elif wanted in by_file:
            name, slug = by_file[wanted], wanted
            problems.append(doc.problem(where, f"'{role.character}' is a file name, not a character's name; "
                                        f"taken as {name}", hint=f"write `character: {name}`", severity="warning"))
        else:
            problems.append(doc.problem(where, f"no character called '{role.character}'",
                                        hint=did_you_mean(role.character, list(characters)) or
                                        "use a character's name as written in its file"))
            continue
        if slug in cast:
            problems.append(doc.problem(where, f"'{role.character}' is already cast (in envelope {cast[slug]})",
                                        hint="each character goes in one envelope"))
            continue
        cast[slug] = number
        slugs[-1] = slug
    return slugs


def _check_handouts(doc: YamlDocument, model: CastingFile, game_dir: Path, papers: tuple[Paper, ...],
                    skip: list[Path], problems: list[Problem]) -> list[tuple[Path, ...]]:
    """Each role's handouts, checked: inside the game folder, there, a
    readable PDF, and on the pack's paper (a warning when not)."""
    root = game_dir.resolve()
    found: list[tuple[Path, ...]] = []
    existing: list[str] | None = None       # the game folder's PDFs, listed on the first miss
    for i, role in enumerate(model.envelopes):
        kept: list[Path] = []
        for j, name in enumerate(role.handouts):
            where = ("envelopes", i, "handouts", j)
            target = game_path(name, root, "handouts/map.pdf")
            if isinstance(target, PathFault):
                problems.append(doc.problem(where, target.message, hint=target.hint))
            elif any(target.resolve().is_relative_to(s.resolve()) for s in skip):
                problems.append(doc.problem(where, f"'{name}' is in the output folder",
                                            hint="copy it elsewhere in the game folder (e.g. handouts/) and name "
                                                 "it from there"))
            elif not target.exists():
                if existing is None:
                    existing = _pdfs_in(root, skip)
                problems.append(doc.problem(where, f"handout '{name}' not found",
                                            hint=_nearest(name, target, root, existing)))
            elif target.suffix.lower() != ".pdf" or not target.is_file():
                problems.append(doc.problem(where, f"'{name}' is not a PDF file",
                                            hint="a handout is a PDF: export or print it to PDF"))
            elif (fault := asset_fault(target, name)) is not None:
                problems.append(doc.problem(where, fault.message, hint=fault.hint))
            else:
                problems.extend(doc.problem(where, message, hint=hint, severity="warning")
                                for message, hint in paper_mismatches(target, name, papers))
                kept.append(target)
        found.append(tuple(kept))
    return found


def _pdfs_in(root: Path, skip: list[Path]) -> list[str]:
    """PDF files in the game folder, relative to it, outside hidden folders and the output."""
    found: list[str] = []
    skipped = [s.resolve() for s in skip]
    for path in root.rglob("*"):
        if len(found) >= MAX_SUGGESTED:
            break
        relative = path.relative_to(root)
        if any(part.startswith(".") for part in relative.parts) or any(path.is_relative_to(s) for s in skipped):
            continue
        if path.suffix.lower() == ".pdf" and path.is_file():
            found.append(relative.as_posix())
    return sorted(found)


def _nearest(name: str, target: Path, root: Path, existing: list[str]) -> str:
    """A did-you-mean among the game folder's PDFs: a near spelling, or the
    same file name in another folder."""
    same_name = [p for p in existing if Path(p).name.lower() == target.name.lower()]
    close = same_name[:2] or close_matches(Path(name).as_posix(), existing)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    return f"{RULE} ({root.name}/), e.g. handouts/map.pdf"


def paper_mismatches(path: Path, shown: str, papers: Iterable[Paper]) -> list[tuple[str, str]]:
    """(message, hint) for each paper a handout's pages are not printed on:
    it would print scaled or cropped. One message per paper, naming the
    first page that differs."""
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    from ..core.assets import MAX_PDF_BYTES
    from ..core.loading import UnreadableFile, read_limited
    try:    # asset_fault has read it already: only a file changed since can fail here
        data = read_limited(path, MAX_PDF_BYTES, "a handout")
        pages = [(float(p.mediabox.width), float(p.mediabox.height), int(p.get("/Rotate", 0) or 0))
                 for p in PdfReader(io.BytesIO(data)).pages]
    except (UnreadableFile, PdfReadError):
        return []
    out = []
    for paper in papers:
        for number, (w_pt, h_pt, _) in enumerate(pages, 1):
            w, h = w_pt * 25.4 / 72, h_pt * 25.4 / 72
            if _is_size(w, h, *paper.size_mm):
                continue
            which = f"page {number} of '{shown}'" if len(pages) > 1 else f"'{shown}'"
            fits = next((p for p in PAPERS if p != paper and _is_size(w, h, *p.size_mm)), None)
            out.append((f"{which} is {size_name(w, h)}, but this pack is printed on {paper.label}",
                        f"it would print scaled or cropped; export it on {paper.label}"
                        + (f" or pack with --paper {fits.name}" if fits else "")))
            break
    return out


def _is_size(w: float, h: float, width: float, height: float) -> bool:
    """Either way up, within the tolerance."""
    return any(abs(a - width) <= TOLERANCE_MM and abs(b - height) <= TOLERANCE_MM for a, b in ((w, h), (h, w)))


def size_name(w: float, h: float) -> str:
    """'US Letter (216 x 279 mm)', 'A5 (148 x 210 mm)' or '200 x 200 mm'."""
    known = {p.label: p.size_mm for p in PAPERS} | OTHER_SIZES_MM
    measured = f"{w:.0f} x {h:.0f} mm"
    for label, (width, height) in known.items():
        if _is_size(w, h, width, height):
            return f"{label} ({measured})"
    return measured


# --- whom a character sheet is for ---------------------------------------------

def game_title(documents: list[Document], system: System) -> str:
    """The game's own title, as its documents carry it (else the system's name)."""
    return next((d.context["title"] for d in documents if isinstance(d.context.get("title"), str)), system.title)


def short_title(doc: Document, title: str) -> str:
    """'The Last Night: GM cheat sheet' -> 'GM cheat sheet' (the game's title
    may itself hold ': ', so it is removed whole, never split at the first)."""
    return without_title(doc.title, title)


# The colon after a game's title, as the languages write it: French puts a
# (narrow) no-break space before it ("La Nuit : aide du MJ").
_TITLE_COLON = r"[ \u00a0\u202f]?: "


def without_title(text: str, title: str) -> str:
    """`text` without "`title`: " in front, in any language's spacing (the
    titles of documents are translated, a casting names them as they read)."""
    found = re.match(re.escape(title) + _TITLE_COLON, text) if title else None
    return text[found.end():] if found else text


def character_name(sheet: Document, title: str) -> str:
    """Whom a character sheet is for: the game's title taken off its title."""
    return short_title(sheet, title)


def cast_names(system: System, game: object) -> dict[str, str]:
    """A game's characters as a casting names them: name -> sheet slug (empty
    for a game without character sheets)."""
    documents = system.documents(game)
    title = game_title(documents, system)
    return {character_name(d, title): d.slug for d in documents if d.audience == "player"}
