"""Pluck (docs/games/pluck.md): quotas by position, plucks from the second hand on,
the dealer names trump, the 2C opens.

The plucks of a hand come from the previous hand: each trick above quota is a pluck
to take from a player who fell short. A pluck is two actions: the plucker's
``pluck CARD`` (any card but a joker) and the pluckee's forced ``give_back CARD``
(their highest card of that suit, maybe the card just received), which the engine
computes and offers as the only legal action.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from tricktaker.cards import JOKER_MASK, SUIT_LETTERS, SUIT_MASKS, cards_of, format_card
from tricktaker.engine.actions import Action
from tricktaker.engine.base import HOOK
from tricktaker.engine.hooks import GameHooks, HandScore, register_hooks
from tricktaker.games.declared import card_play_capabilities, own_data, register_action_kinds
from tricktaker.games.pluck.view import PluckMove, PluckView

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.state import GameState

PLUCK = "pluck"
GIVE_BACK = "give_back"
CALL_TRUMP = "call_trump"
register_action_kinds({PLUCK: "card", GIVE_BACK: "card", CALL_TRUMP: "str"})

TRUMP_ACTIONS = tuple(Action(CALL_TRUMP, letter) for letter in SUIT_LETTERS)
PLUCK_ACTIONS = tuple(Action(PLUCK, card) for card in range(54))
"""The plucks by card id, made once (a hand's plucks are listed from them)."""
GIVE_BACK_ACTIONS = tuple(Action(GIVE_BACK, card) for card in range(54))
"""The returns of a pluck by card id, made once."""


class PluckSettings(BaseModel):
    """``[settings]`` of a Pluck ruleset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hands: int = Field(default=6, ge=1, le=300, description="hands in a game")
    quotas: tuple[int, int, int] = Field(
        default=(7, 6, 4), description="tricks needed by the dealer, left and right of dealer"
    )


@dataclass(slots=True)
class PluckRecord:
    """One completed pluck."""

    plucker: int
    pluckee: int
    given: int
    returned: int


@dataclass(slots=True)
class PluckData:
    """Pluck's changing data, kept in ``state.ext``."""

    quotas: list[int] = field(default_factory=list)
    pending: list[tuple[int, int]] = field(default_factory=list)
    done: list[PluckRecord] = field(default_factory=list)
    given: int | None = None
    stage: str = "trump"

    def copy(self) -> PluckData:
        return PluckData(
            list(self.quotas),
            list(self.pending),
            [PluckRecord(p.plucker, p.pluckee, p.given, p.returned) for p in self.done],
            self.given,
            self.stage,
        )


def quotas_for(dealer: int, quotas: tuple[int, int, int]) -> list[int]:
    """Each seat's quota: dealer 7, left of dealer 6, right of dealer 4 (by default)."""
    out = [0, 0, 0]
    out[dealer] = quotas[0]
    out[(dealer + 1) % 3] = quotas[1]
    out[(dealer + 2) % 3] = quotas[2]
    return out


def pluck_order(surplus: list[int], dealer: int) -> list[tuple[int, int]]:
    """The plucks owed, as ``(plucker, pluckee)`` pairs in the order they are made.

    With three players the pairing is forced by the totals. The player with the most
    plucks goes first; ties start with the (new) dealer and go left. A plucker with
    two pluckees plucks first the one who owes more (ties again from the dealer).

    >>> pluck_order([2, -1, -1], dealer=0)
    [(0, 1), (0, 2)]
    >>> pluck_order([1, 1, -2], dealer=1)
    [(1, 2), (0, 2)]
    """

    def position(seat: int) -> int:
        return (seat - dealer) % 3

    pluckers = sorted(
        (s for s in range(3) if surplus[s] > 0), key=lambda s: (-surplus[s], position(s))
    )
    owed = {s: -surplus[s] for s in range(3) if surplus[s] < 0}
    order: list[tuple[int, int]] = []
    for plucker in pluckers:
        remaining = surplus[plucker]
        for pluckee in sorted(owed, key=lambda s: (-owed[s], position(s))):
            take = min(remaining, owed[pluckee])
            order.extend([(plucker, pluckee)] * take)
            owed[pluckee] -= take
            remaining -= take
    return order


def give_back_card(hand: int, suit: int) -> int:
    """The pluckee's forced return: their highest card of ``suit`` (jokers never)."""
    cards = hand & SUIT_MASKS[suit] & ~JOKER_MASK
    return cards.bit_length() - 1


@register_hooks
class PluckHooks(GameHooks):
    """The phases of a Pluck hand before the tricks, and its results."""

    name = "pluck"
    settings_model = PluckSettings
    capabilities: ClassVar[dict[str, str]] = {
        **card_play_capabilities("tricktaker.games.pluck"),
        "coach": "tricktaker.games.pluck.coach:COACH",
    }

    def init_game(self, state: GameState) -> PluckData:
        return PluckData()

    def _data(self, state: GameState) -> PluckData:
        return own_data(state, PluckData)

    def hands_in_game(self, state: GameState) -> int | None:
        return int(self.settings(state).hands)

    def after_deal(self, state: GameState) -> None:
        data = self._data(state)
        settings = self.settings(state)
        data.quotas = quotas_for(state.dealer, settings.quotas)
        data.done = []
        data.given = None
        data.pending = []
        if state.history:
            last = state.history[-1]
            previous = quotas_for(last.dealer, settings.quotas)
            surplus = [last.tricks[s] - previous[s] for s in range(3)]
            data.pending = pluck_order(surplus, state.dealer)
        state.cards_seen = [True, True, True]
        data.stage = "pluck" if data.pending else "trump"
        state.phase = HOOK

    def phase_name(self, state: GameState) -> str:
        return {"pluck": "pluck", "give_back": "give_back", "trump": "call_trump"}[
            self._data(state).stage
        ]

    def to_act(self, state: GameState) -> tuple[int, ...]:
        data = self._data(state)
        if data.stage == "pluck":
            return (data.pending[0][0],)
        if data.stage == "give_back":
            return (data.pending[0][1],)
        return (state.dealer,)

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        data = self._data(state)
        if seat not in self.to_act(state):
            return []
        if data.stage == "pluck":
            actions = PLUCK_ACTIONS
            return [actions[c] for c in cards_of(state.hands[seat] & ~JOKER_MASK)]
        if data.stage == "give_back":
            assert data.given is not None
            return [GIVE_BACK_ACTIONS[give_back_card(state.hands[seat], data.given // 13)]]
        return list(TRUMP_ACTIONS)

    def why_illegal(self, state: GameState, seat: int, action: Action) -> tuple[str, str]:
        data = self._data(state)
        labels = state.setup.labels
        if data.stage == "pluck":
            card = action.value
            if action.kind != PLUCK or type(card) is not int or not 0 <= card < 54:
                return "give the pluckee a card: pluck CARD", "Pluck: plucks"
            if card >= 52:
                return "a joker may not be given in a pluck", "Pluck: plucks"
            return f"you do not hold {format_card(card, labels=labels)}", "Pluck: plucks"
        if data.stage == "give_back":
            assert data.given is not None
            forced = give_back_card(state.hands[seat], data.given // 13)
            return (
                f"you must give back your highest {SUIT_LETTERS[data.given // 13]}:"
                f" give_back {format_card(forced, labels=labels)}",
                "Pluck: plucks",
            )
        return "the dealer names trump: call_trump C, D, H or S", "Pluck: dealer declares trump"

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        data = self._data(state)
        if data.stage == "pluck":
            assert isinstance(action.value, int)
            plucker, pluckee = data.pending[0]
            self._move(state, action.value, plucker, pluckee)
            data.given = action.value
            data.stage = "give_back"
            return
        if data.stage == "give_back":
            assert isinstance(action.value, int)
            assert data.given is not None
            plucker, pluckee = data.pending.pop(0)
            self._move(state, action.value, pluckee, plucker)
            data.done.append(PluckRecord(plucker, pluckee, data.given, action.value))
            data.given = None
            data.stage = "pluck" if data.pending else "trump"
            return
        state.set_trump(SUIT_LETTERS.index(str(action.value)))
        state.start_play()

    @staticmethod
    def _move(state: GameState, card: int, giver: int, taker: int) -> None:
        state.hands[giver] &= ~(1 << card)
        state.hands[taker] |= 1 << card
        state.dealt[giver].remove(card)
        state.dealt[taker].append(card)

    def score_hand(self, state: GameState) -> HandScore:
        data = self._data(state)
        labels = state.setup.labels
        quotas = tuple(data.quotas)
        return HandScore(
            hand_scores=tuple(state.tricks_won[s] - quotas[s] for s in range(3)),
            bids=quotas,
            extra={
                "quotas": list(quotas),
                "plucks": [
                    {
                        "plucker": p.plucker,
                        "pluckee": p.pluckee,
                        "given": format_card(p.given, labels=labels),
                        "returned": format_card(p.returned, labels=labels),
                    }
                    for p in data.done
                ],
            },
        )

    def game_over(self, state: GameState) -> bool:
        return state.hands_played >= int(self.settings(state).hands)

    def view(self, state: GameState, seat: int) -> PluckView:
        data = self._data(state)

        def seen(card: int | None, record_seats: tuple[int, int]) -> int | None:
            return card if seat in record_seats else None

        current: PluckMove | None = None
        if data.stage == "give_back" and data.pending:
            plucker, pluckee = data.pending[0]
            current = PluckMove(plucker, pluckee, seen(data.given, (plucker, pluckee)))
        return PluckView(
            quotas=tuple(data.quotas),
            plucks=tuple(
                [
                    PluckMove(
                        p.plucker,
                        p.pluckee,
                        seen(p.given, (p.plucker, p.pluckee)),
                        seen(p.returned, (p.plucker, p.pluckee)),
                    )
                    for p in data.done
                ]
            ),
            plucks_pending=tuple(data.pending),
            pluck_in_progress=current,
            labels=state.setup.labels,
        )

    def redact(self, result: HandResult, seat: int) -> HandResult:
        plucks = result.extra.get("plucks", [])
        hidden = [
            p if seat in (p["plucker"], p["pluckee"]) else {**p, "given": None, "returned": None}
            for p in plucks
        ]
        deal = tuple(cards if s == seat else () for s, cards in enumerate(result.deal))
        return dataclasses.replace(result, extra={**result.extra, "plucks": hidden}, deal=deal)
