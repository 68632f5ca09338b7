"""The keys: what decides each thing the cache remembers, and so the answer
to "why didn't my edit show?".

Edge layer; imports core, game (the game folder's inputs) and storage,
never WeasyPrint (its version comes from the package metadata).
A remembered thing is used again only under the same key, so a
change that does not reach a key is a change the output will not show
(until `sixes clean` or `--no-cache`); every key is spelled here:

- a PDF (`pdf_key`): its final HTML (the data, the game's translations,
  the Jinja templates and the declared boxes' CSS, render/fit/boxes.py, are
  in it), paper, orientation, print variant, form
  fields and date, the contents of the game's files its HTML names by a
  `file:` URL (`named_files`: a portrait), over `static_key`: the CSS, fonts
  and icons under templates/ and `code_version` (WeasyPrint's version, our
  PDF adapter and lint). The game's other files (its site pages, handouts,
  logo) never reach a PDF, so editing them renders nothing again;
- a document's HTML (`document_key`, documents.py): the document as the
  system describes it (template, title, audience, budget, every value of
  its context and cards: fingerprint.py), the print options, the run's
  language and every translation in it (`words_key`: the shipped catalogues
  and the game's own), over `html_inputs`: the package's code, every file
  under templates/ and the versions of Jinja, MarkupSafe and Babel. A
  build whose document has this key takes its HTML from the last build
  instead of rendering it, and then looks the PDF up by `pdf_key` as
  always; a context not worked out yet (the balance report's) has no such
  key and is rendered every build;
- remembered results (memo.json): `package_version`, a hash of the
  package's own code;
- the site before it is staged (`site_inputs_key`): the whole game folder,
  templates/, the site's sources, mkdocs.yml, the package's code, the
  papers, the print options and the settings, and SOURCE_DATE_EPOCH
  (builds.BuildCache.inputs adds it); after staging (`site_key`): the staged
  Markdown, assets and downloads and mkdocs.yml, with the navigation, the
  look, our words in the theme's templates (site_mkdocs.theme_words, in the
  game's language) and SOURCE_DATE_EPOCH (commands/build._build_site passes them). The
  date a site is stamped with when no SOURCE_DATE_EPOCH is set is not in
  it: a site is not built again for a date that moved with an edit elsewhere;
- a whole build (`build_inputs_key`): the site's inputs, whether the site
  and --strict were asked for, and the versions of the libraries that make
  the files.
"""
from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from ...core.paths import TEMPLATES_DIR
from .storage import regular_file

if TYPE_CHECKING:
    from ..pdf.weasy import PdfJob

# Templates are rendered into the HTML, which is hashed itself.
_TEMPLATE_SOURCES = {".html", ".j2", ".md"}
# Libraries whose upgrade may change the output without changing our code.
_OUTPUT_LIBRARIES = ("weasyprint", "mkdocs", "mkdocs-material", "jinja2", "pydantic", "pypdf", "pikepdf")
# Libraries that turn the same document into other HTML (templates, escaping, number formats).
_HTML_LIBRARIES = ("jinja2", "markupsafe", "babel")
# What turns the same HTML into another PDF, beside WeasyPrint (files of render/).
_PDF_CODE = ("pdf/weasy.py", "pdf/lint.py")


def file_hash(path: Path) -> str:
    """A hash of a regular file's contents, streamed (a large portrait is not
    read into memory whole); '' when there is none to read (the gather has
    refused it, or the render will, and a failed build stores nothing)."""
    if not regular_file(path):
        return ""
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return ""


