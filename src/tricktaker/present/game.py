"""What the presentation layer asks of a game: its ``present`` capability.

A game declares it in its hooks (``capabilities = {"present": "pkg.module:PRESENT"}``,
see :attr:`tricktaker.engine.hooks.GameHooks.capabilities`); :func:`game_present`
finds it for a ruleset, and a game that declares none is shown as the Oh Hell family
is, by :class:`BasePresent`. A game's object usually subclasses :class:`BasePresent`
and overrides what it shows of its own: the lines and cards of its panel, its seats'
quotas, chips or statuses, the sentences of its own actions and changes, its hands'
summaries and its score sheet's layout and column.

The layer never reads a game's data itself: everything a game keeps in its part of the
observation is turned into words here, by the game's own object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from tricktaker.cards import format_card
from tricktaker.engine import Action, HandResult, Observation
from tricktaker.engine.hooks import capability
from tricktaker.rules import registry

from .parts import CardsLine, Line, Narration, RowFacts, SeatFacts, TextLine
from .text import CardText, describe_special, plain, words

if TYPE_CHECKING:
    from tricktaker.engine.hooks import GameHooks
    from tricktaker.rules import Ruleset

OUTCOME_WORDS: Mapping[str, str] = {"S": "set", "O": "over", "P": "exact"}
"""How a hand's outcome against a bid is said."""


@dataclass(frozen=True, slots=True)
class ActionSeen:
    """An action as one seat saw it: who took it (``seat``), the observations of the
    seat telling it before and after (``prev``, ``new``), the seats' names, how cards
    are written, and whether to say it in its public form, naming no hidden card
    (``hide``)."""

    seat: int
    action: Action
    prev: Observation
    new: Observation
    names: Sequence[str]
    cards: CardText
    hide: bool = False


@dataclass(frozen=True, slots=True)
class HandSeen:
    """A finished hand as the score sheet shows it: the hand, the seats' names, how
    cards are written, and the partnerships (none where each seat plays alone)."""

    hand: HandResult
    names: Sequence[str]
    cards: CardText
    partnerships: Sequence[Sequence[int]] = ()


