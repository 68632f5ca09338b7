"""The site's front page and its list of games: render layer (the site writer calls it).

The site is the game's, so the front page leads with each game's own title
and pitch, then where to read its rules, who is in its cast and what to
print. What the tool says about its rule systems (System.summary) is not a
pitch of anyone's game, so it is left out.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.i18n import _, line_start
from ...core.layout import DocumentPdf
from ...core.paper import Paper
from ...game.casting import without_title
from ..html import front_matter, local_href, md_text, render_template

if TYPE_CHECKING:          # writer.py imports this module: named for the type checker only
    from ...game.pages import OwnPage
    from .mkdocs_build import SiteLook

# In the home page (or a game's own page) this line becomes the list of the
# games the data holds, so the site never links a section that was not built.
GAMES_MARKER = "<!-- games -->"
GAMES_TEMPLATE = "site/games.md.j2"


def home_page(look: SiteLook, own: list[OwnPage]) -> str:
    """The site's front page when the game has none of its own (an index.md
    in its pages folder): the site's name and description, its games (the
    marker, filled in once the sections are known) and its own pages."""
    parts = [front_matter(look.name) + f"# {md_text(look.name)}\n"]
    if look.description:
        parts.append(f"{md_text(look.description)}\n")
    parts.append(f"{GAMES_MARKER}\n")
    if own:
        more = md_text(_("More from the organisers"))
        parts.append(f"## {more}\n\n"
                     + "\n".join(f"- [{md_text(p.title)}]({local_href(p.path)})" for p in own) + "\n")
    return "\n".join(parts)


def games_block(sections: list, papers: tuple[Paper, ...], page: str, site_name: str,
                cast_page: str | None = None) -> str:
    """Each game as the page at `page` shows it: its title, its pitch, a link
    to its rules, its cast list (`cast_page`, under the section, when listed)
    and its public printables on each paper. A game whose title is the
    site's name needs no heading of its own under the page's."""
    depth = "../" * page.count("/")
    games = []
    for section in sections:
        slug = section.system.slug
        downloads = [{"title": short_title(doc.title, section.game_title),
                      "papers": [(paper.label, local_href(DocumentPdf(paper, slug, doc.folder, doc.slug).href(page)))
                                 for paper in papers]}
                     for doc in section.public_documents.values()]
        games.append({"title": section.game_title or section.system.title, "pitch": section.pitch,
                      "system": section.system.title, "rules": local_href(f"{depth}{slug}/index.md"),
                      "cast": local_href(f"{depth}{slug}/{cast_page}") if cast_page and section.cast else None,
                      "downloads": downloads})
    return render_template(GAMES_TEMPLATE, {"games": games, "site_name": site_name})


def short_title(title: str, game_title: str) -> str:
    """A document's title without its game's title in front ("Low Water:
    hand-signal cards" is "Hand-signal cards" under the game's own heading)."""
    rest = without_title(title, game_title)
    return line_start(rest) if rest and rest != title else title


def unlink(markdown: str, target: str) -> str:
    """`markdown` without its links to `target` (a page left off the site):
    a list item that is only such a link goes; elsewhere the link's words stay
    as plain text."""
    link = re.compile(r"\[([^\]]*)\]\(" + re.escape(target) + r"(?:#[^)]*)?\)")
    kept = [line for line in markdown.split("\n") if not re.match(r"\s*[-*] " + link.pattern, line)]
    return link.sub(r"\1", "\n".join(kept))
