"""The game folder's settings file, `sixes.yaml`, and how a command finds it.

Core layer: reads YAML through `loading` and validates with a model, like any
data file (file:line:column, did-you-mean, a JSON Schema for editors). A game
folder is the folder holding `sixes.yaml`; its systems' data sit beside it in
one sub-folder each. Commands look for the file in the folder they are run
in and then in each folder above it, as MkDocs looks for mkdocs.yml.

A data folder without a settings file (every game made before settings
existed) still builds: `Settings()` gives the defaults, and the command line
says where the output goes.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Annotated, Literal

from pydantic import Field, field_validator

from ..core.errors import DataError, Problem, did_you_mean
from ..core.game_paths import RULE
from ..core.loading import YamlDocument, load_yaml, reading_game
from ..core.paper import BOTH, CHOICES, CoverLayout, Paper, papers_for
from ..core.text import FILE_NAME
from ..core.validation import DataModel, validate
from .cast_settings import CastingSettings
from .gitref import ALLOWED, branch_problem, remote_problem

SETTINGS_FILE = "sixes.yaml"
PaperChoice = Literal[CHOICES]  # type: ignore[valid-type]
# Material for MkDocs' named colours (its palette), for the site's header and links.
COLOURS = ("red", "pink", "purple", "deep purple", "indigo", "blue", "light blue", "cyan", "teal", "green",
           "light green", "lime", "yellow", "amber", "orange", "deep orange", "brown", "grey", "blue grey",
           "black", "white")
Colour = Literal[COLOURS]  # type: ignore[valid-type]


LANGUAGE_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$"


class SiteSettings(DataModel):
    name: str | None = Field(default=None, min_length=1, max_length=120,
                             description="The site's name in its header and browser tabs (default: the game's title).")
    url: str | None = Field(default=None, pattern=r"^https?://[^\s<>\"']+$", max_length=500,
                            description="Where the site will be published, e.g. https://example.org/rules/.")
    description: str | None = Field(default=None, max_length=500, description="One line for search engines.")
    language: str | None = Field(default=None, pattern=LANGUAGE_PATTERN,
                                 description="Older name of the top-level `language` (used when that is absent).")
    logo: Annotated[str | None, FILE_NAME] = Field(
        default=None, description="An image inside the game folder for the header, e.g. logo.png.")
    primary: Colour = Field(default="blue grey", description="Header colour (a Material for MkDocs colour name).")
    accent: Colour = Field(default="deep orange", description="Link and highlight colour.")
    pages: Annotated[str, FILE_NAME] = Field(default="pages", max_length=200,
                       description="A folder in the game folder whose Markdown pages (house rules, a welcome "
                                   "letter) and images the site includes; ignored while it does not exist.")
    cast_list: bool = Field(default=False,
                            description="Add a cast list to each game's section of the site: the public "
                                        "characters' names, factions, public descriptions and portraits.")

    @field_validator("logo")
    @classmethod
    def _inside(cls, value: str | None) -> str | None:
        return None if value is None else _relative_path(value, "the logo")

    @field_validator("pages")
    @classmethod
    def _pages_inside(cls, value: str) -> str:
        if not value.strip() or PurePosixPath(value) == PurePosixPath("."):
            raise ValueError("the pages folder must be a folder inside the game folder, e.g. pages")
        return _relative_path(value, "the pages folder")


class DeploySettings(DataModel):
    branch: str = Field(default="gh-pages", max_length=100,
                        description="The git branch the site is published to (a name git accepts as a branch, "
                                    "not beginning with '-').")
    remote: str = Field(default="origin", max_length=100,
                        description="The git remote to push that branch to (a remote's name, not a URL).")
    folder: Annotated[str | None, FILE_NAME] = Field(default=None,
                                                    description="Publish by copying the site into this folder instead.")
    push: bool = Field(default=True, description="Push the branch after committing the site.")

    @field_validator("branch")
    @classmethod
    def _branch(cls, value: str) -> str:
        return _git_name(value, "branch", branch_problem(value))

    @field_validator("remote")
    @classmethod
    def _remote(cls, value: str) -> str:
        return _git_name(value, "remote", remote_problem(value))


def _git_name(value: str, what: str, problem: str | None) -> str:
    """Values that reach git's command line are checked as git checks them (game/gitref.py)."""
    if problem:
        raise ValueError(f"'{value}' cannot be a git {what}: {problem}; allowed: {ALLOWED}")
    return value


