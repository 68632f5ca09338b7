"""One declaration per fixed box (render/fit/boxes.py): the CSS the PDF
prints with is written from it, the measure `check` takes reads it, and no
template states a declared number again; a new card face is declarations
alone."""
from __future__ import annotations

import re

import pytest
import tinycss2  # type: ignore[import-untyped]  # WeasyPrint's CSS parser, without types

from generator.core.loading import load_yaml
from generator.core.measure import PT_PER_MM
from generator.core.paths import TEMPLATES_DIR
from generator.render.fit import boxes, bounded, cover_fit, fit, labels, lookup_fit, stacked
from generator.render.fit.boxes import CARDS, DECLARED, Edges, Face, Zone, stylesheet
from generator.render.fit.faces import face_boxes, face_fits, face_problems, face_texts
from generator.render.options import CARD_SIZES, PrintOptions

# Each declared property and the longhands and shorthands that would set it too.
_ALSO = {"padding": ("padding-top", "padding-right", "padding-bottom", "padding-left"),
         "margin": ("margin-top", "margin-right", "margin-bottom", "margin-left"),
         "font-size": ("font",), "line-height": ("font",), "font-weight": ("font",),
         "border": ("border-top", "border-right", "border-bottom", "border-left", "border-width")}


def _rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    """(selectors, {property: value}) of each rule, @page rules named '@page NAME'."""
    found = []
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type == "qualified-rule":
            selectors = [" ".join(s.split()) for s in tinycss2.serialize(rule.prelude).split(",")]
        elif rule.type == "at-rule" and rule.lower_at_keyword == "page" and rule.content is not None:
            selectors = [f"@page {tinycss2.serialize(rule.prelude).strip()}".strip()]
        else:
            continue
        props = {d.lower_name: tinycss2.serialize(d.value).strip()
                 for d in tinycss2.parse_blocks_contents(rule.content or [], skip_comments=True, skip_whitespace=True)
                 if d.type == "declaration"}
        found.append((selectors, props))
    return found


def restated(css: str, declared: tuple[boxes.Declared, ...] = DECLARED) -> list[str]:
    """Each declared property a stylesheet sets again for a declared selector."""
    wrong = []
    for selectors, props in _rules(css):
        for item in declared:
            mine = {" ".join(s.split()) for s in item.selector.split(",")}
            if not mine & set(selectors):
                continue
            names = item.property_names()
            banned = names | {also for name in names for also in _ALSO.get(name.split("-")[0] if name.startswith(
                ("padding", "margin", "border")) else name, ())}
            wrong += [f"{item.selector} {{ {p}: {props[p]} }}" for p in sorted(banned & set(props))]
    return wrong


def _edges(value: str) -> Edges:
    """A CSS box shorthand's four sides, in mm."""
    parts = [0.0 if v == "0" else float(v.removesuffix("mm")) for v in value.split()]
    parts += [parts[0]] * (2 - len(parts)) if len(parts) < 2 else []
    top, right = parts[0], parts[1]
    bottom = parts[2] if len(parts) > 2 else top
    return Edges(top, right, bottom, parts[3] if len(parts) > 3 else right)


@pytest.mark.parametrize("item", boxes.every_declared(), ids=lambda d: d.selector)
def test_the_css_printed_is_the_declaration(item):
    """The generated rule, read back as CSS, holds the declaration's numbers."""
    (selectors, props), = [(s, p) for s, p in _rules(stylesheet(item.sheet)) if s == [
        " ".join(x.split()) for x in item.selector.split(",")]]
    if item.steps:
        assert float(props["font-size"].removesuffix("pt")) == item.steps[0]
    if item.line_height is not None:
        assert float(props["line-height"]) == item.line_height
    if item.weight is not None:
        assert int(props["font-weight"]) == item.weight
    for name in ("padding", "margin"):
        edges = getattr(item, name)
        if all(getattr(edges, side) is not None for side in ("top", "right", "bottom", "left")):
            assert _edges(props[name]) == edges
        for side in ("top", "right", "bottom", "left"):
            if getattr(edges, side) is not None:
                value = props.get(f"{name}-{side}")
                assert value is None or _edges(value).top == getattr(edges, side)
    for side in ("top", "right", "bottom", "left"):
        if getattr(item.place, side) is not None:
            assert _edges(props[side]).top == getattr(item.place, side)
    if item.rule is not None:
        prop = "border" + (f"-{item.rule.side}" if item.rule.side else "")
        assert float(props[prop].split()[0].removesuffix("pt")) == item.rule.pt


