"""The game's own site pages: Markdown pages and the images beside them.

Game layer: pure reading and checking, no rendering (render/site/writer.py stages
and cleans what this hands it). The pages folder (the settings' `site.pages`)
is read at the gather, before anything renders, so a page the site would
refuse is refused by `sixes check` too. Every file is opened through the one
gate (core/loading.open_regular, inside the game folder), and a page's front
matter is read by the one YAML reader (any line ending, a byte-order mark,
the same limits and tag refusal) and validated by a model like the data:
`FrontMatter`, unknown keys refused with a did-you-mean at the page's
file:line:column.
"""
from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pydantic import Field

from ..core.errors import DataError, Problem
from ..core.i18n import line_start
from ..core.layout import DOWNLOADS_FOLDER
from ..core.loading import UnreadableFile, parse_yaml, read_limited
from ..core.nesting import MAX_PAGE_NESTING, bracket_work, too_deep
from ..core.privacy import Visibility, visibility_field
from ..core.validation import DataModel, validate

# A game's own pages: Markdown pages and the images they show. Names become
# addresses, so they stay plain; the site's own top-level names are taken.
OWN_PAGE_SUFFIX = ".md"
OWN_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
OWN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
MAX_OWN_PAGE_BYTES = 256 * 1024
# The site's own names: the credits page and Material's template overrides
# (render/site/writer.py writes them), beside what MkDocs and the theme publish.
CREDITS_PAGE = "credits.md"
THEME_FOLDER = "overrides"
SITE_NAMES = frozenset({"assets", DOWNLOADS_FOLDER, "search", THEME_FOLDER, CREDITS_PAGE, "404.md", "404.html",
                        "sitemap.xml", "sitemap.xml.gz", "objects.inv"})
FRONT_MATTER_FENCE = "---"
_SETEXT_H1 = re.compile(r"^ {0,3}=+[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


class FrontMatter(DataModel):
    """What a page's front matter may say; anything else is a mistake."""

    title: str | None = Field(default=None, min_length=1, max_length=200,
                              description="The page's title (default: its first heading, else its file name).")
    visibility: Visibility = visibility_field("public", "page", "A private page (a draft, notes for the GM) "
                                              "stays off the site.")


@dataclass(frozen=True)
class OwnPage:
    """One of the game's own Markdown pages: where it goes in the site, its
    title (plain text) and its Markdown without any front matter."""

    path: str
    title: str
    markdown: str


@dataclass(frozen=True)
class OwnFiles:
    """The game's own pages and the images beside them (site path, file)."""

    pages: tuple[OwnPage, ...] = ()
    images: tuple[tuple[str, Path], ...] = ()

    def page(self, path: str) -> OwnPage | None:
        return next((p for p in self.pages if p.path == path), None)


def read_own_pages(folder: Path | None, display_root: Path | None = None) -> OwnFiles:
    """The game's own pages and images from `folder` (absent: none), each
    checked: a plain name not used by the site itself, a Markdown page of
    UTF-8 text or an image that decodes, a regular file inside the folder.
    Raises DataError listing every problem."""
    from ..core.assets import raster_fault

    if folder is None or not (folder.exists() or folder.is_symlink()):
        return OwnFiles()
    root = display_root or folder.parent

    def shown(path: Path) -> str:
        return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)

    if not folder.is_dir():
        raise DataError([Problem(shown(folder), None, None, "the site's pages folder is not a folder",
                                 hint="site.pages in sixes.yaml names a folder of Markdown pages")])
    base = folder.resolve()
    problems: list[Problem] = []
    pages: list[OwnPage] = []
    images: list[tuple[str, Path]] = []
    seen: dict[str, str] = {}           # the names taken so far, by their case-folded form
    for rel, path in _own_files(folder):
        where = shown(path)
        fault = _own_file_fault(rel, path, base, seen)
        if fault is not None:
            problems.append(Problem(where, None, None, fault[0], hint=fault[1]))
            continue
        seen[rel.casefold()] = rel
        if path.suffix.lower() in OWN_IMAGE_SUFFIXES:
            bad = raster_fault(path, where)
            if bad is None:
                images.append((rel, path))
            else:
                problems.append(Problem(where, None, None, bad.message, hint=bad.hint))
            continue
        page, found = read_own_page(rel, path, where)
        problems.extend(found)
        if page is not None:        # None: a private page (which stays off the site), or a broken one
            pages.append(page)
    if problems:
        raise DataError(problems)
    pages.sort(key=lambda p: (p.path != "index.md", p.path.count("/"), p.path))
    return OwnFiles(tuple(pages), tuple(images))


