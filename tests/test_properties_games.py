"""Property tests for the hook games: Pluck, Euchre and Buckup (docs/games/pluck.md,
euchre.md and buckup.md).

Random and heuristic bots play whole games step by step while the test keeps its own
model of the hand, written from the games' pages in docs/games/, independently of the
engine: who holds which card, whose turn it is and what they may do, the auction, the
plucks, the stock and the discards, the chips. After every step:

- the cards are conserved: hands, the kitty (Euchre, with the declarer's discards),
  the cards played this hand and Buckup's turn-up, stock, discards and the cards set
  aside add up to the deck with no card twice, as the engine's own data says, and the
  engine's hands equal the model's;
- Buckup's chips are conserved: ``sum(stacks) + pot`` never changes, every payment is
  recorded and explains the stacks, scores are ``stack - starting stack``;
- the seat to act and its legal actions are exactly those of the rules;
- no seat's observation shows a card it may not know, anywhere (hand, tricks, turn-up,
  legal actions, the game's ``extra`` section and every history entry, searched
  recursively for card names): plucked cards only to the two players of the pluck, the
  kitty and the discards only to the declarer, nobody else's draws or folded hands.

At random steps illegal actions (a seat out of turn, a card not held, an action of
another phase) must raise :class:`IllegalActionError` and leave the record unchanged;
at random steps and at the end the record must replay to the same scores and history.
Each finished hand is checked against the game's rules: Pluck's quotas, plucks and
tricks; Euchre's auction, contract, discards and scoring; Buckup's decisions, draws,
settlement and the end of the game.

The bots nearly always bid in Euchre, so the test makes every seat pass in about one
hand in ten (a thrown-in hand); some chance steps are outcomes the test chooses (a
shuffle, the cards drawn from the stock, a Buckup deal rigged for the 19 redeal), which
the records must replay too. A fixed set of games checks that the rare situations are
reached. ``Observation.cards_in_hand`` has a test of its own.

The default run plays about 400 games; the ``slow`` variants about 1,400 more.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricktaker import (
    Action,
    ChanceOutcome,
    GameRecord,
    HandResult,
    IllegalActionError,
    Observation,
    Ruleset,
    load_ruleset,
    new_game,
)
from tricktaker.bots import Bot, make_bot
from tricktaker.cards import SUIT_LETTERS, SUIT_NAMES, CardError, cards_of, format_card, parse_card
from tricktaker.games.pluck.hooks import pluck_order

# ------------------------------------------------------------------ settings

BOT_NAMES: Final = ("random", "heuristic")
SEEDS: Final = st.integers(min_value=0, max_value=2**63 - 1)
BOT_LISTS: Final = st.lists(st.sampled_from(BOT_NAMES), min_size=9, max_size=9)

CARD_ACTION_KINDS: Final = frozenset({"play", "discard", "pluck", "give_back"})
"""Action kinds whose value is a card of the acting seat."""
NOT_CARD_KEYS: Final = frozenset({"auction", "high_bid"})
"""Keys of a game's data whose strings are not cards (Euchre bids such as ``3D``)."""
CARD_INT_KEYS: Final = frozenset(
    {"given", "returned", "kitty", "discards", "scare_cards", "card", "cards", "hand", "turn_up"}
)
"""Keys under which a whole number would be a card id rather than a count or a seat."""


@dataclass(frozen=True)
class Intensity:
    """How often the costly checks run, per step."""

    illegal: float = 0.04
    replay: float = 0.002
    full_history: float = 0.01
    explicit: float = 0.3
    """Chance steps given as an explicit outcome (a shuffle or a draw the test makes)."""
    rigged: float = 0.1
    """Buckup deals rigged to give a seat a hand for the 19 redeal."""


DEFAULT: Final = Intensity()
HEAVY: Final = Intensity(illegal=0.08, replay=0.004, full_history=0.03)
COVERAGE: Final = Intensity(illegal=0.02, replay=0.0, full_history=0.0, rigged=0.3)


@dataclass(frozen=True)
class GameConfig:
    """One game to play: a shipped ruleset, a player count and options."""

    game: str
    players: int
    options: tuple[tuple[str, bool | int], ...] = ()

    def __str__(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game} with {self.players} players ({opts})"

    @property
    def id(self) -> str:
        """``game-Np-option=value-...``, for test ids."""
        return "-".join([self.game, f"{self.players}p", *(f"{k}={v}" for k, v in self.options)])

    def ruleset(self) -> Ruleset:
        return _ruleset(self.game, self.options)


@functools.cache
def _ruleset(game: str, options: tuple[tuple[str, bool | int], ...]) -> Ruleset:
    return load_ruleset(game, options=dict(options))


