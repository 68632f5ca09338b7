"""How text is written into a page Markdown reads, one table for every
writer (`html.md_text`, the site's charts). Edge layer, imports nothing.

HTML's special characters are written as HTML escapes them (as markupsafe
does), and every other character that Markdown, its extensions (attr_list,
md_in_html, tables, admonition, toc) or common ones (`:` of bare URLs and
emoji, `=` marks, `^` `~` `$` `@`) may read as syntax as a numeric character
reference. Markdown passes references through untouched and every reader of
the page (browser, search, feeds) shows the character itself; they are
right inside raw HTML and attribute values too.
"""
from __future__ import annotations

MD_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;",
              **{ch: f"&#{ord(ch)};" for ch in "\\`*_{}[]()#+!|~:=^$@"}}