def tree_hash(root: Path, skip_suffixes: set[str]) -> str:
    """A hash of every regular file under `root` (names and contents), but those with these suffixes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if regular_file(p) and p.suffix not in skip_suffixes):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + file_hash(path).encode())
    return digest.hexdigest()


def game_hash(data_dir: Path) -> str:
    """A hash of what a game folder's outputs are made from (game_inputs:
    its settings and systems' folders, never its output folder)."""
    from ...game.settings import game_inputs
    digest = hashlib.sha256()
    for path in game_inputs(data_dir):
        digest.update(path.name.encode() + b"\0")
        if path.is_dir():
            digest.update(tree_hash(path, set()).encode())
        elif regular_file(path):
            digest.update(file_hash(path).encode())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def code_version() -> str:
    """What turns the same HTML into a different PDF: WeasyPrint and our adapter.
    (The version from the package metadata: importing WeasyPrint costs 0.4 s.)"""
    render = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(version("weasyprint").encode())
    for name in _PDF_CODE:
        digest.update((render / name).read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def package_version() -> str:
    """A hash of the package's own code: remembered results (generator/core/memo.py)
    are only as good as the code that computed them."""
    from ...core.paths import PACKAGE_DIR
    return tree_hash(PACKAGE_DIR, {".pyc"})


def static_key() -> str:
    """What every PDF may load besides its HTML and the files it names (the
    templates' CSS, fonts and icons), and the code that renders it."""
    parts = code_version() + tree_hash(TEMPLATES_DIR, _TEMPLATE_SOURCES)
    return hashlib.sha256(parts.encode()).hexdigest()


def html_inputs() -> str:
    """What turns one described document into other HTML beside the
    document: the package's code (filters, the fit measures, the shipped
    catalogues), every file under templates/ (Jinja, CSS, icons, fonts) and
    the libraries that write it (_HTML_LIBRARIES)."""
    parts = [package_version(), tree_hash(TEMPLATES_DIR, set()), *(f"{n}={version(n)}" for n in _HTML_LIBRARIES)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def words_key(language: str, catalogue: dict[object, str]) -> str:
    """The run's language and every translation it prints (core/i18n.Words:
    the shipped catalogues with the game's own over them)."""
    digest = hashlib.sha256(language.encode() + b"\0")
    for message, text in sorted((repr(k), v) for k, v in catalogue.items()):
        digest.update(message.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def document_key(inputs: str, document: str, options: object, words: str) -> str:
    """One document's HTML key: `html_inputs`, the document's fingerprint
    (fingerprint.Fingerprints.of the Document), the print options and `words_key`."""
    return hashlib.sha256("\n".join((inputs, document, repr(options), words)).encode()).hexdigest()


def pdf_key(static: str, job: PdfJob, named: dict[Path, str]) -> str:
    """One PDF's key, over `static_key`: with the contents of the files
    outside templates/ its HTML names (`named` remembers each file's hash
    for the caller, so a portrait on many documents is read once)."""
    digest = hashlib.sha256(static.encode())
    for part in (job.paper.css_size, str(job.landscape), "|".join(job.stylesheets), str(job.pdf_variant),
                 str(job.pdf_forms), str(job.date), job.html):
        digest.update(part.encode() + b"\0")
    for path in named_files(job):
        if path not in named:
            named[path] = file_hash(path)
        digest.update(named[path].encode())
    return digest.hexdigest()


# A file: URL as a document's HTML gives it to WeasyPrint: an attribute's
# value or a CSS url(), never text (the data's quotes are escaped in it).
_FILE_URL = re.compile(r"""(?:=["']|url\(\s*["']?)(file://[^"'\s<>()]+)""")


def named_files(job: PdfJob) -> list[Path]:
    """The game files a document's HTML names by a `file:` URL, in order: the
    only way a game file reaches a PDF (our templates name a portrait by its
    absolute URL). A URL outside the job's game folder is left out: the
    render refuses it, so nothing is stored under the key, and no file a
    GM's data names elsewhere on the machine is ever read. Relative URLs
    resolve inside templates/, which `static_key` hashes whole."""
    games = [root for root in job.allowed_roots if root != TEMPLATES_DIR]
    found: dict[Path, None] = {}
    for url in _FILE_URL.findall(job.html):
        path = Path(os.path.normpath(unquote(urlparse(url).path)))
        if any(path.is_relative_to(root) for root in games) and not path.is_relative_to(TEMPLATES_DIR):
            found.setdefault(path)
    return list(found)


def site_key(staged_sources: Path, config: Path) -> str:
    """The site is rebuilt only when its staged Markdown, assets, downloads or
    configuration change."""
    return hashlib.sha256((tree_hash(staged_sources, set()) + config.read_text(encoding="utf-8")).encode()
                          ).hexdigest()


def staged_pages(staged_sources: Path) -> dict[str, list[str]]:
    """Each staged file's hash by its path; a Markdown page's in two, its
    front matter (its title) and the rest, so a build can tell a page whose
    text alone changed (render/site/partial.py)."""
    found = {}
    for path in sorted(p for p in staged_sources.rglob("*") if regular_file(p)):
        rel = path.relative_to(staged_sources).as_posix()
        if path.suffix != ".md":
            found[rel] = [file_hash(path)]
            continue
        text = path.read_text(encoding="utf-8")
        close = text.find("\n---\n", 3) if text.startswith("---\n") else -1
        head = close + len("\n---\n") if close != -1 else 0
        found[rel] = [hashlib.sha256(text[:head].encode()).hexdigest(),
                      hashlib.sha256(text[head:].encode()).hexdigest()]
    return found


def site_inputs_key(data_dir: Path, papers: list[str], options: object, settings: object = None) -> str:
    """Everything the site is made from: the data, templates, hand-written
    pages, configuration, the package's code and the print options (the
    downloads are PDFs). When this is unchanged the site's pages need not even
    be derived, which saves the seconds exact odds tables take."""
    from ...core.paths import MKDOCS_CONFIG, SITE_SOURCES_DIR
    parts = [game_hash(data_dir), tree_hash(TEMPLATES_DIR, set()),
             tree_hash(SITE_SOURCES_DIR, set()), package_version(),
             MKDOCS_CONFIG.read_text(encoding="utf-8"), code_version(), ",".join(papers), repr(options),
             repr(settings)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def build_inputs_key(site_inputs: str, site: bool, strict: bool) -> str:
    """Everything a whole build is made from: the site's inputs (see
    site_inputs_key), whether the site and strict checks were asked for, and
    the versions of the libraries that make the files."""
    parts = [site_inputs, f"site={site}", f"strict={strict}",
             *(f"{name}={version(name)}" for name in _OUTPUT_LIBRARIES)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