def _printed_with(sheet: str) -> set[str]:
    """The stylesheets a document that prints `sheet` also prints: base.css,
    and for a card face the sheet of every card (and every system's faces)."""
    cards = {str(p.relative_to(TEMPLATES_DIR)) for p in TEMPLATES_DIR.glob("*/cards.css")}
    return {sheet, "base.css"} | (cards if sheet in cards else set())


def test_no_template_restates_a_declared_number():
    """No stylesheet printed with a declared box, nor a <style> under
    templates/, sets a declared property of a declared selector: the
    declaration is the only place it is said."""
    wrong = []
    for name in sorted({str(p.relative_to(TEMPLATES_DIR)) for p in TEMPLATES_DIR.rglob("*.css")}):
        mine = tuple(item for item in boxes.every_declared() if name in _printed_with(item.sheet))
        css = (TEMPLATES_DIR / name).read_text(encoding="utf-8")
        wrong += [f"{name}: {w}" for w in restated(css, mine)]
    for path in sorted(TEMPLATES_DIR.rglob("*.html")):
        for css in re.findall(r"<style>(.*?)</style>", path.read_text(encoding="utf-8"), re.S):
            wrong += [f"{path.relative_to(TEMPLATES_DIR)}: {w}" for w in restated(css, boxes.every_declared())]
    assert wrong == []


def test_the_scan_finds_a_restated_number():
    """Someone writing the card's font size into cards.css again is found."""
    css = (TEMPLATES_DIR / CARDS).read_text(encoding="utf-8") + "\n.card { font-size: 10pt; }\n"
    assert restated(css) == [".card { font-size: 10pt }"]
    assert restated(".cover-half h2 { margin-top: 3mm }") != []
    assert restated(".label { padding-left: 5mm }") == [".label { padding-left: 5mm }"]


_TAG = re.compile(r"<([a-z][a-z0-9]*)\s([^>]*)>")
_ATTR = re.compile(r'([a-z][\w-]*)="([^"]*)"')


def _elements(selector: str) -> list[tuple[str, set[str], set[str]]]:
    """The element each part of a selector styles, when a class names it:
    (its tag or "", its classes, the first class of each ancestor)."""
    found = []
    for part in selector.split(","):
        compounds = [re.sub(r":[\w-]+(\([^)]*\))?", "", c) for c in part.split()]
        classes = set(re.findall(r"\.([\w-]+)", compounds[-1]))
        if classes and not compounds[-1].startswith("@"):
            above = {names[0] for names in (re.findall(r"\.([\w-]+)", c) for c in compounds[:-1]) if names}
            found.append((re.sub(r"[.#\[].*", "", compounds[-1]), classes, above))
    return found


