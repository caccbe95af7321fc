"""What the compiled kernel reads, as typed objects: a hand's rules (:class:`KernelConfig`),
a hand in progress (:class:`KernelState`) and what one seat knows of the hidden cards
(:class:`WorldFacts`, with Pluck-style coupled splits as a :class:`SplitGraph`).

Each object goes to the C++ side in one place: the binding reads its fields by the names
of its field table (``_core.CONFIG_FIELDS``, ``STATE_FIELDS``, ``FACTS_FIELDS``,
``SPLIT_FIELDS``), which the tests check against these dataclasses, and checks every
value (types, seats, cards, lengths) before using it: a malformed object raises
``TypeError`` or ``ValueError``. :meth:`KernelConfig.build` makes the kernel's config;
states and facts are passed as they are to ``make_world``, ``playouts``, ``replay`` and
``estimate``.

The kernel's limits and codes (cards, seats, the bid code base, phase numbers) are read
from the compiled module by :func:`limits`, never restated here.

Cards are the engine's card ids (:mod:`tricktaker.cards`); a set of cards or seats is an
int mask (bit ``c`` for card ``c``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from tricktaker.kernel.native import available, native

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup
    from tricktaker.rules.ruleset import HandSpec

__all__ = [
    "CARD_PLAY",
    "KERNEL_CAPABILITY",
    "WHOLE_GAME",
    "KernelConfig",
    "KernelLimits",
    "KernelState",
    "KernelSupport",
    "KernelUnsupportedError",
    "PlayInference",
    "SplitGraph",
    "WorldFacts",
    "field_tables",
    "limits",
]


KERNEL_CAPABILITY = "kernel"
"""The name of the capability a hook game declares for the kernel (a :class:`KernelSupport`)."""


@dataclass(frozen=True, slots=True)
class KernelSupport:
    """What a hook game declares as its ``"kernel"`` capability (``GameHooks.capabilities``)
    for the compiled kernel to search it: ``card_play``, that the kernel plays its card
    phase (its other decisions stay with the Python search). The kernel then places the
    hidden cards by the game's determinizer's ``hidden_facts()`` and tables each hand's
    result with the game's own scoring (:mod:`tricktaker.kernel.results`); the Oh Hell
    family, which the kernel plays whole, declares nothing.

    ``whole``: that the kernel plays the game whole, bids and cards, as it plays the Oh
    Hell family: a game that keeps the engine's bids and the ruleset's scoring and whose
    hand is one the ruleset's data can make (Caller Clag, its hand made by the call that
    the observation shows).

    ``hand``: for a game played whole whose hands are not the ruleset's schedule, the
    observed hand's spec (its size, special rules and scoring) and whether the hook rule
    holds in it, as the game's hooks made them (Caller Clag's call); None: the hand is
    placed in the ruleset's schedule."""

    card_play: bool = True
    whole: bool = False
    hand: Callable[[Observation, Setup], tuple[HandSpec, bool]] | None = None


CARD_PLAY = KernelSupport()
"""The ``"kernel"`` capability of a hook game whose card play the kernel searches."""
WHOLE_GAME = KernelSupport(whole=True)
"""The ``"kernel"`` capability of a hook game that the kernel plays whole, as the Oh
Hell family (:attr:`KernelSupport.whole`)."""


class KernelUnsupportedError(ValueError):
    """The compiled kernel does not play this ruleset or this decision (the message says
    why); the search bots then use the Python search."""


@dataclass(frozen=True, slots=True)
class KernelLimits:
    """The compiled kernel's limits and codes, as its module exports them (each field is
    the module's constant of that name in capitals: ``cards`` is ``CARDS``)."""

    cards: int
    """Card ids 0..cards-1 (52 cards and two jokers)."""
    suit_classes: int
    """Effective suits 0..suit_classes-1: the four suits and a free joker's."""
    free_suit: int
    """The effective suit of a free joker (the engine's ``tables.FREE``)."""
    max_players: int
    max_hand_size: int
    bid_base: int
    """A move code below it is a card; ``bid_base + b`` is the bid ``b``."""
    outcome_bits: int
    """Bits per seat's tricks in an outcome key (:class:`ResultTable` ``outcomes``)."""
    max_outcome_tricks: int
    """The most tricks a hand tabled by every outcome may have."""
    score_limit: int
    """The largest score or trick points (either sign) a config may hold."""
    phase_bidding: int
    phase_playing: int
    phase_over: int


