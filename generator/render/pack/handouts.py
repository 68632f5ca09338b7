"""Handout PDFs lose their active content on their way into a pack.

Edge layer, beside parts.py (pypdf, imported by the caller). A handout is a
file the GM was given (a map, a letter), and it goes into every player's
envelope and the print shop's zip. A PDF can carry more than pages: document
JavaScript, an action run on opening, actions run when a page, field or
annotation is shown or touched, links that launch programs, submit forms or
open other files, embedded files and XFA forms. None of it prints, so all of
it goes: `strip_active_content` walks every object the merged file can reach
(with its own stack, never recursion) and removes those keys and
annotations. Links that go to a page of the file, a web address or an e-mail
address, and named page actions, stay, and so do chains of them (`/Next`
after an action): a bookmark's `/Next` is its next sibling, not an action,
so a plain bookmarked file carries nothing active. `find_active_content`
says what a handout carried, in the game's language, so the stuffing
manifest can say what was removed.
"""
from __future__ import annotations

from typing import Any

from ...core.i18n import N_, _

# pypdf has no type information: its readers, writers and objects are Any here.

# Keys whose value only ever runs or carries something: removed wherever found.
_ALWAYS = {"/AA": N_("additional actions"), "/JS": "JavaScript", "/JavaScript": "JavaScript",
           "/EmbeddedFiles": N_("embedded files"), "/EF": N_("embedded files"), "/XFA": N_("an XFA form"),
           "/RichMediaContent": N_("rich media")}
# Keys holding an action, kept when the action is one of these.
_ACTION_KEYS = ("/A", "/OpenAction")
_SAFE_ACTIONS = frozenset({"/GoTo", "/URI", "/Named"})
_SAFE_SCHEMES = ("http:", "https:", "mailto:")
_ACTION_NAMES = {"/JavaScript": "JavaScript", "/Launch": N_("a launch action"), "/SubmitForm": N_("a form submission"),
                 "/ImportData": N_("a data import"), "/GoToR": N_("a link to another file"),
                 "/GoToE": N_("a link to an embedded file"), "/URI": N_("a script link")}
# Annotations that hold a file or play something: removed from the page.
_ACTIVE_ANNOTATIONS = {"/FileAttachment": N_("an attached file"), "/Sound": N_("a sound"), "/Movie": N_("a movie"),
                       "/Screen": N_("a media player"), "/RichMedia": N_("rich media"), "/3D": N_("a 3D model")}
# Never active, often large: not walked.
_SKIPPED = frozenset({"/Resources", "/Contents", "/Font", "/Parent", "/StructParent", "/StructTreeRoot"})


def find_active_content(reader: Any) -> list[str]:
    """What the handout read by `reader` (a pypdf PdfReader) carries that
    would run or hold something, in plain words of the game's language;
    empty when nothing."""
    return _sweep(reader.trailer["/Root"], remove=False)


def strip_active_content(writer: Any) -> list[str]:
    """Remove every piece of active content from the file `writer` (a pypdf
    PdfWriter) is assembling; returns what was removed, in plain words."""
    return _sweep(writer._root_object, remove=True)


def _sweep(root: Any, remove: bool) -> list[str]:
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    found: dict[str, None] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, IndirectObject):
            item = item.get_object()
        if id(item) in seen or not isinstance(item, (DictionaryObject, ArrayObject)):
            continue
        seen.add(id(item))
        if isinstance(item, ArrayObject):
            stack.extend(item)
            continue
        for key in list(item.keys()):
            why = _active_entry(item, key)
            if why is not None:
                found[why] = None
                if remove:
                    del item[key]
            elif key == "/Annots":
                stack.extend(_active_annotations(item, found, remove))
            elif key not in _SKIPPED:
                stack.append(item[key])
    return list(found)


def _active_entry(item: Any, key: str) -> str | None:
    """Why `item[key]` is active, or None."""
    if key in _ALWAYS:
        return _(_ALWAYS[key])
    if key not in _ACTION_KEYS:
        return None
    return _unsafe_in_chain(item[key])


def _unsafe_in_chain(first: Any) -> str | None:
    """Why the action `first`, or one chained after it by `/Next` (an
    action or an array of them), is active; None when every one is safe."""
    from pypdf.generic import ArrayObject
    seen: set[int] = set()
    stack = [first]
    while stack:
        action = stack.pop().get_object()
        if id(action) in seen:
            continue
        seen.add(id(action))
        if isinstance(action, ArrayObject):
            stack.extend(action)
            continue
        if not hasattr(action, "get"):      # an open action may be a destination: [page /Fit]
            continue
        why = _unsafe_action(action)
        if why is not None:
            return why
        if "/Next" in action:
            stack.append(action["/Next"])
    return None


def _unsafe_action(action: Any) -> str | None:
    """Why this one action (not its chain) is active, or None."""
    kind = action.get("/S")
    if kind not in _SAFE_ACTIONS:
        if kind in _ACTION_NAMES:
            return _(_ACTION_NAMES[kind])
        return _("a {kind} action").format(kind=str(kind).lstrip("/"))
    if kind == "/URI" and not str(action.get("/URI", "")).strip().lower().startswith(_SAFE_SCHEMES):
        return _(_ACTION_NAMES["/URI"])
    return None


def _active_annotations(page: Any, found: dict[str, None], remove: bool) -> list[Any]:
    """The page's annotations that stay (to be walked); the others are
    noted in `found` and, when removing, taken off the page."""
    from pypdf.generic import ArrayObject, NameObject
    annotations = page["/Annots"].get_object()
    if not isinstance(annotations, ArrayObject):
        return []
    kept = ArrayObject()
    for annotation in annotations:
        subtype = annotation.get_object().get("/Subtype") if hasattr(annotation.get_object(), "get") else None
        if subtype in _ACTIVE_ANNOTATIONS:
            found[_(_ACTIVE_ANNOTATIONS[subtype])] = None
        else:
            kept.append(annotation)
    if remove and len(kept) != len(annotations):
        page[NameObject("/Annots")] = kept
    return list(kept)
