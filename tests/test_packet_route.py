"""Where the packet's papers go, as the pack plans them (no rendering): each
envelope gets its character's page and its groups' sheets, in that order
after the sheet; a GM-only group reaches no envelope; a cover lists a secret
group's sheet by no name; the GM pack has every page and sheet, the map and
the plot index."""
from __future__ import annotations

from generator.core.paper import A4
from generator.core.paths import DEFAULT_DATA_DIR
from generator.game.gather import gather
from generator.game.pack_plan import PackChoices, plan_pack
from generator.game.packet_route import MAP_SLUG, PLOTS_SLUG, member_page
from generator.game.settings import load_settings
from generator.render.pdf.cards import grid_for


def plan(draw=None):
    settings = load_settings(DEFAULT_DATA_DIR)
    gathered = gather(DEFAULT_DATA_DIR, settings, (A4,), site=False, pack=True, system="sixes")
    return gathered, plan_pack(gathered, PackChoices((A4,)), grid_for("poker", False), draw)


def test_each_envelope_gets_its_page_then_its_groups_sheets():
    _gathered, packed = plan()
    by_name = {e.character: e for e in packed.envelopes}
    jacca = [d.slug for d in by_name["Jacca Rowe"].extra]
    assert jacca == ["known--jacca-rowe", "group--the-island", "group--the-lantern-night", "sealed--1"]
    # Wenna is in the GM's group of witnesses, which prints for no one but the GM.
    assert [d.slug for d in by_name["Wenna Hocking"].extra] == ["known--wenna-hocking", "group--the-island"]
    for envelope in packed.envelopes:
        sheets = {d.slug for d in envelope.extra if d.slug.startswith("group--")}
        assert ("group--the-lantern-night" in sheets) == (envelope.character in
                                                          {"Judith Carrow", "Jacca Rowe", "Ned Tregarth"})


def test_a_cover_lists_a_secret_groups_sheet_by_no_name():
    _gathered, packed = plan()
    pages = packed.covers.context["pages"]
    jacca = next(p for p in pages if p["envelope"].character == "Jacca Rowe")
    listed = " | ".join(jacca["inside"])
    assert "A secret group: group sheet" in listed and "The Island: group sheet" in listed
    assert "Lantern" not in " ".join(" ".join(p["inside"]) for p in pages)


def test_the_gm_pack_has_every_page_sheet_the_map_and_the_plot_index():
    _gathered, packed = plan(draw=lambda source: "data:image/svg+xml;base64,")
    slugs = [d.slug for d in packed.gm_order]
    for envelope in packed.envelopes:
        at = slugs.index(envelope.sheet.slug)
        assert slugs[at + 1] == f"known--{envelope.sheet.slug}"
    assert slugs[-11:] == [MAP_SLUG, PLOTS_SLUG, "group--house-carrow", "group--house-penhale", "group--the-island",
                           "group--the-guests", "group--the-lantern-night", "group--the-wedding-party",
                           "sealed--1", "sealed--2", "packet--items-and-triggers"]
    assert len(slugs) == len(set(slugs))
    gm_map = next(d for d in packed.gm_order if d.slug == MAP_SLUG)
    assert gm_map.context["image"] == "data:image/svg+xml;base64," and gm_map.context["ties"] == 29


def test_a_page_holds_only_its_own_side_and_snippets():
    gathered, _packed = plan()
    packet = gathered.packets["sixes"]
    ned = member_page(packet, "ned-tregarth", "T")
    assert ned is not None
    people = {p["name"]: p for p in ned.context["people"]}
    assert "Brother Anselm" not in people            # Anselm alone knows of Ned's face that night
    assert people["Kit Penhale"]["text"].startswith("You killed Harry Nance")
    assert "He beat Harry Nance" not in str(ned.context)          # Kit's side
    assert [p["name"] for p in ned.context["plots"]] == ["The wreck of the Charity", "The Revenue at low water",
                                                         "Harry Nance"]
    assert "The Lantern Night" in [g["name"] for g in ned.context["groups"]]
    assert "Witnesses of the Charity" not in str(ned.context)
