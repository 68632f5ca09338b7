"""Check loaded YAML against a pydantic model and explain failures in plain words.

Core layer: imports pydantic and the project's loading/errors modules. The
models are the single source of truth; this module only translates pydantic's
error records into Problems at the right file:line:column, with what was
found, what is allowed, and the closest valid name when there is one.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Container, Iterable, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from .errors import Problem, allowed_hint, close_matches
from .loading import Key, YamlDocument
from .text import advice, kind_of, strings_in, unreadable

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class DataModel(BaseModel):
    """Base for every data file model: unknown keys are errors, types are strict,
    and loaded values are immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @field_validator("*", mode="after")
    @classmethod
    def _readable_text(cls, value: Any, info: ValidationInfo) -> Any:
        """Every string of every field, a field added tomorrow too, is read
        by core/text.py: no bidi control, separator or control character in
        any text, no format character in a name (its mapping keys included)."""
        if not isinstance(value, (str, list, tuple, dict)):
            return value            # numbers, flags and nested models (which check their own fields)
        kind = _field_kind(cls, info.field_name or "")
        found = [(at, why, advice(text, kind), is_key) for at, text, kind, is_key in strings_in(value, kind)
                 if (why := unreadable(text, kind))]
        if found:
            raise PydanticCustomError("unreadable_text", "{first}", {"first": found[0][1], "found": found})
        return value


@lru_cache(maxsize=None)
def _field_kind(model: type[BaseModel], name: str) -> str:
    """How core/text.py reads a field's text, worked out once per field."""
    field = model.model_fields.get(name)
    return kind_of(name, list(field.metadata) if field else [])


def validate(model: type[M], doc: YamlDocument, data: Any = None, base: Key = ()) -> tuple[M | None, list[Problem]]:
    """Validate `data` (by default the whole document) located at `base`."""
    data = doc.data if data is None else data
    if data is None:
        return None, [doc.problem(base, "the file is empty",
                                  hint="see `sixes new` for a starter file")]
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        errors = _without_missing_explained_by_typo(model, exc.errors(include_url=False))
        return None, [problem for err in errors for problem in _problems(model, doc, base, err)]


def missing_note(rule: str, required: Iterable[T], present: Container[T], show: Callable[[T], str] = str
                 ) -> str | None:
    """`<rule>; missing: a, b`, naming in their own order the required values
    `present` lacks, or None when none is. One wording for every "each of
    these needs an entry" check, in a model's validator or a loader."""
    missing = [show(value) for value in required if value not in present]
    return f"{rule}; missing: " + ", ".join(missing) if missing else None


def needs_every(rule: str, required: Iterable[T], key: Callable[[Any], T] | None = None) -> AfterValidator:
    """A field's check (as Annotated metadata) that it holds every required
    value: a mapping among its keys, a list through `key` on each item."""
    required = tuple(required)

    def check(value: Any) -> Any:
        if note := missing_note(rule, required, value if key is None else {key(item) for item in value}):
            raise ValueError(note)
        return value
    return AfterValidator(check)


def _without_missing_explained_by_typo(model: type[BaseModel], errors: list[ErrorDetails]) -> list[ErrorDetails]:
    """`hitpoints:` is both an unknown key and a missing `hit_points`; the
    did-you-mean on the first says it all, so drop the second."""
    meant = set()
    for err in errors:
        if err["type"] == "extra_forbidden":
            parent, name = tuple(err["loc"][:-1]), str(err["loc"][-1])
            owner = _model_at(model, parent)
            for candidate in close_matches(name, owner.model_fields if owner else (), most=1):
                meant.add(parent + (candidate,))
    return [err for err in errors if not (err["type"] == "missing" and tuple(err["loc"]) in meant)]