def inline_restated(html: str, declared: tuple[boxes.Declared, ...]) -> list[str]:
    """Each `style` attribute of a declared element (its class and its
    ancestors' in the template) that states a declared property itself:
    only a zone's font size may be there, as the step the fit chose
    (`{{ card.fit.pts[i] }}`), and every property by its name (a whole
    style from a Jinja call hides what it sets)."""
    wrong = []
    present = {c for value in re.findall(r'class="([^"]*)"|body_class %\}([^{]*)\{', html) for v in value
               for c in v.split()}
    for tag, attrs in _TAG.findall(html):
        attr = dict(_ATTR.findall(attrs))
        if "style" not in attr:
            continue
        classes = {c for c in attr.get("class", "").split() if "{" not in c}
        mine = [d for d in declared if any((not t or t == tag) and c <= classes and above <= present
                                           for t, c, above in _elements(d.selector))]
        props = {}
        for chunk in re.sub(r"\{\{.*?\}\}", lambda m: m.group(0).replace(";", ","), attr["style"]).split(";"):
            name, colon, value = chunk.partition(":")
            if mine and not colon and chunk.strip():
                wrong.append(f"<{tag} class={attr.get('class', '')!r}> style {chunk.strip()!r} names no property")
            elif colon:
                props[name.strip()] = value.strip()
        for item in mine:
            names = item.property_names()
            banned = names | {also for name in names for also in _ALSO.get(name.split("-")[0] if name.startswith(
                ("padding", "margin", "border")) else name, ())}
            wrong += [f"<{tag} class={attr.get('class', '')!r}> {p}: {props[p]} ({item.selector})"
                      for p in sorted(banned & set(props)) if not (p == "font-size" and "{{" in props[p])]
    return wrong


def test_no_template_states_a_declared_number_inline():
    """No template's `style` attribute states a declared property of a
    declared element (the packet's cards, inserts and badges among them)."""
    wrong = []
    for path in sorted(TEMPLATES_DIR.rglob("*.html")):
        found = inline_restated(path.read_text(encoding="utf-8"), boxes.every_declared())
        wrong += [f"{path.relative_to(TEMPLATES_DIR)}: {w}" for w in found]
    assert wrong == []


def test_the_inline_scan_finds_a_number_written_into_a_packet_face():
    """A packet template writing its title's size, or a whole style from a
    call, is found; the step the fit chose is not."""
    every = boxes.every_declared()
    card = '<div class="packet-card">{}</div>'
    assert inline_restated(card.format('<h2 class="packet-title" style="font-size: 11pt">'), every) == [
        "<h2 class='packet-title'> font-size: 11pt (.packet-card .packet-title)"]
    assert inline_restated('<div class="badge"><div class="badge-line" style="line-height: 1.2">', every) != []
    assert inline_restated('<section class="badge-grid {{ paper }}"><section class="badge" style="width: 80mm">',
                           every) != []
    sealed = '{% block body_class %}packet sealed{% endblock %}<section class="sealed-page insert">'
    assert inline_restated(sealed + "<div class=\"sealed-box\" style=\"{{ packet_box('insert') }}\">", every) != []
    assert inline_restated(card.format('<div class="packet-text" style="font-size: {{ card.fit.pts[1] }}pt">'),
                           every) == []
    assert inline_restated(card.format('<div class="plain" style="font-size: 11pt">'), every) == []


def test_each_sheet_prints_its_declarations_beside_its_link():
    """Every template that links a sheet with declarations (the registered
    faces' too) prints them beside it: after the card frame's, the pack's
    and the packet's sheets (their own later rules of equal weight lose to a
    declared one, as when it stood at the end of the file), before a card
    sheet of a system or the packet (whose later rules, the ladder's cells,
    the weapons card's subtitle, win as they did); sheet.html prints a
    deck's card sheet as `card_css`."""
    sheets = {item.sheet for item in boxes.every_declared()}
    assert sheets <= {str(p.relative_to(TEMPLATES_DIR)) for p in TEMPLATES_DIR.rglob("*.css")}
    assert {boxes.PACKET, boxes.PACKET_CARDS} <= sheets
    sheet_html = (TEMPLATES_DIR / "cards" / "sheet.html").read_text(encoding="utf-8")
    assert '<style>{{ box_css(card_css) }}</style><link rel="stylesheet" href="{{ card_css }}">' in sheet_html
    for sheet in sheets:
        card_sheet = sheet.endswith("/cards.css") and sheet != CARDS
        beside = (f'<style>{{{{ box_css("{sheet}") }}}}</style><link rel="stylesheet" href="{sheet}">' if card_sheet
                  else f'href="{sheet}"><style>{{{{ box_css("{sheet}") }}}}</style>')
        linking = [p for p in TEMPLATES_DIR.rglob("*.html") if f'href="{sheet}"' in p.read_text(encoding="utf-8")]
        printing = [p for p in linking if beside in p.read_text(encoding="utf-8")]
        assert printing or card_sheet, sheet
        # The manifest and roster link pack.css for its tables alone: they have no declared box.
        assert {p.name for p in linking} - {p.name for p in printing} <= {"manifest.html", "roster.html"}, sheet


