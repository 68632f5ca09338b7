"""The documents and site pages D6xD6 contributes, as data. Core layer."""
from __future__ import annotations

from ..base import Document, Page


def documents(game) -> list[Document]:
    return []


def pages(game) -> list[Page]:
    return []
