"""PDF: from a described document to a checked, tagged PDF. WeasyPrint, the
print lint, structure tags, joining long documents' parts, card sheets and
the render workers live here.

Imports core/, systems/, game/, the shared render modules, fit/ (a page's
budget) and cache/ (what was rendered before); never site/ or pack/."""
