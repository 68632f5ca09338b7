"""The documents and site pages of the Sixes System, as data (filled in below)."""
from __future__ import annotations

from .dataset import Campaign
from ..base import Document, Page


def documents(campaign: Campaign) -> list[Document]:
    return []


def pages(campaign: Campaign) -> list[Page]:
    return []
