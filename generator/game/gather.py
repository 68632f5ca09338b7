"""The one gather: everything a run will read, read and checked first.

Game layer: pure reading and checking (core/, systems/, game/ only); it
renders nothing and writes nothing. `sixes check`, `build` (and so `build
--watch` and `serve`) and `pack` all start here, so what `check` passes the
others do not refuse later for anything in the input, and what they would
refuse `check` refuses first (MkDocs gathers every file before it writes one
the same way). It reads:

- the settings' `systems:` list, and every selected system's data (load.py),
  with its portraits and handouts (each system's loader, core/assets.py);
- the game's own site pages and their images (pages.py) and the site's logo;
- the casting file, given or found in the game folder, against the games'
  characters (casting.py);
- the packet (packet.yaml: groups, relationships, plots) against the games'
  characters and the casting (packet_read.py);
- the game's language and its own catalogue of the tool's words, if it
  brings one (catalogue.py), as the `words` the run writes in.

Every file is opened through the one gate (core/loading.open_regular) inside
the game folder (`reading_game`), so a link leading out of it is refused
like a missing file, at the line of the setting or data that names it. All
problems come back in one DataError; warnings too under `strict`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from .. import systems as registry
from ..core.assets import IMAGE_KINDS, IMAGE_SUFFIXES, asset_fault
from ..core.errors import DataError, Problem, errors_in
from ..core.game_paths import RULE, written_now
from ..core.i18n import Words, words_for
from ..core.loading import leads_outside, load_yaml, reading_game
from ..core.paper import Paper
from .catalogue import read_own_catalogue
from .casting import CastingCheck, cast_names, check_casting, find_casting, found_as, paper_mismatches
from .load import Loaded, load_each
from .packet import Packet
from .packet_read import read_packets
from .pages import OwnFiles, read_own_pages
from .language import language_problems
from .settings import Settings, setting_problem


@dataclass(frozen=True)
class Gathered:
    """What a run reads, checked: the games that loaded, the warnings, the
    site's own pages and logo, the casting and (for a pack) the game packed."""

    data_dir: Path
    settings: Settings
    loaded: list[Loaded]
    warnings: list[Problem] = field(default_factory=list)
    own: OwnFiles = OwnFiles()
    logo: Path | None = None
    casting: CastingCheck | None = None
    casting_file: Path | None = None
    casting_shown: str | None = None
    packed: Loaded | None = None            # the game a pack is of
    words: Words = Words()                  # the game's language (core/i18n.py): run the rest `speaking` it
    packets: Mapping[str, Packet] = field(default_factory=dict)     # groups, relationships, plots (packet_read.py)


def gather(data_dir: Path, settings: Settings, papers: Iterable[Paper] = (), *, strict: bool = False,
           site: bool = True, casting: Path | None = None, find: bool = True, pack: bool = False,
           system: str | None = None, out_dir: Path | None = None) -> Gathered:
    """Read and check everything the run will use; raise one DataError with
    every problem (warnings too when `strict`). `site`: the game's own pages
    and logo are read. `casting`: a casting file named on the command line;
    else, with `find`, the game folder's own. `pack`: the run packs one game
    (`system`, else the only one), so the casting is checked for that game
    and the folder's casting file is used only when it is for it. `out_dir`
    is the output, where no handout may come from."""
    data_dir = Path(data_dir)
    loaded, problems = load_each(data_dir, settings.file.systems)
    problems += language_problems(data_dir, settings)
    own, logo = OwnFiles(), None
    if site:
        own, logo, found = _site_files(data_dir, settings)
        problems += found
    present = _present(data_dir, settings)
    target = (system or (present[0] if len(present) == 1 else None)) if pack else None
    path, given = casting, casting is not None
    if not given and find:
        path = _own_casting(data_dir, loaded, target) if pack else find_casting(data_dir)
    checked, shown = None, None
    if path is not None and (not pack or _castable(loaded, target)):
        shown = str(path) if given else found_as(data_dir)
        games = _games(loaded, [target] if target else present)
        with reading_game(None if given else data_dir):     # a file the user named may be anywhere
            checked = check_casting(Path(path), games, data_dir, papers, shown=shown, present=present,
                                    skip=(out_dir,) if out_dir else (), packing=target)
        problems += checked.problems
    problems += _character_handout_papers(loaded, papers, data_dir)
    own_catalogue = read_own_catalogue(settings.game_dir, settings.language)
    problems += own_catalogue.problems
    loaded = in_casting_order(loaded, checked)
    packets, found = read_packets(data_dir, loaded, checked, _broken(present, loaded))
    problems += found
    blocking = problems if strict else errors_in(problems)
    if blocking:
        raise DataError(problems)
    packed = choose_system(loaded, system, data_dir) if pack else None
    return Gathered(data_dir, settings, loaded, [p for p in problems if p.severity == "warning"], own, logo,
                    checked, Path(path) if path is not None else None, shown, packed,
                    words_for(settings.language, own_catalogue.catalogue), packets)


