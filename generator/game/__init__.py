"""A game folder as a whole: its settings (sixes.yaml), finding it from the
current folder, loading every system it holds, its own site pages, its
casting file, and the one gather every command starts with. Pure
like the core: imports core/ and systems/ only, renders and writes nothing."""
