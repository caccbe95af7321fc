"""Every tricktaker ruleset as an OpenSpiel Python game (``python_tricktaker``).

Needs the ``openspiel`` extra (``pip install 'tricktaker[openspiel]'``). Importing this
module registers the game with OpenSpiel; :func:`load_game` loads a ruleset by id or
house-rules file::

    >>> from tricktaker.envs.openspiel_game import load_game
    >>> game = load_game("bluke", players=4, hands=1)
    >>> game.num_players(), game.num_distinct_actions() > 54
    (4, True)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()           # the first dealer, then the deal card by card
    True

or through OpenSpiel itself: ``pyspiel.load_game("python_tricktaker", {"game": "pluck"})``.

**Parameters.** ``game`` (a shipped id or the path of a ruleset file), ``players`` (0:
the game's usual number), ``options`` (``"name=value,..."``, the ruleset's options),
``hands`` (0: the whole game; ``k``: the game ends after ``k`` hands, with the scores
then), ``utility`` (``"rank"``: each seat's ``(seats it beats - seats beating it) /
(players - 1)``, in ``[-1, 1]``, a cooperative table ``+1`` when completed else ``-1``;
``"score"``: the final scores themselves, points or net chips) and ``first_dealer``
(``-1``: chosen by chance, uniformly).

**Chance is exact.** Every shuffle is dealt card by card: each chance node draws the
next card of the deck order uniformly from the cards not yet placed (as OpenSpiel's own
``oh_hell`` deals), so every order of the deck has the same probability; the last card
of a shuffle, being forced, is placed without a node. In the Oh Hell family (rulesets
without hooks) only the dealt cards and the next one (the turn-up) are drawn, since the
game never looks at the order of the cards left over (they follow in card order):
a hand of 1 card each for 4 players is 5 chance nodes, not 51. Games with hooks draw
the whole deck (Buckup draws from the stock). A turn-up from a second deck is
one node of 52 outcomes, the shuffle of a seat's face-down pile or of discards into a
new stock is card by card as well, and a chance step that has one possible outcome
(drawing from the top of a stock) is applied without a node. Chance outcomes are card
ids (0..53), seats for the first dealer.

**Decisions.** Actions are the fixed action space of :mod:`tricktaker.envs.encoding`
(``play`` of each card id, then the bids and each game's own actions). Simultaneous bids
(Kachuful) are asked seat by seat; a seat does not see the bids made before its own
until all are in, exactly as in the engine's observations.

**What a seat sees.** Information state and observation strings and tensors are built
from the engine's ``observe(seat)`` alone, the same window the bots have, so nothing
hidden reaches them. The information state string adds the finished hands (as the seat
may see them) to the current hand; the observation string is the current hand only;
both tensors are the fixed encoding of :mod:`tricktaker.envs.encoding` (the current
hand, scores and game parts; not every card of earlier hands). Before the first dealer
is chosen a seat sees nothing (a zero tensor).

**Search.** ``state.resample_from_infostate(seat, sampler)`` draws a state the seat cannot
tell apart from the real one with the search bots' determinizers (exactly uniform over
the deals consistent with what the seat saw), so OpenSpiel's ISMCTS
(``open_spiel.python.algorithms.ismcts``) runs on every shipped game. A resampled state
starts a new OpenSpiel history (its ``history()`` is empty).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from tricktaker.cards import NUM_CARD_IDS, cards_of, format_card
from tricktaker.engine.base import DEAL, HOOK, PILE_SHUFFLE, TRUMP_DRAW, ChanceOutcome
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState
from tricktaker.envs.encoding import Encoding
from tricktaker.memo import Memo
from tricktaker.rules import Ruleset, load_ruleset

__all__ = [
    "GAME_TYPE",
    "SHORT_NAME",
    "TricktakerGame",
    "TricktakerState",
    "load_game",
    "observation_text",
]

SHORT_NAME: Final = "python_tricktaker"
MAX_PLAYERS: Final = 12
UTILITIES: Final = ("rank", "score")
SCORE_BOUND: Final = 1_000_000.0
"""The utility bounds of ``utility="score"`` for games with their own scoring (hooks) or
called hands, whose extremes the ruleset does not give."""

DEFAULTS: Final[dict[str, Any]] = {
    "game": "blackout",
    "players": 0,
    "options": "",
    "hands": 0,
    "utility": "rank",
    "first_dealer": -1,
}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="tricktaker trick-taking game (any ruleset)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


@dataclass(frozen=True)
class Settings:
    """A loaded game's parameters, checked, with its ruleset and encoding."""

    key: tuple[str, int, str, int, str, int]
    """The parameters as given (game, players, options, hands, utility, first dealer)."""
    rules: Ruleset
    players: int
    hands: int
    utility: str
    first_dealer: int
    encoding: Encoding


