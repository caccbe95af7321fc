"""Buckup (docs/games/buckup.md): antes into a pot that rolls over until won, stay or fold,
a draw, five tricks, and burns that match the pot.

A hand, with its actions (every seat's decision is one action):

1. **Ante**: the dealer names the ante structure, ``ante kept`` (the default 5/5/5:
   ante, fold fee, fee per card *kept*), ``ante drawn`` (fee per card *drawn*),
   ``ante kept_no_fold_fee`` or ``ante drawn_no_fold_fee``; everyone antes at once.
2. **Deal** (a chance step): 5 cards each (4 with the ``four_card_deal`` option)
   clockwise from the dealer's left; the next card is turned up and its suit is trump.
   The turn-up stays face up beside the stock: it is never drawn.
3. **19 redeal**: in turn from the dealer's left, each player whose five cards are all
   9 or lower and total 19 or less (an ace counts high, so it never qualifies) may
   ``redeal`` (the same hand is dealt again from a new shuffle; same pot, no new ante)
   or ``keep``. Not with 4-card deals.
4. **Stay or fold**, in turn from the dealer's left: ``stay``, ``fold`` (paying the
   fold fee) or, with the ``out_for_now`` option, ``out_for_now``. A player who stays
   at once discards, one card at a time (``discard CARD``), then says ``draw``: they
   pay the draw fee and draw back to five from the stock (a ``draw`` chance step: the
   cards drawn). When the stock runs out, the discards of the players who drew before
   are shuffled into a new stock (a ``restock`` chance step); the drawing player's own
   discards are set aside until they have drawn, so nobody draws their own discards.
   Folded hands stay with their players (never discards).
5. **Only one player in**. Dealer's obligation (the default): when the dealer's turn
   comes with exactly one other player in, the dealer must stay; with nobody in, the
   dealer takes the pot without play. With ``out_for_now``: when exactly one player is
   in and the dealer goes ``out_for_now``, each player out for now, in turn from the
   dealer's left, may ``come_back`` (and draw) or ``fold``; if anyone comes back the
   dealer is out; if nobody does the dealer chooses ``come_back`` or ``concede`` (the
   single player takes the pot uncontested). Players still out for now when the
   decisions end are out and pay the fold fee then.
6. **Play**: the first player in left of the dealer leads; follow suit if able, else
   any card; five tricks. Then the settlement (:func:`settlement`).

The game runs ``hands`` hands (default 20), extended until the pot is empty, and stops
after ``max_hands`` (default 200) whatever the pot.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from tricktaker.cards import cards_of, format_card
from tricktaker.engine.actions import Action
from tricktaker.engine.base import DEAL, HOOK, ChanceOutcome, mix_seed
from tricktaker.engine.hooks import GameHooks, HandScore, register_hooks
from tricktaker.games.buckup.money import (
    ANTE,
    ANTE_CHOICES,
    DRAW_FEE,
    FOLD_FEE,
    UNCONTESTED,
    AnteStructure,
    BuckupSettings,
    Ledger,
    settlement,
)
from tricktaker.games.buckup.view import BuckupView
from tricktaker.games.declared import card_play_capabilities, own_data, register_action_kinds
from tricktaker.rules.ruleset import RulesetError

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.state import GameState

__all__ = [
    "ANTE_ACTION",
    "BuckupData",
    "BuckupHooks",
    "BuckupSettings",
    "is_nineteen_hand",
]

ANTE_ACTION = "ante"
REDEAL = "redeal"
KEEP = "keep"
STAY = "stay"
FOLD = "fold"
OUT_FOR_NOW = "out_for_now"
COME_BACK = "come_back"
CONCEDE = "concede"
DISCARD = "discard"
DRAW = "draw"
BARE_ACTIONS = (REDEAL, KEEP, STAY, FOLD, OUT_FOR_NOW, COME_BACK, CONCEDE, DRAW)
"""Buckup's actions without a value, in the order the encoding indexes them."""
register_action_kinds({ANTE_ACTION: "str", **dict.fromkeys(BARE_ACTIONS, "none"), DISCARD: "card"})