def _read_limits() -> KernelLimits | None:
    if not available():
        return None
    core = native()
    return KernelLimits(
        **{field.name: getattr(core, field.name.upper()) for field in fields(KernelLimits)}
    )


_LIMITS = _read_limits()
"""The compiled module's limits, read once as it is loaded (None when it is not built)."""


def limits() -> KernelLimits:
    """The compiled kernel's limits (:class:`KernelUnavailableError` when not built)."""
    if _LIMITS is None:
        native()  # raises KernelUnavailableError, saying why
        raise AssertionError("the kernel is loaded but its limits were not read")
    return _LIMITS


@dataclass(frozen=True, slots=True)
class KernelConfig:
    """One hand's rules as the kernel plays them, read from the ruleset and the engine's
    card tables (:func:`tricktaker.kernel.convert.hand_config` builds it)."""

    players: int
    hand_size: int
    trump: int
    """The trump suit 0-3, or -1 for none."""
    suit_of: tuple[int, ...]
    """Per card: its effective suit (0-3, or the free suit)."""
    rank_of: tuple[int, ...]
    key: tuple[int, ...]
    """Per card and led effective suit (``card * suit_classes + led``): its strength."""
    suit_masks: tuple[int, ...]
    """Per effective suit: its cards."""
    trump_mask: int
    deck_mask: int
    turn_up_mask: int
    follow_suit: bool
    must_trump: bool
    trump_lead_after_broken: bool
    misere: bool
    cooperative: bool
    hook: bool
    sum_equals_hand: bool
    simultaneous: bool
    min_bid: int
    no_zero_seats: int
    """Seats that may not bid 0 (a zero-bid streak), as a mask."""
    score: tuple[int, ...]
    """The hand score by bid and tricks: ``score[bid * (hand_size + 1) + tricks]``."""
    trick_points: tuple[int, ...]
    """Points for winning trick ``k`` (index ``k - 1``)."""
    reward_scale: float
    result_score: tuple[int, ...] = ()
    """A hook game's hand score per seat by its team's tricks (empty: the Oh Hell
    family's score), ``players * (hand_size + 1)`` entries."""
    result_reward: tuple[float, ...] = ()
    team: tuple[int, ...] = ()
    """Per seat: the seats whose tricks count with its own, as a mask."""
    outcome_keys: tuple[int, ...] = ()
    outcome_score: tuple[int, ...] = ()
    outcome_reward: tuple[float, ...] = ()
    active: int = 0
    """The seats that play the tricks, as a mask (0: every seat)."""
    opening_card: int = -1
    """The card that must open the first trick when held, or -1."""
    bid_value: tuple[float, ...] = ()
    """The learned bid model's worth of each card in tricks (one entry per card of the
    kernel, :mod:`tricktaker.bots.bid_model`), or empty: the rollout policy's bids then
    follow its formula."""

    def build(self) -> Any:
        """The kernel's config (an opaque handle for ``make_world``, ``playouts``,
        ``replay`` and ``estimate``); :class:`KernelUnsupportedError` for a hand the
        kernel does not play, ``ValueError``/``TypeError`` for a malformed one."""
        core = native()
        try:
            return core.make_config(self)
        except core.Unsupported as exc:
            raise KernelUnsupportedError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class KernelState:
    """A hand in progress: every seat's cards (a seat's own only, in a world's public
    state), bids (-1: none), tricks, trick points, the trick in progress as (seat, card)
    pairs, and whose turn it is."""

    hands: tuple[int, ...]
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    leader: int
    to_play: int
    tricks_done: int
    bid_count: int
    bid_sum: int
    """The sum of the positive bids made."""
    eldest: int
    phase: int
    """:attr:`KernelLimits.phase_bidding` or ``phase_playing``."""
    broken: bool
    first_bidder: int
    """Simultaneous bids: the seat that bids first (the searching seat), or -1."""