@runtime_checkable
class GamePresent(Protocol):
    """A game's presentation: what the table shows of the game's own data.

    ``own_panel``: whether the game has a panel of its own (the terminal shows its seat
    grid and its result line); ``bids_total``: whether the running total of the bids
    against the tricks is shown (the Oh Hell family's key fact); ``hidden_note``: why a
    seat's cards are hidden once dealt; ``layout``, ``unit``, ``outcome_words`` and
    ``column``: the score sheet's layout (None: decided from the hands), what its
    totals count, how an outcome against a bid is said and the heading of the game's
    own column (None: no column); ``action_headings``: the heading over the choices of
    an action kind of the game's own.

    The terminal's words for the game's own actions come from here too
    (:meth:`choice_label`, :meth:`read_word`, :meth:`prompt`), so that reading a typed
    choice names no game's action kinds.
    """

    own_panel: bool
    bids_total: bool
    hidden_note: str
    layout: str | None
    unit: str
    outcome_words: Mapping[str, str]
    column: str | None
    action_headings: Mapping[str, str]

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The game's own panel lines for ``obs``'s seat (after the teams)."""
        ...

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """Cards the panel draws (a kitty, the seat's discards, a card given to it)."""
        ...

    def seats(self, obs: Observation) -> SeatFacts:
        """The game's per-seat facts for the seat rows."""
        ...

    def received(self, obs: Observation) -> int:
        """The cards (a bitset) another seat has just handed ``obs``'s seat."""
        ...

    def net(self, obs: Observation) -> list[int] | None:
        """Each seat's standing now, where it moves before the hand is scored (chips
        won or lost so far); None to show the scores."""
        ...

    def hand_stacks(self, hand: HandResult) -> tuple[int, ...] | None:
        """Each seat's chips after the finished hand, where chips are played for."""
        ...

    def action_text(self, seen: ActionSeen) -> str | None:
        """One sentence about ``seen.seat``'s ``seen.action`` of the game's own, as
        ``seen.new``'s seat may read it (``seen.hide``: the public form, naming no hidden
        card); None to let the layer say it in general words."""
        ...

    def changes(
        self, prev: Observation, new: Observation, names: Sequence[str], cards: CardText
    ) -> list[Narration]:
        """What the game's own data says changed between two observations of a seat."""
        ...

    def summary(self, seen: HandSeen) -> list[TextLine]:
        """The finished hand's own facts in words (its contract, its pot)."""
        ...

    def row(self, seen: HandSeen) -> RowFacts:
        """The game's part of the hand's row of the score sheet."""
        ...

    def call_text(self, call: Mapping[str, object]) -> str:
        """What has been called for the hand (the observation's ``call``, as the game's
        hooks describe it) in words."""
        ...

    def undealt_note(self, obs: Observation) -> str | None:
        """Why no seat holds cards yet, in a phase of the game's own before the deal
        (``(not dealt yet: the caller first calls the hand size)``); None otherwise."""
        ...

    def special_text(self, special: str | None, call: Mapping[str, object] | None) -> str:
        """The hand's special hand (its name) or its call in words ('' when neither)."""
        ...

    def choice_label(self, action: Action, cards: CardText) -> str | None:
        """How one of the game's own actions is listed among a seat's choices (``no
        trump``, ``4 ♥ hearts``, ``done``); None to list it in general words."""
        ...

    def read_word(self, word: str, obs: Observation) -> Action | str | None:
        """The game's own action that ``word``, typed by ``obs``'s seat, means (legal or
        not: a refusal then says why), once the layer has found no legal action's value,
        suit or card in it; a message saying why the word is no choice; or None."""
        ...

    def prompt(self, obs: Observation, cards: CardText) -> str | None:
        """The question put to ``obs``'s seat in a phase of the game's own (``Call the
        hand size (3-7): ``); None to ask in general words."""
        ...


class BasePresent:
    """The presentation of a game that declares none: the Oh Hell family's, where bids
    are totalled against the tricks and a game's other data is shown as ``Key: value``
    lines. A game's own presentation subclasses it and overrides what it shows."""

    own_panel = False
    bids_total = True
    hidden_note = "(hidden: you bid blind, before looking at your cards)"
    layout: str | None = None
    unit = "points"
    outcome_words: Mapping[str, str] = OUTCOME_WORDS
    column: str | None = None
    action_headings: Mapping[str, str] = {}

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """Each key of the game's data as a ``Key: value`` line, private to the seat."""
        return other_lines(obs, frozenset(), frozenset())

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """No cards drawn in the panel."""
        return []

    def seats(self, obs: Observation) -> SeatFacts:
        """No quotas, chips or statuses."""
        return NO_SEAT_FACTS

    def received(self, obs: Observation) -> int:
        """No card is handed from seat to seat."""
        return 0

    def net(self, obs: Observation) -> list[int] | None:
        """The scores are the standing."""
        return None

    def hand_stacks(self, hand: HandResult) -> tuple[int, ...] | None:
        """No chips."""
        return None

    def action_text(self, seen: ActionSeen) -> str | None:
        """Said in general words by the layer."""
        return None

    def changes(
        self, prev: Observation, new: Observation, names: Sequence[str], cards: CardText
    ) -> list[Narration]:
        """Nothing of the game's own changes."""
        return []

    def summary(self, seen: HandSeen) -> list[TextLine]:
        """No facts besides the bids, tricks and scores."""
        return []

    def row(self, seen: HandSeen) -> RowFacts:
        """Nothing besides the bids, tricks and scores."""
        return NO_ROW_FACTS

    def call_text(self, call: Mapping[str, object]) -> str:
        """Each part of the call as ``key value``, in order."""
        return ", ".join(f"{words(key)} {plain(value)}" for key, value in call.items())

    def undealt_note(self, obs: Observation) -> str | None:
        """No phase of the game's own comes before the deal."""
        return None

    def special_text(self, special: str | None, call: Mapping[str, object] | None) -> str:
        """``call: ...`` (:meth:`call_text`) or ``special hand: ...``."""
        return describe_special(special, None if call is None else self.call_text(call))

    def choice_label(self, action: Action, cards: CardText) -> str | None:
        """In general words."""
        return None

    def read_word(self, word: str, obs: Observation) -> Action | str | None:
        """No words of the game's own."""
        return None

    def prompt(self, obs: Observation, cards: CardText) -> str | None:
        """In general words."""
        return None


NO_SEAT_FACTS = SeatFacts()
NO_ROW_FACTS = RowFacts()
DEFAULT_PRESENT = BasePresent()
"""The presentation of every game that declares none (the Oh Hell family)."""


def hand_special_text(game: GamePresent, hand: HandResult) -> str:
    """A finished hand's special hand or call in ``game``'s words ('' when neither): the
    engine records in ``hand.special`` either what the game's hooks say was called for
    the hand or the special hand's ``name``."""
    special = hand.special
    if not special:
        return ""
    if "name" in special:
        return game.special_text(str(special["name"]), None)
    return game.special_text(None, special)


def cards_lines(groups: Iterable[tuple[str, Sequence[int] | None]]) -> list[CardsLine]:
    """Each group of cards that holds any (a kitty, the seat's discards), drawn under
    its label (a group may be None: not seen)."""
    return [CardsLine(label, tuple(format_card(c) for c in held)) for label, held in groups if held]


def other_lines(obs: Observation, known: frozenset[str], public: frozenset[str]) -> list[Line]:
    """The keys of the seat's game data not in ``known``, each as a ``Key: value`` line
    (the way keys a game adds later are shown); public where the key is in ``public``."""
    lines: list[Line] = []
    for key, value in obs.extra.items():
        if key not in known:
            text = plain(value)
            label = key.replace("_", " ").capitalize()
            lines.append(Line(label, text, text if key in public else None))
    return lines


def _declared(found: object | None) -> GamePresent:
    """The declared object as a :class:`GamePresent` (checked by a method it must have:
    a full protocol check on every call would cost more than the panel itself)."""
    if found is None:
        return DEFAULT_PRESENT
    if not callable(getattr(found, "lines", None)):
        raise TypeError(f"a game's present capability {found!r} is no GamePresent")
    return cast("GamePresent", found)


def game_present(rules: Ruleset) -> GamePresent:
    """The presentation of ``rules``' game: the one it declares, else the default."""
    return _declared(capability(rules.hooks, "present"))


def named_present(hooks: str | None) -> GamePresent:
    """The presentation of the game whose hooks a ruleset names ``hooks`` (None: the
    Oh Hell family's)."""
    if hooks is None:
        return DEFAULT_PRESENT
    return _declared(capability(cast("GameHooks", registry.find(hooks)), "present"))
