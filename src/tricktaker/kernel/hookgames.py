"""The kernel's world of a card decision in a hook game (Euchre, Pluck, Buckup), from an
observation.

The kernel searches the card play of the hook games named in
:data:`~tricktaker.kernel.convert.KERNEL_HOOKS`; their other decisions (auctions,
discards, plucks, stay or fold) stay with the Python search. Everything game-specific
comes from the game's own Python search support
(:func:`~tricktaker.bots.gamesearch.search_for`):

- the hard facts about the hidden cards are those of the game's determinizer, read
  from it: Euchre's and Buckup's counting sampler (a
  :class:`~tricktaker.bots.determinize.CardPlacement`, their ``placement``) holds the
  unseen cards, how many each other seat holds and the suits each showed void in, and
  Buckup's determinizer the scare cards kept (known with their holders);
  Pluck's determinizer, which cards each of the two other seats is known to hold or
  cannot hold (voids, what its plucks showed, the opening card), every other unseen card
  being with one of the two. The kernel's sampler places the same cards under the same
  constraints, uniformly. Not carried over: the soft evidence the Python determinizers
  weigh (Euchre's inference from the calls and the discards, Pluck's trump-call model,
  Buckup's stay-or-fold model), and Buckup's hands once cards the seat saw thrown went
  into a new stock (placements weighed by their worlds): such decisions are searched in
  Python. After plucks the seat did not see, which couple the cards of each suit,
  Pluck's determinizer counts the consistent positions class by class; its choices go
  to the kernel as a weighted graph (:func:`_pluck_split_graph`), drawn as it draws them;
- the result of the hand for each seat, by the tricks its team takes (or, in Buckup,
  by every seat's tricks), is tabled by :func:`~tricktaker.kernel.results.result_table`
  from one state the determinizer samples (the public inputs of the scoring are the
  same in every sample).
"""

from __future__ import annotations

import random
from typing import Any

from tricktaker.engine.observation import Observation
from tricktaker.kernel.convert import (
    PHASE_PLAYING,
    KernelUnsupportedError,
    check_ruleset,
    hand_config,
)

__all__ = ["hook_world_inputs"]


