"""How a file's fields and ``--option`` combine, and which notes still hold.

The file's fields are the base. An option's value in a file is read off those
fields: a bool option is on when every field of its ``set`` has the value ``set``
gives it, off when every field has its ``unset`` value (what the file declaring the
option wrote there), and *not available* otherwise, because the file sets those
fields itself and turning the option either way would silently replace them. An
int option's value is its ``field``'s value. ``--option NAME=VALUE`` then applies
on top: ``hook=false`` writes the ``unset`` values, ``hook=true`` the ``set`` ones.
Two options that would write the same field, or that name each other in
``conflicts``, cannot both be on.

A note written as ``{ about = ["scoring"], text = "..." }`` is about those fields:
a file that ``extends`` the game keeps it only while it leaves them as they are. A
plain note is about the whole game and is kept only by a file that changes no game
field. Options never drop notes: a game's notes are written with its options in view.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from tricktaker.rules.errors import (
    MALFORMED,
    Origins,
    Place,
    RulesetError,
    as_path,
    dotted,
    validation_error,
    validation_problems,
)
from tricktaker.rules.schema import (
    MISSING,
    Note,
    NoteList,
    Option,
    RulesetSpec,
    field_default,
    known_field,
)

DESCRIPTIVE = frozenset({"id", "name", "description", "source", "notes", "options"})
"""Top-level fields that describe a game rather than change how it plays."""


# ------------------------------------------------------------------ raw values


def same(a: object, b: object) -> bool:
    """Equality that tells ``true`` from ``1`` and ``1`` from ``1.0`` (TOML types).

    >>> same(True, 1), same([1, {"a": 2}], [1, {"a": 2}])
    (False, True)
    """
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def get_path(data: Mapping[str, Any], path: str) -> Any:
    """The raw value at a dotted path, or the schema's default, or :data:`MISSING`."""
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return field_default(path)
        node = node[key]
    return node


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """Write ``value`` at a dotted path (:data:`MISSING` removes the key)."""
    keys = path.split(".")
    node = data
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            if value is MISSING:
                return
            child = node[key] = {}
        node = child
    if value is MISSING:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = copy.deepcopy(value)


def overlaps(a: str, b: str) -> bool:
    """Whether two dotted paths name the same field or one holds the other."""
    pa, pb = a.split("."), b.split(".")
    return pa[: len(pb)] == pb or pb[: len(pa)] == pa


def changed_fields(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The dotted game fields whose value differs (descriptive fields left out)."""
    out: list[str] = []
    _changed(old, new, "", out)
    return out


def _changed(a: Any, b: Any, prefix: str, out: list[str]) -> None:
    """:func:`changed_fields`' walk (a module function: a nested one that calls itself
    is a reference cycle, left for the cyclic collector)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in dict.fromkeys([*a, *b]):
            if not prefix and key in DESCRIPTIVE:
                continue
            name = f"{prefix}.{key}" if prefix else str(key)
            _changed(a.get(key, MISSING), b.get(key, MISSING), name, out)
    elif not same(a, b) and prefix:
        out.append(prefix)


# ------------------------------------------------------------------------ notes


def note_about(note: object) -> list[str] | None:
    """The fields a raw note is about (None for a plain note about the whole game)."""
    if isinstance(note, Mapping):
        about = note.get("about")
        if isinstance(about, list) and all(isinstance(a, str) for a in about):
            return list(about)
    return None


def note_holds(note: object, changed: Iterable[str]) -> bool:
    """Whether a note still holds once ``changed`` fields have new values."""
    changed = list(changed)
    about = note_about(note)
    if about is None:
        return not changed
    return not any(overlaps(a, c) for a in about for c in changed)


def check_notes(data: Mapping[str, Any], origins: Origins) -> list[str | Note]:
    """The validated notes of raw ruleset data."""
    try:
        return NoteList.model_validate({"notes": data.get("notes", [])}).notes
    except ValidationError as exc:
        raise validation_error(exc, origins) from None


# ---------------------------------------------------------------------- options


def parse_option_value(option: Option, name: str, raw: object, *, where: str) -> bool | int:
    """An option value given as a Python value or as command-line text, read strictly:
    ``true``/``false`` for a bool option, a whole number within its limits for an int."""
    head = f"{where}: option {name}"
    if option.type == "bool":
        if isinstance(raw, bool):
            return raw
        text = raw.strip().lower() if isinstance(raw, str) else None
        if text in ("true", "false"):
            return text == "true"
        raise RulesetError(
            f"{head}: {raw!r} is not true or false (write {name}=true or {name}=false)"
        )
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str) and re.fullmatch(r"\s*-?[0-9]+\s*", raw):
        value = int(raw)
    else:
        raise RulesetError(f"{head}: {raw!r} is not a whole number")
    if option.min is not None and value < option.min:
        raise RulesetError(f"{head}: {value} is below the minimum {option.min}")
    if option.max is not None and value > option.max:
        raise RulesetError(f"{head}: {value} is above the maximum {option.max}")
    return value


