"""The kernel's world of a card decision in a hook game (e.g. Euchre, Pluck, Buckup), from
an observation.

The kernel searches the card play of the hook games that declare it (their ``"kernel"``
capability, :func:`~tricktaker.kernel.convert.kernel_plays`); their other decisions (auctions,
discards, plucks, stay or fold) stay with the Python search. Everything game-specific
comes from the game's own Python search support
(:func:`~tricktaker.bots.gamesearch.search_for`):

- the hard facts about the hidden cards are the game's determinizer's own description of
  them, its ``hidden_facts()`` (:class:`~tricktaker.engine.resample.HiddenFacts`: the
  unseen cards, how many each other seat holds, the suits each showed void in, the cards
  known with a seat, and, where the facts couple the suits, as after Pluck's plucks the
  seat did not see, the weighted choices of a split). The kernel's sampler places the
  same cards under the same constraints, uniformly, drawing a split as the determinizer
  draws it. Not carried over: the soft evidence the Python determinizers weigh
  (``HiddenFacts.soft_evidence``: Euchre's inference from the calls and the discards,
  Pluck's trump-call model, Buckup's stay-or-fold model), and facts a determinizer
  cannot state so (Buckup's hands once cards the seat saw thrown went into a new stock,
  placements weighed by their worlds): such decisions are searched in Python;
- the result of the hand for each seat, by the tricks its team takes (or, in Buckup,
  by every seat's tricks), is tabled by :func:`~tricktaker.kernel.results.result_table`
  from one state the determinizer samples (the public inputs of the scoring are the
  same in every sample).
"""

from __future__ import annotations

import random
from typing import Any

from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, HiddenFactsError
from tricktaker.kernel.convert import (
    HandInputs,
    KernelUnsupportedError,
    ResultTable,
    check_ruleset,
    hand_config,
    hand_plays,
    observed_state,
    played_by_seat,
)
from tricktaker.kernel.spec import KernelState, PlayInference, SplitGraph, WorldFacts

__all__ = ["hook_hand_inputs", "hook_world_inputs"]


def hook_hand_inputs(obs: Observation, result: ResultTable) -> HandInputs:
    """The inputs of a hook game's hand config for a card decision of ``obs``: the card
    play's tables and trump, scored by the hand's ``result`` tables (the game's own
    scoring, which the kernel reads instead of a rule of its own)."""
    return HandInputs(
        hand_size=obs.hand_size,
        scoring=None,
        misere=False,
        hook=False,
        tables=obs.tables,
        trump=obs.trump,
        turn_up=obs.turn_up,
        zero_streak=[0] * obs.players,
        result=result,
        active=obs.active,
    )


def hook_world_inputs(
    obs: Observation, *, sampler: Any = None, infer: PlayInference | None = None
) -> tuple[Any, KernelState, WorldFacts]:
    """The kernel's config, public state and determinizer facts for a card decision of a
    hook game (``sampler``: the game's determinizer of ``obs``, when already made;
    ``infer``: the deals weighed by the plays seen, see
    :class:`~tricktaker.kernel.spec.WorldFacts`; None: not)."""
    from tricktaker.bots.gamesearch import search_for
    from tricktaker.kernel.results import result_table

    rules, n, me = obs.rules, obs.players, obs.seat
    check_ruleset(rules, n)
    if obs.phase != "playing":
        raise KernelUnsupportedError(
            f"in {rules.name} the kernel searches the card play only, not the {obs.phase}"
        )
    if obs.hand is None or obs.tables is None or not obs.trump_known:
        raise KernelUnsupportedError("the kernel needs the seat's cards and the hand's trump")
    if sampler is None:
        sampler = search_for(rules.hooks).determinizer(obs)
    facts = _facts(obs, sampler, me=me, played=played_by_seat(obs))
    if infer is not None:
        facts = infer.facts(facts, hand_plays(obs))
    result = result_table(sampler.sample(random.Random(0)))
    config = hand_config(rules, n, hook_hand_inputs(obs, result))
    state = observed_state(obs, trick_points=None)
    return config, state, facts


def _facts(obs: Observation, sampler: Any, *, me: int, played: tuple[int, ...]) -> WorldFacts:
    """What the game's determinizer knows of the hidden cards (its
    :class:`~tricktaker.engine.resample.HiddenFacts`), as the kernel's sampler takes it:
    the seats sampled, the cards each holds beyond those known with it, the effective
    suits each cannot hold, the cards to place, the cards known with a seat, and the
    weighted choices of a split where the facts couple the suits."""
    describe = getattr(sampler, "hidden_facts", None)
    if describe is None:
        raise KernelUnsupportedError(
            f"the determinizer of {obs.rules.name} does not describe its hidden facts"
        )
    try:
        facts: HiddenFacts = describe()
    except HiddenFactsError as exc:
        raise KernelUnsupportedError(
            f"the kernel cannot place the hidden cards of {obs.rules.name}"
            f" as its determinizer does: {exc}"
        ) from None
    split = facts.split
    return WorldFacts(
        me=me,
        hidden=tuple(facts.hidden),
        counts=tuple(facts.counts),
        voids=tuple(facts.voids),
        played=played,
        unknown=facts.unknown,
        fixed=tuple(facts.fixed),
        split=None
        if split is None
        else SplitGraph(
            first=split.first,
            second=split.second,
            nodes=tuple(
                tuple((weight, after, chosen) for weight, after, chosen in node)
                for node in split.nodes
            ),
            lists=tuple(tuple(cards) for cards in split.lists),
        ),
    )
