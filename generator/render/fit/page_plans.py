"""How many pages past its plan a flowing document will take: the page
budget `render/jobs.prepare_html` gives it, so that the build's warning
("runs to N pages where its layout plans M") is kept for what really runs
long.

Edge layer (imports core/measure.py and render/fit/bounded.py's notes). Each
estimate mirrors one template and its CSS, named beside it: the notes of
the one-page references (bounded.PAGE_NOTES, whose size `check` bounds),
the text and the lists that flow down a sheet, and the GM documents that
list a whole cast. A page count is never a reason to refuse a build (a
flowing document prints whole), so an estimate that falls short costs a
warning, not a failure.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping

from ...core.measure import PT_PER_MM, line_count
from .bounded import PAGE_BODY_MM, PAGE_LINE, PAGE_NOTES


# Text that flows on a sheet (a background onto its second page and on,
# features and specials down the main column): by template, each text in
# the context with the width it takes (mm) and the lines the sheet's own
# page budget already holds for it, at SHEET_PT.
SHEET_PT, MAIN_COLUMN, WHOLE_PAGE = 10.0, 100.0, 170.0


# A list of entries on a sheet (a Sixes character's specials, an I6 hero's
# features, gear and attacks) grows with their number as much as with their
# words: every entry takes its name's line, its text's lines and the space
# between entries. A sheet's own budget holds ENTRY_LINES lines of each such
# list (a handful of entries); each line past that counts, and never fewer
# than the lines past two of each entry's text (what a few long entries need).
ENTRY_LINES = 24
ENTRY_GAP = 1                  # the margin and padding between two entries (2 to 3.5 mm), as a line


def _entries_over(entries: Iterable[tuple[str, str]], width_mm: float) -> int:
    """Lines a list of (name, text) entries, each its name on a line of its
    own above its text, takes past what the sheet's budget holds for it."""
    entries = list(entries)
    whole = sum(line_count(name, width_mm, SHEET_PT, weight=700) + line_count(text, width_mm, SHEET_PT) + ENTRY_GAP
                for name, text in entries)
    long_texts = sum(max(0, line_count(text, width_mm, SHEET_PT) - 2) for _name, text in entries)
    return max(whole - ENTRY_LINES, long_texts)


def _rows_over(rows: int, per_row: float = 1.5) -> int:
    """Lines a table of `rows` one-line rows takes past what the budget holds."""
    return max(0, math.ceil(rows * per_row) - ENTRY_LINES)


Flowing = tuple[list[tuple[str, float, int]], int]


def _hero_texts(c: Mapping[str, Any]) -> Flowing:
    hero = c["hero"]
    # A feature's name runs into its text, so its line is counted with it.
    return [(c["secret"] or "", WHOLE_PAGE, 12), (hero["description"] or "", MAIN_COLUMN, 4)], \
        _entries_over([("", f"{f.name}. {f.rule}") for f in hero["features"]]
                      + [("", f"{g.name}. {g.description}") for g in hero["gear"]], MAIN_COLUMN) \
        + _entries_over([("", a.rule) for a in c["actions"]], MAIN_COLUMN) + _rows_over(len(hero["attacks"]))


def _character_texts(c: Mapping[str, Any]) -> Flowing:
    character = c["character"]
    return [(character.background or "", WHOLE_PAGE, 12), (character.description or "", MAIN_COLUMN, 4)], \
        _entries_over([(s.name, s.rule) for s in c["specials"]], MAIN_COLUMN)


# The Sixes GM cheat sheet (templates/sixes/gm_cheat_sheet.html, sheet.css):
# its budget holds two pages per run of the roster and four for the rules,
# the specials library and the GM notes. A roster row is as tall as its
# tallest cell (9 pt; the columns at their narrowest: name, faction, the
# specials held, the attack at each Speed on two lines); the library lists
# every special with its rule, what the resolver does and who holds it.
ROSTER_COLUMNS = (30.0, 25.0, 55.0)
ROSTER_ROW_LINES = 2.5          # what a run's two pages hold of each of its rows
LIBRARY_LINES = 80              # what the library and the GM notes have of their pages


