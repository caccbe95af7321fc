"""Seat tricktaker bots inside OpenSpiel's ``oh_hell``: one seat's view as an Observation.

:class:`OhHellAdapter` turns an OpenSpiel ``oh_hell(players=4, num_tricks_fixed=12)`` state
into the :class:`~tricktaker.engine.observation.Observation` of one seat, and a tricktaker
:class:`~tricktaker.engine.actions.Action` back into an OpenSpiel action id.

It reads only what that seat may know. The one source of game information is
``state.information_state_tensor(seat)``, OpenSpiel's own encoding of the seat's
information state (number of tricks, dealer, trump card, the seat's dealt and current
cards, every bid, tricks won, and every card played with who played it). Besides that it
asks whose turn it is (``current_player()``) and, on the seat's own turn, its legal
actions (which follow from its own hand and the cards on the table). It never calls
``history()``, ``str(state)``, another seat's information state or anything else that
shows hidden cards; ``tests/test_openspiel_adapter.py`` checks this with a guard object
that lets only those calls through.

The mapping (OpenSpiel ``open_spiel/games/oh_hell.cc``):

* Cards: OpenSpiel card ``c`` has rank ``c // 4`` (0 = two .. 12 = ace) and suit
  ``c % 4`` in the order clubs, diamonds, spades, hearts; tricktaker's card is
  ``suit * 13 + rank`` with suits clubs, diamonds, hearts, spades.
* Bids: action ``52 + b`` bids ``b`` (0..12).
* Chance: the number of tricks (fixed 12), the dealer (uniform over the seats), 48 cards
  dealt to seats 0, 1, 2, 3, 0, ... (seat 0 always gets the first card, whoever deals),
  then the trump card turned up from the rest; its suit is trump for the hand.
* Seat order: seat ``dealer + 1`` bids first and leads the first trick; bidding and play
  go round by increasing seat number; a trick's winner leads the next. The dealer bids
  last and may not make the bids total 12 (the hook). Players follow suit when they can,
  otherwise play anything; the highest trump, else the highest card of the led suit wins.
* Score (``off_bid_penalty=False, points_per_trick=1``): 1 per trick plus 10 if the bid
  is exact.

That is Blackout cut to one 12-card hand with the hook: ``bench/openspiel_oh_hell.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from pathlib import Path
from typing import Any, Final, Protocol

from tricktaker import Ruleset, load_ruleset
from tricktaker.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from tricktaker.engine.actions import BID, PLAY, Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.tables import build_tables

RULESET_PATH: Final = Path(__file__).resolve().parent / "openspiel_oh_hell.toml"
OPENSPIEL_GAME: Final = "oh_hell"
PLAYERS: Final = 4
HAND_SIZE: Final = 12
OPENSPIEL_PARAMS: Final[dict[str, int]] = {"players": PLAYERS, "num_tricks_fixed": HAND_SIZE}
EXPECTED_PARAMS: Final[dict[str, object]] = {
    "players": PLAYERS,
    "num_tricks_fixed": HAND_SIZE,
    "num_suits": 4,
    "num_cards_per_suit": 13,
    "off_bid_penalty": False,
    "points_per_trick": 1,
}
NUM_CARDS: Final = 52
BID_OFFSET: Final = NUM_CARDS
"""OpenSpiel's bid actions are ``52 + bid``."""
EXACT_BONUS: Final = 10

OPENSPIEL_SUITS: Final = (CLUBS, DIAMONDS, SPADES, HEARTS)
"""tricktaker suit of each OpenSpiel suit index (OpenSpiel orders them C, D, S, H)."""
_TO_OPENSPIEL_SUIT: Final = tuple(OPENSPIEL_SUITS.index(s) for s in range(4))

# Layout of oh_hell's information state tensor (4 players, 52 cards, at most 12 tricks).
_MAX_TRICKS: Final = (NUM_CARDS - 1) // PLAYERS
_DEALER_AT: Final = _MAX_TRICKS
_TRUMP_AT: Final = _DEALER_AT + PLAYERS
_INITIAL_HAND_AT: Final = _TRUMP_AT + NUM_CARDS
_HAND_AT: Final = _INITIAL_HAND_AT + NUM_CARDS
_BIDS_AT: Final = _HAND_AT + NUM_CARDS
_BID_SLOTS: Final = _MAX_TRICKS + 2
_WON_AT: Final = _BIDS_AT + PLAYERS * _BID_SLOTS
_TRICKS_AT: Final = _WON_AT + PLAYERS * _MAX_TRICKS
_TRICK_SLOTS: Final = 2 * PLAYERS - 1
_TRICK_BLOCK: Final = _TRICK_SLOTS * NUM_CARDS
TENSOR_SIZE: Final = _TRICKS_AT + _MAX_TRICKS * _TRICK_BLOCK


