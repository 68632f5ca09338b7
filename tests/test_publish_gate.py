"""The site publishes only what the tool wrote or re-encoded (render/site/publish.py).

A game is given a hostile logo (an SVG with a script), cast-list portraits
(a JPEG carrying EXIF and a comment, an SVG with a script, handlers, a
foreignObject and an animation that sets a link) and an image beside its own
pages (a PNG with text chunks), and its site is built while every copy the
build makes is watched. No copy starts in the game folder, no published SVG
holds anything but drawing, no published raster carries metadata (read back
with Pillow), and a `.html` logo is refused at `check` with its line.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml

from cpu_time import cpu_time
from game_sites import build_site_only, new_game

HOSTILE_SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  viewBox="0 0 10 10" onload="alert('onload')">
  <script>alert('script')</script>
  <style>rect { fill: red }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="gold"/></linearGradient></defs>
  <rect id="box" width="10" height="10" fill="url(#g)" onclick="alert('click')" style="stroke:black;behavior:x"/>
  <a href="#box" onclick="alert('a')"><circle r="3"/></a>
  <foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml">hi</body></foreignObject>
  <animate attributeName="href" to="javascript:alert('animate')"/>
  <set attributeName="onclick" to="alert('set')"/>
  <use href="#box" x="1"/>
  <text x="1" y="5">Kept <tspan>words</tspan> here</text>
</svg>
"""
ACTIVE_WORDS = ("script", "alert", "onload", "onclick", "foreignobject", "javascript", "animate", "<set", "<style",
                "<a ", "behavior")


def _jpeg_with_metadata(path: Path) -> None:
    from PIL import Image
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"           # Make
    exif[0x0131] = "secret-software"   # Software
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 30), "navy").save(path, "JPEG", exif=exif, comment=b"private comment")


def _png_with_text(path: Path) -> None:
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo
    info = PngInfo()
    info.add_text("Comment", "private text chunk")
    info.add_itxt("XML:com.adobe.xmp", "<x:xmpmeta>private xmp</x:xmpmeta>")
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 30), "darkred").save(path, pnginfo=info)


def _settings(game: Path, **site) -> None:
    path = game / "sixes.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["site"].update(site)
    data["systems"] = ["sixes"]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _portrait(game: Path, character: str, portrait: str) -> None:
    path = game / "sixes" / "characters" / f"{character}.yaml"
    path.write_text(path.read_text(encoding="utf-8") + f"portrait: {portrait}\n", encoding="utf-8")


@pytest.fixture(scope="module")
def hostile_game(tmp_path_factory) -> Path:
    game = new_game(tmp_path_factory.mktemp("gate") / "gate-game")
    (game / "logo.svg").write_bytes(HOSTILE_SVG)
    _settings(game, logo="logo.svg", cast_list=True)
    _jpeg_with_metadata(game / "sixes" / "portraits" / "first.jpg")
    (game / "sixes" / "portraits" / "second.svg").write_bytes(HOSTILE_SVG)
    _portrait(game, "first-rival", "sixes/portraits/first.jpg")
    _portrait(game, "second-rival", "sixes/portraits/second.svg")
    (game / "pages").mkdir()
    (game / "pages" / "welcome.md").write_text("# Welcome\n\n![Hall](images/hall.png)\n![Gate](gate.jpg)\n",
                                               encoding="utf-8")
    _png_with_text(game / "pages" / "images" / "hall.png")
    _jpeg_with_metadata(game / "pages" / "gate.jpg")
    return game


@pytest.fixture(scope="module")
def watched(hostile_game, tmp_path_factory):
    """The site built with every shutil copy recorded: (site, copy sources)."""
    sources: list[Path] = []
    patch = pytest.MonkeyPatch()
    for name in ("copyfile", "copy", "copy2", "copytree", "copyfileobj"):
        real = getattr(shutil, name)

        def watching(*args, _real=real, **kwargs):
            if args and isinstance(args[0], (str, Path)):
                sources.append(Path(args[0]).resolve())
            return _real(*args, **kwargs)
        patch.setattr(shutil, name, watching)
    try:
        site = build_site_only(hostile_game, tmp_path_factory.mktemp("gate-out"))
    finally:
        patch.undo()
    return site, sources