def _broken(present: list[str], loaded: list[Loaded]) -> list[str]:
    """The games here whose data did not load: the packet leaves their sections unchecked."""
    return [slug for slug in present if all(item.system.slug != slug for item in loaded)]


def _character_handout_papers(loaded: list[Loaded], papers: Iterable[Paper], data_dir: Path) -> list[Problem]:
    """A handout a character's file names, on a paper it is not printed on:
    the casting file's warning (casting.paper_mismatches, the one check),
    at the handout's line in the character's file. A game's cast members
    say which files they give their envelope (`handout_files`, with
    `handout_places`), as pack.py reads their `source`."""
    problems = []
    papers = tuple(papers)
    for item in loaded:
        for member in getattr(item.game, "cast", ()):
            files = getattr(member, "handout_files", ())
            places = getattr(member, "handout_places", ()) or [(None, None)] * len(files)
            for path, (line, column) in zip(files, places, strict=True):
                shown = written_now(path, data_dir)
                problems += [Problem(member.source, line, column, message, field="handouts", hint=hint,
                                     severity="warning") for message, hint in paper_mismatches(path, shown, papers)]
    return problems


def in_casting_order(loaded: list[Loaded], casting: CastingCheck | None) -> list[Loaded]:
    """Cast order (core/cast_order.py): the game a casting file is for lists
    its characters in the casting's order everywhere (rosters, the balance
    report, the tracker, the cast list, the pack), the rest after them."""
    if casting is None or casting.system is None:
        return loaded
    slugs = [role.slug for role in casting.roles if role.slug]
    return [Loaded(item.system, item.system.recast(item.game, slugs))
            if item.system.slug == casting.system and item.system.recast is not None else item
            for item in loaded]


def _present(data_dir: Path, settings: Settings) -> list[str]:
    """The games the run is about: the settings' systems (else every
    system) that have a folder here."""
    wanted = registry.SLUGS if settings.file.systems is None else settings.file.systems
    return [slug for slug in registry.SLUGS if slug in wanted and (data_dir / slug).is_dir()]


def _castable(loaded: list[Loaded], target: str | None) -> bool:
    """Whether a pack's casting can be checked here: the game packed is
    known and has characters, or did not load (its characters are then left
    unchecked). Otherwise the pack itself says why it takes no casting."""
    item = next((i for i in loaded if i.system.slug == target), None)
    return target is not None and (item is None or bool(cast_names(item.system, item.game)))


def _games(loaded: list[Loaded], slugs: Iterable[str]) -> dict[str, dict[str, str] | None]:
    """Each game a casting may be for that has characters, by its
    characters' names; None for a game whose data has errors (its
    characters are not checked; everything else in the casting is)."""
    by_slug = {item.system.slug: item for item in loaded}
    games: dict[str, dict[str, str] | None] = {}
    for slug in slugs:
        item = by_slug.get(slug)
        if item is None:
            games[slug] = None
        elif names := cast_names(item.system, item.game):
            games[slug] = names
    return games


