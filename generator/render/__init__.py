"""Rendering: the edge that draws. Jinja, WeasyPrint and MkDocs live here and in
commands/ only. Imports core/, systems/ and game/; never commands/."""
