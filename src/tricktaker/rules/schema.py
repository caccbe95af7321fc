"""The ruleset file format: validated, frozen data (pydantic models).

A ruleset file is TOML; each table below is one section of it. Every value is
strictly typed (``hook = "yes"`` is not a boolean, ``min_bid = 1.0`` not a whole
number). Unknown fields, wrong types and impossible combinations are errors that
name the field: a check that involves several fields raises :class:`FieldError`
naming the one it blames, so the message can point at its line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.fields import FieldInfo

from tricktaker.cards import CardError, parse_card, parse_suit, rank_range
from tricktaker.rules.expr import FormulaError, compile_formula

SCORE_NAMES = ("bid", "tricks", "hand_size", "players")
TRICK_POINT_NAMES = ("k", "hand_size", "players")
HAND_LIMIT_NAMES = ("deck", "players")


class FieldError(ValueError):
    """A check on several fields failed; ``field`` (dotted, relative to the model
    that raises it) is the one the message is about."""

    def __init__(self, field: str | tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.field: tuple[str, ...] = tuple(field.split(".")) if isinstance(field, str) else field


class Strict(BaseModel):
    """Base of every section: no unknown fields, no type coercion, frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _check_cards(places: Iterable[tuple[str, str]], parse: Callable[[str], object]) -> None:
    """Read each ``(field, text)`` with ``parse`` (a card, suit or rank range reader); the
    first it refuses raises :class:`FieldError` naming that field."""
    for where, text in places:
        try:
            parse(text)
        except CardError as exc:
            raise FieldError(where, str(exc)) from None


