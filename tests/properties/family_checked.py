"""The checked game of tests/test_properties.py: random legal actions or bots play a
game while every step is checked against the reference rules and the engine's contracts
(illegal actions change nothing, records replay, clones are independent, observations
show no card a seat may not see)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Final

import pytest

from tests.helpers import OH_HELL_GAMES
from tests.properties.family_observation import (
    exposed_cards,
    hand_kind,
    observation_key,
)
from tests.properties.family_rules import (
    MISERE_KINDS,
    NO_TRUMP_KINDS,
    Config,
    effective_suit,
    reference_legal,
    reference_scores,
    reference_winner,
)
from tricktaker import (
    ChanceOutcome,
    GameRecord,
    GameState,
    HandResult,
    IllegalActionError,
    Observation,
    new_game,
    replay,
)
from tricktaker.bots import Bot, make_bot
from tricktaker.cards import cards_of, parse_suit
from tricktaker.engine.actions import Action, bid, play

# ------------------------------------------------------------------ the game


@dataclass
class HandLog:
    """What the test itself knows of the hand in progress."""

    dealer: int
    size: int
    order: tuple[int, ...]
    dealt: list[list[int]]
    rest: tuple[int, ...]
    held: list[int]
    second_deck: int | None = None
    piles: list[list[int]] | None = None
    pile_pos: list[int] = field(default_factory=list)
    plays: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Intensity:
    """How often each (costly) check runs, per step."""

    observe_all: float = 0.15
    illegal: float = 0.03
    full_snapshot: float = 0.1
    clone: float = 0.01
    replay_mid: float = 0.001
    explicit_chance: float = 0.5


SWEEP: Final = Intensity(observe_all=0.04, illegal=0.01, clone=0.004, replay_mid=0.0)
"""Lighter checks for the sweep over every configuration (all checks still run)."""

Snapshot = tuple[object, tuple[Observation, ...], tuple[int, ...], str]


class CheckedGame:
    """Plays one game with random legal actions (or bots) and checks it throughout."""

    def __init__(
        self,
        config: Config,
        *,
        seed: int,
        choice_seed: int,
        bots: list[Bot] | None = None,
        intensity: Intensity | None = None,
    ) -> None:
        self.config = config
        self.rules = config.ruleset()
        self.players = config.players
        self.options = dict(config.options)
        self.state = new_game(self.rules, players=config.players, seed=seed)
        self.rng = random.Random(choice_seed)
        self.bots = bots
        self.intensity = intensity or Intensity()
        self.deck = self.rules.deck(config.players)
        spec = self.rules.spec
        self.jokers_trump = spec.play.jokers == "trump"
        self.must_trump = spec.play.must_trump
        self.trump_lead_after_broken = spec.play.trump_lead == "after_broken"
        self.simultaneous = spec.bidding.style == "simultaneous"
        self.called = spec.schedule.called
        self.known = config.game in OH_HELL_GAMES
        self.log: HandLog | None = None
        self.hands_checked = 0
        self.zero_streak = [0] * config.players
        self.twin: GameState | None = None
        self.twin_steps = 0
        self.illegal_tried = 0

    # -------------------------------------------------------------- driving

    def run(self) -> GameState:
        state = self.state
        intensity = self.intensity
        rng = self.rng
        steps = 0
        while not state.is_terminal():
            steps += 1
            assert steps < 200_000, "the game does not end"
            if rng.random() < intensity.illegal:
                self.try_illegal()
            if rng.random() < intensity.observe_all:
                for seat in range(self.players):
                    self.check_observation(seat)
            if self.twin is None and rng.random() < intensity.clone:
                self.check_clone()
            if rng.random() < intensity.replay_mid:
                self.check_replay()
            if state.is_chance():
                self.chance_step()
            else:
                self.action_step()
            self.after_step()
        self.check_game_end()
        return state

    def chance_step(self) -> None:
        state = self.state
        phase = state.phase_name
        assert state.to_act() == ()
        assert all(state.legal_actions(s) == [] for s in range(self.players))
        sampled = state.sample_chance()
        assert state.sample_chance() == sampled  # sampling does not consume the seed
        explicit = self.rng.random() < self.intensity.explicit_chance
        if not self.known:
            state.apply_chance(sampled if explicit else None)
            if self.twin is not None:
                self.twin.apply_chance(sampled)
            return
        if explicit:
            outcome = self.random_outcome(phase)
            state.apply_chance(outcome)
        else:
            outcome = sampled
            state.apply_chance()
        if self.twin is not None:
            self.twin.apply_chance(outcome)
        if phase == "deal":
            self.after_deal(outcome)
        elif phase == "trump_draw":
            assert self.log is not None
            assert outcome.kind == "second_deck"
            self.log.second_deck = outcome.cards[0]
        elif phase == "pile_shuffle":
            assert self.log is not None
            size = self.log.size
            self.log.piles = [
                list(outcome.cards[s * size : (s + 1) * size]) for s in range(self.players)
            ]
            shuffled = self.shuffled_seats()
            for seat in range(self.players):
                assert sorted(self.log.piles[seat]) == sorted(self.log.dealt[seat])
                if seat not in shuffled:
                    assert self.log.piles[seat] == self.log.dealt[seat], "a pile was shuffled"
            self.log.pile_pos = [0] * self.players
        else:  # pragma: no cover
            raise AssertionError(f"unexpected chance phase {phase}")

    def random_outcome(self, phase: str) -> ChanceOutcome:
        if phase == "deal":
            order = list(self.deck)
            self.rng.shuffle(order)
            return ChanceOutcome("deal", tuple(order))
        if phase == "trump_draw":
            return ChanceOutcome("second_deck", (self.rng.randrange(52),))
        assert phase == "pile_shuffle"
        assert self.log is not None
        cards: list[int] = []
        shuffled = self.shuffled_seats()
        for seat in range(self.players):
            pile = list(self.log.dealt[seat])
            if seat in shuffled:
                self.rng.shuffle(pile)
            cards.extend(pile)
        return ChanceOutcome("piles", tuple(cards))

    def shuffled_seats(self) -> set[int]:
        """Caller Clag: in a blind hand everyone shuffles the hand they looked at into a
        pile; in a called blind pile only the caller, who has seen their cards, does."""
        kind = hand_kind(self.state.observe(0))
        if kind == "blind_pile":
            return {self.state.dealer}
        return set(range(self.players))

    def action_step(self) -> None:
        state = self.state
        acting = state.to_act()
        assert acting, f"no seat to act in phase {state.phase_name}"
        seat = self.rng.choice(acting)
        for other in range(self.players):
            if other not in acting:
                assert state.legal_actions(other) == [], f"seat {other} may act out of turn"
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        assert len(set(legal)) == len(legal)
        if state.phase_name == "playing" and self.known:
            self.check_play_legality(seat, legal)
        if self.bots is not None:
            obs = state.observe(seat)
            action = self.bots[seat].act(obs)
            assert action in legal, f"bot {self.bots[seat].name} chose illegal {action}"
        else:
            action = self.rng.choice(legal)
        assert state.is_legal(seat, action)
        played: int | None = None
        if not self.known:
            pass
        elif action.kind == "play":
            assert isinstance(action.value, int)
            played = action.value
        elif action.kind == "play_pile":
            assert self.log is not None
            pile = self.log.piles if self.log.piles is not None else self.log.dealt
            played = pile[seat][self.log.pile_pos[seat]]
            self.log.pile_pos[seat] += 1
        state.apply(seat, action)
        if self.twin is not None:
            self.twin.apply(seat, action)
        if played is not None:
            assert self.log is not None
            assert (self.log.held[seat] >> played) & 1, f"seat {seat} played {played} not held"
            self.log.held[seat] &= ~(1 << played)
            self.log.plays.append((seat, played))

    def after_step(self) -> None:
        state = self.state
        if self.twin is not None:
            self.twin_steps -= 1
            if self.twin_steps <= 0 or state.is_terminal():
                self.compare_twin()
        while self.hands_checked < len(state.history):
            if self.known:
                self.check_hand(state.history[self.hands_checked])
            self.hands_checked += 1
            self.log = None

    # -------------------------------------------------------------- the deal

    def after_deal(self, outcome: ChanceOutcome) -> None:
        """docs/games/<id>.md, Deal and trump: the cards are dealt one at a time from the
        eldest (docs/games/la_podrida.md: counter-clockwise); the rest stay undealt."""
        state = self.state
        n, size, dealer = self.players, state.hand_size, state.dealer
        order = outcome.cards
        assert sorted(order) == sorted(self.deck)
        assert len(set(order)) == len(order)
        assert size >= 1
        assert size * n <= len(self.deck)
        if self.rules.spec.table.deal_direction == "counterclockwise":
            seats = [(dealer - 1 - i) % n for i in range(n)]
        else:
            seats = [(dealer + 1 + i) % n for i in range(n)]
        dealt: list[list[int]] = [[] for _ in range(n)]
        for i in range(size * n):
            dealt[seats[i % n]].append(order[i])
        rest = order[size * n :]
        assert state.rest == rest, "the undealt cards are not the rest of the deck"
        assert [list(d) for d in state.dealt] == dealt, "cards were not dealt one at a time in turn"
        held = [sum(1 << c for c in cards) for cards in dealt]
        assert state.hands == held
        all_cards = [c for cards in dealt for c in cards] + list(rest)
        assert sorted(all_cards) == sorted(self.deck), "deal + undealt is not the deck"
        self.log = HandLog(dealer=dealer, size=size, order=order, dealt=dealt, rest=rest, held=held)
        self.log.pile_pos = [0] * n

    # ---------------------------------------------------------------- play

    def check_play_legality(self, seat: int, legal: list[Action]) -> None:
        """docs/games/<id>.md, Play: follow suit, Blukes (bluke.md), must trump
        (romanian_whist.md, la_podrida.md), no trump lead before broken (jabberwocky.md)."""
        state, log = self.state, self.log
        assert log is not None
        assert state.hands[seat] == log.held[seat]
        if state.piles is not None:
            assert [a.kind for a in legal] == ["play_pile"], legal
            return
        trump = state.trump
        assert state.trump_known
        trick = list(state.trick)
        played_before = log.plays[: len(log.plays) - len(trick)]
        assert log.plays[len(played_before) :] == trick
        broken = any(effective_suit(c, trump, self.jokers_trump) == trump for _, c in played_before)
        expected = reference_legal(
            cards_of(log.held[seat]),
            trick,
            trump=trump,
            jokers_trump=self.jokers_trump,
            must_trump=self.must_trump,
            trump_lead_after_broken=self.trump_lead_after_broken,
            trump_broken=broken,
        )
        got = {a.value for a in legal if a.kind == "play" and isinstance(a.value, int)}
        assert len(got) == len(legal)
        assert got == expected, (
            f"seat {seat} hand {cards_of(log.held[seat])} trick {trick}"
            f" trump {trump}: legal {sorted(got)} != rules {sorted(expected)}"
        )

    # ----------------------------------------------------------- hand checks

    def check_hand(self, hr: HandResult) -> None:
        log = self.log
        assert log is not None, "a hand ended that the test did not see dealt"
        n, size = self.players, log.size
        state = self.state
        assert hr.number == self.hands_checked + 1
        assert hr.hand_size == size
        assert hr.dealer == log.dealer
        special = hr.special or {}
        kind = special.get("kind", special.get("name"))
        modifiers = [str(m) for m in special.get("modifiers", [])]

        # Every card dealt exactly once (docs/games/<id>.md, Deal and trump).
        assert len(hr.deal) == n
        for seat in range(n):
            assert len(hr.deal[seat]) == size
            assert sorted(hr.deal[seat]) == sorted(log.dealt[seat])
            if log.piles is not None:
                assert list(hr.deal[seat]) == log.piles[seat]
        dealt_cards = [c for cards in hr.deal for c in cards]
        assert len(set(dealt_cards)) == len(dealt_cards), "a card was dealt twice"
        assert sorted(dealt_cards + list(log.rest)) == sorted(self.deck)

        self.check_trump(hr, log, kind, modifiers)
        self.check_bids(hr, kind, modifiers)

        # Tricks: one card per seat in turn, the winner leads the next trick.
        assert len(hr.trick_cards) == size
        assert len(hr.trick_winners) == size
        assert sum(hr.tricks) == size, f"tricks {hr.tricks} do not sum to {size}"
        leader = (log.dealer + 1) % n  # eldest leads the first trick
        precedence = next(
            (m.removeprefix("precedence_") for m in modifiers if m.startswith("precedence_")),
            None,
        )
        for number, trick in enumerate(hr.trick_cards):
            assert [s for s, _ in trick] == [(leader + i) % n for i in range(n)], (
                f"trick {number + 1} is not played clockwise from its leader {leader}"
            )
            winner = hr.trick_winners[number]
            expected = reference_winner(
                trick,
                trump=hr.trump,
                jokers_trump=self.jokers_trump,
                nuloss="nuloss" in modifiers,
                precedence=precedence,
            )
            assert winner == expected, (
                f"hand {hr.number} trick {number + 1} {trick} trump {hr.trump}:"
                f" engine winner {winner}, rules winner {expected}"
            )
            leader = winner
        for seat in range(n):
            assert hr.tricks[seat] == hr.trick_winners.count(seat)
        played = [pair for trick in hr.trick_cards for pair in trick]
        assert played == log.plays
        for seat in range(n):
            mine = [c for s, c in played if s == seat]
            assert sorted(mine) == sorted(log.dealt[seat]), "a seat did not play its own cards"
            if log.piles is not None or kind == "blind_pile":
                pile = log.piles if log.piles is not None else log.dealt
                assert mine == pile[seat], "a pile was not played in pile order"
        assert all(h == 0 for h in log.held)

        # Scores (docs/games/<id>.md, Scoring) and running totals.
        assert hr.all_exact == all(b == t for b, t in zip(hr.bids, hr.tricks, strict=True))
        expected_scores = reference_scores(self.config.game, self.options, hr)
        assert list(hr.hand_scores) == expected_scores, (
            f"hand {hr.number} ({kind}, {modifiers}) bids {hr.bids} tricks {hr.tricks}:"
            f" scores {hr.hand_scores}, rules say {expected_scores}"
        )
        previous = state.history[hr.number - 2].total_scores if hr.number > 1 else (0,) * n
        assert list(hr.total_scores) == [
            p + h for p, h in zip(previous, hr.hand_scores, strict=True)
        ]

    def check_trump(self, hr: HandResult, log: HandLog, kind: object, modifiers: list[str]) -> None:
        """docs/games/<id>.md, Deal and trump: turn-up trump, a Bluke turned up (bluke.md),
        second deck (coop_blackout.md, la_podrida.md), rotation (kachuful.md); no-trump
        hands (Special hands)."""
        trump_spec = self.rules.spec.trump
        method = trump_spec.method
        precedence = any(m.startswith("precedence_") for m in modifiers)
        if kind in NO_TRUMP_KINDS or precedence or method == "none":
            assert (hr.trump, hr.turn_up) == (None, None), f"hand {hr.number} should be no trump"
        elif method == "rotate":
            rotation = [parse_suit(s) for s in trump_spec.rotation]
            assert hr.trump == rotation[(hr.number - 1) % len(rotation)]
        elif method == "second_deck" or (not log.rest and trump_spec.when_no_card == "second_deck"):
            assert log.second_deck is not None
            assert hr.turn_up == log.second_deck
            assert hr.trump == log.second_deck // 13
        elif log.rest:
            assert hr.turn_up == log.rest[0], "the turn-up is not the next undealt card"
            assert hr.trump == (None if log.rest[0] >= 52 else log.rest[0] // 13)
        else:
            assert (hr.trump, hr.turn_up) == (None, None), "all cards dealt: no trump"

    def check_bids(self, hr: HandResult, kind: object, modifiers: list[str]) -> None:
        """docs/games/<id>.md, Bidding: bid range, hook rule, cooperative totals
        (coop_blackout.md), the zero-bid limit (kachuful.md); misère (Special hands)."""
        bidding = self.rules.spec.bidding
        size = hr.hand_size
        if kind in MISERE_KINDS:
            assert all(b == 0 for b in hr.bids), "in a misere hand everyone bids 0"
        else:
            low = min(bidding.min_bid, size)
            assert all(low <= b <= size for b in hr.bids), f"bids {hr.bids} out of range"
        if bidding.hook or "non_exact" in modifiers:
            assert sum(hr.bids) != size, f"hook rule: bids {hr.bids} total {size}"
        if bidding.sum_equals_hand:
            assert sum(hr.bids) == size, f"bids {hr.bids} must total {size}"
        limit = bidding.zero_streak_limit
        for seat, b in enumerate(hr.bids):
            self.zero_streak[seat] = self.zero_streak[seat] + 1 if b == 0 else 0
            if limit is not None and self.players >= bidding.zero_streak_min_players:
                assert self.zero_streak[seat] <= limit, f"seat {seat} bid 0 too often"

    # ------------------------------------------------------------ observation

    def check_observation(self, seat: int) -> None:
        """The observation shows nothing the seat may not see, and what it shows is true."""
        state = self.state
        obs = state.observe(seat)
        n = self.players
        assert obs.seat == seat
        assert obs.players == n
        assert obs.phase == state.phase_name
        assert obs.to_act == state.to_act()
        assert obs.is_my_turn == (seat in state.to_act())
        assert list(obs.legal_actions) == state.legal_actions(seat)
        assert obs.scores == tuple(state.scores)
        assert obs.hands_played == len(state.history)
        assert len(obs.history) == len(state.history)
        assert obs.dealer == state.dealer
        assert obs.hand is None or obs.hand == state.hands[seat]
        if not self.known:
            # Another game: at least no other seat's cards in the card fields.
            hidden = 0
            for other in range(n):
                if other != seat:
                    hidden |= state.hands[other]
            shown = exposed_cards(obs, turn_up_from_deck=False)
            leaked = [c for c in shown if (hidden >> c) & 1]
            assert not leaked, f"seat {seat} in phase {obs.phase} sees other seats' {leaked}"
            return
        assert obs.history == tuple(state.history)
        assert not obs.extra
        if obs.hand is not None:
            assert obs.cards_in_hand == bin(obs.hand).count("1")
        kind = hand_kind(obs)
        phase = obs.phase
        caller_sees = self.called and seat == state.dealer
        # Who may look at their own cards.
        if phase in ("bidding", "playing", "trump_draw", "pile_shuffle"):
            blind = kind == "blind_pile" or (kind == "blind_bid" and phase == "bidding")
            if blind and not caller_sees:
                assert obs.hand is None, f"seat {seat} sees its cards in a {kind} hand"
            elif not blind:
                assert obs.hand is not None, f"seat {seat} cannot see its cards ({kind})"
        if phase in ("call_kind", "call_modifiers"):
            assert (obs.hand is not None) == (seat == state.dealer), "only the caller looks"
        if phase in ("call_size", "deal", "game_over"):
            assert obs.hand is None
        # Simultaneous bids stay hidden until all are in (docs/games/blackout.md, Options:
        # `simultaneous_bidding`; docs/games/kachuful.md, Bidding).
        if self.simultaneous and phase == "bidding":
            for other in range(n):
                if other != seat:
                    assert obs.bids[other] is None, f"seat {seat} sees seat {other}'s bid"
        elif phase in ("playing", "game_over"):
            assert obs.bids == tuple(state.bids)
        # Bids before trump: the trump stays hidden while bidding (docs/games/clag.md,
        # Special hands: hand 9; docs/games/caller_clag.md, Special hands).
        if kind == "bid_before_trump" and phase == "bidding":
            assert obs.trump is None
            assert obs.turn_up is None
            assert obs.tables is None
            assert not obs.trump_known
        if phase == "playing":
            assert obs.trump_known
        # No hidden card anywhere in the observation.
        hidden = 0
        for other in range(n):
            if other != seat:
                hidden |= state.hands[other]
        if obs.hand is None:
            hidden |= state.hands[seat]
        turn_up_from_deck = bool(state.rest) and state.turn_up == state.rest[0]
        for index, card in enumerate(state.rest):
            if not (index == 0 and turn_up_from_deck and obs.turn_up is not None):
                hidden |= 1 << card
        shown = exposed_cards(obs, turn_up_from_deck=turn_up_from_deck)
        leaked = [c for c in shown if (hidden >> c) & 1]
        assert not leaked, f"seat {seat} in phase {phase} ({kind}) sees hidden cards {leaked}"

    # ------------------------------------------------------- illegal actions

    def snapshot(self, *, full: bool = True) -> Snapshot:
        """The state as the outside sees it: its record text (or, cheaper, its events)
        and every seat's observation."""
        state = self.state
        events: object = state.record().dumps() if full else tuple(state.events)
        return (
            events,
            tuple(state.observe(s) for s in range(self.players)),
            state.to_act(),
            state.phase_name,
        )

    def illegal_candidates(self) -> list[tuple[int, Action]]:
        state, rng, n = self.state, self.rng, self.players
        out: list[tuple[int, Action]] = []
        if state.is_terminal() or state.is_chance():
            seat = rng.randrange(n)
            out += [(seat, bid(0)), (seat, play(rng.choice(self.deck)))]
            out.append((seat, Action("play_pile")))
            return out
        acting = state.to_act()
        seat = rng.choice(acting)
        legal = state.legal_actions(seat)
        for other in range(n):
            if other not in acting:
                out.append((other, rng.choice(legal)))  # out of turn
        out += [(n, legal[0]), (-1, legal[0])]  # no such seat
        phase = state.phase_name
        hand = state.hands[seat]
        if phase == "playing":
            not_held = [c for c in self.deck if not (hand >> c) & 1]
            if not_held:
                out.append((seat, play(rng.choice(not_held))))  # a card not in hand
            out += [(seat, play(c)) for c in cards_of(hand)]  # breaking follow suit, or pile
            out += [(seat, bid(0)), (seat, Action("play_pile")), (seat, Action("call_done"))]
        elif phase == "bidding":
            size = state.hand_size
            out += [(seat, bid(size + 1)), (seat, bid(-1)), (seat, bid(size + rng.randint(2, 90)))]
            out += [(seat, bid(b)) for b in range(size + 1)]  # hook, minimum, totals, misere
            if hand:
                out.append((seat, play(cards_of(hand)[0])))
            out.append((seat, Action("play_pile")))
        else:  # Caller Clag calls
            out += [(seat, Action("call_size", v)) for v in (0, 1, 2, 8, 13)]
            out += [(seat, Action("call_kind", "bogus")), (seat, Action("call_modifier", "x"))]
            out += [(seat, Action("call_kind", "normal")), (seat, Action("call_done"))]
            call = state.observe(seat).call
            if call is not None:
                modifiers = call.get("modifiers")
                assert isinstance(modifiers, list)
                out += [(seat, Action("call_modifier", str(m))) for m in modifiers]
            out.append((seat, bid(0)))
        return [(s, a) for s, a in out if not (0 <= s < n and a in state.legal_actions(s))]

    def try_illegal(self) -> None:
        """Only legal actions are accepted; a refused action leaves the state unchanged."""
        candidates = self.illegal_candidates()
        if not candidates:
            return
        state = self.state
        full = self.rng.random() < self.intensity.full_snapshot
        before = self.snapshot(full=full)
        for seat, action in self.rng.sample(candidates, min(3, len(candidates))):
            with pytest.raises(IllegalActionError) as info:
                state.apply(seat, action)
            assert info.value.rule, "the error names no rule"
            assert isinstance(info.value.rule, str)
            assert not state.is_legal(seat, action)
            self.illegal_tried += 1
        if state.is_chance() or state.is_terminal():
            self.try_bad_chance()
        assert self.snapshot(full=full) == before, "a refused action changed the state"

    def try_bad_chance(self) -> None:
        """Chance outcomes of the wrong kind or not a permutation of the deck are refused."""
        state = self.state
        deck = list(self.deck)
        bad: list[ChanceOutcome] = [
            ChanceOutcome("bogus", tuple(deck)),
            ChanceOutcome("deal", tuple(deck[1:])),
            ChanceOutcome("deal", (deck[1], *deck[1:])),
            ChanceOutcome("second_deck", (52,)),
        ]
        phase = state.phase_name
        if phase == "deal":
            bad += [ChanceOutcome("second_deck", (0,)), ChanceOutcome("piles", tuple(deck))]
        elif phase == "trump_draw":
            bad += [ChanceOutcome("deal", tuple(deck)), ChanceOutcome("second_deck", (1, 2))]
        elif phase == "pile_shuffle":
            bad += [ChanceOutcome("deal", tuple(deck)), ChanceOutcome("piles", tuple(deck))]
        elif not state.is_chance():
            bad.append(ChanceOutcome("deal", ()))
        for outcome in bad:
            with pytest.raises(IllegalActionError):
                state.apply_chance(outcome)

    # ------------------------------------------------------- clone, replay

    def check_clone(self) -> None:
        """clone() is independent: playing the clone leaves the original unchanged."""
        state = self.state
        before = self.snapshot(full=False)
        other = state.clone()
        rng = random.Random(self.rng.random())
        for _ in range(rng.randint(1, 60)):
            if other.is_terminal():
                break
            if other.is_chance():
                if other.phase_name == "deal" and self.known:
                    order = list(self.deck)
                    rng.shuffle(order)
                    other.apply_chance(ChanceOutcome("deal", tuple(order)))
                else:
                    other.apply_chance()
                continue
            seat = rng.choice(other.to_act())
            other.apply(seat, rng.choice(other.legal_actions(seat)))
        assert self.snapshot(full=False) == before, "playing on a clone changed the original"
        self.twin = state.clone()
        self.twin_steps = self.rng.randint(1, 80)

    def compare_twin(self) -> None:
        """A clone given the same actions continues exactly as the original."""
        twin, state = self.twin, self.state
        assert twin is not None
        assert twin.record().dumps() == state.record().dumps()
        for seat in range(self.players):
            assert twin.observe(seat) == state.observe(seat)
        assert twin.scores == state.scores
        self.twin = None

    def check_replay(self) -> None:
        """A record replays to the same state: scores, history, every observation."""
        state = self.state
        text = state.record().dumps()
        record = GameRecord.loads(text)
        assert record.dumps() == text
        again = replay(record)
        assert again.record().dumps() == text
        assert again.scores == state.scores
        assert again.history == state.history
        assert again.phase_name == state.phase_name
        for seat in range(self.players):
            assert observation_key(again.observe(seat)) == observation_key(state.observe(seat))

    # -------------------------------------------------------------- game end

    def check_game_end(self) -> None:
        state, n = self.state, self.players
        history = state.history
        assert history, "a game with no hands"
        assert self.hands_checked == len(history)
        if self.known:
            self.check_oh_hell_game_end()
        # After the game: nothing to do, and nothing may be done.
        assert state.to_act() == ()
        assert not state.is_chance()
        for seat in range(n):
            assert state.legal_actions(seat) == []
            assert state.observe(seat).hand is None
        self.try_illegal()
        with pytest.raises(IllegalActionError):
            state.apply_chance()
        self.check_replay()
        record = state.record()
        assert record.finished
        assert record.final_scores == state.scores

    def check_oh_hell_game_end(self) -> None:
        state, n = self.state, self.players
        history = state.history
        assert state.scores == list(history[-1].total_scores)
        # The deal passes left (La Podrida: right) after every hand.
        step = -1 if self.rules.spec.table.dealer_rotation == "right" else 1
        assert history[0].dealer == state.first_dealer
        for a, b in itertools.pairwise(history):
            assert b.dealer == (a.dealer + step) % n
        # The schedule of hands.
        sizes = [hr.hand_size for hr in history]
        schedule = [h.hand_size for h in self.rules.hands_for(n)]
        sched_spec = self.rules.spec.schedule
        if self.called:
            assert len(history) == sched_spec.called_hands
            assert all(sched_spec.called_min <= s <= sched_spec.called_max for s in sizes)
        elif sched_spec.advance == "when_all_exact":
            position = 0
            for hr in history:
                assert hr.hand_size == schedule[position]
                position += 1 if hr.all_exact else 0
            assert state.completed == (position == len(schedule))
            assert state.completed or len(history) == sched_spec.max_hands
        else:
            assert sizes == schedule
        # Winners.
        if self.rules.cooperative:
            assert state.scores == [0] * n
            assert state.winners() == (list(range(n)) if state.completed else [])
        else:
            best = max(state.scores)
            assert state.winners() == [s for s in range(n) if state.scores[s] == best]


def play_checked(
    config: Config,
    *,
    seed: int,
    choice_seed: int,
    use_bots: bool = False,
    intensity: Intensity | None = None,
) -> CheckedGame:
    bots: list[Bot] | None = None
    if use_bots:
        names = ("random", "heuristic")
        bots = [
            make_bot(names[(choice_seed + s) % 2], seed=choice_seed + s)
            for s in range(config.players)
        ]
    game = CheckedGame(config, seed=seed, choice_seed=choice_seed, bots=bots, intensity=intensity)
    game.run()
    return game
