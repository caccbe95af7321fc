"""Loading rulesets (shipped presets or files), applying options, and the compiled schedule.

Every error names the file, the line and column of the offending value, and the
field: ``house.toml:12:8: bidding.hook: expected true or false, got the string 'yes'``.

>>> rules = load_ruleset("blackout", options={"hook": True})
>>> rules.id, rules.options["hook"]
('blackout', True)
>>> [hand.hand_size for hand in rules.hands_for(4)][:5]
[1, 2, 3, 4, 5]
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError

from tricktaker.cards import (
    JOKERS,
    make_card,
    parse_card,
    parse_suit,
    rank_range,
)
from tricktaker.rules import registry
from tricktaker.rules.errors import Origins, validation_error
from tricktaker.rules.errors import RulesetError as RulesetError
from tricktaker.rules.expr import Formula, compile_formula
from tricktaker.rules.options import (
    changed_fields,
    check_written_default,
    note_holds,
    renumber,
    resolve,
)
from tricktaker.rules.options import parse_option_value as _parse_option_value
from tricktaker.rules.schema import (
    HAND_LIMIT_NAMES,
    MISSING,
    SCORE_NAMES,
    TRICK_POINT_NAMES,
    Option,
    RulesetSpec,
    Scoring,
)

if TYPE_CHECKING:
    from tricktaker.engine.hooks import GameHooks


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
    nuloss: bool = False
    """Twos rank highest and aces lowest in every suit (a Caller Clag modifier)."""
    precedence: tuple[int, ...] | None = None
    """A suit order, highest first, that decides tricks in place of a trump (a Caller Clag
    modifier); None: the usual trump."""


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def parse_option_value(
    option: Option, name: str, raw: object, *, source: str = "ruleset"
) -> bool | int:
    """Read an option value strictly: ``true``/``false`` (a bool or that text) for a
    bool option, a whole number within its limits for an int option."""
    return _parse_option_value(option, name, raw, where=source)


class Ruleset:
    """A validated game with its options applied. Build it with :func:`load_ruleset`."""

    def __init__(
        self,
        *,
        spec: RulesetSpec,
        data: dict[str, Any],
        options: dict[str, bool | int],
        source: str,
        origins: Origins | None = None,
        unavailable: Mapping[str, str] | None = None,
    ) -> None:
        self.spec = spec
        self.data = data
        """The file's fields (``extends`` merged in) before options: what records keep."""
        self.options = options
        """The value of each option available in this ruleset."""
        self.source = source
        self.origins = origins if origins is not None else Origins(source)
        self.unavailable: dict[str, str] = dict(unavailable or {})
        """Options of the file that cannot be used here, each with the reason."""
        self.scoring = CompiledScoring.compile(spec.scoring)
        self.hooks: GameHooks | None = None
        self.hook_settings: Any = None
        if spec.hooks is not None:
            try:
                # The registry takes only subclasses of the engine's GameHooks (see
                # tricktaker.rules.registry), so the rules need not import the engine.
                self.hooks = cast("GameHooks", registry.find(spec.hooks))
            except KeyError as exc:
                raise self.origins.error("hooks", str(exc.args[0])) from None
            model = self.hooks.settings_model
            if model is not None:
                try:
                    self.hook_settings = model.model_validate(spec.settings, strict=True)
                except ValidationError as err:
                    raise validation_error(err, self.origins, ("settings",)) from None
        elif spec.settings:
            raise self.origins.error(
                "settings", "only a ruleset with hooks takes settings", at_key=True
            )
        self._hands: dict[int, tuple[HandSpec, ...]] = {}
        self.setups: dict[int, object] = {}
        """Engine set-ups per player count, cached here by the engine."""
        self._check_playable()

    def where(self, field: str) -> str:
        """``"file:line:column"`` of a dotted field's value, for error messages."""
        return self.origins.where(field)

    @property
    def notes(self) -> tuple[str, ...]:
        """The notes that hold for this ruleset: a house rule keeps only the notes of its
        game whose fields it leaves alone (see docs/rulesets.md, Notes)."""
        return tuple(self.spec.notes)

    def _check_playable(self) -> None:
        """Refuse at load what no table can play: a schedule that fails for every
        player count, or a bid limit that does not fit a hand the schedule deals."""
        failures: list[RulesetError] = []
        playable = 0
        for players in self.player_counts:
            try:
                self.check_players(players)
            except RulesetError:
                continue
            try:
                hands = self.hands_for(players)
                parse_deal_pattern(self.spec.deal.pattern, players, self.where("deal.pattern"))
            except RulesetError as exc:
                failures.append(exc)
                continue
            playable += 1
            self._check_bids(players, hands)
            self._check_opening_lead(players, hands)
        if failures and not playable:
            raise failures[0]

    def _check_opening_lead(self, players: int, hands: tuple[HandSpec, ...]) -> None:
        lead = self.spec.play.opening_lead
        if lead is None:
            return
        deck = len(self.deck(players))
        for hand in hands:
            if hand.hand_size * players != deck:
                raise self.origins.error(
                    "play.opening_lead",
                    f"{lead} must be dealt to be led, so every hand deals the whole deck;"
                    f" hand {hand.number} deals {hand.hand_size * players} of {deck} cards"
                    f" to {players} players",
                )

    def _check_bids(self, players: int, hands: tuple[HandSpec, ...]) -> None:
        bidding, sched = self.spec.bidding, self.spec.schedule
        low = bidding.min_bid
        if low == 0 or self.spec.hooks is not None:
            return
        if sched.called and low > sched.called_min:
            raise self.origins.error(
                "bidding.min_bid",
                f"{low} does not fit the smallest hand a caller may call"
                f" (schedule.called_min = {sched.called_min})",
            )
        for hand in hands:
            if hand.misere:
                continue
            need = low * players if bidding.sum_equals_hand else low
            if need > hand.hand_size:
                card = "card" if hand.hand_size == 1 else "cards"
                what = (
                    f"{players} bids of at least {low} must total the hand size"
                    if bidding.sum_equals_hand
                    else f"a bid of at least {low} does not fit the hand"
                )
                raise self.origins.error(
                    "bidding.min_bid",
                    f"{what}: hand {hand.number} deals {hand.hand_size} {card}"
                    f" with {players} players",
                )

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

    @cached_property
    def joker_labels(self) -> tuple[str, str]:
        """The names of the high and low joker (read at every card written or parsed:
        worked out once)."""
        high, low = self.spec.deck.joker_labels
        return high, low

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
            raise self.origins.error("players", f"{self.name} is for {span} players, not {players}")
        for name, option in self.spec.options.items():
            if (
                option.players
                and self.options.get(name, option.default) != option.default
                and players not in option.players
            ):
                allowed = ", ".join(map(str, option.players))
                raise self.origins.error(
                    ("options", name, "players"),
                    f"option {name} is only for {allowed} players, not {players}",
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
                raise self.origins.error("schedule.max_hand", f"no entry for {players} players")
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
                raise self.origins.error("schedule.sizes", f"no entry for {players} players")
            pattern = pattern[players]
            where = self.origins.where(("schedule", "sizes", str(players)))
        else:
            where = self.origins.where("schedule.sizes")
        sizes = parse_sizes(pattern, max_hand=self.max_hand(players), players=players, source=where)
        hands: list[HandSpec] = []
        special = {s.hand: s for s in sched.special}
        for hand in special:
            if hand > len(sizes):
                index = [s.hand for s in sched.special].index(hand)
                raise self.origins.error(
                    ("schedule", "special", str(index), "hand"),
                    f"hand {hand} is beyond the {len(sizes)} hands of the schedule"
                    f" for {players} players",
                )
        for number, size in enumerate(sizes, start=1):
            if size * players > deck_size:
                raise self.origins.error(
                    "schedule.sizes",
                    f"hand {number} deals {size} cards to {players} players,"
                    f" but the deck has only {deck_size}",
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
                raise self.origins.error(
                    "schedule.final_all_dealt",
                    f"the {deck_size} cards do not divide evenly among {players} players",
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
        """Each available option with its spec and its value in this ruleset. The spec's
        ``default`` is the value the file's own fields give it (``hook`` shows on in a
        file that sets ``bidding.hook = true``); :attr:`unavailable` lists the others."""
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


def parse_deal_pattern(
    pattern: str | None, players: int, source: str
) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """Read a deal pattern such as ``"kitty 1; 3 2 3 2; kitty 1; 2 3 2 3; kitty 1"``:
    packets to the kitty, or one count per seat in deal order.

    >>> parse_deal_pattern("kitty 1; 3 2 3", players=3, source="euchre.toml")
    (('kitty', (1,)), ('seats', (3, 2, 3)))
    """
    if pattern is None:
        return None
    out: list[tuple[str, tuple[int, ...]]] = []
    for part in pattern.split(";"):
        words = part.split()
        try:
            if words and words[0] == "kitty":
                out.append(("kitty", (int(words[1]),)))
                continue
            counts = tuple(int(w) for w in words)
        except (ValueError, IndexError):
            raise RulesetError(f"{source}: deal.pattern: cannot read {part.strip()!r}") from None
        if len(counts) != players:
            raise RulesetError(
                f"{source}: deal.pattern: {part.strip()!r} needs one count per player ({players})"
            )
        out.append(("seats", counts))
    return tuple(out)


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


_TOML_POSITION = re.compile(r"^(?P<what>.*) \(at line (?P<line>\d+), column (?P<col>\d+)\)$")


def _read_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_POSITION.match(str(exc))
        if found is None:
            raise RulesetError(f"{source}: not valid TOML: {exc}") from None
        where = f"{source}:{found['line']}:{found['col']}"
        raise RulesetError(f"{where}: not valid TOML: {found['what']}") from None


def _read_text(name_or_path: str | Path) -> tuple[str, str, Path | None]:
    """The text of a preset id or a file path, the name errors give it, and its folder."""
    text_name = str(name_or_path)
    if isinstance(name_or_path, Path) or text_name.endswith(".toml") or "/" in text_name:
        path = Path(name_or_path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesetError(f"{path}: cannot read the ruleset file: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RulesetError(f"{path}: cannot read the ruleset file: it is not UTF-8") from None
        return text, str(path), path.parent
    if text_name not in list_rulesets():
        known = ", ".join(list_rulesets())
        raise RulesetError(f"unknown game {text_name!r}; the games are: {known}")
    source = f"{text_name}.toml"
    return (
        resources.files(PRESET_PACKAGE).joinpath(source).read_text(encoding="utf-8"),
        source,
        None,
    )


def _raw_at(data: Mapping[str, Any], dotted: str) -> Any:
    node: Any = data
    for key in dotted.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return MISSING
        node = node[key]
    return node


def _declare_options(merged: dict[str, Any], own: Mapping[str, Any], origins: Origins) -> None:
    """For each option whose ``set`` this file writes, note what its fields hold here
    (``unset``: the option's off state), and check the ``default`` the file writes."""
    own_options = own.get("options")
    merged_options = merged.get("options")
    if not isinstance(own_options, Mapping) or not isinstance(merged_options, dict):
        return
    for name, raw in own_options.items():
        option = merged_options.get(name)
        if not isinstance(raw, Mapping) or not isinstance(option, dict):
            continue
        writes = raw.get("set")
        if isinstance(writes, Mapping) and "unset" not in raw:
            unset = {path: _raw_at(merged, str(path)) for path in writes}
            option["unset"] = {p: copy.deepcopy(v) for p, v in unset.items() if v is not MISSING}
        check_written_default(name, option if "default" in raw else {}, merged, origins)


def _file_id(source: str) -> str:
    stem = Path(source).stem.lower()
    return re.sub(r"[^a-z0-9_]", "_", stem) if stem[:1].isalpha() else f"house_{stem}"


def _read_raw(
    name_or_path: str | Path, _seen: tuple[str, ...] = ()
) -> tuple[dict[str, Any], Origins]:
    """The resolved raw data of a preset id or a file path (``extends`` merged in),
    with the place of every value."""
    text, source, base_dir = _read_text(name_or_path)
    data = _read_toml(text, source)
    origins = Origins.of_text(source, text)
    parent = data.pop("extends", None)
    if parent is None:
        _declare_options(data, data, origins)
        return data, origins
    if not isinstance(parent, str):
        raise origins.error("extends", "must be a game id or a file path, in quotes")
    if parent in _seen or parent == str(name_or_path):
        raise origins.error("extends", f"{parent!r} extends itself")
    if "id" not in data:
        raise RulesetError(
            f"{origins.where('extends', at_key=True)}: id: a file that extends {parent!r}"
            f" needs its own id, under which its games are recorded;"
            f' add for example id = "{_file_id(source)}"'
        )
    target: str | Path = parent
    if base_dir is not None and (parent.endswith(".toml") or "/" in parent):
        target = base_dir / parent
    try:
        base, base_origins = _read_raw(target, (*_seen, str(name_or_path)))
    except RulesetError as exc:
        raise RulesetError(f"{origins.where('extends')}: extends: {exc}") from None
    if data["id"] == base.get("id"):
        raise origins.error(
            "id", f"{data['id']!r} is the id of the game this file extends; give the file its own"
        )
    merged = _merge(base, data)
    merged_origins = base_origins.merge_child(origins, data)
    changed = changed_fields(base, merged)
    parent_notes = base.get("notes", [])
    own_notes = data.get("notes", [])
    if isinstance(parent_notes, list) and isinstance(own_notes, list):
        kept = [i for i, note in enumerate(parent_notes) if note_holds(note, changed)]
        merged["notes"] = own_notes + [parent_notes[i] for i in kept]
        places = renumber(origins, ("notes",), list(range(len(own_notes))))
        for index, where in renumber(base_origins, ("notes",), kept).items():
            if len(index) == 1:
                places.setdefault(index, where)
                continue
            places[("notes", str(int(index[1]) + len(own_notes)), *index[2:])] = where
        merged_origins.replace(("notes",), places)
    _declare_options(merged, data, merged_origins)
    return merged, merged_origins


def _with_preset_hooks(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` saved before its game's own rules moved into hooks (a record or a stored
    table of Caller Clag, whose calls the engine once took itself): a called schedule
    that names no hooks takes the hooks of the shipped ruleset with the same id."""
    schedule = data.get("schedule")
    ident = data.get("id")
    if (
        "hooks" in data
        or not isinstance(schedule, Mapping)
        or not schedule.get("called")
        or not isinstance(ident, str)
        or ident not in list_rulesets()
    ):
        return data
    hooks = load_ruleset(ident).spec.hooks
    return data if hooks is None else {**data, "hooks": hooks}


def ruleset_from_data(
    data: Mapping[str, Any],
    *,
    options: Mapping[str, object] | None = None,
    source: str = "ruleset",
    origins: Origins | None = None,
) -> Ruleset:
    """Validate raw ruleset data (as read from TOML) and apply ``options`` on top of it.

    ``origins`` gives the file positions for error messages (:func:`load_ruleset`
    passes them; data from a record has none).
    """
    base = _with_preset_hooks(copy.deepcopy(dict(data)))
    where = origins if origins is not None else Origins(source)
    resolved = resolve(base, options or {}, where)
    try:
        spec_model = RulesetSpec.model_validate(resolved.data)
    except ValidationError as exc:
        error = validation_error(exc, resolved.origins)
        if resolved.changed:
            error = RulesetError(f"{error} (with options {', '.join(resolved.changed)})")
        raise error from None
    return Ruleset(
        spec=spec_model,
        data=base,
        options=resolved.values,
        source=where.source,
        origins=resolved.origins,
        unavailable=resolved.unavailable,
    )


def load_ruleset(
    name_or_path: str | Path, *, options: Mapping[str, object] | None = None
) -> Ruleset:
    """Load a shipped game by id (``"bluke"``) or a ruleset file by path, with options.

    A file may start with ``extends = "blackout"`` to change only some fields of a game;
    it then needs its own ``id``.
    """
    data, origins = _read_raw(name_or_path)
    return ruleset_from_data(data, options=options, source=origins.source, origins=origins)