def _own_casting(data_dir: Path, loaded: list[Loaded], target: str | None) -> Path | None:
    """The game folder's casting.yaml, when it is for the game being packed:
    it names this game (`system:`), or names none and this is the folder's
    only game with characters (or the game's data has errors, so the
    casting's own problems are reported with them)."""
    path = find_casting(data_dir)
    if path is None or target is None:
        return None
    with reading_game(data_dir):
        doc, _ = load_yaml(path, found_as(data_dir))
    named = doc.data.get("system") if doc is not None and isinstance(doc.data, dict) else None
    with_sheets = [item.system.slug for item in loaded if cast_names(item.system, item.game)]
    if all(item.system.slug != target for item in loaded):     # its data has errors: check what can be
        return path if named in (None, target) else None
    if named is not None:
        return path if named == target and target in with_sheets else None
    return path if with_sheets == [target] else None


def _site_files(data_dir: Path, settings: Settings) -> tuple[OwnFiles, Path | None, list[Problem]]:
    """The game's own pages and the site's logo, each folder and file
    inside the game folder, problems at the setting that names them."""
    problems: list[Problem] = []
    own = OwnFiles()
    pages = settings.pages_dir
    if pages is not None and (pages.exists() or pages.is_symlink()):
        if leads_outside(pages, data_dir):
            problems.append(setting_problem(data_dir, settings, ("site", "pages"),
                                             f"the pages folder '{settings.file.site.pages}' is a link leading "
                                             "outside the game folder",
                                             "keep the pages in a folder inside the game folder"))
        elif not pages.is_dir():
            problems.append(setting_problem(data_dir, settings, ("site", "pages"),
                                             f"'{settings.file.site.pages}' is not a folder",
                                             "site.pages names a folder of Markdown pages inside the game folder"))
        else:
            try:
                with reading_game(data_dir):
                    own = read_own_pages(pages, data_dir.parent)
            except DataError as exc:
                problems += exc.problems
    logo = settings.logo
    if logo is not None:
        fault = _logo_fault(logo, data_dir, settings.file.site.logo or "")
        if fault is not None:
            problems.append(setting_problem(data_dir, settings, ("site", "logo"), *fault))
            logo = None
    return own, logo, problems


def _logo_fault(logo: Path, data_dir: Path, named: str) -> tuple[str, str | None] | None:
    """What keeps the logo off the site, as (message, hint)."""
    if not (logo.exists() or logo.is_symlink()):
        return f"logo file '{named}' not found", RULE
    if leads_outside(logo, data_dir):
        return f"the logo '{named}' is a link leading outside the game folder", "copy the image into the game folder"
    if logo.suffix.lower() not in IMAGE_SUFFIXES:     # published on every page: never a page or a script
        return (f"'{named}' is not an image the site can publish",
                f"allowed: {IMAGE_KINDS} ({', '.join(IMAGE_SUFFIXES)})")
    with reading_game(data_dir):
        fault = asset_fault(logo, named)
    return (fault.message, fault.hint) if fault is not None else None


def choose_system(loaded: list[Loaded], system: str | None, data_dir: Path) -> Loaded:
    """The game to pack: the one named, or the only one in the folder."""
    present = {item.system.slug: item for item in loaded}
    listed = ", ".join(present)
    if system is None:
        if len(present) == 1:
            return loaded[0]
        raise DataError([Problem(str(data_dir), None, None,
                                 f"this folder holds {len(present)} games ({listed}); which one should be packed?",
                                 hint="pass --system " + " or --system ".join(present))])
    if system not in present:
        title = registry.system(system).title
        raise DataError([Problem(str(data_dir), None, None,
                                 f"no {title} game in this folder (it holds: {listed})",
                                 hint=f"--system {system} needs a sub-folder named {system}/; "
                                      f"or pack one of: {listed}")])
    return present[system]
