"""The lobby's data: every shipped game with its options, and the check of a house-rules
file, with each error located as the command line locates it (field, line, column).

>>> ids = [g["id"] for g in games()]
>>> "pluck" in ids and "euchre" in ids
True
>>> check = check_ruleset('id = "mine"\\nname = "Mine"\\nextends = "blackout"\\n'
...                       '[bidding]\\nhook = 3\\n')
>>> check["ok"], check["errors"][0]["field"], check["errors"][0]["line"]
(False, 'bidding.hook', 5)
"""

from __future__ import annotations

import re
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tricktaker.bots import LEVELS
from tricktaker.docs import has_page
from tricktaker.memo import Memo
from tricktaker.rules import Ruleset, RulesetError, list_rulesets, load_ruleset
from tricktaker.rules.options import changed_fields
from tricktaker.rules.ruleset import ruleset_from_data

Json = Any
"""Plain JSON data."""

HOUSE_RULES_NAME = "house-rules.toml"
"""The name an uploaded house-rules file has in error messages."""

BOTS: tuple[tuple[str, str], ...] = (
    ("random", "Random: any legal move"),
    ("easy", "Easy: plays its hand sensibly"),
    ("medium", "Medium: looks ahead over possible deals"),
    ("hard", "Hard: searches deeply, up to a quarter of a second a move"),
)
"""The bot levels a lobby offers, weakest first (each is a ``--bots`` name)."""

_LINE = re.compile(
    r"^(?P<source>[^:\s][^:]*?)(?::(?P<line>\d+):(?P<column>\d+))?: "
    r"(?:(?P<field>[A-Za-z_][\w.\[\]]*): )?(?P<message>.*)$"
)
_OPTION = re.compile(r"^option (?P<name>[A-Za-z_]\w*): (?P<message>.*)$")
_UNKNOWN_OPTION = re.compile(r"unknown option '(?P<name>[A-Za-z_]\w*)'")


def option_info(name: str, option: Any, value: bool | int) -> dict[str, Json]:
    """One option as the lobby shows it: its input ``type`` (``bool`` a switch, ``int``
    a number), its value in this ruleset as ``default``, ``min``/``max``, ``choices``
    (the values allowed, when few) and ``help`` (the one-line description)."""
    choices: list[bool | int] | None = None
    if option.type == "bool":
        choices = [False, True]
    elif option.min is not None and option.max is not None and option.max - option.min < 8:
        choices = list(range(option.min, option.max + 1))
    return {
        "name": name,
        "type": option.type,
        "default": value,
        "min": option.min,
        "max": option.max,
        "choices": choices,
        "help": option.description,
        "players": list(option.players),
    }


def players_with(rules: Ruleset, name: str, option: Any, value: bool | int) -> range | None:
    """The player counts ``rules`` allows with its bool option ``name`` turned the other
    way from ``value``, when the option changes them (its ``set`` or ``unset`` writes a
    ``players`` field: the ruleset's own statement of what it accepts); None when it
    does not, or when the other way cannot be had with the other options as they are."""
    if option.type != "bool" or not any(
        key.startswith("players.") for key in (*option.set, *option.unset)
    ):
        return None
    try:
        other = ruleset_from_data(
            rules.data, options={**rules.options, name: not value}, source=rules.source
        )
    except RulesetError:
        return None
    counts = other.player_counts
    return counts if counts != rules.player_counts else None


def ruleset_info(rules: Ruleset) -> dict[str, Json]:
    """A ruleset as the lobby shows it: id, name, one-line description, the player
    range (every count a table of it may have, with some option: each option that
    changes the range says the range it gives, ``players_range``) and the usual count,
    its options and the link to its rules page."""
    spec = rules.spec
    counts = list(rules.player_counts)
    page = has_page(spec.id)
    options = []
    low, high = spec.players.min, spec.players.max
    for name, option, value in rules.describe_options():
        entry = option_info(name, option, value)
        other = players_with(rules, name, option, value)
        entry["players_range"] = None if other is None else {"min": other[0], "max": other[-1]}
        if other is not None:
            low, high = min(low, other[0]), max(high, other[-1])
        options.append(entry)
    return {
        "id": spec.id,
        "name": spec.name,
        "description": spec.description,
        "players": {"min": low, "max": high},
        "default_players": 4 if 4 in counts else counts[0],
        "options": options,
        "unavailable": dict(rules.unavailable),
        "rules_url": f"/rules/{spec.id}" if page else None,
    }