def off_value(option: Option, path: str) -> Any:
    """What ``path`` holds when the bool ``option`` is off."""
    return option.unset[path] if path in option.unset else field_default(path)


def file_state(option: Option, data: Mapping[str, Any]) -> tuple[bool | int | None, str, str]:
    """The option's value as the file's fields give it; or None, why the option is not
    available in this file, and the field that stops it."""
    if option.type == "bool":
        if all(same(get_path(data, p), v) for p, v in option.set.items()):
            return True, "", ""
        if all(same(get_path(data, p), off_value(option, p)) for p in option.set):
            return False, "", ""
        own = [p for p in option.set if not same(get_path(data, p), off_value(option, p))]
        why = f"it would replace {', '.join(own)}, which this file sets itself"
        return None, why, own[0]
    assert option.field is not None
    value = get_path(data, option.field)
    if value is MISSING:
        if option.default is None:
            why = f"this file sets no {option.field} and the option gives no default"
            return None, why, option.field
        return option.default, "", ""
    if isinstance(value, bool) or not isinstance(value, int):
        return option.default, "", ""  # the field's own validation reports it
    low = option.min if option.min is not None else value
    high = option.max if option.max is not None else value
    if not low <= value <= high:
        why = f"this file sets {option.field} = {value}, outside the option's {low} to {high}"
        return None, why, option.field
    return value, "", ""


def check_written_default(
    name: str, raw: object, data: Mapping[str, Any], origins: Origins
) -> None:
    """A ``default`` a file writes must agree with the fields of that file."""
    if not isinstance(raw, Mapping) or "default" not in raw:
        return
    try:
        option = Option.model_validate(raw)
    except ValidationError:
        return  # reported with positions when the ruleset is validated
    paths = [*option.set, *([option.field] if option.field else [])]
    if not all(_readable(data, path) for path in paths):
        return  # a section that is not a table: reported when the ruleset is validated
    state, _, _ = file_state(option, data)
    if state is None or same(state, option.default) or option.default is None:
        return
    if option.type == "bool":
        fields = ", ".join(
            f"{p} = {_toml(v if state else off_value(option, p))}" for p, v in option.set.items()
        )
        how = f"this file has {fields}"
    else:
        how = f"this file has {option.field} = {state}"
    raise origins.error(
        ("options", name, "default"),
        f"says {_toml(option.default)}, but {how}; an option's value follows the file's"
        " fields, so change those fields (or leave 'default' out)",
    )


def _readable(data: Mapping[str, Any], path: str) -> bool:
    """Whether every table on the way to ``path`` is a table."""
    node: Any = data
    for key in path.split(".")[:-1]:
        node = node.get(key, {}) if isinstance(node, Mapping) else None
        if not isinstance(node, Mapping):
            return False
    return True


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if value is MISSING:
        return "(not set)"
    return str(value)


@dataclass(frozen=True, slots=True)
class Resolved:
    """Options resolved against a file: the effective data and what each option is."""

    data: dict[str, Any]
    origins: Origins
    specs: dict[str, Option]
    values: dict[str, bool | int]
    """Each available option's value in this ruleset."""
    file_values: dict[str, bool | int]
    """Each available option's value as the file's own fields give it."""
    unavailable: dict[str, str]
    """Options of the file that cannot be used here, with the reason."""
    changed: tuple[str, ...]
    """Options whose value differs from the file's."""