def mask_of(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def names(cards: Sequence[int] | int, labels: tuple[str, str] = ("HB", "LB")) -> str:
    listed = cards_of(cards) if isinstance(cards, int) else list(cards)
    return " ".join(format_card(c, labels=labels) for c in listed)


def seat_order(dealer: int, players: int) -> list[int]:
    """Every seat from the dealer's left round to the dealer."""
    return [(dealer + 1 + i) % players for i in range(players)]


# ------------------------------------------------------------ the base checker


class CheckedGame:
    """Plays one game with bots and checks every step against the test's own model.

    Subclasses model one game: the deal, whose turn it is, the legal actions, the
    effect of each action, the cards outside the hands, and the checks of a
    finished hand.
    """

    def __init__(
        self,
        config: GameConfig,
        *,
        seed: int,
        bots: Sequence[str],
        bot_seed: int,
        check_seed: int,
        intensity: Intensity = DEFAULT,
        count_cards: bool = False,
    ) -> None:
        self.config = config
        self.count_cards = count_cards
        """Check ``Observation.cards_in_hand`` (see the test of its own below)."""
        self.options = dict(config.options)
        self.rules = config.ruleset()
        self.n = n = config.players
        self.seed = seed
        self.bot_seed = bot_seed
        self.check_seed = check_seed
        self.state = new_game(self.rules, players=n, seed=seed)
        self.settings: Any = self.rules.hook_settings
        self.deck: tuple[int, ...] = tuple(self.state.setup.deck)
        self.labels = self.state.setup.labels
        self.bot_names = list(bots[:n])
        self.bots: list[Bot] = [make_bot(bots[s], seed=bot_seed + s) for s in range(n)]
        self.rng = random.Random(check_seed)
        self.intensity = intensity
        self.seen: Counter[str] = Counter()
        """Notable events of the game (for the coverage test)."""
        # The hand in progress as the test sees it.
        self.in_hand = False
        self.redealing = False
        """Between a thrown-in deal and the new deal of the same hand (Buckup's 19 redeal)."""
        self.held = [0] * n
        self.known = [0] * n
        """Cards each seat may know this hand (held at some point)."""
        self.public = 0
        """Cards everyone may know this hand (played, turned up, dealt face up)."""
        self.plays: list[tuple[int, int]] = []
        self.tricks: list[tuple[tuple[int, int], ...]] = []
        self.winners: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.leader = -1
        self.active: list[int] = list(range(n))
        self.dealer = self.state.first_dealer
        # Finished hands.
        self.hand_known: list[tuple[tuple[int, ...], int]] = []
        self.history_checked = [0] * n
        self.hands_seen = 0
        self.steps = 0
        self.illegal_tried = 0
        self.observations: list[Observation] = []
        self.universe = self.action_universe()
        self.init_game()
        self.new_hand()

    def where(self) -> str:
        """Where a failure happened, to reproduce it."""
        return (
            f"{self.config}, seed {self.seed}, bots {self.bot_names} (bot_seed {self.bot_seed},"
            f" check_seed {self.check_seed}), hand {self.hands_seen + 1}, step {self.steps},"
            f" phase {self.state.phase_name}"
        )

    # ------------------------------------------------------- game interface

    def init_game(self) -> None:
        """Game-level data of the model."""

    def new_hand(self) -> None:
        """Reset the model for a new hand."""
        raise NotImplementedError

    def action_universe(self) -> list[Action]:
        """Actions of every phase of the game (and a few malformed ones)."""
        raise NotImplementedError

    def expected_chance(self) -> str:
        """The kind of chance step the model expects now."""
        raise NotImplementedError

    def on_chance(self, outcome: ChanceOutcome) -> None:
        raise NotImplementedError

    def expected_to_act(self) -> int:
        raise NotImplementedError

    def expected_phase(self) -> str:
        raise NotImplementedError

    def reference_legal(self, seat: int) -> set[Action]:
        raise NotImplementedError

    def on_action(self, seat: int, action: Action) -> None:
        """Update the model for an action other than playing a card."""
        raise NotImplementedError

    def steer(self, seat: int) -> Action | None:
        """An action the test takes instead of the bot (to reach rare situations)."""
        return None

    def known_trump(self) -> int | bool | None:
        """The trump everyone knows now (None: no trump), or False while none is known."""
        return False

    def play_legal(self, seat: int) -> set[int]:
        raise NotImplementedError

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        raise NotImplementedError

    def hand_over(self) -> bool:
        raise NotImplementedError

    def check_hand(self, hr: HandResult) -> None:
        raise NotImplementedError

    def extra_piles(self) -> dict[str, list[int]]:
        """The engine's own piles of cards outside the hands and the tricks."""
        return {}

    def check_step(self) -> None:
        """Game-specific checks after every step."""

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        """What the game's own section of an observation shows."""

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        """What a redacted history entry shows of the game's own data."""

    def check_game_over(self) -> None:
        raise NotImplementedError

    # -------------------------------------------------------------- driving

    def run(self) -> CheckedGame:
        state = self.state
        self.after_step()
        while not state.is_terminal():
            self.steps += 1
            assert self.steps < 60_000, f"{self.where()}: the game does not end"
            if self.rng.random() < self.intensity.illegal:
                self.try_illegal()
            if self.rng.random() < self.intensity.replay:
                self.check_replay()
            if state.is_chance():
                self.chance_step()
            else:
                self.action_step()
            self.after_step()
        self.game_end()
        return self

    def chance_step(self) -> None:
        state = self.state
        assert state.to_act() == (), f"{self.where()}: a seat acts during a chance step"
        expected = self.expected_chance()
        sampled = state.sample_chance()
        assert sampled.kind == expected, f"{self.where()}: chance {sampled.kind}, not {expected}"
        assert state.sample_chance() == sampled, "sampling changed the seeded outcome"
        outcome = (
            self.explicit_chance(expected) if self.rng.random() < self.intensity.explicit else None
        )
        if outcome is None:
            state.apply_chance()
            outcome = sampled
        else:
            state.apply_chance(outcome)
            self.seen["explicit chance"] += 1
        assert state.events[-1] == ("chance", outcome)
        self.on_chance(outcome)

    def explicit_chance(self, kind: str) -> ChanceOutcome | None:
        """An outcome the test chooses for the pending chance step (None: the seeded one)."""
        if kind != "deal":
            return None
        order = list(self.deck)
        self.rng.shuffle(order)
        return ChanceOutcome("deal", tuple(order))

    def bad_chances(self) -> list[ChanceOutcome]:
        """Outcomes the pending chance step must refuse."""
        deck = list(self.deck)
        bad = [ChanceOutcome("bogus", tuple(deck)), ChanceOutcome("second_deck", (deck[0],))]
        if self.state.phase_name == "deal":
            bad += [
                ChanceOutcome("deal", tuple(deck[1:])),
                ChanceOutcome("deal", (deck[1], *deck[1:])),
                ChanceOutcome("deal", (*deck, 99)),
            ]
        return bad

    def action_step(self) -> None:
        state = self.state
        seat = self.expected_to_act()
        assert state.to_act() == (seat,), (
            f"{self.where()}: the engine waits for {state.to_act()}, the rules for seat {seat}"
        )
        for other in range(self.n):
            if other != seat:
                assert state.legal_actions(other) == [], f"{self.where()}: seat {other} may act"
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), f"{self.where()}: repeated legal actions"
        reference = self.reference_legal(seat)
        assert set(legal) == reference, (
            f"{self.where()}: seat {seat} may {sorted(map(str, legal))},"
            f" the rules say {sorted(map(str, reference))}"
        )
        obs = self.observations[seat]
        assert obs.legal_actions == tuple(legal)
        action = self.steer(seat) or self.bots[seat].act(obs)
        assert action in reference, f"{self.where()}: bot chose illegal {action}"
        assert state.is_legal(seat, action)
        if action.kind == "play":
            assert isinstance(action.value, int)
            self.on_play(seat, action.value)
        else:
            self.seen[f"{self.config.game}:{action.kind}"] += 1
            self.on_action(seat, action)
        state.apply(seat, action)
        assert state.events[-1] == (seat, action)

    def after_step(self) -> None:
        state = self.state
        while self.hands_seen < len(state.history):
            self.close_hand(state.history[self.hands_seen])
        self.check_model()
        if self.in_hand:
            for seat in range(self.n):
                self.known[seat] |= self.held[seat]
        self.check_cards()
        self.check_step()
        self.observations = [self.check_observation(seat) for seat in range(self.n)]

    def close_hand(self, hr: HandResult) -> None:
        state = self.state
        assert self.hand_over(), f"{self.where()}: the engine ended a hand the rules go on with"
        assert hr.number == self.hands_seen + 1
        assert hr.dealer == self.dealer, f"{self.where()}: dealer {hr.dealer}, not {self.dealer}"
        public = self.public
        for trick in hr.trick_cards:
            public |= mask_of([card for _, card in trick])
        self.hand_known.append((tuple(self.known), public))
        assert hr.trick_cards == tuple(self.tricks), f"{self.where()}: tricks differ"
        assert hr.trick_winners == tuple(self.winners), f"{self.where()}: trick winners differ"
        assert hr.tricks == tuple(self.winners.count(s) for s in range(self.n))
        previous = state.history[hr.number - 2].total_scores if hr.number > 1 else (0,) * self.n
        assert hr.total_scores == tuple(
            p + h for p, h in zip(previous, hr.hand_scores, strict=True)
        )
        self.check_hand(hr)
        self.hands_seen += 1
        self.dealer = (self.dealer + 1) % self.n  # the deal passes left
        if state.is_terminal():
            return  # the last hand's cards stay on the table
        self.in_hand = False
        self.held = [0] * self.n
        self.known = [0] * self.n
        self.public = 0
        self.plays = []
        self.tricks = []
        self.winners = []
        self.trick = []
        self.active = list(range(self.n))
        self.new_hand()

    # --------------------------------------------------------------- tricks

    def start_tricks(self, leader: int, active: list[int]) -> None:
        self.active = active
        self.leader = leader
        self.trick = []

    def next_player(self) -> int:
        if not self.trick:
            return self.leader
        seat = (self.trick[-1][0] + 1) % self.n
        while seat not in self.active:
            seat = (seat + 1) % self.n
        return seat

    def on_play(self, seat: int, card: int) -> None:
        assert seat == self.next_player()
        assert (self.held[seat] >> card) & 1, f"{self.where()}: seat {seat} plays a card not held"
        self.held[seat] &= ~(1 << card)
        self.public |= 1 << card
        self.trick.append((seat, card))
        self.plays.append((seat, card))
        if len(self.trick) == len(self.active):
            trick = tuple(self.trick)
            winner = self.trick_winner(trick)
            self.tricks.append(trick)
            self.winners.append(winner)
            self.leader = winner
            self.trick = []

    def played_by(self, seat: int) -> list[int]:
        return [card for s, card in self.plays if s == seat]

    def play_actions(self, seat: int) -> set[Action]:
        return {Action("play", card) for card in self.play_legal(seat)}

    # --------------------------------------------------------------- checks

    def check_model(self) -> None:
        """The engine's hands equal the model's; the dealt lists agree with them."""
        state = self.state
        assert state.hands == self.held, (
            f"{self.where()}: the engine's hands "
            f"{[names(h, self.labels) for h in state.hands]} differ from the rules'"
            f" {[names(h, self.labels) for h in self.held]}"
        )
        if not self.in_hand:
            assert not any(state.dealt), f"{self.where()}: cards dealt before the deal"
            assert not state.trick
            assert not state.trick_cards
            return
        if not state.is_terminal():
            assert state.phase_name == self.expected_phase(), (
                f"{self.where()}: phase {state.phase_name}, the rules say {self.expected_phase()}"
            )
        for seat in range(self.n):
            dealt = state.dealt[seat]
            assert len(set(dealt)) == len(dealt)
            assert mask_of(dealt) == self.held[seat] | mask_of(self.played_by(seat)), (
                f"{self.where()}: seat {seat}'s dealt cards are not its hand and its plays"
            )

    def check_cards(self) -> None:
        """Every card of the deck is in exactly one place (the engine's data)."""
        state = self.state
        if not self.in_hand:
            return
        piles: dict[str, list[int]] = {
            f"hand of seat {s}": cards_of(state.hands[s]) for s in range(self.n)
        }
        piles["played"] = [c for trick in state.trick_cards for _, c in trick]
        piles["played"] += [c for _, c in state.trick]
        piles.update(self.extra_piles())
        everything = [c for cards in piles.values() for c in cards]
        counts = Counter(everything)
        twice = sorted(c for c, k in counts.items() if k > 1)
        assert not twice, f"{self.where()}: cards in two places: {names(twice, self.labels)}"
        missing = sorted(set(self.deck) - set(everything))
        assert not missing, f"{self.where()}: cards lost: {names(missing, self.labels)}"
        assert sorted(everything) == sorted(self.deck), f"{self.where()}: cards not of the deck"

    def cards_in(self, value: object, *, card_ints: bool = False) -> Iterator[int]:
        """Every card named (or, under a card key, numbered) anywhere in ``value``."""
        if isinstance(value, str):
            if not 2 <= len(value) <= 3:  # a card name: AS, 10H, BJ
                return
            try:
                card = parse_card(value, labels=self.labels)
            except CardError:
                return
            assert card in self.deck, f"{self.where()}: {value!r} is not a card of the deck"
            yield card
        elif isinstance(value, bool):
            return
        elif isinstance(value, int):
            if card_ints:
                assert value in self.deck, f"{self.where()}: card id {value} not of the deck"
                yield value
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if key in NOT_CARD_KEYS:
                    continue
                yield from self.cards_in(item, card_ints=card_ints or key in CARD_INT_KEYS)
        elif isinstance(value, list | tuple):
            for item in value:
                yield from self.cards_in(item, card_ints=card_ints)

    def shown_cards(self, obs: Observation) -> list[int]:
        shown: list[int] = []
        if obs.hand is not None:
            shown += cards_of(obs.hand)
        shown += [card for _, card in obs.current_trick]
        shown += [card for trick in obs.tricks for _, card in trick]
        if obs.turn_up is not None:
            shown.append(obs.turn_up)
        for action in obs.legal_actions:
            if action.kind in CARD_ACTION_KINDS:
                assert isinstance(action.value, int)
                shown.append(action.value)
        shown += self.cards_in(obs.extra)
        return shown

    def check_observation(self, seat: int) -> Observation:
        """What ``seat`` sees now: true, and nothing it may not know."""
        state = self.state
        obs = state.observe(seat)
        assert obs.seat == seat
        assert obs.legal_actions == tuple(state.legal_actions(seat))
        assert obs.to_act == state.to_act()
        assert obs.scores == tuple(state.scores)
        assert obs.dealer == state.dealer
        if self.in_hand and not state.is_terminal():
            assert obs.hand == self.held[seat], f"{self.where()}: seat {seat} sees a wrong hand"
            assert not self.count_cards or obs.cards_in_hand == self.held[seat].bit_count(), (
                f"{self.where()}: seat {seat} holds {self.held[seat].bit_count()} cards,"
                f" its observation says {obs.cards_in_hand}"
            )
            trump = self.known_trump()
            if trump is not False:
                assert obs.trump_known
                assert obs.trump == trump, f"{self.where()}: trump {obs.trump}, not {trump}"
            allowed = self.known[seat] | self.public
        else:
            assert obs.hand is None, f"{self.where()}: seat {seat} sees a hand between hands"
            if self.in_hand or self.redealing:  # game over, or a redeal: this hand's cards
                allowed = self.known[seat] | self.public
            elif self.hand_known:  # before the deal: what is left of the last hand
                known, public = self.hand_known[-1]
                allowed = known[seat] | public
            else:
                allowed = 0
        shown = self.shown_cards(obs)
        leaked = sorted({c for c in shown if not (allowed >> c) & 1})
        assert not leaked, (
            f"{self.where()}: seat {seat} sees {names(leaked, self.labels)}, which it may not know"
        )
        self.check_extra_view(seat, obs)
        history = obs.history
        assert len(history) == len(state.history)
        full = self.rng.random() < self.intensity.full_history or state.is_terminal()
        start = 0 if full else self.history_checked[seat]
        for index in range(start, len(history)):
            self.check_history_view(seat, index, history[index])
        self.history_checked[seat] = len(history)
        return obs

    def check_history_view(self, seat: int, index: int, view: HandResult) -> None:
        """A finished hand as ``seat`` sees it: the public facts, its own deal only, and
        no card it did not know when the hand ended."""
        real = self.state.history[index]
        for name in (
            "number",
            "hand_size",
            "dealer",
            "trump",
            "turn_up",
            "bids",
            "trick_cards",
            "tricks",
            "trick_winners",
            "hand_scores",
            "total_scores",
        ):
            assert getattr(view, name) == getattr(real, name), f"history {name} differs"
        assert len(view.deal) == self.n
        for other, cards in enumerate(view.deal):
            if other != seat:
                assert cards == (), (
                    f"{self.where()}: seat {seat} sees seat {other}'s cards of hand {index + 1}"
                )
        assert view.deal[seat] == real.deal[seat]
        known, public = self.hand_known[index]
        allowed = known[seat] | public
        shown = list(view.deal[seat])
        if view.turn_up is not None:
            shown.append(view.turn_up)
        shown += [card for trick in view.trick_cards for _, card in trick]
        shown += self.cards_in(view.extra)
        shown += self.cards_in(view.special)
        leaked = sorted({c for c in shown if not (allowed >> c) & 1})
        assert not leaked, (
            f"{self.where()}: seat {seat} sees {names(leaked, self.labels)} in the history"
            f" of hand {index + 1}"
        )
        self.check_history_extra(seat, view, real)

    # ------------------------------------------------------ illegal actions

    def fingerprint(self) -> tuple[object, ...]:
        state = self.state
        return (
            state.record().dumps(),
            repr(state.ext),
            tuple(state.hands),
            tuple(tuple(d) for d in state.dealt),
            state.phase_name,
            state.to_act(),
            tuple(state.scores),
            tuple(state.trick),
        )

    def illegal_candidates(self) -> list[tuple[str, int, Action]]:
        """``(why, seat, action)`` that the rules forbid now."""
        state, rng, n = self.state, self.rng, self.n
        if state.is_chance() or state.is_terminal():
            why = "during a chance step" if state.is_chance() else "after the game"
            return [(why, rng.randrange(n), a) for a in rng.sample(self.universe, 6)]
        seat = self.expected_to_act()
        legal = state.legal_actions(seat)
        reference = self.reference_legal(seat)
        out: list[tuple[str, int, Action]] = []
        for other in rng.sample([s for s in range(n) if s != seat], min(2, n - 1)):
            out.append(("out of turn", other, rng.choice(legal)))
        out += [("no such seat", n, legal[0]), ("no such seat", -1, legal[0])]
        kinds = {a.kind for a in legal if a.kind in CARD_ACTION_KINDS}
        not_held = [c for c in (*self.deck, 0, 51) if not (self.held[seat] >> c) & 1]
        for kind in sorted(kinds):
            out.append(("a card not held", seat, Action(kind, rng.choice(not_held))))
        wrong = [a for a in self.universe if a not in reference]
        out += [("not allowed now", seat, a) for a in rng.sample(wrong, min(6, len(wrong)))]
        return out

    def try_illegal(self) -> None:
        """Only legal actions are accepted; a refused action leaves the state unchanged."""
        state = self.state
        before = self.fingerprint()
        candidates = self.illegal_candidates()
        for why, seat, action in self.rng.sample(candidates, min(5, len(candidates))):
            assert not state.is_legal(seat, action), f"{self.where()}: {why}: {action} is legal"
            self.refused(f"{why}: seat {seat} {action}", state.apply, seat, action)
            self.illegal_tried += 1
        if not state.is_chance():
            self.refused("a chance step with none pending", state.apply_chance)
            deal = ChanceOutcome("deal", self.deck)
            self.refused("a deal with none pending", state.apply_chance, deal)
        else:
            for outcome in self.bad_chances():
                self.refused(f"the chance outcome {outcome}", state.apply_chance, outcome)
        assert self.fingerprint() == before, f"{self.where()}: a refused action changed the state"

    def refused(self, what: str, attempt: Callable[..., None], *args: object) -> None:
        """``attempt(*args)`` must raise IllegalActionError naming the rule."""
        error: IllegalActionError | None = None
        try:
            attempt(*args)
        except IllegalActionError as exc:
            error = exc
        assert error is not None, f"{self.where()}: {what} was accepted"
        assert isinstance(error.rule, str)
        assert error.rule, f"{self.where()}: {what}: the error names no rule"

    # --------------------------------------------------------------- replay

    def check_replay(self) -> None:
        """The record replays to the same game: scores, history, hands, the game's data."""
        state = self.state
        text = state.record().dumps()
        again = GameRecord.loads(text).replay()
        assert again.record().dumps() == text
        assert again.scores == state.scores
        assert again.history == state.history
        assert again.phase_name == state.phase_name
        assert again.hands == state.hands
        assert repr(again.ext) == repr(state.ext)
        self.seen["replay"] += 1

    def game_end(self) -> None:
        state = self.state
        assert state.to_act() == ()
        assert not state.is_chance()
        for seat in range(self.n):
            assert state.legal_actions(seat) == []
        self.try_illegal()
        self.check_replay()
        record = state.record()
        assert record.finished
        assert record.final_scores == state.scores
        assert state.history[0].dealer == state.first_dealer
        for index, hr in enumerate(state.history):
            assert hr.dealer == (state.first_dealer + index) % self.n, "the deal passes left"
        self.check_game_over()


