"""The pure core every system shares. Imports only the standard library,
PyYAML, pydantic and this folder (Pillow, pypdf and fontTools lazily, to
check a portrait, a handout or a glyph); never systems/, game/, render/ or
commands/, and no rendering or command-line library."""
