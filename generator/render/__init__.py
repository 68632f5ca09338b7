"""Rendering: the edge of the system. Jinja, WeasyPrint and MkDocs live here only."""
