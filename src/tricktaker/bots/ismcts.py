"""An information-set Monte Carlo tree search (ISMCTS) bot for every game on the engine.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). One tree is grown per
decision, from the deciding seat's point of view. Each iteration

1. samples a complete state consistent with the seat's observation (the game's
   determinizer, see :mod:`tricktaker.bots.gamesearch`);
2. descends the tree: every node is a point in the hand's public action sequence, and
   its children are the (seat, action) moves seen from it. Only the moves legal in this
   sampled state are candidates, so each child also counts how often it was
   *available*, and UCB1 uses that count in place of the parent's visits (the
   "subset-armed bandit"). A child is scored for the seat that made the move;
3. expands one untried move, then plays the rest of the HAND with the game's fast
   rollout policy (:func:`tricktaker.bots.pimc.rollout_hand`);
4. backs up every seat's reward for the hand (the game's, e.g. an Oh Hell score over
   ``10 + hand size``; in a cooperative game whether everyone was exact).

Every searched decision (bids and cards; plucks, auction bids, discards, stay or fold
and draws in the hook games) is a tree move. Chance steps inside the hand (a second
deck's trump card, shuffled piles, a Buckup draw) are drawn from a per-iteration seed
given to the sampled state. With simultaneous bids the deciding seat always moves
first in the tree; other seats' hidden bids are still tree moves (a single-observer
limitation). Caller Clag's calls are left to the heuristic bot. The final choice is
the most visited root move.

The search is deterministic given the seed and ``iterations``, unless a ``time_budget``
(seconds per decision) stops it earlier.

**The compiled kernel.** In the Oh Hell family the whole search of a bid or a card
(determinizer, tree, rollout policy, bid model) runs in C++ (:mod:`tricktaker.kernel`),
the same algorithm about a hundred times faster, unless ``kernel=0``; so does the card
play of Euchre, Pluck and Buckup (the hand's result tabled from the game's own scoring,
the hidden cards placed on the game's determinizer's hard facts, the cards of the rollouts
those of the shared card policy, :func:`tricktaker.bots.rollout.rollout_card`). A decision
the kernel does not play (the hook games' auctions, plucks, trump calls, stay or fold and
draws; a few card decisions whose hidden cards it cannot place; face-down
piles, a hand not yet seen, bidding before the trump) is searched here in Python, and the
bot says so once (a warning on the ``tricktaker.bots`` logger).
"""

from __future__ import annotations

import math
import random
import time

from tricktaker.bots.bidders import Bidders
from tricktaker.bots.gamesearch import GameSearch, sample_weight
from tricktaker.bots.heuristic import HeuristicBot
from tricktaker.bots.pimc import (
    SearchBot,
    choose_by_rollouts,
    fall_back,
    rollout_hand,
)
from tricktaker.engine.actions import BID, PLAY, Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState
from tricktaker.kernel import (
    KernelUnavailableError,
    KernelUnsupportedError,
    kernel_search,
    kernel_world,
)
from tricktaker.kernel.bidding import kernel_bid
from tricktaker.kernel.search import kernel_kinds
from tricktaker.kernel.spec import PlayInference

__all__ = [
    "INFERENCES",
    "INFER_NOISE",
    "KIND_BOUNDS",
    "KIND_CARRY",
    "MOST_ENDGAME_TRICKS",
    "MOST_POOLED",
    "MOST_TIME_SHAPE",
    "OPPONENT_MODELS",
    "OWN_PHASES",
    "ISMCTSBot",
    "shaped_time",
]

MOST_ENDGAME_TRICKS = 7
"""The most tricks left that ``endgame_tricks`` may solve exactly (the kernel's
``MAX_ENDGAME_TRICKS``, which refuses more)."""


INFERENCES = ("none", "plays")
"""The values of the ``infer`` setting: no inference, or from the card plays seen."""

MOST_POOLED = 100_000
"""The most deals ``infer_pool`` may hold (the kernel keeps them in memory)."""

INFER_NOISE = 0.5
"""The default ``infer_noise``: the chance, in the inference's model of a seat's play,
that the seat plays any legal card rather than the rollout policy's (the rollouts' own
opponent noise in the Oh Hell family)."""