@dataclass(frozen=True, slots=True)
class SplitGraph:
    """Which unseen cards the first of two hidden seats holds (the second holds the
    rest), drawn as a game's determinizer draws them: per node its options, each a
    ``(weight, next node or -1, list)``; per list the card sets (masks) the first seat
    may take, one chosen uniformly (see the kernel's ``SplitSampler``)."""

    first: int
    second: int
    nodes: tuple[tuple[tuple[float, int, int], ...], ...]
    lists: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class WorldFacts:
    """What the searching seat ``me`` knows of the hidden cards, for the kernel's
    determinizer: the seats sampled (``hidden``), how many cards each holds beyond those
    known with it (``counts``), the effective suits each cannot hold (``voids``, a mask of
    suit classes), the cards each played this hand, the cards to place (``unknown``), the
    cards known with a seat (``fixed``), the seats whose hidden bids are guessed, and the
    bid model's card ``value`` (None: deals unweighted) with its ``weight_seats``,
    ``scale`` and ``floor``. With a ``split`` the two other seats' cards are drawn from
    it instead (``hidden`` then empty).

    ``plays`` and ``infer_noise``: the inference from the plays seen (off while
    ``infer_noise`` is 0). ``plays`` lists the hand's card plays so far in order, as
    (seat, card) pairs (every card of ``played``, or none); a deal's weight is then
    multiplied, for each other seat's play, by the play's chance under a soft rollout
    policy (the policy's card or one equivalent to it with the chance ``1 - infer_noise``,
    any legal card with the chance ``infer_noise``) times the seat's number of legal
    cards (so that a play that tells nothing counts 1). ``infer_pool`` above 0: a search
    draws that many deals once (at most its iterations), weighs them, and each iteration
    takes one of them in proportion to its weight (then counting 1); 0: each iteration
    weighs a fresh deal.

    ``random_prior`` and ``kind_noise``: the opponent kinds learned at the table (off
    while ``random_prior`` is empty, else one chance a seat, 0 for ``me``): the prior
    chance that each seat is a random player (every bid and card uniformly among the
    legal ones) rather than a policy player (the rollout policy softened by
    ``kind_noise``, as ``infer_noise`` softens it). A search weighs the two kinds by the
    likelihood of each seat's bid and plays this hand (``plays``) and draws every seat's
    kind from that posterior in each iteration: a random seat moves at random in the
    tree and the rollout, and its bid does not weigh the deal. ``kind_plays``: how much
    the plays tell of a seat's kind (their likelihood ratio raised to this power; 0: the
    kind is learned from the bid alone, the plays still weigh the deals)."""

    me: int
    hidden: tuple[int, ...]
    counts: tuple[int, ...]
    voids: tuple[int, ...]
    played: tuple[int, ...]
    unknown: int
    fixed: tuple[int, ...]
    guess_bids: tuple[int, ...] = ()
    split: SplitGraph | None = None
    value: tuple[float, ...] | None = None
    weight_seats: tuple[int, ...] = ()
    scale: float = 0.0
    floor: float = 0.0
    plays: tuple[tuple[int, int], ...] = ()
    infer_noise: float = 0.0
    infer_pool: int = 0
    random_prior: tuple[float, ...] = ()
    kind_noise: float = 0.5
    kind_plays: float = 1.0


@dataclass(frozen=True, slots=True)
class PlayInference:
    """How a kernel world weighs its deals by the plays seen this hand
    (:class:`WorldFacts` ``plays``): ``noise`` is its ``infer_noise`` (above 0), ``pool``
    its ``infer_pool``."""

    noise: float = 0.5
    pool: int = 0

    def facts(self, facts: WorldFacts, plays: tuple[tuple[int, int], ...]) -> WorldFacts:
        """``facts`` with the plays seen and this inference."""
        return replace(facts, plays=plays, infer_noise=self.noise, infer_pool=self.pool)


def field_tables() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Per typed object: its dataclass's field names and the names the compiled module
    reads (they must be the same, in the same order)."""
    core = native()
    pairs: tuple[tuple[type, str], ...] = (
        (KernelConfig, "CONFIG_FIELDS"),
        (KernelState, "STATE_FIELDS"),
        (WorldFacts, "FACTS_FIELDS"),
        (SplitGraph, "SPLIT_FIELDS"),
    )
    return {
        cls.__name__: (tuple(f.name for f in fields(cls)), tuple(getattr(core, table)))
        for cls, table in pairs
    }
