"""Pack: a pack's files from rendered parts: the envelopes' merged PDFs, the
manifest, the zips, and an organiser's handout PDFs made safe to copy in.

Imports core/, systems/, game/, the shared render modules, fit/ and pdf/;
never site/ or cache/."""
