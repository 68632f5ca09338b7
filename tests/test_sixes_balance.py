"""The balance report (generator/systems/sixes/balance.py) and where it goes:
fixed seeds give fixed figures, a character's figures depend on nobody else,
a clearly stronger or weaker character is flagged, the GM document carries
the cast, and the public page carries only generic fighters."""
from __future__ import annotations

from fractions import Fraction

from generator.game.load import load_all
from generator.core.paths import DEFAULT_DATA_DIR
from generator.systems.sixes import SYSTEM
from generator.core import memo
from generator.systems.sixes import balance as balance_module
from generator.systems.sixes.balance import (EXAMPLE_SIDES, Band, _flags, band, cast_balance, duel_record,
                                             example_fights, typical_fighter)
from generator.systems.sixes.models import Character
from generator.core.paper import A4

from test_sixes_outputs import strings_in


def fighter(name, hp=5, armour=0, damage=0):
    return Character(name=name, faction="", description="A test fighter.", hit_points=hp, armour=armour,
                     damage=damage)


def test_flags_mark_values_at_or_beyond_the_band():
    threat, surv = Band(Fraction(3, 10), Fraction(7, 10)), Band(Fraction(1, 5), Fraction(4, 5))
    half = Fraction(1, 2)
    assert _flags(Fraction(7, 10), half, threat, surv) == ("dangerous",)
    assert _flags(Fraction(69, 100), half, threat, surv) == ()
    assert _flags(Fraction(3, 10), Fraction(1, 5), threat, surv) == ("harmless", "fragile")
    assert _flags(half, Fraction(4, 5), threat, surv) == ("tough",)


def test_the_band_is_tukeys_fences_but_never_nearer_the_median_than_the_gap_nor_further_than_40_points():
    spread = [Fraction(n, 100) for n in (10, 20, 30, 40, 50, 60, 70, 80, 90)]   # quartiles 30 and 70
    # Tukey's fences, -30 and 130, lie where no figure can be: 40 points from the median 50 stands out (issue 47).
    assert band(spread) == Band(Fraction(10, 100), Fraction(90, 100))
    narrow = [Fraction(n, 100) for n in (30, 40, 45, 50, 50, 50, 55, 60, 70)]   # quartiles 45 and 55
    assert band(narrow) == Band(Fraction(30, 100), Fraction(70, 100))      # fences 30 and 70: 20 points out
    even = [Fraction(n, 100) for n in (48, 50, 50, 50, 52)]
    assert band(even) == Band(Fraction(30, 100), Fraction(70, 100))    # the gap, 20 points each side
    assert band([Fraction(1, 2)]) == Band(Fraction(3, 10), Fraction(7, 10))


def test_a_cast_of_equal_characters_flags_nobody():
    balance = cast_balance([fighter(f"Twin {i}", 6, 1) for i in range(6)], {}, brawl_fights=5)
    assert balance.outliers == ()
    assert all(f.flags == () for f in balance.fighters)


def test_one_much_stronger_character_is_flagged_and_few_others_are():
    cast = [fighter(f"Fighter {hp}-{i}", hp, 1) for hp in (5, 6, 7) for i in range(3)]
    cast.append(fighter("Brute", 9, 3, 2))
    balance = cast_balance(cast, {}, brawl_fights=5)
    flagged = {f.name for f in balance.outliers}
    assert "Brute" in flagged
    assert len(flagged) <= 2, flagged


def test_the_example_casts_flags_mark_at_most_a_quarter_of_it():
    loaded, _ = load_all(DEFAULT_DATA_DIR)
    game = next(item.game for item in loaded if item.system is SYSTEM)
    balance = cast_balance([m.character for m in game.cast], game.library)
    # The 20-point rule alone flagged half of it (8 of 16); a flag guides only when it is rare.
    assert len(balance.outliers) <= len(balance.fighters) // 4


def test_the_typical_fighter_has_the_casts_lower_median_of_each_figure():
    cast = [fighter("Ana", 3, 0, 1), fighter("Bea", 6, 2, 0), fighter("Cy", 4, 1, 0), fighter("Dot", 5, 1, 2)]
    typical = typical_fighter(cast)
    assert (typical.hit_points, typical.armour, typical.damage) == (4, 1, 0)
    assert typical.specials == [] and typical.name == "Typical fighter"
    # The resolver tells fighters apart by name, so a character's name is never reused.
    assert typical_fighter([fighter("Typical fighter")]).name != "Typical fighter"