def resolve(base: Mapping[str, Any], choices: Mapping[str, object], origins: Origins) -> Resolved:
    """Apply ``choices`` (option name -> value) on top of the file's fields."""
    raw_options = base.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise origins.error(("options",), "expected a table of option definitions")
    specs: dict[str, Option] = {}
    for name, raw in raw_options.items():
        try:
            specs[name] = Option.model_validate(raw)
        except ValidationError as exc:
            raise validation_error(exc, origins, ("options", name)) from None
    file_values: dict[str, bool | int] = {}
    unavailable: dict[str, str] = {}
    blockers: dict[str, tuple[str, str]] = {}
    for name, spec in specs.items():
        state, why, blocker = file_state(spec, base)
        if state is None:
            unavailable[name] = f"{why} ({origins.where(blocker)})"
            blockers[name] = (blocker, why)
        else:
            file_values[name] = state
    values = dict(file_values)
    for name, raw_value in choices.items():
        place = origins.where(("options", name), at_key=True)
        if name in blockers:
            field, why = blockers[name]
            raise origins.error(field, f"option {name} cannot be used with this file: {why}")
        if name not in specs:
            known = ", ".join(file_values) or "none"
            raise RulesetError(
                f"{origins.source}: unknown option {name!r}; this game's options: {known}"
            )
        values[name] = parse_option_value(specs[name], name, raw_value, where=place)
    changed = tuple(n for n in values if not same(values[n], file_values[n]))
    _check_option_values(specs, base, origins)
    _check_conflicts(specs, values, changed, origins)
    data = copy.deepcopy(dict(base))
    out_origins = origins.copy()

    def write(name: str, path: str, value: Any, via: tuple[str, ...]) -> None:
        set_path(data, path, value)
        where, _ = origins.place(("options", name, *via))
        place = Place(
            where.source if where else origins.source, where.spot if where else None, name
        )
        key = as_path(path)
        out_origins.replace(key, {key: place})

    for name in changed:  # turned off first, so that a turned-on option writes last
        spec = specs[name]
        if spec.type == "bool" and values[name] is False:
            for path in spec.set:
                write(name, path, off_value(spec, path), ("set", path))
    for name in changed:
        spec = specs[name]
        if spec.type == "bool" and values[name] is True:
            for path, value in spec.set.items():
                write(name, path, value, ("set", path))
        elif spec.type == "int":
            assert spec.field is not None
            write(name, spec.field, values[name], ("field",))
    options_out: dict[str, Any] = {}
    for name, raw in raw_options.items():
        if name in file_values:
            options_out[name] = {**raw, "default": file_values[name]}
    data["options"] = options_out
    notes = check_notes(base, origins)
    data["notes"] = [note.text if isinstance(note, Note) else note for note in notes]
    return Resolved(data, out_origins, specs, values, file_values, unavailable, changed)


def _check_option_values(
    specs: Mapping[str, Option], base: Mapping[str, Any], origins: Origins
) -> None:
    """Refuse an option whose values can never be right for the fields it writes (a
    string for ``bidding.hook``), whether or not it is on: each is tried alone."""
    plain = {k: v for k, v in base.items() if k not in ("options", "notes")}
    for name, spec in specs.items():
        if spec.type == "bool":
            writes, via = dict(spec.set), "set"
        else:
            assert spec.field is not None
            low = spec.default if spec.default is not None else spec.min
            writes, via = {spec.field: low if low is not None else 0}, "field"
        # Unknown or settings fields are left to the option's own check and the hooks.
        writes = {
            p: v for p, v in writes.items() if known_field(p) and not p.startswith("settings.")
        }
        if not writes:
            continue
        data = copy.deepcopy(plain)
        for field, value in writes.items():
            set_path(data, field, value)
        try:
            RulesetSpec.model_validate(data)
        except ValidationError as exc:
            for path, text, _, kind in validation_problems(exc):
                hit = next((p for p in writes if overlaps(dotted(path), p)), None)
                if kind in MALFORMED and hit is not None:
                    key = ("options", name, "set", hit) if via == "set" else ("options", name, via)
                    raise RulesetError(
                        f"{origins.where(key)}: {dotted(path)}: {text} (set by option {name})"
                    ) from None


def _check_conflicts(
    specs: Mapping[str, Option],
    values: Mapping[str, bool | int],
    changed: Iterable[str],
    origins: Origins,
) -> None:
    asked = set(changed)
    on = [n for n, spec in specs.items() if spec.type == "bool" and values.get(n) is True]
    for i, first in enumerate(on):
        for second in on[i + 1 :]:
            if first not in asked and second not in asked:
                continue
            a, b = specs[first], specs[second]
            shared = [
                p
                for p in a.set
                for q in b.set
                if overlaps(p, q) and not same(a.set[p], b.set.get(p, MISSING))
            ]
            if shared or second in a.conflicts or first in b.conflicts:
                why = f": both set {', '.join(dict.fromkeys(shared))}" if shared else ""
                place = origins.where(("options", second), at_key=True)
                raise RulesetError(f"{place}: options {first} and {second} cannot be combined{why}")


def renumber(
    origins: Origins, prefix: tuple[str, ...], kept: list[int]
) -> dict[tuple[str, ...], Place]:
    """The places of the list at ``prefix`` once only the entries ``kept`` remain."""
    out = {p: where for p, where in origins.under(prefix).items() if len(p) == len(prefix)}
    for new, old in enumerate(kept):
        old_key = (*prefix, str(old))
        for path, where in origins.under(old_key).items():
            out[(*prefix, str(new), *path[len(old_key) :])] = where
    return out
