"""The base of the hook games' property tests (tests/test_properties_games.py): the
settings, the configurations and :class:`CheckedGame`, which keeps its own model of a
hand written from docs/games/ and checks the engine against it after every step."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

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
from tricktaker.cards import CardError, cards_of, format_card, parse_card

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