def test_duels_are_counted_from_the_characters_side_both_ways_round():
    record = duel_record(fighter("Ana", 5), fighter("Typical fighter", 4), {}, duels=4)
    assert record.duels == 4 and record.started == 4 * 5
    assert 0 <= record.kept <= record.started and 0 <= record.wins <= 4


def test_a_characters_figures_do_not_depend_on_the_rest_of_the_cast():
    ana, bea = fighter("Ana", 5, 1, 0), fighter("Bea", 4)
    one = cast_balance([ana, bea, fighter("Cy", 6, 1, 1)], {}, duels=10, brawl_fights=2)
    other = cast_balance([ana, bea, fighter("Dot", 5, 1, 0)], {}, duels=10, brawl_fights=2)
    assert one.opponent == other.opponent          # the same median fighter...
    assert [(f.threat, f.survivability) for f in one.fighters[:2]] == \
        [(f.threat, f.survivability) for f in other.fighters[:2]]   # ...so the same figures for Ana and Bea
    assert one.fighters[2].threat != other.fighters[2].threat


def test_editing_one_character_simulates_only_that_characters_duels(monkeypatch):
    memo.clear()
    played = []
    real = balance_module._play_duels
    monkeypatch.setattr(balance_module, "_play_duels", lambda c, *a: played.append(c.name) or real(c, *a))
    cast = [fighter(f"Average {i}") for i in range(5)]
    cast_balance(cast, {}, duels=4, brawl_fights=1)
    assert sorted(played) == [f"Average {i}" for i in range(5)]
    played.clear()
    cast[2] = fighter("Average 2", 5, 1, 0)         # more armour; the medians do not move
    cast_balance(cast, {}, duels=4, brawl_fights=1)
    assert played == ["Average 2"]


def test_rewording_a_character_plays_no_fight_again(monkeypatch):
    """Descriptions and backgrounds are not part of any fight: editing them
    replays neither the character's duels nor the brawls."""
    from generator.systems.sixes import simulate as simulate_module
    memo.clear()
    played = []
    real_duels, real_brawl = balance_module._play_duels, simulate_module.simulate
    monkeypatch.setattr(balance_module, "_play_duels", lambda c, *a: played.append(c.name) or real_duels(c, *a))
    monkeypatch.setattr(balance_module, "simulate", lambda *a, **k: played.append("brawl") or real_brawl(*a, **k))
    cast = [fighter(f"Average {i}") for i in range(4)]
    before = cast_balance(cast, {}, duels=4, brawl_fights=1)
    assert played.count("brawl") == 3
    played.clear()
    cast[1] = cast[1].model_copy(update={"description": "Reworded.", "background": "A new secret."})
    assert cast_balance(cast, {}, duels=4, brawl_fights=1) == before
    assert played == []
    cast[1] = cast[1].model_copy(update={"armour": 1})
    cast_balance(cast, {}, duels=4, brawl_fights=1)
    assert sorted(played) == ["Average 1", "brawl", "brawl", "brawl"]


def test_brawls_started_in_the_worker_pool_match_brawls_played_here():
    from generator.render.pdf.batch import start_simulations
    cast = [fighter(f"Average {i}") for i in range(4)] + [fighter("Brute", 8, 3, 2), fighter("Weed", 2)]
    cast = [c.model_copy(update={"faction": "North" if k % 2 else "South"}) for k, c in enumerate(cast)]
    memo.clear()
    here = cast_balance(cast, {}, duels=4, brawl_fights=6)
    memo.clear()
    start_simulations(balance_module.brawl_works(cast, {}, fights=6), workers=2)
    assert cast_balance(cast, {}, duels=4, brawl_fights=6) == here


