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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tricktaker.engine.actions import BID, PLAY, PLAY_PILE, Action
from tricktaker.engine.base import (
    BIDDING,
    CHANCE_PHASES,
    DEAL,
    GAME_OVER,
    HOOK,
    PHASE_NAMES,
    PLAYING,
    ChanceOutcome,
    mix_seed,
)
from tricktaker.engine.bidding import BiddingMixin
from tricktaker.engine.dealing import DealingMixin
from tricktaker.engine.errors import IllegalActionError
from tricktaker.engine.observation import build_observation as _build_observation
from tricktaker.engine.observation import build_observations as _build_observations
from tricktaker.engine.play import ACTIONS_BY_PATTERN, PlayMixin
from tricktaker.engine.results import HandResult
from tricktaker.engine.setup import Setup, draw_for_dealer
from tricktaker.rules.ruleset import HandSpec, Ruleset, RulesetError

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.record import GameRecord

__all__ = ["ChanceOutcome", "GameState", "new_game"]

_CHANCE_STEPS = {"deal": 1, "trump_draw": 2, "pile_shuffle": 3, "first_dealer": 4, "hook": 5}


class GameState(DealingMixin, BiddingMixin, PlayMixin):
    """A whole game in progress. Create one with :func:`new_game`."""

    __slots__ = ()

    def __init__(
        self,
        rules: Ruleset,
        *,
        players: int,
        seed: int,
        first_dealer: int | None = None,
        deals: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.rules = rules
        self.setup = setup = Setup.of(rules, players)
        self.hooks = setup.hooks
        if setup.called and self.hooks is None:
            raise RulesetError(
                f"{rules.where('schedule.called')}: schedule.called: the dealer calls each"
                " hand, which a game's hooks take; this ruleset names none (hooks = ...)"
            )
        self.seed = seed
        self.given_deals = None
        if deals is not None:
            deck = sorted(setup.deck)
            self.given_deals = tuple(tuple(order) for order in deals)
            if any(sorted(order) != deck for order in self.given_deals):
                raise ValueError("every given deal must be an order of the game's whole deck")
        self.scores = [0] * players
        self.zero_streak = [0] * players
        self.history = []
        self.events = []
        self.hands_played = 0
        self.redeals = 0
        self.schedule_pos = 0
        self.completed = False
        self.dealer_draw = []
        self.first_dealer_given = first_dealer is not None
        if first_dealer is None:
            if rules.spec.table.first_dealer == "draw":
                first_dealer, self.dealer_draw = draw_for_dealer(
                    self._rng("first_dealer"),
                    players,
                    break_ties_by_suit=rules.spec.table.draw_ties == "suit",
                )
            else:
                first_dealer = mix_seed(seed, _CHANCE_STEPS["first_dealer"]) % players
        elif not 0 <= first_dealer < players:
            raise ValueError(f"first_dealer must be a seat 0..{players - 1}, not {first_dealer}")
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.ext = self.hooks.init_game(self) if self.hooks is not None else None
        self._begin_hand()

    # ----------------------------------------------------------------- basics

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def phase_name(self) -> str:
        if self.phase == HOOK and self.hooks is not None:
            return self.hooks.phase_name(self)
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def is_chance(self) -> bool:
        if self.phase == HOOK:
            return self.hooks is not None and self.hooks.chance_kind(self) is not None
        return self.phase in CHANCE_PHASES

    def _rng(self, step: str) -> random.Random:
        if self.redeals:
            return random.Random(
                mix_seed(self.seed, self.hands_played, _CHANCE_STEPS[step], self.redeals)
            )
        return random.Random(mix_seed(self.seed, self.hands_played, _CHANCE_STEPS[step]))

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: one, several (simultaneous bids) or none."""
        phase = self.phase
        if phase == PLAYING:
            return (self.to_play,)
        if phase == BIDDING:
            if self.setup.simultaneous:
                return tuple(s for s, b in enumerate(self.bids) if b is None)
            return ((self.eldest + self.bid_count) % self.setup.players,)
        if phase == HOOK and self.hooks is not None and self.hooks.chance_kind(self) is None:
            return self.hooks.to_act(self)
        return ()

    # ------------------------------------------------------------ hand set-up

    def _begin_hand(self) -> None:
        self.redeals = 0
        self._reset_cards()
        schedule = self.setup.schedule
        if schedule:
            self._use_spec(schedule[self.schedule_pos % len(schedule)])
        else:  # a called schedule: each hand's size is called before its deal
            self._use_spec(HandSpec(number=self.hands_played + 1, hand_size=0))
        if self.hooks is not None:
            self.hooks.begin_hand(self)
        else:
            self.phase = DEAL

    def redeal(self) -> None:
        """Throw the cards in and deal the same hand again from a new shuffle
        (for hooks: Buckup's 19 redeal). Scores and the game's own data are kept."""
        self.redeals += 1
        self._reset_cards()
        self.phase = DEAL

    def _reset_cards(self) -> None:
        setup = self.setup
        n = setup.players
        self.hands = [0] * n
        self.piles = None
        self.pile_pos = [0] * n
        self.dealt = [[] for _ in range(n)]
        self.kitty = []
        self.rest = ()
        self.turn_up = None
        self.trump = None
        self.trump_known = False
        self.tables = None
        self.bids = [None] * n
        self.bid_count = 0
        self.tricks_won = [0] * n
        self.trick = []
        self.trick_cards = []
        self.trick_winners = []
        self.leader = self.to_play = self.eldest
        self.active = None
        self.trump_broken = False
        self.cards_seen = [False] * n
        self.shuffle_seats = ()
        self._legal_cache = -1
        self._bid_cache = None
        self._hook_cache = None

    def _use_spec(self, spec: HandSpec) -> None:
        self.spec = spec
        self.hand_size = spec.hand_size
        self.hook = self.setup.hook
        self.scoring = spec.scoring or self.rules.scoring

    def use_hand_spec(self, spec: HandSpec, *, hook: bool | None = None) -> None:
        """Play the hand in progress by ``spec`` (its size, special rules, card order and
        scoring), for a game whose hooks decide them each hand (a caller's call);
        ``hook``: whether the hook rule holds in it (None: as the ruleset says)."""
        self._use_spec(spec)
        if hook is not None:
            self.hook = hook

    def prepare_hand(self) -> None:
        """Go on after the deal (and anything a game's hooks do after it): who sees their
        cards, then the trump and the bids, as the ruleset and the hand's spec say."""
        self._prepare_hand()

    # ---------------------------------------------------------------- legality

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not their turn)."""
        phase = self.phase
        if phase == PLAYING:
            if seat != self.to_play:
                return []
            if self.piles is not None:
                return [Action(PLAY_PILE)]
            mask = self._legal_cache
            if mask < 0:
                mask = self._legal_cache = self._legal_mask(seat)
            # The actions of the mask's cards, from per-suit tables (the hottest path).
            out: list[Action] = []
            chunk = 0
            while mask:
                pattern = mask & 0x1FFF
                if pattern:
                    out += ACTIONS_BY_PATTERN[chunk][pattern]
                mask >>= 13
                chunk += 1
            return out
        if phase == BIDDING and not self.setup.simultaneous:
            if seat != (self.eldest + self.bid_count) % self.setup.players:
                return []
            return self.legal_bid_actions(seat)
        if phase == HOOK:
            cache = self._hook_cache
            if cache is not None and cache[0] == seat:
                return list(cache[1])  # listed for this seat in this very position
            if self.hooks is None or seat not in self.to_act():
                return []
            listed = self.hooks.legal_actions(self, seat)
            self._hook_cache = (seat, tuple(listed))
            return listed
        if seat not in self.to_act():
            return []
        if phase == BIDDING:
            return self.legal_bid_actions(seat)
        return []

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        return self.why_illegal(seat, action) is None

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the action is legal."""
        problem = self.why_illegal(seat, action)
        if problem is not None:
            raise IllegalActionError(problem[0], rule=problem[1])

    def why_illegal(self, seat: int, action: Action) -> tuple[str, str] | None:
        """``(reason, rule)`` when ``seat`` may not take ``action`` now, else None."""
        if self.phase == GAME_OVER:
            return "the game is over", "end of game"
        if self.is_chance():
            return "the cards must be dealt first (a chance step is pending)", "turn order"
        if type(seat) is not int or not 0 <= seat < self.setup.players:
            return f"there is no seat {seat!r}", "seats"
        if isinstance(action.value, bool) or not isinstance(action.value, int | str):
            return f"{action!r} is not a well-formed action", "actions"
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
        assert phase == HOOK  # no other phase has a seat to act
        assert self.hooks is not None
        return self.hooks.why_illegal(self, seat, action)

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action) -> None:
        """Take ``action`` for ``seat``; an illegal action raises and changes nothing."""
        phase = self.phase
        if phase == PLAYING and seat == self.to_play and type(seat) is int:
            card = -1
            piles = self.piles
            if piles is None:
                value = action.value
                if action.kind == PLAY and type(value) is int and 0 <= value < 54:
                    mask = self._legal_cache
                    if mask < 0:
                        mask = self._legal_mask(seat)
                    if (mask >> value) & 1:
                        card = value
            elif action.kind == PLAY_PILE:
                card = piles[seat][self.pile_pos[seat]]
                self.pile_pos[seat] += 1
            if card >= 0:
                # Play the card (the trick's completion is in play.py).
                self.events.append((seat, action))
                self.hands[seat] &= ~(1 << card)
                self._legal_cache = -1
                trick = self.trick
                trick.append((seat, card))
                trump = self.trump
                if trump is not None and self.tables.suit_of[card] == trump:  # type: ignore[union-attr]
                    self.trump_broken = True
                active = self.active
                if active is None:
                    players = self.setup.players
                    if len(trick) < players:
                        self.to_play = seat + 1 if seat + 1 < players else 0
                        return
                elif len(trick) < sum(active):
                    self.to_play = self.next_active(seat)
                    return
                self._finish_trick()
                return
        elif phase == BIDDING and action.kind == BID and type(seat) is int:
            value = action.value
            cache = self._bid_cache
            if cache is not None and cache[0] == seat:
                allowed = cache[1]  # asked for its bids in this very position: its turn
            elif seat in self.to_act():
                allowed = self._legal_bids(seat)
            else:
                allowed = []
            if type(value) is int and value in allowed:
                self.events.append((seat, action))
                self._bid(seat, value)
                return
        elif phase == HOOK and type(seat) is int:
            listed = self._hook_cache
            if listed is not None and listed[0] == seat and _listed(action, listed[1]):
                # Among the actions listed for this seat in this very position: legal.
                self._apply_hook(seat, action)
                return
        self.check(seat, action)
        assert phase == HOOK  # the check passed: a hook's action
        self._apply_hook(seat, action)

    def _apply_hook(self, seat: int, action: Action) -> None:
        """Take a hook phase's action, known to be legal."""
        self.events.append((seat, action))
        self._legal_cache = -1
        self._bid_cache = None
        self._hook_cache = None
        assert self.hooks is not None
        self.hooks.apply(self, seat, action)
        self._hook_cache = None

    # ---------------------------------------------------------------- scoring

    def _score_hand(self) -> None:
        setup, size, n = self.setup, self.hand_size, self.setup.players
        bid_list = [b if b is not None else 0 for b in self.bids]
        bids = tuple(bid_list)
        tricks = self.tricks_won
        all_exact = bid_list == tricks
        extra: dict[str, object] = {}
        if self.hooks is not None:
            result = self.hooks.score_hand(self)
            hand_scores = list(result.hand_scores)
            bids, extra = result.bids, result.extra
        else:
            hand_scores = self.standard_hand_scores()
        for s in range(n):
            self.scores[s] += hand_scores[s]
        special = self.called()
        if special is None and self.spec.name is not None:
            special = {"name": self.spec.name}
        source = self.piles if self.piles is not None else self.dealt
        self.history.append(
            HandResult(
                number=self.hands_played + 1,
                hand_size=size,
                dealer=self.dealer,
                trump=self.trump,
                turn_up=self.turn_up,
                deal=tuple([tuple(cards) for cards in source]),
                bids=bids,
                trick_cards=tuple(self.trick_cards),
                tricks=tuple(self.tricks_won),
                trick_winners=tuple(self.trick_winners),
                hand_scores=tuple(hand_scores),
                total_scores=tuple(self.scores),
                special=special,
                all_exact=all_exact,
                extra=extra,
            )
        )
        self.hands_played += 1
        if not setup.advance_when_all_exact or all_exact:
            self.schedule_pos += 1
        if self.hooks is not None:
            over = self.hooks.game_over(self)
        else:
            over = self.schedule_pos >= len(setup.schedule)
            self.completed = over
        if setup.max_hands is not None and self.hands_played >= setup.max_hands:
            over = True
        self.dealer = (self.dealer + setup.dealer_step) % n
        if over:
            self.phase = GAME_OVER
            self.trick = []
            return
        self._begin_hand()

    def called(self) -> dict[str, object] | None:
        """What the caller has called for the hand in progress, as public JSON data (a
        Caller Clag call: ``{"caller_size": 5, "kind": "no_trump", "modifiers": [...]}``):
        the observations' ``call`` and the finished hand's ``special``; None when nothing
        is called."""
        if self.hooks is not None:
            return self.hooks.describe_call(self)
        return None

    def standard_hand_scores(self) -> list[int]:
        """Each seat's points for the hand by the ruleset's formulas: the bid against the
        tricks taken, and any points per trick by its number (none in a cooperative game)."""
        setup, size = self.setup, self.hand_size
        n = setup.players
        if setup.cooperative:
            return [0] * n
        bids = [b if b is not None else 0 for b in self.bids]
        tricks = self.tricks_won
        score = self.scoring.score_of
        hand_scores = [score(bids[s], tricks[s], size, n) for s in range(n)]
        points = self.scoring.trick_points
        if points is not None:
            for k, winner in enumerate(self.trick_winners, start=1):
                hand_scores[winner] += points(k=k, hand_size=size, players=n)
        return hand_scores

    def finish_hand(
        self,
        tricks: Sequence[int] | None = None,
        *,
        trick_winners: Sequence[int] | None = None,
    ) -> None:
        """Score the hand now (for hooks: a throw-in or an uncontested pot ends it early).

        ``tricks``: score it as if each seat had taken that many tricks, the trick in
        progress dropped (a score sheet kept for real cards, or the kernel tabling a
        hand's outcomes); ``trick_winners``: who won each trick, in order, for rules that
        score a trick by its number (None: those recorded so far).
        """
        if tricks is not None:
            if len(tricks) != self.setup.players:
                raise ValueError(f"give the tricks of all {self.setup.players} seats")
            self.tricks_won = list(tricks)
            self.trick = []
        if trick_winners is not None:
            self.trick_winners = list(trick_winners)
        self._score_hand()

    # ------------------------------------------------------------- for search

    def reseed(self, seed: int) -> None:
        """Draw this game's later chance steps from ``seed`` (a search gives each sampled
        state fresh deals and draws); what has happened stays as it is."""
        self.seed = seed

    def replace_cards(
        self,
        *,
        hands: Mapping[int, int] | Sequence[int] | None = None,
        dealt: Mapping[int, Sequence[int]] | Sequence[Sequence[int]] | None = None,
        kitty: Sequence[int] | None = None,
    ) -> None:
        """Put other cards where the seats cannot see them (a search's sampled position):
        ``hands``, each seat's cards now as a card set; ``dealt``, the cards each seat was
        dealt (and took), in order; ``kitty``, the kitty's cards. Each is given for every
        seat (a sequence) or for some (a mapping from seat). The caller keeps the position
        consistent (the cards played stay where they are); the legal actions are worked
        out again."""
        if hands is not None:
            for seat, cards in hands.items() if isinstance(hands, Mapping) else enumerate(hands):
                self.hands[seat] = cards
        if dealt is not None:
            for seat, order in dealt.items() if isinstance(dealt, Mapping) else enumerate(dealt):
                self.dealt[seat] = list(order)
        if kitty is not None:
            self.kitty = list(kitty)
        self._invalidate()

    def set_past(
        self,
        *,
        hands_played: int | None = None,
        schedule_position: int | None = None,
        scores: Sequence[int] | None = None,
        zero_streak: Sequence[int] | None = None,
        history: Sequence[HandResult] | None = None,
        first_dealer: int | None = None,
        dealer_draw: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        """Give the game the public past of an observed one (search rebuilds the hand in
        progress on it): the hands played and the schedule's position, the scores and
        zero-bid streaks, the finished hands, the first dealer and the dealer draw. Only
        what is given changes; the hand in progress is not started again."""
        if hands_played is not None:
            self.hands_played = hands_played
        if schedule_position is not None:
            self.schedule_pos = schedule_position
        if scores is not None:
            self.scores = list(scores)
        if zero_streak is not None:
            self.zero_streak = list(zero_streak)
        if history is not None:
            self.history = list(history)
        if first_dealer is not None:
            self.first_dealer = first_dealer
        if dealer_draw is not None:
            self.dealer_draw = list(dealer_draw)
        self._invalidate()

    def _invalidate(self) -> None:
        """Forget the legal cards, bids and hook actions worked out for the position (it
        changed)."""
        self._legal_cache = -1
        self._bid_cache = None
        self._hook_cache = None

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
        other.hooks = self.hooks
        other.ext = self.ext.copy() if self.ext is not None else None
        other.seed = self.seed
        other.given_deals = self.given_deals
        other.scores = self.scores[:]
        other.zero_streak = self.zero_streak[:]
        other.history = self.history[:]
        other.events = self.events[:]
        other.hands_played = self.hands_played
        other.schedule_pos = self.schedule_pos
        other.completed = self.completed
        other.dealer_draw = self.dealer_draw
        other.first_dealer = self.first_dealer
        other.first_dealer_given = self.first_dealer_given
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
        other.kitty = self.kitty[:]
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
        other.active = self.active[:] if self.active is not None else None
        other.trump_broken = self.trump_broken
        other.cards_seen = self.cards_seen[:]
        other.shuffle_seats = self.shuffle_seats
        other._legal_cache = self._legal_cache
        other.redeals = self.redeals
        other._bid_cache = self._bid_cache
        other._hook_cache = self._hook_cache
        return other

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know now; see :class:`Observation`."""
        return _build_observation(self, seat)

    def observe_all(self) -> list[Observation]:
        """Every seat's observation, in seat order: each equals ``observe(seat)``, and
        the public fields (:data:`~tricktaker.engine.observation.SHARED_FIELDS`) are the
        same objects in all of them."""
        return _build_observations(self)

    def record(self, *, names: Sequence[str] | None = None) -> GameRecord:
        """The versioned record of this game so far (replays with :meth:`GameRecord.replay`);
        ``names``: the seats' names, kept in the record."""
        from tricktaker.engine.record import GameRecord

        return GameRecord.of(self, names=names)


def _listed(action: Action, actions: tuple[Action, ...]) -> bool:
    """Whether ``action`` is one of ``actions`` (the very object, as a caller that took it
    from the list passes it back, or an equal well-formed one)."""
    for listed in actions:
        if listed is action:
            return True
    value = action.value
    return (type(value) is int or type(value) is str) and action in actions


def new_game(
    rules: Ruleset,
    *,
    players: int,
    seed: int = 0,
    first_dealer: int | None = None,
    deals: Sequence[Sequence[int]] | None = None,
) -> GameState:
    """Start a game of ``rules`` for ``players`` seats, seeded by ``seed``.

    The first dealer is drawn from the seed unless given. ``deals``: the deck order
    (top first) of each hand's deal, hand by hand, used instead of the seeded shuffle
    (a duplicate set's deals, docs/duplicate.md); the deals the engine makes from them
    follow the ruleset as any deal does, and a hand past the last given deal, or dealt
    again, is shuffled from the seed.
    """
    return GameState(rules, players=players, seed=seed, first_dealer=first_dealer, deals=deals)


def game_at_hand(
    rules: Ruleset,
    *,
    players: int,
    hands_played: int,
    dealer: int,
    scores: Sequence[int] | None = None,
    schedule_position: int | None = None,
    zero_streak: Sequence[int] | None = None,
    seed: int = 0,
) -> GameState:
    """A game positioned at the start of a later hand, before its deal.

    For search and analysis: a bot that knows the public facts of a game (hands
    played, the dealer, the scores) rebuilds a state there and replays the hand in
    progress with sampled hidden cards. Not for games with hooks whose own data
    (plucks owed, a pot) comes from earlier hands (:attr:`GameHooks.hand_data_only
    <tricktaker.engine.hooks.GameHooks.hand_data_only>`).

    >>> from tricktaker import load_ruleset
    >>> state = game_at_hand(load_ruleset("bluke"), players=4, hands_played=12, dealer=3)
    >>> state.hand_size, state.dealer, state.phase_name
    (1, 3, 'deal')
    """
    if rules.hooks is not None and not rules.hooks.hand_data_only:
        raise ValueError(f"{rules.id} keeps data across hands; replay its record instead")
    state = GameState(rules, players=players, seed=seed, first_dealer=dealer)
    position = hands_played if schedule_position is None else schedule_position
    if not rules.spec.schedule.called and not 0 <= position < len(state.setup.schedule):
        raise ValueError(f"hand position {position} is outside the schedule")
    state.set_past(
        hands_played=hands_played,
        schedule_position=position,
        scores=scores,
        zero_streak=zero_streak,
    )
    state._begin_hand()
    return state