KIND_CARRIES = ("mean", "bayes", "bidder")
"""The values of the ``kind_carry`` setting: how a seat's kind learned in one hand
becomes its prior in the next (``opponents=learned``): ``mean``, the running mean of
:data:`KIND_CARRY`; ``bayes``, the posterior from the hand's bids alone (each hand's
bid is fresh evidence, multiplied in); ``bidder``, from every hand's bid beside the
tricks the seat took, a bidder's habits learned per seat
(:class:`~tricktaker.bots.bidders.Bidders`); each within :data:`KIND_BOUNDS`."""

OPPONENT_MODELS = ("game", "search", "learned")
"""The values of the ``opponents`` setting: the game's default (``game``: ``learned`` in
the Oh Hell family, ``search`` in the hook games), every other seat modelled as the
search's own (``search``), or each one's kind learned at the table (``learned``)."""

OWN_PHASES = ("game", "tree", "flat")
"""The values of the ``own_phases`` setting: how a decision of a hook game's own phases
that the kernel does not search is chosen: the game's default (``game``:
:attr:`GameSearch.own_phases`), by the Python tree search (``tree``), or by flat play-outs
of every choice on the same deals with the kernel playing the cards (``flat``)."""

FLAT_LEAST_DEALS = 8
"""The fewest deals ``own_phases=flat`` plays every choice out on when its time is up."""

MOST_TIME_SHAPE = 4.0
"""The largest ``time_shape`` either way."""


def shaped_time(hand_size: int, cards_held: int, *, bid: bool, shape: float) -> float:
    """A bid's or a card's share of a hand's time, as a multiple of the mean decision's:
    each decision weighs ``k ** shape``, ``k`` the cards held (one more for the bid),
    over the mean weight of the hand's decisions with a choice (the bid and every card
    but the last, which is forced), so that the hand's time is ``time_budget`` times its
    decisions; a ``shape`` above 0 gives the bid and the first tricks, where the most is
    unknown and an iteration costs the most, more than the last ones, below 0 less.

    >>> round(shaped_time(12, 12, bid=True, shape=1.0), 3), shaped_time(5, 5, bid=True, shape=0.0)
    (1.733, 1.0)
    >>> round(shaped_time(12, 2, bid=False, shape=1.0), 3)
    0.267
    """
    weights = [(hand_size + 1) ** shape] + [k**shape for k in range(2, hand_size + 1)]
    mean = sum(weights) / len(weights)
    held = cards_held + 1 if bid else cards_held
    return float(max(held, 1) ** shape / mean)


KIND_BOUNDS = (0.02, 0.98)
"""The bounds of a seat's chance of being a random player carried from one hand to the
next (``opponents=learned``): no hand's evidence rules a kind out for good."""

KIND_CARRY = 0.5
"""How much of a hand's posterior (``opponents=learned``) the next hand's prior takes:
the prior is the running mean ``KIND_CARRY * posterior + (1 - KIND_CARRY) * prior``, so
that a player between the two kinds (another search, whose card play is not the policy's)
is not driven to one of them by hands that each lean a little its way."""


Move = tuple[int, Action]
"""A seat and the action it takes."""


def rival_rewards(rewards: list[float], rivalry: float, state: GameState) -> list[float]:
    """Each seat's reward less ``rivalry`` times the mean of the other seats' (as the
    kernel's search does); unchanged in a cooperative game or with rivalry 0."""
    n = len(rewards)
    if rivalry == 0.0 or n < 2 or state.setup.cooperative:
        return rewards
    total = sum(rewards)
    return [r - rivalry * (total - r) / (n - 1) for r in rewards]


class _Node:
    """A tree node: the statistics of the move that leads to it, and its children."""

    __slots__ = ("avail", "children", "reward", "visits", "weight")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.weight = 0.0  # total weight of the samples that visited it
        self.reward = 0.0  # weighted total, for the seat that made the move into this node

    def mean(self) -> float:
        """The weighted mean reward of the move (0 before any weight is seen)."""
        return self.reward / self.weight if self.weight > 0 else 0.0


