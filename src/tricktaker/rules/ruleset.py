"""Loading rulesets (shipped presets or files), applying options, and the compiled schedule.

>>> rules = load_ruleset("blackout", options={"hook": True})
>>> rules.id, rules.options["hook"]
('blackout', True)
>>> [hand.hand_size for hand in rules.hands_for(4)][:5]
[1, 2, 3, 4, 5]
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tricktaker.cards import (
    JOKERS,
    make_card,
    parse_card,
    parse_suit,
    rank_range,
)
from tricktaker.rules.expr import Formula, compile_formula
from tricktaker.rules.schema import (
    HAND_LIMIT_NAMES,
    SCORE_NAMES,
    TRICK_POINT_NAMES,
    Option,
    RulesetSpec,
    Scoring,
)

if TYPE_CHECKING:
    from tricktaker.engine.hooks import GameHooks


class RulesetError(ValueError):
    """A ruleset file, option or player count that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class CompiledScoring:
    """Scoring formulas compiled once per ruleset."""

    exact: Formula
    exact_zero: Formula
    over: Formula
    under: Formula
    trick_points: Formula | None
    memo: dict[tuple[int, int, int, int], int] = field(default_factory=dict, compare=False)

    @classmethod
    def compile(cls, spec: Scoring) -> CompiledScoring:
        def f(text: str) -> Formula:
            return compile_formula(text, names=SCORE_NAMES)

        return cls(
            exact=f(spec.exact),
            exact_zero=f(spec.exact_zero if spec.exact_zero is not None else spec.exact),
            over=f(spec.over if spec.over is not None else spec.otherwise),
            under=f(spec.under if spec.under is not None else spec.otherwise),
            trick_points=(
                compile_formula(spec.trick_points, names=TRICK_POINT_NAMES)
                if spec.trick_points
                else None
            ),
        )

    def score(self, *, bid: int, tricks: int, hand_size: int, players: int) -> int:
        """The score of one seat for one hand, without trick points."""
        return self.score_of(bid, tricks, hand_size, players)

    def score_of(self, bid: int, tricks: int, hand_size: int, players: int) -> int:
        """:meth:`score` with positional arguments (memoized: it is called every hand)."""
        key = (bid, tricks, hand_size, players)
        known = self.memo.get(key)
        if known is not None:
            return known
        if tricks == bid:
            formula = self.exact_zero if bid == 0 else self.exact
        elif tricks > bid:
            formula = self.over
        else:
            formula = self.under
        value = formula(bid=bid, tricks=tricks, hand_size=hand_size, players=players)
        if len(self.memo) < 100_000:
            self.memo[key] = value
        return value


@dataclass(frozen=True, slots=True)
class HandSpec:
    """One scheduled hand: its size and any special rules."""

    number: int
    hand_size: int
    name: str | None = None
    no_trump: bool = False
    bid_before_trump: bool = False
    blind_bid: bool = False
    pile: bool = False
    """Cards dealt as a face-down pile, never looked at, played in pile order."""
    blind_hand: bool = False
    """Cards looked at and bid on, then shuffled into a pile played in pile order."""
    misere: bool = False
    scoring: CompiledScoring | None = None


