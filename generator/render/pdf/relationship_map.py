"""The GM's relationship map drawn by Graphviz, as an image for a PDF.

Render floor. The layout is Graphviz's (`dot -Kneato`: a spring layout
suits a web with no top or bottom), run through the one gate that starts
programs (core/programs.run_program) with the source on standard input and
no value from the data on the command line. What it draws is read back
through the SVG gate (render/svg_clean.clean_svg: drawing elements only),
so the PDF embeds only what that allow-list keeps.
"""
from __future__ import annotations

import base64

from ...core.errors import BuildError
from ...core.paths import TEMPLATES_DIR
from ...core.programs import ProgramError, run_program
from ..svg_clean import clean_svg

# A web of a few hundred ties lays out in well under a second; a stuck layout is stopped.
LAYOUT_SECONDS = 60.0


def draw_map(source: str) -> str:
    """The map of a Graphviz `source` as a data: URL of a cleaned SVG; a
    BuildError in one line when Graphviz is missing or fails."""
    try:
        svg = run_program(["dot", "-Kneato", "-Tsvg"], cwd=TEMPLATES_DIR, stdin=source, timeout=LAYOUT_SECONDS)
    except ProgramError as exc:
        raise BuildError(f"the relationship map could not be drawn: {exc}",
                         ["install Graphviz (`make pack`, or apt-get install graphviz)"]) from None
    cleaned = clean_svg(svg.encode("utf-8"), "the relationship map")
    return "data:image/svg+xml;base64," + base64.b64encode(cleaned).decode("ascii")