def test_no_copy_starts_in_the_game_folder(watched, hostile_game):
    site, sources = watched
    assert sources, "the watch saw no copy at all: it is not watching the build"
    game = hostile_game.resolve()
    assert [s for s in sources if s.is_relative_to(game)] == []


def test_every_user_image_is_published_and_rewritten(watched, hostile_game):
    site, _ = watched
    published = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.suffix in (".svg", ".jpg", ".png")}
    assert {"assets/logo.svg", "sixes/portraits/first-rival.jpg", "sixes/portraits/second-rival.svg",
            "images/hall.png", "gate.jpg"} <= published
    for rel, source in [("gate.jpg", "pages/gate.jpg"), ("images/hall.png", "pages/images/hall.png"),
                        ("assets/logo.svg", "logo.svg"),
                        ("sixes/portraits/first-rival.jpg", "sixes/portraits/first.jpg")]:
        assert (site / rel).read_bytes() != (hostile_game / source).read_bytes(), rel


def test_no_published_svg_can_run_anything(watched):
    site, _ = watched
    svgs = list(site.rglob("*.svg"))
    user = [site / "assets/logo.svg", site / "sixes/portraits/second-rival.svg"]
    for path in user:
        text = path.read_text(encoding="utf-8")
        lowered = text.lower()
        assert [w for w in ACTIVE_WORDS if w in lowered] == [], path
        root = ElementTree.fromstring(text)
        assert {e.tag.split("}")[1] for e in root.iter()} <= {"svg", "defs", "linearGradient", "stop", "rect",
                                                              "circle", "use", "text", "tspan"}
        assert all(not name.startswith("on") for e in root.iter() for name in e.attrib)
        assert "Kept words here" in "".join(root.itertext()).replace("\n", "")   # the drawing survives
        assert 'fill="url(#g)"' in text and 'href="#box"' in text
    assert len(svgs) >= len(user)


def test_the_cast_list_inlines_no_svg(watched):
    site, _ = watched
    page = (site / "sixes" / "cast-list.html").read_text(encoding="utf-8")
    assert "data:image/svg" not in page
    assert 'src="portraits/second-rival.svg"' in page


def test_no_published_raster_carries_metadata(watched):
    from PIL import Image
    site, _ = watched
    rasters = [p for p in site.rglob("*") if p.suffix in (".jpg", ".png") and "assets" not in p.parts]
    assert len(rasters) >= 3
    for path in rasters:
        with Image.open(path) as image:
            assert len(image.getexif()) == 0, path
            assert not {"comment", "icc_profile", "exif", "xmp", "Comment", "XML:com.adobe.xmp"} & set(image.info), \
                (path, image.info)
            assert b"private" not in path.read_bytes() and b"SpyCam" not in path.read_bytes()


def test_a_jpeg_keeps_its_picture_and_orientation(tmp_path):
    from PIL import Image

    from generator.render.site.publish import publish_image
    source = tmp_path / "turned.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6            # the camera was turned: show it rotated 90 degrees
    Image.new("RGB", (40, 20), "green").save(source, exif=exif)
    target = publish_image(source, tmp_path / "out" / "turned.jpg", "turned.jpg")
    with Image.open(target) as image:
        assert image.size == (20, 40)
        assert len(image.getexif()) == 0
        pixel = image.getpixel((10, 20))
        assert isinstance(pixel, tuple)
        red, green, blue = pixel
        assert green > 100 and red < 40 and blue < 40


@pytest.mark.parametrize("name,content", [
    ("logo.html", b"<html><script>alert(1)</script></html>"),
    ("logo.js", b"alert(1)"),
    ("logo.xhtml", b"<html xmlns='http://www.w3.org/1999/xhtml'/>"),
    ("logo.pdf", b"%PDF-1.4\n"),
])
def test_an_active_file_is_never_published(tmp_path, name, content):
    from generator.core.errors import DataError
    from generator.render.site.publish import publish_image
    source = tmp_path / name
    source.write_bytes(content)
    with pytest.raises(DataError, match="the site publishes only PNG, JPEG, GIF, WebP or SVG images"):
        publish_image(source, tmp_path / "site" / name, name)
    with pytest.raises(DataError):
        publish_image(source, tmp_path / "site" / "logo.png", name)     # renamed on the way: still refused
    assert not (tmp_path / "site").exists()


