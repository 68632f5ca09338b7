"""The packet's pages in each shipped language: a starter game written by
`sixes new --language` with a packet whose texts are long, packed on A4 and
on Letter; the print lint passes (nothing overflows, every glyph drawn), the
planned pages hold them, and no English message of the packet's templates is
left in the French or German pages."""
from __future__ import annotations

import pytest
import yaml
from babel.messages.pofile import read_po

from generator.commands.cli import main
from generator.commands.pack import PackRequest, pack
from generator.core.paper import A4, LETTER
from generator.core.i18n import LOCALES_DIR
from generator.game.settings import load_settings
from pdf_text import page_texts

# Long enough to take a good part of a page, with a German-length compound in it.
LONG = " ".join(["Die Leuchtturmwärterinnenversammlung trifft sich bei Niedrigwasser am Fuß der Treppe."] * 12)


def packet_templates_messages(language: str) -> dict[str, str]:
    """The messages the packet's templates print, English -> the language's."""
    with (LOCALES_DIR / language / "tool.po").open("rb") as file:
        catalogue = read_po(file, locale=language)
    return {str(m.id): str(m.string) for m in catalogue
            if m.id and any("templates/packet/" in place for place, _ in m.locations)}


@pytest.fixture(scope="module", params=["en", "fr", "de"])
def packed(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"packet-{request.param}") / "game"
    args = ["new", str(folder)] + (["--language", request.param] if request.param != "en" else [])
    assert main.main(args, standalone_mode=False) in (None, 0)
    ids = sorted(p.stem for p in (folder / "sixes" / "characters").glob("*.yaml"))
    a, b = ids[:2]
    packet = {"sixes": {
        "groups": [{"name": "Die Laternengesellschaft", "description": LONG, "sheet": LONG, "members": [a, b]}],
        "relationships": [{"between": [a, b], "public": LONG, "sides": {a: LONG, b: LONG}}],
        "plots": [{"name": "Das Niedrigwasser", "summary": LONG, "members": {a: LONG, b: LONG}}]}}
    (folder / "packet.yaml").write_text(yaml.safe_dump(packet, allow_unicode=True), encoding="utf-8")
    settings = load_settings(folder)
    report = pack(PackRequest(folder, folder / "out", (A4, LETTER), system="sixes", workers=1, settings=settings))
    return request.param, report


def test_the_packet_pages_print_and_fit_on_both_papers(packed):
    language, report = packed
    assert not [w for w in report.warnings if "packet" in str(w) or "runs to" in str(w)], report.warnings
    for paper in ("a4", "letter"):
        envelope = report.root / paper / "envelopes" / f"{report.envelopes[0].stem}.pdf"
        body = " ".join(page_texts(envelope))
        assert "Laternengesellschaft" in body and "Das Niedrigwasser" in body


def test_no_english_message_of_the_packet_is_left(packed):
    language, report = packed
    messages = packet_templates_messages("fr" if language == "en" else language)
    assert len(messages) > 15
    body = " ".join(" ".join(page_texts(p)) for p in (report.root / "a4" / "envelopes").glob("*.pdf"))
    body += " ".join(page_texts(report.root / "a4" / "gm-pack.pdf"))
    for english in messages:
        if "%(" in english or "{" in english or len(english) < 12:
            continue
        if language == "en":
            continue
        assert english not in body, english
    if language != "en":
        assert messages["People you know"] in body and messages["What every member knows"] in body
    else:
        assert "People you know" in body and "What every member knows" in body