# -------------------------------------------------------------------- Pluck

PLUCK_QUOTAS: Final = (7, 6, 4)
TWO_OF_CLUBS: Final = parse_card("2C")
BIG_JOKER: Final = 52
LITTLE_JOKER: Final = 53


def pluck_quotas(dealer: int) -> list[int]:
    """docs/games/pluck.md, Bidding: dealer 7 tricks, left of dealer 6, right of dealer 4."""
    quotas = [0, 0, 0]
    for offset, quota in enumerate(PLUCK_QUOTAS):
        quotas[(dealer + offset) % 3] = quota
    return quotas


def reference_plucks(surplus: list[int], dealer: int) -> list[tuple[int, int]]:
    """docs/games/pluck.md, Plucks: ``(plucker, pluckee)`` for every pluck, in order. Each
    trick above quota is a pluck to take, each trick short a pluck to suffer; the player
    with the most plucks goes first, ties from the (new) dealer going left; (Choices we
    made) a plucker with two pluckees first takes all they can from the one who owes
    more, ties again from the dealer."""
    assert sum(surplus) == 0

    def position(seat: int) -> int:
        return (seat - dealer) % 3

    owed = [max(-s, 0) for s in surplus]
    out: list[tuple[int, int]] = []
    for plucker in sorted(range(3), key=lambda s: (-surplus[s], position(s))):
        to_take = max(surplus[plucker], 0)
        for pluckee in sorted(range(3), key=lambda s: (-owed[s], position(s))):
            take = min(to_take, owed[pluckee])
            out += [(plucker, pluckee)] * take
            owed[pluckee] -= take
            to_take -= take
    assert not any(owed), "with three players the pairing is forced by the totals"
    return out