def test_a_much_stronger_and_a_much_weaker_character_are_flagged():
    cast = [fighter(f"Average {i}", 6, 1) for i in range(5)] + [fighter("Brute", 8, 3, 2), fighter("Weed", 2)]
    balance = cast_balance(cast, {}, brawl_fights=5)
    by_name = {f.name: f for f in balance.fighters}
    assert by_name["Brute"].flags == ("dangerous", "tough")
    assert by_name["Weed"].flags == ("harmless", "fragile")
    assert all(by_name[f"Average {i}"].flags == () for i in range(5))
    assert {f.name for f in balance.outliers} == {"Brute", "Weed"}
    # Fixed seeds: simulating again from scratch (nothing remembered) gives the same figures.
    memo.clear()
    assert balance == cast_balance(cast, {}, brawl_fights=5)


def test_example_fights_are_generic_and_repeatable():
    example = example_fights()
    assert [len(s.members) for s in EXAMPLE_SIDES] == [5, 5, 5]
    assert [s.policy for s in example.summaries] == ["aggressive", "cautious", "random"]
    assert example == example_fights.__wrapped__()


def test_balance_report_is_gm_only_and_the_fights_page_has_no_cast():
    game = load_all(DEFAULT_DATA_DIR)[0][0].game
    report = [d for d in SYSTEM.documents(game) if d.slug == "balance-report"]
    assert len(report) == 1 and report[0].audience == "gm"
    assert {f.name for f in report[0].context["balance"].fighters} == {m.character.name for m in game.cast}
    page = next(p for p in SYSTEM.pages(game) if p.path == "fights.md")
    reachable = " ".join(strings_in(page.context["example"]))
    assert "North bruiser" in reachable
    assert not [m.character.name for m in game.cast if m.character.name in reachable]


def test_balance_pdf_shows_every_character(example_build):
    from test_pdfs import pdf, text_of
    game = load_all(DEFAULT_DATA_DIR)[0][0].game
    for paper in ("a4", "letter"):
        text = text_of(pdf(example_build, paper, "gm", "balance-report"))
        assert "Fight balance report" in text and "Threat" in text and "Survivability" in text
        for member in game.cast:
            assert member.character.name in text


def test_fights_page_is_built_and_linked(example_build):
    html = (example_build.out_dir / "site" / "sixes" / "fights.html").read_text(encoding="utf-8")
    assert "How fights play out" in html and "Median rounds" in html and "<svg" in html
    game = load_all(DEFAULT_DATA_DIR)[0][0].game
    assert not [m.character.name for m in game.cast if m.character.name in html]


def test_a_sixty_character_cast_fits_its_gm_budgets(tmp_path):
    """A 60-player convention game: the balance report and the cheat sheet list
    everyone, so their page budgets grow with the cast and the build passes."""
    import re
    import shutil

    from generator.game.load import load_all

    from generator.render.pdf.jobs import prepare_html
    from generator.core.paths import DEFAULT_DATA_DIR, TEMPLATES_DIR
    from generator.render.options import DEFAULT_OPTIONS
    from generator.render.pdf.weasy import render_pdf

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "sixes", data / "sixes")
    originals = sorted((data / "sixes" / "characters").glob("*.yaml"))
    for i in range(60 - len(originals)):
        source = originals[i % len(originals)]
        text = re.sub(r"^name: (.+)$", rf"name: \g<1> {i + 2}", source.read_text(), flags=re.M)
        (source.parent / f"{source.stem}-{i + 2}.yaml").write_text(text)
    (item,), _ = load_all(data)
    assert len(item.game.cast) == 60
    gm = [d for d in item.system.documents(item.game) if d.audience == "gm"]
    assert {d.slug for d in gm} == {"gm-cheat-sheet", "balance-report"}
    for doc in gm:
        result = render_pdf(prepare_html(doc, DEFAULT_OPTIONS).job(tmp_path / f"{doc.slug}.pdf", A4,
                                                                    (TEMPLATES_DIR, data), doc.slug))
        assert result.pages <= doc.max_pages, (doc.slug, result.pages, doc.max_pages)
        assert not result.overflows


def test_a_big_cast_brawls_fewer_times_but_never_fewer_than_eight():
    from generator.systems.sixes.balance import brawl_fights_for
    assert [brawl_fights_for(n) for n in (2, 16, 60, 61, 120, 300, 1000)] == [40, 40, 40, 39, 20, 8, 8]


