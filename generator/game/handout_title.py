"""A handout as a cover and the manifest list it: by its title, not its file name.

Game floor: reads the handout through the one gate (core/loading) and its
metadata with pypdf. The title the PDF gives itself (`/Title`) when it has a
readable one, else the file's name made readable ('tide_table.pdf' is
'Tide table'). A title that is only a file name ('Microsoft Word -
map.docx', 'scan.pdf') says less than ours and is passed over; one with a
character a name may not hold (core/text.refused) is passed over too, and
a long one is cut, so a hostile file cannot fill a cover.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

from ..core.text import refused

# Longer titles are cut (with an ellipsis): a cover lists a handout on a line or two.
MOST_LETTERS = 80
_FILE_NAME_TITLE = re.compile(r"\.[A-Za-z0-9]{2,5}$")


def handout_title(path: Path) -> str:
    """What a cover and the manifest call the handout at `path`."""
    return _metadata_title(path) or readable_name(path)


def readable_name(path: Path) -> str:
    """The file's name without its extension, separators as spaces, first letter capital."""
    words = " ".join(path.stem.replace("_", " ").replace("-", " ").split())
    return words[:1].upper() + words[1:] if words else path.name


def _metadata_title(path: Path) -> str | None:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    from ..core.assets import MAX_PDF_BYTES
    from ..core.loading import UnreadableFile, read_limited
    try:    # the gather has read it already: only a file changed since can fail here
        metadata = PdfReader(io.BytesIO(read_limited(path, MAX_PDF_BYTES, "a handout"))).metadata
        title = metadata.title if metadata is not None else None
    except (UnreadableFile, PdfReadError, ValueError, TypeError, KeyError):
        return None
    if not isinstance(title, str):
        return None
    title = " ".join(title.split())
    if not title or _FILE_NAME_TITLE.search(title) or any(refused(c, "name") for c in title):
        return None
    return title if len(title) <= MOST_LETTERS else title[:MOST_LETTERS - 1].rstrip() + "…"