def parse_options(text: str) -> dict[str, str]:
    """``"hook=false,blukes=2"`` as a dict (the ruleset checks the names and values).

    >>> parse_options("hook=false, blukes=2")
    {'hook': 'false', 'blukes': '2'}
    """
    options: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"options are name=value pairs separated by commas, not {part!r}")
        options[name.strip()] = value.strip()
    return options


_SETTINGS: Memo[tuple[str, int, str, int, str, int], Settings] = Memo(maxsize=64)
"""Checked settings by the parameters as given (each loaded game has its own)."""


def _settings(
    game: str, players: int, options: str, hands: int, utility: str, first_dealer: int
) -> Settings:
    """The checked settings of a game's parameters (the ruleset loaded once per set)."""
    key = (game, players, options, hands, utility, first_dealer)
    return _SETTINGS.get(key, lambda: _check_settings(*key))


def _check_settings(
    game: str, players: int, options: str, hands: int, utility: str, first_dealer: int
) -> Settings:
    rules = load_ruleset(game, options=parse_options(options))
    count = players or (4 if 4 in rules.player_counts else rules.player_counts[0])
    rules.check_players(count)
    if hands < 0:
        raise ValueError(f"hands must be 0 (the whole game) or more, not {hands}")
    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
    if not -1 <= first_dealer < count:
        raise ValueError(f"first_dealer must be -1 (chance) or a seat 0..{count - 1}")
    key = (game, players, options, hands, utility, first_dealer)
    return Settings(key, rules, count, hands, utility, first_dealer, Encoding.of(rules, count))


def _hand_bound(rules: Ruleset, players: int, hands: int) -> int:
    """At most how many hands a game is played (``hands``: the truncation, 0 for none)."""
    state = GameState(rules, players=players, seed=0, first_dealer=0)
    setup = state.setup
    bound: int
    if setup.called:  # a caller calls each hand: the ruleset fixes how many
        bound = setup.called_hands
    elif state.hooks is not None:
        limit = state.hooks.hands_in_game(state)
        if limit is None:
            limit = rules.options.get("max_hands")
        bound = limit if isinstance(limit, int) else 1000
    elif setup.advance_when_all_exact:  # hands are replayed until all bids are exact
        bound = setup.max_hands or 1000
    else:
        bound = len(setup.schedule)
    if setup.max_hands is not None:
        bound = min(bound, setup.max_hands) if bound else setup.max_hands
    return min(bound, hands) if hands else bound


def _score_bounds(rules: Ruleset, players: int, hands: int) -> tuple[float, float]:
    """Bounds of the final scores: sums over the scheduled hands of each hand's extremes
    for the Oh Hell family, :data:`SCORE_BOUND` for games with their own scoring and for
    called hands."""
    if not keeps_engine_bids(rules.hooks):
        return -SCORE_BOUND, SCORE_BOUND
    if rules.cooperative:
        return -1.0, 1.0
    state = GameState(rules, players=players, seed=0, first_dealer=0)
    setup = state.setup
    if setup.called:  # the dealer's calls change the scoring (doubled hands...)
        return -SCORE_BOUND, SCORE_BOUND
    low = high = 0.0
    schedule = setup.schedule[: hands or None]
    for spec in schedule:
        lo, hi = _hand_range(spec.scoring or rules.scoring, spec.hand_size, players)
        low += lo
        high += hi
    return low - 1.0, high + 1.0