# Seat status, as shown in observations.
UNDECIDED, IN, OUT, OFN = "undecided", "in", "out", "out_for_now"
SEAT_STATUSES = (UNDECIDED, IN, OUT, OFN)
"""Every status of a seat in the hand, in the order of the encoding's field ``status``."""

# Stages of a hand (the hook's phases).
S_ANTE, S_REDEAL, S_DECIDE, S_DISCARD, S_DRAW = "ante", "redeal", "decide", "discard", "draw"
S_DEALER, S_DEALING, S_PLAY = "dealer_choice", "dealing", "play"

# Rounds of decisions.
R_STAY, R_COMEBACK, R_DEALER = "stay", "comeback", "dealer"

FULL_HAND = 5
"""Cards held after the draw (and tricks in a hand)."""

RULE_ANTE = "Buckup: ante"
RULE_REDEAL = "Buckup: 19 redeal"
RULE_STAY = "Buckup: stay or fold"
RULE_DRAW = "Buckup: discard and draw"
RULE_OBLIGATION = "Buckup: dealer's obligation"
RULE_OFN = "Buckup: out for now"
RULE_SCARE = "Buckup: scare cards"

ANTE_ACTIONS = tuple(Action(ANTE_ACTION, choice) for choice in ANTE_CHOICES)
A_REDEAL, A_KEEP = Action(REDEAL), Action(KEEP)
A_STAY, A_FOLD, A_OFN = Action(STAY), Action(FOLD), Action(OUT_FOR_NOW)
A_COME_BACK, A_CONCEDE, A_DRAW = Action(COME_BACK), Action(CONCEDE), Action(DRAW)
DISCARD_ACTIONS = tuple(Action(DISCARD, card) for card in range(54))
"""The discards by card id, made once (a drawing player's are listed from them)."""


def is_nineteen_hand(cards: list[int]) -> bool:
    """Whether a five-card hand allows the 19 redeal: every card 9 or lower, total 19 or
    less (cards count their face value; an ace is high and never qualifies).

    >>> from tricktaker.cards import parse_card
    >>> is_nineteen_hand([parse_card(c) for c in "2C 3D 4H 5S 5C".split()])
    True
    >>> is_nineteen_hand([parse_card(c) for c in "2C 3D 4H 5S 6C".split()])
    False
    >>> is_nineteen_hand([parse_card(c) for c in "2C 2D 2H 3S AC".split()])
    False
    """
    if len(cards) != FULL_HAND:
        return False
    values = [card % 13 + 2 for card in cards]
    return max(values) <= 9 and sum(values) <= 19


@dataclass(slots=True)
class BuckupData:
    """Buckup's changing data, kept in ``state.ext``: chips, and the hand in progress."""

    ledger: Ledger
    start_stacks: list[int]
    pot_before: int = 0
    ante: AnteStructure | None = None
    stage: str = S_ANTE
    round: str = R_STAY
    status: list[str] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)
    """Seats still to decide in the current round of decisions, in turn."""
    drawer: int = -1
    setting_aside: list[int] = field(default_factory=list)
    """The drawing player's own discards, kept apart until they have drawn."""
    pending: int = 0
    stock: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    restocks: int = 0
    drawn: list[int] = field(default_factory=list)
    scare: list[int | None] = field(default_factory=list)
    came_back: bool = False
    pot_settled: int = 0
    winners: list[int] = field(default_factory=list)
    burned: list[int] = field(default_factory=list)

    def copy(self) -> BuckupData:
        return BuckupData(
            ledger=self.ledger.copy(),
            start_stacks=list(self.start_stacks),
            pot_before=self.pot_before,
            ante=self.ante,
            stage=self.stage,
            round=self.round,
            status=list(self.status),
            queue=list(self.queue),
            drawer=self.drawer,
            setting_aside=list(self.setting_aside),
            pending=self.pending,
            stock=list(self.stock),
            discards=list(self.discards),
            restocks=self.restocks,
            drawn=list(self.drawn),
            scare=list(self.scare),
            came_back=self.came_back,
            pot_settled=self.pot_settled,
            winners=list(self.winners),
            burned=list(self.burned),
        )

    @property
    def stacks(self) -> list[int]:
        return self.ledger.stacks

    @property
    def pot(self) -> int:
        return self.ledger.pot