def _set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    node = data
    for key in keys[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise RulesetError(f"{dotted}: {key} is not a table")
        node = child
    node[keys[-1]] = copy.deepcopy(value)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _format_validation(source: str, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        where = ".".join(str(part) for part in err["loc"]) or "(ruleset)"
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling and section)"
        elif err["type"] == "missing":
            msg = "required field is missing"
        lines.append(f"{source}: {where}: {msg}")
    return "\n".join(lines)


def parse_option_value(
    option: Option, name: str, raw: object, *, source: str = "ruleset"
) -> bool | int:
    """Read an option value given as a Python value or as text from the command line."""
    where = f"{source}: option {name}"
    if option.type == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise RulesetError(f"{where}: {raw!r} is not true or false")
    if isinstance(raw, bool):
        raise RulesetError(f"{where}: expects a whole number, not {raw!r}")
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise RulesetError(f"{where}: {raw!r} is not a whole number") from None
    if option.min is not None and value < option.min:
        raise RulesetError(f"{where}: {value} is below the minimum {option.min}")
    if option.max is not None and value > option.max:
        raise RulesetError(f"{where}: {value} is above the maximum {option.max}")
    return value


class Ruleset:
    """A validated game with its options applied. Build it with :func:`load_ruleset`."""

    def __init__(
        self,
        *,
        spec: RulesetSpec,
        data: dict[str, Any],
        options: dict[str, bool | int],
        source: str,
    ) -> None:
        self.spec = spec
        self.data = data
        self.options = options
        self.source = source
        self.scoring = CompiledScoring.compile(spec.scoring)
        self.hooks: GameHooks | None = None
        self.hook_settings: Any = None
        if spec.hooks is not None:
            from tricktaker.engine.hooks import get_hooks

            try:
                self.hooks = get_hooks(spec.hooks)
            except KeyError as exc:
                raise RulesetError(f"{source}: hooks: {exc.args[0]}") from None
            model = self.hooks.settings_model
            if model is not None:
                try:
                    self.hook_settings = model.model_validate(spec.settings)
                except ValidationError as err:
                    message = _format_validation(source, err)
                    raise RulesetError(
                        message.replace(f"{source}: ", f"{source}: settings.")
                    ) from None
        elif spec.settings:
            raise RulesetError(f"{source}: settings: only a ruleset with hooks takes settings")
        self._hands: dict[int, tuple[HandSpec, ...]] = {}
        self.setups: dict[int, object] = {}
        """Engine set-ups per player count, cached here by the engine."""

    def __repr__(self) -> str:
        return f"Ruleset({self.id!r}, options={self.options!r})"

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def player_counts(self) -> range:
        return range(self.spec.players.min, self.spec.players.max + 1)

    @property
    def joker_labels(self) -> tuple[str, str]:
        return self.spec.deck.joker_labels

    @property
    def cooperative(self) -> bool:
        return self.spec.result.kind == "cooperative"

    @cached_property
    def rotation(self) -> tuple[int, ...]:
        return tuple(parse_suit(s) for s in self.spec.trump.rotation)

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesetError` unless ``players`` may play this ruleset and options."""
        if players not in self.player_counts:
            low, high = self.spec.players.min, self.spec.players.max
            span = f"{low}" if low == high else f"{low} to {high}"
            raise RulesetError(
                f"{self.source}: players: {self.name} is for {span} players, not {players}"
            )
        for name, option in self.spec.options.items():
            if (
                option.players
                and self.options[name] != option.default
                and players not in option.players
            ):
                allowed = ", ".join(map(str, option.players))
                raise RulesetError(
                    f"{self.source}: option {name} is only for {allowed} players, not {players}"
                )

    def deck(self, players: int) -> tuple[int, ...]:
        """The card ids of the deck used with ``players`` players, in id order."""
        deck_spec = self.spec.deck
        span = deck_spec.ranks_by_players.get(players, deck_spec.ranks)
        excluded = {parse_card(c) for c in deck_spec.exclude}
        cards = [
            make_card(suit, rank)
            for suit in range(4)
            for rank in rank_range(span)
            if make_card(suit, rank) not in excluded
        ]
        if deck_spec.jokers:
            cards.extend(JOKERS)
        return tuple(sorted(cards))

    def max_hand(self, players: int) -> int:
        """The largest hand of the schedule for ``players`` players."""
        limit = self.spec.schedule.max_hand
        if isinstance(limit, dict):
            if players not in limit:
                raise RulesetError(f"{self.source}: schedule.max_hand has no entry for {players}")
            return limit[players]
        formula = compile_formula(limit, names=HAND_LIMIT_NAMES)
        return formula(deck=len(self.deck(players)), players=players)

    def hands_for(self, players: int) -> tuple[HandSpec, ...]:
        """The scheduled hands for ``players`` players (empty for a called schedule)."""
        if players not in self._hands:
            self.check_players(players)
            self._hands[players] = self._build_hands(players)
        return self._hands[players]

    def _build_hands(self, players: int) -> tuple[HandSpec, ...]:
        sched = self.spec.schedule
        if sched.called:
            return ()
        deck_size = len(self.deck(players))
        pattern = sched.sizes
        if isinstance(pattern, dict):
            if players not in pattern:
                raise RulesetError(f"{self.source}: schedule.sizes has no entry for {players}")
            pattern = pattern[players]
        sizes = parse_sizes(
            pattern, max_hand=self.max_hand(players), players=players, source=self.source
        )
        hands: list[HandSpec] = []
        special = {s.hand: s for s in sched.special}
        for hand in special:
            if hand > len(sizes):
                raise RulesetError(
                    f"{self.source}: schedule.special: hand {hand} is beyond the"
                    f" {len(sizes)} hands of the schedule"
                )
        for number, size in enumerate(sizes, start=1):
            if size * players > deck_size:
                raise RulesetError(
                    f"{self.source}: schedule.sizes: hand {number} deals {size} cards to"
                    f" {players} players, but the deck has only {deck_size}"
                )
            entry = special.get(number)
            if entry is None:
                hands.append(HandSpec(number=number, hand_size=size))
                continue
            hands.append(
                HandSpec(
                    number=number,
                    hand_size=size,
                    name=entry.name,
                    no_trump=entry.trump == "none",
                    bid_before_trump=entry.bid_before_trump,
                    blind_bid=entry.blind_bid or entry.pile,
                    pile=entry.pile,
                    misere=entry.misere,
                    scoring=CompiledScoring.compile(entry.scoring) if entry.scoring else None,
                )
            )
        if sched.final_all_dealt:
            if deck_size % players:
                raise RulesetError(
                    f"option all_dealt_final: the {deck_size} cards do not divide evenly"
                    f" among {players} players"
                )
            hands.append(
                HandSpec(
                    number=len(hands) + 1,
                    hand_size=deck_size // players,
                    name="all_dealt_no_trump",
                    no_trump=True,
                )
            )
        return tuple(hands)

    def describe_options(self) -> list[tuple[str, Option, bool | int]]:
        """Each option with its spec and its value in this ruleset."""
        return [(name, opt, self.options[name]) for name, opt in self.spec.options.items()]


def _value(token: str, *, max_hand: int, players: int, source: str) -> int:
    token = token.strip()
    if token == "max":
        return max_hand
    if token == "players":
        return players
    try:
        return int(token)
    except ValueError:
        raise RulesetError(
            f"{source}: schedule.sizes: {token!r} is not a number, 'max' or 'players'"
        ) from None


def parse_sizes(pattern: str, *, max_hand: int, players: int, source: str = "ruleset") -> list[int]:
    """Expand a schedule pattern into hand sizes.

    >>> parse_sizes("1..3..1", max_hand=13, players=4)
    [1, 2, 3, 2, 1]
    >>> parse_sizes("players*1, 2..3", max_hand=8, players=3)
    [1, 1, 1, 2, 3]
    """
    sizes: list[int] = []
    for part in pattern.split(","):
        part = part.strip()
        if not part:
            raise RulesetError(f"{source}: schedule.sizes: empty entry in {pattern!r}")
        if "*" in part:
            count_text, value_text = part.split("*", 1)
            count = _value(count_text, max_hand=max_hand, players=players, source=source)
            value = _value(value_text, max_hand=max_hand, players=players, source=source)
            sizes.extend([value] * count)
            continue
        points = [
            _value(p, max_hand=max_hand, players=players, source=source) for p in part.split("..")
        ]
        run = [points[0]]
        for target in points[1:]:
            step = 1 if target >= run[-1] else -1
            run.extend(range(run[-1] + step, target + step, step))
        sizes.extend(run)
    if not sizes or min(sizes) < 1:
        raise RulesetError(f"{source}: schedule.sizes: every hand needs at least one card")
    return sizes


PRESET_PACKAGE = "tricktaker.rules.presets"


def list_rulesets() -> list[str]:
    """The ids of the shipped rulesets, in a stable order."""
    files = resources.files(PRESET_PACKAGE).iterdir()
    return sorted(f.name.removesuffix(".toml") for f in files if f.name.endswith(".toml"))


def _read_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source}: not valid TOML: {exc}") from None


def _read_raw(name_or_path: str | Path, _seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    """The resolved raw data of a preset id or a file path (``extends`` merged in)."""
    text_name = str(name_or_path)
    if isinstance(name_or_path, Path) or text_name.endswith(".toml") or "/" in text_name:
        path = Path(name_or_path)
        source = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesetError(f"{source}: cannot read the ruleset file: {exc.strerror}") from None
        base_dir: Path | None = path.parent
    else:
        if text_name not in list_rulesets():
            known = ", ".join(list_rulesets())
            raise RulesetError(f"unknown game {text_name!r}; the games are: {known}")
        source = f"{text_name}.toml"
        text = resources.files(PRESET_PACKAGE).joinpath(source).read_text(encoding="utf-8")
        base_dir = None
    data = _read_toml(text, source)
    parent = data.pop("extends", None)
    if parent is not None:
        if not isinstance(parent, str):
            raise RulesetError(f"{source}: extends: must be a game id or a file path")
        if parent in _seen:
            raise RulesetError(f"{source}: extends: {parent!r} extends itself")
        target: str | Path = parent
        if base_dir is not None and (parent.endswith(".toml") or "/" in parent):
            target = base_dir / parent
        base, _ = _read_raw(target, (*_seen, parent))
        data = _merge(base, data)
    return data, source


def ruleset_from_data(
    data: Mapping[str, Any],
    *,
    options: Mapping[str, object] | None = None,
    source: str = "ruleset",
) -> Ruleset:
    """Validate raw ruleset data (as read from TOML) and apply ``options``."""
    base = copy.deepcopy(dict(data))
    raw_options = base.get("options", {})
    if not isinstance(raw_options, dict):
        raise RulesetError(f"{source}: options: must be a table of option definitions")
    specs: dict[str, Option] = {}
    for name, raw in raw_options.items():
        try:
            specs[name] = Option.model_validate(raw)
        except ValidationError as exc:
            message = _format_validation(source, exc).replace(
                f"{source}: ", f"{source}: options.{name}."
            )
            raise RulesetError(message) from None
    chosen: dict[str, bool | int] = {name: spec.default for name, spec in specs.items()}
    for name, value in (options or {}).items():
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise RulesetError(f"{source}: unknown option {name!r}; this game's options: {known}")
        chosen[name] = parse_option_value(specs[name], name, value, source=source)
    effective = copy.deepcopy(base)
    for name, spec in specs.items():
        value = chosen[name]
        if value == spec.default:
            continue
        for other in spec.conflicts:
            if chosen[other] != specs[other].default:
                raise RulesetError(f"{source}: options {name} and {other} cannot be combined")
        if spec.type == "bool":
            if value:
                for dotted, setting in spec.set.items():
                    _set_path(effective, dotted, setting)
        else:
            assert spec.field is not None
            _set_path(effective, spec.field, value)
    try:
        spec_model = RulesetSpec.model_validate(effective)
    except ValidationError as exc:
        message = _format_validation(source, exc)
        changed = [n for n in specs if chosen[n] != specs[n].default]
        if changed:
            message += f"\n(with options {', '.join(changed)})"
        raise RulesetError(message) from None
    return Ruleset(spec=spec_model, data=base, options=chosen, source=source)


def load_ruleset(
    name_or_path: str | Path, *, options: Mapping[str, object] | None = None
) -> Ruleset:
    """Load a shipped game by id (``"bluke"``) or a ruleset file by path, with options.

    A file may start with ``extends = "blackout"`` to change only some fields of a game.
    """
    data, source = _read_raw(name_or_path)
    return ruleset_from_data(data, options=options, source=source)