def _numbered(field: str, values: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each of a list field's values with its dotted place (``rotation.0``, ...)."""
    for index, value in enumerate(values):
        yield f"{field}.{index}", value


def count_keys(table: object) -> object:
    """TOML and JSON keys are text: read the player-count keys of a table as integers.

    >>> count_keys({"3": "A-9", "4": "A-7"})
    {3: 'A-9', 4: 'A-7'}
    """
    if not isinstance(table, dict):
        return table
    out: dict[object, object] = {}
    for key, value in table.items():
        if isinstance(key, str) and key.strip().isdigit():
            out[int(key)] = value
        elif isinstance(key, int) and not isinstance(key, bool):
            out[key] = value
        else:
            raise FieldError(
                (str(key),), f"the keys of this table are player counts; {key!r} is not a number"
            )
    return out


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
            raise FieldError("min", f"min ({self.min}) is above max ({self.max})")
        return self


class Deck(Strict):
    """Which cards are used. ``ranks`` is a span like ``A-2`` or ``A-7``."""

    ranks: str = "A-2"
    ranks_by_players: dict[int, str] = {}
    exclude: list[str] = []
    jokers: bool = False
    joker_labels: list[str] = Field(default=["HB", "LB"], min_length=2, max_length=2)

    _keys = field_validator("ranks_by_players", mode="before")(count_keys)

    @model_validator(mode="after")
    def _cards(self) -> Deck:
        spans = [("ranks", self.ranks)]
        spans += [(f"ranks_by_players.{n}", span) for n, span in self.ranks_by_players.items()]
        _check_cards(spans, rank_range)
        _check_cards(_numbered("exclude", self.exclude), parse_card)
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

    _keys = field_validator("sizes", "max_hand", mode="before")(count_keys)
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
            raise FieldError(
                "called_min",
                f"called_min ({self.called_min}) is above called_max ({self.called_max})",
            )
        seen: set[int] = set()
        for index, entry in enumerate(self.special):
            if entry.hand in seen:
                raise FieldError(
                    f"special.{index}.hand", f"two special entries name hand {entry.hand}"
                )
            seen.add(entry.hand)
        return self


class Trump(Strict):
    """How the trump suit of a hand is fixed."""

    method: Literal["turn_up", "second_deck", "rotate", "none"] = "turn_up"
    when_no_card: Literal["none", "second_deck"] = "none"
    rotation: list[str] = []

    @model_validator(mode="after")
    def _check(self) -> Trump:
        if self.method == "rotate" and not self.rotation:
            raise FieldError("rotation", "method 'rotate' needs a rotation list of suits")
        _check_cards(_numbered("rotation", self.rotation), parse_suit)
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
            raise FieldError(
                "hook",
                "the hook needs a last bidder, so it cannot be combined with simultaneous bidding",
            )
        if self.sum_equals_hand and self.style == "simultaneous":
            raise FieldError(
                "sum_equals_hand",
                "sum_equals_hand needs sequential bidding (the last bid is forced)",
            )
        if self.sum_equals_hand and self.hook:
            raise FieldError("sum_equals_hand", "sum_equals_hand and hook contradict each other")
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
            raise FieldError("must_trump", "must_trump only makes sense with follow_suit")
        return self


class Result(Strict):
    """Who wins: the highest total, or the whole table together."""

    kind: Literal["individual", "cooperative"] = "individual"


class Option(Strict):
    """A named variant, chosen with ``--option NAME=VALUE``.

    A ``bool`` option writes ``set`` (dotted field -> value) when on and ``unset`` when
    off; ``unset`` is filled in when the file is read, from the values the declaring
    file gives those fields. An ``int`` option writes its value to ``field``. The
    option's value in a ruleset follows the file's fields; a ``default`` written in
    the file must agree with them.
    """

    type: Literal["bool", "int"]
    default: bool | int | None = None
    description: str
    set: dict[str, Any] = {}
    unset: dict[str, Any] = {}
    field: str | None = None
    min: int | None = None
    max: int | None = None
    conflicts: list[str] = []
    players: list[int] = []

    @model_validator(mode="after")
    def _check(self) -> Option:
        if self.type == "int":
            if self.field is None:
                raise FieldError("field", "an int option needs 'field', the setting it changes")
            if self.set or self.unset:
                raise FieldError("set", "an int option uses 'field', not 'set'")
            if isinstance(self.default, bool):
                raise FieldError("default", "an int option needs a whole-number default")
            low = self.min if self.min is not None else self.default
            high = self.max if self.max is not None else self.default
            if low is not None and high is not None and low > high:
                raise FieldError("min", f"min ({low}) is above max ({high})")
        else:
            if self.default is not None and not isinstance(self.default, bool):
                raise FieldError("default", "a bool option's default is true or false")
            if self.field is not None or self.min is not None or self.max is not None:
                raise FieldError("field", "a bool option uses 'set', not 'field', 'min', 'max'")
            if not self.set:
                raise FieldError("set", "a bool option needs 'set', the fields it changes")
            for dotted in self.unset:
                if dotted not in self.set:
                    raise FieldError(("unset", dotted), "'unset' names a field 'set' does not")
        for dotted in [*self.set, *([self.field] if self.field is not None else [])]:
            if not known_field(dotted) or dotted.split(".")[0] in ("options", "notes", "id"):
                where = ("field",) if dotted == self.field else ("set", dotted)
                raise FieldError(where, f"{dotted!r} is not a field an option can change")
        return self


class Note(Strict):
    """A note tied to the fields it describes: it is shown only while they keep the
    values of the file that wrote it."""

    text: str
    about: list[str] = Field(min_length=1)

    @field_validator("about")
    @classmethod
    def _fields(cls, about: list[str]) -> list[str]:
        for dotted in about:
            if not known_field(dotted):
                raise ValueError(f"{dotted!r} is not a field of a ruleset")
        return about


class NoteList(Strict):
    """The ``notes`` of a file as written: text, or text tied to fields."""

    notes: list[str | Note] = []


class RulesetSpec(Strict):
    """One game, as written in a ruleset file (``notes`` are the notes that hold)."""

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
            raise FieldError("play.jokers", "play.jokers = 'trump' needs deck.jokers = true")
        if self.schedule.advance == "when_all_exact" and self.schedule.max_hands is None:
            raise FieldError(
                "schedule.advance", "schedule.advance = 'when_all_exact' needs schedule.max_hands"
            )
        for name, option in self.options.items():
            for index, other in enumerate(option.conflicts):
                if other not in self.options:
                    raise FieldError(
                        f"options.{name}.conflicts.{index}",
                        f"option {name!r} conflicts with unknown option {other!r}",
                    )
        return self


MISSING: Any = object()
"""What :func:`field_default` returns for a field without a default."""


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _walk(dotted: str) -> tuple[FieldInfo | None, list[str]]:
    """The schema field a dotted path enters last, and the parts below it."""
    model: type[BaseModel] | None = RulesetSpec
    parts = dotted.split(".")
    info: FieldInfo | None = None
    while parts and model is not None:
        info = model.model_fields.get(parts[0])
        if info is None:
            return None, parts
        parts = parts[1:]
        model = _model_of(info.annotation)
    return info, parts


def known_field(dotted: str) -> bool:
    """Whether ``dotted`` names a field of a ruleset (anything under a table field
    such as ``settings`` counts: the hooks check those).

    >>> known_field("bidding.hook"), known_field("bidding.hookk"), known_field("settings.x")
    (True, False, True)
    """
    info, rest = _walk(dotted)
    if info is None:
        return False
    return not rest or _model_of(info.annotation) is None


def field_default(dotted: str) -> Any:
    """The value a ruleset has at ``dotted`` when the file does not write it.

    >>> field_default("bidding.hook"), field_default("schedule.sizes")
    (False, '1..max')
    """
    model: type[BaseModel] = RulesetSpec
    parts = dotted.split(".")
    value: Any = MISSING
    while parts:
        info = model.model_fields.get(parts[0])
        if info is None or info.is_required():
            return MISSING
        value = info.get_default(call_default_factory=True)
        parts = parts[1:]
        inner = _model_of(info.annotation)
        if isinstance(value, BaseModel) and inner is not None:
            if not parts:
                return value.model_dump()
            model = inner
            continue
        break
    for part in parts:
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value