@register_hooks
class BuckupHooks(GameHooks):
    """The ante, the redeal, stay or fold with the draw, and the pot of a Buckup hand."""

    name = "buckup"
    settings_model = BuckupSettings
    capabilities: ClassVar[dict[str, str]] = card_play_capabilities("tricktaker.games.buckup")

    # ------------------------------------------------------------ helpers

    def _settings(self, state: GameState) -> BuckupSettings:
        settings = state.rules.hook_settings
        assert isinstance(settings, BuckupSettings)
        return settings

    def _data(self, state: GameState) -> BuckupData:
        return own_data(state, BuckupData)

    @staticmethod
    def _order(state: GameState) -> list[int]:
        """Every seat, in turn from the dealer's left (the dealer last)."""
        n = state.players
        return [(state.dealer + 1 + i) % n for i in range(n)]

    def _forced(self, state: GameState, seat: int) -> bool:
        """Whether ``seat``'s face-up scare card is a trump, so that it must stay in."""
        card = self._data(state).scare[seat] if self._settings(state).scare_cards else None
        return card is not None and card // 13 == state.trump

    @staticmethod
    def _others_in(state: GameState, data: BuckupData) -> int:
        return sum(1 for s, st in enumerate(data.status) if st == IN and s != state.dealer)

    def _fold_fee(self, data: BuckupData, seat: int) -> None:
        assert data.ante is not None
        data.ledger.pay(seat, data.ante.fold_fee, FOLD_FEE)

    # --------------------------------------------------------------- game

    def init_game(self, state: GameState) -> BuckupData:
        settings = self._settings(state)
        n = state.players
        size = state.setup.schedule[0].hand_size
        wanted = 4 if settings.four_card_deal else FULL_HAND
        where = state.rules.where
        if size != wanted or any(spec.hand_size != size for spec in state.setup.schedule):
            raise RulesetError(
                f"{where('schedule.sizes')}: schedule.sizes: Buckup deals {wanted} cards"
                f" ({'with' if settings.four_card_deal else 'without'} four_card_deal),"
                f" not {size}"
            )
        if n > 7 and not settings.four_card_deal:
            raise RulesetError(
                f"{where('players')}: players: Buckup with 5-card deals is for 4 to 7 players;"
                f" {n} players need the four_card_deal option"
            )
        deck = state.setup.deck
        if max(deck) >= 52 or len(deck) < FULL_HAND * n + 1 + wanted:
            raise RulesetError(
                f"{where('deck')}: deck: Buckup needs a deck without jokers and enough cards for"
                f" {n} hands, a turn-up and every draw ({FULL_HAND * n + 1 + wanted} at least)"
            )
        stacks = [settings.starting_stack] * n
        return BuckupData(ledger=Ledger(stacks=stacks, pot=0), start_stacks=list(stacks))

    def hands_in_game(self, state: GameState) -> int | None:
        return None  # extended until the pot is empty

    def game_over(self, state: GameState) -> bool:
        settings = self._settings(state)
        planned = state.hands_played >= settings.hands and self._data(state).pot == 0
        state.completed = planned
        return planned or state.hands_played >= settings.max_hands

    # ---------------------------------------------------------- hand flow

    def begin_hand(self, state: GameState) -> None:
        data = self._data(state)
        n = state.players
        data.start_stacks = list(data.stacks)
        data.pot_before = data.pot
        data.ledger.payments = []
        data.ante = None
        data.status = [UNDECIDED] * n
        data.scare = [None] * n
        data.drawn = [0] * n
        data.stock = []
        data.discards = []
        data.queue = []
        data.winners = []
        data.burned = []
        data.stage = S_ANTE
        state.phase = HOOK

    def after_deal(self, state: GameState) -> None:
        data = self._data(state)
        settings = self._settings(state)
        n = state.players
        state.cards_seen = [True] * n
        turn_up = state.rest[0]
        state.turn_up = turn_up
        state.set_trump(turn_up // 13)
        data.stock = list(state.rest[1:])
        data.discards = []
        data.setting_aside = []
        data.drawer = -1
        data.pending = 0
        data.restocks = 0
        data.came_back = False
        data.status = [UNDECIDED] * n
        data.drawn = [0] * n
        data.scare = [state.dealt[s][0] if settings.scare_cards else None for s in range(n)]
        state.phase = HOOK
        data.queue = []
        if not settings.four_card_deal:
            data.queue = [s for s in self._order(state) if is_nineteen_hand(state.dealt[s])]
        if data.queue:
            data.stage = S_REDEAL
        else:
            self._start_decisions(state, data)

    def _start_decisions(self, state: GameState, data: BuckupData) -> None:
        data.round = R_STAY
        data.queue = self._order(state)
        self._next_decision(state, data)

    def _next_decision(self, state: GameState, data: BuckupData) -> None:
        """Ask the next seat, or end the round of decisions."""
        if data.queue:
            seat = data.queue[0]
            if data.round == R_STAY and seat == state.dealer and not self._others_in(state, data):
                # Nobody stayed in: the dealer takes the pot
                # (docs/games/buckup.md, Dealer's obligation).
                data.queue.pop(0)
                data.status[seat] = IN
                self._close(state, data)
                return
            data.stage = S_DECIDE
            return
        if data.round == R_COMEBACK:
            if data.came_back:
                data.status[state.dealer] = OUT
                self._fold_fee(data, state.dealer)
                self._close(state, data)
            else:
                data.round = R_DEALER
                data.stage = S_DEALER
            return
        self._close(state, data)

    def _close(self, state: GameState, data: BuckupData) -> None:
        """The decisions are over: the players out for now are out; play or settle."""
        for seat in self._order(state):
            if data.status[seat] == OFN:
                data.status[seat] = OUT
                self._fold_fee(data, seat)
        playing = [st == IN for st in data.status]
        if sum(playing) < 2:
            data.stage = S_PLAY
            state.finish_hand()
            return
        state.active = playing
        state.hand_size = FULL_HAND
        data.stage = S_PLAY
        state.start_play()

    def _begin_draw(self, state: GameState, data: BuckupData, seat: int) -> None:
        data.status[seat] = IN
        data.drawer = seat
        data.setting_aside = []
        data.stage = S_DISCARD

    def _finish_draw(self, state: GameState, data: BuckupData) -> None:
        data.discards.extend(data.setting_aside)
        data.setting_aside = []
        data.drawer = -1
        data.pending = 0
        self._next_decision(state, data)

    # ------------------------------------------------------------ actions

    def phase_name(self, state: GameState) -> str:
        data = self._data(state)
        if data.stage == S_DRAW:
            return "restock" if not data.stock else "draw"
        if data.stage == S_DECIDE:
            return {R_STAY: "stay_or_fold", R_COMEBACK: "come_back"}[data.round]
        return data.stage

    def to_act(self, state: GameState) -> tuple[int, ...]:
        data = self._data(state)
        stage = data.stage
        if stage in (S_ANTE, S_DEALER):
            return (state.dealer,)
        if stage in (S_REDEAL, S_DECIDE):
            return (data.queue[0],)
        if stage == S_DISCARD:
            return (data.drawer,)
        return ()

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        data = self._data(state)
        stage = data.stage
        if stage == S_ANTE:
            return list(ANTE_ACTIONS)
        if stage == S_REDEAL:
            return [A_REDEAL, A_KEEP]
        if stage == S_DISCARD:
            actions = DISCARD_ACTIONS
            return [A_DRAW, *[actions[c] for c in cards_of(state.hands[seat])]]
        if stage == S_DEALER:
            return [A_COME_BACK, A_CONCEDE]
        if data.round == R_COMEBACK:
            return [A_COME_BACK, A_FOLD]
        # The stay round.
        if self._forced(state, seat):
            return [A_STAY]
        ofn = self._settings(state).out_for_now
        if seat != state.dealer:
            return [A_STAY, A_FOLD, A_OFN] if ofn else [A_STAY, A_FOLD]
        if self._others_in(state, data) == 1:
            return [A_STAY, A_OFN] if ofn else [A_STAY]
        return [A_STAY, A_FOLD]

    def why_illegal(self, state: GameState, seat: int, action: Action) -> tuple[str, str]:
        data = self._data(state)
        stage = data.stage
        kind = action.kind
        settings = self._settings(state)
        if stage == S_ANTE:
            choices = ", ".join(f"ante {c}" for c in ANTE_CHOICES)
            return f"the dealer first sets the ante: {choices}", RULE_ANTE
        if kind in (REDEAL, KEEP) and stage != S_REDEAL:
            if settings.four_card_deal:
                return "there is no 19 redeal with 4-card deals", RULE_REDEAL
            return (
                "a redeal may be demanded only before anyone stays or folds, by a player"
                " whose five cards are all 9 or lower and total 19 or less",
                RULE_REDEAL,
            )
        if stage == S_REDEAL:
            return "demand a redeal or keep your cards: redeal or keep", RULE_REDEAL
        if stage == S_DISCARD:
            if kind == DISCARD and isinstance(action.value, int) and 0 <= action.value < 52:
                return f"you do not hold {format_card(action.value)}", RULE_DRAW
            return "discard cards one at a time (discard CARD), then draw", RULE_DRAW
        if stage == S_DEALER:
            return (
                "nobody came back: the dealer comes back in (come_back) or lets the"
                " single player take the pot (concede)",
                RULE_OFN,
            )
        if data.round == R_COMEBACK:
            return "come back in (come_back) or fold", RULE_OFN
        if kind in (DISCARD, DRAW):
            return "you discard and draw after you stay", RULE_DRAW
        if kind in (FOLD, OUT_FOR_NOW) and self._forced(state, seat):
            card = data.scare[seat]
            assert card is not None
            return (
                f"your face-up scare card {format_card(card)} is a trump: you must stay in",
                RULE_SCARE,
            )
        if kind == OUT_FOR_NOW and not settings.out_for_now:
            return "going out for now is not played here (option out_for_now)", RULE_OFN
        if seat == state.dealer and self._others_in(state, data) == 1:
            if settings.out_for_now:
                return (
                    "with one player in, the dealer stays or goes out_for_now"
                    " (the players out for now may then come back)",
                    RULE_OFN,
                )
            return (
                "the dealer must stay in to defend the pot when exactly one other player is in",
                RULE_OBLIGATION,
            )
        if kind == OUT_FOR_NOW:
            return "the dealer goes out for now only when exactly one player is in", RULE_OFN
        options = " or ".join(str(a) for a in self.legal_actions(state, seat))
        return f"decide whether to stay in: {options}", RULE_STAY

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        data = self._data(state)
        kind = action.kind
        stage = data.stage
        if stage == S_ANTE:
            settings = self._settings(state)
            data.ante = AnteStructure.of(
                str(action.value),
                ante=settings.ante,
                fold_fee=settings.fold_fee,
                card_fee=settings.card_fee,
            )
            for payer in self._order(state):
                data.ledger.pay(payer, data.ante.ante, ANTE)
            data.stage = S_DEALING
            state.phase = DEAL
            return
        if stage == S_REDEAL:
            data.queue.pop(0)
            if kind == REDEAL:
                data.stage = S_DEALING
                state.redeal()
            elif not data.queue:
                self._start_decisions(state, data)
            return
        if stage == S_DISCARD:
            if kind == DISCARD:
                card = int(action.value)
                state.hands[seat] &= ~(1 << card)
                state.dealt[seat].remove(card)
                data.setting_aside.append(card)
                return
            self._draw(state, data, seat)
            return
        if stage == S_DEALER:
            if kind == COME_BACK:
                self._begin_draw(state, data, seat)
            else:
                data.status[seat] = OUT
                self._fold_fee(data, seat)
                self._close(state, data)
            return
        # A decision of the stay round or the come-back round.
        data.queue.pop(0)
        if kind in (STAY, COME_BACK):
            data.came_back = data.came_back or kind == COME_BACK
            self._begin_draw(state, data, seat)
            return
        if kind == FOLD:
            data.status[seat] = OUT
            self._fold_fee(data, seat)
        else:  # out for now
            data.status[seat] = OFN
            if seat == state.dealer:
                data.round = R_COMEBACK
                data.queue = [s for s in self._order(state) if data.status[s] == OFN and s != seat]
        self._next_decision(state, data)

    def _draw(self, state: GameState, data: BuckupData, seat: int) -> None:
        kept = state.hands[seat].bit_count()
        drawn = FULL_HAND - kept
        assert data.ante is not None
        data.ledger.pay(seat, data.ante.draw_fee(kept=kept, drawn=drawn), DRAW_FEE)
        data.drawn[seat] = drawn
        data.pending = drawn
        if drawn == 0:
            self._finish_draw(state, data)
        else:
            data.stage = S_DRAW

    # ------------------------------------------------------------- chance

    def chance_kind(self, state: GameState) -> str | None:
        data = self._data(state)
        if data.stage != S_DRAW:
            return None
        return "draw" if data.stock else "restock"

    def sample_chance(self, state: GameState, rng: random.Random) -> ChanceOutcome:
        data = self._data(state)
        if data.stock:
            return ChanceOutcome("draw", tuple(data.stock[: min(data.pending, len(data.stock))]))
        pile = list(data.discards)
        random.Random(mix_seed(rng.getrandbits(64), data.restocks)).shuffle(pile)
        return ChanceOutcome("restock", tuple(pile))

    def check_chance(self, state: GameState, outcome: ChanceOutcome) -> str | None:
        data = self._data(state)
        cards = outcome.cards
        if outcome.kind == "restock":
            if sorted(cards) != sorted(data.discards):
                return "a new stock must be an order of exactly the discards"
            return None
        count = min(data.pending, len(data.stock))
        if len(cards) != count:
            return f"the draw takes {count} cards from the stock, not {len(cards)}"
        stock = set(data.stock)
        if len(set(cards)) != len(cards) or not all(c in stock for c in cards):
            return "the cards drawn must be different cards of the stock"
        return None

    def apply_chance(self, state: GameState, outcome: ChanceOutcome) -> None:
        data = self._data(state)
        if outcome.kind == "restock":
            data.stock = list(outcome.cards)
            data.discards = []
            data.restocks += 1
            return
        seat = data.drawer
        taken = set(outcome.cards)
        data.stock = [c for c in data.stock if c not in taken]
        for card in outcome.cards:
            state.hands[seat] |= 1 << card
            state.dealt[seat].append(card)
        data.pending -= len(outcome.cards)
        if data.pending == 0:
            self._finish_draw(state, data)

    # ---------------------------------------------------------- settlement

    def score_hand(self, state: GameState) -> HandScore:
        data = self._data(state)
        ledger = data.ledger
        pot = data.pot_settled = ledger.pot
        playing = [st == IN for st in data.status]
        if sum(playing) == 1:
            winner = playing.index(True)
            ledger.pay(winner, -pot, UNCONTESTED)
            data.winners, data.burned = [winner], []
        else:
            data.winners, data.burned, moves = settlement(pot, state.tricks_won, playing)
            for seat, amount, reason in moves:
                ledger.pay(seat, amount, reason)
        n = state.players
        return HandScore(
            hand_scores=tuple(ledger.stacks[s] - data.start_stacks[s] for s in range(n)),
            bids=(),
            extra={
                "ante": data.ante.describe() if data.ante is not None else None,
                "pot_before": data.pot_before,
                "pot_settled": pot,
                "payments": [p.to_json() for p in ledger.payments],
                "pot_after": ledger.pot,
                "stacks": list(ledger.stacks),
                "status": list(data.status),
                "drawn": list(data.drawn),
                "winners": list(data.winners),
                "burned": list(data.burned),
            },
        )

    # ------------------------------------------------------------ views

    def view(self, state: GameState, seat: int) -> BuckupView:
        """The chips, the pot, the ante, each seat's status and the stock's size (public),
        and what ``seat`` alone knows of the draw: ``discarded``, its own discards of this
        deal, and ``drew``, the cards it drew (each present once it has any).

        How many cards each player drew shows in the draw fees; when the ante has no card
        fee, ``drawn`` gives the counts. With scare cards, ``scare_discarded`` says whose
        face-up card was thrown away (it leaves the table in sight of everyone).
        """
        data = self._data(state)
        settings = self._settings(state)
        discards = self._deal_discards(state, data)
        scare_cards: tuple[int | None, ...] | None = None
        scare_discarded: tuple[bool, ...] | None = None
        if settings.scare_cards:
            scare_cards = tuple(data.scare)
            scare_discarded = tuple(
                [
                    discards is not None and card is not None and (s, card) in discards
                    for s, card in enumerate(data.scare)
                ]
            )
        drawn: tuple[int, ...] | None = None
        discarded: tuple[int, ...] | None = None
        drew: tuple[int, ...] | None = None
        if discards is not None:
            assert data.ante is not None
            if data.ante.card_fee == 0:
                drawn = tuple(data.drawn)
            mine = [card for s, card in discards if s == seat]
            if mine:
                discarded = tuple(mine)
            if data.drawn[seat]:
                dealt = 4 if settings.four_card_deal else FULL_HAND
                drew = tuple(state.dealt[seat][dealt - len(mine) :]) or None
        return BuckupView(
            stacks=tuple(data.stacks),
            pot=data.pot,
            ante=data.ante,
            status=tuple(data.status),
            stock=len(data.stock),
            payments=tuple(data.ledger.payments),
            scare_cards=scare_cards,
            scare_discarded=scare_discarded,
            drawn=drawn,
            discarded=discarded,
            drew=drew,
        )

    def _deal_discards(self, state: GameState, data: BuckupData) -> list[tuple[int, int]] | None:
        """``(seat, card)`` of every discard since the current deal, in order (None before
        the deal and once the game is over)."""
        if data.stage in (S_ANTE, S_DEALING) or state.is_terminal():
            return None
        out: list[tuple[int, int]] = []
        for event in reversed(state.events):
            action = event[1]
            if isinstance(action, ChanceOutcome):
                if action.kind == "deal":
                    break
            elif isinstance(action, Action) and action.kind == DISCARD:
                seat = event[0]
                assert isinstance(seat, int)
                out.append((seat, int(action.value)))
        out.reverse()
        return out

    def redact(self, result: HandResult, seat: int) -> HandResult:
        deal = tuple(cards if s == seat else () for s, cards in enumerate(result.deal))
        return dataclasses.replace(result, deal=deal)
