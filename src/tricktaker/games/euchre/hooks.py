"""Euchre, the 23-card auction version (docs/games/euchre.md): partnerships 0 & 2 against
1 & 3, an auction for 3, 4 or 5 tricks in a suit or no trump, the kitty to the winner.

A hand: the deal (a ruleset deal pattern fills ``state.kitty``); the auction, from the
eldest round to the left, each player in turn bidding ``auction 4H`` (or ``auction NT``)
or passing (``pass``: out of the auction for the hand); when every other player has
passed after a bid, the high bidder takes the kitty, discards three cards one at a time
(``discard CARD``) and leads the first trick. If all four pass, the hand is thrown in.

Bids rank by number of tricks, then by suit (diamonds > hearts > clubs > spades); no
trump is always for five tricks and outranks every other bid:

>>> bid_rank("4C") > bid_rank("3D"), bid_rank("4D") > bid_rank("4H"), bid_rank("NT")
(True, True, 12)
>>> contract_of("5H"), contract_of("NT")
((5, 2), (5, None))
>>> contract_points(bid_tricks=3, tricks=5), contract_points(bid_tricks=4, tricks=3)
(2, -2)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from tricktaker.cards import STANDARD_DECK, SUIT_LETTERS, SUIT_NAMES, cards_of, format_card
from tricktaker.engine.actions import Action
from tricktaker.engine.base import HOOK
from tricktaker.engine.hooks import GameHooks, HandScore, register_hooks
from tricktaker.games.declared import card_play_capabilities, own_data, register_action_kinds
from tricktaker.games.euchre.view import EuchreContract, EuchreView
from tricktaker.rules.errors import RulesetError

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.state import GameState

AUCTION = "auction"
PASS = "pass"
DISCARD = "discard"
register_action_kinds({AUCTION: "str", PASS: "none", DISCARD: "card"})

BID_SUITS = "SCHD"
"""Suit letters from the lowest to the highest for bidding: spades, clubs, hearts, diamonds."""
NO_TRUMP = "NT"
BIDS: tuple[str, ...] = (
    *(f"{tricks}{suit}" for tricks in (3, 4, 5) for suit in BID_SUITS),
    NO_TRUMP,
)
"""Every bid, lowest first: 3S 3C 3H 3D 4S ... 5D NT."""
_RANKS = {text: rank for rank, text in enumerate(BIDS)}
BID_ACTIONS: tuple[Action, ...] = tuple(Action(AUCTION, text) for text in BIDS)
PASS_ACTION = Action(PASS)
DISCARD_ACTIONS = tuple(Action(DISCARD, card) for card in range(52))
"""The discards by card id, made once (the declarer's are listed from them)."""
DISCARDS = 3
"""Cards the declarer discards after taking the kitty."""
_AUCTION_RULE = "Euchre: auction"
_DISCARD_RULE = "Euchre: kitty and discard"


def bid_rank(text: str) -> int:
    """The place of a bid in the auction's order (0 = 3S .. 12 = NT); KeyError if not a bid."""
    return _RANKS[text]


def contract_of(text: str) -> tuple[int, int | None]:
    """The tricks bid and the trump suit id (None for no trump) of a bid."""
    if text == NO_TRUMP:
        return 5, None
    return int(text[0]), SUIT_LETTERS.index(text[1])


def biddable(high: str | None) -> str:
    """In words, what may be bid over the high bid ``high`` (None: no bid yet).

    >>> biddable(None)
    '3 to 5 in any suit (3D, 4H, 5S ...), no trump (NT), or pass'
    >>> biddable("3H")
    '3D, 4 or 5 in any suit, no trump (NT), or pass'
    >>> biddable("5D"), biddable("NT")
    ('no trump (NT), or pass', 'only pass: nothing beats no trump')
    """
    if high == NO_TRUMP:
        return "only pass: nothing beats no trump"
    above = BIDS[bid_rank(high) + 1 : -1] if high is not None else BIDS[:-1]
    parts: list[str] = []
    whole = [t for t in (3, 4, 5) if all(f"{t}{s}" in above for s in BID_SUITS)]
    parts += [bid for bid in above if int(bid[0]) not in whole]
    if whole:
        levels = f"{whole[0]} to {whole[-1]}" if len(whole) == 3 else " or ".join(map(str, whole))
        parts.append(f"{levels} in any suit" + (" (3D, 4H, 5S ...)" if len(whole) == 3 else ""))
    return ", ".join([*parts, "no trump (NT)", "or pass"])


def contract_points(*, bid_tricks: int, tricks: int) -> int:
    """Points of a contract: positive for the bidders (1 for 3 or 4 tricks taken, 2 for
    all five), negative for the defenders' 2 when the bidders fall short."""
    if tricks < bid_tricks:
        return -2
    return 2 if tricks >= 5 else 1


class EuchreSettings(BaseModel):
    """``[settings]`` of a Euchre ruleset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    target: int = Field(default=10, ge=1, le=100, description="points that win the game")


@dataclass(slots=True)
class EuchreData:
    """Euchre's data for the hand in progress, kept in ``state.ext``."""

    stage: str = "deal"
    """``deal``, ``auction``, ``discard`` or ``play``."""
    auction: list[tuple[int, str]] = field(default_factory=list)
    """Every call in order: ``(seat, "3D")`` or ``(seat, "pass")``."""
    high: tuple[int, str] | None = None
    """The high bid so far: ``(seat, bid)``."""
    passed: list[bool] = field(default_factory=lambda: [False] * 4)
    turn: int = 0
    declarer: int | None = None
    discards: list[int] = field(default_factory=list)

    def copy(self) -> EuchreData:
        return EuchreData(
            self.stage,
            list(self.auction),
            self.high,
            list(self.passed),
            self.turn,
            self.declarer,
            list(self.discards),
        )


def _team_of(state: GameState, seat: int) -> int:
    return next(i for i, team in enumerate(state.setup.partnerships) if seat in team)


@register_hooks
class EuchreHooks(GameHooks):
    """The auction, kitty and discard of a Euchre hand, and its partnership scoring."""

    name = "euchre"
    settings_model = EuchreSettings
    capabilities: ClassVar[dict[str, str]] = {
        **card_play_capabilities("tricktaker.games.euchre"),
        "coach": "tricktaker.games.euchre.coach:COACH",
    }

    def init_game(self, state: GameState) -> EuchreData:
        pattern = state.setup.deal_pattern or ()
        kitty = sum(sum(counts) for target, counts in pattern if target == "kitty")
        if kitty != DISCARDS:
            raise RulesetError(
                f"{state.rules.where('deal.pattern')}: deal.pattern: Euchre deals a kitty of"
                f" {DISCARDS} cards for the declarer to take and discard, not {kitty}"
            )
        teams = state.setup.partnerships
        if sorted(seat for team in teams for seat in team) != list(range(state.players)):
            raise RulesetError(
                f"{state.rules.where('table.partnerships')}: table.partnerships: Euchre is"
                " played in two partnerships that take in every seat (for example"
                " [[0, 2], [1, 3]])"
            )
        return EuchreData()

    def _data(self, state: GameState) -> EuchreData:
        return own_data(state, EuchreData)

    def target(self, state: GameState) -> int:
        """Points that win the game."""
        return int(self.settings(state).target)

    # ------------------------------------------------------------------ phases

    def begin_hand(self, state: GameState) -> None:
        state.ext = EuchreData(passed=[False] * state.players)
        super().begin_hand(state)

    def after_deal(self, state: GameState) -> None:
        data = self._data(state)
        data.stage = "auction"
        data.turn = state.eldest
        state.cards_seen = [True] * state.players
        state.phase = HOOK

    def phase_name(self, state: GameState) -> str:
        return self._data(state).stage

    def to_act(self, state: GameState) -> tuple[int, ...]:
        data = self._data(state)
        if data.stage == "auction":
            return (data.turn,)
        if data.stage == "discard":
            assert data.declarer is not None
            return (data.declarer,)
        return ()

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        data = self._data(state)
        if seat not in self.to_act(state):
            return []
        if data.stage == "auction":
            above = bid_rank(data.high[1]) + 1 if data.high is not None else 0
            return [PASS_ACTION, *BID_ACTIONS[above:]]
        actions = DISCARD_ACTIONS
        return [actions[card] for card in cards_of(state.hands[seat] & STANDARD_DECK)]

    def why_illegal(self, state: GameState, seat: int, action: Action) -> tuple[str, str]:
        data = self._data(state)
        if data.stage == "auction":
            can = biddable(data.high[1] if data.high is not None else None)
            if action.kind != AUCTION:
                return f"the auction is on, not {action}: you can bid {can}", _AUCTION_RULE
            text = str(action.value)
            if text not in _RANKS:
                if text.upper().endswith(NO_TRUMP):
                    return (
                        f"no trump is always for five tricks (NT): you can bid {can}",
                        _AUCTION_RULE,
                    )
                return (
                    f"{text!r} is not a bid: a bid is 3, 4 or 5 tricks and a suit letter;"
                    f" you can bid {can}",
                    _AUCTION_RULE,
                )
            assert data.high is not None
            high_seat, high = data.high
            return (
                f"{text} does not beat the high bid {high} (seat {high_seat}): you can bid {can}"
                " (more tricks beat fewer; at the same number D > H > C > S; no trump beats"
                " everything)",
                _AUCTION_RULE,
            )
        if action.kind != DISCARD:
            return f"discard three cards first (discard CARD), not {action}", _DISCARD_RULE
        card = action.value
        if type(card) is not int or not 0 <= card < 52:
            return f"{card!r} is not a card", _DISCARD_RULE
        return f"you do not hold {format_card(card)}", _DISCARD_RULE

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        data = self._data(state)
        if data.stage == "auction":
            self._call(state, data, seat, action)
            return
        card = action.value
        assert isinstance(card, int)
        state.hands[seat] &= ~(1 << card)
        state.dealt[seat].remove(card)
        data.discards.append(card)
        if len(data.discards) == DISCARDS:
            data.stage = "play"
            state.start_play(seat)

    def _call(self, state: GameState, data: EuchreData, seat: int, action: Action) -> None:
        n = state.players
        if action.kind == PASS:
            data.auction.append((seat, PASS))
            data.passed[seat] = True
        else:
            data.auction.append((seat, str(action.value)))
            data.high = (seat, str(action.value))
        if all(data.passed):
            data.stage = "play"
            state.finish_hand()  # thrown in: the deal passes left
            return
        if data.high is not None:
            high_seat = data.high[0]
            if all(data.passed[s] for s in range(n) if s != high_seat):
                self._take_kitty(state, data, high_seat)
                return
        nxt = (seat + 1) % n
        while data.passed[nxt]:
            nxt = (nxt + 1) % n
        data.turn = nxt

    def _take_kitty(self, state: GameState, data: EuchreData, declarer: int) -> None:
        assert data.high is not None
        data.declarer = declarer
        state.set_trump(contract_of(data.high[1])[1])
        for card in state.kitty:
            state.hands[declarer] |= 1 << card
        state.dealt[declarer].extend(state.kitty)
        data.stage = "discard"

    # ------------------------------------------------------------------ scores

    def score_hand(self, state: GameState) -> HandScore:
        data = self._data(state)
        n = state.players
        teams = state.setup.partnerships
        team_tricks = [sum(state.tricks_won[s] for s in team) for team in teams]
        hand_scores = [0] * n
        contract: dict[str, Any] | None = None
        if data.declarer is not None and data.high is not None:
            bid_tricks, trump = contract_of(data.high[1])
            team = _team_of(state, data.declarer)
            points = contract_points(bid_tricks=bid_tricks, tricks=team_tricks[team])
            for index, seats in enumerate(teams):
                scored = points if index == team else -points
                for s in seats:
                    hand_scores[s] = max(scored, 0)
            contract = {
                "bidder": data.declarer,
                "tricks": bid_tricks,
                "trump": SUIT_NAMES[trump] if trump is not None else "no_trump",
            }
        return HandScore(
            hand_scores=tuple(hand_scores),
            bids=(),
            extra={
                "contract": contract,
                "partnership_tricks": team_tricks,
                "auction": [[s, text] for s, text in data.auction],
                "kitty": [format_card(c) for c in state.kitty],
                "discards": [format_card(c) for c in data.discards],
                "thrown_in": data.declarer is None,
            },
        )

    def team_scores(self, state: GameState) -> list[int]:
        """Each partnership's points (both partners carry the team's score)."""
        return [state.scores[team[0]] for team in state.setup.partnerships]

    def game_over(self, state: GameState) -> bool:
        return max(self.team_scores(state)) >= self.target(state)

    # ------------------------------------------------------------ observations

    def view(self, state: GameState, seat: int) -> EuchreView:
        data = self._data(state)
        contract: EuchreContract | None = None
        mine = data.declarer is not None and data.declarer == seat
        if data.declarer is not None and data.high is not None:
            bid_tricks, trump = contract_of(data.high[1])
            contract = EuchreContract(declarer=data.declarer, tricks=bid_tricks, trump=trump)
        return EuchreView(
            auction=tuple(data.auction),
            high_bid=data.high,
            passed=tuple([s for s, out in enumerate(data.passed) if out]),
            contract=contract,
            kitty=tuple(state.kitty) if mine else None,
            discards=tuple(data.discards) if mine else None,
            team_scores=tuple(self.team_scores(state)),
            team_tricks=tuple(
                [sum(state.tricks_won[s] for s in team) for team in state.setup.partnerships]
            ),
            target=self.target(state),
        )

    def redact(self, result: HandResult, seat: int) -> HandResult:
        contract = result.extra.get("contract")
        deal = tuple(cards if s == seat else () for s, cards in enumerate(result.deal))
        extra = dict(result.extra)
        if contract is None or contract["bidder"] != seat:
            extra["kitty"] = None
            extra["discards"] = None
        return dataclasses.replace(result, extra=extra, deal=deal)
