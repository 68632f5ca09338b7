"""Helpers for the site tests: a game folder made the way a user makes one
(`sixes new`), and its site built alone, as `sixes build` builds it but
without rendering the PDFs (the public ones it links are empty placeholders;
their content is tested elsewhere). Seconds instead of a minute."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner


def new_game(target: Path, language: str = "en") -> Path:
    from generator.commands.cli import main
    result = CliRunner().invoke(main, ["new", str(target), "--language", language])
    assert result.exit_code == 0, result.output
    return target


def build_site_only(game_dir: Path, out: Path) -> Path:
    """The game folder's site in `out/site`, through the same steps as
    build._build_site: the gather (its settings, its systems, its own pages
    and logo), then the site, in the game's language."""
    from generator.commands.build import site_look, site_section
    from generator.core.paper import A4
    from generator.render.site.writer import stage_sources
    from generator.render.site.mkdocs_build import build_site
    from generator.game.gather import gather
    from generator.core.i18n import speaking
    from generator.core.loading import reading_game
    from generator.game.settings import load_settings

    settings = load_settings(game_dir)
    gathered = gather(game_dir, settings, (A4,), find=False)
    loaded, own = gathered.loaded, gathered.own
    sections = []
    for item in loaded:
        public = {d.slug: d for d in item.system.documents(item.game) if d.audience == "public"}
        for doc in public.values():
            pdf = out / "pdf" / "a4" / item.system.slug / doc.folder / f"{doc.slug}.pdf"
            pdf.parent.mkdir(parents=True, exist_ok=True)
            pdf.write_bytes(b"%PDF-1.4\n")
        sections.append(site_section(item, list(public.values()), settings))
    look = site_look(settings, loaded, gathered.logo)
    with reading_game(game_dir), speaking(gathered.words):
        nav = stage_sources(out / "src", sections, out, (A4,), look, own)
        build_site(out / "src", out / "site", nav, look)
    return out / "site"