class ISMCTSBot(SearchBot):
    """Chooses bids and cards by information-set MCTS over sampled deals.

    ``iterations``: determinizations (tree descents and rollouts) per decision;
    ``time_budget``: seconds per decision after which no further iteration starts (makes
    the bot depend on machine speed); ``exploration``: the UCB1 constant (-1, the
    default: the game's, :attr:`GameSearch.exploration`); ``weighted``:
    weigh each sample by how likely the others' bids were with its cards (the game's
    bid model, :func:`~tricktaker.bots.gamesearch.sample_weight`; 0 turns it off);
    ``opponent_noise``: the chance that another seat's move in a rollout is uniformly
    random rather than the game's policy (a model of weak or unpredictable opponents,
    and a hedge against the full-information policy's overconfidence); -1 (the default)
    takes the game's (:attr:`GameSearch.opponent_noise`); ``bid_rollouts``:
    when above 0, a bid (kind ``bid``) is chosen by rollouts over sampled deals with this
    budget, every bid played out from the same deals and the weakest dropped after a
    first round (:func:`~tricktaker.bots.pimc.choose_by_rollouts`), rather than in the
    tree. Off by default: against OpenSpiel's ISMCTS it bid worse (the rollouts play
    with full information from the bid on, so they overrate hard contracts);
    ``model_opponents``: 1 makes the other seats' moves in the tree those of the game's
    rollout policy with their sampled cards (still tree nodes), rather than UCB choices
    made without their cards; 2 makes them as in the rollouts (uniformly random with the
    chance ``opponent_noise``, else the policy's), a model of players weaker than the
    policy; 0 does neither; -1 (the default) does what the game's search
    support says (:attr:`GameSearch.model_opponents`: on for Euchre, whose auction UCB
    plays badly for the other seats, off elsewhere); ``rivalry``: how much the other
    seats' results count against a seat's own in the search: each seat's reward is its
    result less ``rivalry`` times the mean of the others' (0: its own result only, 1: its
    margin over the average other seat; never in a cooperative game, where everyone
    shares one result); -1 (the default) takes the game's (:attr:`GameSearch.rivalry`);
    ``bid_iterations``: the budget of a bid (kind ``bid``) when above 0, else
    ``iterations`` (a hand's contract decides most of its score, so a bid may deserve
    more search than a card); ``kernel``: 1 (the
    default) searches in the compiled kernel where it plays the game, 0 always in Python
    (the kernel's choices differ from Python's for a seed, as its random numbers do);
    ``kernel_iterations``: when above 0, the budget of every decision searched in the
    kernel (some 100 times as fast as Python, so a level can give it far more
    iterations in the same time), else ``iterations`` or ``bid_iterations``;
    ``endgame_tricks``: where the kernel searches, an iteration whose tree descent ends
    with at most this many tricks left takes every seat's reward from the exact endgame of
    its sampled deal instead of a rollout (max-n with every hand known, as a double-dummy
    solver plays: each seat plays the card best for its own reward, the lowest card of
    equal value; 1 to 7; 0, the default: off); ``endgame_rollouts``: 1 also stops every
    rollout once that many tricks are left and lets the exact endgame finish it, so that
    it counts in every decision, bids included (see bench/README.md, "Exact endgame", for
    how both fared at equal time); ``bid_distribution``: 1 chooses a bid the kernel
    searches (the Oh Hell family's) from the distribution of the tricks the hand takes
    instead of in the tree: the kernel's budget of rollouts spread over every legal bid on
    the same sampled deals (weighed by the earlier bids), each hand played out by the
    search's own card play, the bid with the best expected reward kept
    (:func:`~tricktaker.kernel.bidding.kernel_bid`; see bench/README.md, "Bidding from the
    trick distribution (issue 30)"); 0, the default: the tree; ``infer``: ``plays``
    weighs each deal the kernel samples by how likely the other seats' card plays seen
    this hand were with its cards, under the rollout policy softened by ``infer_noise``
    (the chance that a seat plays any legal card rather than the policy's or one
    equivalent to it: a seat that ducked under an ace with a low card makes its holding
    the king less likely where the policy would have thrown the king; see
    :class:`~tricktaker.kernel.spec.WorldFacts`); ``none`` (the default) does not (kernel
    only; see bench/README.md, "Inference from the plays (issue 30)"); ``infer_pool``:
    above 0, the deals are drawn and weighed once a decision, this many (at most the
    iterations), and each iteration takes one in proportion to its weight (sampling
    importance resampling: cheaper than weighing every iteration's deal); 0 (the
    default): every iteration's deal is weighed; ``opponents``: ``learned`` models each
    other seat as one of two kinds of player, a policy player (the search's model of
    every seat today) or a random player (every bid and card uniformly among the legal
    ones), weighed by the likelihood of its bids and card plays seen (the kernel's
    :class:`~tricktaker.kernel.spec.WorldFacts` ``random_prior``, with ``kind_noise``
    the chance, in the policy kind's model of a play, of any legal card): each iteration
    of the kernel's search draws every seat's kind from that posterior, and a random seat
    moves at random in the tree and in the rollout, so that the bid and the cards are
    chosen against the players at the table. What a hand taught is carried into the next
    hand's prior (and into the next game, if the bot is kept), as ``kind_carry`` says
    (:data:`KIND_CARRIES`; ``bidder``, the default: each seat's bids beside the tricks it
    took, :class:`~tricktaker.bots.bidders.Bidders`), within :data:`KIND_BOUNDS`;
    ``random_prior`` (0.25) is the prior of a seat not seen yet; ``kind_plays`` (0.5) how
    much a seat's card plays this hand tell of its kind (their likelihood ratio raised
    to this power; 0: the bid alone). ``search`` models every seat as the search's own
    player; ``game`` (the default) is ``learned`` in the Oh Hell family (kernel only) and
    ``search`` in the hook games (see bench/README.md, "Opponent kinds learned at the
    table (issue 30)"). ``own_phases``: how a decision of a hook game's own phases
    that the kernel does not search (an auction, a pluck, a trump call, an ante, stay or
    fold, a draw) is chosen: ``tree`` by the Python tree search, ``flat`` by playing
    every legal choice out on the same sampled deals until the time budget is spent (the
    game's rollout policy up to the card play, the kernel's from there: the coach's
    values) and keeping the best mean; ``game`` (the default) takes the game's
    (:attr:`GameSearch.own_phases`; see bench/README.md, "The hook games' own phases and
    card play (issue 30)"). ``time_shape``: with a ``time_budget``, how the hand's time is
    spread over its bid and cards: 0 (the default) gives every decision the budget;
    ``A`` (from -4 to 4) gives a decision ``time_budget`` times its :func:`shaped_time`
    share, weight ``k ** A`` with ``k`` the cards held (one more for the bid), so that
    above 0 the bid and the first tricks get more and the last ones less, below 0 the
    other way round, while the hand's decisions average the budget (see
    bench/README.md, "Time spread over the hand, the exploration constant and a faster
    kernel (issue 30)").

    >>> ISMCTSBot(seed=0).name
    'ismcts'
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 400,
        time_budget: float | None = None,
        *,
        exploration: float = -1.0,
        weighted: int = 1,
        opponent_noise: float = -1.0,
        bid_rollouts: int = 0,
        model_opponents: int = -1,
        bid_iterations: int = 0,
        kernel: int = 1,
        kernel_iterations: int = 0,
        rivalry: float = -1.0,
        endgame_tricks: int = 0,
        endgame_rollouts: int = 0,
        bid_distribution: int = 0,
        infer: str = "none",
        infer_noise: float = INFER_NOISE,
        infer_pool: int = 0,
        opponents: str = "game",
        random_prior: float = 0.25,
        kind_noise: float = INFER_NOISE,
        kind_plays: float = 0.5,
        kind_carry: str = "bidder",
        own_phases: str = "game",
        time_shape: float = 0.0,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if exploration < 0 and exploration != -1.0:
            raise ValueError("exploration must be 0 or more (-1: the game's default)")
        if not (0.0 <= opponent_noise <= 1.0 or opponent_noise == -1.0):
            raise ValueError("opponent_noise must be between 0 and 1 (-1: the game's default)")
        if bid_iterations < 0:
            raise ValueError("bid_iterations must be 0 (as iterations) or more")
        if kernel_iterations < 0:
            raise ValueError("kernel_iterations must be 0 (as iterations) or more")
        if model_opponents not in (-1, 0, 1, 2):
            raise ValueError("model_opponents must be 0, 1 or 2 (-1: the game's default)")
        if not (0.0 <= rivalry <= 1.0 or rivalry == -1.0):
            raise ValueError("rivalry must be between 0 and 1 (-1: the game's default)")
        if not 0 <= endgame_tricks <= MOST_ENDGAME_TRICKS:
            raise ValueError(f"endgame_tricks must be 0 (off) to {MOST_ENDGAME_TRICKS}")
        if infer not in INFERENCES:
            raise ValueError(f"infer must be one of {', '.join(INFERENCES)}, not {infer!r}")
        if not 0.0 < infer_noise <= 1.0:
            raise ValueError("infer_noise must be above 0 and at most 1")
        if not 0 <= infer_pool <= MOST_POOLED:
            raise ValueError(f"infer_pool must be 0 (off) to {MOST_POOLED}")
        if opponents not in OPPONENT_MODELS:
            raise ValueError(
                f"opponents must be one of {', '.join(OPPONENT_MODELS)}, not {opponents!r}"
            )
        if not KIND_BOUNDS[0] <= random_prior <= KIND_BOUNDS[1]:
            raise ValueError(f"random_prior must be from {KIND_BOUNDS[0]} to {KIND_BOUNDS[1]}")
        if not 0.0 < kind_noise <= 1.0:
            raise ValueError("kind_noise must be above 0 and at most 1")
        if not 0.0 <= kind_plays <= 1.0:
            raise ValueError("kind_plays must be from 0 (the bids alone) to 1")
        if kind_carry not in KIND_CARRIES:
            raise ValueError(
                f"kind_carry must be one of {', '.join(KIND_CARRIES)}, not {kind_carry!r}"
            )
        if not -MOST_TIME_SHAPE <= time_shape <= MOST_TIME_SHAPE:
            raise ValueError(
                f"time_shape must be from {-MOST_TIME_SHAPE} to {MOST_TIME_SHAPE}"
                " (0: every decision alike)"
            )
        if own_phases not in OWN_PHASES:
            raise ValueError(
                f"own_phases must be one of {', '.join(OWN_PHASES)}, not {own_phases!r}"
            )
        self.own_phases = own_phases
        self.time_shape = time_shape
        self.kind_plays = kind_plays
        self.kind_carry = kind_carry
        self.opponents = opponents
        self.random_prior = random_prior
        self.kind_noise = kind_noise
        self.kinds: dict[int, float] = {}
        """Each other seat's chance of being a random player at the start of this hand."""
        self._kinds_seen: dict[int, float] = {}
        self._bidders = Bidders()
        self._hand_mark: tuple[int, int] | None = None
        self.infer = infer
        self.inference = (
            PlayInference(noise=infer_noise, pool=infer_pool) if infer == "plays" else None
        )
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_budget = time_budget
        self.exploration = exploration
        self.weighted = bool(weighted)
        self.opponent_noise = opponent_noise
        self.bid_rollouts = bid_rollouts
        self.model_opponents = model_opponents
        self.bid_iterations = bid_iterations
        self.kernel = bool(kernel)
        self.kernel_iterations = kernel_iterations
        self.rivalry = rivalry
        self.endgame_tricks = endgame_tricks
        self.endgame_rollouts = bool(endgame_rollouts)
        if bid_distribution not in (0, 1):
            raise ValueError("bid_distribution must be 0 (the tree) or 1")
        self.bid_distribution = bool(bid_distribution)
        self.fallback = HeuristicBot(seed)
        self.last_iterations = 0
        """Iterations the last search ran (for benchmarks)."""

    # ----------------------------------------------------------------- search

    def decision_time(self, obs: Observation) -> float | None:
        """This decision's share of the time: ``time_budget`` itself, unless ``time_shape``
        spreads it over the hand (:func:`shaped_time`)."""
        if self.time_budget is None or not self.time_shape:
            return self.time_budget
        kind = obs.legal_actions[0].kind if obs.legal_actions else None
        if kind not in (BID, PLAY):
            return self.time_budget
        return self.time_budget * shaped_time(
            obs.hand_size, obs.cards_in_hand, bid=kind == BID, shape=self.time_shape
        )

    def _search(self, obs: Observation, actions: tuple[Action, ...], game: GameSearch) -> Action:
        time_budget = self.decision_time(obs)
        deadline = None if time_budget is None else time.perf_counter() + time_budget
        sampler = game.determinizer(obs)
        if actions[0].kind == BID and self.bid_rollouts > 0:
            return choose_by_rollouts(
                sampler,
                actions,
                obs.seat,
                game,
                self.rng,
                first=max(1, self.bid_rollouts // (4 * len(actions))),
                keep=min(len(actions), 4),
                rollouts=self.bid_rollouts,
                noise=self._noise(game),
                deadline=deadline,
            )
        budget = self.iterations
        if actions[0].kind == BID and self.bid_iterations:
            budget = self.bid_iterations
        if self.kernel:
            flat_phases = (
                self.own_phases if self.own_phases != "game" else game.own_phases
            ) == "flat"
            chosen = self._kernel_search(
                obs, game, self.kernel_iterations or budget, sampler, time_budget
            )
            if isinstance(chosen, Action):
                return chosen
            if flat_phases:
                flat = self._flat_choice(obs, actions, budget, deadline)
                if flat is not None:
                    return flat
            # Said only now: a flat choice plays its cards in the kernel.
            fall_back(chosen)
        root = _Node()
        seat = obs.seat
        self.last_iterations = 0
        while self.last_iterations < budget:
            state = sampler.sample(self.rng)
            state.reseed(self.rng.getrandbits(62))  # fresh chance steps for this iteration
            weight = sample_weight(sampler, state) if self.weighted else 1.0
            self._iterate(state, root, seat, game, weight)
            self.last_iterations += 1
            if deadline is not None and time.perf_counter() > deadline:
                break

        def rank(index: int) -> tuple[int, float, int]:
            child = root.children.get((seat, actions[index]))
            if child is None or not child.visits:
                return (0, 0.0, -index)
            return (child.visits, child.mean(), -index)

        return actions[max(range(len(actions)), key=rank)]

    def _flat_choice(
        self, obs: Observation, actions: tuple[Action, ...], deals: int, deadline: float | None
    ) -> Action | None:
        """The choice with the best mean points when every legal choice is played out on
        the same sampled deals (the coach's staged values: the game's own phases by its
        rollout policy, the cards by the kernel): ``deals`` deals, or fewer once the
        deadline has passed, but at least :data:`FLAT_LEAST_DEALS`; None where the kernel
        does not play this game's cards."""
        # The coach builds on this package, so it is imported when first needed.
        from tricktaker.coach.values import ranked, staged_totals

        least = min(FLAT_LEAST_DEALS, deals)

        def stop(done: int) -> bool:
            if done >= deals:
                return True
            return deadline is not None and done >= least and time.perf_counter() >= deadline

        totals = staged_totals(obs, actions, seed=self.rng.getrandbits(62), stop=stop)
        if totals is None:
            return None
        self.last_iterations = totals[0].deals
        return ranked(totals, actions)[0].action

    def _kernel_search(
        self,
        obs: Observation,
        game: GameSearch,
        budget: int,
        sampler: object = None,
        time_budget: float | None = None,
    ) -> Action | str:
        """The compiled kernel's choice, or why it does not play this decision."""
        learned = (self.opponents if self.opponents != "game" else game.opponents) == "learned"
        try:
            world = kernel_world(
                obs,
                weighted=self.weighted,
                sampler=sampler,
                infer=self.inference,
                random_prior=self._priors(obs) if learned else None,
                kind_noise=self.kind_noise,
                kind_plays=self.kind_plays,
            )
            if learned:
                self._learn_kinds(obs, world, sampler)
        except (KernelUnsupportedError, KernelUnavailableError) as exc:
            return str(exc)
        if self.bid_distribution and obs.legal_actions[0].kind == BID:
            choice = kernel_bid(
                obs,
                seed=self.rng.getrandbits(63),
                rollouts=budget,
                noise=self._noise(game),
                rivalry=self._rivalry(game),
                time_budget=time_budget,
                weighted=self.weighted,
                world=world,
            )
            self.last_iterations = choice.rollouts
            return choice.action
        model = self.model_opponents if self.model_opponents >= 0 else game.model_opponents
        action, self.last_iterations = kernel_search(
            obs,
            seed=self.rng.getrandbits(63),
            iterations=budget,
            time_budget=time_budget,
            exploration=self.exploration if self.exploration >= 0 else game.exploration,
            noise=self._noise(game),
            model_opponents=int(model),
            weighted=self.weighted,
            rivalry=self._rivalry(game),
            world=world,
            endgame_tricks=self.endgame_tricks,
            endgame_rollouts=self.endgame_rollouts,
        )
        return action

    def _learn_kinds(self, obs: Observation, world: object, sampler: object) -> None:
        """What this decision's search learns of the other seats' kinds, kept for the
        next hand's priors: the posterior (``kind_carry=mean``), or the posterior from
        the bids alone (``bayes``; with ``kind_plays`` 1 a second world, without the
        plays' evidence, is made for it)."""
        if self.kind_carry == "bidder":  # the bids beside the tricks, not the kernel's
            self._bidders.see(obs)
            return
        source = world
        if self.kind_carry == "bayes" and self.kind_plays > 0.0:
            source = kernel_world(
                obs,
                weighted=self.weighted,
                sampler=sampler,
                infer=self.inference,
                random_prior=self._priors(obs),
                kind_noise=self.kind_noise,
                kind_plays=0.0,
            )
        learned = kernel_kinds(source, seed=self.rng.getrandbits(63))
        self._kinds_seen = {s: p for s, p in enumerate(learned) if s != obs.seat}

    def _priors(self, obs: Observation) -> list[float]:
        """Each seat's prior chance of being a random player this hand: at a new hand
        (a new hand number, or less of the hand played than at the last decision) the
        priors move toward the posteriors last learned, by :data:`KIND_CARRY`, within
        :data:`KIND_BOUNDS`."""
        progress = sum(obs.bid_made) + sum(map(len, obs.tricks)) + len(obs.current_trick)
        mark = (obs.hand_number, progress)
        last = self._hand_mark
        if last is None or last[0] != obs.hand_number or progress < last[1]:
            low, high = KIND_BOUNDS
            self._bidders.close_hand()
            carried: dict[int, float]
            if self.kind_carry == "bidder":
                bidders = self._bidders
                carried = {s: bidders.random_chance(s, self.random_prior) for s in bidders.records}
            elif self.kind_carry == "bayes":
                carried = self._kinds_seen
            else:
                carried = {
                    seat: KIND_CARRY * chance
                    + (1.0 - KIND_CARRY) * self.kinds.get(seat, self.random_prior)
                    for seat, chance in self._kinds_seen.items()
                }
            for seat, chance in carried.items():
                self.kinds[seat] = min(high, max(low, chance))
            self._kinds_seen = {}
        self._hand_mark = mark
        return [
            0.0 if seat == obs.seat else self.kinds.get(seat, self.random_prior)
            for seat in range(obs.players)
        ]

    def _iterate(
        self, state: GameState, root: _Node, me: int, game: GameSearch, weight: float
    ) -> None:
        """One determinized descent, expansion, rollout and backup."""
        model = self.model_opponents if self.model_opponents >= 0 else game.model_opponents
        start = state.hands_played
        node = root
        path: list[tuple[_Node, int]] = []
        while state.hands_played == start and not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seats = state.to_act()
            seat = me if me in seats else seats[0]
            legal = state.legal_actions(seat)
            if model and seat != me:
                # The other seat moves as the game's policy would with its sampled cards
                # (or, with model 2, as in the rollouts: at random with the noise's chance).
                if len(legal) == 1:
                    action = legal[0]
                elif model == 2 and self.rng.random() < self._noise(game):
                    action = self.rng.choice(legal)
                else:
                    action = game.rollout_action(state, seat, legal)
                state.apply(seat, action)
                child = node.children.get((seat, action))
                if child is None:
                    child = node.children[(seat, action)] = _Node()
                    path.append((child, seat))
                    break
                node = child
                path.append((node, seat))
                continue
            moves = [(seat, a) for a in legal]
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = untried[0] if len(untried) == 1 else self.rng.choice(untried)
                for m in moves:
                    if m in node.children:
                        node.children[m].avail += 1
                child = node.children[move] = _Node()
                state.apply(seat, move[1])
                path.append((child, seat))
                break
            move, node = self._select(node, moves, game)
            state.apply(seat, move[1])
            path.append((node, seat))
        rollout_hand(state, game, noise=self._noise(game), rng=self.rng, me=me)
        rewards = rival_rewards(game.rewards(state), self._rivalry(game), state)
        for visited, mover in path:
            visited.visits += 1
            visited.weight += weight
            visited.reward += weight * rewards[mover]

    def _rivalry(self, game: GameSearch) -> float:
        """How much the others' results count against a seat's (setting or game's)."""
        return self.rivalry if self.rivalry >= 0 else game.rivalry

    def _noise(self, game: GameSearch) -> float:
        """The chance that another seat's rollout move is random (setting or game's)."""
        return self.opponent_noise if self.opponent_noise >= 0 else game.opponent_noise

    def _select(self, node: _Node, moves: list[Move], game: GameSearch) -> tuple[Move, _Node]:
        """The available child with the best UCB1 score (availability counts)."""
        best: tuple[Move, _Node] | None = None
        best_score = -math.inf
        c = self.exploration if self.exploration >= 0 else game.exploration
        for move in moves:
            child = node.children[move]
            child.avail += 1
            score = child.mean() + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = (move, child), score
        assert best is not None
        return best
