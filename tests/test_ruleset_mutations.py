"""Property tests: random mutations of every shipped preset either load and play a whole
game with random bots, or are refused with an error that gives the file, line and column
and names the field (docs/rulesets.md, Errors)."""

from __future__ import annotations

import copy
import json
import re
import tempfile
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricktaker import RulesetError, list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game

PRESETS = list_rulesets()
BARE = re.compile(r"^[A-Za-z0-9_-]+$")
LOCATED = re.compile(r"^(?P<file>\S+\.toml):(?P<line>\d+):(?P<col>\d+): (?P<field>[\w.-]+): \S")


def preset_data(game: str) -> dict[str, Any]:
    text = resources.files("tricktaker.rules.presets").joinpath(f"{game}.toml").read_text("utf-8")
    return tomllib.loads(text)


# ------------------------------------------------------------------ TOML writer


def key_text(key: str) -> str:
    return key if BARE.match(key) else json.dumps(key)


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{key_text(k)} = {value_text(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"cannot write {value!r} as TOML")


def to_toml(data: dict[str, Any]) -> str:
    """TOML text for ruleset-shaped data: sections as tables, deeper tables inline."""
    lines: list[str] = []

    def table(node: dict[str, Any], path: list[str]) -> None:
        # sections and option tables get [headers]; anything deeper is written inline
        headed = not path or path == ["options"]
        for key, value in node.items():
            if not (headed and isinstance(value, dict) and value):
                lines.append(f"{key_text(key)} = {value_text(value)}")
        for key, value in node.items():
            if headed and isinstance(value, dict) and value:
                lines.append("")
                lines.append("[" + ".".join(key_text(k) for k in [*path, key]) + "]")
                table(value, [*path, key])

    table(data, [])
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- mutations


def leaves(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every key path of the data (tables and their fields; lists as whole values)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from leaves(value, (*path, key))


def tables(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if isinstance(node, dict):
        yield path
        for key, value in node.items():
            yield from tables(value, (*path, key))


def parent_of(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    node = data
    for key in path[:-1]:
        node = node[key]
    return node


ODD_VALUES = st.one_of(
    st.booleans(),
    st.integers(-3, 40),
    st.floats(-5, 60, allow_nan=False, allow_infinity=False).filter(lambda f: f != int(f)),
    st.sampled_from(["", "x", "yes", "1..max", "max..1", "1..max..1", "players*2", "A-7"]),
    st.sampled_from(["2-A", "none", "draw", "turn_up", "rotate", "0", "tricks", "10 * bid"]),
    st.sampled_from(["bid +", "9S", "ZZ", "HB"]),
    st.lists(st.integers(0, 5), max_size=3),
    st.lists(st.sampled_from(["S", "H", "x"]), max_size=3),
    st.just({}),
    st.just({"x": 1}),
)
SIZES = st.lists(
    st.sampled_from(["1", "2", "5", "13", "max", "players", "0", "1..max", "max..1", "3*2"])
    | st.sampled_from(["2..5..2", "players*1", "20", "x", "1..", "*"]),
    min_size=1,
    max_size=3,
).map(", ".join)


@st.composite
def mutations(draw: st.DrawFn, game: str) -> tuple[dict[str, Any], str, str]:
    """A mutated copy of the preset, the kind of mutation and the dotted field it touched."""
    data = copy.deepcopy(preset_data(game))
    kind = draw(
        st.sampled_from(["retype", "delete", "unknown", "default", "sizes", "bids", "hands"])
    )
    if kind == "retype":
        path = draw(st.sampled_from(sorted(leaves(data))))
        old = parent_of(data, path)[path[-1]]
        new = parent_of(data, path)[path[-1]] = draw(ODD_VALUES)
        if type(old) is type(new) or {type(old), type(new)} == {list, tuple}:
            kind = "revalue"  # the same TOML type: another field may be the one to blame
    elif kind == "delete":
        path = draw(st.sampled_from(sorted(leaves(data))))
        del parent_of(data, path)[path[-1]]
    elif kind == "unknown":
        where = draw(st.sampled_from(sorted(tables(data))))
        node = data
        for key in where:
            node = node[key]
        node["colour"] = draw(ODD_VALUES)
        path = (*where, "colour")
    elif kind == "default" and data.get("options"):
        name = draw(st.sampled_from(sorted(data["options"])))
        data["options"][name]["default"] = draw(st.booleans() | st.integers(-2, 30))
        path = ("options", name, "default")
    elif kind == "sizes":
        data.setdefault("schedule", {})["sizes"] = draw(SIZES)
        path = ("schedule", "sizes")
    elif kind == "bids":
        field = draw(st.sampled_from(["min_bid", "zero_streak_limit", "zero_streak_min_players"]))
        data.setdefault("bidding", {})[field] = draw(st.integers(-1, 20))
        path = ("bidding", field)
    else:
        field = draw(st.sampled_from(["min", "max"]))
        data["players"][field] = draw(st.integers(0, 16))
        path = ("players", field)
    return data, kind, ".".join(path)


def check_refusal(message: str, kind: str, field: str) -> None:
    """Every line of the error is located and names a field; a value of the wrong type is
    named itself (or the table holding it)."""
    lines = [line for line in message.splitlines() if not line.startswith("(with options")]
    assert lines, message
    named: list[str] = []
    for line in lines:
        found = LOCATED.match(line)
        assert found, f"error line without file:line:column: field: {line!r}"
        assert int(found["line"]) >= 1
        assert int(found["col"]) >= 1
        named.append(found["field"])
    _, _, target = field.partition(".set.")  # a field written by an option's set
    related = [field, *([target] if field.startswith("options.") and target else [])]
    if kind == "unknown":
        assert any(n == f or n.startswith(f"{f}.") for n in named for f in related), message
    if kind == "retype":  # a value of another type is refused at its own field
        assert any(n.startswith(f) or f.startswith(n) for n in named for f in related), message


def play_whole_game(path: Path, game: str, seed: int) -> None:
    rules = load_ruleset(path)
    counts = list(rules.player_counts)
    players = counts[seed % min(len(counts), 2)]
    try:
        state = new_game(rules, players=players, seed=seed)
    except RulesetError as exc:  # a schedule that one player count cannot deal
        for line in str(exc).splitlines():
            assert LOCATED.match(line), line
        return
    bots = [make_bot("random", seed=seed + s) for s in range(players)]
    play_game(state, bots)
    assert state.is_terminal(), game


def run_mutation(game: str, mutated: tuple[dict[str, Any], str, str], seed: int) -> str:
    data, kind, field = mutated
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{game}.toml"
        try:
            path.write_text(to_toml(data), encoding="utf-8")
        except TypeError:
            return "unwritable"
        try:
            load_ruleset(path)
        except RulesetError as exc:
            check_refusal(str(exc), kind, field)
            return "refused"
        play_whole_game(path, game, seed)
        return "played"


def test_writer_round_trips_every_preset() -> None:
    """The test's own TOML writer gives back each preset's data exactly."""
    for game in PRESETS:
        data = preset_data(game)
        assert tomllib.loads(to_toml(data)) == data


@pytest.mark.parametrize("game", PRESETS)
def test_unmutated_presets_load_from_written_text(game: str) -> None:
    """docs/rulesets.md: a preset written back as text loads and plays like the original."""
    assert run_mutation(game, (preset_data(game), "none", ""), seed=1) == "played"


def check_mutation(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(PRESETS), label="game")
    mutated = data.draw(mutations(game), label="mutation")
    run_mutation(game, mutated, seed=data.draw(st.integers(0, 1000), label="seed"))


QUICK = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@QUICK
@given(st.data())
def test_mutated_presets_play_or_are_refused_naming_the_field(data: st.DataObject) -> None:
    """docs/rulesets.md, Errors: a mutated preset (a value of another type or value, a field
    deleted or added, an option default, schedule sizes, bid limits, player counts) either
    loads and plays a whole game, or is refused at file:line:column naming the field."""
    check_mutation(data)


@pytest.mark.slow
@settings(QUICK, max_examples=1000)
@given(st.data())
def test_many_mutated_presets_play_or_are_refused(data: st.DataObject) -> None:
    """docs/rulesets.md, Errors: the same property over many more mutations."""
    check_mutation(data)


def test_mutation_outcomes_cover_both_sides() -> None:
    """The mutations are not all refused nor all accepted (the property is not vacuous)."""
    outcomes = set()
    for game in ("blackout", "kachuful"):
        base = preset_data(game)
        bad = copy.deepcopy(base)
        bad["bidding"]["min_bid"] = "one"
        outcomes.add(run_mutation(game, (bad, "retype", "bidding.min_bid"), seed=1))
        good = copy.deepcopy(base)
        good["schedule"]["sizes"] = "1..3"
        outcomes.add(run_mutation(game, (good, "sizes", "schedule.sizes"), seed=1))
    assert outcomes == {"refused", "played"}