class PackSettings(DataModel):
    """How the game is packed: `sixes pack` takes these as its defaults, and a
    plain `sixes check` measures what they print (a label, a half cover), so
    the two agree without options; an option on either command line wins."""

    labels: bool = Field(default=False, description="A sheet of envelope labels per paper (pack --labels).")
    covers: CoverLayout = Field(default="full", description="full: a cover page at the front of each envelope's "
                                                             "file; half: two covers a sheet, cut apart "
                                                             "(pack --covers).")
    name_sheets: bool = Field(default=False, description="The player's name at the top of their character sheet "
                                                         "(pack --name-sheets).")


@dataclass(frozen=True)
class PackLayout:
    """What a pack prints whose fit depends on the data, resolved: the
    command line's choice where it made one, else the settings'."""

    labels: bool = False
    covers: CoverLayout = "full"
    name_sheets: bool = False


class SettingsFile(DataModel):
    language: str | None = Field(default=None, pattern=LANGUAGE_PATTERN,
                                 description="The game's language, e.g. en, fr, de, pt-BR: the words of every PDF, "
                                             "site page and the fight tracker (default: en).")
    site: SiteSettings = Field(default_factory=SiteSettings, description="The rules site.")
    paper: PaperChoice = Field(default=BOTH, description="Paper of the PDFs: a4, letter or both.")
    output: Annotated[str, FILE_NAME] = Field(default="output",
                                              description="Where the build writes, relative to the game folder.")
    systems: list[str] | None = Field(default=None, description="The systems in play (default: every system "
                                                                "folder present).")
    deploy: DeploySettings = Field(default_factory=DeploySettings, description="How `sixes deploy` publishes.")
    pack: PackSettings = Field(default_factory=PackSettings,
                               description="How `sixes pack` packs the game (its defaults, which `sixes check` "
                                           "measures too).")
    casting: CastingSettings = Field(default_factory=CastingSettings, description=(
        "How `sixes cast` reads the players' questionnaire and the organisers' hard rules (game/cast_settings.py)."))

    @field_validator("paper", mode="before")
    @classmethod
    def _paper_any_case(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value


@dataclass(frozen=True)
class Settings:
    """A game folder's settings, resolved: paths are absolute, the papers a tuple."""

    game_dir: Path | None = None        # None: a data folder without a settings file
    file: SettingsFile = SettingsFile()
    doc: YamlDocument | None = field(default=None, compare=False, repr=False)   # where each setting was written

    @property
    def language(self) -> str:
        """The game's language: `language`, else the older `site.language`, else English."""
        return self.file.language or self.file.site.language or "en"

    @property
    def papers(self) -> tuple[Paper, ...]:
        return papers_for(self.file.paper)

    def pack_layout(self, labels: bool | None = None, covers: CoverLayout | None = None,
                    name_sheets: bool | None = None) -> PackLayout:
        """The pack's layout: each choice the command line made (not None), else the settings'."""
        own = self.file.pack
        return PackLayout(own.labels if labels is None else labels, own.covers if covers is None else covers,
                          own.name_sheets if name_sheets is None else name_sheets)

    @property
    def out_dir(self) -> Path | None:
        return (self.game_dir / self.file.output).resolve() if self.game_dir else None

    @property
    def logo(self) -> Path | None:
        """Where site.logo leads, by the one rule (core/game_paths.py: from the game folder)."""
        return _inside(self.game_dir, self.file.site.logo) if self.game_dir and self.file.site.logo else None

    @property
    def pages_dir(self) -> Path | None:
        """The folder of the game's own site pages (it need not exist)."""
        return _inside(self.game_dir, self.file.site.pages) if self.game_dir else None


def setting_problem(data_dir: Path, settings: Settings, loc: tuple, message: str, hint: str | None) -> Problem:
    """A problem at the line of sixes.yaml that says it (or at the file)."""
    if settings.doc is not None:
        return settings.doc.problem(loc, message, hint=hint)
    return Problem(f"{data_dir.name}/{SETTINGS_FILE}", None, None, message, hint=hint)


def _inside(game_dir: Path, value: str) -> Path:
    """The path `value` names from the game folder, '..' taken away as
    written (the validator keeps it inside; a link is judged when read)."""
    return Path(posixpath.normpath(game_dir / value))


def _relative_path(value: str, what: str) -> str:
    """The one rule of core/game_paths.py, as far as the text alone tells:
    relative to the game folder and inside it (where it leads is checked
    when the file is read)."""
    path = PurePosixPath(posixpath.normpath(value.replace("\\", "/"))) if value else PurePosixPath()
    if "://" in value or path.is_absolute() or path.parts[:1] == ("..",):
        raise ValueError(f"{what} must be a path inside the game folder; {RULE}, e.g. images/logo.png")
    return value


def game_input_paths(data_dir: Path, pages_dir: Path | None) -> list[Path]:
    """Where a game folder's outputs may come from, present or not: its
    settings file, its systems' folders, its own catalogues of the tool's
    words (game/catalogue.py), its packet (packet.yaml: groups,
    relationships, plots) and its own site pages, never anything else in
    it (such as its output)."""
    from ..systems import SLUGS
    from .catalogue import CATALOGUE_FOLDER
    data_dir = Path(data_dir)
    from .packet_models import PACKET_FILE
    return [data_dir / SETTINGS_FILE, *(data_dir / slug for slug in SLUGS), data_dir / CATALOGUE_FOLDER,
            data_dir / PACKET_FILE, *([pages_dir] if pages_dir else [])]


def game_inputs(data_dir: Path) -> list[Path]:
    """The game_input_paths that exist, the pages folder read from the settings."""
    return [path for path in game_input_places(data_dir) if path.exists()]


def game_input_places(data_dir: Path) -> list[Path]:
    """The game_input_paths, present or not (no output may go where a later
    run would read it: an absent pages folder included)."""
    return game_input_paths(data_dir, _pages_folder(Path(data_dir)))


def _pages_folder(data_dir: Path) -> Path | None:
    """The settings' pages folder; the default one when the settings cannot be
    read (the build then stops on them anyway), none without settings."""
    if not (data_dir / SETTINGS_FILE).is_file():
        return None
    try:
        return load_settings(data_dir).pages_dir
    except DataError:
        return data_dir / SiteSettings.model_fields["pages"].default


def find_game(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding a settings file."""
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        if (folder / SETTINGS_FILE).is_file():
            return folder
    return None


def load_settings(game_dir: Path, display_root: Path | None = None) -> Settings:
    """Read and check `game_dir/sixes.yaml`; DataError listing every problem.
    The files it names (the logo, the pages folder) are checked by the
    gather (gather.py), through the one gate."""
    from ..systems import SLUGS
    path = Path(game_dir) / SETTINGS_FILE
    display = str(path.relative_to(display_root)) if display_root and path.is_relative_to(display_root) else str(path)
    with reading_game(game_dir):
        doc, problems = load_yaml(path, display)
    model = None
    if doc is not None:
        if doc.data is None:
            model = SettingsFile()
        else:
            model, found = validate(SettingsFile, doc)
            problems.extend(found)
        if model is not None:
            for i, slug in enumerate(model.systems or ()):
                if slug not in SLUGS:
                    problems.append(doc.problem(("systems", i), f"unknown game system '{slug}'",
                                                hint=did_you_mean(slug, SLUGS) or "systems: " + ", ".join(SLUGS)))
            output = PurePosixPath(model.output)
            if model.output.strip() == "" or "://" in model.output:
                problems.append(doc.problem(("output",), f"'{model.output}' is not a folder",
                                            hint="e.g. output: output"))
            elif output.is_absolute():
                problems.append(doc.problem(("output",), f"'{model.output}' is an absolute path",
                                            hint="give a folder relative to the game folder, e.g. output"))
            if model.language and model.site.language and model.language != model.site.language:
                problems.append(doc.problem(("site", "language"), f"site.language '{model.site.language}' "
                                            f"disagrees with language '{model.language}'",
                                            hint="the one `language` setting is the game's language everywhere; "
                                                 "remove site.language"))
    if problems or model is None:
        raise DataError(problems or [Problem(display, None, None, "cannot read the settings")])
    return Settings(Path(game_dir).resolve(), model, doc)


STARTER_SETTINGS = """\
# yaml-language-server: $schema=schemas/settings.schema.json
# Settings of this game folder. Every sixes command run in this folder (or
# below it) uses them. All are optional; these are the defaults but the name.
language: {language}        # the words of every PDF, site page and the fight tracker: en, fr or de
site:
  name: {name}
  primary: blue grey
  accent: deep orange
  pages: pages      # your own Markdown pages for the site (house rules, a welcome letter)
  cast_list: false  # true: a page per game listing its public characters
paper: both         # a4, letter or both
output: output      # where PDFs, packs and the site are written
pack:               # how `sixes pack` packs a game; `sixes check` measures the same
  labels: false     # true: a sheet of envelope labels per paper
  covers: full      # full: a cover page in each envelope's file; half: two a sheet, cut apart
  name_sheets: false  # true: the player's name at the top of their character sheet
"""