def _model_at(model: type[BaseModel], loc: Key) -> type[BaseModel] | None:
    """The nested model class that owns the key at `loc` (for listing allowed keys)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _inner_model(info.annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _length_bounds(model: type[BaseModel], loc: Key) -> tuple[int | None, int | None]:
    """The least and most entries the field at `loc` allows (its Field's min_length and max_length)."""
    owner = _model_at(model, loc[:-1])
    info = owner.model_fields.get(str(loc[-1])) if owner and loc else None
    bounds: dict[str, int] = {}
    for constraint in info.metadata if info else ():
        for name in ("min_length", "max_length"):
            if getattr(constraint, name, None) is not None:
                bounds[name] = getattr(constraint, name)
    return bounds.get("min_length"), bounds.get("max_length")


def _inner_model(annotation: Any) -> Any:
    args = getattr(annotation, "__args__", None)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in args or ():
        inner = _inner_model(arg)
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return inner
    return None


def _found(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


_TYPE_WORDS = {
    "int_type": "a whole number", "int_from_float": "a whole number", "int_parsing": "a whole number",
    "string_type": "text", "bool_type": "true or false", "bool_parsing": "true or false",
    "list_type": "a list", "dict_type": "a mapping", "model_type": "a mapping",
    "model_attributes_type": "a mapping", "float_type": "a number",
}


def _problems(model: type[BaseModel], doc: YamlDocument, base: Key, err: ErrorDetails) -> list[Problem]:
    """One Problem per pydantic error; unreadable text, one per string found."""
    if err["type"] != "unreadable_text":
        return [_explain(model, doc, base, err)]
    loc = base + tuple(err["loc"])
    return [doc.problem(loc + at, why, hint=hint, key=is_key) for at, why, hint, is_key in err["ctx"]["found"]]


def _explain(model: type[BaseModel], doc: YamlDocument, base: Key, err: ErrorDetails) -> Problem:
    loc = base + tuple(err["loc"])
    kind = err["type"]
    on_key = bool(loc) and loc[-1] == "[key]"
    if on_key:  # pydantic's marker for a bad mapping key: report the key itself
        loc = loc[:-1]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    name = str(loc[-1]) if loc else ""
    if kind == "extra_forbidden":
        owner = _model_at(model, tuple(err["loc"])[:-1])
        allowed = list(owner.model_fields) if owner else []
        return doc.problem(loc, f"unknown key '{name}'", hint=allowed_hint(name, allowed) if allowed else None,
                           key=True)
    if kind == "missing":
        return doc.problem(loc[:-1], f"missing required key '{name}'")
    if kind in _TYPE_WORDS:
        return doc.problem(loc, f"expected {_TYPE_WORDS[kind]}, found {_found(value)}")
    if kind == "literal_error":
        expected = [str(e).strip("'") for e in str(ctx.get("expected", "")).split(" or ")]
        expected = [part for e in expected for part in e.replace("'", "").split(", ")]
        return doc.problem(loc, f"found {_found(value)}", hint=allowed_hint(str(value), expected), key=on_key)
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        words = {"greater_than_equal": "at least", "greater_than": "more than",
                 "less_than_equal": "at most", "less_than": "less than"}[kind]
        bound = next(iter(ctx.values()))
        return doc.problem(loc, f"must be {words} {bound}, found {_found(value)}")
    if kind == "string_too_short":
        return doc.problem(loc, "must not be empty")
    if kind in ("too_long", "too_short"):       # a list or mapping of the wrong length
        least, most = _length_bounds(model, tuple(err["loc"]))
        count = most if kind == "too_long" else least
        bound = "exactly" if least == most else "at most" if kind == "too_long" else "at least"
        noun = ("entry", "entries") if str(ctx.get("field_type", "")).lower().startswith("dict") else ("item", "items")
        return doc.problem(loc, f"must have {bound} {count} {noun[count != 1]}, found {ctx.get('actual_length')}")
    if kind == "value_error":
        return doc.problem(loc, str(ctx.get("error", err["msg"])))
    return doc.problem(loc, f"{err['msg'].lower()}, found {_found(value)}")
