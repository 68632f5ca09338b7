"""A Sixes character sheet is sized for what it holds (issue 47): one page
where its content fits one, on A4 and Letter, in English, French and
German; in large print, a second page only for what needs it. The hand
signals (down the side column since, where they take no height of their
own) never stand alone on a page and the speed table never splits over a
page break, whatever the sheet holds (a bonus that counts only sometimes
makes the table's rows taller)."""
from __future__ import annotations

from typing import Any

import pytest
import yaml

from fit_games import new_game
from generator.core.i18n import speaking, words_for
from generator.core.paper import A4, LETTER
from generator.core.paths import TEMPLATES_DIR
from generator.render.pdf.jobs import prepare_html
from generator.render.options import PrintOptions

# A character as a French organiser writes one for a convention game: three
# specials, one a bonus that counts only on a Rattled target (taller rows in
# the speed table), a description and a background of some sentences.
HEAVY: dict[str, dict[str, str]] = {
    "fr": {"name": "Bénédicte de Valcourt", "faction": "La Guilde",
           "description": "Une ancienne duelliste reconvertie dans le commerce des épices, qui n’oublie jamais "
                          "une dette. Elle parle peu, observe beaucoup, et garde toujours une main près de son "
                          "couteau.",
           "background": "Vous devez de l’argent à trois personnes présentes ce soir. Aucune ne sait pour les "
                         "deux autres. Vous savez que le trésorier de la Guilde falsifie les comptes depuis trois "
                         "ans. Vous avez gardé une copie du registre."},
}
SPECIALS: list[dict[str, Any]] = [
    {"name": "Coup en traître", "usage": "unlimited", "adds_effect": {"attack": 1}, "when": "target_rattled",
     "rule": "Votre Attaque a +1 en Effet quand votre cible est Sonnée : vous frappez là où elle ne se protège plus."},
    {"name": "Lame empoisonnée", "usage": "once per combat",
     "rule": "Quand votre Attaque fait perdre des points de vie, la cible en perd un de plus au tour suivant."},
    {"name": "Parade", "usage": "once per combat",
     "rule": "Une fois par combat, annulez entièrement une attaque qui vous vise, quelle que soit sa Vitesse."},
]


def _game(tmp_path, language: str):
    """The Sixes starter in `language`, with the heavy French character added to the French one."""
    folder = new_game(tmp_path / "game", language)
    (folder / "sixes.yaml").write_text(f"language: {language}\nsystems: [sixes]\n", encoding="utf-8")
    if language in HEAVY:
        library = folder / "sixes" / "specials.yaml"
        data = yaml.safe_load(library.read_text(encoding="utf-8"))
        data["specials"] += SPECIALS
        library.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        character = {**HEAVY[language], "hit_points": 4, "armour": 0, "damage": 1,
                     "specials": [s["name"] for s in SPECIALS]}
        (folder / "sixes" / "characters" / "heavy.yaml").write_text(
            yaml.safe_dump(character, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def _sheets(folder, language: str, paper, options: PrintOptions):
    """Each character sheet of the game laid out by WeasyPrint as the build lays it out."""
    import weasyprint

    from generator.game.load import load_all
    loaded, _ = load_all(folder)
    sixes = next(item for item in loaded if item.system.slug == "sixes")
    laid = {}
    with speaking(words_for(language)):
        for doc in sixes.system.documents(sixes.game):
            if doc.template != "sixes/character_sheet.html":
                continue
            prepared = prepare_html(doc, options)
            page = weasyprint.CSS(string=f"@page {{ size: {paper.css_size}; }}")
            extra = [weasyprint.CSS(filename=str(TEMPLATES_DIR / name)) for name in prepared.stylesheets]
            laid[doc.slug] = weasyprint.HTML(string=prepared.html, base_url=TEMPLATES_DIR.as_uri() + "/").render(
                stylesheets=[page, *extra])
    return laid


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None and box.element_tag else set()


def _where(document) -> tuple[set[int], set[int], dict[int, int]]:
    """The pages the speed table is on, the pages the hand signals are on,
    and on each page the text boxes of the sheet outside the signals (the
    footer, a page-margin box, left out)."""
    from weasyprint.formatting_structure.boxes import MarginBox, TextBox
    table: set[int] = set()
    signals: set[int] = set()
    others: dict[int, int] = {}

    def walk(box, number: int, in_signals: bool) -> None:
        if isinstance(box, MarginBox):
            return
        classes = _classes(box)
        if "slots" in classes:
            table.add(number)
        if "signals" in classes:
            signals.add(number)
            in_signals = True
        if isinstance(box, TextBox) and box.text.strip() and not in_signals:
            others[number] = others.get(number, 0) + 1
        for child in getattr(box, "children", ()):
            walk(child, number, in_signals)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, number, False)
    return table, signals, others


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_sheet_is_one_page_where_its_content_fits_and_keeps_its_table_and_signals_whole(tmp_path, language):
    folder = _game(tmp_path, language)
    for paper in (A4, LETTER):
        for large in (False, True):
            for slug, document in _sheets(folder, language, paper, PrintOptions(large_print=large)).items():
                where = f"{language} {paper.name} {'large print ' if large else ''}{slug}"
                pages = len(document.pages)
                # One page; two in large print, its columns one above the other.
                assert pages <= (2 if large else 1), f"{where}: {pages} pages"
                table, signals, others = _where(document)
                assert len(table) == 1, f"{where}: the speed table is split over pages {sorted(table)}"
                assert signals and all(others.get(n) for n in signals), \
                    f"{where}: the hand signals stand alone on page {sorted(signals)}"
