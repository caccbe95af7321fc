"""ISMCTS decisions in the compiled kernel, from a seat's :class:`Observation`.

:func:`kernel_world` turns what the seat knows into the kernel's world: the public state
of the hand (bids, tricks, the trick in progress, its own cards), the cards it has not
seen, how many each other seat holds, the voids they showed (the same
:func:`~tricktaker.bots.determinize.known_voids` the Python determinizer uses) and the
bid model's card values (:mod:`tricktaker.bots.search_ohhell`). :func:`kernel_search`
then runs the whole search in C++ and returns the chosen action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tricktaker.engine.actions import BID, PLAY, Action, bid, play
from tricktaker.engine.hooks import capability
from tricktaker.engine.observation import Observation
from tricktaker.engine.setup import Setup
from tricktaker.kernel.convert import (
    HandInputs,
    check_ruleset,
    hand_config,
    hand_plays,
    observed_state,
    played_by_seat,
    plays_whole,
)
from tricktaker.kernel.native import native
from tricktaker.kernel.spec import (
    KERNEL_CAPABILITY,
    KernelState,
    KernelSupport,
    KernelUnsupportedError,
    PlayInference,
    WorldFacts,
    limits,
)
from tricktaker.rules.ruleset import HandSpec

__all__ = [
    "hand_spec",
    "kernel_rollouts",
    "kernel_search",
    "kernel_world",
    "move_code",
    "world_inputs",
    "zero_streaks",
]


def bid_values(obs: Observation) -> tuple[float, ...] | None:
    """The bid model's card values of ``obs``'s hand (each card's share of a trick, so
    that a hand's worth is their sum; None where the hand has no card tables)."""
    from tricktaker.bots.search_ohhell import card_values

    return card_values(obs)


def zero_streaks(obs: Observation) -> list[int]:
    """Each seat's run of zero bids in the hands before this one (as the engine counts)."""
    streak = [0] * obs.players
    for result in obs.history:
        for seat, value in enumerate(result.bids):
            streak[seat] = streak[seat] + 1 if value == 0 else 0
    return streak


def hand_spec(obs: Observation, setup: Setup) -> tuple[HandSpec, bool]:
    """The observed hand's spec (its size, special rules, scoring) and whether the hook
    rule holds in it, found as the engine finds them: the schedule position that the
    hands played give, or as the game's hooks made the hand (its ``"kernel"``
    capability's :attr:`~tricktaker.kernel.spec.KernelSupport.hand`: a caller's call)."""
    support = capability(obs.rules.hooks, KERNEL_CAPABILITY)
    if isinstance(support, KernelSupport) and support.hand is not None:
        return support.hand(obs, setup)
    position = 0
    for result in obs.history:
        if not setup.advance_when_all_exact or result.all_exact:
            position += 1
    spec = setup.schedule[position % len(setup.schedule)]
    if spec.hand_size != obs.hand_size:
        raise KernelUnsupportedError("cannot place the observed hand in the schedule")
    return spec, setup.hook


def _check(obs: Observation) -> Setup:
    setup = check_ruleset(obs.rules, obs.players)
    if obs.phase not in ("bidding", "playing"):
        raise KernelUnsupportedError(f"the kernel searches bids and cards, not the {obs.phase}")
    if obs.pile:
        raise KernelUnsupportedError("the kernel does not play face-down piles")
    if obs.hand is None:
        raise KernelUnsupportedError("the kernel does not search a hand its seat has not seen")
    if obs.active is not None:
        raise KernelUnsupportedError("the kernel plays hands where every seat takes part")
    if obs.tables is None or not obs.trump_known:
        raise KernelUnsupportedError("the kernel needs the hand's trump to be known")
    return setup


def kernel_world(
    obs: Observation,
    *,
    weighted: bool = True,
    sampler: Any = None,
    infer: PlayInference | None = None,
    random_prior: Sequence[float] | None = None,
    kind_noise: float = 0.5,
    kind_plays: float = 1.0,
) -> Any:
    """The kernel's world of ``obs``: ready to sample deals from and to search
    (``sampler``: the game's Python determinizer of ``obs``, when a hook game's is made;
    ``infer``: deals weighed by the other seats' plays seen, as
    :class:`~tricktaker.kernel.spec.WorldFacts` says; None: not; ``random_prior``: the
    opponent kinds learned at the table, each seat's prior chance of being a random
    player, :class:`~tricktaker.kernel.spec.WorldFacts` ``random_prior``, with its
    ``kind_noise`` and ``kind_plays``; None: off)."""
    config, state, facts = world_inputs(
        obs,
        weighted=weighted,
        sampler=sampler,
        infer=infer,
        random_prior=random_prior,
        kind_noise=kind_noise,
        kind_plays=kind_plays,
    )
    core = native()
    try:
        return core.make_world(config, state, facts)
    except core.Unsupported as exc:
        raise KernelUnsupportedError(str(exc)) from None


def world_inputs(
    obs: Observation,
    *,
    weighted: bool = True,
    sampler: Any = None,
    infer: PlayInference | None = None,
    random_prior: Sequence[float] | None = None,
    kind_noise: float = 0.5,
    kind_plays: float = 1.0,
) -> tuple[Any, KernelState, WorldFacts]:
    """What :func:`kernel_world` gives the kernel: the hand's config, the public state
    (hidden hands empty, a :class:`KernelState` made by
    :func:`~tricktaker.kernel.convert.observed_state`) and what the determinizer needs (a
    :class:`WorldFacts`, with the hand's plays seen and ``infer``'s settings when it is
    given; with ``random_prior``, the opponent kinds' priors and the hand's plays); a hook
    game's as :func:`~tricktaker.kernel.hookgames.hook_world_inputs` gives them."""
    config, state, facts = _world_inputs(obs, weighted=weighted, sampler=sampler, infer=infer)
    if random_prior is not None:
        if len(random_prior) != obs.players:
            raise ValueError("random_prior: one chance a seat")
        prior = tuple(0.0 if seat == obs.seat else float(p) for seat, p in enumerate(random_prior))
        plays = facts.plays or hand_plays(obs)
        facts = replace(
            facts, random_prior=prior, kind_noise=kind_noise, kind_plays=kind_plays, plays=plays
        )
    return config, state, facts


def _world_inputs(
    obs: Observation,
    *,
    weighted: bool,
    sampler: Any,
    infer: PlayInference | None,
) -> tuple[Any, KernelState, WorldFacts]:
    """:func:`world_inputs` without the opponent kinds."""
    if not plays_whole(obs.rules):  # a hook game's card play (tricktaker.kernel.hookgames)
        from tricktaker.kernel.hookgames import hook_world_inputs

        return hook_world_inputs(obs, sampler=sampler, infer=infer)
    from tricktaker.bots.determinize import known_voids
    from tricktaker.bots.search_ohhell import BID_FLOOR, BID_SPREAD

    setup = _check(obs)
    n, me, size = obs.players, obs.seat, obs.hand_size
    spec, hook = hand_spec(obs, setup)
    if spec.pile or spec.blind_hand:
        raise KernelUnsupportedError("the kernel does not play cards from face-down piles")
    scoring = spec.scoring or obs.rules.scoring
    hand = HandInputs(
        hand_size=size,
        scoring=scoring,
        misere=spec.misere,
        hook=hook,
        tables=obs.tables,
        trump=obs.trump,
        turn_up=obs.turn_up,
        zero_streak=zero_streaks(obs),
    )
    config = hand_config(obs.rules, n, hand)
    played = played_by_seat(obs)
    assert obs.hand is not None
    seen = obs.played | obs.hand
    main_turn_up = (
        obs.turn_up is not None and setup.trump_method == "turn_up" and len(setup.deck) > n * size
    )
    if main_turn_up:
        assert obs.turn_up is not None
        seen |= 1 << obs.turn_up
    unknown = sum(1 << card for card in setup.deck if not (seen >> card) & 1)
    counts = [size - mask.bit_count() for mask in played]
    state = observed_state(
        obs,
        trick_points=scoring.trick_points,
        first_bidder=me if setup.simultaneous else -1,
    )
    weight_seats = [s for s in range(n) if s != me and obs.bids[s] is not None]
    value = None
    if weighted and weight_seats and BID_SPREAD > 0:
        value = bid_values(obs)
    facts = WorldFacts(
        me=me,
        hidden=tuple(s for s in range(n) if s != me),
        counts=tuple(counts),
        voids=tuple(known_voids(obs)),
        played=played,
        unknown=unknown,
        fixed=(0,) * n,
        guess_bids=tuple(
            s for s in range(n) if obs.bid_made[s] and obs.bids[s] is None and s != me
        ),
        value=None if value is None else tuple(value),
        weight_seats=tuple(weight_seats),
        scale=-0.5 / (BID_SPREAD * BID_SPREAD),
        floor=BID_FLOOR,
    )
    if infer is not None:
        facts = infer.facts(facts, hand_plays(obs))
    return config, state, facts


KIND_DEALS = 256
"""The deals over which :func:`kernel_kinds` learns the opponent kinds (as many as the
kernel's search draws for them, ``KIND_DEALS`` in search.hpp)."""


def kernel_kinds(world: Any, *, seed: int, deals: int = KIND_DEALS) -> list[float]:
    """Each seat's chance of being a random player, learned from the hand's bids and plays
    by the kernel over ``deals`` sampled deals, as its search learns it (``world``: a
    :func:`kernel_world` made with a ``random_prior``; 0 for the searching seat)."""
    return [float(x) for x in native().kinds(world, seed, deals)]


def move_code(action: Action) -> int:
    """The kernel's code of a bid or card action (others are refused)."""
    return _codes((action,))[0]


def kernel_search(
    obs: Observation,
    *,
    seed: int,
    iterations: int,
    time_budget: float | None,
    exploration: float,
    noise: float,
    model_opponents: int,
    weighted: bool,
    rivalry: float = 0.0,
    world: Any = None,
    endgame_tricks: int = 0,
    endgame_rollouts: bool = False,
) -> tuple[Action, int]:
    """The action ISMCTS picks in the kernel for ``obs``, and the iterations it ran
    (``world``: :func:`kernel_world` of ``obs``, when already made; ``model_opponents``,
    ``rivalry``, ``endgame_tricks`` and ``endgame_rollouts`` as
    :class:`~tricktaker.bots.ismcts.ISMCTSBot` takes them)."""
    moves = _codes(obs.legal_actions)
    if world is None:
        world = kernel_world(obs, weighted=weighted)
    move, done, _ = native().search(
        world,
        moves,
        iterations,
        -1.0 if time_budget is None else time_budget,
        exploration,
        noise,
        model_opponents,
        weighted,
        seed,
        rivalry,
        endgame_tricks,
        endgame_rollouts,
    )
    return _action(move), done


def _codes(actions: Sequence[Action]) -> list[int]:
    """The kernel's codes of bid and card actions (others are refused)."""
    base = limits().bid_base
    codes = []
    for action in actions:
        if action.kind == BID and isinstance(action.value, int):
            codes.append(base + action.value)
        elif action.kind == PLAY and isinstance(action.value, int):
            codes.append(action.value)
        else:
            raise KernelUnsupportedError(f"the kernel does not search {action.kind} decisions")
    return codes


def _action(move: int) -> Action:
    """The action of a kernel move code."""
    base = limits().bid_base
    return bid(move - base) if move >= base else play(move)


def kernel_rollouts(
    obs: Observation,
    *,
    seed: int,
    first: int,
    keep: int,
    rollouts: int,
    noise: float,
    time_budget: float | None,
    world: Any = None,
) -> tuple[Action, int]:
    """The action flat rollouts pick in the kernel for ``obs`` (as
    :func:`tricktaker.bots.pimc.choose_by_rollouts` picks it), and the rollouts run."""
    moves = _codes(obs.legal_actions)
    if world is None:
        world = kernel_world(obs)
    move, done = native().pimc(
        world,
        moves,
        first,
        keep,
        rollouts,
        noise,
        -1.0 if time_budget is None else time_budget,
        seed,
    )
    return _action(move), done
