"""Sixes Press: YAML game data in, printable packs and a rules site out.

The package is laid out as its floors, each folder importing only from the
floors below it (tests/test_core_purity.py holds every import to this):

- `core/`      what every system shares, pure: reading YAML with positions,
               validation, errors, names, dice, rulings, the memo of slow
               derivations, where the tool's own files are, the papers and
               where each PDF goes in the output (core/paper.py, core/layout.py).
- `systems/`   one package per game system: its models, pure rules and the
               documents and pages it contributes, as data. Imports `core/`.
- `game/`      a game folder as a whole: its settings, finding it, loading
               every system in it, its casting file. Imports the two above.
- `render/`    the edge that draws: Jinja, WeasyPrint, charts, the site,
               the render cache. Imports the three above.
- `commands/`  the `sixes` command and its build context: build, pack,
               serve, watch, deploy, and the one writer of an output folder.
               May import anything.

The first three never import Jinja, WeasyPrint, MkDocs, click or rich, so the
rules can be used as a library and tested without them.
"""
