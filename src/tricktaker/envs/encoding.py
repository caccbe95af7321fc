"""A fixed numeric encoding of observations and actions, for learning agents.

For one ruleset and player count, :class:`Encoding` turns a seat's
:class:`~tricktaker.engine.observation.Observation` into a flat ``float32`` vector of
fixed length (:meth:`Encoding.encode`) and maps every action of the game to a fixed
index (:meth:`Encoding.action_index`), with a ``int8`` mask of the legal ones
(:meth:`Encoding.action_mask`). The layout is a list of named :class:`Field` (offset,
size, meaning), the same for every state of the game; ``docs/envs.md`` lists it for
each shipped game (:func:`layout_table` writes those tables).

Conventions:

* **Seats are relative** to the observing seat: position ``k`` of a per-seat field is
  seat ``(seat + k) % players``, so position 0 is always "me", 1 the player to my left.
  Only the field ``seat`` tells the seat's own number.
* **Cards** are the 54 card ids of :mod:`tricktaker.cards` (``suit * 13 + rank``, rank 0
  the two and 12 the ace, suits clubs, diamonds, hearts, spades; 52 and 53 the high and
  low joker); a card field has 54 slots whatever the deck.
* Counts, bids, scores and chips are the game's own whole numbers (not scaled).
* Everything is computed from the observation alone, which holds only what the seat
  may know: the encoding cannot leak hidden cards.

The fields every game shares come first; a game written with hooks then adds its own
fields, actions and phases through its ``"encoding"`` capability
(:class:`~tricktaker.envs.fields.GameEncoding`, found by :func:`game_encoding`), so this
module knows no game.

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("blackout"), players=4, seed=7)
>>> state.apply_chance()
>>> encoding = Encoding.of(state.rules, 4)
>>> seat = state.to_act()[0]
>>> vector = encoding.encode(state.observe(seat))
>>> vector.shape == (encoding.observation_size,), vector.dtype
(True, dtype('float32'))
>>> int(vector[encoding.field("own_cards").slice].sum())  # Blackout's first hand: 1 card
1
>>> [str(encoding.action_at(i)) for i in encoding.action_mask(state.observe(seat)).nonzero()[0]]
['bid 0', 'bid 1']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tricktaker.cards import NUM_CARD_IDS, parse_card
from tricktaker.engine.actions import BID, PLAY, PLAY_PILE, Action
from tricktaker.engine.hooks import capability, keeps_engine_bids
from tricktaker.engine.observation import Observation
from tricktaker.engine.setup import Setup
from tricktaker.engine.tables import FREE
from tricktaker.envs.fields import GameEncoding
from tricktaker.memo import Memo
from tricktaker.rules.ruleset import Ruleset

__all__ = [
    "Encoding",
    "EncodingError",
    "Field",
    "GameEncoding",
    "game_encoding",
    "layout_table",
]

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
Relative = Callable[[int], int]

BIG = float(2**24)
"""Bound of counts (hands, fees): float32 holds every whole number up to it."""
UNBOUNDED = float("inf")
"""Bound of scores and chips, which have none (a Buckup pot can double hand after hand):
float32 holds them exactly up to 2**24 and approximately beyond."""

CARDS = NUM_CARD_IDS
TRUMPS = 5
"""Trump slots: clubs, diamonds, hearts, spades, no trump."""

ENGINE_PHASES = (
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
"""The phase one-hot's first slots, as the encoding has always laid them out: the
engine's phases (all but its hook phase), with three slots kept for the phases of a
dealer's call (``call_size``, ``call_kind``, ``call_modifiers``: a calling game's hook
phases, as Caller Clag's, which were the engine's own), so that every game's layout is
unchanged. A game's other phases follow (:attr:`GameEncoding.phases`)."""


class EncodingError(ValueError):
    """A ruleset, observation or action the encoding cannot represent."""


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of the observation vector: ``vector[offset : offset + size]``."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    meaning: str

    @property
    def slice(self) -> slice:
        """The field's slice of the vector."""
        return slice(self.offset, self.offset + self.size)


