"""The ruleset file format: validated, frozen data (pydantic models).

A ruleset file is TOML; each table below is one section of it. Unknown fields,
wrong types and impossible combinations are errors that name the field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tricktaker.cards import CardError, parse_card, parse_suit, rank_range
from tricktaker.rules.expr import FormulaError, compile_formula

SCORE_NAMES = ("bid", "tricks", "hand_size", "players")
TRICK_POINT_NAMES = ("k", "hand_size", "players")
HAND_LIMIT_NAMES = ("deck", "players")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_formula(text: str | None, names: tuple[str, ...]) -> None:
    if text is None:
        return
    try:
        compile_formula(text, names=names)
    except FormulaError as exc:
        raise ValueError(str(exc)) from None


class Players(Strict):
    """How many may play."""

    min: int = Field(ge=2, le=15)
    max: int = Field(ge=2, le=15)

    @model_validator(mode="after")
    def _order(self) -> Players:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        return self


class Deck(Strict):
    """Which cards are used. ``ranks`` is a span like ``A-2`` or ``A-7``."""

    ranks: str = "A-2"
    ranks_by_players: dict[int, str] = {}
    exclude: list[str] = []
    jokers: bool = False
    joker_labels: tuple[str, str] = ("HB", "LB")

    @model_validator(mode="after")
    def _cards(self) -> Deck:
        try:
            for span in [self.ranks, *self.ranks_by_players.values()]:
                rank_range(span)
            for card in self.exclude:
                parse_card(card)
        except CardError as exc:
            raise ValueError(str(exc)) from None
        return self


class Table(Strict):
    """Who deals, in which direction, and how the first dealer is chosen."""

    dealer_rotation: Literal["left", "right"] = "left"
    deal_direction: Literal["clockwise", "counterclockwise"] = "clockwise"
    first_dealer: Literal["random", "draw"] = "random"
    draw_ties: Literal["redraw", "suit"] = "redraw"
    partnerships: list[list[int]] = []


class DealSpec(Strict):
    """How the cards are dealt. ``pattern`` gives packets, e.g. Euchre's
    ``"kitty 1; 3 2 3 2; kitty 1; 2 3 2 3; kitty 1"`` (counts per seat in deal order);
    without it cards go one at a time."""

    pattern: str | None = None


class Scoring(Strict):
    """Per-hand score formulas over ``bid``, ``tricks``, ``hand_size``, ``players``.

    ``exact`` applies when tricks equal the bid (``exact_zero`` instead when the bid is 0),
    ``over`` / ``under`` when above / below it (each falls back to ``otherwise``).
    ``trick_points`` (over ``k``, the 1-based trick number) is added for each trick won.
    """

    exact: str = "0"
    exact_zero: str | None = None
    over: str | None = None
    under: str | None = None
    otherwise: str = "0"
    trick_points: str | None = None

    @field_validator("exact", "exact_zero", "over", "under", "otherwise")
    @classmethod
    def _score_formula(cls, text: str | None) -> str | None:
        _check_formula(text, SCORE_NAMES)
        return text

    @field_validator("trick_points")
    @classmethod
    def _trick_formula(cls, text: str | None) -> str | None:
        _check_formula(text, TRICK_POINT_NAMES)
        return text


class SpecialHand(Strict):
    """A per-hand override (Clag's special hands, a first hand at no trump)."""

    hand: int = Field(ge=1, description="1-based position in the schedule")
    name: str
    trump: Literal["none"] | None = None
    bid_before_trump: bool = False
    blind_bid: bool = False
    pile: bool = False
    misere: bool = False
    scoring: Scoring | None = None


class Schedule(Strict):
    """The hands of a game.

    ``sizes`` is a pattern such as ``"1..max..1"``, ``"1..7, 7*7, 6..1"`` or
    ``"players*1, 2..7, players*8, 7..2, players*1"``; a table keyed by player count
    is also accepted. ``max_hand`` is a formula over ``deck`` and ``players`` or a table.
    """

    sizes: str | dict[int, str] = "1..max"
    max_hand: str | dict[int, int] = "deck // players"
    special: list[SpecialHand] = []
    final_all_dealt: bool = False
    advance: Literal["always", "when_all_exact"] = "always"
    max_hands: int | None = Field(default=None, ge=1)
    called: bool = False
    called_hands: int = Field(default=8, ge=1, le=200)
    called_min: int = Field(default=3, ge=1)
    called_max: int = Field(default=7, ge=1)

    @field_validator("max_hand")
    @classmethod
    def _limit_formula(cls, limit: str | dict[int, int]) -> str | dict[int, int]:
        if isinstance(limit, str):
            _check_formula(limit, HAND_LIMIT_NAMES)
        return limit

    @model_validator(mode="after")
    def _check(self) -> Schedule:
        if self.called_min > self.called_max:
            raise ValueError("called_min is above called_max")
        hands = [s.hand for s in self.special]
        if len(hands) != len(set(hands)):
            raise ValueError("two special entries name the same hand")
        return self


class Trump(Strict):
    """How the trump suit of a hand is fixed."""

    method: Literal["turn_up", "second_deck", "rotate", "none"] = "turn_up"
    when_no_card: Literal["none", "second_deck"] = "none"
    rotation: list[str] = []

    @model_validator(mode="after")
    def _check(self) -> Trump:
        if self.method == "rotate" and not self.rotation:
            raise ValueError("method 'rotate' needs a rotation list of suits")
        try:
            for suit in self.rotation:
                parse_suit(suit)
        except CardError as exc:
            raise ValueError(str(exc)) from None
        return self


class Bidding(Strict):
    """How bids are made and which are allowed."""

    style: Literal["sequential", "simultaneous"] = "sequential"
    min_bid: int = Field(default=0, ge=0)
    hook: bool = False
    sum_equals_hand: bool = False
    zero_streak_limit: int | None = Field(default=None, ge=1)
    zero_streak_min_players: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _check(self) -> Bidding:
        if self.hook and self.style == "simultaneous":
            raise ValueError(
                "hook needs a last bidder, so it cannot be combined with simultaneous bidding"
            )
        if self.sum_equals_hand and self.style == "simultaneous":
            raise ValueError("sum_equals_hand needs sequential bidding (the last bid is forced)")
        if self.sum_equals_hand and self.hook:
            raise ValueError("sum_equals_hand and hook contradict each other")
        return self


class Play(Strict):
    """Obligations when playing to a trick."""

    follow_suit: bool = True
    must_trump: bool = False
    trump_lead: Literal["any", "after_broken"] = "any"
    jokers: Literal["free", "trump"] = "free"
    opening_lead: str | None = None
    """A card whose holder must lead it to the first trick (Pluck's 2C)."""
    bowers: Literal["left_high", "right_high"] | None = None

    @field_validator("opening_lead")
    @classmethod
    def _card(cls, text: str | None) -> str | None:
        if text is not None:
            try:
                parse_card(text)
            except CardError as exc:
                raise ValueError(str(exc)) from None
        return text

    @model_validator(mode="after")
    def _check(self) -> Play:
        if self.must_trump and not self.follow_suit:
            raise ValueError("must_trump only makes sense with follow_suit")
        return self


class Result(Strict):
    """Who wins: the highest total, or the whole table together."""

    kind: Literal["individual", "cooperative"] = "individual"


class Option(Strict):
    """A named variant. A ``bool`` option applies ``set`` (dotted field -> value) when on;
    an ``int`` option writes its value to ``field``."""

    type: Literal["bool", "int"]
    default: bool | int
    description: str
    set: dict[str, Any] = {}
    field: str | None = None
    min: int | None = None
    max: int | None = None
    conflicts: list[str] = []
    players: list[int] = []

    @model_validator(mode="after")
    def _check(self) -> Option:
        if self.type == "int":
            if self.field is None:
                raise ValueError("an int option needs 'field', the setting it changes")
            if isinstance(self.default, bool) or not isinstance(self.default, int):
                raise ValueError("an int option needs an integer default")
        else:
            if not isinstance(self.default, bool):
                raise ValueError("a bool option needs default = true or false")
            if self.field is not None:
                raise ValueError("a bool option uses 'set', not 'field'")
        return self


class RulesetSpec(Strict):
    """One game, as written in a ruleset file."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    description: str
    source: str = ""
    notes: list[str] = []
    players: Players
    deck: Deck = Deck()
    table: Table = Table()
    deal: DealSpec = DealSpec()
    schedule: Schedule = Schedule()
    trump: Trump = Trump()
    bidding: Bidding = Bidding()
    play: Play = Play()
    scoring: Scoring
    result: Result = Result()
    options: dict[str, Option] = {}
    hooks: str | None = None
    """Named Python hooks for what data cannot say (``pluck``, ``euchre``, ``buckup``)."""
    settings: dict[str, Any] = {}
    """Settings read by the hooks, validated by them."""

    @model_validator(mode="after")
    def _check(self) -> RulesetSpec:
        if self.play.jokers == "trump" and not self.deck.jokers:
            raise ValueError("play.jokers = 'trump' needs deck.jokers = true")
        if self.schedule.advance == "when_all_exact" and self.schedule.max_hands is None:
            raise ValueError("schedule.advance = 'when_all_exact' needs schedule.max_hands")
        for name, option in self.options.items():
            for other in option.conflicts:
                if other not in self.options:
                    raise ValueError(f"option {name!r} conflicts with unknown option {other!r}")
        return self
