"""The one gate for what the site publishes from a game folder.

Edge layer: core, Pillow and the standard library. The site holds only files
the tool wrote or re-encoded, so nothing a user's file carries besides its
picture reaches a reader: a logo, a cast-list portrait or an image beside the
game's own pages goes through `publish_image` and nothing else (the test of
the gate watches every copy a site build makes).

- A raster image is decoded and written anew in the format its name says,
  from its pixels alone: no EXIF (the camera, the place it was taken), no
  comment, no XMP, no ICC profile, no PNG text chunk. A photo's EXIF
  orientation is applied first, so it still stands the right way up.
- An SVG is never copied: it is parsed and written anew from a strict
  allow-list of drawing elements and attributes (render/svg_clean.py), so
  nothing in it can run or load anything, even opened on its own.
- Any other kind of file (a page, a script, a PDF) is refused, whatever it
  is named and wherever it was named: the site serves none from a user.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...core.assets import IMAGE_SUFFIXES, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, RASTER_FORMATS, asset_fault
from ...core.errors import DataError, Problem
from ...core.loading import UnreadableFile, open_regular

if TYPE_CHECKING:
    from PIL import Image

# What the site publishes from a user, by the suffix the file is published
# under: the Pillow format it is written in. SVG is rewritten, not encoded.
RASTER_SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WEBP"}
SVG_SUFFIX = ".svg"
assert set(IMAGE_SUFFIXES) == {*RASTER_SUFFIXES, SVG_SUFFIX}
KINDS = "PNG, JPEG, GIF, WebP or SVG images"
JPEG_QUALITY = 92       # visually the same as a camera's own; the point is the metadata, not the size


def publish_image(source: Path, target: Path, shown: str) -> Path:
    """Write the user's image `source` (named `shown` in messages) to
    `target`, re-encoded by `target`'s suffix; refuse any other kind with a
    DataError naming the file. Returns `target`."""
    suffix = target.suffix.lower()
    if suffix not in IMAGE_SUFFIXES or source.suffix.lower() not in IMAGE_SUFFIXES:
        raise DataError([Problem(shown, None, None, f"the site publishes only {KINDS}, not '{source.name}'",
                                 hint="convert it to PNG or JPEG; the site never serves a user's page, script "
                                      "or document")])
    fault = asset_fault(source, shown)
    if fault is not None:
        raise DataError([Problem(shown, None, None, fault.message, hint=fault.hint)])
    target.parent.mkdir(parents=True, exist_ok=True)
    if suffix == SVG_SUFFIX:
        from ..svg_clean import clean_svg
        data = clean_svg(_read(source, shown), shown)
    else:
        data = _reencode(source, RASTER_SUFFIXES[suffix], shown)
    target.write_bytes(data)
    return target


def _read(source: Path, shown: str) -> bytes:
    try:
        with open_regular(source, MAX_IMAGE_BYTES, "an image") as file:
            return file.read(MAX_IMAGE_BYTES + 1)
    except UnreadableFile as exc:
        raise DataError([Problem(shown, None, None, exc.message, hint=exc.hint)]) from None


def _reencode(source: Path, kind: str, shown: str) -> bytes:
    """The picture alone, in `kind`: every frame's pixels copied into new
    images, which carry no metadata, then saved with none."""
    import io

    from PIL import Image, ImageOps, ImageSequence

    with io.BytesIO(_read(source, shown)) as raw, Image.open(raw) as image:
        if image.format not in RASTER_FORMATS or image.width * image.height > MAX_IMAGE_PIXELS:
            # asset_fault has said so already; never decode it
            raise DataError([Problem(shown, None, None, f"not an image the site can publish ({image.format})")])
        frames = [_pixels_only(ImageOps.exif_transpose(frame.copy()), kind) for frame in ImageSequence.Iterator(image)]
        durations = image.info.get("duration", 100)
    out = io.BytesIO()
    if kind == "JPEG":
        frames[0].save(out, "JPEG", quality=JPEG_QUALITY)
    elif len(frames) > 1 and kind in ("GIF", "WEBP"):
        frames[0].save(out, kind, save_all=True, append_images=frames[1:], duration=durations, loop=0)
    else:
        frames[0].save(out, kind)
    return out.getvalue()


def _pixels_only(frame: Image.Image, kind: str) -> Image.Image:
    """A new image holding only `frame`'s pixels (RGB for JPEG, else RGBA)."""
    from PIL import Image
    mode = "RGB" if kind == "JPEG" else "RGBA"
    converted = frame.convert(mode)
    return Image.frombytes(mode, converted.size, converted.tobytes())
