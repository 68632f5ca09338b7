"""The documents and site pages Six Shooter contributes, as data. Core layer."""
from __future__ import annotations

from ..base import Document, Page


def documents(adventure) -> list[Document]:
    return []


def pages(adventure) -> list[Page]:
    return []
