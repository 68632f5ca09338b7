"""The build cache: what a build remembers between runs, where, and why.

Edge layer; its modules import core, game and one another, never a
renderer. Everything a build remembers between runs is in the user's cache
folder ($SIXES_CACHE_DIR, else $XDG_CACHE_HOME/sixes-press or
~/.cache/sixes-press): the rendered PDFs, which every output folder shares,

  pdf/<key>.pdf, pdf/<key>.json   rendered PDFs by a hash of everything that
                                  decides them, with page count and checksum (pdfs.py)

and one private sub-folder per output folder:

  html/<key>.json                 each document's HTML by its inputs (documents.py),
                                  so an unchanged document's HTML is not made again
  pdf-keys.json                   the PDFs this output folder's builds used
                                  (`sixes clean` forgets them with the rest)
  memo.json                       results of slow derivations (generator/core/memo.py;
                                  written and read as plain JSON by codec.py)
  site.inputs, site.key           what the site was last built from (builds.py)
  site.pages                      the hash of each staged page, title and text apart, so
                                  a build can make only the pages whose text changed
  last-build.json                 the last build's inputs key, output files and
                                  summary, so a build with nothing changed stops early
  .sixes-press-cache              the marker saying the tool made this folder
                                  (render/cache/marker.py): `sixes clean` removes no other
                                  (the shared `pdf/` carries one too)

"Why didn't my edit show?" is answered by one file, `keys.py`: an edit
shows when it reaches a key, and it spells every key (a PDF's is its final
HTML, where data and Jinja templates already are, its paper, print variant
and date, the game files it names (a portrait), over the CSS, fonts and
icons under templates/ and the code version). `builds.BuildCache` is the
cache as one run sees it (commands/context.BuildContext holds it): what the
last build made, whether the site is unchanged, and the record of this build.
Where the folders are and how they are written is `storage.py`.

Only a build that passed writes here. `sixes clean` forgets it all
(`clear`), and `--no-cache` builds without reading or writing it. Nothing
read back can run code: everything is JSON or a PDF checked against its
recorded checksum, and a file that does not decode as expected is a miss.
The folders are private (0700); one that is not a folder, is someone else's
or is writable by others is not used. Any trouble with the cache (a full
disk, a read-only home) is a warning and the build goes on without it.
"""
from __future__ import annotations

from .builds import BUILD_RECORD, BuildCache
from .codec import decode, encode
from .documents import DocumentCache
from .keys import site_inputs_key
from .pdfs import RenderCache, forget_used
from .storage import cache_base, cache_root, clear, read_text, take_warnings, usable_root, write_text

__all__ = ["BUILD_RECORD", "BuildCache", "DocumentCache", "RenderCache", "cache_base", "cache_root", "clear", "decode",
           "encode", "forget_used", "read_text", "site_inputs_key", "take_warnings", "usable_root", "write_text"]