def read_own_page(rel: str, path: Path, where: str) -> tuple[OwnPage | None, list[Problem]]:
    """A Markdown page read through the gate as UTF-8 text, its front matter
    checked; no page for a page marked private, or one with problems."""
    try:
        text = read_limited(path, MAX_OWN_PAGE_BYTES, "a page").decode("utf-8")
    except UnreadableFile as exc:
        return None, [exc.problem(where)]
    except UnicodeDecodeError as exc:
        return None, [Problem(where, None, None, f"not UTF-8 text (byte {exc.start + 1})",
                              hint="save the page as UTF-8")]
    return page_from_text(rel, text, where)


def page_from_text(rel: str, text: str, where: str) -> tuple[OwnPage | None, list[Problem]]:
    """A page from its text: no page when its front matter says private or
    has problems."""
    slow = _unbounded_work(text, where)
    if slow is not None:
        return None, [slow]
    matter, body, problems = split_front_matter(text, where)
    if problems or matter is None:
        return None, problems
    if matter.visibility == "private":
        return None, []
    return own_page(rel, body, matter.title), []


def _unbounded_work(text: str, where: str) -> Problem | None:
    """A page the site's Markdown and HTML parsers could not read in bounded
    time or depth (core/nesting.py), refused where it goes too far."""
    deep = too_deep(text, MAX_PAGE_NESTING)
    if deep is not None:
        return Problem(where, deep.line, deep.column, f"the page nests {deep.depth} {deep.what} deep here; "
                       f"a page may nest at most {MAX_PAGE_NESTING}",
                       hint="flatten the lists, quotes or HTML blocks; a page this deep cannot be built safely")
    slow = bracket_work(text)
    if slow is not None:
        return Problem(where, slow[0], None, "this paragraph has so many '[' that never close (or nest so deep) "
                       "that Markdown would take minutes over it",
                       hint="write a bracket that opens no link as \\[, or close it")
    return None


def split_front_matter(text: str, where: str) -> tuple[FrontMatter | None, str, list[Problem]]:
    """A page's front matter (checked) and the Markdown after it. Any line
    ending is a line ending (Windows' CRLF, an old Mac's lone CR), a leading
    byte-order mark is dropped, and the front matter is YAML read by the one
    reader, at its lines in the page."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[0].rstrip(" \t") != FRONT_MATTER_FENCE:
        return FrontMatter(), "\n".join(lines), []
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip(" \t") in (FRONT_MATTER_FENCE, "...")), None)
    if end is None:
        return None, "", [Problem(where, 1, 1, "front matter that never ends",
                                  hint="close it with a line of three dashes (---)")]
    doc, problems = parse_yaml("\n".join(lines[1:end]) + "\n", where, first_line=2)
    if doc is None:
        return None, "", problems
    if doc.data is None:
        return FrontMatter(), "\n".join(lines[end + 1:]), problems
    if not isinstance(doc.data, dict):
        return None, "", problems + [doc.problem((), "front matter must be keys and values, e.g. title: Welcome")]
    matter, found = validate(FrontMatter, doc)
    return matter, "\n".join(lines[end + 1:]), problems + found


def own_page(rel: str, markdown: str, title: str | None = None) -> OwnPage:
    """The page's title (its front matter's, else its first level-one
    heading, else its file name) with its Markdown."""
    title = title.strip() if title and title.strip() else _first_heading(markdown)
    if not title:
        stem = PurePosixPath(rel).stem if PurePosixPath(rel).stem != "index" else PurePosixPath(rel).parent.name
        title = line_start((stem or "Home").replace("-", " ").replace("_", " "))
    return OwnPage(rel, " ".join(title.split())[:200], calm_headings(markdown))


def _own_files(folder: Path) -> list[tuple[str, Path]]:
    """Every file in the pages folder as (name in the site, path), in a
    stable order, hidden names left out; a link to a folder is listed (to
    be refused, never followed)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted([*files, *(d for d in dirs if os.path.islink(os.path.join(root, d)))]):
            if not name.startswith("."):
                path = Path(root) / name
                found.append((path.relative_to(folder).as_posix(), path))
    return found


def _own_file_fault(rel: str, path: Path, base: Path, seen: dict[str, str]) -> tuple[str, str] | None:
    """What keeps a file out of the site, as (message, hint): its name, a
    name that clashes but for case, a place outside the folder, its kind."""
    fault = _own_name_fault(rel)
    if fault is None and rel.casefold() in seen:
        fault = (f"'{rel}' and '{seen[rel.casefold()]}' differ only in case",
                 "a web server or another computer may not tell them apart: rename one")
    if fault is None and not path.resolve().is_relative_to(base):
        fault = ("a link to something outside the pages folder",
                 "copy the file into the pages folder; the site publishes only what is inside it")
    suffix = path.suffix.lower()
    if fault is None and suffix != OWN_PAGE_SUFFIX and suffix not in OWN_IMAGE_SUFFIXES:
        fault = (f"the site takes Markdown pages ({OWN_PAGE_SUFFIX}) and PNG, JPEG, GIF or WebP images "
                 "from the pages folder", "move this file elsewhere or convert it")
    return fault


