"""Data is text on the site, whatever it holds.

Every free-text field of every system's starter data is rewritten to carry
markup that would be live if it reached the site as Markdown or HTML: a
`javascript:` link, a remote image, an autolink, a reference-style link with
its definition, raw `<img onerror>`, `</title><script>` and an attribute list
with `onmouseover`. The fields are found by walking the pydantic models, not
listed by hand, so a field added to a model is attacked too. The site is then
built (the site alone: the PDFs it links are placeholders) and searched for
anything live: scripts, event handlers, `javascript:` URLs and remote loads
that a clean build does not have. Each field's own marker must still be shown
as text, so the site cannot pass by dropping the data. A real browser then
opens every page, hovers and focuses everything, and must see no dialog and
no request leave the machine.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import types
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

import pytest
import yaml
from pydantic import BaseModel, PlainValidator

from generator.core.text import kind_of
from generator.systems import SYSTEMS, System

from test_site_browser import search

# Markup that would run, load or link something if the site trusted the data.
# Each set is one site build; {m} is the field's marker, unique per value.
# The reference definition needs a line of its own, hence the paragraph break.
PAYLOADS = {
    "markdown": ("{m} [click me](javascript:alert(1)) ![pic](http://evil.example/{m}.png) "
                 "<http://evil.example/{m}> <javascript:alert(2)> [by reference][evil{n}]\n\n"
                 "[evil{n}]: javascript:alert(3)"),
    "html": ("{m} <img src=x onerror=alert(4)> </title><script>alert(5)</script> "
             "<a href=\"javascript:alert(6)\">there</a> *star* _under_ `tick` {: onmouseover=alert(7) }"),
}
# The plain build: every field holds only its marker. It is the clean site the
# hostile ones are compared with (scripts, handlers), and it says which fields
# the site shows at all.
PLAIN = "{m}"

# Strings that are not free text, by model field: they name a file or an icon
# the loader checks exists, so a payload could only fail validation.
NOT_TEXT = {
    ("sixes", "ActionsFile.actions{}.icon"),        # a file under templates/icons
    ("sixes", "Character.portrait"),               # an image inside the data folder
    ("sixes", "Character.handouts[]"),             # PDFs inside the data folder
}
# Values the rules themselves name, which keep their spelling everywhere: none
# now (I6's combat finds its traits by id, so their names are free text too).
FIXED_VALUES: dict[str, set[str]] = {}
# Free text the site must never show (secrets), as model fields: the owner's
# secrets, and every field the models mark for the GM only (core/privacy.GM_ONLY,
# found by gm_only_fields below: every gm_notes, a character's too).
OWNERS_SECRETS = {("sixes", "Character.background"), ("i6", "Hero.secret")}


# One entity per system copied as a private one, its texts changed so that
# they get markers of their own: none of those may reach the site. By system:
# the file (or folder of one-entity files), the list it sits in, its texts.
KEPT = "Kept back"
PRIVATE_COPIES = {
    "six-shooter": ("challenges.yaml", "challenges", ("name", "description")),
    "sixes": ("characters", None, ("name", "description")),
    "i6": ("heroes", None, ("name", "concept", "description")),
    "d6xd6": ("characters.yaml", "characters", ("name", "note")),
    "sixes-system": ("combatants", None, ("name", "description")),
}


# --- the models: where the strings are ---------------------------------------

def _unwrap(tp: Any) -> tuple[Any, list]:
    """The type inside any Annotated layers, with their metadata."""
    meta: list = []
    while get_origin(tp) is Annotated:
        tp, *more = get_args(tp)
        meta += more
    return tp, meta


def _is_free_text(meta: list) -> bool:
    """A plain str, or one constrained only to be non-blank. A custom
    validator or a pattern means a vocabulary, not prose."""
    for item in meta:
        if isinstance(item, PlainValidator):
            return False
        pattern = getattr(item, "pattern", None)
        if pattern not in (None, r"\S"):
            return False
    return True


def string_fields(tp: Any, path: str = "", meta: list | None = None) -> dict[str, bool]:
    """Every str position under a model type, by path (`Model.field[]` for a
    list item, `{key}` / `{}` for a dict's keys / values), mapped to whether
    it is free text."""
    tp, more = _unwrap(tp)
    meta = (meta or []) + more
    origin = get_origin(tp)
    found: dict[str, bool] = {}
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            found.update(string_fields(info.annotation, f"{path or tp.__name__}.{name}", list(info.metadata)))
    elif origin in (Union, types.UnionType):
        for arm in get_args(tp):
            found.update(string_fields(arm, path, meta))
    elif origin in (list, tuple):
        found.update(string_fields(get_args(tp)[0], path + "[]"))
    elif origin is dict:
        key, value = get_args(tp)
        found.update(string_fields(key, path + "{key}"))
        found.update(string_fields(value, path + "{}"))
    elif tp is str:
        found[path] = _is_free_text(meta)
    return found


def gm_only_fields(tp: Any, path: str = "") -> set[str]:
    """Every field under a model type that the models mark for the GM only
    (its json_schema_extra holds core/privacy.GM_ONLY), by string_fields' paths."""
    tp, _meta = _unwrap(tp)
    origin = get_origin(tp)
    found: set[str] = set()
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            where = f"{path or tp.__name__}.{name}"
            if isinstance(info.json_schema_extra, dict) and info.json_schema_extra.get("gm_only"):
                found.add(where)
            found |= gm_only_fields(info.annotation, where)
    elif origin in (Union, types.UnionType):
        for arm in get_args(tp):
            found |= gm_only_fields(arm, path)
    elif origin in (list, tuple):
        found |= gm_only_fields(get_args(tp)[0], path + "[]")
    elif origin is dict:
        found |= gm_only_fields(get_args(tp)[1], path + "{}")
    return found


SECRET_FIELDS = OWNERS_SECRETS | {(s.slug, path) for s in SYSTEMS for model in s.schemas.values()
                                  for path in gm_only_fields(model)}


def test_every_entity_that_may_be_private_has_notes_for_the_gm_only():
    """Each model with a `visibility` (a character, an Operator, a hero, a
    combatant, a challenge, an adventure) has a `gm_notes` the models mark
    for the GM only, so a GM can note something about any of them."""
    entities: set[type] = set()

    def walk(tp: Any) -> None:
        tp, _meta = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if "visibility" in tp.model_fields:
                entities.add(tp)
            for info in tp.model_fields.values():
                walk(info.annotation)
        for arm in get_args(tp):
            walk(arm)
    for system in SYSTEMS:
        for model in system.schemas.values():
            walk(model)
    assert len(entities) >= 7
    for model in entities:
        assert gm_only_fields(model) >= {f"{model.__name__}.gm_notes"}, model


def _pick(tp: Any, value: Any) -> tuple[Any, list]:
    """The arm of a union (and its metadata) that a YAML value belongs to."""
    tp, meta = _unwrap(tp)
    if get_origin(tp) not in (Union, types.UnionType):
        return tp, meta
    for arm in get_args(tp):
        inner, more = _unwrap(arm)
        origin = get_origin(inner) or inner
        if (isinstance(value, str) and inner is str) or (isinstance(value, list) and origin in (list, tuple)) \
                or (isinstance(value, dict) and (origin is dict or (isinstance(inner, type)
                                                                   and issubclass(inner, BaseModel)))):
            return inner, meta + more
    return None, []


# --- the data: a hostile copy of every starter --------------------------------

@dataclass
class Rewrite:
    """One data folder's free-text values swapped for payloads. The same
    value gets the same replacement everywhere in a system, so names still
    match the places that refer to them."""

    template: str
    markers: dict[str, set[tuple[str, str]]] = field(default_factory=dict)   # marker -> (system, field path)
    texts: dict[str, str] = field(default_factory=dict)                     # marker -> the whole new value
    seen_fields: set[tuple[str, str]] = field(default_factory=set)
    # Values some name field holds (core/text.py: a name is one line), found
    # by a first walk: their payload keeps to one line wherever they stand.
    names: set[tuple[str, str]] = field(default_factory=set)
    surveying: bool = False
    _by_value: dict[tuple[str, str], str] = field(default_factory=dict)

    def replace(self, slug: str, path: str, value: str) -> str:
        if (slug, path) in NOT_TEXT or value in FIXED_VALUES.get(slug, ()):
            return value
        if self.surveying:
            if _names_a_thing(path):
                self.names.add((slug, value))
            return value
        self.seen_fields.add((slug, path))
        if (slug, value) not in self._by_value:
            n = len(self._by_value) + 1
            marker = f"mk{n:03d}q"
            self._by_value[(slug, value)] = marker
            template = self.template.replace("\n\n", " ") if (slug, value) in self.names else self.template
            self.texts[marker] = template.replace("{m}", marker).replace("{n}", str(n))
        marker = self._by_value[(slug, value)]
        self.markers.setdefault(marker, set()).add((slug, path))
        return self.texts[marker]

    def walk(self, slug: str, data: Any, tp: Any, path: str, meta: list | None = None) -> Any:
        tp, more = _pick(tp, data)
        meta = (meta or []) + more
        origin = get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(data, dict):
            fields = tp.model_fields
            return {k: (self.walk(slug, v, fields[k].annotation, f"{path or tp.__name__}.{k}",
                                  list(fields[k].metadata)) if k in fields else v) for k, v in data.items()}
        if origin in (list, tuple) and isinstance(data, list):
            return [self.walk(slug, item, get_args(tp)[0], path + "[]") for item in data]
        if origin is dict and isinstance(data, dict):
            key_type, value_type = get_args(tp)
            return {self.walk(slug, k, key_type, path + "{key}"): self.walk(slug, v, value_type, path + "{}")
                    for k, v in data.items()}
        if tp is str and isinstance(data, str) and _is_free_text(meta):
            return self.replace(slug, path, data)
        return data


def file_model(system: System, rel: Path) -> type[BaseModel]:
    """The model of one starter file: game.yaml is kind `game`, a file in
    heroes/ is kind `hero` (or `heroes`)."""
    folder = rel.parts[0] if len(rel.parts) > 1 else None
    candidates = [folder, folder[:-1], folder[:-2]] if folder else [rel.stem]
    for kind in candidates:
        if kind in system.schemas:
            return system.schemas[kind]
    raise AssertionError(f"{system.slug}/{rel}: no model among {sorted(system.schemas)}")


def _names_a_thing(path: str) -> bool:
    """Whether a field path (`Model.field[]`, `{key}`) is read as a name."""
    last = path.rsplit(".", 1)[-1]
    return last.endswith("{key}") or kind_of(re.sub(r"(\[\]|\{\})+$", "", last), []) == "name"


def hostile_data(target: Path, template: str) -> Rewrite:
    """Every system's starter folder, copied to `target` with the payload in every free-text value."""
    rewrite = Rewrite(template)
    for system in SYSTEMS:
        shutil.copytree(system.starter, target / system.slug)
        add_private_copy(target / system.slug, system.slug)
    for rewrite.surveying in (True, False):
        for system in SYSTEMS:
            for path in sorted((target / system.slug).rglob("*.yaml")):
                rel = path.relative_to(target / system.slug)
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
                data = rewrite.walk(system.slug, data, file_model(system, rel), "")
                if not rewrite.surveying:
                    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return rewrite


def add_private_copy(folder: Path, slug: str) -> None:
    where, key, texts = PRIVATE_COPIES[slug]
    path = folder / where
    source = sorted(path.glob("*.yaml"))[0] if path.is_dir() else path
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    entity = dict(data[key][0] if key else data)
    entity.update({name: f"{KEPT} {entity.get(name) or name}" for name in texts}, visibility="private")
    if key:
        data[key].append(entity)
    target = source if key else path / "kept-back.yaml"
    target.write_text(yaml.safe_dump(data if key else entity, allow_unicode=True, sort_keys=False), encoding="utf-8")


def private_markers(built: "Built") -> dict[str, set[str]]:
    """The markers of the private copies' texts, by system."""
    found: dict[str, set[str]] = {}
    for (slug, value), marker in built.rewrite._by_value.items():
        if value.startswith(KEPT):
            found.setdefault(slug, set()).add(marker)
    return found


# --- the site, built without its PDFs -----------------------------------------

def build_site_only(data_dir: Path, out: Path) -> Path:
    """Load every system, stage its pages and run MkDocs; the public PDFs the
    pages link are empty placeholders (their content is not under test)."""
    from generator.core.paper import A4
    from generator.render.site.writer import SiteSection, stage_sources
    from generator.render.site.mkdocs_build import build_site

    sections = []
    for system in SYSTEMS:
        game, problems = system.load(data_dir / system.slug, data_dir.parent)
        errors = [p for p in problems if p.severity != "warning"]
        assert game is not None and not errors, errors
        public = {d.slug: d for d in system.documents(game) if d.audience == "public"}
        for doc in public.values():
            pdf = out / "pdf" / "a4" / system.slug / doc.folder / f"{doc.slug}.pdf"
            pdf.parent.mkdir(parents=True, exist_ok=True)
            pdf.write_bytes(b"%PDF-1.4\n")
        # The cast lists too (off unless the settings ask): names, factions and descriptions are attacked there.
        assert system.cast_list is not None
        sections.append(SiteSection(system, system.pages(game), public, tuple(system.cast_list(game))))
    nav = stage_sources(out / "src", sections, out, (A4,))
    build_site(out / "src", out / "site", nav)
    return out / "site"


@dataclass
class Built:
    site: Path
    rewrite: Rewrite

    def pages(self) -> list[Path]:
        return sorted(self.site.rglob("*.html"))


def _build(tmp_path_factory, name: str, template: str) -> Built:
    root = tmp_path_factory.mktemp(f"hostile-{name}")
    rewrite = hostile_data(root / "data", template)
    return Built(build_site_only(root / "data", root / "out"), rewrite)


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Built:
    return _build(tmp_path_factory, "plain", PLAIN)


@pytest.fixture(scope="module", params=sorted(PAYLOADS))
def hostile(request, tmp_path_factory) -> Built:
    return _build(tmp_path_factory, request.param, PAYLOADS[request.param])


# --- reading the built HTML ---------------------------------------------------

class _Scan(HTMLParser):
    """Scripts, every attribute, and the visible text of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []      # (tag, name, value)
        self.text: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            self.attrs.append((tag, name.lower(), value or ""))
        if tag == "script":
            src = dict(attrs).get("src")
            self.scripts.append(f"src={src}" if src else "inline")
        if tag in ("script", "style", "title"):
            self._in.append(tag)

    def handle_endtag(self, tag):
        if self._in and self._in[-1] == tag:
            self._in.pop()

    def handle_data(self, data):
        if self._in and self._in[-1] == "script" and self.scripts and self.scripts[-1] == "inline":
            self.scripts[-1] = "inline:" + hashlib.sha1(data.encode()).hexdigest()
        elif not self._in:
            self.text.append(data)


@lru_cache(maxsize=None)
def scan(path: Path) -> _Scan:
    parser = _Scan()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


def squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def site_scripts(built: Built) -> set[tuple[str, str]]:
    return {(p.relative_to(built.site).as_posix(), s) for p in built.pages() for s in scan(p).scripts}


def handler_attrs(built: Built) -> set[tuple[str, str]]:
    return {(tag, name) for p in built.pages() for tag, name, _ in scan(p).attrs if name.startswith("on")}


# Attributes whose value the browser follows or loads.
URL_ATTRS = {"src", "href", "srcset", "data", "action", "formaction", "poster", "background", "cite",
             "xlink:href", "ping"}


def urls(built: Built) -> list[tuple[Path, str, str, str]]:
    return [(p, tag, name, value) for p in built.pages() for tag, name, value in scan(p).attrs
            if name in URL_ATTRS]


def remote_urls(built: Built) -> set[str]:
    return {value for _, _, _, value in urls(built) if re.match(r"\s*(https?:)?//", value)}


def visible_markers(built: Built) -> set[str]:
    text = squash(" ".join(t for p in built.pages() for t in scan(p).text))
    return {m for m in built.rewrite.markers if m in text}


# --- the checks ---------------------------------------------------------------

def test_the_models_strings_are_all_attacked(plain):
    """Every free-text field the starters hold gets a payload; fields the
    models declare but no starter fills are named, so a new one is seen."""
    declared = {(s.slug, path) for s in SYSTEMS for model in s.schemas.values()
                for path, free in string_fields(model).items() if free}
    assert plain.rewrite.seen_fields <= declared
    unfilled = declared - plain.rewrite.seen_fields - NOT_TEXT
    # Optional fields the starters leave out (their defaults are empty).
    assert unfilled <= {
        ("sixes", "Character.faction"), ("sixes", "Character.background"),
        ("six-shooter", "OperatorsFile.operators[].player"), ("six-shooter", "ChallengesFile.challenges[].gm_notes"),
        ("d6xd6", "DamageFile.levels[].effect"), ("d6xd6", "CharactersFile.characters[].note"),
        ("d6xd6", "WeaponTable.categories[].weapons[].comment"), ("d6xd6", "DamageFile.overkill.description"),
        ("d6xd6", "WeaponTable.note"), ("i6", "Hero.secret"), ("i6", "Hero.description"),
        ("sixes-system", "Combatant.weapons[].skill"), ("sixes-system", "Combatant.defences[].skill"),
    }, (f"model fields no starter fills: {sorted(unfilled)}; "
        "give the starter a value (then it is attacked) or list it here")
    assert len(plain.rewrite.seen_fields) > 60


def test_the_plain_site_shows_the_public_fields_and_no_secret(plain):
    shown = {f for m in visible_markers(plain) for f in plain.rewrite.markers[m]}
    for system in SYSTEMS:
        assert any(slug == system.slug for slug, _ in shown), f"nothing of {system.slug} reached the site"
    hidden = {f for m, fs in plain.rewrite.markers.items() if m not in visible_markers(plain) for f in fs}
    assert SECRET_FIELDS & plain.rewrite.seen_fields <= hidden
    kept = private_markers(plain)
    assert sorted(kept) == sorted(PRIVATE_COPIES)
    index = (plain.site / "search" / "search_index.json").read_text(encoding="utf-8")
    for slug, markers in kept.items():
        assert not markers & visible_markers(plain), slug
        assert not [m for m in markers if m in index], slug


def test_hostile_data_adds_no_script_handler_or_remote_url(plain, hostile):
    assert site_scripts(hostile) <= site_scripts(plain), sorted(site_scripts(hostile) - site_scripts(plain))
    assert handler_attrs(hostile) <= handler_attrs(plain), sorted(handler_attrs(hostile) - handler_attrs(plain))
    assert remote_urls(hostile) <= remote_urls(plain), sorted(remote_urls(hostile) - remote_urls(plain))
    for page, tag, name, value in urls(hostile):
        assert not re.match(r"\s*javascript:", value, re.I), (page, tag, name, value)
        assert "evil.example" not in value, (page, tag, name, value)


def test_hostile_data_is_shown_as_the_very_text_it_is(plain, hostile):
    """Every field the plain site shows, the hostile site shows too, with its
    payload spelt out character for character."""
    expected = visible_markers(plain)
    assert expected
    text = squash(" ".join(t for p in hostile.pages() for t in scan(p).text))
    missing = {m: sorted(hostile.rewrite.markers[m]) for m in expected
               if squash(hostile.rewrite.texts[m]) not in text}
    assert not missing


def test_the_search_index_holds_no_live_markup(plain, hostile):
    def tags(built: Built) -> set[str]:
        index = json.loads((built.site / "search" / "search_index.json").read_text(encoding="utf-8"))
        found = set()
        for doc in index["docs"]:
            for key in ("title", "text"):
                found |= {t.lower() for t in re.findall(r"<[^>]*>", doc.get(key, ""))}
        return found

    extra = tags(hostile) - tags(plain)
    assert not extra, sorted(extra)
    live = [t for t in tags(hostile) if re.search(r"^<(script|img|a|iframe)\b|\son\w+=|javascript:|//", t)]
    assert not live, live


# --- in a real browser --------------------------------------------------------

# Touch every element the way a reader would: hover, focus, and follow any
# link that would run script instead of going somewhere.
TOUCH_ALL = """() => {
  for (const el of document.querySelectorAll('body *')) {
    for (const kind of ['mouseover', 'mouseenter', 'mousemove']) {
      el.dispatchEvent(new MouseEvent(kind, {bubbles: true}));
    }
    if (typeof el.focus === 'function') el.focus();
    el.dispatchEvent(new FocusEvent('focus'));
  }
  for (const a of document.querySelectorAll('a[href]')) {
    if (a.protocol === 'javascript:') a.click();
  }
}"""


def settle(page) -> None:
    """Return once the page has run what touching it queued: two turns of
    its task queue (a javascript: link navigates on a task of its own), on
    any machine, where waiting a fixed time is too short when it is busy."""
    page.evaluate("() => new Promise(done => setTimeout(() => setTimeout(done, 0), 0))")


def test_no_page_runs_or_fetches_anything_from_the_data(hostile, browser):
    dialogs, outside, errors = [], [], []
    context = browser.new_context()
    context.route(re.compile(r"^(?!file:|data:|about:|blob:)"),
                  lambda route: (outside.append(route.request.url), route.abort()))

    # One tab for every page (a new tab costs more than a navigation); what
    # a page does is put down to the page open at the time.
    page, current = context.new_page(), [""]
    page.on("dialog", lambda dialog: (dialogs.append(f"{current[0]}: {dialog.message}"), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(f"{current[0]}: {error}"))

    def open_page(path: Path) -> None:
        current[0] = path.name
        page.goto(path.as_uri(), wait_until="load")

    for path in hostile.pages():
        open_page(path)
        page.evaluate(TOUCH_ALL)
        settle(page)
    # Search results are drawn from the index: show the hostile ones too
    # (every marker starts with "mk").
    open_page(hostile.site / "index.html")
    search(page, "mk")
    page.evaluate(TOUCH_ALL)
    settle(page)
    context.close()
    assert dialogs == []
    assert outside == []
    assert errors == []
