"""A review of a finished game: for every decision of one seat, what the choice made was
worth against the best choice, under the coach's model (:data:`~tricktaker.coach.model.MODEL`,
docs/coach.md).

The record is replayed event by event; at each of the seat's actions with more than one
legal choice the coach values every choice from the seat's observation at that moment
(:func:`tricktaker.coach.values.hint`, seeded by the event's number, so a review with a
fixed number of deals is the same every time). A decision's *cost* is the best choice's
value less the value of the choice made: what the choice gave up, in the game's points,
never below 0 (in a cooperative ruleset the values are chances that the table is
exact, and a cost is a difference of chances). Each hand gets a sentence, and the
costliest decisions of the game are ranked; each names its hand, the seat's decision in
that hand and the record's event, so the moment can be found in a replay.

A review is kept beside its record (``RECORD.review.json``), keyed by a hash of the
record's content, the seat and the budget (:func:`cached_review`): a second look is
instant, and any change to the game, the seat or the budget computes it again.

>>> from tricktaker import load_ruleset, new_game
>>> from tricktaker.bots import make_bot, play_game
>>> state = new_game(load_ruleset("blackout"), players=3, seed=2)
>>> play_game(state, [make_bot("random", seed=s) for s in range(3)])
>>> record = state.record()
>>> [(d.hand, d.decision, d.event, d.made) for d in reviewed_decisions(record, 0)][:3]
[(1, 1, 3, 'bid 1'), (2, 1, 9, 'bid 0'), (2, 2, 12, 'play 7H')]
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tricktaker.cards import parse_card
from tricktaker.coach.model import MODEL, Hint, ValueUnit, result_points, value_unit
from tricktaker.engine.actions import BID, Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.record import GameRecord
from tricktaker.engine.state import ChanceOutcome, GameState

REVIEW_FORMAT = "tricktaker-review"
REVIEW_VERSION = 2
"""The version of a review's JSON (and of its cache): a change to what a review holds or
how it is computed gets a new one, so that older cached reviews are computed again."""
CACHE_SUFFIX = ".review.json"
CACHE_ENTRIES = 8
"""How many reviews of one record its cache file keeps (other seats, other budgets)."""
TOP_LOSSES = 10
"""How many of the costliest decisions a review ranks."""

Valuer = Callable[..., Hint]
"""Values a decision: ``valuer(observation, seconds=..., seed=..., deals=...)`` as
:func:`tricktaker.coach.values.hint` does."""
Progress = Callable[[int, int], None]
"""Told ``(done, total)`` after each decision is valued."""


@dataclass(frozen=True, slots=True)
class ChoiceFigure:
    """One legal choice's value, as a review keeps it (the action written as in records)."""

    action: str
    mean: float
    """The seat's expected score for the hand after this choice, in the game's points
    (in a cooperative ruleset, the chance that the table is exact)."""
    stderr: float
    """The standard error of :attr:`mean`."""
    make_chance: float | None
    """The chance of making the seat's bid after this choice (None: no bid to make)."""

    def to_json(self) -> dict[str, Any]:
        """The figure as JSON data."""
        return {
            "action": self.action,
            "mean": self.mean,
            "stderr": self.stderr,
            "make_chance": self.make_chance,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChoiceFigure:
        """The figure :meth:`to_json` wrote."""
        chance = data["make_chance"]
        return cls(
            action=str(data["action"]),
            mean=float(data["mean"]),
            stderr=float(data["stderr"]),
            make_chance=None if chance is None else float(chance),
        )


@dataclass(frozen=True, slots=True)
class Moment:
    """One of the seat's decisions in a record: where it is and what was chosen."""

    hand: int
    """The hand's number, from 1 (as ``tricktaker replay`` heads it)."""
    decision: int
    """The seat's action in that hand, counted from 1 (forced ones included)."""
    event: int
    """The record's event number of the choice, from 1: the browser replay's frame
    ``event - 1`` shows the table as the seat saw it before choosing."""
    trick: int | None
    """The trick of the hand the choice was made in, from 1 (None before the first
    card of the hand is played)."""
    made: str
    """The action taken, written as in records (``bid 3``, ``play 10H``)."""


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision of the reviewed seat: every choice's value, the best first."""

    moment: Moment
    choices: tuple[ChoiceFigure, ...]
    """Every legal choice, the best (highest mean) first."""
    exact: bool
    """Whether the values are exact (every consistent deal) or sampled."""
    samples: int
    """The deals the values were estimated over."""

    @property
    def made(self) -> ChoiceFigure:
        """The value of the choice made."""
        return next(c for c in self.choices if c.action == self.moment.made)

    @property
    def best(self) -> ChoiceFigure:
        """The value of the coach's choice."""
        return self.choices[0]

    @property
    def cost(self) -> float:
        """What the choice made gave up: the best value less its own (at least 0)."""
        return max(0.0, self.best.mean - self.made.mean)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON data (with its cost, for readers of the JSON)."""
        moment = self.moment
        return {
            "hand": moment.hand,
            "decision": moment.decision,
            "event": moment.event,
            "trick": moment.trick,
            "made": moment.made,
            "best": self.best.action,
            "cost": self.cost,
            "exact": self.exact,
            "samples": self.samples,
            "choices": [choice.to_json() for choice in self.choices],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewedDecision:
        """The decision :meth:`to_json` wrote."""
        trick = data["trick"]
        moment = Moment(
            hand=int(data["hand"]),
            decision=int(data["decision"]),
            event=int(data["event"]),
            trick=None if trick is None else int(trick),
            made=str(data["made"]),
        )
        choices = tuple(ChoiceFigure.from_json(c) for c in data["choices"])
        return cls(moment, choices, bool(data["exact"]), int(data["samples"]))


@dataclass(frozen=True, slots=True)
class HandReview:
    """One hand of the review: what the seat's decisions in it cost, and a sentence."""

    number: int
    decisions: int
    """The seat's decisions in the hand with more than one legal choice."""
    cost: float
    """The sum of their costs."""
    points: int | None
    """What the seat scored in the hand (None if the record stops before its end); in a
    cooperative ruleset 1 where the table was exact and 0 where it was not."""
    summary: str
    """The hand in a sentence: ``bid 3 on a hand worth about 2: -8.0 expected``."""

    def to_json(self) -> dict[str, Any]:
        """The hand as JSON data."""
        return {
            "hand": self.number,
            "decisions": self.decisions,
            "cost": self.cost,
            "points": self.points,
            "summary": self.summary,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandReview:
        """The hand :meth:`to_json` wrote."""
        points = data["points"]
        return cls(
            number=int(data["hand"]),
            decisions=int(data["decisions"]),
            cost=float(data["cost"]),
            points=None if points is None else int(points),
            summary=str(data["summary"]),
        )


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one seat's decisions in a game record."""

    game: str
    seat: int
    name: str | None
    """The seat's name in the record (None when the record names no one)."""
    unit: str
    """What the values count: ``points``, ``chips``, ``chance the table is exact``
    (:func:`~tricktaker.coach.model.value_unit`)."""
    seconds: float
    """The time budget of each decision's values."""
    deals: int | None
    """The number of deals each decision's values were estimated over, when fixed."""
    model: str
    """What the values assume (:data:`~tricktaker.coach.model.MODEL`)."""
    decisions: tuple[ReviewedDecision, ...]
    """Every decision of the seat with more than one legal choice, in the game's order."""
    hands: tuple[HandReview, ...]
    key: str
    """The cache key: a hash of the record's content, the seat and the budget."""
    unvalued: tuple[Moment, ...] = ()
    """Decisions the coach cannot value (its values need the hand played out to a score
    for the seat, and this choice does not lead to one), left out of :attr:`decisions`."""
    chance: bool = False
    """Whether the values are chances from 0 to 1, shown as percentages (a cooperative
    ruleset's chance that the table is exact), not points."""

    @property
    def total_cost(self) -> float:
        """What the seat's choices gave up over the game, in all."""
        return sum(decision.cost for decision in self.decisions)

    def losses(self, count: int = TOP_LOSSES) -> tuple[ReviewedDecision, ...]:
        """The ``count`` costliest decisions, the costliest first (those that cost
        nothing are left out; equal costs in the game's order)."""
        costly = [d for d in self.decisions if d.cost > 0]
        costly.sort(key=lambda d: (-d.cost, d.moment.event))
        return tuple(costly[:count])

    def to_json(self) -> dict[str, Any]:
        """The review as JSON data (what ``tricktaker review --json`` prints)."""
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "game": self.game,
            "seat": self.seat,
            "name": self.name,
            "unit": self.unit,
            "chance": self.chance,
            "seconds": self.seconds,
            "deals": self.deals,
            "model": self.model,
            "key": self.key,
            "total_cost": self.total_cost,
            "hands": [hand.to_json() for hand in self.hands],
            "losses": [
                {"rank": rank, **loss.to_json()} for rank, loss in enumerate(self.losses(), 1)
            ],
            "decisions": [decision.to_json() for decision in self.decisions],
            "unvalued": [
                {"hand": m.hand, "decision": m.decision, "event": m.event, "made": m.made}
                for m in self.unvalued
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """The review :meth:`to_json` wrote (``KeyError``, ``TypeError`` or
        ``ValueError`` for data that is not one)."""
        if data.get("format") != REVIEW_FORMAT or data.get("version") != REVIEW_VERSION:
            raise ValueError("not a review of this version")
        deals = data["deals"]
        name = data["name"]
        return cls(
            game=str(data["game"]),
            seat=int(data["seat"]),
            name=None if name is None else str(name),
            unit=str(data["unit"]),
            seconds=float(data["seconds"]),
            deals=None if deals is None else int(deals),
            model=str(data["model"]),
            decisions=tuple(ReviewedDecision.from_json(d) for d in data["decisions"]),
            hands=tuple(HandReview.from_json(h) for h in data["hands"]),
            key=str(data["key"]),
            unvalued=tuple(
                Moment(int(m["hand"]), int(m["decision"]), int(m["event"]), None, str(m["made"]))
                for m in data["unvalued"]
            ),
            chance=bool(data["chance"]),
        )


# ------------------------------------------------------------- walking a record


def _steps(record: GameRecord) -> Iterator[tuple[int, GameState, int | None, Action | None]]:
    """Each event of the record with the state before it: ``(event number, state, seat,
    action)``, the seat and action None for a chance step. The state is the live one,
    changed after each step: copy what must be kept. The record must replay (check it
    with :meth:`GameRecord.replay` first)."""
    state = replace(record, events=[], final_scores=None, finished=False).replay()
    labels = state.setup.labels
    for number, (who, text) in enumerate(record.events, start=1):
        if isinstance(who, str):
            yield number, state, None, None
            cards = tuple(parse_card(card, labels=labels) for card in str(text).split())
            state.apply_chance(ChanceOutcome(who, cards))
        else:
            action = Action.parse(str(text), labels=labels)
            yield number, state, int(who), action
            state.apply(int(who), action)


def _moments(record: GameRecord, seat: int) -> Iterator[tuple[Moment, Observation]]:
    """The seat's decisions with more than one legal choice: where each is, and the
    seat's observation just before it."""
    counted: dict[int, int] = {}
    for event, state, who, action in _steps(record):
        if who != seat or action is None:
            continue
        hand = state.hands_played + 1
        counted[hand] = counted.get(hand, 0) + 1
        obs = state.observe(seat)
        if len(obs.legal_actions) < 2:
            continue
        playing = obs.phase == "playing" or obs.tricks or obs.current_trick
        trick = len(obs.tricks) + 1 if playing else None
        labels = state.setup.labels
        made = action.text(labels=labels)
        yield Moment(hand, counted[hand], event, trick, made), obs


def reviewed_decisions(record: GameRecord, seat: int) -> list[Moment]:
    """Where the seat's decisions with more than one legal choice are in the record,
    without valuing them (a :class:`~tricktaker.engine.RecordError` if the record does
    not replay)."""
    record.replay()
    return [moment for moment, _ in _moments(record, seat)]


# ------------------------------------------------------------------ the review


def review_key(record: GameRecord, seat: int, *, seconds: float, deals: int | None) -> str:
    """The cache key of a review: a hash of the record's content (its JSON, keys sorted),
    the seat, the budget and :data:`REVIEW_VERSION`."""
    content = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"))
    budget = f"{REVIEW_VERSION}|{seat}|{seconds!r}|{deals!r}"
    return hashlib.sha256(f"{budget}|{content}".encode()).hexdigest()


def review_record(
    record: GameRecord,
    seat: int,
    *,
    seconds: float = 1.0,
    deals: int | None = None,
    progress: Progress | None = None,
    valuer: Valuer | None = None,
) -> Review:
    """Review ``seat``'s decisions in ``record``: every decision with more than one legal
    choice valued with ``seconds`` (or, when given, exactly ``deals`` deals) each, by
    ``valuer`` (default :func:`tricktaker.coach.values.hint`). ``progress`` is told how
    many decisions are done after each. A :class:`~tricktaker.engine.RecordError` if the
    record does not replay, ``ValueError`` for a seat it does not have."""
    if not 0 <= seat < record.players:
        raise ValueError(f"seat {seat + 1} is not a seat of this game (1 to {record.players})")
    from tricktaker.coach.values import UnreachableDecisionError, hint

    valuer = valuer or hint
    final = record.replay()
    total = len(list(_moments(record, seat)))
    decisions: list[ReviewedDecision] = []
    unvalued: list[Moment] = []
    if progress is not None:
        progress(0, total)
    for done, (moment, obs) in enumerate(_moments(record, seat), 1):
        try:
            valued = valuer(obs, seconds=seconds, seed=moment.event, deals=deals)
        except UnreachableDecisionError:
            unvalued.append(moment)
            continue
        finally:
            if progress is not None:
                progress(done, total)
        labels = obs.rules.joker_labels
        choices = tuple(
            ChoiceFigure(c.action.text(labels=labels), c.mean, c.stderr, c.make_chance)
            for c in sorted(valued.choices, key=lambda c: -c.mean)
        )
        samples = min((c.samples for c in valued.choices), default=0)
        decisions.append(ReviewedDecision(moment, choices, valued.exact, samples))
    unit = value_unit(final.rules)
    hands = tuple(
        _hand_review(number, decisions, final, seat, unit)
        for number in range(1, final.hands_played + (0 if final.is_terminal() else 1) + 1)
    )
    return Review(
        game=record.game,
        seat=seat,
        name=record.names[seat] if record.names is not None else None,
        unit=unit.name,
        seconds=seconds,
        deals=deals,
        model=MODEL,
        decisions=tuple(decisions),
        hands=tuple(hand for hand in hands if hand.decisions or hand.points is not None),
        key=review_key(record, seat, seconds=seconds, deals=deals),
        unvalued=tuple(unvalued),
        chance=unit.chance,
    )


def _figure(value: float, chance: bool = False) -> str:
    """A value as a sentence writes it: one decimal (a chance as a whole percentage,
    one decimal below 1%), a real minus sign for a loss.

    >>> _figure(-8.04), _figure(0.625, chance=True), _figure(-0.004, chance=True)
    ('−8.0', '62%', '−0.4%')
    """
    if chance:
        text = f"{value:.0%}" if abs(value) >= 0.01 or value == 0 else f"{value:.1%}"
    else:
        text = f"{value:.1f}"
    return text.replace("-", "\N{MINUS SIGN}")


def _hand_review(
    number: int,
    decisions: Sequence[ReviewedDecision],
    final: GameState,
    seat: int,
    unit: ValueUnit,
) -> HandReview:
    """Hand ``number`` of the review, with its sentence."""
    own = [d for d in decisions if d.moment.hand == number]
    points = (
        result_points(final.history[number - 1], seat, cooperative=final.setup.cooperative)
        if number <= len(final.history)
        else None
    )
    cost = sum(d.cost for d in own)
    return HandReview(
        number, len(own), cost, points, hand_sentence(own, unit.name, chance=unit.chance)
    )


def hand_sentence(
    decisions: Sequence[ReviewedDecision], unit: str = "points", *, chance: bool = False
) -> str:
    """A hand's decisions in a sentence: the bid against the hand's worth (the bid the
    coach would make) where the seat bid, then what the other choices cost (``chance``:
    the values are chances, written as percentages, a cost as so much ``on the`` chance).

    >>> bid = ReviewedDecision(
    ...     Moment(1, 1, 2, None, "bid 3"),
    ...     (ChoiceFigure("bid 2", 12.5, 0.4, 0.6), ChoiceFigure("bid 3", 4.5, 0.5, 0.2)),
    ...     exact=False, samples=200)
    >>> hand_sentence([bid])
    'bid 3 on a hand worth about 2: −8.0 points expected (4.5 against 12.5)'
    >>> coop = ReviewedDecision(
    ...     Moment(1, 1, 2, None, "bid 1"),
    ...     (ChoiceFigure("bid 0", 0.6, 0.03, 0.8), ChoiceFigure("bid 1", 0.2, 0.03, 0.3)),
    ...     exact=False, samples=200)
    >>> hand_sentence([coop], "chance the table is exact", chance=True)
    'bid 1 on a hand worth about 0: −40% on the chance the table is exact (20% against 60%)'
    """

    def figure(value: float) -> str:
        return _figure(value, chance)

    def expected(value: float) -> str:
        return f"{figure(value)} on the {unit}" if chance else f"{figure(value)} {unit} expected"

    if not decisions:
        return "no choice to make"
    bids = [d for d in decisions if d.moment.made.split()[0] == BID]
    others = [d for d in decisions if d not in bids]
    parts: list[str] = []
    if bids:
        bid = bids[0]
        made = bid.moment.made.split()[-1]
        worth = bid.best.action.split()[-1]
        if bid.cost > 0:
            parts.append(
                f"bid {made} on a hand worth about {worth}: {expected(-bid.cost)}"
                f" ({figure(bid.made.mean)} against {figure(bid.best.mean)})"
            )
        else:
            worth_text = (
                f"{figure(bid.made.mean)} {unit}" if chance else f"{figure(bid.made.mean)} expected"
            )
            parts.append(f"bid {made}, the coach's bid too ({worth_text})")
    if others:
        cost = sum(d.cost for d in others)
        choices = "choice" if len(others) == 1 else "choices"
        what = f"{len(others)} {'other ' if bids else ''}{choices}"
        if cost <= 0:
            parts.append(f"{what}, {'each ' if len(others) > 1 else ''}the coach's")
        else:
            worst = max(others, key=lambda d: d.cost)
            parts.append(
                f"{what} cost {expected(cost)} in all, the most at decision"
                f" {worst.moment.decision} ({worst.moment.made} where {worst.best.action}"
                f" was worth {figure(worst.cost)} more)"
            )
    return "; ".join(parts)


# ---------------------------------------------------------------------- the cache


def cache_path(record_path: Path) -> Path:
    """Where a record's reviews are kept: ``RECORD.review.json`` beside it."""
    return record_path.with_name(record_path.name + CACHE_SUFFIX)


def _cache_entries(path: Path) -> dict[str, Any]:
    """The reviews kept in a cache file, by key (none when the file is missing or not
    a cache of this version)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("format") != REVIEW_FORMAT + "-cache"
        or data.get("version") != REVIEW_VERSION
        or not isinstance(data.get("reviews"), dict)
    ):
        return {}
    return dict(data["reviews"])


def cached_review(
    record_path: Path,
    seat: int,
    *,
    seconds: float = 1.0,
    deals: int | None = None,
    progress: Progress | None = None,
    valuer: Valuer | None = None,
) -> tuple[Review, bool]:
    """The review of ``seat`` in the record at ``record_path``, and whether it came from
    the record's cache (:func:`cache_path`). A review computed is kept there (a cache
    that cannot be written is left alone: the review is still answered). A
    :class:`~tricktaker.engine.RecordError` for a record that cannot be read or replayed."""
    record = GameRecord.load(record_path)
    key = review_key(record, seat, seconds=seconds, deals=deals)
    path = cache_path(record_path)
    entries = _cache_entries(path)
    kept = entries.get(key)
    if isinstance(kept, dict):
        try:
            return Review.from_json(kept), True
        except (KeyError, TypeError, ValueError, StopIteration):
            pass  # a damaged entry: computed again and replaced
    review = review_record(
        record, seat, seconds=seconds, deals=deals, progress=progress, valuer=valuer
    )
    entries.pop(key, None)
    entries[key] = review.to_json()
    while len(entries) > CACHE_ENTRIES:
        entries.pop(next(iter(entries)))
    data = {"format": REVIEW_FORMAT + "-cache", "version": REVIEW_VERSION, "reviews": entries}
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)
    return review, False


__all__ = [
    "CACHE_SUFFIX",
    "TOP_LOSSES",
    "ChoiceFigure",
    "HandReview",
    "Moment",
    "Review",
    "ReviewedDecision",
    "cache_path",
    "cached_review",
    "hand_sentence",
    "review_key",
    "review_record",
    "reviewed_decisions",
]