def _cheat_sheet_texts(c: Mapping[str, Any]) -> Flowing:
    library, info = c["library"], c["info"]
    over = 0
    for part in c["roster_parts"]:
        rows = [max(2, line_count(m.character.name, ROSTER_COLUMNS[0], 9.0, weight=700),
                    line_count(m.character.faction, ROSTER_COLUMNS[1], 9.0),
                    line_count(", ".join(m.character.specials), ROSTER_COLUMNS[2], 9.0) + 1) for m, _slots in part]
        over += max(0, sum(rows) - math.floor(ROSTER_ROW_LINES * len(rows)))
    held = {name: ", ".join(m.character.name for m, _slots in c["cast"] if name in m.character.specials)
            for name in library}
    notes = c["resolver_notes"]
    entries = [(name, f"{s.rule}\n\n{notes[name]}\n\n{held[name]}") for name, s in library.items()]
    whole = sum(line_count(name, WHOLE_PAGE, SHEET_PT, weight=700) + line_count(text, WHOLE_PAGE, SHEET_PT)
                + ENTRY_GAP for name, text in entries)
    whole += line_count(info.gm_notes, WHOLE_PAGE, SHEET_PT) + 2 if info.gm_notes else 0
    noted = c.get("character_notes", [])
    whole += sum(line_count(name, WHOLE_PAGE, SHEET_PT, weight=700) + line_count(text, WHOLE_PAGE, SHEET_PT) + 1
                 for name, text in noted) + (2 if noted else 0)
    return [], over + max(0, whole - LIBRARY_LINES)


# The Sixes System's private cast (templates/sixes-system/gm_cast.html): its
# budget holds half a page of each combatant; each takes its name, its
# description, the lines of its stats, purposes, skills, armour and
# defences (9 pt), and a row of the weapons table for each weapon (a name
# may wrap in its column).
CAST_MEMBER_LINES = 20
WEAPON_COLUMN = 40.0


def _gm_cast_texts(c: Mapping[str, Any]) -> Flowing:
    total = 0
    for member in c["cast"]:
        combatant = member.combatant
        listed = [", ".join(f"{k} {v}" for k, v in combatant.stats.items()),
                  ", ".join(f"{k} {v}" for k, v in combatant.purposes.items()),
                  ", ".join(f"{k} {v}" for k, v in combatant.skills.items()),
                  ", ".join(f"{d.mode} ({d.stat} + {d.purpose} + {d.skill or ''})" for d in combatant.defences)]
        total += 3 + line_count(combatant.description, WHOLE_PAGE, SHEET_PT) + 2 \
            + sum(max(1, line_count(text, WHOLE_PAGE, 9.0)) for text in listed) \
            + sum(max(1, line_count(w.name, WEAPON_COLUMN, 9.0)) + 1 for w in combatant.weapons)
    return [], max(0, total - CAST_MEMBER_LINES * len(c["cast"]))


# By template: (each prose text with the width it takes and the lines the
# budget holds for it, the lines its lists of entries take past theirs).
FLOWING: dict[str, Callable[[Mapping[str, Any]], Flowing]] = {
    "i6/hero_sheet.html": _hero_texts, "sixes/character_sheet.html": _character_texts,
    "sixes/gm_cheat_sheet.html": _cheat_sheet_texts, "sixes-system/gm_cast.html": _gm_cast_texts}


def extra_pages(template: str, context: Mapping[str, Any]) -> int:
    """Pages a document needs beyond its budget for the length of its notes
    or flowing text: every line past what the budget holds, over three
    quarters of a page (a page breaks where it can, not where it is full)."""
    entries = 0
    if template in PAGE_NOTES:
        spec = PAGE_NOTES[template]
        pt = spec.pt
        texts = [(t, spec.width_mm, spec.allowance) for t, _note in spec.notes(context[spec.key])]
    elif template in FLOWING:
        pt = SHEET_PT
        texts, entries = FLOWING[template](context)
    else:
        return 0
    lines = entries + sum(max(0, line_count(text, width, pt) - allowance) for text, width, allowance in texts if text)
    return math.ceil(lines * pt * PAGE_LINE / PT_PER_MM / (0.75 * PAGE_BODY_MM))
