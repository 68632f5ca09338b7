"""A game folder as a whole: its settings (sixes.yaml), finding it from the
current folder, loading every system it holds, its own site pages, its
casting file, its date (dates.py, which may ask git for its last commit) and
the one gather every command starts with. Like the core: imports core/ and
systems/ only, renders and writes nothing."""