def test_the_fit_modules_read_the_declarations():
    """The measure's numbers are the declaration's (no second copy to drift)."""
    assert fit.CARD_STEPS == boxes.CARD.steps and fit.LINE_HEIGHT == boxes.CARD.line_height
    assert fit.card_width(PrintOptions(card_size="poker")) == pytest.approx(
        CARD_SIZES["poker"][0] - 6.0 - 2 * 0.25 / PT_PER_MM)
    assert stacked.H2_PT == boxes.CARD_H2.pt and stacked.H2_LINE == boxes.CARD_H2.line_height
    assert labels.NAME_STEPS == boxes.LABEL_NAME.steps and labels.PAD_X == boxes.LABEL.padding.left
    assert labels.STAMP_PT == boxes.STAMP.pt and labels.STAMP_RIGHT == boxes.STAMP.place.right
    assert cover_fit.FULL.name_pt == boxes.COVER_NAME.pt and cover_fit.HALF.item_gap == boxes.HALF_ITEM.margin.bottom
    assert cover_fit.FULL.top == boxes.COVER_PAGE_MARGINS.margin.mm("top") + boxes.COVER_PAGE.padding.mm("top")
    assert bounded.CHALLENGE_COLUMNS == (0.34, 0.10, 0.28, 0.28) and bounded.NAME_PT == boxes.CHALLENGE_NAME.pt
    assert bounded.TABLE_LINE == boxes.D6_CELL.line_height and bounded.LEVEL_COLUMN == pytest.approx(16.0 - 1.6)
    assert lookup_fit.GRID_LINE == boxes.GRID_CELL.line_height and lookup_fit.SWATCH_MM == boxes.SWATCH.width_mm


# A card face nobody wrote code for: a badge with its holder's name in a
# zone of fixed height, and their description in the room left.
BADGE = Face("a test badge", "test", "badges.yaml", zones=(
    Zone(".badge .who", CARDS, field="name", what="the name on a test badge", steps=(14.0, 12.0, 10.0),
         line_height=1.1, weight=700, height_mm=12.0, margin=Edges(bottom=1.0)),
    Zone(".badge .about", CARDS, field="description", what="the description on a test badge",
         steps=(9.0, 8.0, 7.0), line_height=1.2, gap_mm=1.0),
))
LONG = " ".join(["hidden"] * 400)


def _badge(tmp_path, name: str, description: str):
    path = tmp_path / "badges.yaml"
    path.write_text(f"badges:\n  - name: {name}\n    description: {description}\n", encoding="utf-8")
    doc, problems = load_yaml(path, "test/badges.yaml")
    assert problems == [] and doc is not None
    item = type("Badge", (), doc.data["badges"][0])
    return doc, face_texts(BADGE, item, ("badges", 0))


def test_a_declared_face_gets_its_css_from_its_declaration():
    css = stylesheet(CARDS, BADGE.zones)
    assert ".badge .who { font-size: 14pt; line-height: 1.1; font-weight: 700; margin-bottom: 1mm; " \
           "height: 12mm; overflow: hidden; }" in css
    assert ".badge .about p { margin: 0 0 1mm; }" in css
    assert restated(".badge .about { line-height: 1.3 }", BADGE.zones) == [".badge .about { line-height: 1.3 }"]


def test_a_declared_face_that_fits_is_told_its_steps(tmp_path):
    doc, texts = _badge(tmp_path, "Ada Brass", "Holds the key to the north door.")
    options = PrintOptions(card_size="poker")
    assert face_problems(BADGE, texts, doc, options) == []
    (told,) = face_fits(BADGE, texts, options)
    assert told.pts == (14.0, 9.0) and told.pt == 14.0
    assert told.sources == ("test/badges.yaml#badges.0.name", "test/badges.yaml#badges.0.description")


