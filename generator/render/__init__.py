"""Rendering: the edge that draws. Jinja, WeasyPrint and MkDocs live here and in
commands/ only. Imports core/, systems/ and game/; never commands/.

Its rooms, each saying in its own docstring what it may import:

  fit/     what each box of fixed size holds, measured before rendering
  pdf/     WeasyPrint, the print lint, tagging, joining parts, card sheets
  site/    the rules site, MkDocs, the tracker and the publishing gates
  pack/    a pack's merged files, manifest and zips
  cache/   what a build remembers between runs

and the modules every room shares: html.py (the Jinja environments),
options.py (how to print), charts.py, md_escapes.py, svg_clean.py,
progress.py and pause.py. Those import core/, systems/, game/ and one
another, and html.py the label measurement in fit/."""