def _hand_range(scoring: Any, size: int, players: int) -> tuple[float, float]:
    values = [
        scoring.score_of(bid, tricks, size, players)
        for bid in range(size + 1)
        for tricks in range(size + 1)
    ]
    lo, hi = float(min(values)), float(max(values))
    if scoring.trick_points is not None:
        points = [
            scoring.trick_points(k=k, hand_size=size, players=players) for k in range(1, size + 1)
        ]
        lo += sum(min(p, 0) for p in points)
        hi += sum(max(p, 0) for p in points)
    return lo, hi


class TricktakerGame(pyspiel.Game):  # type: ignore[misc]
    """A tricktaker ruleset as an OpenSpiel game (see the module notes for parameters)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **dict(params or {})}
        unknown = set(given) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)}: use {sorted(DEFAULTS)}")
        self.settings = settings = _settings(
            str(given["game"]),
            int(given["players"]),
            str(given["options"]),
            int(given["hands"]),
            str(given["utility"]),
            int(given["first_dealer"]),
        )
        rules, players = settings.rules, settings.players
        hands = _hand_bound(rules, players, settings.hands)
        max_hand = rules.max_hand(players)
        per_hand = players * (max_hand + 2) + 4
        if not keeps_engine_bids(rules.hooks):
            per_hand = 4 * per_hand + 64
        if settings.utility == "rank":
            low, high = -1.0, 1.0
        else:
            low, high = _score_bounds(rules, players, settings.hands)
        info = pyspiel.GameInfo(
            num_distinct_actions=settings.encoding.action_size,
            max_chance_outcomes=max(NUM_CARD_IDS, players),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=max(1, hands * per_hand),
        )
        super().__init__(GAME_TYPE, info, {**given, "players": players})

    def new_initial_state(self) -> TricktakerState:
        """The start of a game: the first dealer (a chance node unless given), then the deal."""
        return TricktakerState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        """OpenSpiel's observer: the information state with ``perfect_recall``, else the
        observation (a seat's own view; public-only views are not offered)."""
        if params:
            raise ValueError(f"the observer takes no parameters, not {dict(params)}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise NotImplementedError(
                "tricktaker games observe one seat's view (its own cards and the public"
                " information); other observation types are not offered"
            )
        return Observer(self.settings.encoding, perfect_recall=recall)


@dataclass(frozen=True, slots=True)
class _Segment:
    """Part of a chance outcome: ``cards`` as they are (``draw`` None) or ``draw`` of
    them drawn one by one, uniformly, without replacement; with ``rest``, those of
    ``cards`` not drawn before, in id order."""

    cards: tuple[int, ...]
    draw: int | None
    rest: bool = False


class _Core:
    """The engine state and the chance step in progress; copied cheaply (the engine's
    own ``clone``) when OpenSpiel clones a state, pickled as the actions that led to it."""

    def __init__(self, settings: Settings, engine: GameState | None) -> None:
        self.settings = settings
        self.engine = engine
        self.actions: list[int] | None = [] if engine is None or not engine.events else None
        """The OpenSpiel actions applied (None for a resampled state, which has no
        history of its own)."""
        self.kind = ""
        self.plan: tuple[_Segment, ...] = ()
        self.segment = 0
        self.outcome: list[int] = []
        self.taken = 0
        """Cards drawn so far in the current segment."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        copy = _Core(self.settings, self.engine.clone() if self.engine is not None else None)
        copy.kind, copy.plan, copy.segment = self.kind, self.plan, self.segment
        copy.outcome, copy.taken = list(self.outcome), self.taken
        copy.actions = list(self.actions) if self.actions is not None else None
        return copy

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.actions is None:
            raise TypeError("a resampled state has no history to serialize")
        return _replay, (self.settings.key, tuple(self.actions))

    def to_act(self) -> int:
        """The seat to act at a decision node (the first of simultaneous bidders)."""
        assert self.engine is not None
        return min(self.engine.to_act())

    def apply(self, action: int) -> None:
        """Apply an OpenSpiel action: the first dealer, a chance card or a decision."""
        engine = self.engine
        if engine is None:
            self.engine = _new_engine(self.settings, action)
        elif engine.is_chance():
            self.draw(action)
        else:
            engine.apply(self.to_act(), self.settings.encoding.action_at(action))
        if self.actions is not None:
            self.actions.append(action)
        self.settle()

    # ------------------------------------------------------------- chance

    def pool(self) -> list[int]:
        """The cards the pending chance node may draw (in id order)."""
        used = set(self.outcome)
        return sorted(c for c in self.plan[self.segment].cards if c not in used)

    def start_chance(self) -> None:
        engine = self.engine
        assert engine is not None
        self.kind, self.plan = _chance_plan(engine)
        self.segment, self.outcome, self.taken = 0, [], 0

    def settle(self) -> None:
        """Place what is forced; apply completed chance steps, until a real choice (a
        decision or a chance node with several outcomes) or the end."""
        engine = self.engine
        while engine is not None and engine.is_chance() and not engine.is_terminal():
            if not self.plan:
                self.start_chance()
            while self.segment < len(self.plan):
                part = self.plan[self.segment]
                if part.rest:
                    self.outcome.extend(self.pool())
                elif part.draw is None:
                    self.outcome.extend(part.cards)
                elif self.taken < part.draw:
                    pool = self.pool()
                    if len(pool) > 1:
                        return
                    self.outcome.extend(pool)
                    self.taken += 1
                    continue
                self.segment += 1
                self.taken = 0
            engine.apply_chance(ChanceOutcome(self.kind, tuple(self.outcome)))
            self.plan, self.outcome = (), []

    def draw(self, card: int) -> None:
        if card not in self.pool():
            raise ValueError(f"{card} is not a chance outcome now")
        self.outcome.append(card)
        self.taken += 1


def _new_engine(settings: Settings, dealer: int) -> GameState:
    return GameState(settings.rules, players=settings.players, seed=0, first_dealer=dealer)


def _replay(key: tuple[str, int, str, int, str, int], actions: tuple[int, ...]) -> _Core:
    """A core rebuilt from its parameters and actions (unpickling)."""
    settings = _settings(*key)
    first = _new_engine(settings, settings.first_dealer) if settings.first_dealer >= 0 else None
    core = _Core(settings, first)
    core.settle()
    for action in actions:
        core.apply(action)
    return core


def _chance_plan(engine: GameState) -> tuple[str, tuple[_Segment, ...]]:
    """The pending chance step of ``engine`` as segments of its outcome."""
    phase = engine.phase
    if phase == DEAL:
        deck = tuple(engine.setup.deck)
        if not keeps_engine_bids(engine.hooks):  # Buckup draws from the stock: its order counts
            return "deal", (_Segment(deck, len(deck)),)
        # The Oh Hell family reads the dealt cards and the next one (the turn-up) only.
        packets = engine.setup.deal_packets(engine.deal_order(), engine.hand_size)
        needed = min(len(deck), sum(count for _, count in packets) + 1)
        return "deal", (_Segment(deck, needed), _Segment(deck, None, rest=True))
    if phase == TRUMP_DRAW:
        return "second_deck", (_Segment(tuple(range(52)), 1),)
    if phase == PILE_SHUFFLE:
        parts = []
        for seat in range(engine.players):
            if seat in engine.shuffle_seats:
                hand = tuple(cards_of(engine.hands[seat]))
                parts.append(_Segment(hand, len(hand)))
            else:
                parts.append(_Segment(tuple(engine.dealt[seat]), None))
        return "piles", tuple(parts)
    if phase == HOOK and engine.hooks is not None:
        one = engine.hooks.sample_chance(engine, random.Random(1))
        two = engine.hooks.sample_chance(engine, random.Random(2))
        if one == two:
            return one.kind, (_Segment(one.cards, None),)
        if sorted(one.cards) == sorted(two.cards) and len(set(one.cards)) == len(one.cards):
            cards = tuple(sorted(one.cards))
            return one.kind, (_Segment(cards, len(cards)),)
        raise NotImplementedError(
            f"the {engine.hooks.name} chance step {one.kind!r} is neither fixed nor a shuffle"
        )
    raise ValueError("no chance step is pending")


class TricktakerState(pyspiel.State):  # type: ignore[misc]
    """A game in progress (see the module notes)."""

    def __init__(self, game: TricktakerGame, engine: GameState | None = None) -> None:
        super().__init__(game)
        settings = game.settings
        if engine is None and settings.first_dealer >= 0:
            engine = _new_engine(settings, settings.first_dealer)
        self._core = _Core(settings, engine)
        self._core.settle()

    @property
    def engine(self) -> GameState | None:
        """The engine's state (None before the first dealer is chosen)."""
        return self._core.engine

    def observe(self, seat: int) -> Observation | None:
        """What ``seat`` may know now (None before the first dealer is chosen)."""
        engine = self._core.engine
        return engine.observe(seat) if engine is not None else None

    # ---------------------------------------------------------- OpenSpiel

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        engine = self._core.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if engine.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        return self._core.to_act()

    def is_terminal(self) -> bool:
        """Whether the game is over (or the ``hands`` it was cut to are played)."""
        engine = self._core.engine
        if engine is None:
            return False
        limit = self._core.settings.hands
        return engine.is_terminal() or bool(limit and engine.hands_played >= limit)

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._core.engine
        if engine is None or self.is_terminal() or engine.is_chance():
            return []
        if player != self._core.to_act():
            return []
        encoding = self._core.settings.encoding
        return sorted(encoding.action_index(a) for a in engine.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance node's outcomes, each as likely as the others."""
        core = self._core
        if core.engine is None:
            players = core.settings.players
            return [(seat, 1.0 / players) for seat in range(players)]
        pool = core.pool()
        return [(card, 1.0 / len(pool)) for card in pool]

    def _apply_action(self, action: int) -> None:
        self._core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            if core.engine is None:
                return f"first dealer {action}"
            return f"{core.kind} {format_card(action, labels=core.settings.rules.joker_labels)}"
        return str(core.settings.encoding.action_at(action))

    def returns(self) -> list[float]:
        """Each seat's utility at the end (see ``utility``); zeros before."""
        settings = self._core.settings
        engine = self._core.engine
        if engine is None or not self.is_terminal():
            return [0.0] * settings.players
        if settings.utility == "score":
            return [float(score) for score in engine.scores]
        return rank_utility(
            engine.scores, cooperative=settings.rules.cooperative, completed=engine.completed
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TricktakerState:
        """A state ``player_id`` cannot tell apart from this one, hidden cards resampled
        (``probability_sampler()``: a uniform number in ``[0, 1)``, seeds the sample)."""
        from tricktaker.bots.gamesearch import search_for

        engine = self._core.engine
        if engine is None or engine.is_chance():
            raise ValueError("states are resampled at decision nodes")
        obs = engine.observe(player_id)
        seed = int(float(probability_sampler()) * 2**53)
        sampler = search_for(engine.rules.spec.hooks).determinizer(obs)
        sampled = sampler.sample(random.Random(seed))
        if len(sampled.history) != len(engine.history):
            # The Oh Hell family's samples start at the current hand; its finished hands
            # are open to every seat, so they are the real ones.
            sampled.set_past(history=engine.history)
        game = self.get_game()
        assert isinstance(game, TricktakerGame)
        return TricktakerState(game, sampled)

    def __str__(self) -> str:
        engine = self._core.engine
        if engine is None:
            return "before the first dealer is chosen"
        labels = engine.rules.joker_labels
        hands = " | ".join(
            " ".join(format_card(c, labels=labels) for c in cards_of(mask)) for mask in engine.hands
        )
        pending = " ".join(format_card(c, labels=labels) for c in self._core.outcome)
        return (
            f"{engine.rules.id} hand {engine.hand_number} ({engine.phase_name}),"
            f" dealer {engine.dealer}, hands: {hands}; bids {list(engine.bids)};"
            f" trick {list(engine.trick)}; tricks {list(engine.tricks_won)};"
            f" scores {list(engine.scores)}; actions {len(engine.events)}"
            + (f"; drawing {self._core.kind}: {pending}" if self._core.plan else "")
        )


def rank_utility(
    scores: Sequence[int], *, cooperative: bool = False, completed: bool = False
) -> list[float]:
    """Each seat's ``(seats it beats - seats beating it) / (players - 1)``.

    >>> rank_utility([10, 5, 10, 0])
    [0.6666666666666666, -0.3333333333333333, 0.6666666666666666, -1.0]
    """
    players = len(scores)
    if cooperative:
        return [1.0 if completed else -1.0] * players
    if players == 1:
        return [0.0]
    return [
        (sum(s < mine for s in scores) - sum(s > mine for s in scores)) / (players - 1)
        for mine in scores
    ]


def observation_text(obs: Observation, *, recall: bool) -> str:
    """One seat's view as text: the current hand, and with ``recall`` the finished hands."""
    labels = obs.rules.joker_labels

    def card(c: int) -> str:
        return format_card(c, labels=labels)

    def trick(plays: Sequence[tuple[int, int]]) -> str:
        return " ".join(f"{seat}:{card(c)}" for seat, c in plays)

    lines = [
        f"seat {obs.seat} of {obs.players}; hand {obs.hand_number} ({obs.phase}),"
        f" played {obs.hands_played}, size {obs.hand_size}, dealer {obs.dealer}",
        f"special {obs.special}; call {json.dumps(obs.call, sort_keys=True, default=str)}",
        f"trump {obs.trump} known {obs.trump_known}; turn-up"
        f" {card(obs.turn_up) if obs.turn_up is not None else '-'}",
        "cards "
        + (" ".join(card(c) for c in obs.my_cards) if obs.hand is not None else "unseen")
        + f" ({obs.cards_in_hand})",
        f"bids {list(obs.bids)} made {[int(m) for m in obs.bid_made]}; hook {obs.hook};"
        f" misere {obs.misere}; pile {obs.pile}",
        "tricks " + " / ".join(trick(t) for t in obs.tricks) + f" won by {list(obs.trick_winners)}",
        f"trick {trick(obs.current_trick)}; leader {obs.leader}; trump broken {obs.trump_broken}",
        f"tricks won {list(obs.tricks_won)}; scores {list(obs.scores)}; to act {list(obs.to_act)}",
        f"active {list(obs.active) if obs.active is not None else '-'};"
        f" draw {[(s, card(c)) for s, c in obs.dealer_draw]}",
        "game " + json.dumps(dict(obs.extra), sort_keys=True, default=str),
    ]
    if recall:
        for result in obs.history:
            lines.append("hand " + json.dumps(result.to_json(labels=labels), sort_keys=True))
    return "\n".join(lines)


class Observer:
    """OpenSpiel's Python observer: the fixed encoding as ``tensor``, the text view."""

    def __init__(self, encoding: Encoding, *, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor: npt.NDArray[np.float32] = np.zeros(encoding.observation_size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor}

    def set_from(self, state: TricktakerState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        obs = state.observe(player)
        if obs is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoding.encode(obs)

    def string_from(self, state: TricktakerState, player: int) -> str:
        """``player``'s view of ``state`` as text (:func:`observation_text`)."""
        obs = state.observe(player)
        if obs is None:
            return f"seat {player}: the first dealer is not chosen yet"
        return observation_text(obs, recall=self.perfect_recall)


def load_game(
    game: str,
    *,
    players: int = 0,
    options: Mapping[str, object] | None = None,
    hands: int = 0,
    utility: str = "rank",
    first_dealer: int = -1,
) -> TricktakerGame:
    """A ruleset (shipped id or ruleset file) as an OpenSpiel game; ``options`` are the
    ruleset's options. See the module notes for the other parameters."""
    text = ",".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in (options or {}).items()
    )
    params = {
        "game": str(game),
        "players": players,
        "options": text,
        "hands": hands,
        "utility": utility,
        "first_dealer": first_dealer,
    }
    loaded = pyspiel.load_game(SHORT_NAME, params)
    assert isinstance(loaded, TricktakerGame)
    return loaded


pyspiel.register_game(GAME_TYPE, TricktakerGame)