def test_a_cast_spread_from_5_to_100_percent_flags_its_weakest_and_strongest():
    """Issue 47: threats evenly from 5 % to 100 % flagged nobody, the fences
    falling past 0 % and 100 %; the guide (docs/pages/systems/sixes.md)
    promises a flag 20 points from the median, and a figure 40 points from it is always one."""
    threats = [Fraction(n, 100) for n in range(5, 101, 5)]
    half = Fraction(1, 2)
    threat_band = band(threats)
    flagged = {t: _flags(t, half, threat_band, band([half] * len(threats))) for t in threats}
    assert flagged[Fraction(5, 100)] == ("harmless",) and flagged[Fraction(100, 100)] == ("dangerous",)
    assert [t for t, flags in flagged.items() if flags] == [Fraction(n, 100) for n in (5, 10, 95, 100)]


def report_text(language: str, **bands: Band) -> str:
    """The example game's balance report as text, in `language`, with its bands replaced."""
    import dataclasses
    import html
    import re

    from generator.core.i18n import speaking, words_for
    from generator.render.pdf.jobs import document_html
    game = load_all(DEFAULT_DATA_DIR)[0][0].game
    with speaking(words_for(language)):
        report = next(d for d in SYSTEM.documents(game) if d.slug == "balance-report")
        context = dict(report.context)
        context["balance"] = dataclasses.replace(context["balance"], **bands)
        rendered = document_html(dataclasses.replace(report, context=context))
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", "", rendered)))


def test_the_thresholds_read_as_whole_sentences_in_french_and_german():
    """"dangereux à une menace de aucun (au-delà de 100 %)" was fragments
    glued into a sentence; each threshold is now a sentence of its own, with
    its own wording for a threshold no figure can reach."""
    past = {"threat_band": Band(Fraction(-1, 10), Fraction(13, 10)),
            "survivability_band": Band(Fraction(1, 5), Fraction(4, 5))}
    french = report_text("fr", **past)
    assert "aucun personnage ne peut être dangereux : il faudrait une menace de plus de 100\u00a0%" in french
    assert "un personnage est coriace à partir d’une résistance de 80\u00a0%" in french
    assert "de aucun" not in french and "au-delà de 100" not in french
    german = report_text("de", **past)
    assert "kann kein Charakter gefährlich sein: Dazu bräuchte es eine Bedrohung über 100\u00a0%" in german
    assert "gilt ein Charakter ab einer Zähigkeit von 80\u00a0% als zäh" in german
    assert "keine (jenseits" not in german
    english = report_text("en", **past)
    assert "no character can be dangerous: it would take a threat above 100%" in english


def test_a_cast_with_no_factions_fits_the_brawl_on_the_page(tmp_path):
    """With no factions every character is a side of their own: the brawl's
    wins are a row a side, so sixteen sides (or sixty) never widen a table
    past the page, and every table's columns are the same as for two sides."""
    import re
    import shutil

    from generator.core.paths import TEMPLATES_DIR
    from generator.render.options import DEFAULT_OPTIONS
    from generator.render.pdf.jobs import prepare_html
    from generator.render.pdf.weasy import render_pdf

    def report(factions: bool):
        data = tmp_path / ("with" if factions else "without")
        shutil.copytree(DEFAULT_DATA_DIR / "sixes", data / "sixes")
        if not factions:
            for path in (data / "sixes" / "characters").glob("*.yaml"):
                path.write_text(re.sub(r"^faction: .*$", 'faction: ""', path.read_text(), flags=re.M))
        (item,), _ = load_all(data)
        doc = next(d for d in item.system.documents(item.game) if d.slug == "balance-report")
        return data, doc, prepare_html(doc, DEFAULT_OPTIONS)

    def headers(html: str) -> list[int]:
        return [head.count("<th") for head in re.findall(r"<thead>.*?</thead>", html, flags=re.S)]

    _, _, factions = report(True)
    data, doc, alone = report(False)
    assert alone.html.count("<tr><td>") > factions.html.count("<tr><td>")      # a row for each of the sixteen sides
    assert headers(alone.html) == headers(factions.html)
    result = render_pdf(alone.job(tmp_path / "report.pdf", A4, (TEMPLATES_DIR, data), doc.slug))
    assert not result.overflows