class _Layout:
    """Collects fields in order while an :class:`Encoding` is built (the
    :class:`~tricktaker.envs.fields.FieldLayout` a game adds its fields to)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str, low: float = 0.0, high: float = 1.0) -> None:
        self.fields.append(Field(name, self.size, size, low, high, meaning))
        self.size += size


def game_encoding(rules: Ruleset) -> GameEncoding | None:
    """The encoding fields the ruleset's game declares (its ``"encoding"`` capability);
    None for a ruleset without hooks (the Oh Hell family), which has none of its own.

    Raises :class:`EncodingError` for a game with hooks that declares none.
    """
    hooks = rules.hooks
    if hooks is None:
        return None
    declared = capability(hooks, "encoding")
    if declared is None:
        raise EncodingError(
            f"{rules.id}: the {hooks.name or type(hooks).__name__} game declares no"
            ' "encoding" capability, so it cannot be encoded'
        )
    if not isinstance(declared, GameEncoding):
        raise EncodingError(
            f"{rules.id}: the game's encoding {declared!r} has not the methods of a GameEncoding"
        )
    return declared


class _Actions:
    """The :class:`~tricktaker.envs.fields.ActionSpace` a game adds its actions to."""

    def __init__(self, group: Callable[[str, Sequence[int | str], str], None]) -> None:
        self.add = group


class _Writer:
    """The :class:`~tricktaker.envs.fields.FieldWriter` a game writes its fields with:
    straight into the observation's vector, at the fields' offsets."""

    __slots__ = ("_offset", "_out", "labels", "players", "seat")

    def __init__(
        self,
        out: Vector,
        offset: dict[str, int],
        players: int,
        seat: int,
        labels: tuple[str, str],
    ) -> None:
        self._out = out
        self._offset = offset
        self.players = players
        self.seat = seat
        self.labels = labels

    def relative(self, seat: int) -> int:
        return (seat - self.seat) % self.players

    def set(self, field: str, index: int = 0, value: float = 1.0) -> None:
        self._out[self._offset[field] + index] = value

    def add(self, field: str, index: int = 0, value: float = 1.0) -> None:
        self._out[self._offset[field] + index] += value

    def set_cards(self, field: str, cards: int, block: int = 0) -> None:
        start = self._offset[field] + block * CARDS
        while cards:
            low = cards & -cards
            self._out[start + low.bit_length() - 1] = 1.0
            cards ^= low

    def card(self, text: str) -> int:
        return parse_card(text, labels=self.labels)


@dataclass(frozen=True, slots=True)
class _ActionGroup:
    kind: str
    offset: int
    values: tuple[int | str, ...]
    meaning: str
    bare: bool = False
    """An action without a value (``pass``, ``call_done``): one slot."""

    @property
    def size(self) -> int:
        return 1 if self.bare else len(self.values)


class Encoding:
    """The fixed observation and action encoding of one ruleset and player count.

    Build it with :meth:`of` (cached per ruleset and player count). ``observation_size``
    and ``action_size`` never change for the game; ``fields`` names every part of the
    observation vector, ``actions`` every action by its index.
    """

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.rules = rules
        self.players = players
        self.setup = setup = Setup.of(rules, players)
        self.game: GameEncoding | None = game_encoding(rules)
        self.labels = rules.joker_labels
        engine_phases = ENGINE_PHASES
        own_phases = self.game.phases if self.game is not None else ()
        self.phases: tuple[str, ...] = engine_phases + tuple(
            p for p in own_phases if p not in engine_phases
        )
        self._phase_index = {name: i for i, name in enumerate(self.phases)}
        self.max_bid = max(len(setup.deck) // players, setup.called_max if setup.called else 0)
        self.has_bids = keeps_engine_bids(rules.hooks)
        self.has_piles = setup.called or any(s.pile or s.blind_hand for s in setup.schedule)
        self._build_fields()
        self._build_actions()

    # ------------------------------------------------------------------ building

    @classmethod
    def of(cls, rules: Ruleset, players: int) -> Encoding:
        """The encoding of ``rules`` for ``players`` seats (built once while ``rules``
        lives, then shared)."""
        return _ENCODINGS.get(players, lambda: cls(rules, players), owner=rules)

    def _build_fields(self) -> None:
        n = self.players
        out = _Layout(n)
        out.add("seat", n, "one-hot: the observing seat's own number (absolute)")
        out.add("phase", len(self.phases), "one-hot: the phase (see the list of phases)")
        out.add("hands_played", 1, "hands finished so far in the game", high=BIG)
        out.add("hands_in_game", 1, "hands in the game when fixed in advance, else 0", high=BIG)
        out.add("hand_size", 1, "cards dealt to each player this hand", high=CARDS)
        out.add("cards_in_hand", 1, "cards the seat holds now", high=CARDS)
        out.add("dealer", n, "one-hot by relative seat: the dealer")
        out.add("to_act", n, "by relative seat: 1 for each seat that may act now")
        out.add("own_cards", CARDS, "by card id: 1 for each card the seat holds and may see")
        out.add("own_cards_visible", 1, "1 when the seat may look at its cards")
        out.add("trump", TRUMPS, "one-hot once known: clubs, diamonds, hearts, spades, no trump")
        out.add("trump_known", 1, "1 once the trump (or no trump) is known")
        out.add("turn_up", CARDS, "one-hot by card id: the card turned up for trump")
        out.add("misere", 1, "1 in a misere hand (everyone bids 0)")
        out.add("pile", 1, "1 when cards are played from face-down piles in pile order")
        out.add("hook", 1, "1 when the last bid may not make the bids total the hand size")
        out.add("trump_broken", 1, "1 once a trump has been played this hand")
        if self.has_bids:
            out.add("bids", n, "by relative seat: the bid when known, else 0", high=CARDS)
            out.add("bid_known", n, "by relative seat: 1 when the seat's bid is known")
            out.add("bid_made", n, "by relative seat: 1 when the seat has bid (maybe unseen)")
        out.add("tricks_won", n, "by relative seat: tricks taken this hand", high=CARDS)
        out.add("scores", n, "by relative seat: the game score", low=-UNBOUNDED, high=UNBOUNDED)
        out.add("trick_leader", n, "one-hot by relative seat: who led the current trick")
        out.add(
            "current_trick",
            n * CARDS,
            "relative seat k at [k*54 : k*54+54], one-hot by card id: its card in the trick"
            " in progress",
        )
        out.add(
            "played_cards",
            n * CARDS,
            "relative seat k at [k*54 : k*54+54], by card id: cards it played in the"
            " finished tricks of this hand",
        )
        out.add(
            "voids",
            n * 4,
            "relative seat k at [k*4 : k*4+4] (C D H S, effective suits): 1 once it has"
            " shown it holds none of the suit (did not follow it)",
        )
        out.add("active", n, "by relative seat: 1 when the seat takes part in this hand's tricks")
        if self.setup.partnerships:
            out.add("partners", n, "by relative seat: 1 for the seats of my partnership")
        if self.game is not None:
            self.game.add_fields(out, self.setup)
        self.fields: tuple[Field, ...] = tuple(out.fields)
        self._by_name = {f.name: f for f in out.fields}
        self._offset = {f.name: f.offset for f in out.fields}
        self.observation_size = out.size
        self.low = np.array([f.low for f in out.fields for _ in range(f.size)], dtype=np.float32)
        self.high = np.array([f.high for f in out.fields for _ in range(f.size)], dtype=np.float32)

    def _build_actions(self) -> None:
        groups: list[_ActionGroup] = []
        size = 0

        def group(kind: str, values: Sequence[int | str], meaning: str) -> None:
            nonlocal size
            groups.append(_ActionGroup(kind, size, tuple(values), meaning, bare=not values))
            size += max(len(values), 1)

        cards = tuple(range(CARDS))
        group(PLAY, cards, "play CARD: index = offset + card id")
        if self.has_bids:
            group(BID, tuple(range(self.max_bid + 1)), "bid N: index = offset + N")
        if self.has_piles:
            group(PLAY_PILE, (), "play_pile: the next card of the face-down pile")
        if self.game is not None:
            self.game.add_actions(_Actions(group), self.setup)
        self.action_groups: tuple[_ActionGroup, ...] = tuple(groups)
        self.action_size = size
        actions: list[Action] = []
        index: dict[Action, int] = {}
        for g in groups:
            for action in [Action(g.kind)] if g.bare else [Action(g.kind, v) for v in g.values]:
                index[action] = len(actions)
                actions.append(action)
        self.actions: tuple[Action, ...] = tuple(actions)
        self._action_index = index

    # ------------------------------------------------------------------ actions

    def action_index(self, action: Action) -> int:
        """The fixed index of ``action`` (raises :class:`EncodingError` if the game has none)."""
        try:
            return self._action_index[action]
        except KeyError:
            raise EncodingError(
                f"{action} is not an action of {self.rules.name} for {self.players} players"
            ) from None

    def action_at(self, index: int) -> Action:
        """The action at ``index`` (0 .. ``action_size - 1``)."""
        if not 0 <= index < self.action_size:
            raise EncodingError(f"action index {index} is outside 0..{self.action_size - 1}")
        return self.actions[index]

    def mask_of(self, actions: Iterable[Action]) -> Mask:
        """An ``int8`` vector of ``action_size``: 1 at the index of each action given."""
        mask = np.zeros(self.action_size, dtype=np.int8)
        index = self._action_index
        for action in actions:
            mask[index[action]] = 1
        return mask

    def action_mask(self, observation: Observation) -> Mask:
        """The legal actions of the observing seat, as a mask (all 0 when it may not act)."""
        return self.mask_of(observation.legal_actions)

    # ------------------------------------------------------------- observations

    def field(self, name: str) -> Field:
        """The field called ``name`` (KeyError naming the fields if there is none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(
                f"no field {name!r}; the fields are {', '.join(self._by_name)}"
            ) from None

    def encode(self, observation: Observation) -> Vector:
        """The observation as a ``float32`` vector of ``observation_size`` (see :attr:`fields`)."""
        if observation.players != self.players:
            raise EncodingError(
                f"an observation of {observation.players} players, not {self.players}"
            )
        n = self.players
        me = observation.seat
        o = self._offset
        # Positions set to 1, then (position, value) pairs: written in two numpy calls,
        # much faster than item by item.
        ones: list[int] = [o["seat"] + me, o["phase"] + self._phase_index[observation.phase]]
        at: list[int] = [
            o["hands_played"],
            o["hands_in_game"],
            o["hand_size"],
            o["cards_in_hand"],
            o["misere"],
            o["pile"],
            o["hook"],
            o["trump_broken"],
        ]
        values: list[float] = [
            observation.hands_played,
            observation.hands_in_game or 0,
            observation.hand_size,
            observation.cards_in_hand,
            observation.misere,
            observation.pile,
            observation.hook,
            observation.trump_broken,
        ]

        def cards(start: int, mask: int) -> None:
            while mask:
                low = mask & -mask
                ones.append(start + low.bit_length() - 1)
                mask ^= low

        ones.append(o["dealer"] + (observation.dealer - me) % n)
        ones.extend(o["to_act"] + (seat - me) % n for seat in observation.to_act)
        if observation.hand is not None:
            cards(o["own_cards"], observation.hand)
            ones.append(o["own_cards_visible"])
        if observation.trump_known:
            trump = observation.trump
            ones.append(o["trump"] + (trump if trump is not None else 4))
            ones.append(o["trump_known"])
        if observation.turn_up is not None:
            ones.append(o["turn_up"] + observation.turn_up)
        if self.has_bids:
            bids, known = o["bids"], o["bid_known"]
            for seat, bid in enumerate(observation.bids):
                if bid is not None:
                    at.append(bids + (seat - me) % n)
                    values.append(bid)
                    ones.append(known + (seat - me) % n)
            made = o["bid_made"]
            ones.extend(made + (s - me) % n for s, m in enumerate(observation.bid_made) if m)
        tricks, scores = o["tricks_won"], o["scores"]
        for seat in range(n):
            at.append(tricks + (seat - me) % n)
            values.append(observation.tricks_won[seat])
            at.append(scores + (seat - me) % n)
            values.append(observation.scores[seat])
        current = observation.current_trick
        if current:
            ones.append(o["trick_leader"] + (current[0][0] - me) % n)
            start = o["current_trick"]
            ones.extend(start + (seat - me) % n * CARDS + card for seat, card in current)
        start = o["played_cards"]
        for trick in observation.tricks:
            ones.extend(start + (seat - me) % n * CARDS + card for seat, card in trick)
        active = observation.active
        start = o["active"]
        ones.extend(start + (s - me) % n for s in range(n) if active is None or active[s])
        for team in observation.partnerships:
            if me in team:
                ones.extend(o["partners"] + (seat - me) % n for seat in team)
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[ones] = 1.0
        out[at] = values

        def rel(seat: int) -> int:
            return (seat - me) % n

        self._voids(observation, out, rel)
        if self.game is not None:
            self.game.encode(observation, _Writer(out, self._offset, n, me, self.labels))
        return out

    def _voids(self, observation: Observation, out: Vector, rel: Relative) -> None:
        tables = observation.tables
        if tables is None or observation.pile or not self.setup.follow_suit:
            return
        suit_of = tables.suit_of
        start = self._by_name["voids"].offset
        for trick in (*observation.tricks, observation.current_trick):
            if not trick:
                continue
            led = suit_of[trick[0][1]]
            if led == FREE:
                continue
            for seat, card in trick[1:]:
                suit = suit_of[card]
                if suit != led and suit != FREE:
                    out[start + rel(seat) * 4 + led] = 1

    # ------------------------------------------------------------ documentation

    def describe_actions(self) -> list[tuple[str, int, int, str]]:
        """``(kind, offset, size, meaning)`` of each group of actions, in index order."""
        return [(g.kind, g.offset, g.size, g.meaning) for g in self.action_groups]


_ENCODINGS: Memo[int, Encoding] = Memo(maxsize=64)
"""Encodings by player count, each tied to its ruleset (:meth:`Encoding.of`)."""


def layout_table(encoding: Encoding) -> str:
    """The layout of ``encoding`` as Markdown tables (fields, then actions), as in docs/envs.md."""
    lines = [
        f"Observation: {encoding.observation_size} numbers; actions: {encoding.action_size}.",
        "",
        "| field | offset | size | meaning |",
        "| --- | ---: | ---: | --- |",
    ]
    lines += [f"| `{f.name}` | {f.offset} | {f.size} | {f.meaning} |" for f in encoding.fields]
    lines += ["", "| action | offset | size | index |", "| --- | ---: | ---: | --- |"]
    lines += [
        f"| `{g.kind}` | {g.offset} | {g.size} | {g.meaning} |" for g in encoding.action_groups
    ]
    lines += ["", "Phases, in the order of the field `phase`: " + ", ".join(encoding.phases) + "."]
    return "\n".join(lines)


def documented_players(rules: Ruleset) -> int:
    """The player count whose layout docs/envs.md shows: 4 where the game allows it."""
    counts = rules.player_counts
    return 4 if 4 in counts else counts.start


def reference() -> str:
    """The per-game layout section of docs/envs.md (``python -m tricktaker.envs.encoding``)."""
    from tricktaker.rules import list_rulesets, load_ruleset

    parts: list[str] = []
    for game in list_rulesets():
        rules = load_ruleset(game)
        players = documented_players(rules)
        parts += [
            f"### {game} ({rules.name}), {players} players",
            "",
            layout_table(Encoding.of(rules, players)),
            "",
        ]
    return "\n".join(parts)


if __name__ == "__main__":
    print(reference(), end="")
