"""The game state machine: whole games of hands, seeded, checked and replayable.

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("blackout"), players=4, seed=7)
>>> state.is_chance()
True
>>> state.apply_chance()          # shuffle and deal the first hand
>>> seat = state.to_act()[0]
>>> [str(a) for a in state.legal_actions(seat)]
['bid 0', 'bid 1']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tricktaker.cards import SUIT_NAMES, card_set, cards_of, format_card, parse_card
from tricktaker.engine import calls
from tricktaker.engine.actions import (
    BID,
    BID_ACTIONS,
    CALL_DONE,
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    DONE_ACTION,
    PILE_ACTION,
    PLAY,
    PLAY_ACTIONS,
    PLAY_PILE,
    Action,
    bid,
)
from tricktaker.engine.errors import IllegalActionError
from tricktaker.engine.results import HandResult
from tricktaker.engine.setup import Setup, draw_for_dealer
from tricktaker.engine.tables import CardTables, build_tables
from tricktaker.rules.ruleset import CompiledScoring, HandSpec, Ruleset

CALL_SIZE_PHASE, DEAL, CALL_KIND_PHASE, CALL_MODIFIERS, TRUMP_DRAW, BIDDING = range(6)
PILE_SHUFFLE, PLAYING, GAME_OVER = 6, 7, 8
PHASE_NAMES = (
    "call_size",
    "deal",
    "call_kind",
    "call_modifiers",
    "trump_draw",
    "bidding",
    "pile_shuffle",
    "playing",
    "game_over",
)
CHANCE_PHASES = frozenset({DEAL, TRUMP_DRAW, PILE_SHUFFLE})


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The result of a chance step: ``deal`` (the shuffled deck, top first),
    ``second_deck`` (one card of a second deck) or ``piles`` (each seat's pile, concatenated)."""

    kind: str
    cards: tuple[int, ...]


