"""Bidding from the trick distribution, in the compiled kernel.

:func:`kernel_bid` chooses a bid by the score it is expected to make: on many deals
sampled from what the seat knows (the seats that bid before it weigh each deal by the bid
model, as in the search), every legal bid is made and the hand played to its end by the
search's own card play (the rollout policy; the other seats at random with the chance
``noise``), the same deals and random numbers for every bid. That gives each bid the
distribution of the tricks the hand takes with it, which the ruleset's score table turns
into the expected reward (less ``rivalry`` times the other seats' mean, as the search
backs up); the best wins. A bid the rules forbid (the dealer's hook) is not among the
seat's legal actions, so it is never chosen. The ISMCTS bot uses it with
``bid_distribution=1`` (see :class:`~tricktaker.bots.ismcts.ISMCTSBot` and bench/README.md,
"Bidding from the trick distribution (issue 30)").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktaker.engine.actions import BID, Action, bid
from tricktaker.engine.observation import Observation
from tricktaker.kernel.native import native
from tricktaker.kernel.search import kernel_world
from tricktaker.kernel.spec import KernelUnsupportedError, limits

__all__ = ["BidChoice", "BidValue", "kernel_bid"]


@dataclass(frozen=True)
class BidValue:
    """What one bid came to over the deals it was played on."""

    bid: int
    deals: int
    weight: float
    """The sum of the deals' weights (the bid model's)."""
    mean: float
    """The weighted mean of the seat's search reward with this bid."""
    tricks: tuple[float, ...]
    """Per trick count 0 to the hand size: the share of the weight in which the seat took
    that many tricks with this bid (all 0 when it was played on no deal)."""


@dataclass(frozen=True)
class BidChoice:
    """The chosen bid, the rollouts spent and every bid's value."""

    action: Action
    rollouts: int
    values: tuple[BidValue, ...]


def kernel_bid(
    obs: Observation,
    *,
    seed: int,
    rollouts: int,
    noise: float,
    rivalry: float,
    time_budget: float | None,
    weighted: bool = True,
    first: int = 0,
    keep: int = 4,
    world: Any = None,
) -> BidChoice:
    """The bid the trick distribution picks for ``obs`` (a bid decision of a ruleset the
    kernel plays whole). ``rollouts``: the hands played out, every bid's together;
    ``first``: the deals of a first round on which every bid is played (0: a quarter of
    the budget), after which only the ``keep`` best are played on; ``world``:
    :func:`~tricktaker.kernel.search.kernel_world` of ``obs``, when already made."""
    if not obs.legal_actions or any(a.kind != BID for a in obs.legal_actions):
        raise KernelUnsupportedError("the trick distribution chooses bids only")
    base = limits().bid_base
    moves = [base + int(action.value) for action in obs.legal_actions]
    if world is None:
        world = kernel_world(obs, weighted=weighted)
    move, done, stats = native().bid(
        world,
        moves,
        rollouts,
        first,
        keep,
        noise,
        rivalry,
        -1.0 if time_budget is None else time_budget,
        weighted,
        seed,
    )
    values = []
    for code, deals, weight, mean, tricks in stats:
        shares = tuple(t / weight for t in tricks) if weight > 0 else tuple(0.0 for _ in tricks)
        values.append(BidValue(code - base, deals, weight, mean, shares))
    return BidChoice(bid(move - base), done, tuple(values))
