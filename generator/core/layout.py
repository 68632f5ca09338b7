"""Where a build puts each document's PDF, and how the site links it.

Core layer: relative paths only, no file system. The build writes a PDF at
`DocumentPdf.path` (inside its staging folder, then the output folder), the
site copies a public one to `DocumentPdf.download` and links it with
`DocumentPdf.href`. Like MkDocs's File with its dest_path and url: one
object knows both ends, so the build and the site cannot drift apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from .paper import Paper

PDF_FOLDER = "pdf"              # in the output folder
DOWNLOADS_FOLDER = "downloads"  # in the built site


def paper_folder(paper: Paper) -> PurePosixPath:
    """Everything a build prints on one paper, under the output folder. Each
    paper is an entry of its own, so building one paper leaves the other's."""
    return PurePosixPath(PDF_FOLDER, paper.name)


@dataclass(frozen=True)
class DocumentPdf:
    """One document of one system, printed on one paper."""

    paper: Paper
    system: str     # the system's slug
    folder: str     # the document's folder (public, players, gm, ...)
    slug: str

    @property
    def path(self) -> PurePosixPath:
        """Inside the output folder: pdf/<paper>/<system>/<folder>/<slug>.pdf."""
        return paper_folder(self.paper) / self.system / self.folder / f"{self.slug}.pdf"

    @property
    def label(self) -> str:
        """How progress and errors name it: the paper, then the path in its paper's folder."""
        return f"{self.paper.name} {self.path.relative_to(paper_folder(self.paper))}"

    @property
    def download(self) -> PurePosixPath:
        """Inside the built site, for a public document: downloads/<paper>/<system>/<slug>.pdf."""
        return PurePosixPath(DOWNLOADS_FOLDER, self.paper.name, self.system, f"{self.slug}.pdf")

    def href(self, page: str) -> str:
        """The relative link to `download` from a site page, given by its
        source path in the site (e.g. 'sixes/rules.md')."""
        return "../" * page.count("/") + self.download.as_posix()
