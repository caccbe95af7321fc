"""Error messages that point at the offending value: ``house.toml:12:8: bidding.hook: ...``.

:class:`Origins` remembers, for every key path of a ruleset's data, the file and the
line and column it came from (through ``extends`` a path may come from the parent
file, through an option from the option's definition). :func:`validation_problems`
turns pydantic's errors into ``(path, message)`` pairs in the words of a ruleset file.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tricktaker.rules.locate import Spot, locate
from tricktaker.rules.schema import FieldError

Path = tuple[str, ...]


class RulesetError(ValueError):
    """A ruleset file, option or player count that cannot be used; the message says why."""


def as_path(loc: Iterable[object] | str) -> Path:
    """A key path with every part as text (``"a.b"`` or ``("a", 0)`` -> ``("a", "0")``)."""
    if isinstance(loc, str):
        return tuple(loc.split(".")) if loc else ()
    return tuple(str(part) for part in loc)


def dotted(path: Sequence[object]) -> str:
    """``("bidding", "hook")`` -> ``"bidding.hook"``."""
    return ".".join(str(part) for part in path)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a value was written: a file and its position, and the option that wrote it."""

    source: str
    spot: Spot | None = None
    option: str | None = None


@dataclass(slots=True)
class Origins:
    """The place of every key path of a ruleset's data."""

    source: str
    """The file being loaded (named by errors with no better place)."""
    places: dict[Path, Place] = field(default_factory=dict)

    @classmethod
    def of_text(cls, source: str, text: str) -> Origins:
        spots = locate(text)
        return cls(source, {as_path(path): Place(source, spot) for path, spot in spots.items()})

    def copy(self) -> Origins:
        return Origins(self.source, dict(self.places))

    def place(self, path: Sequence[object]) -> tuple[Place | None, Path]:
        """The place of the longest prefix of ``path`` that has one, and that prefix."""
        key = as_path(path)
        for end in range(len(key), -1, -1):
            found = self.places.get(key[:end])
            if found is not None:
                return found, key[:end]
        return None, ()

    def where(self, path: Sequence[object] | str, *, at_key: bool = False) -> str:
        """``"file:line:column"`` of the value at ``path`` (of its key with ``at_key``)."""
        found, _ = self.place(as_path(path))
        if found is None:  # a missing top-level field: the top of the file, if there is one
            return f"{self.source}:1:1" if self.places else self.source
        if found.spot is None:
            return found.source
        spot = found.spot
        line, column = (spot.key_line, spot.key_column) if at_key else (spot.line, spot.column)
        return f"{found.source}:{line}:{column}"

    def written_by(self, path: Sequence[object] | str) -> str | None:
        """The option that wrote the value at ``path``, if one did."""
        found, _ = self.place(as_path(path))
        return None if found is None else found.option

    def replace(self, path: Path, places: Mapping[Path, Place]) -> None:
        """Forget what was under ``path`` and take ``places`` (paths below it) instead."""
        for old in [p for p in self.places if p[: len(path)] == path]:
            del self.places[old]
        self.places.update(places)

    def under(self, path: Path) -> dict[Path, Place]:
        """The places at and below ``path``."""
        return {p: where for p, where in self.places.items() if p[: len(path)] == path}

    def merge_child(self, child: Origins, child_data: Mapping[str, Any]) -> Origins:
        """The places after a file (``child``) is merged over this one: tables merge,
        values and lists replace."""
        out = Origins(child.source, dict(self.places))
        _merge_places(out, child, child_data, ())
        return out

    def message(self, path: Sequence[object] | str, text: str, *, at_key: bool = False) -> str:
        """``file:line:col: field: text``, noting the option that wrote the value."""
        key = as_path(path)
        name = dotted(key) or "(ruleset)"
        line = f"{self.where(key, at_key=at_key)}: {name}: {text}"
        option = self.written_by(key)
        if option is not None:
            line += f" (set by option {option})"
        return line

    def error(
        self, path: Sequence[object] | str, text: str, *, at_key: bool = False
    ) -> RulesetError:
        """A :class:`RulesetError` with :meth:`message`."""
        return RulesetError(self.message(path, text, at_key=at_key))