class PluckGame(CheckedGame):
    """docs/games/pluck.md: quotas, plucks, the dealer's trump, the 2C opening, 17 tricks."""

    def new_hand(self) -> None:
        self.stage = "deal"
        self.quotas = [0, 0, 0]
        self.expected_pairs: list[tuple[int, int]] = []
        self.pending: list[tuple[int, int]] = []
        self.given: int | None = None
        self.trump: int | None = None

    def init_game(self) -> None:
        self.done: list[tuple[int, int, int, int]] = []
        """The plucks of the hand, ``(plucker, pluckee, given, returned)``; kept until the
        next deal, as the engine shows them until then."""

    def action_universe(self) -> list[Action]:
        out = [Action(kind, c) for kind in ("pluck", "give_back", "play") for c in self.deck]
        out += [Action("call_trump", s) for s in (*SUIT_LETTERS, "N", "spades")]
        out += [Action("pluck", 99), Action("play", 1), Action("give_back", "AS")]
        out += [Action("pass"), Action("discard", 51), Action("bid", 3), Action("auction", "3D")]
        return out

    def expected_chance(self) -> str:
        assert self.stage == "deal", f"{self.where()}: unexpected chance step"
        return "deal"

    def expected_phase(self) -> str:
        return {"pluck": "pluck", "give_back": "give_back", "trump": "call_trump"}.get(
            self.stage, "playing"
        )

    def on_chance(self, outcome: ChanceOutcome) -> None:
        state = self.state
        order = outcome.cards
        assert len(self.deck) == 51, "Pluck plays 51 cards"
        assert set(self.deck) == set(range(54)) - {parse_card(c) for c in ("2D", "2H", "2S")}
        assert sorted(order) == sorted(self.deck)
        seats = seat_order(self.dealer, 3)
        dealt: list[list[int]] = [[], [], []]
        for index, card in enumerate(order):
            dealt[seats[index % 3]].append(card)
        assert all(len(cards) == 17 for cards in dealt)
        self.held = [mask_of(cards) for cards in dealt]
        self.in_hand = True
        self.quotas = pluck_quotas(self.dealer)
        assert sum(self.quotas) == 17
        self.done = []
        if self.hands_seen:
            last = state.history[-1]
            before = pluck_quotas(last.dealer)
            surplus = [last.tricks[s] - before[s] for s in range(3)]
            self.expected_pairs = reference_plucks(surplus, self.dealer)
            assert self.expected_pairs == pluck_order(surplus, self.dealer)
            assert len(self.expected_pairs) == sum(max(s, 0) for s in surplus)
            if self.expected_pairs:
                self.seen["pluck:plucks"] += 1
        self.pending = list(self.expected_pairs)
        self.stage = "pluck" if self.pending else "trump"

    def expected_to_act(self) -> int:
        if self.stage == "pluck":
            return self.pending[0][0]
        if self.stage == "give_back":
            return self.pending[0][1]
        if self.stage == "trump":
            return self.dealer
        return self.next_player()

    def give_back_card(self, pluckee: int, suit: int) -> int:
        """docs/games/pluck.md, Plucks: the pluckee's highest card of that suit (never a joker)."""
        return max(c for c in cards_of(self.held[pluckee]) if c < 52 and c // 13 == suit)

    def reference_legal(self, seat: int) -> set[Action]:
        if self.stage == "pluck":
            return {Action("pluck", c) for c in cards_of(self.held[seat]) if c < 52}
        if self.stage == "give_back":
            assert self.given is not None
            return {Action("give_back", self.give_back_card(seat, self.given // 13))}
        if self.stage == "trump":
            return {Action("call_trump", s) for s in SUIT_LETTERS}
        return self.play_actions(seat)

    def on_action(self, seat: int, action: Action) -> None:
        card = action.value
        if action.kind == "pluck":
            assert isinstance(card, int)
            plucker, pluckee = self.pending[0]
            assert seat == plucker
            assert card not in (BIG_JOKER, LITTLE_JOKER), "a joker may not be given"
            self.held[plucker] &= ~(1 << card)
            self.held[pluckee] |= 1 << card
            self.given = card
            self.stage = "give_back"
        elif action.kind == "give_back":
            assert isinstance(card, int)
            assert self.given is not None
            plucker, pluckee = self.pending.pop(0)
            assert seat == pluckee
            assert card not in (BIG_JOKER, LITTLE_JOKER), "jokers are never given back"
            assert card == self.give_back_card(pluckee, self.given // 13), (
                f"{self.where()}: the pluckee returns {names([card], self.labels)}, not their"
                " highest card of the suit"
            )
            if card == self.given:
                self.seen["pluck:same card back"] += 1
            self.held[pluckee] &= ~(1 << card)
            self.held[plucker] |= 1 << card
            self.done.append((plucker, pluckee, self.given, card))
            self.given = None
            self.stage = "pluck" if self.pending else "trump"
        else:
            assert action.kind == "call_trump"
            assert seat == self.dealer
            self.trump = SUIT_LETTERS.index(str(action.value))
            self.stage = "play"
            holder = next(s for s in range(3) if (self.held[s] >> TWO_OF_CLUBS) & 1)
            self.start_tricks(holder, [0, 1, 2])

    def known_trump(self) -> int | bool | None:
        return self.trump if self.stage == "play" else False

    def suit_of(self, card: int) -> int:
        """Jokers belong to the trump suit."""
        assert self.trump is not None
        return self.trump if card >= 52 else card // 13

    def play_legal(self, seat: int) -> set[int]:
        hand = cards_of(self.held[seat])
        if not self.trick:
            if not self.plays:
                assert TWO_OF_CLUBS in hand, "the holder of the 2C leads"
                return {TWO_OF_CLUBS}
            broken = any(self.suit_of(c) == self.trump for _, c in self.plays)
            others = {c for c in hand if self.suit_of(c) != self.trump}
            return others if others and not broken else set(hand)
        led = self.suit_of(self.trick[0][1])
        follow = {c for c in hand if self.suit_of(c) == led}
        return follow or set(hand)

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = self.suit_of(trick[0][1])

        def key(card: int) -> tuple[int, int]:
            if card == BIG_JOKER:
                return (2, 15)
            if card == LITTLE_JOKER:
                return (2, 14)
            suit = card // 13
            if suit == self.trump:
                return (2, card % 13)
            return (1, card % 13) if suit == led else (0, 0)

        return max(trick, key=lambda sc: key(sc[1]))[0]

    def hand_over(self) -> bool:
        return self.stage == "play" and len(self.tricks) == 17

    def check_hand(self, hr: HandResult) -> None:
        quotas = self.quotas
        assert hr.bids == tuple(quotas)
        assert list(hr.extra["quotas"]) == quotas
        assert sum(hr.bids) == 17, f"{self.where()}: quotas {hr.bids} do not sum to 17"
        assert sum(hr.tricks) == 17, f"{self.where()}: tricks {hr.tricks} do not sum to 17"
        assert hr.trump == self.trump
        assert hr.turn_up is None
        assert hr.trick_cards[0][0][1] == TWO_OF_CLUBS, "the 2C opens the hand"
        assert hr.hand_scores == tuple(hr.tricks[s] - quotas[s] for s in range(3))
        plucks = hr.extra["plucks"]
        pairs = [(p["plucker"], p["pluckee"]) for p in plucks]
        assert pairs == self.expected_pairs, (
            f"{self.where()}: plucks {pairs}, the previous hand's surplus gives"
            f" {self.expected_pairs}"
        )
        for entry, (_, _, card, returned) in zip(plucks, self.done, strict=True):
            assert entry["given"] == format_card(card, labels=self.labels)
            assert entry["returned"] == format_card(returned, labels=self.labels)
        for seat in range(3):
            assert sorted(hr.deal[seat]) == sorted(self.played_by(seat))

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        extra = obs.extra
        plucks = extra["plucks"]
        assert len(plucks) == len(self.done)
        for entry, (plucker, pluckee, card, returned) in zip(plucks, self.done, strict=True):
            assert (entry["plucker"], entry["pluckee"]) == (plucker, pluckee)
            if seat in (plucker, pluckee):
                assert entry["given"] == format_card(card, labels=self.labels)
                assert entry["returned"] == format_card(returned, labels=self.labels)
            else:
                assert (entry["given"], entry["returned"]) == (None, None), (
                    f"{self.where()}: seat {seat} sees the cards of a pluck it had no part in"
                )
        current = extra["pluck_in_progress"]
        if self.in_hand and self.stage == "give_back":
            assert self.given is not None
            plucker, pluckee = self.pending[0]
            assert (current["plucker"], current["pluckee"]) == (plucker, pluckee)
            shown = format_card(self.given, labels=self.labels)
            assert current["given"] == (shown if seat in (plucker, pluckee) else None)
        else:
            assert current is None
        if self.in_hand:
            assert list(extra["quotas"]) == self.quotas
            assert [tuple(p) for p in extra["plucks_pending"]] == (
                self.pending if self.stage in ("pluck", "give_back") else []
            )

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        assert view.extra["quotas"] == real.extra["quotas"]
        for mine, full in zip(view.extra["plucks"], real.extra["plucks"], strict=True):
            if seat in (full["plucker"], full["pluckee"]):
                assert mine == full
            else:
                assert (mine["given"], mine["returned"]) == (None, None), (
                    f"{self.where()}: seat {seat} sees a pluck of hand {real.number} in history"
                )

    def check_game_over(self) -> None:
        assert len(self.state.history) == self.settings.hands


# ------------------------------------------------------------------- Euchre

EUCHRE_BIDS: Final = (*(f"{t}{s}" for t in (3, 4, 5) for s in "SCHD"), "NT")
"""docs/games/euchre.md, Auction: by tricks, then diamonds > hearts > clubs > spades;
no trump on top."""
SAME_COLOUR: Final = {0: 3, 3: 0, 1: 2, 2: 1}
JACK: Final = 9


class EuchreGame(CheckedGame):
    """docs/games/euchre.md: the auction, the kitty and three discards, bowers, partnerships."""

    def init_game(self) -> None:
        self.left_high = not self.options.get("usual_bower_order", False)
        self.target = int(self.settings.target)

    def new_hand(self) -> None:
        self.stage = "deal"
        self.auction: list[tuple[int, str]] = []
        self.high: tuple[int, str] | None = None
        self.passed = [False] * 4
        self.turn = -1
        self.declarer: int | None = None
        self.kitty: list[int] = []
        self.discards: list[int] = []
        self.dealt: list[list[int]] = [[] for _ in range(4)]
        self.trump: int | None = None
        self.timid = False

    def action_universe(self) -> list[Action]:
        out = [Action("auction", b) for b in (*EUCHRE_BIDS, "6H", "2S", "5NT", "nt")]
        out += [Action("pass"), Action("discard", 0), Action("play", 0), Action("discard", 99)]
        out += [Action(kind, c) for kind in ("discard", "play") for c in self.deck]
        out += [Action("pluck", self.deck[0]), Action("bid", 3), Action("stay")]
        return out

    def expected_chance(self) -> str:
        assert self.stage == "deal", f"{self.where()}: unexpected chance step"
        return "deal"

    def expected_phase(self) -> str:
        return "playing" if self.stage == "play" else self.stage

    def on_chance(self, outcome: ChanceOutcome) -> None:
        state = self.state
        order = outcome.cards
        nine_spades = parse_card("9S")
        assert set(self.deck) == {s * 13 + r for s in range(4) for r in range(7, 13)} - {
            nine_spades
        }
        assert sorted(order) == sorted(self.deck)
        # docs/games/euchre.md, Deal and trump: kitty 1; 3 2 3 2; kitty 1; 2 3 2 3; kitty 1.
        seats = seat_order(self.dealer, 4)
        kitty: list[int] = []
        dealt: list[list[int]] = [[] for _ in range(4)]
        pos = 0
        packets: tuple[tuple[int, ...], ...] = ((), (3, 2, 3, 2), (), (2, 3, 2, 3), ())
        for packet in packets:
            if not packet:  # one card to the kitty
                kitty.append(order[pos])
                pos += 1
                continue
            for seat, count in zip(seats, packet, strict=True):
                dealt[seat] += order[pos : pos + count]
                pos += count
        assert pos == 23
        assert state.kitty == kitty, f"{self.where()}: the kitty is not the dealt kitty"
        assert state.rest == ()
        self.kitty = kitty
        self.dealt = dealt
        self.held = [mask_of(cards) for cards in dealt]
        self.in_hand = True
        self.stage = "auction"
        self.turn = (self.dealer + 1) % 4
        # The bots nearly always bid: in about one hand in ten everyone passes instead.
        self.timid = self.rng.random() < 0.1

    def steer(self, seat: int) -> Action | None:
        return Action("pass") if self.stage == "auction" and self.timid else None

    def expected_to_act(self) -> int:
        if self.stage == "auction":
            return self.turn
        if self.stage == "discard":
            assert self.declarer is not None
            return self.declarer
        return self.next_player()

    def reference_legal(self, seat: int) -> set[Action]:
        if self.stage == "auction":
            above = EUCHRE_BIDS.index(self.high[1]) + 1 if self.high is not None else 0
            return {Action("pass")} | {Action("auction", b) for b in EUCHRE_BIDS[above:]}
        if self.stage == "discard":
            return {Action("discard", c) for c in cards_of(self.held[seat])}
        return self.play_actions(seat)

    def on_action(self, seat: int, action: Action) -> None:
        if action.kind == "discard":
            card = action.value
            assert isinstance(card, int)
            assert seat == self.declarer
            self.held[seat] &= ~(1 << card)
            self.discards.append(card)
            if len(self.discards) == 3:
                self.stage = "play"
                self.start_tricks(seat, [0, 1, 2, 3])  # the declarer leads
            return
        assert not self.passed[seat], f"{self.where()}: seat {seat} passed and acts again"
        assert seat == self.turn
        if action.kind == "pass":
            self.passed[seat] = True
            self.auction.append((seat, "pass"))
        else:
            bid = str(action.value)
            if self.high is not None:
                assert EUCHRE_BIDS.index(bid) > EUCHRE_BIDS.index(self.high[1])
            self.high = (seat, bid)
            self.auction.append((seat, bid))
            if any(s == seat and b != "pass" for s, b in self.auction[:-1]):
                self.seen["euchre:bid again"] += 1
        if all(self.passed):
            self.stage = "thrown_in"
            self.seen["euchre:thrown in"] += 1
            return
        if self.high is not None and all(self.passed[s] for s in range(4) if s != self.high[0]):
            declarer, bid = self.high
            self.declarer = declarer
            self.trump = None if bid == "NT" else SUIT_LETTERS.index(bid[1])
            self.held[declarer] |= mask_of(self.kitty)
            self.stage = "discard"
            self.seen[f"euchre:contract {'NT' if bid == 'NT' else bid[0]}"] += 1
            return
        nxt = (seat + 1) % 4
        while self.passed[nxt]:
            nxt = (nxt + 1) % 4
        self.turn = nxt

    # Trumps: the left bower (jack of the same colour) is a trump; by default (the
    # seed's order) it is the highest, with usual_bower_order the right bower is.

    def known_trump(self) -> int | bool | None:
        return self.trump if self.declarer is not None else False

    def suit_of(self, card: int) -> int:
        if self.trump is not None and card == SAME_COLOUR[self.trump] * 13 + JACK:
            return self.trump
        return card // 13

    def play_legal(self, seat: int) -> set[int]:
        hand = cards_of(self.held[seat])
        if not self.trick:
            return set(hand)
        led = self.suit_of(self.trick[0][1])
        return {c for c in hand if self.suit_of(c) == led} or set(hand)

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = self.suit_of(trick[0][1])
        trump = self.trump

        def key(card: int) -> tuple[int, int]:
            suit = self.suit_of(card)
            if trump is not None and suit == trump:
                if card == trump * 13 + JACK:  # right bower
                    return (2, 20 if not self.left_high else 19)
                if card // 13 != trump:  # left bower
                    return (2, 20 if self.left_high else 19)
                return (2, card % 13)
            return (1, card % 13) if suit == led else (0, 0)

        return max(trick, key=lambda sc: key(sc[1]))[0]

    def hand_over(self) -> bool:
        return self.stage == "thrown_in" or (self.stage == "play" and len(self.tricks) == 5)

    def extra_piles(self) -> dict[str, list[int]]:
        ext: Any = self.state.ext
        piles = {"discards": list(ext.discards)}
        if ext.declarer is None:
            piles["kitty"] = list(self.state.kitty)
        else:
            assert sorted(self.state.kitty) == sorted(self.kitty)
        return piles

    def check_hand(self, hr: HandResult) -> None:
        extra = hr.extra
        assert [tuple(call) for call in extra["auction"]] == self.auction
        # The auction: bids strictly increase, a player who passed never calls again.
        out: set[int] = set()
        last_rank = -1
        for seat, call in self.auction:
            assert seat not in out, f"{self.where()}: seat {seat} called after passing"
            if call == "pass":
                out.add(seat)
            else:
                assert EUCHRE_BIDS.index(call) > last_rank, "bids must increase"
                last_rank = EUCHRE_BIDS.index(call)
        if self.stage == "thrown_in":
            assert out == {0, 1, 2, 3}
            assert last_rank == -1
            assert extra["thrown_in"] is True
            assert extra["contract"] is None
            assert hr.tricks == (0, 0, 0, 0)
            assert hr.trick_cards == ()
            assert hr.hand_scores == (0, 0, 0, 0)
            assert sum(hr.tricks) == 0
            return
        bids = [(s, call) for s, call in self.auction if call != "pass"]
        bidder, contract = bids[-1]
        assert self.high == (bidder, contract)
        assert self.declarer == bidder
        assert len([s for s, call in self.auction if call == "pass"]) >= 3
        tricks, trump = (5, None) if contract == "NT" else (int(contract[0]), contract[1])
        assert extra["thrown_in"] is False
        assert extra["contract"] == {
            "bidder": bidder,
            "tricks": tricks,
            "trump": "no_trump" if trump is None else SUIT_NAMES[SUIT_LETTERS.index(trump)],
        }
        assert hr.trump == (None if trump is None else SUIT_LETTERS.index(trump))
        assert len(self.discards) == 3, f"{self.where()}: the declarer discarded {self.discards}"
        assert extra["discards"] == [format_card(c) for c in self.discards]
        assert extra["kitty"] == [format_card(c) for c in self.kitty]
        assert set(self.discards) <= set(self.dealt[bidder]) | set(self.kitty)
        assert sum(hr.tricks) == 5, f"{self.where()}: tricks {hr.tricks} do not sum to 5"
        assert hr.trick_cards[0][0][0] == bidder, "the declarer leads the first trick"
        # Scoring: 1 for 3 or 4 tricks, 2 for all five; short: the defenders score 2.
        team = (bidder % 2, bidder % 2 + 2)
        taken = hr.tricks[team[0]] + hr.tricks[team[1]]
        expected = [0, 0, 0, 0]
        if taken >= tricks:
            for s in team:
                expected[s] = 2 if taken == 5 else 1
        else:
            for s in range(4):
                if s not in team:
                    expected[s] = 2
            self.seen["euchre:set"] += 1
        assert list(hr.hand_scores) == expected, (
            f"{self.where()}: contract {contract} by {bidder}, tricks {hr.tricks}:"
            f" scores {hr.hand_scores}, the rules say {expected}"
        )
        for seat in range(4):
            held = set(self.dealt[seat]) | (set(self.kitty) if seat == bidder else set())
            assert set(hr.deal[seat]) == held - set(self.discards)

    def check_step(self) -> None:
        scores = self.state.scores
        assert (scores[0], scores[1]) == (scores[2], scores[3]), "partners share their score"

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        extra = obs.extra
        if self.declarer is not None and seat == self.declarer:
            assert extra["kitty"] == [format_card(c) for c in self.kitty]
            assert extra["discards"] == [format_card(c) for c in self.discards]
        else:
            assert extra["kitty"] is None, f"{self.where()}: seat {seat} sees the kitty"
            assert extra["discards"] is None, f"{self.where()}: seat {seat} sees the discards"
        assert [tuple(call) for call in extra["auction"]] == self.auction
        assert extra["passed"] == [s for s in range(4) if self.passed[s]]
        assert extra["team_scores"] == [self.state.scores[0], self.state.scores[1]]

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        contract = real.extra["contract"]
        if contract is not None and contract["bidder"] == seat:
            assert view.extra == real.extra
        else:
            assert (view.extra["kitty"], view.extra["discards"]) == (None, None), (
                f"{self.where()}: seat {seat} sees the kitty of hand {real.number} in history"
            )
            assert view.extra["auction"] == real.extra["auction"]
            assert view.extra["contract"] == contract

    def check_game_over(self) -> None:
        history = self.state.history
        team_scores = [self.state.scores[0], self.state.scores[1]]
        assert max(team_scores) >= self.target, "the game ended before a team reached the target"
        for hr in history[:-1]:
            assert max(hr.total_scores) < self.target, "the game went on after the target"


# ------------------------------------------------------------------- Buckup

ANTE_CHOICES: Final = ("kept", "drawn", "kept_no_fold_fee", "drawn_no_fold_fee")
BUCKUP_DECISIONS: Final = (
    "redeal",
    "keep",
    "stay",
    "fold",
    "out_for_now",
    "come_back",
    "concede",
    "draw",
)
IN, OUT, OFN, UNDECIDED = "in", "out", "out_for_now", "undecided"


def nineteen_hand(cards: Sequence[int]) -> bool:
    """docs/games/buckup.md, 19 redeal: five cards, all 9 or lower, adding up to 19 or less
    (ace high)."""
    values = [c % 13 + 2 for c in cards]
    return len(values) == 5 and max(values) <= 9 and sum(values) <= 19


class BuckupGame(CheckedGame):
    """docs/games/buckup.md: antes, the 19 redeal, stay or fold (or out for now) with the draw,
    scare cards, five tricks, settlement of a pot that rolls over."""

    def init_game(self) -> None:
        s = self.settings
        self.start = int(s.starting_stack)
        self.stacks = [self.start] * self.n
        self.pot = 0
        self.total = self.start * self.n
        self.four = bool(s.four_card_deal)
        self.ofn = bool(s.out_for_now)
        self.scare_on = bool(s.scare_cards)
        self.size = 4 if self.four else 5
        self.expected_scores = [0] * self.n

    def new_hand(self) -> None:
        self.stage = "ante"
        self.round = "stay"
        self.ante: tuple[int, int, int, str] | None = None
        self.status = [UNDECIDED] * self.n
        self.queue: list[int] = []
        self.drawer = -1
        self.pending = 0
        self.aside: list[int] = []
        self.stock: list[int] = []
        self.discard_pile: list[int] = []
        self.own_discards: list[list[int]] = [[] for _ in range(self.n)]
        self.drawn = [0] * self.n
        self.scare: list[int | None] = [None] * self.n
        self.turn_up: int | None = None
        self.trump: int | None = None
        self.came_back = False
        self.payments: Counter[tuple[int, int, str]] = Counter()
        self.hand_stacks = list(self.stacks)
        self.hand_pot = self.pot
        self.over = False
        self.dealt: list[list[int]] = [[] for _ in range(self.n)]

    def action_universe(self) -> list[Action]:
        out = [Action("ante", c) for c in (*ANTE_CHOICES, "bogus", "5")]
        out += [Action(kind) for kind in BUCKUP_DECISIONS]
        out += [Action(kind, c) for kind in ("discard", "play") for c in self.deck]
        out += [Action("discard", 60), Action("play", 53), Action("pass"), Action("bid", 1)]
        out += [Action("pluck", 0), Action("auction", "NT")]
        return out

    def explicit_chance(self, kind: str) -> ChanceOutcome | None:
        rng = self.rng
        if kind == "restock":
            pile = list(self.discard_pile)
            rng.shuffle(pile)
            return ChanceOutcome("restock", tuple(pile))
        if kind == "draw":
            count = min(self.pending, len(self.stock))
            return ChanceOutcome("draw", tuple(rng.sample(self.stock, count)))
        outcome = super().explicit_chance(kind)
        if (
            outcome is None
            or self.four
            or rng.random() >= self.intensity.rigged / self.intensity.explicit
        ):
            return outcome
        # A rigged deal: some seat gets five low cards for the 19 redeal.
        order = list(outcome.cards)
        low = [c for c in self.deck if c % 13 <= 3]  # 2 to 5
        chosen = rng.sample(low, 5)
        while not nineteen_hand(chosen):
            chosen = rng.sample(low, 5)
        first = rng.randrange(self.n)
        for k, card in enumerate(chosen):
            target, where = first + k * self.n, order.index(card)
            order[target], order[where] = order[where], order[target]
        return ChanceOutcome("deal", tuple(order))

    def bad_chances(self) -> list[ChanceOutcome]:
        bad = super().bad_chances()
        state = self.state
        if self.stage != "draw":
            return bad
        held = [c for s in range(self.n) for c in cards_of(state.hands[s])]
        if self.stock:
            count = min(self.pending, len(self.stock))
            top = self.stock[:count]
            bad += [
                ChanceOutcome("restock", tuple(self.discard_pile)),
                ChanceOutcome("draw", (*top[:-1], held[0])),  # a card someone holds
                ChanceOutcome("draw", tuple(top[:-1])),  # too few
                ChanceOutcome("draw", (*top[:-1], top[0]))
                if count > 1
                else ChanceOutcome("draw", ()),
            ]
            if len(self.stock) > count:
                bad.append(ChanceOutcome("draw", tuple(self.stock[: count + 1])))  # too many
            if self.aside:
                bad.append(ChanceOutcome("draw", (*top[:-1], self.aside[0])))  # own discard
        else:
            pile = list(self.discard_pile)
            bad += [
                ChanceOutcome("draw", tuple(pile[:1])),
                ChanceOutcome("restock", (*pile, held[0])),
                ChanceOutcome("restock", tuple(pile[1:])),
            ]
            if self.aside:
                bad.append(ChanceOutcome("restock", (*pile, *self.aside)))  # own discards
        return bad

    def pay(self, seat: int, amount: int, reason: str) -> None:
        if amount == 0:
            return
        assert amount > 0 or -amount <= self.pot, (
            f"{self.where()}: {-amount} from a pot of {self.pot}"
        )
        self.stacks[seat] -= amount
        self.pot += amount
        self.payments[(seat, amount, reason)] += 1

    # ------------------------------------------------------------ the flow

    def expected_chance(self) -> str:
        if self.stage == "dealing":
            return "deal"
        assert self.stage == "draw", f"{self.where()}: unexpected chance step"
        return "draw" if self.stock else "restock"

    def expected_phase(self) -> str:
        if self.stage == "decide":
            return "stay_or_fold" if self.round == "stay" else "come_back"
        if self.stage == "draw":
            return "draw" if self.stock else "restock"
        return {"dealing": "deal", "dealer": "dealer_choice", "play": "playing"}.get(
            self.stage, self.stage
        )

    def expected_to_act(self) -> int:
        if self.stage in ("ante", "dealer"):
            return self.dealer
        if self.stage in ("redeal", "decide"):
            return self.queue[0]
        if self.stage == "discard":
            return self.drawer
        assert self.stage == "play", f"{self.where()}: nobody should act now"
        return self.next_player()

    def others_in(self) -> int:
        return sum(1 for s in range(self.n) if s != self.dealer and self.status[s] == IN)

    def forced(self, seat: int) -> bool:
        """docs/games/buckup.md, Scare cards: a face-up trump must stay in."""
        card = self.scare[seat]
        return self.scare_on and card is not None and card // 13 == self.trump

    def reference_legal(self, seat: int) -> set[Action]:
        stage = self.stage
        if stage == "ante":
            return {Action("ante", c) for c in ANTE_CHOICES}
        if stage == "redeal":
            return {Action("redeal"), Action("keep")}
        if stage == "discard":
            return {Action("draw")} | {Action("discard", c) for c in cards_of(self.held[seat])}
        if stage == "dealer":
            return {Action("come_back"), Action("concede")}
        if stage == "play":
            return self.play_actions(seat)
        assert stage == "decide"
        if self.round == "comeback":
            return {Action("come_back"), Action("fold")}
        if self.forced(seat):
            return {Action("stay")}
        if seat != self.dealer:
            return {Action(k) for k in ("stay", "fold", *(("out_for_now",) if self.ofn else ()))}
        if self.others_in() == 1:  # dealer's obligation, or out for now
            return {Action(k) for k in ("stay", *(("out_for_now",) if self.ofn else ()))}
        return {Action("stay"), Action("fold")}

    def on_chance(self, outcome: ChanceOutcome) -> None:
        if self.stage == "dealing":
            self.deal(outcome.cards)
            return
        cards = list(outcome.cards)
        if outcome.kind == "restock":
            assert not self.stock
            assert sorted(cards) == sorted(self.discard_pile), (
                f"{self.where()}: the new stock is not the discards of the players who drew"
            )
            assert not set(cards) & set(self.aside), "a player's own discards were shuffled in"
            self.stock = cards
            self.discard_pile = []
            self.seen["buckup:restock"] += 1
            return
        count = min(self.pending, len(self.stock))
        assert len(cards) == count
        assert len(set(cards)) == count
        assert set(cards) <= set(self.stock), f"{self.where()}: cards drawn not from the stock"
        assert not set(cards) & set(self.own_discards[self.drawer]), "drew own discards"
        self.stock = [c for c in self.stock if c not in cards]
        self.held[self.drawer] |= mask_of(cards)
        self.pending -= count
        if self.pending == 0:
            self.finish_draw()

    def deal(self, order: tuple[int, ...]) -> None:
        state, n, size = self.state, self.n, self.size
        assert sorted(order) == list(range(52))
        seats = seat_order(self.dealer, n)
        dealt: list[list[int]] = [[] for _ in range(n)]
        for index in range(size * n):
            dealt[seats[index % n]].append(order[index])
        self.dealt = dealt
        self.held = [mask_of(cards) for cards in dealt]
        self.turn_up = order[size * n]
        self.trump = self.turn_up // 13
        self.stock = list(order[size * n + 1 :])
        self.discard_pile = []
        self.aside = []
        self.status = [UNDECIDED] * n
        self.scare = [cards[0] if self.scare_on else None for cards in dealt]
        self.redealing = False
        self.public |= 1 << self.turn_up
        for card in self.scare:
            if card is not None:
                self.public |= 1 << card
        self.in_hand = True
        assert state.turn_up == self.turn_up
        assert state.trump == self.trump
        if any(self.forced(s) for s in range(n)):
            self.seen["buckup:scare forced"] += 1
        self.queue = [] if self.four else [s for s in seats if nineteen_hand(dealt[s])]
        if self.queue:
            self.stage = "redeal"
            self.seen["buckup:nineteen"] += 1
        else:
            self.start_decisions()

    def start_decisions(self) -> None:
        self.round = "stay"
        self.queue = seat_order(self.dealer, self.n)
        self.ask_next()

    def ask_next(self) -> None:
        if self.queue:
            seat = self.queue[0]
            if self.round == "stay" and seat == self.dealer and self.others_in() == 0:
                # Nobody stayed in: the dealer takes the pot.
                self.queue.pop(0)
                self.status[seat] = IN
                self.seen["buckup:dealer takes the pot"] += 1
                self.close()
                return
            self.stage = "decide"
            return
        if self.round == "comeback":
            if self.came_back:  # someone came back: the dealer is out
                self.status[self.dealer] = OUT
                self.fold_fee(self.dealer)
                self.close()
            else:
                self.round = "dealer"
                self.stage = "dealer"
            return
        self.close()

    def fold_fee(self, seat: int) -> None:
        assert self.ante is not None
        self.pay(seat, self.ante[1], "fold_fee")

    def close(self) -> None:
        for seat in seat_order(self.dealer, self.n):
            if self.status[seat] == OFN:  # still out for now: out, and pays the fold fee
                self.status[seat] = OUT
                self.fold_fee(seat)
        playing = [s for s in range(self.n) if self.status[s] == IN]
        assert playing, f"{self.where()}: nobody in"
        if len(playing) < 2:
            self.over = True
            self.stage = "over"
            self.seen["buckup:uncontested"] += 1
            return
        self.stage = "play"
        leader = next(s for s in seat_order(self.dealer, self.n) if self.status[s] == IN)
        self.start_tricks(leader, playing)

    def begin_draw(self, seat: int) -> None:
        self.status[seat] = IN
        self.drawer = seat
        self.aside = []
        self.stage = "discard"

    def finish_draw(self) -> None:
        self.discard_pile += self.aside
        self.aside = []
        self.drawer = -1
        self.pending = 0
        self.ask_next()

    def on_action(self, seat: int, action: Action) -> None:
        kind, stage = action.kind, self.stage
        if stage == "ante":
            choice = str(action.value)
            self.seen[f"buckup:ante {choice}"] += 1
            s = self.settings
            fold_fee = 0 if choice.endswith("no_fold_fee") else int(s.fold_fee)
            per = "kept" if choice.startswith("kept") else "drawn"
            self.ante = (int(s.ante), fold_fee, int(s.card_fee), per)
            for payer in seat_order(self.dealer, self.n):
                self.pay(payer, int(s.ante), "ante")
            self.stage = "dealing"
        elif stage == "redeal":
            assert self.queue.pop(0) == seat
            if kind == "redeal":
                self.seen["buckup:redealt"] += 1
                self.stage = "dealing"
                self.in_hand = False
                self.redealing = True
                self.held = [0] * self.n
            elif not self.queue:
                self.start_decisions()
        elif stage == "discard":
            assert seat == self.drawer
            if kind == "discard":
                card = action.value
                assert isinstance(card, int)
                self.held[seat] &= ~(1 << card)
                self.aside.append(card)
                self.own_discards[seat].append(card)
                return
            assert self.ante is not None
            kept = self.held[seat].bit_count()
            drawn = 5 - kept
            fee = self.ante[2] * (kept if self.ante[3] == "kept" else drawn)
            self.pay(seat, fee, "draw_fee")
            self.drawn[seat] = drawn
            self.pending = drawn
            if drawn == 0:
                self.finish_draw()
            else:
                self.stage = "draw"
        elif stage == "dealer":
            assert seat == self.dealer
            if kind == "come_back":
                self.begin_draw(seat)
            else:
                self.status[seat] = OUT
                self.fold_fee(seat)
                self.close()
        else:
            assert stage == "decide"
            assert self.queue.pop(0) == seat
            if kind in ("stay", "come_back"):
                self.came_back = self.came_back or kind == "come_back"
                self.begin_draw(seat)
                return
            if kind == "fold":
                self.status[seat] = OUT
                self.fold_fee(seat)
            else:
                assert kind == "out_for_now"
                self.status[seat] = OFN
                if seat == self.dealer:
                    self.round = "comeback"
                    self.queue = [
                        s
                        for s in seat_order(self.dealer, self.n)
                        if self.status[s] == OFN and s != seat
                    ]
            self.ask_next()

    def known_trump(self) -> int | bool | None:
        return self.trump

    def play_legal(self, seat: int) -> set[int]:
        hand = cards_of(self.held[seat])
        if not self.trick:
            return set(hand)
        led = self.trick[0][1] // 13
        return {c for c in hand if c // 13 == led} or set(hand)

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = trick[0][1] // 13

        def key(card: int) -> tuple[int, int]:
            if card // 13 == self.trump:
                return (2, card % 13)
            return (1, card % 13) if card // 13 == led else (0, 0)

        return max(trick, key=lambda sc: key(sc[1]))[0]

    def hand_over(self) -> bool:
        return self.over or (self.stage == "play" and len(self.tricks) == 5)

    # -------------------------------------------------------------- checks

    def extra_piles(self) -> dict[str, list[int]]:
        ext: Any = self.state.ext
        assert self.state.turn_up is not None
        return {
            "turn-up": [self.state.turn_up],
            "stock": list(ext.stock),
            "discards": list(ext.discards),
            "set aside": list(ext.setting_aside),
        }

    def check_step(self) -> None:
        ext: Any = self.state.ext
        ledger = ext.ledger
        stacks, pot = list(ledger.stacks), int(ledger.pot)
        assert sum(stacks) + pot == self.total, f"{self.where()}: chips appeared or vanished"
        assert (stacks, pot) == (self.stacks, self.pot), (
            f"{self.where()}: stacks {stacks} pot {pot}, the rules say {self.stacks} {self.pot}"
        )
        paid = [0] * self.n
        for payment in ledger.payments:
            assert payment.amount != 0
            paid[payment.seat] += payment.amount
        for seat in range(self.n):
            assert stacks[seat] == self.hand_stacks[seat] - paid[seat], "an unrecorded payment"
        assert pot == self.hand_pot + sum(paid), "an unrecorded payment into the pot"
        assert self.state.scores == self.expected_scores
        if (self.stage == "ante" and not ledger.payments) or self.state.is_terminal():
            assert self.state.scores == [s - self.start for s in stacks]
        if self.in_hand:
            assert sorted(ext.stock) == sorted(self.stock)
            assert sorted(ext.discards) == sorted(self.discard_pile)
            assert sorted(ext.setting_aside) == sorted(self.aside)
            assert list(ext.status) == self.status

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        extra = obs.extra
        assert extra["stacks"] == self.stacks
        assert extra["pot"] == self.pot
        if self.in_hand:
            assert extra["status"] == self.status
            assert extra["stock"] == len(self.stock)
            assert obs.turn_up == self.turn_up
        if self.stage == "play":
            assert obs.active == tuple(st == IN for st in self.status)
        if self.scare_on and self.in_hand:
            assert extra["scare_cards"] == [
                format_card(c) if c is not None else None for c in self.scare
            ]

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        assert view.extra == real.extra  # public: chips, statuses, counts of cards drawn

    def check_hand(self, hr: HandResult) -> None:
        extra = hr.extra
        pot = self.pot
        assert extra["pot_before"] == self.hand_pot
        assert extra["pot_settled"] == pot
        assert all(st in (IN, OUT) for st in self.status), f"{self.where()}: {self.status}"
        playing = [s for s in range(self.n) if self.status[s] == IN]
        if len(playing) == 1:
            winners, burned = playing, []
            self.pay(playing[0], -pot, "uncontested")
            assert hr.tricks == (0,) * self.n
            assert hr.trick_cards == ()
        else:
            tricks = hr.tricks
            assert sum(tricks) == 5, f"{self.where()}: tricks {tricks} do not sum to 5"
            assert all(tricks[s] == 0 for s in range(self.n) if s not in playing)
            winners = [s for s in playing if tricks[s] >= 2]
            burned = [s for s in playing if tricks[s] < 2]
            if len(winners) == 1:
                self.pay(winners[0], -pot, "win")
            elif len(winners) == 2:
                half, odd = divmod(pot, 2)
                for s in winners:
                    self.pay(s, -(half + (odd if tricks[s] >= 3 else 0)), "win")
                if odd and max(tricks[s] for s in winners) == 2:
                    self.seen["buckup:odd chip stays"] += 1
            else:
                assert not winners
                self.seen["buckup:nobody won"] += 1
            for s in burned:
                self.pay(s, pot, "burn")
            if burned:
                self.seen["buckup:burned"] += 1
        if min(self.stacks) < 0:
            self.seen["buckup:debt"] += 1
        assert extra["status"] == self.status
        assert extra["drawn"] == self.drawn
        assert extra["winners"] == winners
        assert extra["burned"] == burned
        assert extra["pot_after"] == self.pot
        assert extra["stacks"] == self.stacks
        recorded = Counter((p["seat"], p["amount"], p["reason"]) for p in extra["payments"])
        assert recorded == self.payments, (
            f"{self.where()}: payments {sorted(recorded.elements())}, the rules say"
            f" {sorted(self.payments.elements())}"
        )
        for seat in range(self.n):
            paid = sum(p["amount"] for p in extra["payments"] if p["seat"] == seat)
            assert hr.hand_scores[seat] == -paid == self.stacks[seat] - self.hand_stacks[seat]
        assert sum(p["amount"] for p in extra["payments"]) == self.pot - self.hand_pot
        self.expected_scores = [s - self.start for s in self.stacks]
        assert list(hr.total_scores) == self.expected_scores
        assert hr.turn_up == self.turn_up
        assert hr.trump == self.trump
        for seat in range(self.n):
            if self.status[seat] == IN and len(playing) > 1:
                assert sorted(hr.deal[seat]) == sorted(self.played_by(seat))
                assert len(hr.deal[seat]) == 5
            else:
                assert mask_of(hr.deal[seat]) == self.held[seat]
        hands = len(self.state.history)
        over = (hands >= self.settings.hands and self.pot == 0) or hands >= self.settings.max_hands
        assert self.state.is_terminal() == over, (
            f"{self.where()}: after hand {hands} with a pot of {self.pot} the game"
            f" {'ended' if self.state.is_terminal() else 'goes on'}"
        )

    def check_game_over(self) -> None:
        assert self.state.scores == [s - self.start for s in self.stacks]
        assert sum(self.state.scores) == -self.pot


# --------------------------------------------------------------- strategies

GAMES: Final[dict[str, type[CheckedGame]]] = {
    "pluck": PluckGame,
    "euchre": EuchreGame,
    "buckup": BuckupGame,
}


@st.composite
def pluck_configs(draw: st.DrawFn, *, max_hands: int = 4) -> GameConfig:
    options: tuple[tuple[str, bool | int], ...] = (
        ("hands", draw(st.integers(1, max_hands))),
        ("draw_for_dealer", draw(st.booleans())),
    )
    return GameConfig("pluck", 3, options)


@st.composite
def euchre_configs(draw: st.DrawFn) -> GameConfig:
    options: tuple[tuple[str, bool | int], ...] = (
        ("target", draw(st.sampled_from((1, 2, 3, 5, 10)))),
        ("usual_bower_order", draw(st.booleans())),
        ("draw_for_dealer", draw(st.booleans())),
    )
    return GameConfig("euchre", 4, options)


@st.composite
def buckup_configs(draw: st.DrawFn, *, max_hands: int = 3) -> GameConfig:
    four = draw(st.booleans())
    players = draw(st.integers(4, 9 if four else 7))
    hands = draw(st.integers(1, max_hands))
    options: tuple[tuple[str, bool | int], ...] = (
        ("four_card_deal", four),
        ("out_for_now", draw(st.booleans())),
        ("scare_cards", draw(st.booleans())),
        ("hands", hands),
        ("max_hands", hands + draw(st.integers(0, 4))),
        ("starting_stack", draw(st.sampled_from((0, 40, 500)))),
        ("ante", draw(st.sampled_from((0, 1, 5)))),
        ("fold_fee", draw(st.sampled_from((0, 3, 5)))),
        ("card_fee", draw(st.sampled_from((0, 1, 5)))),
        ("draw_for_dealer", draw(st.booleans())),
    )
    return GameConfig("buckup", players, options)


def play_checked(
    config: GameConfig,
    *,
    seed: int,
    bots: Sequence[str],
    bot_seed: int,
    check_seed: int,
    intensity: Intensity = DEFAULT,
    count_cards: bool = False,
) -> CheckedGame:
    game = GAMES[config.game](
        config,
        seed=seed,
        bots=bots,
        bot_seed=bot_seed,
        check_seed=check_seed,
        intensity=intensity,
        count_cards=count_cards,
    )
    return game.run()


SETTINGS: Final = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

# ----------------------------------------------------------------- the tests


@settings(max_examples=60, **SETTINGS)  # type: ignore[arg-type]
@given(config=pluck_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_pluck_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """Pluck: cards, quotas, plucks, tricks, legality, records, no leaked plucks."""
    play_checked(config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed)


@settings(max_examples=200, **SETTINGS)  # type: ignore[arg-type]
@given(config=euchre_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_euchre_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """Euchre: cards, the auction, the kitty and discards, bowers, scores, no leaked kitty."""
    play_checked(config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed)


@settings(max_examples=100, **SETTINGS)  # type: ignore[arg-type]
@given(config=buckup_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_buckup_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """Buckup: cards, chips, decisions, draws, settlement, no leaked draws or hands."""
    play_checked(config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed)


@pytest.mark.slow
@settings(max_examples=200, **SETTINGS)  # type: ignore[arg-type]
@given(
    config=pluck_configs(max_hands=6),
    seed=SEEDS,
    bots=BOT_LISTS,
    bot_seed=SEEDS,
    check_seed=SEEDS,
)
def test_many_pluck_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """The Pluck checks over many more and longer games, with more illegal actions tried."""
    play_checked(
        config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed, intensity=HEAVY
    )


@pytest.mark.slow
@settings(max_examples=800, **SETTINGS)  # type: ignore[arg-type]
@given(config=euchre_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_many_euchre_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """The Euchre checks over many more games, with more illegal actions tried."""
    play_checked(
        config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed, intensity=HEAVY
    )


@pytest.mark.slow
@settings(max_examples=400, **SETTINGS)  # type: ignore[arg-type]
@given(
    config=buckup_configs(max_hands=5),
    seed=SEEDS,
    bots=BOT_LISTS,
    bot_seed=SEEDS,
    check_seed=SEEDS,
)
def test_many_buckup_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """The Buckup checks over many more and longer games, with more illegal actions tried."""
    play_checked(
        config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed, intensity=HEAVY
    )


# ------------------------------------------------------------------ coverage


def _buckup(players: int, **changed: bool | int) -> GameConfig:
    options: dict[str, bool | int] = {
        "four_card_deal": players > 7,
        "out_for_now": False,
        "scare_cards": False,
        "hands": 3,
        "max_hands": 6,
        "starting_stack": 40,
        "ante": 5,
        "fold_fee": 5,
        "card_fee": 5,
        "draw_for_dealer": False,
    }
    options.update(changed)
    return GameConfig("buckup", players, tuple(options.items()))


RANDOM: Final = ("random",) * 9
HEURISTIC: Final = ("heuristic",) * 9
MIXED: Final = ("random", "heuristic") * 5

COVERAGE_GAMES: Final[tuple[tuple[GameConfig, Sequence[str]], ...]] = (
    *((GameConfig("pluck", 3, (("hands", 3),)), bots) for bots in (RANDOM, HEURISTIC, MIXED)),
    *(
        (GameConfig("euchre", 4, (("target", 3), ("usual_bower_order", usual))), bots)
        for usual in (False, True)
        for bots in (RANDOM, HEURISTIC, HEURISTIC, MIXED)
    ),
    (_buckup(4, out_for_now=True, scare_cards=True), RANDOM),
    (_buckup(5, out_for_now=True), RANDOM),
    (_buckup(6, out_for_now=True, scare_cards=True), MIXED),
    (_buckup(7, scare_cards=True), RANDOM),
    (_buckup(7, out_for_now=True), RANDOM),
    (_buckup(5, starting_stack=0), HEURISTIC),
    (_buckup(8, out_for_now=True, scare_cards=True), RANDOM),
    (_buckup(9, out_for_now=True), RANDOM),
    (_buckup(9, scare_cards=True), MIXED),
)

REQUIRED_EVENTS: Final = frozenset(
    {
        "explicit chance",
        "replay",
        "pluck:plucks",
        "pluck:pluck",
        "pluck:give_back",
        "pluck:call_trump",
        "euchre:auction",
        "euchre:pass",
        "euchre:discard",
        "euchre:bid again",
        "euchre:thrown in",
        "euchre:set",
        "euchre:contract NT",
        "buckup:ante kept",
        "buckup:ante drawn",
        "buckup:ante kept_no_fold_fee",
        "buckup:ante drawn_no_fold_fee",
        "buckup:nineteen",
        "buckup:redealt",
        "buckup:keep",
        "buckup:stay",
        "buckup:fold",
        "buckup:out_for_now",
        "buckup:come_back",
        "buckup:concede",
        "buckup:discard",
        "buckup:draw",
        "buckup:restock",
        "buckup:scare forced",
        "buckup:dealer takes the pot",
        "buckup:uncontested",
        "buckup:burned",
        "buckup:debt",
    }
)


def test_the_games_reach_the_situations_the_checks_are_for() -> None:
    """A fixed set of checked games reaches every phase and rare situation of the three
    games, so that the random games above do exercise their checks."""
    seen: Counter[str] = Counter()
    for index, (config, bots) in enumerate(COVERAGE_GAMES):
        game = play_checked(
            config,
            seed=index * 7919 + 3,
            bots=bots,
            bot_seed=index,
            check_seed=index,
            intensity=COVERAGE,
        )
        seen.update(game.seen)
        assert game.illegal_tried > 0
    missing = sorted(REQUIRED_EVENTS - set(seen))
    assert not missing, f"never reached: {missing} (seen: {dict(seen)})"


@pytest.mark.parametrize(
    "config",
    [
        GameConfig("pluck", 3, (("hands", 2),)),
        GameConfig("euchre", 4, (("target", 3),)),
        GameConfig("buckup", 5, (("hands", 2), ("max_hands", 3))),
        GameConfig("buckup", 9, (("four_card_deal", True), ("hands", 2), ("max_hands", 3))),
    ],
    ids=lambda config: config.id,
)
def test_observations_count_the_cards_in_hand(config: GameConfig) -> None:
    """``Observation.cards_in_hand`` is the number of cards the seat holds (as the Oh Hell
    games' property tests require), also while a pluck, the Euchre declarer's discard or a
    Buckup discard and draw changes the hand, and for a Buckup player who folded."""
    for seed in range(3):
        play_checked(
            config,
            seed=seed,
            bots=MIXED,
            bot_seed=seed,
            check_seed=seed,
            intensity=COVERAGE,
            count_cards=True,
        )