def hook_world_inputs(
    obs: Observation, *, sampler: Any = None
) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The kernel's config, public state and determinizer facts for a card decision of a
    hook game (``sampler``: the game's determinizer of ``obs``, when already made)."""
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
    facts = _facts(obs, sampler)
    result = result_table(sampler.sample(random.Random(0)))
    config = hand_config(
        rules,
        n,
        hand_size=obs.hand_size,
        scoring=None,
        misere=False,
        hook=False,
        tables=obs.tables,
        trump=obs.trump,
        turn_up=obs.turn_up,
        zero_streak=[0] * n,
        result=result,
        active=obs.active,
    )
    played = [0] * n
    for trick in (*obs.tricks, obs.current_trick):
        for seat, card in trick:
            played[seat] |= 1 << card
    state = {
        "hands": [obs.hand if seat == me else 0 for seat in range(n)],
        "bids": [-1] * n,
        "tricks": list(obs.tricks_won),
        "points": [0] * n,
        "trick": [list(pair) for pair in obs.current_trick],
        "leader": obs.leader,
        "to_play": obs.to_act[0] if obs.to_act else obs.leader,
        "tricks_done": len(obs.tricks),
        "bid_count": n,
        "bid_sum": 0,
        "eldest": (obs.dealer + 1) % n,
        "phase": PHASE_PLAYING,
        "broken": obs.trump_broken,
        "first_bidder": -1,
    }
    det = {
        "me": me,
        "guess_bids": [],
        "played": played,
        "value": None,
        "weight_seats": [],
        "scale": 0.0,
        "floor": 0.0,
        **facts,
    }
    return config, state, det


def _facts(obs: Observation, sampler: Any) -> dict[str, Any]:
    """What the game's determinizer knows of the hidden cards, as the kernel's sampler
    takes it: the seats sampled, the cards each holds beyond those known with it, the
    effective suits each cannot hold, the cards to place and the cards known with a seat."""
    from tricktaker.bots.determinize import CardPlacement
    from tricktaker.games.buckup.sampler import BuckupDeterminizer
    from tricktaker.games.pluck.search import PluckDeterminizer

    n = obs.players
    placement = getattr(sampler, "placement", None)
    if isinstance(placement, CardPlacement):  # Euchre, Buckup: the counting sampler's facts
        fixed = [0] * n
        if isinstance(sampler, BuckupDeterminizer):
            if sampler.semi:
                raise KernelUnsupportedError(
                    "cards the seat saw went into a new stock and may be in another hand,"
                    " which the kernel's sampler cannot weigh"
                )
            for seat, cards in sampler.fixed.items():  # kept scare cards
                fixed[seat] = sum(1 << card for card in cards)
        voids = [0] * n  # the voids that constrain it (its buckets' classes)
        for void, seats in placement.groups:
            for seat in seats:
                voids[seat] = void
        return {
            "hidden": list(placement.hidden_seats),
            "counts": list(placement.counts),
            "voids": voids,
            "unknown": sum(1 << card for card in placement.unknown),
            "fixed": fixed,
        }
    if isinstance(sampler, PluckDeterminizer) and sampler.dealt:
        if sampler.conditional:
            return _pluck_split(sampler, n)
        # Pluck: every unseen card is with one of the two other seats; a card one of
        # them cannot hold (a void, a pluck's return, the opening card) is the other's.
        first, second = sampler.others
        forbid, unknown = sampler.forbid, sampler.unknown
        free = unknown & ~forbid[first] & ~forbid[second]
        fixed = [0] * n
        fixed[first] = sampler.known[first] | (unknown & forbid[second] & ~forbid[first])
        fixed[second] = sampler.known[second] | (unknown & forbid[first] & ~forbid[second])
        counts = [0] * n
        counts[first] = sampler.need - (unknown & forbid[second] & ~forbid[first]).bit_count()
        counts[second] = free.bit_count() - counts[first]
        return {
            "hidden": [first, second],
            "counts": counts,
            "voids": [0] * n,
            "unknown": free,
            "fixed": fixed,
        }
    raise KernelUnsupportedError(
        f"the kernel cannot place the hidden cards of {obs.rules.name} as its determinizer does"
    )


def _pluck_split(sampler: Any, n: int) -> dict[str, Any]:
    """Pluck after plucks the seat did not see: its determinizer's count of the
    consistent splits, class by class (a class's options are the card sets the first
    other seat may take in it, filed by what they mean for the hidden plucks), handed
    to the kernel as a weighted graph of those choices (:func:`_pluck_split_graph`)."""
    first, second = sampler.others
    nodes, lists = _pluck_split_graph(sampler)
    fixed = [0] * n
    fixed[first], fixed[second] = sampler.known[first], sampler.known[second]
    return {
        "hidden": [],
        "counts": [0] * n,
        "voids": [0] * n,
        "unknown": sampler.unknown,
        "fixed": fixed,
        "split": {"first": first, "second": second, "nodes": nodes, "lists": lists},
    }


def _pluck_split_graph(
    sampler: Any,
) -> tuple[list[list[tuple[float, int, int]]], list[list[int]]]:
    """The choices of Pluck's determinizer when it draws the first other seat's unseen
    cards (its ``_sample_first``): per state of its count (the class, the cards taken,
    the cards crossed in hidden swaps, whether the hidden plucker holds a suit's top
    card), the options with their weights (card sets times consistent completions)."""
    index_of: dict[tuple[int, int, int, bool], int] = {}
    nodes: list[list[tuple[float, int, int]]] = []
    lists: list[list[int]] = []
    list_of: dict[tuple[int, int], int] = {}
    last = len(sampler.classes)

    def visit(state: tuple[int, int, int, bool]) -> int:
        if state[0] == last:
            return -1
        found = index_of.get(state)
        if found is not None:
            return found
        index, taken, crossed, top = state
        at = index_of[state] = len(nodes)
        nodes.append([])
        options = []
        for number, ((count, t, c), masks) in enumerate(sampler.classes[index]):
            if taken + count > sampler.need or crossed + c > sampler.k:
                continue
            after = (index + 1, taken + count, crossed + c, top or t)
            weight = len(masks) * sampler._ways(*after)
            if not weight:
                continue
            if (index, number) not in list_of:
                list_of[(index, number)] = len(lists)
                lists.append(list(masks))
            options.append((float(weight), visit(after), list_of[(index, number)]))
        nodes[at] = options
        return at

    visit((0, 0, 0, False))
    return nodes, lists
