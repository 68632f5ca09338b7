"""What declares a PDF we assemble from our own tagged PDFs to be PDF/UA-1.

Edge layer; imports nothing. A merge or a join writes a new catalog, so the
XMP packet WeasyPrint gave each part (its title, and the PDF/UA part number
a checker looks for) is written again: by render/pdf/tagged_merge.py for the
pack's merges (pypdf) and render/pdf/tagged_join.py for a document's parts (pikepdf).
"""
from __future__ import annotations

_XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"><pdfuaid:part>1</pdfuaid:part>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>
<rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title></rdf:Description>
</rdf:RDF></x:xmpmeta>
<?xpacket end="r"?>"""


def xmp_metadata(title: str) -> bytes:
    """The XMP packet of a tagged PDF we assemble: its title, and PDF/UA-1 declared."""
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _XMP.format(title=escaped).encode("utf-8")