def test_an_html_logo_is_refused_at_its_line(tmp_path):
    from click.testing import CliRunner

    from generator.commands.cli import main
    game = new_game(tmp_path / "html-logo")
    (game / "logo.html").write_text("<script>alert(1)</script>", encoding="utf-8")
    _settings(game, logo="logo.html")
    result = CliRunner().invoke(main, ["check", "--data", str(game)])
    assert result.exit_code == 1
    line = next(n for n, text in enumerate((game / "sixes.yaml").read_text().splitlines(), 1) if "logo:" in text)
    assert f"sixes.yaml:{line}:" in result.output
    assert "'logo.html' is not an image the site can publish" in result.output


def test_svg_cleaning_is_bounded_by_no_recursion():
    from generator.render.svg_clean import clean_svg
    depth = 100_000
    data = b'<svg xmlns="http://www.w3.org/2000/svg">' + b"<g>" * depth + b"<rect/>" + b"</g>" * depth + b"</svg>"
    cleaned, seconds = cpu_time(clean_svg, data, "deep.svg")
    assert seconds < 5
    assert cleaned.count(b"<g>") == depth and b"<rect></rect>" in cleaned


@pytest.mark.parametrize("value", ["url(http://evil.example/x)", "url( 'https://evil.example')", "url(data:x)",
                                   "u\\72l(http://evil.example)", "/**/url(//evil.example)",
                                   "image-set('https://evil.example/x.png' 1x)", "IMAGE-SET('//evil.example/x' 2x)",
                                   "-webkit-image-set('https://evil.example/x.png' 1x)", "image('https://evil.example')",
                                   "cross-fade('https://evil.example/a.png', red 50%)", "element(#evil)",
                                   "paint(evil)", "(evil)"])
def test_svg_paint_may_point_only_into_the_file(value):
    from generator.render.svg_clean import clean_svg
    data = (f'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="{value}" style="fill:{value}"/>'
            f'<use href="{value}"/></svg>').encode()
    cleaned = clean_svg(data, "paint.svg").decode()
    assert "evil" not in cleaned and "data:" not in cleaned
    assert "<rect></rect>" in cleaned


@pytest.mark.parametrize("prop", ["mask", "fill", "filter", "clip-path"])
def test_no_svg_paint_property_can_name_an_image_to_load(prop):
    """Chromium fetched `mask: image-set("https://...")` from a published SVG
    opened on its own (and from one inline): no property keeps a function
    that may name an image, as an attribute or in a style."""
    from generator.render.svg_clean import clean_svg
    value = "image-set('https://evil.example/t.png' 1x)"
    data = (f'<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" {prop}="{value}" style="{prop}: {value}"/>'
            "</svg>").encode()
    cleaned = clean_svg(data, "mask.svg").decode()
    assert "evil" not in cleaned and "image-set" not in cleaned
    assert '<rect width="4"></rect>' in cleaned


def test_svg_values_keep_their_colours_transforms_and_filter_effects():
    from generator.render.svg_clean import clean_svg
    data = ('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="rgb(10, 20, 30)" transform="translate(1 2) '
            'rotate(45) scale(2) skewX(3) matrix(1 0 0 1 0 0)" style="filter: blur(2px) drop-shadow(1px 1px 2px '
            'hsl(0 0% 0%)); stroke: rgba(0,0,0,0.5)" clip-path="url(#c)"/></svg>').encode()
    cleaned = clean_svg(data, "kept.svg").decode()
    for kept in ('fill="rgb(10, 20, 30)"', "rotate(45)", "matrix(1 0 0 1 0 0)", "blur(2px)", "hsl(0 0% 0%)",
                 "rgba(0,0,0,0.5)", 'clip-path="url(#c)"'):
        assert kept in cleaned, kept


def test_an_animated_gif_keeps_its_frames_and_loses_its_comment(tmp_path):
    from PIL import Image

    from generator.render.site.publish import publish_image
    source = tmp_path / "flag.gif"
    frames = [Image.new("RGB", (20, 20), colour) for colour in ("red", "green", "blue")]
    frames[0].save(source, save_all=True, append_images=frames[1:], duration=80, comment=b"private comment")
    target = publish_image(source, tmp_path / "site" / "flag.gif", "flag.gif")
    with Image.open(target) as image:
        assert getattr(image, "n_frames", 1) == 3 and "comment" not in image.info
    assert b"private" not in target.read_bytes()
