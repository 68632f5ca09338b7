"""A catalogue message's id or string as a list of its forms: one, or the
singular and plurals of a plural message (Babel gives a str or a tuple)."""
from __future__ import annotations


def forms(value: str | tuple | list | None) -> list[str]:
    return [value] if isinstance(value, str) else list(value or ())
