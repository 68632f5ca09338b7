"""A game folder as a whole: its settings (sixes.yaml), finding it from the
current folder, loading every system it holds, and its casting file. Pure
like the core: imports core/ and systems/ only, renders and writes nothing."""
