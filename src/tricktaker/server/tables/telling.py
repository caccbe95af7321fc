"""Telling the sockets of a table what happened: each stored event with each receiver's
view after it, live (:func:`tell_events`) or again for a client that reconnects and
resumes (:func:`replayed`). The views are the seats' observations
(:mod:`tricktaker.server.tables.views`); a spectator's is their public part."""

from __future__ import annotations

from tricktaker.cards import parse_card
from tricktaker.engine import Action, ChanceOutcome, GameState
from tricktaker.engine.observation import Observation
from tricktaker.server.tables import messages as m
from tricktaker.server.tables.live import Live, Subscriber
from tricktaker.server.tables.store import StoredEvent
from tricktaker.server.tables.undo import effective, undo_of
from tricktaker.server.tables.views import (
    Json,
    common,
    event_present,
    event_views,
    observation_json,
    public_view,
    seat_names_of,
)


def step(state: GameState, e: StoredEvent, labels: tuple[str, str]) -> Action | None:
    """Apply stored event ``e`` to ``state``; the action, if a seat took it."""
    if isinstance(e.who, str):
        cards = tuple(parse_card(c, labels=labels) for c in e.text.split())
        state.apply_chance(ChanceOutcome(e.who, cards))
        return None
    action = Action.parse(e.text, labels=labels)
    state.apply(e.who, action)
    return action


def hand_results(
    observations: list[Observation], ended: bool, labels: tuple[str, str]
) -> list[dict[str, Json] | None]:
    """Each observation's last finished hand as JSON when the event ended a hand (else
    None): written once for the seats whose history holds the same hand (the seats
    that see it alike)."""
    results: list[dict[str, Json] | None] = [None] * len(observations)
    if ended:
        written: dict[int, dict[str, Json]] = {}
        for s, obs in enumerate(observations):
            hand = obs.history[-1]
            result = written.get(id(hand))
            if result is None:
                result = written[id(hand)] = hand.to_json(labels=labels)
            results[s] = result
    return results


def tell_events(
    live: Live,
    before: GameState,
    after: GameState,
    stored: list[StoredEvent],
    by: Subscriber | None = None,
    steps: list[GameState] | None = None,
) -> None:
    """Send each stored event (the events that made ``after`` of ``before``) to each
    socket with the receiver's view after it. A lone event is told from ``after``;
    several from ``steps`` (the states between them, when the first event's state and
    every chance step's were kept) or else by stepping a copy of ``before`` through
    them. The action's event carries its id to ``by``, the socket it came from, when
    that socket asked (``event_acks``)."""
    if not live.subscribers or not stored:
        return
    if len(stored) == len(steps or ()) + 1:
        hands = len(before.history)
        previous: GameState | None = before
        for e, now in zip(stored, [*(steps or ()), after], strict=True):
            tell_event(live, e, now, hands, by, previous)
            hands, previous = len(now.history), None
        return
    state = before.clone()
    labels = state.rules.joker_labels
    for index, e in enumerate(stored):
        hands = len(state.history)
        first = before if index == 0 else None
        step(state, e, labels)
        tell_event(live, e, state, hands, by, first)


def tell_event(
    live: Live,
    e: StoredEvent,
    state: GameState,
    hands: int,
    by: Subscriber | None = None,
    before: GameState | None = None,
) -> None:
    """Send event ``e`` with each receiver's view of ``state``, the state after it
    (``hands``: the hands finished before it; ``before``: the state before it, when
    known, which narrates it after a gap). Each seat's view is built once, from
    its own observation; the spectators' only when one is listening. ``by`` (the
    socket the action came from) gets the action's id in it if it asked."""
    ended = len(state.history) > hands
    observations = state.observe_all()
    views, shared = event_views(live, e, observations, before)
    results = hand_results(observations, ended, state.rules.joker_labels)
    public: dict[str, Json] | None = None
    public_result: dict[str, Json] | None = None
    actor = e.who if isinstance(e.who, int) else None
    chance = e.who if isinstance(e.who, str) else None
    for sub in list(live.subscribers):
        seat = sub.seat
        if seat is None:
            if public is None:
                public = public_view(views)
                public_result = common(results) if ended else None
            view, result = public, public_result
        else:
            view, result = views[seat], results[seat]
        message = m.event_message(
            e.seq,
            e.game_number,
            actor,
            chance,
            e.text if seat is not None and seat == e.who else None,
            view,
            result,
        )
        if sub is by and e.client_id is not None and by.event_acks:
            message["id"] = e.client_id
        sub.push(message, shared)  # a socket whose view does not hold it ignores it


def replayed(
    live: Live, state: GameState, seat: int | None, last_seq: int, events: list[StoredEvent]
) -> list[dict[str, Json]] | None:
    """The ``resumed`` message and the events after ``last_seq``, rebuilt from the
    stored events by stepping ``state`` (the game's start) through them, each with the
    receiver's own view (a spectator's: the public view), as they were sent live. None
    when ``last_seq`` is not in the current game, or an undo came after it (a welcome
    answers instead)."""
    d = live.data
    if not events or events[-1].seq != d.seq:
        return None
    if any(e.seq > last_seq and undo_of(e) is not None for e in events):
        return None  # an undo since: a welcome answers
    events = effective(events)[0]
    if not events or last_seq < events[0].seq:
        return None
    labels = state.rules.joker_labels
    seats = list(range(state.players)) if seat is None else [seat]
    names = seat_names_of(live)
    out: list[dict[str, Json]] = [
        m.Resumed(seat=seat, last_seq=last_seq, seq=d.seq, table=live.info()).model_dump()
    ]
    previous: dict[int, Observation | None] = {}
    for e in events:
        if e.seq > last_seq and not previous:
            # As live: the first event told is narrated from the view held before it.
            previous = {s: state.observe(s) for s in seats}
        hands = len(state.history)
        action = step(state, e, labels)
        if e.seq <= last_seq:
            continue
        ended = len(state.history) > hands
        actor = e.who if isinstance(e.who, int) else None
        observations = [state.observe(s) for s in seats]
        views: list[dict[str, Json]] = []
        for s, obs in zip(seats, observations, strict=True):
            view = observation_json(obs, history=False)
            before = previous[s]
            view["present"] = event_present(obs, names, before, actor, action)
            previous[s] = obs
            views.append(view)
        results = hand_results(observations, ended, labels)
        out.append(
            m.event_message(
                e.seq,
                e.game_number,
                actor,
                e.who if isinstance(e.who, str) else None,
                e.text if seat is not None and seat == e.who else None,
                views[0] if seat is not None else public_view(views),
                results[0] if seat is not None else (common(results) if ended else None),
            )
        )
    return out
