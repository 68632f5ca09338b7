"""Site: the rules site and the GM's fight tracker. Staging the Markdown,
driving MkDocs, rebuilding only changed pages, and the gates for what a game
folder may publish (its pages, images and SVGs).

Imports core/, systems/, game/ and the shared render modules; never the
fit, PDF, pack or cache rooms."""
