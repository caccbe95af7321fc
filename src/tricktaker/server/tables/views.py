"""What a socket may receive: a seat's own observation as JSON, and the public view.

Every view a seat receives is built only from ``state.observe(seat)``, the same window
the bots have. A spectator's view is the part that every seat's observation shows alike
(:func:`public_view`): a value is public when all seats see the same value, so a
spectator never learns what any one seat may not know. The public fields are listed in
``docs/protocol.md``.

Each view also carries a ``present`` block (:func:`tricktaker.present.present_json`):
the scorecard, the narration since the seat's previous view, the game's panel and the
seat rows, computed from the same observation; a spectator's is the common part of all
seats' blocks (:func:`tricktaker.present.public_present`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from tricktaker.cards import SUIT_NAMES, cards_of, format_card
from tricktaker.engine import Action
from tricktaker.engine.observation import SHARED_FIELDS, Observation
from tricktaker.engine.state import GameState
from tricktaker.present import PresentMemo, present_json, public_present
from tricktaker.server.tables.names import seat_names

if TYPE_CHECKING:
    from tricktaker.server.tables.live import Live
    from tricktaker.server.tables.store import StoredEvent

Json = Any
"""Plain JSON data (dicts, lists, text, numbers, booleans, None)."""


def observation_json(
    obs: Observation, *, history: bool = True, memo: ViewMemo | None = None
) -> dict[str, Json]:
    """``obs`` as JSON: cards written ``AS``, ``10H`` (the game's joker names), actions
    as in records (``bid 3``, ``play QD``). ``history`` adds the finished hands.
    ``memo``: the table's (its tricks and hands written once)."""
    data = shared_json(obs, memo)
    data.update(own_json(obs, memo))
    if history:
        names = obs.rules.joker_labels
        data["history"] = [h.to_json(labels=names) for h in obs.history]
    return data


def shared_json(obs: Observation, memo: ViewMemo | None = None) -> dict[str, Json]:
    """The part of ``obs``'s JSON written from its shared fields only
    (:data:`~tricktaker.engine.observation.SHARED_FIELDS`, what every seat sees alike);
    ``memo``: the table's, whose finished tricks are written once."""
    names = obs.rules.joker_labels
    tricks = memo.tricks if memo is not None else None
    turn_up = obs.turn_up
    return {
        "players": obs.players,
        "phase": obs.phase,
        "hand_number": obs.hand_number,
        "hands_in_game": obs.hands_in_game,
        "hands_played": obs.hands_played,
        "hand_size": obs.hand_size,
        "dealer": obs.dealer,
        "special": obs.special,
        "call": _plain(obs.call),
        "trump": SUIT_NAMES[obs.trump] if obs.trump is not None else None,
        "trump_known": obs.trump_known,
        "turn_up": format_card(turn_up, labels=names) if turn_up is not None else None,
        "bid_made": list(obs.bid_made),
        "hook": obs.hook,
        "misere": obs.misere,
        "pile": obs.pile,
        "tricks_won": list(obs.tricks_won),
        "current_trick": [[s, format_card(c, labels=names)] for s, c in obs.current_trick],
        "leader": obs.leader,
        "tricks": [_trick_json(trick, names, tricks) for trick in obs.tricks],
        "trick_winners": list(obs.trick_winners),
        "trump_broken": obs.trump_broken,
        "scores": list(obs.scores),
        "to_act": list(obs.to_act),
        "cooperative": obs.cooperative,
        "dealer_draw": [[s, format_card(c, labels=names)] for s, c in obs.dealer_draw],
        "partnerships": [list(team) for team in obs.partnerships],
        "active": list(obs.active) if obs.active is not None else None,
    }


def own_json(obs: Observation, memo: ViewMemo | None = None) -> dict[str, Json]:
    """The part of ``obs``'s JSON that is the seat's own (without the history);
    ``memo``: the table's, whose hands are written once."""
    names = obs.rules.joker_labels
    hands = memo.hands if memo is not None else None
    return {
        "seat": obs.seat,
        "hand": _hand_json(obs.hand, names, hands) if obs.hand is not None else None,
        "cards_in_hand": obs.cards_in_hand,
        "bids": list(obs.bids),
        "legal_actions": [a.text(labels=names) for a in obs.legal_actions],
        "extra": _plain(obs.extra),
    }


TRICKS_KEPT = 256
"""Finished tricks' JSON a table keeps (:attr:`ViewMemo.tricks`): a few hands' worth."""

HANDS_KEPT = 64
"""Hands' JSON a table keeps (:attr:`ViewMemo.hands`): each seat's latest few."""


def _trick_json(
    trick: tuple[tuple[int, int], ...],
    names: tuple[str, str],
    kept: dict[tuple[Any, ...], list[list[Json]]] | None,
) -> list[list[Json]]:
    """A finished trick's JSON; ``kept``: the table's written tricks, by the trick (its
    seats and cards) and the joker names, the inputs read here."""
    if kept is None:
        return [[s, format_card(c, labels=names)] for s, c in trick]
    key = (trick, names)
    hit = kept.get(key)
    if hit is None:
        if len(kept) >= TRICKS_KEPT:
            kept.clear()
        hit = kept[key] = [[s, format_card(c, labels=names)] for s, c in trick]
    return hit


def _hand_json(
    hand: int, names: tuple[str, str], kept: dict[tuple[int, Any], list[str]] | None
) -> list[str]:
    """A hand's cards as JSON; ``kept``: the table's written hands, by the hand (a set
    of cards) and the joker names, the inputs read here."""
    if kept is None:
        return [format_card(c, labels=names) for c in cards_of(hand)]
    key = (hand, names)
    hit = kept.get(key)
    if hit is None:
        if len(kept) >= HANDS_KEPT:
            kept.clear()
        hit = kept[key] = [format_card(c, labels=names) for c in cards_of(hand)]
    return hit


def _plain(value: Json) -> Json:
    """``value`` with tuples, frozen lists and mappings turned into plain lists and dicts."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


_MISSING = object()


def common(values: list[Json]) -> Json:
    """The part of ``values`` that all of them share: equal values are kept; dicts keep
    each key every one has (with the common part of its values); lists of one length are
    compared item by item; anything else that differs becomes None."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: common([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [common([v[i] for v in values]) for i in range(len(first))]
    return None


def seat_views(state: GameState, *, history: bool = True) -> list[dict[str, Json]]:
    """Each seat's own view, in seat order."""
    return [observation_json(state.observe(s), history=history) for s in range(state.players)]


def public_view(views: list[dict[str, Json]]) -> dict[str, Json]:
    """The spectators' view: what every seat's view shows alike. ``seat`` and ``hand``
    are None and ``legal_actions`` empty; ``to_act`` is public (everyone sees whose turn
    it is)."""
    private = ("seat", "legal_actions", "hand", "present")
    shared = {k: v for k, v in views[0].items() if k not in private}
    for key in shared:
        shared[key] = common([view[key] for view in views])
    shared["seat"] = None
    shared["hand"] = None
    shared["legal_actions"] = []
    if all("present" in view for view in views):
        shared["present"] = public_present([view["present"] for view in views], common)
    return shared


# ------------------------------------------------------------ presentation


def seat_names_of(live: Live) -> list[str]:
    """The table's seat names, as people see them
    (:func:`~tricktaker.server.tables.names.seat_names`)."""
    return seat_names(live.data.seats)


def seat_view(live: Live, obs: Observation, opening: Observation | None = None) -> dict[str, Json]:
    """A seat's whole view (a ``welcome``): its observation with history, and its
    ``present`` block with the scorecard; narrated from ``opening`` (the seat's view
    before the game's first deal) when given, so that a welcome at the start of a game
    tells the first hand's heading, deal and trump; else with no narration."""
    view = observation_json(obs, memo=live.views)
    view["present"] = present_json(obs, seat_names_of(live), opening)
    return view


@dataclass(slots=True)
class ViewMemo:
    """What a table's views share, kept with the table (its live object holds one):
    the last event each seat's view was built for, so that the next event's narration
    is told from the seat's previous observation (no replay, no extra observation), and
    the parts of the views that the seats and events share (:class:`PresentMemo`, the
    JSON of the shared fields, finished tricks and hands)."""

    game_number: int = -1
    seq: int = -1
    last: dict[int, Observation] = field(default_factory=dict)
    present: PresentMemo = field(default_factory=PresentMemo)
    shared: dict[str, Json] | None = None
    """The JSON of the shared fields last written (:func:`shared_json`)."""
    tricks: dict[tuple[Any, ...], list[list[Json]]] = field(default_factory=dict)
    """Finished tricks' JSON, by trick and joker names (at most :data:`TRICKS_KEPT`):
    every seat's observation, and every later one of the hand, holds the same tricks,
    so each is written once, not once per seat and event (about a tenth of the
    server's time under load, bench/server_load.py)."""
    hands: dict[tuple[int, Any], list[str]] = field(default_factory=dict)
    """Hands' JSON, by hand and joker names (at most :data:`HANDS_KEPT`): a seat's hand
    is the same from one event to the next until it plays."""


_SHARED_OF = attrgetter(*SHARED_FIELDS)
"""An observation's shared fields, as a tuple."""


@dataclass(frozen=True, slots=True)
class SharedPart:
    """The JSON of one event's shared fields (:func:`shared_json`), put in every seat's
    view whose shared fields equal those it was written from (:attr:`seats`), and which
    of its values differ from the table's event before (:attr:`before`): the changes a
    socket whose last view held ``before`` receives of them (:func:`view_delta`)."""

    part: dict[str, Json]
    before: dict[str, Json] | None
    """The table's shared part of the event before (None: none known)."""
    changed: dict[str, Json]
    """The keys of :attr:`part` whose values differ from :attr:`before`'s."""
    seats: frozenset[int]
    """The seats whose views hold :attr:`part`."""
    rows: list[Any] = field(default_factory=lambda: [None, None, None])
    """The last seat rows of this event's views compared (before, after) and their
    changes (:func:`view_delta`): the seats of one event share their rows
    (:class:`~tricktaker.present.PresentMemo`), so the changes are found once an
    event, not once a socket."""


def _shared_part(seen: ViewMemo, obs: Observation) -> tuple[dict[str, Json], dict[str, Json]]:
    """:func:`shared_json` of ``obs``, each value the very object written before when
    it is equal to it (so that the seats' views, and the next event's, share it: a value
    that is not the object written before differs from it), and the values that differ."""
    part = shared_json(obs, seen)
    before = seen.shared
    if before is None:
        changed = part
    else:
        changed = {}
        for key, value in part.items():
            was = before[key]
            if was is value or was == value:
                part[key] = was
            else:
                changed[key] = value
    seen.shared = part
    return part, changed


def event_present(
    obs: Observation,
    names: Any,
    previous: Observation | None,
    actor: int | None,
    action: Action | None,
    memo: PresentMemo | None = None,
) -> dict[str, Json]:
    """The ``present`` block of a view told with an event: what changed since
    ``previous`` (the receiver's observation before it), with the score sheet when
    there was none before or a hand has ended since. Live and replayed events alike."""
    return present_json(
        obs,
        names,
        previous,
        actor=actor,
        action=action,
        with_scorecard=previous is None or previous.hands_played != obs.hands_played,
        memo=memo,
    )


def event_views(
    live: Live,
    event: StoredEvent,
    observations: list[Observation],
    before: GameState | None = None,
) -> tuple[list[dict[str, Json]], SharedPart]:
    """Each seat's view after ``event`` (no history), in the order of ``observations``
    (one per seat, as :meth:`~tricktaker.engine.GameState.observe_all` gives them), with
    its ``present`` block: the narration from the seat's view of the event before, and
    the scorecard only when a hand has ended (else None: the last one still holds).
    After a gap (the first event of a game, which follows the welcome of its deal, or
    the first after events told while no socket listened, or after an undo), the seat's
    view before is its observation of ``before``, the state the event was applied to:
    the view a welcome gave it (without ``before``, none: no narration, the scorecard).

    The JSON of the shared fields is written once (the :class:`SharedPart`) and put in
    each seat's view whose shared fields equal those it was written from; a view whose
    do not (observations not made together) is written from its own observation alone."""
    seen = live.views
    if seen.seq != event.seq - 1 or seen.game_number != event.game_number:
        seen.last.clear()
        if before is not None:
            seen.last.update((s, before.observe(s)) for s in range(before.players))
    seen.game_number, seen.seq = event.game_number, event.seq
    actor = event.who if isinstance(event.who, int) else None
    first = observations[0]
    action = None
    if actor is not None:
        action = Action.parse(event.text, labels=first.rules.joker_labels)
    key = _SHARED_OF(first)
    shared_before = seen.shared
    part, changed = _shared_part(seen, first)
    names = seat_names_of(live)
    views = []
    holding = []
    for obs in observations:
        if obs is first or _SHARED_OF(obs) == key:
            view = dict(part)
            view.update(own_json(obs, seen))
            holding.append(obs.seat)
        else:
            view = observation_json(obs, history=False, memo=seen)
        previous = seen.last.get(obs.seat)
        seen.last[obs.seat] = obs
        view["present"] = event_present(obs, names, previous, actor, action, seen.present)
        views.append(view)
    return views, SharedPart(part, shared_before, changed, frozenset(holding))


# ------------------------------------------------------------ views as changes


def view_delta(
    last: dict[str, Json],
    view: dict[str, Json],
    shared: SharedPart | None = None,
    last_shared: dict[str, Json] | None = None,
) -> tuple[dict[str, Json], list[str]] | None:
    """``view`` as its changes from ``last`` (docs/protocol.md, Views as changes): the
    top-level keys whose values differ or are new, the ``present`` block's changed keys
    only (its ``seats`` as the changed fields of each changed row), and the keys gone.
    None when the ``present`` blocks cannot be merged key by key (one missing, or their
    keys differ): the whole view is sent then.

    ``shared``: the shared part ``view`` holds, when it holds one, and ``last_shared``
    the one ``last`` holds: when that is the part of the table's event before, the
    shared keys' changes are known (:attr:`SharedPart.changed`) and only the seat's own
    keys are compared."""
    get = last.get
    if shared is not None and last_shared is not None and shared.before is last_shared:
        delta = dict(shared.changed)
        for k in _OWN_KEYS:
            v = view[k]
            if (old := get(k, _MISSING)) is not v and old != v:
                delta[k] = v
        removed: list[str] = []
    else:
        delta = {k: v for k, v in view.items() if (old := get(k, _MISSING)) is not v and old != v}
        removed = [] if last.keys() == view.keys() else [k for k in last if k not in view]
    present = delta.get("present")
    if present is not None or "present" in removed:
        old = last.get("present", _MISSING)
        if old is _MISSING:
            return delta, removed
        if not (isinstance(old, dict) and isinstance(present, dict)):
            return None
        if old.keys() != present.keys():
            return None
        changed = {k: v for k, v in present.items() if (was := old[k]) is not v and was != v}
        seats = changed.get("seats")
        if seats is not None:
            before = old["seats"]
            hit = shared.rows if shared is not None else None
            if hit is not None and hit[0] is before and hit[1] is seats:
                rows = hit[2]
            else:
                rows = _row_changes(before, seats)
                if hit is not None:
                    hit[:] = [before, seats, rows]
            if rows is not None:
                changed["seats"] = rows
        delta["present"] = changed
    return delta, removed


_OWN_KEYS = ("seat", "hand", "cards_in_hand", "bids", "legal_actions", "extra", "present")
"""The keys of an event's view that are not its shared part's (:func:`own_json`, and
the ``present`` block)."""


def _row_changes(before: Json, now: Json) -> dict[str, dict[str, Json]] | None:
    """The seat rows ``now`` as the changed fields of each changed row, by seat number
    (as text); None when they are not rows of the same seats with the same fields."""
    if not (isinstance(before, list) and isinstance(now, list)) or len(before) != len(now):
        return None
    changes: dict[str, dict[str, Json]] = {}
    for index, (old, new) in enumerate(zip(before, now, strict=True)):
        if old is new or old == new:
            continue
        if not (isinstance(old, dict) and isinstance(new, dict)) or old.keys() != new.keys():
            return None
        changes[str(index)] = {k: v for k, v in new.items() if old[k] != v}
    return changes


def apply_delta(
    last: dict[str, Json], delta: dict[str, Json], removed: list[str]
) -> dict[str, Json]:
    """The view that ``delta`` and ``removed`` make of ``last`` (a new dict; ``last`` is
    left as it was): what a client does with an event of protocol 1.1."""
    view = {key: value for key, value in last.items() if key not in removed}
    for key, value in delta.items():
        held = view.get(key)
        if key == "present" and isinstance(held, dict):
            block = dict(held)
            for part, now in value.items():
                if part == "seats" and isinstance(now, dict):
                    rows = list(block["seats"])
                    for seat, fields in now.items():
                        rows[int(seat)] = {**rows[int(seat)], **fields}
                    now = rows
                block[part] = now
            view[key] = block
        else:
            view[key] = value
    return view
