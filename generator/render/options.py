"""How to print: options that change the rendered documents but not the data.

Edge layer, imports nothing heavy. One frozen value is passed from the
command line through the build to the renderers, and is part of the build
cache key, so changing an option re-renders what it affects.
"""
from __future__ import annotations

from dataclasses import dataclass

# Width x height of each card size, in millimetres.
CARD_SIZES = {"poker": (63.0, 88.0), "bridge": (57.0, 89.0), "tarot": (70.0, 120.0)}
CARD_SIZE_NAMES = tuple(CARD_SIZES)
BLEED_MM = 3.0
PRINTER_EDGE = 3.0   # mm at the sheet's edge a home laser printer cannot reach (cut marks and text stay inside)


@dataclass(frozen=True)
class PrintOptions:
    card_size: str = "poker"                      # one of CARD_SIZE_NAMES
    bleed: float = 0.0                            # mm of bleed around every card (0 or BLEED_MM)
    backs: bool = False                           # card backs on the following page, for long-edge duplex
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm the backs (and their marks) move, right and down
    ink_saver: bool = False                       # no background fills, black text (templates/print/ink-saver.css)
    large_print: bool = False                     # 12 pt minimum on sheets and summaries (large-print.css)
    tagged: bool = True                           # tagged, accessible PDF/UA-1 output (--untagged: off)
    fillable: bool = False                        # HTML inputs become PDF form fields (else printed flat)

    def __post_init__(self) -> None:
        if self.card_size not in CARD_SIZE_NAMES:
            raise ValueError(f"unknown card size {self.card_size!r}; expected one of {', '.join(CARD_SIZE_NAMES)}")


DEFAULT_OPTIONS = PrintOptions()
# Stylesheets (under templates/) each variant adds after a document's own CSS.
INK_SAVER_CSS = "print/ink-saver.css"
LARGE_PRINT_CSS = "print/large-print.css"
# Large print may need more pages than a document's usual budget.
LARGE_PRINT_PAGE_FACTOR = 2
PDF_UA = "pdf/ua-1"


def variant_stylesheets(options: PrintOptions, *, is_deck: bool, is_gm: bool) -> tuple[str, ...]:
    """Which variant stylesheets a document gets: ink saver everywhere; large
    print on what players read, never on cards (a card cannot grow)."""
    sheets = []
    if options.ink_saver:
        sheets.append(INK_SAVER_CSS)
    if options.large_print and not is_deck and not is_gm:
        sheets.append(LARGE_PRINT_CSS)
    return tuple(sheets)


def parse_offset(text: str) -> tuple[float, float]:
    """'1.5,-0.5' -> (1.5, -0.5); raises ValueError with a readable message."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise ValueError(f"expected X,Y in millimetres (for example 1.5,-0.5), found {text!r}")
    try:
        x, y = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"expected two numbers X,Y in millimetres, found {text!r}") from None
    if abs(x) > 20 or abs(y) > 20:
        raise ValueError(f"an offset of more than 20 mm ({text}) is not a printer error; measure again")
    return x, y