def card_from_openspiel(card: int) -> int:
    """The tricktaker card id of OpenSpiel card ``card``.

    >>> from tricktaker.cards import format_card
    >>> [format_card(card_from_openspiel(c)) for c in (0, 2, 3, 51)]
    ['2C', '2S', '2H', 'AH']
    """
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"{card} is not an OpenSpiel card (0..51)")
    return OPENSPIEL_SUITS[card % 4] * 13 + card // 4


def card_to_openspiel(card: int) -> int:
    """The OpenSpiel card id of tricktaker card ``card`` (standard cards only).

    >>> all(card_to_openspiel(card_from_openspiel(c)) == c for c in range(52))
    True
    """
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"{card} is not a standard card (0..51)")
    return (card % 13) * 4 + _TO_OPENSPIEL_SUIT[card // 13]


def action_from_openspiel(action: int) -> Action:
    """The tricktaker action of an OpenSpiel bid or card-play action id."""
    if BID_OFFSET <= action <= BID_OFFSET + HAND_SIZE:
        return Action(BID, action - BID_OFFSET)
    return Action(PLAY, card_from_openspiel(action))


def action_to_openspiel(action: Action) -> int:
    """The OpenSpiel action id of a tricktaker bid or play."""
    if action.kind == BID and isinstance(action.value, int):
        if not 0 <= action.value <= HAND_SIZE:
            raise ValueError(f"no bid {action.value} in a hand of {HAND_SIZE}")
        return BID_OFFSET + action.value
    if action.kind == PLAY and isinstance(action.value, int):
        return card_to_openspiel(action.value)
    raise ValueError(f"{action} has no OpenSpiel oh_hell counterpart")


def _action_order(action: Action) -> tuple[int, int]:
    value = action.value
    return (0 if action.kind == BID else 1, value if isinstance(value, int) else 0)


class SeatView(Protocol):
    """The part of a ``pyspiel.State`` the adapter uses; nothing else is ever read."""

    def information_state_tensor(self, player: int) -> Sequence[float]: ...

    def current_player(self) -> int: ...

    def legal_actions(self, player: int) -> Sequence[int]: ...


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat's information state, decoded from OpenSpiel's tensor (tricktaker cards)."""

    dealer: int
    turn_up: int
    hand: int
    """Cards the seat holds now, as a bitset."""
    dealt: int
    """Cards the seat was dealt, as a bitset."""
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    plays: tuple[tuple[tuple[int, int], ...], ...]
    """Every trick begun, in order, as ``(seat, card)`` pairs in the order played."""


def decode_tensor(tensor: Sequence[float]) -> SeatInfo:
    """Read oh_hell's information state tensor (4 players, the full deck, 12 tricks)."""
    if len(tensor) != TENSOR_SIZE:
        raise ValueError(f"expected an oh_hell information state of {TENSOR_SIZE} values")
    ones = list(compress(range(TENSOR_SIZE), tensor))
    if not ones or ones[0] != HAND_SIZE - 1:
        raise ValueError("not a 12-trick oh_hell information state in the bidding or play")
    dealer = -1
    turn_up = -1
    hand = dealt = 0
    bids: list[int | None] = [None] * PLAYERS
    won = [0] * PLAYERS
    tricks: list[list[tuple[int, int]]] = []
    for i in ones[1:]:
        if i < _TRUMP_AT:
            dealer = i - _DEALER_AT
        elif i < _INITIAL_HAND_AT:
            turn_up = card_from_openspiel(i - _TRUMP_AT)
        elif i < _HAND_AT:
            dealt |= 1 << card_from_openspiel(i - _INITIAL_HAND_AT)
        elif i < _BIDS_AT:
            hand |= 1 << card_from_openspiel(i - _HAND_AT)
        elif i < _WON_AT:
            player, slot = divmod(i - _BIDS_AT, _BID_SLOTS)
            bids[player] = slot - 1 if slot else None
        elif i < _TRICKS_AT:
            won[(i - _WON_AT) // _MAX_TRICKS] += 1
        else:
            number, rest = divmod(i - _TRICKS_AT, _TRICK_BLOCK)
            slot, card = divmod(rest, NUM_CARDS)
            while len(tricks) <= number:
                tricks.append([])
            # Slot k of a trick holds the card of seat k % players; the leader's is first.
            tricks[number].append((slot % PLAYERS, card_from_openspiel(card)))
    if dealer < 0 or turn_up < 0:
        raise ValueError("the information state has no dealer or trump card")
    return SeatInfo(
        dealer=dealer,
        turn_up=turn_up,
        hand=hand,
        dealt=dealt,
        bids=tuple(bids),
        tricks_won=tuple(won),
        plays=tuple(tuple(trick) for trick in tricks),
    )


def check_game(game: Any) -> None:
    """Raise unless ``game`` is the OpenSpiel game the adapter was built for."""
    name = game.get_type().short_name
    params = dict(game.get_parameters())
    if name != OPENSPIEL_GAME:
        raise ValueError(f"the adapter plays {OPENSPIEL_GAME!r}, not {name!r}")
    wrong = {k: params.get(k) for k, v in EXPECTED_PARAMS.items() if params.get(k) != v}
    if wrong:
        raise ValueError(f"the adapter needs oh_hell with {EXPECTED_PARAMS}; got {wrong}")


def load_rules() -> Ruleset:
    """The tricktaker ruleset equal to OpenSpiel's game (``openspiel_oh_hell.toml``)."""
    rules = load_ruleset(RULESET_PATH)
    sizes = [hand.hand_size for hand in rules.hands_for(PLAYERS)]
    if sizes != [HAND_SIZE] or not rules.spec.bidding.hook:
        raise RuntimeError(f"{RULESET_PATH}: expected one hand of {HAND_SIZE} with the hook")
    return rules


class OhHellAdapter:
    """Observations of OpenSpiel ``oh_hell`` states for tricktaker bots, and actions back.

    >>> adapter = OhHellAdapter()
    >>> adapter.rules.id
    'openspiel_oh_hell'
    """

    def __init__(self, rules: Ruleset | None = None) -> None:
        self.rules = rules if rules is not None else load_rules()
        self.hook = self.rules.spec.bidding.hook

    def observe(self, state: SeatView, seat: int) -> Observation:
        """What ``seat`` may know in ``state`` (a decision node: bidding or play)."""
        if not 0 <= seat < PLAYERS:
            raise ValueError(f"there is no seat {seat} in a {PLAYERS}-player game")
        info = decode_tensor(state.information_state_tensor(seat))
        to_play = state.current_player()
        if not 0 <= to_play < PLAYERS:
            raise ValueError("the adapter observes decision nodes only")
        trump = info.turn_up // 13
        tables = build_tables(trump=trump, jokers_as_trump=False)
        eldest = (info.dealer + 1) % PLAYERS
        done: list[tuple[tuple[int, int], ...]] = []
        current: tuple[tuple[int, int], ...] = ()
        winners: list[int] = []
        trump_broken = False
        for trick in info.plays:
            trump_broken = trump_broken or any(tables.suit_of[c] == trump for _, c in trick)
            if len(trick) == PLAYERS:
                done.append(trick)
                winners.append(tables.winner(list(trick)))
            else:
                current = trick
        won = [0] * PLAYERS
        for winner in winners:
            won[winner] += 1
        if current:
            leader = current[0][0]
        elif winners:
            leader = winners[-1]
        else:
            leader = eldest
        bidding = any(b is None for b in info.bids)
        legal: tuple[Action, ...] = ()
        if to_play == seat:
            legal = tuple(
                sorted(
                    (action_from_openspiel(a) for a in state.legal_actions(seat)),
                    key=_action_order,
                )
            )
        return Observation(
            seat=seat,
            players=PLAYERS,
            rules=self.rules,
            phase="bidding" if bidding else "playing",
            hand_number=1,
            hands_in_game=1,
            hands_played=0,
            hand_size=HAND_SIZE,
            dealer=info.dealer,
            special=None,
            call=None,
            trump=trump,
            trump_known=True,
            turn_up=info.turn_up,
            hand=info.hand,
            cards_in_hand=info.hand.bit_count(),
            bids=info.bids,
            bid_made=tuple(b is not None for b in info.bids),
            hook=self.hook,
            misere=False,
            pile=False,
            tricks_won=tuple(won),
            current_trick=current,
            leader=leader,
            tricks=tuple(done),
            trick_winners=tuple(winners),
            trump_broken=trump_broken,
            scores=(0,) * PLAYERS,
            to_act=(to_play,),
            legal_actions=legal,
            cooperative=False,
            history=(),
            tables=tables,
        )

    @staticmethod
    def to_openspiel(action: Action) -> int:
        """The OpenSpiel action id of a bot's action."""
        return action_to_openspiel(action)

    @staticmethod
    def from_openspiel(action: int) -> Action:
        """The tricktaker action of an OpenSpiel bid or play."""
        return action_from_openspiel(action)