_GAMES: Memo[tuple[str, ...], tuple[dict[str, Json], ...]] = Memo(maxsize=1)
"""The lobby's list of games, by the shipped games' ids."""


def games() -> list[dict[str, Json]]:
    """Every shipped game (see :func:`ruleset_info`), in the order ``tricktaker rules``
    lists them."""
    ids = tuple(list_rulesets())
    listed = _GAMES.get(ids, lambda: tuple(ruleset_info(load_ruleset(game)) for game in ids))
    return [dict(g) for g in listed]


def bots() -> list[dict[str, str]]:
    """The bot levels a seat may have: ``id`` (as ``--bots`` takes it) and a label."""
    return [{"id": bot, "label": label, "spec": LEVELS.get(bot, bot)} for bot, label in BOTS]


def error_entries(message: str) -> list[dict[str, Json]]:
    """A ruleset error's message, one entry per line: the ``field`` (dotted key path) or
    ``option`` it concerns, the ``line`` and ``column`` in the file, the ``message`` and
    the whole ``text`` as the command line prints it.

    >>> error_entries("house-rules.toml:6:8: bidding.hook: expected true or false")[0]
    ... # doctest: +NORMALIZE_WHITESPACE
    {'text': 'house-rules.toml:6:8: bidding.hook: expected true or false',
     'source': 'house-rules.toml', 'line': 6, 'column': 8, 'field': 'bidding.hook',
     'option': None, 'message': 'expected true or false'}
    """
    out: list[dict[str, Json]] = []
    for text in (line.strip() for line in message.splitlines()):
        if not text:
            continue
        entry: dict[str, Json] = {
            "text": text,
            "source": None,
            "line": None,
            "column": None,
            "field": None,
            "option": None,
            "message": text,
        }
        found = _LINE.match(text)
        if found is not None:
            entry["source"] = found["source"]
            entry["line"] = int(found["line"]) if found["line"] else None
            entry["column"] = int(found["column"]) if found["column"] else None
            entry["field"] = found["field"]
            entry["message"] = found["message"]
            option = _OPTION.match(found["message"])
            if option is not None:
                entry["option"] = option["name"]
        unknown = _UNKNOWN_OPTION.search(text)
        if unknown is not None:
            entry["option"] = unknown["name"]
        if entry["field"] is not None and entry["field"].startswith("options."):
            entry["option"] = entry["field"].split(".")[1]
        out.append(entry)
    return out


def _parent(text: str) -> str | None:
    """The shipped game a house-rules text extends (or whose hooks it uses)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    for key in ("extends", "hooks"):
        value = data.get(key)
        if isinstance(value, str) and value in list_rulesets():
            return value
    return None


def load_house_rules(text: str, options: Mapping[str, object] | None = None) -> Ruleset:
    """The ruleset of a house-rules file's ``text`` (named ``house-rules.toml`` in error
    messages; it may ``extends`` a shipped game), with ``options`` applied.

    Raises :class:`RulesetError` with the command line's message."""
    choices = {
        k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in (options or {}).items()
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / HOUSE_RULES_NAME
        path.write_text(text, encoding="utf-8")
        try:
            return load_ruleset(path, options=choices)
        except (RulesetError, LookupError, TypeError, ValueError) as exc:
            raise RulesetError(str(exc).replace(f"{folder}/", "")) from None


def check_ruleset(
    text: str, options: Mapping[str, object] | None = None, players: int | None = None
) -> dict[str, Json]:
    """Check a house-rules file as ``POST /tables`` would load it: ``ok``, the
    ``errors`` (see :func:`error_entries`), and for a file that loads, the ``game`` as
    :func:`ruleset_info` gives it, the shipped game it is ``based_on`` and the fields it
    ``changes`` there. ``players``, if given, is checked against the game."""
    try:
        rules = load_house_rules(text, options)
        if players is not None:
            rules.check_players(players)
            rules.hands_for(players)
    except RulesetError as exc:
        return {"ok": False, "errors": error_entries(str(exc)), "game": None}
    parent = _parent(text)
    changes: list[str] = []
    if parent is not None:
        changes = changed_fields(load_ruleset(parent).data, rules.data)
    return {
        "ok": True,
        "errors": [],
        "game": ruleset_info(rules),
        "based_on": parent,
        "changes": changes,
    }
