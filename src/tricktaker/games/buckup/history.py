"""The public history of a Buckup hand as one seat sees it (docs/games/buckup.md), for
the determinizer (:mod:`tricktaker.games.buckup.sampler`): the order of the decisions,
how many cards each player threw and drew, the stocks they drew from, and the strength
model that the rollout policy and the sampler's weights share.

**What a seat knows**. Its own dealt cards, its discards and the cards it drew
(``discarded`` and ``drew`` in its observation), the turn-up, the scare cards and whose
were thrown away, every card played and the voids shown by failing to follow suit (no
obligation to trump, so nothing else shows), the chips, the statuses and the payments.
The payments and statuses give the public order of the decisions and how many cards each
player threw and drew: a draw fee is the card fee times the cards kept (or drawn); no
draw fee means none kept (drawn); without a card fee the observation gives the counts.
The order is found by replaying candidate decisions on a dummy deal until the statuses,
the payments, the phase and the seat to act are the observed ones
(:func:`public_script`; where several orders leave the same chips and statuses, as
staying at once or coming back after going out for now can, the first found is used:
they draw in the same order unless a player drew five cards for no fee in an out-for-now
round). From the counts the stock's history follows: the first stock (the cards left
after the deal and the turn-up), then each new stock shuffled from the discards of the
players who drew since the last one (a drawing player's own discards are set aside),
each player drawing from the top (:class:`Flow`).

**Strength** (:func:`hand_strength`, :func:`strength_needed`): the expected tricks of a
hand once its throwaways (:func:`throwaways`, the side cards below a king) are replaced
from the stock, against about two tricks needed to stay in.
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktaker.cards import cards_of, parse_card
from tricktaker.engine.actions import Action
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import hand_start as engine_hand_start
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.games.buckup.hooks import (
    A_DRAW,
    ANTE_ACTION,
    COME_BACK,
    CONCEDE,
    DISCARD,
    FOLD,
    FULL_HAND,
    IN,
    OFN,
    OUT,
    OUT_FOR_NOW,
    STAY,
    BuckupData,
)
from tricktaker.games.buckup.money import Ledger
from tricktaker.games.buckup.policy import estimate_tricks

__all__ = [
    "DECISIONS",
    "Draw",
    "Flow",
    "Step",
    "ante_action",
    "dealt_size",
    "hand_start",
    "hand_strength",
    "public_script",
    "strength_needed",
    "throwaways",
]

KING = 11
PILE = -2
"""Where the discards of a player who drew lie until a new stock is made of them."""
"""The rank index of a king (ranks run 2 to ace, 0 to 12)."""
DECISIONS = ("stay_or_fold", "come_back", "dealer_choice")
"""The phases in which a seat stays, folds, comes back or concedes."""


# ------------------------------------------------------------- public script


@dataclass(frozen=True, slots=True)
class Step:
    """One public decision of the hand: ``seat`` takes ``action``; after a stay or a
    come-back, ``discards`` cards are thrown and the cards drawn (``drawing`` False: the
    seat is still discarding; ``discards`` is then None when it is not the observer, as
    nobody sees how many cards another player has thrown before the draw). ``need``: the
    strength the rollout policy needs to stay in (or come back) at that moment, None
    when the seat had no choice (for the sampler's weights,
    :meth:`~tricktaker.games.buckup.sampler.BuckupDeterminizer.weight`)."""

    seat: int
    action: Action
    discards: int | None = None
    drawing: bool = True
    need: float | None = None


def hand_start(obs: Observation, setup: Setup) -> GameState:
    """The game at the start of the observed hand, before the ante: the stacks and pot
    of then (the observed ones less this hand's payments), the public scores, dealer
    and history (as the seat sees them)."""
    n = obs.players
    state = engine_hand_start(obs)
    paid = [0] * n
    for payment in obs.extra.get("payments") or ():
        paid[int(payment["seat"])] += int(payment["amount"])
    stacks = [int(x) + p for x, p in zip(obs.extra["stacks"], paid, strict=True)]
    pot = int(obs.extra["pot"]) - sum(paid)
    data = state.ext
    assert isinstance(data, BuckupData)
    data.ledger = Ledger(stacks=stacks, pot=pot)
    data.start_stacks = list(stacks)
    data.pot_before = pot
    return state


def ante_action(obs: Observation) -> Action:
    """The dealer's ante as the observation shows it."""
    ante = obs.extra["ante"]
    fee_per = str(ante["fee_per"])
    settings = obs.rules.hook_settings
    no_fee = int(ante["fold_fee"]) == 0 and int(getattr(settings, "fold_fee", 0)) != 0
    return Action(ANTE_ACTION, f"{fee_per}_no_fold_fee" if no_fee else fee_per)


def dealt_size(obs: Observation) -> int:
    return 4 if getattr(obs.rules.hook_settings, "four_card_deal", False) else FULL_HAND


def _dummy_order(state: GameState, obs: Observation) -> tuple[int, ...]:
    """A deal with the real turn-up and scare cards whose hands never allow the 19
    redeal (each holds a card above nine): for finding the order of the decisions."""
    n, size = obs.players, dealt_size(obs)
    scare = obs.extra.get("scare_cards") or [None] * n
    hands: list[list[int]] = [[parse_card(c)] if c is not None else [] for c in scare]
    used = {c for h in hands for c in h}
    assert obs.turn_up is not None
    used.add(obs.turn_up)
    rest = sorted((c for c in state.setup.deck if c not in used), key=lambda c: -(c % 13))
    for seat in [s for _ in range(size) for s in range(n)]:
        if len(hands[seat]) < size:
            hands[seat].append(rest.pop(0))
    return state.deck_order_for(hands, turn_up=obs.turn_up)


def _discards_for(obs: Observation, seat: int, next_payment: tuple[int, int, str] | None) -> int:
    """How many cards ``seat`` threw before drawing, from its draw fee (the next payment)
    or, without a card fee, from the counts the observation gives."""
    size = dealt_size(obs)
    ante = obs.extra["ante"]
    card_fee = int(ante["card_fee"])
    if card_fee == 0:
        return int(obs.extra["drawn"][seat]) - (FULL_HAND - size)
    fee = 0
    if next_payment is not None and next_payment[0] == seat and next_payment[2] == "draw_fee":
        fee = next_payment[1]
    if ante["fee_per"] == "kept":
        return size - fee // card_fee
    return fee // card_fee - (FULL_HAND - size)


_FINAL = {
    STAY: (IN,),
    COME_BACK: (IN,),
    FOLD: (OUT,),
    CONCEDE: (OUT,),
    OUT_FOR_NOW: (OUT, OFN, IN),
}
"""The statuses a seat can show later after each decision."""


def public_script(obs: Observation, base: GameState | None = None) -> list[Step]:
    """The hand's public decisions so far, in order, with each player's number of
    discards: the only sequence (or one of several the observation cannot tell apart)
    that leads to the observed statuses, payments, phase and seat to act.

    Candidates are replayed on a copy of ``base`` (the hand's start) with a dummy deal.
    """
    if obs.phase in ("ante", "redeal"):
        return []
    setup = Setup.of(obs.rules, obs.players)
    state = (base or hand_start(obs, setup)).clone()
    state.apply(state.dealer, ante_action(obs))
    state.apply_chance(ChanceOutcome("deal", _dummy_order(state, obs)))
    target = [(int(p["seat"]), int(p["amount"]), str(p["reason"])) for p in obs.extra["payments"]]
    status = list(obs.extra["status"])
    me = obs.seat
    mine = len(obs.extra.get("discarded") or ())

    def paid(st: GameState) -> list[tuple[int, int, str]]:
        data = st.ext
        assert isinstance(data, BuckupData)
        return [(p.seat, p.amount, p.reason) for p in data.ledger.payments]

    def done(st: GameState) -> bool:
        data = st.ext
        assert isinstance(data, BuckupData)
        return (
            st.phase_name == obs.phase
            and (obs.phase == "playing" or st.to_act() == obs.to_act)
            and data.status == status
            and paid(st) == target
        )

    def search(st: GameState, script: list[Step]) -> list[Step] | None:
        pays = paid(st)
        if pays != target[: len(pays)]:
            return None
        if done(st):
            return script
        if st.phase_name not in DECISIONS:
            return None
        seat = st.to_act()[0]
        legal = st.legal_actions(seat)
        need = strength_needed(st, seat, {a.kind for a in legal}) if len(legal) > 1 else None
        for action in legal:
            if status[seat] not in _FINAL[action.kind]:
                continue
            child = st.clone()
            child.apply(seat, action)
            step = Step(seat, action, need=need)
            if child.phase_name == "discard":
                # A seat draws once a hand: the one discarding now is still at it.
                in_progress = obs.phase == "discard" and obs.to_act == (seat,)
                count: int | None
                if seat == me:
                    count = mine
                elif in_progress:  # how many it has thrown so far is not shown
                    count = None
                else:
                    upcoming = target[len(paid(child))] if len(paid(child)) < len(target) else None
                    count = _discards_for(obs, seat, upcoming)
                if count is not None and not 0 <= count <= child.hands[seat].bit_count():
                    continue
                for card in cards_of(child.hands[seat])[: count or 0]:
                    child.apply(seat, Action(DISCARD, card))
                if not in_progress:
                    child.apply(seat, A_DRAW)
                    while child.is_chance():
                        child.apply_chance()
                step = Step(seat, action, count, not in_progress, need)
            found = search(child, [*script, step])
            if found is not None:
                return found
        return None

    found = search(state, [])
    if found is None:
        raise ValueError("no sequence of decisions explains the observation")
    return found


# ---------------------------------------------------------------- the stocks


@dataclass(frozen=True, slots=True)
class Draw:
    """A completed draw: ``parts`` are (stock, cards) taken in turn; stock 0 is the
    first stock, stock k the k-th one shuffled from discards."""

    seat: int
    discards: int
    parts: tuple[tuple[int, int], ...]


class Flow:
    """Where the cards of the draws came from, from the public counts (docs/games/buckup.md,
    Discard and draw: when the stock runs out, the discards make a new stock)."""

    def __init__(self, script: list[Step], first_stock: int, extra: int) -> None:
        """``extra``: cards drawn beyond those thrown (1 with 4-card deals, else 0)."""
        self.draws: list[Draw] = []
        self.throwers: list[list[tuple[int, int]]] = [[]]
        """Per stock: the players whose discards it was made of, and how many."""
        self.pile_of: dict[int, int] = {}
        """Per player who drew: the stock its discards went into (PILE: not yet)."""
        pile: list[tuple[int, int]] = []
        stock, left = 0, first_stock
        for step in script:
            if step.discards is None or not step.drawing:
                continue
            pending = step.discards + extra
            parts: list[tuple[int, int]] = []
            while pending:
                if not left:
                    stock += 1
                    self.throwers.append(pile)
                    for thrower, _ in pile:
                        self.pile_of[thrower] = stock
                    left, pile = sum(count for _, count in pile), []
                    if not left:
                        raise ValueError("the stock and the discards are both empty")
                take = min(pending, left)
                parts.append((stock, take))
                left -= take
                pending -= take
            pile.append((step.seat, step.discards))
            self.pile_of[step.seat] = PILE
            self.draws.append(Draw(step.seat, step.discards, tuple(parts)))
        self.stock = stock
        """The stock in use now."""
        self.left = left
        """Cards left in it."""
        self.pile = pile
        """The players whose discards are in the discard pile now, and how many."""


# ----------------------------------------------------------------- strength

_DRAW_GAIN = 0.15
"""Tricks gained on average per card drawn (as the heuristic bot reckons)."""


def _data(state: GameState) -> BuckupData:
    data = state.ext
    assert isinstance(data, BuckupData)
    return data


_BELOW_KING = sum(1 << card for card in range(54) if card % 13 < KING)
"""The cards of every suit (and the jokers' ids) below a king."""
_SUIT_CARDS = tuple(sum(1 << card for card in range(54) if card // 13 == suit) for suit in range(5))
"""The card ids of each suit by ``id // 13`` (the fifth: the jokers' ids)."""
_RANK = tuple(card % 13 for card in range(54))
"""Each card id's rank, the order of :func:`throwaways`."""


def throwaways(hand: int, trump: int | None) -> list[int]:
    """The cards worth throwing: side cards below a king, lowest first (of a rank, the
    lowest card id first).

    >>> from tricktaker.cards import card_set, format_card
    >>> [format_card(c) for c in throwaways(card_set("KS 9H 2D 9C AH".split()), trump=2)]
    ['2D', '9C']
    """
    side = hand & _BELOW_KING
    if trump is not None and 0 <= trump < len(_SUIT_CARDS):
        side &= ~_SUIT_CARDS[trump]
    return sorted(cards_of(side), key=_RANK.__getitem__)


def hand_strength(hand: int, trump: int | None) -> float:
    """Expected tricks once the throwaways are replaced from the stock."""
    drawn = len(throwaways(hand, trump)) + max(0, FULL_HAND - hand.bit_count())
    return estimate_tricks(hand, trump) + _DRAW_GAIN * drawn


def strength_needed(state: GameState, seat: int, kinds: set[str]) -> float:
    """The strength (:func:`hand_strength`) a seat needs to stay in, or to come back when
    ``kinds`` offers that: about two tricks in sight, a little more for each further
    player in, less when the pot is small against the fold fee; less to come back."""
    if CONCEDE in kinds:
        return 1.3
    if COME_BACK in kinds:
        return 1.5
    data = _data(state)
    ante = data.ante
    unit = max(ante.ante, ante.fold_fee, 1) if ante is not None else 5
    others = sum(1 for s, st in enumerate(data.status) if st == IN and s != seat)
    need = 1.8 + 0.1 * max(0, others - 1)
    return min(need, 1.0) if data.pot <= 3 * unit else need