def _own_name_fault(rel: str) -> tuple[str, str] | None:
    parts = rel.split("/")
    if not all(OWN_NAME.fullmatch(part) for part in parts):
        return (f"'{rel}' cannot be an address on the site",
                "name pages and images with letters, digits, '-', '_' and '.', e.g. house-rules.md")
    from ..systems import SLUGS
    top = parts[0].casefold()
    if top in SITE_NAMES or top in SLUGS or (len(parts) == 1 and top != "index.md" and top.endswith(".md")
                                             and top[:-3] in SLUGS):
        return (f"'{parts[0]}' is a name the site uses itself", "rename it, e.g. house-rules.md")
    return None


_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BLANKS = re.compile(r"[ \t]+")


def calm_headings(text: str) -> str:
    """`text` with every run of spaces and tabs in a heading made one space
    (a browser shows them so anyway). Python-Markdown's attr_list looks for
    `{...}` at a heading's end with a pattern that goes back over a run of
    spaces from each of its spaces: a 250 KB heading of spaces took minutes."""
    lines = text.split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (_is_atx(line) or (i + 1 < len(lines) and line.strip()
                                                and _SETEXT_UNDERLINE.match(lines[i + 1]))):
            lines[i] = _BLANKS.sub(" ", line)
    return "\n".join(lines)


def _is_atx(line: str) -> bool:
    """Whether `line` is an ATX heading of any level."""
    text = line.lstrip(" ")
    marks = len(text) - len(text.lstrip("#"))
    return len(line) - len(text) <= 3 and 1 <= marks <= 6 and text[marks:marks + 1] in ("", " ", "\t")


def _first_heading(text: str) -> str | None:
    fenced = False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found = _atx_heading(line)
        if found is None and line.strip() and i + 1 < len(lines) and _SETEXT_H1.match(lines[i + 1]):
            found = line.strip()
        if found is not None:
            heading = _link_texts(_drop_attribute_list(found))
            heading = _EMPHASIS.sub("", strip_tags(heading))
            return html.unescape(heading).strip() or None
    return None


# The heading's text is read by scans, not patterns with a lazy or repeated
# part before an anchor: on a long line those go back over the rest of the
# line from every place they could start (a 250 KB line took minutes).
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")


def _atx_heading(line: str) -> str | None:
    """The text of a level-one ATX heading (`# Title`, up to three spaces
    before, an optional closing run of `#` after a space), or None. A
    heading of blanks is one (its text is empty): the first heading is it."""
    text = line.lstrip(" ")
    if len(line) - len(text) > 3 or text[:1] != "#" or text[1:2] not in (" ", "\t") or len(text) < 3:
        return None
    content = text[1:].strip(" \t")
    unclosed = content.rstrip("#")
    if unclosed != content and unclosed[-1:] in (" ", "\t"):
        content = unclosed.rstrip(" \t")
    return content


def _drop_attribute_list(text: str) -> str:
    """`text` without an attribute list at its end (`Title {#id .class}`)."""
    end = len(text.rstrip())
    if not end or text[end - 1] != "}":
        return text
    opening = text.find("{", text.rfind("}", 0, end - 1) + 1, end - 1)
    return text if opening == -1 else text[:opening].rstrip()


def _link_texts(text: str) -> str:
    """Each Markdown link or image, `[text](target)` or `![text](target)`,
    replaced by its text, in one scan."""
    out, i = [], 0
    while True:
        start = text.find("[", i)
        close = text.find("]", start + 1) if start != -1 else -1
        if close == -1:
            break
        if text[close + 1:close + 2] != "(":
            out.append(text[i:close + 1])
            i = close + 1
            continue
        end = text.find(")", close + 2)
        if end == -1:
            break
        begin = start - 1 if start > i and text[start - 1] == "!" else start
        out += [text[i:begin], text[start + 1:close]]
        i = end + 1
    out.append(text[i:])
    return "".join(out)


def strip_tags(text: str) -> str:
    """`text` without anything between `<` and the next `>` (what
    `re.sub("<[^>]*>", "", text)` does), in one scan: that pattern goes back
    over the rest of the text from every `<` that is never closed."""
    out, i = [], 0
    while True:
        start = text.find("<", i)
        end = text.find(">", start + 1) if start != -1 else -1
        if end == -1:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:start])
        i = end + 1
