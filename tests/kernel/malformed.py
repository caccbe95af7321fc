"""Malformed inputs thrown at every entry point of the compiled kernel (hypothesis, and a
sweep of every input off in one place).

Run as ``python -m tests.kernel.malformed EXAMPLES`` (by
``tests/kernel/test_malformed_inputs.py``, in a subprocess, on the AddressSanitizer and
UndefinedBehaviorSanitizer build named in ``TRICKTAKER_KERNEL_LIBRARY``). Each example
starts from real inputs (the config, state and world facts of positions of a shipped game,
a hook game's card play and a coupled split of the hidden cards), breaks a few of their
fields or elements (wrong types, out-of-range seats and cards, lengths that disagree, huge,
negative and non-finite numbers, whole objects replaced) and calls an entry point: it
must return or raise ``TypeError``, ``ValueError`` or ``OverflowError``; a crash, a
sanitizer report or any other exception fails the run. Then a deterministic sweep puts
each field (and the first, middle and last element of each sequence) of each input off
in one place, through each value a limit could be (:data:`OFF`). Prints ``checked N``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import sys
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.kernel import (
    KernelConfig,
    KernelState,
    KernelUnsupportedError,
    SplitGraph,
    WorldFacts,
    kernel_state,
    limits,
    native,
    state_rules,
)
from tricktaker.kernel.search import world_inputs
from tricktaker.kernel.values import flat_state

EXPECTED = (TypeError, ValueError, OverflowError)
"""What a malformed input may raise (the kernel's Unsupported is a ValueError)."""


@dataclasses.dataclass(frozen=True)
class Base:
    """Well-formed inputs of one position: what the examples break."""

    config: KernelConfig
    state: KernelState
    world_state: KernelState
    facts: WorldFacts
    moves: tuple[int, ...]


def positions() -> list[Base]:
    """A bid and a card decision of a shipped Oh Hell family game, and a card decision of
    a hook game (its facts as the hook games give them), each with its real inputs."""
    found: list[Base] = []
    for name, players, seed in (("blackout", 4, 1), ("blackout", 3, 2), ("euchre", 4, 3)):
        state = new_game(load_ruleset(name), players=players, seed=seed)
        bots = [make_bot("random", seed=s) for s in range(players)]
        kinds: set[str] = set()
        for _ in range(400):
            if state.is_terminal() or len(kinds) == 2:
                break
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            obs = state.observe(seat)
            if obs.phase not in kinds and len(obs.legal_actions) > 1:
                base = _base(state, obs)
                if base is not None:
                    found.append(base)
                    kinds.add(obs.phase)
            state.apply(seat, bots[seat].act(obs))
    return found


def _base(state: GameState, obs: Any) -> Base | None:
    try:
        config = state_rules(state)
        _, public, facts = world_inputs(obs)
        truth = kernel_state(state)
    except KernelUnsupportedError:
        return None
    core = native()
    world = core.make_world(config.build(), public, facts)
    legal = [move for move, _, _ in core.search(world, [_any_move(public)], 1, -1.0, 0.3, 0.5)[2]]
    return Base(config, truth, public, facts, tuple(legal))


def _any_move(state: KernelState) -> int:
    """A move code of the state's phase (the search reports on the moves it is given)."""
    if state.phase == limits().phase_bidding:
        return limits().bid_base
    return (state.hands[state.to_play] & -state.hands[state.to_play]).bit_length() - 1


def split_facts(base: Base) -> WorldFacts:
    """The base facts with the two other seats' cards drawn from a small split graph."""
    me = base.facts.me
    first, second = [s for s in range(base.config.players) if s != me][:2]
    cards = [c for c in range(64) if (base.facts.unknown >> c) & 1]
    half = sum(1 << c for c in cards[: len(cards) // 2])
    other = sum(1 << c for c in cards[len(cards) // 2 :])
    graph = SplitGraph(
        first=first,
        second=second,
        nodes=(((1.0, 1, 0), (2.0, 1, 1)), ((1.0, -1, 2),)),
        lists=((half,), (other,), (0,)),
    )
    return dataclasses.replace(base.facts, hidden=(), split=graph)


BAD = st.one_of(
    st.none(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([2**53, 2**54, 2**63, 2**64, -(2**63), 255, 256, 32768, -129]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.just(b"ab"),
    st.just(object()),
    st.just({"hands": 1}),
    st.lists(st.integers(min_value=-2, max_value=65), max_size=4).map(tuple),
    st.lists(st.lists(st.integers(min_value=-2, max_value=60), max_size=3), max_size=3),
)
"""Values of the wrong type or far out of any range."""

NEAR = st.one_of(
    st.integers(min_value=-3, max_value=70),
    st.sampled_from([2**16, 2**53, 2**54 - 1, 2**54, 2**63 - 1, -(2**15)]),
)
"""Ints of the right type, often in range for one field and out of it for another."""


def percent(draw: Callable[..., Any]) -> int:
    value: int = draw(st.integers(min_value=0, max_value=99))
    return value


def broken(draw: Callable[..., Any], value: Any, depth: int = 0) -> Any:
    """``value`` with one part broken, mostly keeping its type: an element of a sequence
    (recursively), its length, an int out of range, or (less often) the whole value
    replaced by one of another type."""
    roll = percent(draw)
    if isinstance(value, (tuple, list)) and depth < 3 and roll < 85:
        items = list(value)
        if roll < 60 and items:
            at = draw(st.integers(min_value=0, max_value=len(items) - 1))
            items[at] = broken(draw, items[at], depth + 1)
        elif roll < 70 and items:
            items.pop(draw(st.integers(min_value=0, max_value=len(items) - 1)))
        elif roll < 80:
            items.append(draw(NEAR) if items and isinstance(items[0], int) else draw(BAD))
        return list(items) if roll % 7 == 0 else tuple(items)
    if isinstance(value, (KernelConfig, KernelState, WorldFacts, SplitGraph)) and depth < 3:
        return mangled(draw, value, depth + 1)
    if isinstance(value, bool):
        return draw(BAD) if roll < 30 else draw(st.sampled_from([0, 1, 2, -1, not value]))
    if isinstance(value, int):
        return draw(BAD) if roll < 20 else draw(NEAR)
    if isinstance(value, float):
        return draw(st.floats(allow_nan=True, allow_infinity=True)) if roll < 80 else draw(BAD)
    return draw(BAD)


def mangled(draw: Callable[..., Any], obj: Any, depth: int = 0) -> Any:
    """``obj`` (a typed input) with one to three fields broken, or (rarely) replaced by an
    object without its fields."""
    if percent(draw) < 3:
        names = [f.name for f in dataclasses.fields(obj)]
        kept = draw(st.lists(st.sampled_from(names), max_size=len(names)))
        return draw(
            st.sampled_from(
                [
                    None,
                    {f: getattr(obj, f) for f in names},
                    SimpleNamespace(**{f: getattr(obj, f) for f in kept}),
                ]
            )
        )
    changes = {}
    for name in draw(
        st.lists(st.sampled_from([f.name for f in dataclasses.fields(obj)]), min_size=1, max_size=3)
    ):
        changes[name] = broken(draw, getattr(obj, name), depth)
    return dataclasses.replace(obj, **changes)


SMALL = st.one_of(
    st.integers(min_value=-2, max_value=12),
    st.sampled_from([-(2**63), 2**63, 2**64, -1, 1.5, float("nan"), None, "3", (3,)]),
)
"""A count or seat: small, or one no count or seat can be (never a huge valid count,
which would only take long)."""


def call(entry: str, draw: Callable[..., Any], base: Base) -> None:
    """One call of ``entry`` with some of its inputs broken."""
    core = native()
    config_ok = base.config.build()
    config = config_ok
    if percent(draw) < 25:
        try:
            config = core.make_config(mangled(draw, base.config))
        except EXPECTED:
            config = draw(st.sampled_from([config_ok, None, 3, "config"]))
    state = mangled(draw, base.state) if percent(draw) < 70 else base.state
    moves: Any = broken(draw, base.moves) if percent(draw) < 40 else list(base.moves)
    if entry == "make_config":
        core.make_config(mangled(draw, base.config))
    elif entry in (
        "make_world",
        "search",
        "pimc",
        "bid",
        "samples",
        "sample_loop",
        "values",
        "kinds",
    ):
        facts = split_facts(base) if draw(st.booleans()) else base.facts
        if entry in ("kinds", "search") and draw(st.booleans()):
            facts = learning(facts)
        world_state = base.world_state
        if draw(st.booleans()):
            facts = mangled(draw, facts)
        if draw(st.booleans()):
            world_state = mangled(draw, world_state)
        world = core.make_world(config, world_state, facts)
        if entry == "search":
            core.search(
                world,
                moves,
                draw(st.integers(min_value=-1, max_value=30)),
                draw(st.sampled_from([-1.0, 0.0, 0.001, float("nan")])),
                draw(st.floats(allow_nan=True)),
                draw(st.floats(min_value=-1, max_value=2)),
                draw(st.integers(min_value=-1, max_value=3)),
                draw(st.booleans()),
                draw(st.integers(min_value=0, max_value=2**64 - 1)),
                draw(st.floats(allow_nan=True)),
                draw(st.integers(min_value=-1, max_value=8)),
                draw(st.sampled_from([0, 1, 2, -1, None, 1.5])),
            )
        elif entry == "pimc":
            core.pimc(
                world,
                moves,
                draw(st.integers(min_value=-2, max_value=6)),
                draw(st.integers(min_value=-2, max_value=4)),
                draw(st.integers(min_value=-2, max_value=40)),
                draw(st.floats(min_value=-1, max_value=2)),
                draw(st.sampled_from([-1.0, 0.0, 0.001])),
                draw(st.integers(min_value=0, max_value=2**64 - 1)),
            )
        elif entry == "bid":
            core.bid(
                world,
                moves,
                draw(st.integers(min_value=-2, max_value=40)),
                draw(st.integers(min_value=-2, max_value=6)),
                draw(st.integers(min_value=-2, max_value=4)),
                draw(st.floats(allow_nan=True)),
                draw(st.floats(allow_nan=True)),
                draw(st.sampled_from([-1.0, 0.0, 0.001, float("nan")])),
                draw(st.sampled_from([0, 1, 2, -1, None, 1.5])),
                draw(st.integers(min_value=0, max_value=2**64 - 1)),
            )
        elif entry == "values":
            handed: Any = None
            if draw(st.booleans()):  # deals given: real ones (some broken), or not a list
                handed = [tuple(deal) for deal in core.samples(world, 1, 3)]
                if draw(st.booleans()):
                    handed = broken(draw, handed)
            core.values(
                world,
                moves,
                draw(st.integers(min_value=-2, max_value=6)),
                draw(st.integers(min_value=-2, max_value=4)),
                draw(st.sampled_from([-1.0, 0.0, 0.001, float("nan")])),
                draw(st.integers(min_value=0, max_value=2**64 - 1)),
                handed,
            )
        elif entry == "samples":
            core.samples(world, draw(st.integers(min_value=0, max_value=2**64 - 1)), draw(SMALL))
        elif entry == "kinds":
            core.kinds(world, draw(st.integers(min_value=0, max_value=2**64 - 1)), draw(SMALL))
        elif entry == "sample_loop":
            core.sample_loop(
                world, draw(st.integers(min_value=0, max_value=2**64 - 1)), draw(SMALL)
            )
    elif entry == "playouts":
        core.playouts(
            config,
            state,
            draw(st.integers(min_value=0, max_value=2**64 - 1)),
            draw(SMALL),
            draw(st.booleans()),
            draw(st.floats(min_value=-1, max_value=2)),
            draw(SMALL),
        )
    elif entry == "replay":
        core.replay(config, state, moves)
    elif entry == "estimate":
        core.estimate(config, state, draw(SMALL))
    elif entry == "play_out":
        flat: Any = [*flat_state(0, base.state), *flat_state(1, base.state)]
        if draw(st.booleans()):
            flat = broken(draw, flat)
        core.play_out([config, config_ok], flat)
    elif entry == "endgame":
        if draw(st.booleans()):
            core.endgame(config, state)
        else:
            core.endgame(config, state, draw(st.floats(allow_nan=True, allow_infinity=True)))
    else:
        raise AssertionError(entry)


ENTRIES = (
    "make_config",
    "make_world",
    "search",
    "pimc",
    "bid",
    "samples",
    "sample_loop",
    "playouts",
    "replay",
    "estimate",
    "endgame",
    "values",
    "play_out",
    "kinds",
)
"""Every function of the compiled module."""


def learning(facts: Any) -> Any:
    """``facts`` with the opponent kinds learned (a prior of 0.5 for every other seat)."""
    prior = tuple(0.0 if seat == facts.me else 0.5 for seat in range(len(facts.counts)))
    return dataclasses.replace(facts, random_prior=prior)


OFF = (
    *range(-2, 18),
    54,
    63,
    64,
    127,
    128,
    255,
    256,
    2**31,
    2**53,
    2**54,
    2**63,
    2**64,
    -(2**63),
    1.5,
    None,
)
"""What the sweep puts in place of one int: every small value (each field's limits are
among them), a card or bid code just out of range, sizes of the C types, and two of the
wrong type."""


def one_off(value: Any) -> list[Any]:
    """Variants of ``value`` off in one place: an int replaced by each of :data:`OFF`, a
    sequence with one element (first, middle, last) made one off, shortened or lengthened,
    a float not finite."""
    if isinstance(value, bool):
        return [2, -1, None]
    if isinstance(value, int):
        return list(OFF)
    if isinstance(value, float):
        return [float("nan"), float("inf"), -1.0, None]
    if isinstance(value, (SplitGraph, WorldFacts, KernelState, KernelConfig)):
        return list(variants(value))
    if isinstance(value, tuple):
        out: list[Any] = [value[:-1], (*value, value[-1] if value else 0)]
        for at in sorted({0, len(value) // 2, len(value) - 1} & set(range(len(value)))):
            out += [(*value[:at], item, *value[at + 1 :]) for item in one_off(value[at])]
        return out
    return [0, (), None]


def variants(obj: Any) -> Iterator[Any]:
    """``obj`` (a typed input) with one field off in one place (see :func:`one_off`)."""
    for field in dataclasses.fields(obj):
        for value in one_off(getattr(obj, field.name)):
            yield dataclasses.replace(obj, **{field.name: value})


def sweep(bases: list[Base]) -> int:
    """Every one-off variant of each base's config, state, world state and facts (with and
    without a split), through the entry points that read it; the calls made."""
    core = native()
    calls = 0

    def attempt(function: Callable[..., Any], *args: Any) -> Any:
        nonlocal calls
        calls += 1
        with contextlib.suppress(*EXPECTED):
            return function(*args)
        return None

    def searched(config: Any, public: Any, facts: Any, moves: list[int]) -> None:
        world = attempt(core.make_world, config, public, facts)
        if world is not None:
            attempt(core.samples, world, 1, 2)
            attempt(core.sample_loop, world, 1, 2)
            attempt(core.search, world, moves, 4, -1.0, 0.3, 0.5, 2, True, 1, 0.1)
            attempt(core.search, world, moves, 4, -1.0, 0.3, 0.5, 0, True, 1, 0.1, 3)
            attempt(core.search, world, moves, 4, -1.0, 0.3, 0.5, 0, True, 1, 0.1, 7, True)
            attempt(core.pimc, world, moves, 1, 1, 4, 0.5, -1.0, 1)
            attempt(core.bid, world, moves, 8, 1, 2, 0.5, 1.0, -1.0, True, 1)
            attempt(core.values, world, moves, 2, 1, -1.0, 1)
            attempt(core.kinds, world, 1, 2)
        learned = attempt(lambda: core.make_world(config, public, learning(facts)))
        if learned is not None:
            attempt(core.kinds, learned, 1, 2)
            attempt(core.search, learned, moves, 4, -1.0, 0.3, 0.5, 0, True, 1, 0.1)

    for base in bases:
        config = base.config.build()
        moves = list(base.moves)
        for rules in variants(base.config):
            built = attempt(core.make_config, rules)
            if built is not None:
                attempt(core.replay, built, base.state, [])
                attempt(core.playouts, built, base.state, 1, 2, True, 0.5, 0)
                attempt(core.endgame, built, base.state, 0.5)
                searched(built, base.world_state, base.facts, moves)
        for state in variants(base.state):
            attempt(core.replay, config, state, moves[:1])
            attempt(core.playouts, config, state, 1, 2, True, 0.5, 0)
            attempt(core.playouts, config, state, 1, 2, False, 0.0, 0)
            attempt(core.estimate, config, state, 1)
            attempt(core.endgame, config, state)
        for public in variants(base.world_state):
            searched(config, public, base.facts, moves)
        for facts in (*variants(base.facts), *variants(split_facts(base))):
            searched(config, base.world_state, facts, moves)
        for off in one_off(moves[0]):
            searched(config, base.world_state, base.facts, [off])
            attempt(core.replay, config, base.state, [off])
        world = core.make_world(config, base.world_state, base.facts)
        deals = tuple(tuple(deal) for deal in core.samples(world, 1, 2))
        for handed in one_off(deals):  # the deals given to values, off in one place
            attempt(core.values, world, moves, 2, 1, -1.0, 1, handed)
    return calls


def run(examples: int) -> int:
    """Throws ``examples`` malformed calls at each entry point; the calls made."""
    bases = positions()
    assert len(bases) >= 4, "not enough positions to start from"
    core = native()
    functions = {name for name in dir(core) if name[0].islower() and callable(getattr(core, name))}
    assert set(ENTRIES) == functions, f"entry points not checked: {functions - set(ENTRIES)}"
    calls = 0

    @settings(
        max_examples=examples * len(ENTRIES),
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data(), entry=st.sampled_from(ENTRIES), which=st.integers(min_value=0))
    def check(data: st.DataObject, entry: str, which: int) -> None:
        nonlocal calls
        calls += 1
        with contextlib.suppress(*EXPECTED):
            call(entry, data.draw, bases[which % len(bases)])

    random.seed(0)
    check()
    return calls + sweep(bases)


if __name__ == "__main__":
    print(f"loaded {native().__file__}", flush=True)
    print(f"checked {run(int(sys.argv[1]) if len(sys.argv) > 1 else 40)}", flush=True)