class GameState:
    """A whole game in progress. Create one with :func:`new_game`."""

    __slots__ = (
        "bid_count",
        "bids",
        "call",
        "cards_seen",
        "completed",
        "dealer",
        "dealer_draw",
        "dealt",
        "events",
        "first_dealer",
        "hand_size",
        "hands",
        "hands_played",
        "history",
        "hook",
        "leader",
        "phase",
        "pile_pos",
        "piles",
        "rest",
        "rules",
        "schedule_pos",
        "scores",
        "scoring",
        "seed",
        "setup",
        "shuffle_seats",
        "spec",
        "tables",
        "to_play",
        "trick",
        "trick_cards",
        "trick_winners",
        "tricks_won",
        "trump",
        "trump_broken",
        "trump_known",
        "turn_up",
        "zero_streak",
    )

    def __init__(
        self, rules: Ruleset, *, players: int, seed: int, first_dealer: int | None = None
    ) -> None:
        rules.check_players(players)
        self.rules = rules
        self.setup = Setup.of(rules, players)
        self.seed = seed
        self.scores = [0] * players
        self.zero_streak = [0] * players
        self.history: list[HandResult] = []
        self.events: list[tuple[object, ...]] = []
        self.hands_played = 0
        self.schedule_pos = 0
        self.completed = False
        self.dealer_draw: list[tuple[int, int]] = []
        if first_dealer is None:
            rng = self._rng("first_dealer")
            if rules.spec.table.first_dealer == "draw":
                by_suit = rules.spec.table.draw_ties == "suit"
                first_dealer, self.dealer_draw = draw_for_dealer(
                    rng, players, break_ties_by_suit=by_suit
                )
            else:
                first_dealer = rng.randrange(players)
        elif not 0 <= first_dealer < players:
            raise ValueError(f"first_dealer must be a seat 0..{players - 1}, not {first_dealer}")
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self._begin_hand()

    # ----------------------------------------------------------------- basics

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress (or of the last hand when over)."""
        return self.hands_played + (0 if self.phase == GAME_OVER else 1)

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.setup.players

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def _rng(self, step: str) -> random.Random:
        return random.Random(f"{self.seed}:{self.hands_played}:{step}")

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: one, several (simultaneous bids) or none."""
        phase = self.phase
        if phase == PLAYING:
            return (self.to_play,)
        if phase == BIDDING:
            if self.setup.simultaneous:
                return tuple(s for s, b in enumerate(self.bids) if b is None)
            return ((self.eldest + self.bid_count) % self.setup.players,)
        if phase in (CALL_SIZE_PHASE, CALL_KIND_PHASE, CALL_MODIFIERS):
            return (self.dealer,)
        return ()

    # ------------------------------------------------------------ hand set-up

    def _begin_hand(self) -> None:
        setup = self.setup
        n = setup.players
        self.hands = [0] * n
        self.piles: list[list[int]] | None = None
        self.pile_pos = [0] * n
        self.dealt: list[list[int]] = [[] for _ in range(n)]
        self.rest: tuple[int, ...] = ()
        self.turn_up: int | None = None
        self.trump: int | None = None
        self.trump_known = False
        self.tables: CardTables | None = None
        self.bids: list[int | None] = [None] * n
        self.bid_count = 0
        self.tricks_won = [0] * n
        self.trick: list[tuple[int, int]] = []
        self.trick_cards: list[tuple[tuple[int, int], ...]] = []
        self.trick_winners: list[int] = []
        self.leader = self.eldest
        self.to_play = self.eldest
        self.trump_broken = False
        self.cards_seen = [False] * n
        self.call: calls.Call | None = None
        self.shuffle_seats: tuple[int, ...] = ()
        if setup.called:
            self.spec = HandSpec(number=self.hands_played + 1, hand_size=0)
            self.hand_size = 0
            self.hook = setup.hook
            self.scoring: CompiledScoring = self.rules.scoring
            self.phase = CALL_SIZE_PHASE
            return
        self._use_spec(setup.schedule[self.schedule_pos])
        self.phase = DEAL

    def _use_spec(self, spec: HandSpec) -> None:
        self.spec = spec
        self.hand_size = spec.hand_size
        self.hook = self.setup.hook
        self.scoring = spec.scoring or self.rules.scoring

    def deal_order(self) -> list[int]:
        """Seats in the order they receive cards this hand."""
        n, dealer = self.setup.players, self.dealer
        if self.setup.deal_counterclockwise:
            return [(dealer - 1 - i) % n for i in range(n)]
        return [(dealer + 1 + i) % n for i in range(n)]

    def deck_order_for(
        self, hands: Sequence[Iterable[int | str]], *, turn_up: int | str | None = None
    ) -> tuple[int, ...]:
        """A deck order (top first) that deals ``hands[seat]`` to each seat this hand.

        For building positions by hand: ``state.apply_chance(ChanceOutcome("deal", order))``.
        ``turn_up`` becomes the first undealt card; the other cards follow in id order.
        """
        per_seat = [[parse_card(c) if isinstance(c, str) else c for c in cards] for cards in hands]
        size = self.hand_size
        if len(per_seat) != self.setup.players or any(len(h) != size for h in per_seat):
            raise ValueError(f"give {self.setup.players} hands of {size} cards")
        order: list[int] = []
        seats = self.deal_order()
        for i in range(size * self.setup.players):
            seat = seats[i % self.setup.players]
            order.append(per_seat[seat][i // self.setup.players])
        if turn_up is not None:
            order.append(parse_card(turn_up) if isinstance(turn_up, str) else turn_up)
        used = set(order)
        order.extend(c for c in self.setup.deck if c not in used)
        return tuple(order)

    # ----------------------------------------------------------------- chance

    def sample_chance(self) -> ChanceOutcome:
        """The outcome the seeded generator gives for the pending chance step."""
        rng = self._rng(PHASE_NAMES[self.phase])
        if self.phase == DEAL:
            order = list(self.setup.deck)
            rng.shuffle(order)
            return ChanceOutcome("deal", tuple(order))
        if self.phase == TRUMP_DRAW:
            return ChanceOutcome("second_deck", (rng.randrange(52),))
        if self.phase == PILE_SHUFFLE:
            out: list[int] = []
            for seat in range(self.setup.players):
                if seat in self.shuffle_seats:
                    pile = cards_of(self.hands[seat])
                    rng.shuffle(pile)
                else:
                    pile = self.dealt[seat][:]
                out.extend(pile)
            return ChanceOutcome("piles", tuple(out))
        raise IllegalActionError("no chance step is pending", rule="turn order")

    def apply_chance(self, outcome: ChanceOutcome | None = None) -> None:
        """Resolve the pending chance step, from the seeded generator or a given outcome."""
        if outcome is None:
            outcome = self.sample_chance()
        else:
            self._check_chance(outcome)
        self.events.append(("chance", outcome))
        if outcome.kind == "deal":
            self._deal(outcome.cards)
        elif outcome.kind == "second_deck":
            self.turn_up = outcome.cards[0]
            self._reveal_trump(outcome.cards[0] // 13)
            if self.bid_count == self.setup.players:
                self._after_bidding_trump_known()
            else:
                self.phase = BIDDING
        else:
            n, size = self.setup.players, self.hand_size
            self.piles = [list(outcome.cards[s * size : (s + 1) * size]) for s in range(n)]
            self._start_play()

    def _check_chance(self, outcome: ChanceOutcome) -> None:
        expected = {DEAL: "deal", TRUMP_DRAW: "second_deck", PILE_SHUFFLE: "piles"}.get(self.phase)
        if expected is None:
            raise IllegalActionError("no chance step is pending", rule="turn order")
        if outcome.kind != expected:
            raise IllegalActionError(
                f"the pending chance step is {expected!r}, not {outcome.kind!r}", rule="turn order"
            )
        if expected == "deal" and sorted(outcome.cards) != sorted(self.setup.deck):
            raise IllegalActionError("a deal must be an order of the whole deck", rule="deck")
        if expected == "second_deck" and (
            len(outcome.cards) != 1 or not 0 <= outcome.cards[0] < 52
        ):
            raise IllegalActionError("a second-deck card must be one standard card", rule="deck")
        if expected == "piles":
            size = self.hand_size
            for seat in range(self.setup.players):
                pile = outcome.cards[seat * size : (seat + 1) * size]
                if len(pile) != size or card_set(pile) != self.hands[seat]:
                    raise IllegalActionError(
                        f"seat {seat}'s pile must hold exactly its hand", rule="blind hand"
                    )
                if seat not in self.shuffle_seats and list(pile) != self.dealt[seat]:
                    raise IllegalActionError(
                        f"seat {seat}'s face-down pile stays in the order dealt", rule="blind pile"
                    )

    def _deal(self, order: tuple[int, ...]) -> None:
        n, size = self.setup.players, self.hand_size
        seats = self.deal_order()
        dealt = self.dealt
        for i in range(size * n):
            dealt[seats[i % n]].append(order[i])
        self.hands = [card_set(cards) for cards in dealt]
        self.rest = order[size * n :]
        if self.spec.pile:
            self.piles = [list(cards) for cards in dealt]
        if self.setup.called:
            self.cards_seen[self.dealer] = True
            self.phase = CALL_KIND_PHASE
            return
        self._prepare_hand()

    def _prepare_hand(self) -> None:
        """After the deal (and any call): who sees their cards, then trump and bidding."""
        spec = self.spec
        for seat in range(self.setup.players):
            if not spec.blind_bid:
                self.cards_seen[seat] = True
        if spec.bid_before_trump:
            self.phase = BIDDING
            return
        self._fix_trump()

    def _fix_trump(self) -> None:
        """Expose the trump (maybe by a second-deck chance step), then continue."""
        method = self.setup.trump_method
        if self.spec.no_trump or method == "none":
            self._reveal_trump(None)
        elif method == "rotate":
            rotation = self.setup.rotation
            self._reveal_trump(rotation[(self.hand_number - 1) % len(rotation)])
        elif method == "turn_up" and self.rest:
            self.turn_up = self.rest[0]
            self._reveal_trump(None if self.turn_up >= 52 else self.turn_up // 13)
        elif method == "second_deck" or self.setup.when_no_card == "second_deck":
            self.phase = TRUMP_DRAW
            return
        else:
            self._reveal_trump(None)
        if self.bid_count == self.setup.players:
            self._after_bidding_trump_known()
        else:
            self.phase = BIDDING

    def _reveal_trump(self, trump: int | None) -> None:
        self.trump = trump
        self.trump_known = True
        precedence = self.call.precedence if self.call is not None else None
        nuloss = self.call is not None and "nuloss" in self.call.modifiers
        self.tables = build_tables(
            trump=trump,
            jokers_as_trump=self.setup.jokers_as_trump,
            nuloss=nuloss,
            precedence=precedence,
        )

    def _after_bidding_trump_known(self) -> None:
        if self.shuffle_seats:
            self.phase = PILE_SHUFFLE
            return
        self._start_play()

    def _start_play(self) -> None:
        self.leader = self.to_play = self.eldest
        self.phase = PLAYING

    # ---------------------------------------------------------------- legality

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not their turn)."""
        phase = self.phase
        if phase == PLAYING:
            if seat != self.to_play:
                return []
            if self.piles is not None:
                return [PILE_ACTION]
            mask = self._legal_mask(seat)
            out = []
            while mask:
                low = mask & -mask
                out.append(PLAY_ACTIONS[low.bit_length() - 1])
                mask ^= low
            return out
        if seat not in self.to_act():
            return []
        if phase == BIDDING:
            return [BID_ACTIONS[b] if b < 64 else bid(b) for b in self._legal_bids(seat)]
        if phase == CALL_SIZE_PHASE:
            sizes = range(self.setup.called_min, self.setup.called_max + 1)
            return [Action(CALL_SIZE, s) for s in sizes if s * self.setup.players < 52]
        if phase == CALL_KIND_PHASE:
            return calls.kind_actions()
        if phase == CALL_MODIFIERS:
            assert self.call is not None
            return [DONE_ACTION, *calls.modifier_actions(self.call)]
        return []

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        return self.why_illegal(seat, action) is None

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the action is legal."""
        problem = self.why_illegal(seat, action)
        if problem is not None:
            raise IllegalActionError(problem[0], rule=problem[1])

    def _legal_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        tables = self.tables
        assert tables is not None
        setup = self.setup
        if not self.trick:
            if setup.trump_lead_after_broken and not self.trump_broken and self.trump is not None:
                others = hand & ~tables.trump_mask
                if others:
                    return others
            return hand
        led = tables.suit_of[self.trick[0][1]]
        if led == 4 or not setup.follow_suit:
            return hand
        free = hand & tables.suit_masks[4]
        follow = hand & tables.suit_masks[led]
        if follow:
            return follow | free
        if setup.must_trump and self.trump is not None:
            trumps = hand & tables.trump_mask
            if trumps:
                return trumps | free
        return hand

    def _legal_bids(self, seat: int) -> list[int]:
        setup, size = self.setup, self.hand_size
        if self.spec.misere:
            return [0]
        made = sum(b for b in self.bids if b is not None)
        high = size - made if setup.sum_equals_hand else size
        low = min(setup.min_bid, high)
        options = list(range(low, high + 1))
        last = self.bid_count == setup.players - 1 and not setup.simultaneous
        if setup.sum_equals_hand and last:
            options = [size - made]
        if self.hook and last and size - made in options and len(options) > 1:
            options.remove(size - made)
        limit = setup.zero_streak_limit
        if limit is not None and self.zero_streak[seat] >= limit and len(options) > 1:
            options = [b for b in options if b != 0]
        return options

    def why_illegal(self, seat: int, action: Action) -> tuple[str, str] | None:
        """``(reason, rule)`` when ``seat`` may not take ``action`` now, else None."""
        if self.phase == GAME_OVER:
            return "the game is over", "end of game"
        if self.phase in CHANCE_PHASES:
            return "the cards must be dealt first (a chance step is pending)", "turn order"
        if not 0 <= seat < self.setup.players:
            return f"there is no seat {seat}", "seats"
        if seat not in self.to_act():
            waiting = ", ".join(str(s) for s in self.to_act())
            return f"it is not seat {seat}'s turn (waiting for seat {waiting})", "turn order"
        if action in self.legal_actions(seat):
            return None
        phase = self.phase
        if phase == PLAYING:
            return self._why_card_illegal(seat, action)
        if phase == BIDDING:
            return self._why_bid_illegal(seat, action)
        if phase == CALL_MODIFIERS and action.kind == CALL_MODIFIER and self.call is not None:
            problem = calls.modifier_problem(self.call, str(action.value))
            if problem:
                return problem, "Caller Clag modifiers"
        expected = {
            CALL_SIZE_PHASE: "call_size 3..7",
            CALL_KIND_PHASE: "call_kind KIND",
            CALL_MODIFIERS: "call_modifier MOD or call_done",
        }.get(phase, "another action")
        return f"{action} is not possible now; expected {expected}", "Caller Clag calls"

    def _why_card_illegal(self, seat: int, action: Action) -> tuple[str, str]:
        if self.piles is not None:
            return "in a pile hand you play the next card of your pile (play_pile)", "blind pile"
        if action.kind != PLAY or not isinstance(action.value, int):
            return f"it is time to play a card, not {action}", "turn order"
        card = action.value
        name = format_card(card, labels=self.setup.labels)
        if not (self.hands[seat] >> card) & 1:
            return f"you do not hold {name}", "play a card from your hand"
        tables = self.tables
        assert tables is not None
        if not self.trick:
            return f"{name} is a trump, and trumps may not be led until broken", "trump lead"
        led = tables.suit_of[self.trick[0][1]]
        if self.hands[seat] & tables.suit_masks[led]:
            return f"you must follow suit ({SUIT_NAMES[led]} led)", "follow suit"
        return "you hold a trump and must play one (void in the led suit)", "must trump"

    def _why_bid_illegal(self, seat: int, action: Action) -> tuple[str, str]:
        if action.kind != BID or not isinstance(action.value, int):
            return f"it is time to bid, not {action}", "turn order"
        value, size = action.value, self.hand_size
        if self.spec.misere:
            return "in a misere hand everyone bids 0", "misere"
        made = sum(b for b in self.bids if b is not None)
        if value < 0 or value > size:
            return f"a bid is from {self.setup.min_bid} to {size} tricks", "bid range"
        if value < self.setup.min_bid:
            return f"the lowest bid is {self.setup.min_bid}", "minimum bid"
        if self.setup.sum_equals_hand:
            if self.bid_count == self.setup.players - 1:
                reason = (
                    f"the bids must total exactly {size}, so the last bid must be {size - made}"
                )
            else:
                reason = (
                    f"the bids must total exactly {size}; {made} are bid,"
                    f" so bid at most {size - made}"
                )
            return reason, "bids total the hand size"
        if self.hook and value == size - made:
            return (
                f"the last bid may not make the total equal {size} tricks",
                "hook rule",
            )
        return (
            f"you may not bid 0 after {self.zero_streak[seat]} zero bids in a row",
            "zero-bid limit",
        )

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action) -> None:
        """Take ``action`` for ``seat``; an illegal action raises and changes nothing."""
        if self.phase == PLAYING and seat == self.to_play:
            if self.piles is None and action.kind == PLAY:
                card = action.value
                assert isinstance(card, int)
                if 0 <= card < 54 and (self._legal_mask(seat) >> card) & 1:
                    self.events.append((seat, action))
                    self._play_card(seat, card)
                    return
            elif self.piles is not None and action.kind == PLAY_PILE:
                self.events.append((seat, action))
                pile = self.piles[seat]
                card = pile[self.pile_pos[seat]]
                self.pile_pos[seat] += 1
                self._play_card(seat, card)
                return
        self.check(seat, action)
        self.events.append((seat, action))
        kind = action.kind
        if kind == BID:
            assert isinstance(action.value, int)
            self._bid(seat, action.value)
        elif kind == CALL_SIZE:
            assert isinstance(action.value, int)
            self.call = calls.Call(action.value)
            self.hand_size = action.value
            self.spec = HandSpec(number=self.hands_played + 1, hand_size=action.value)
            self.phase = DEAL
        elif kind == CALL_KIND:
            assert self.call is not None
            self.call.kind = str(action.value)
            self.phase = CALL_MODIFIERS
        elif kind == CALL_MODIFIER:
            assert self.call is not None
            self.call.modifiers.append(str(action.value))
        elif kind == CALL_DONE:
            self._finish_call()

    def _finish_call(self) -> None:
        call = self.call
        assert call is not None
        call.done = True
        spec, hook = calls.called_hand(call, number=self.hands_played + 1, base=self.rules.scoring)
        self._use_spec(spec)
        self.hook = self.setup.hook or hook
        if spec.blind_hand:
            self.shuffle_seats = tuple(range(self.setup.players))
        elif spec.pile:
            # The caller has seen their cards: theirs go back into a shuffled pile;
            # the others' face-down piles are played in the order dealt.
            self.shuffle_seats = (self.dealer,)
        self._prepare_hand()
        self.cards_seen[self.dealer] = True

    def _bid(self, seat: int, value: int) -> None:
        self.bids[seat] = value
        self.bid_count += 1
        if self.bid_count < self.setup.players:
            return
        for s, b in enumerate(self.bids):
            self.zero_streak[s] = self.zero_streak[s] + 1 if b == 0 else 0
        if self.spec.blind_bid and not self.spec.pile:
            self.cards_seen = [True] * self.setup.players
        if not self.trump_known:
            self._fix_trump()
        else:
            self._after_bidding_trump_known()

    def _play_card(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append((seat, card))
        tables = self.tables
        assert tables is not None
        if self.trump is not None and tables.suit_of[card] == self.trump:
            self.trump_broken = True
        n = self.setup.players
        if len(trick) < n:
            self.to_play = (seat + 1) % n
            return
        winner = tables.winner(trick)
        self.tricks_won[winner] += 1
        self.trick_cards.append(tuple(trick))
        self.trick_winners.append(winner)
        self.trick = []
        self.leader = self.to_play = winner
        if len(self.trick_cards) == self.hand_size:
            self._score_hand()

    # ---------------------------------------------------------------- scoring

    def _score_hand(self) -> None:
        setup, size, n = self.setup, self.hand_size, self.setup.players
        bids = [b if b is not None else 0 for b in self.bids]
        all_exact = all(t == b for t, b in zip(self.tricks_won, bids, strict=True))
        if setup.cooperative:
            hand_scores = [0] * n
        else:
            hand_scores = [
                self.scoring.score(
                    bid=bids[s], tricks=self.tricks_won[s], hand_size=size, players=n
                )
                for s in range(n)
            ]
            points = self.scoring.trick_points
            if points is not None:
                for k, winner in enumerate(self.trick_winners, start=1):
                    hand_scores[winner] += points(k=k, hand_size=size, players=n)
        for s in range(n):
            self.scores[s] += hand_scores[s]
        special: dict[str, object] | None = None
        if self.call is not None:
            special = self.call.describe()
        elif self.spec.name is not None:
            special = {"name": self.spec.name}
        if self.piles is not None:
            deal = tuple(tuple(p) for p in self.piles)
        else:
            deal = tuple(tuple(cards) for cards in self.dealt)
        self.history.append(
            HandResult(
                number=self.hands_played + 1,
                hand_size=size,
                dealer=self.dealer,
                trump=self.trump,
                turn_up=self.turn_up,
                deal=deal,
                bids=tuple(bids),
                trick_cards=tuple(self.trick_cards),
                tricks=tuple(self.tricks_won),
                trick_winners=tuple(self.trick_winners),
                hand_scores=tuple(hand_scores),
                total_scores=tuple(self.scores),
                special=special,
                all_exact=all_exact,
            )
        )
        self.hands_played += 1
        if setup.advance_when_all_exact:
            if all_exact:
                self.schedule_pos += 1
        else:
            self.schedule_pos += 1
        over = False
        if setup.called:
            over = self.hands_played >= setup.called_hands
        elif self.schedule_pos >= len(setup.schedule):
            over = True
            self.completed = True
        if setup.max_hands is not None and self.hands_played >= setup.max_hands:
            over = True
        self.dealer = (self.dealer + setup.dealer_step) % n
        if over:
            self.phase = GAME_OVER
            self.trick = []
            return
        self._begin_hand()

    # ----------------------------------------------------------------- queries

    def winners(self) -> list[int]:
        """Seats with the highest total (for a cooperative game: everyone if completed)."""
        if self.setup.cooperative:
            return list(range(self.players)) if self.completed else []
        best = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == best]

    def hand_visible(self, seat: int) -> bool:
        """Whether ``seat`` may look at its own cards now."""
        return self.cards_seen[seat]

    def clone(self) -> GameState:
        """An independent copy for search: changing it never changes this state."""
        other = object.__new__(GameState)
        other.rules = self.rules
        other.setup = self.setup
        other.seed = self.seed
        other.scores = self.scores[:]
        other.zero_streak = self.zero_streak[:]
        other.history = self.history[:]
        other.events = self.events[:]
        other.hands_played = self.hands_played
        other.schedule_pos = self.schedule_pos
        other.completed = self.completed
        other.dealer_draw = self.dealer_draw
        other.first_dealer = self.first_dealer
        other.dealer = self.dealer
        other.spec = self.spec
        other.hand_size = self.hand_size
        other.hook = self.hook
        other.scoring = self.scoring
        other.phase = self.phase
        other.hands = self.hands[:]
        other.piles = [p[:] for p in self.piles] if self.piles is not None else None
        other.pile_pos = self.pile_pos[:]
        other.dealt = [d[:] for d in self.dealt]
        other.rest = self.rest
        other.turn_up = self.turn_up
        other.trump = self.trump
        other.trump_known = self.trump_known
        other.tables = self.tables
        other.bids = self.bids[:]
        other.bid_count = self.bid_count
        other.tricks_won = self.tricks_won[:]
        other.trick = self.trick[:]
        other.trick_cards = self.trick_cards[:]
        other.trick_winners = self.trick_winners[:]
        other.leader = self.leader
        other.to_play = self.to_play
        other.trump_broken = self.trump_broken
        other.cards_seen = self.cards_seen[:]
        other.call = self.call.copy() if self.call is not None else None
        other.shuffle_seats = self.shuffle_seats
        return other

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know now; see :class:`Observation`."""
        return build_observation(self, seat)

    def record(self) -> GameRecord:
        """The versioned record of this game so far (replays with :func:`replay`)."""
        return GameRecord.of(self)


def new_game(
    rules: Ruleset, *, players: int, seed: int = 0, first_dealer: int | None = None
) -> GameState:
    """Start a game of ``rules`` for ``players`` seats, seeded by ``seed``.

    The first dealer is drawn from the seed unless given.
    """
    return GameState(rules, players=players, seed=seed, first_dealer=first_dealer)


from tricktaker.engine.observation import Observation, build_observation  # noqa: E402
from tricktaker.engine.record import GameRecord  # noqa: E402