def _merge_places(out: Origins, child: Origins, node: Mapping[str, Any], prefix: Path) -> None:
    """:meth:`Origins.merge_child`'s walk over the child's data under ``prefix``. A
    module function, not a nested one: a nested function that calls itself is a
    reference cycle (the function and its closure cell), which would keep every place
    of the merge alive until the cyclic collector runs (the server runs it rarely)."""
    for key, value in node.items():
        path = (*prefix, str(key))
        if isinstance(value, Mapping):
            if path in child.places:
                out.places[path] = child.places[path]
            _merge_places(out, child, value, path)
        else:
            out.replace(path, child.under(path))


# ------------------------------------------------------------- pydantic errors


def describe(value: object) -> str:
    """A value as a player would name it in a TOML file.

    >>> describe("yes"), describe(1.5), describe(True), describe({})
    ("the string 'yes'", 'the number 1.5', 'true', 'a table')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, datetime.date | datetime.time):
        return f"the date/time {value}"
    return repr(value)


_EXPECTED = {
    "bool_type": "true or false",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text in quotes",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "list_type": "a list",
    "tuple_type": "a list",
}
MALFORMED = frozenset(
    {*_EXPECTED, "literal_error", "extra_forbidden", "missing", "string_pattern_mismatch"}
    | {"greater_than_equal", "less_than_equal", "too_short", "too_long"}
)
"""Error types that say a value can never be right, whatever the other fields hold."""
_TAGS = frozenset({"str", "int", "bool", "float", "none", "list", "dict", "Note"})


def _is_tag(part: object) -> bool:
    """Whether a pydantic location part names a type (a union branch), not a field."""
    return isinstance(part, str) and (part in _TAGS or "[" in part)


def _text(err: Mapping[str, Any]) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = describe(err.get("input"))
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {got}"
    if kind == "literal_error":
        return f"expected one of {ctx.get('expected')}, got {got}"
    if kind == "greater_than_equal":
        return f"must be {ctx.get('ge')} or more, got {got}"
    if kind == "less_than_equal":
        return f"must be {ctx.get('le')} or less, got {got}"
    if kind == "string_pattern_mismatch":
        return f"must be lower-case letters, digits and '_', starting with a letter; got {got}"
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field (check its spelling and section)"
    if kind in ("too_short", "too_long"):
        return f"{str(err['msg']).removeprefix('List ').lower()}, got {got}"
    return str(err["msg"]).removeprefix("Value error, ")


def validation_problems(
    exc: ValidationError, prefix: Sequence[object] = ()
) -> list[tuple[Path, str, bool, str]]:
    """``(path, message, at_key, kind)`` for each of pydantic's errors (``kind`` is
    pydantic's error type), union branches merged:
    a value that fits no branch is ``expected A or B``; once a branch fits its type,
    only that branch's errors are kept."""
    groups: dict[Path, list[tuple[Path, Mapping[str, Any], bool]]] = {}
    order: list[Path] = []
    for err in exc.errors():
        loc = list(err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, FieldError):
            loc += cause.field
        union_at = next((i for i, part in enumerate(loc) if _is_tag(part)), None)
        path = as_path([*prefix, *(p for p in loc if not _is_tag(p) and p != "[key]")])
        anchor = path if union_at is None else as_path([*prefix, *loc[:union_at]])
        if anchor not in groups:
            groups[anchor] = []
            order.append(anchor)
        groups[anchor].append((path, err, union_at is not None))
    out: list[tuple[Path, str, bool, str]] = []
    for anchor in order:
        entries = groups[anchor]
        in_union = any(flag for _, _, flag in entries)
        shallow = [e for e in entries if e[0] == anchor and e[1]["type"] in _EXPECTED]
        if in_union and len(shallow) == len(entries):
            wanted = " or ".join(dict.fromkeys(_EXPECTED[e[1]["type"]] for e in shallow))
            got = describe(entries[0][1].get("input"))
            out.append((anchor, f"expected {wanted}, got {got}", False, shallow[0][1]["type"]))
            continue
        kept = [e for e in entries if e not in shallow] if in_union else entries
        for path, detail, _ in kept:
            kind = str(detail["type"])
            out.append((path, _text(detail), kind == "extra_forbidden", kind))
    return out


def validation_error(
    exc: ValidationError, origins: Origins, prefix: Sequence[object] = ()
) -> RulesetError:
    """A :class:`RulesetError` with one located line per problem."""
    lines = [
        origins.message(path, text, at_key=at_key)
        for path, text, at_key, _ in validation_problems(exc, prefix)
    ]
    return RulesetError("\n".join(dict.fromkeys(lines)))