def test_a_declared_face_too_full_is_refused_at_its_line(tmp_path):
    doc, texts = _badge(tmp_path, "Ada Brass", LONG)
    options = PrintOptions(card_size="poker")
    (problem,) = face_problems(BADGE, texts, doc, options)
    assert (problem.file, problem.line, problem.column) == ("test/badges.yaml", 3, 18)
    assert "too long for the description on a test badge" in problem.message and "at 7 pt" in problem.message
    # The room is the card's, less the name's zone and its margin: a bigger card holds more.
    (small, rest), (_big, bigger) = (face_boxes(BADGE, texts, PrintOptions(card_size=size))
                                    for size in ("poker", "tarot"))
    assert small.height_mm == 12.0 and rest.height_mm == pytest.approx(fit.card_room(options) - 13.0)
    assert bigger.height_mm > rest.height_mm


def test_a_declared_face_steps_down_before_it_refuses(tmp_path):
    """A name too long for its zone at 14 pt prints at a smaller step; past the floor it is refused."""
    options = PrintOptions(card_size="poker")
    doc, texts = _badge(tmp_path, "Wilhelmina Ottoline Featherstonehaugh-Cholmondeley", "Short.")
    (told,) = face_fits(BADGE, texts, options)
    assert told.pts[0] < 14.0 and face_problems(BADGE, texts, doc, options) == []
    doc, texts = _badge(tmp_path, " ".join(["Wilhelmina"] * 12), "Short.")
    (problem,) = face_problems(BADGE, texts, doc, options)
    assert problem.line == 2 and "the name on a test badge" in problem.message


def test_a_changed_declaration_changes_the_pdf_key(monkeypatch, tmp_path):
    """The declared rules are in the document's HTML, so a PDF made with
    other numbers is never taken from the cache (render/cache/keys.py)."""
    from types import SimpleNamespace

    from generator.core.paper import A4
    from generator.render.cache.keys import pdf_key
    from generator.render.html import render_template
    from generator.render.pdf.weasy import PdfJob

    def key() -> str:
        html = render_template("pack/stamp.html", {"envelopes": [SimpleNamespace(player="Ada", number=1)],
                                                   "doc_title": "stamps"})
        assert boxes.STAMP.css() in html
        return pdf_key("static", PdfJob(html, str(TEMPLATES_DIR), tmp_path / "s.pdf", A4, (TEMPLATES_DIR,), "s"), {})

    before = key()
    moved = boxes.Declared(".stamp", boxes.PACK, steps=(10.0,), line_height=1.2, place=Edges(top=4.2, right=12.0))
    monkeypatch.setattr(boxes, "DECLARED", tuple(moved if d is boxes.STAMP else d for d in DECLARED))
    monkeypatch.setattr(boxes, "STAMP", moved)
    assert key() != before


def test_a_registered_face_is_in_the_stylesheet_and_the_check(monkeypatch):
    """Registering the badge is all it takes: its zones' rules join the card
    sheet's, and check's search for unfit boxes finds its entity too long."""
    from dataclasses import replace
    from types import SimpleNamespace

    from generator.render.fit.faces import unfit_faces

    held = [SimpleNamespace(name="Ada", description="Short."), SimpleNamespace(name="Bo", description=LONG)]
    face = replace(BADGE, items=lambda game: [(b, ("badges", i)) for i, b in enumerate(game.badges)])
    monkeypatch.setitem(boxes.FACES, "test/cards/badge.html", face)
    assert BADGE.zones[0].css() in stylesheet(CARDS)
    (unfit,) = unfit_faces("test", SimpleNamespace(badges=held), PrintOptions(card_size="poker"))
    assert unfit.texts[0].loc == ("badges", 1, "description") and unfit.step() is None
    assert list(unfit_faces("other", SimpleNamespace(badges=held), PrintOptions())) == []
