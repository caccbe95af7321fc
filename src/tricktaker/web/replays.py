"""A game record replayed by the engine into frames a replay page steps through.

A replay shows the whole game after it is over, so every hand is shown: each frame is
the table after one event of the record (a deal, a bid, a card, a pluck...), with every
seat's cards, the bids, the trick on the table, the tricks won and the scores. The
frames are marked where each hand begins and where each trick is complete, so that the
page can step event by event, trick by trick and hand by hand.

>>> from tricktaker.engine import new_game
>>> from tricktaker.rules import load_ruleset
>>> from tricktaker.bots import play_game, make_bot
>>> state = new_game(load_ruleset("blackout"), players=3, seed=1)
>>> _ = play_game(state, [make_bot("random", seed=s) for s in range(3)])
>>> replay = replay_json(state.record())
>>> replay["finished"], len(replay["frames"]) == len(state.events) + 1
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktaker.cards import (
    SUIT_NAMES,
    card_rank,
    card_suit,
    cards_of,
    format_card,
    is_joker,
    parse_card,
)
from tricktaker.engine import GameRecord, RecordError
from tricktaker.engine.actions import Action
from tricktaker.engine.state import ChanceOutcome, GameState, new_game
from tricktaker.present import CardText, game_lines, narrate, scorecard
from tricktaker.server.views import observation_json, public_view

Json = Any
"""Plain JSON data."""

MAX_EVENTS = 20_000
"""The most events a record may have to be replayed here (a long Bluke game has a few
thousand)."""


def sorted_hand(cards: Sequence[int], trump: int | None) -> list[int]:
    """A hand in the order a player holds it: jokers, then the trump suit, then the
    other suits, each from its highest card down."""
    suits = [trump] if trump is not None else []
    suits += [s for s in range(4) if s != trump]
    jokers = sorted((c for c in cards if is_joker(c)), reverse=True)
    out = list(jokers)
    for suit in suits:
        in_suit = [c for c in cards if not is_joker(c) and card_suit(c) == suit]
        out += sorted(in_suit, key=card_rank, reverse=True)
    return out


def _strip_common(extra: Mapping[str, Json], shared: Mapping[str, Json]) -> dict[str, Json]:
    """The keys of one seat's ``extra`` that the public ``extra`` lacks or shows otherwise."""
    return {k: v for k, v in extra.items() if shared.get(k) != v}


def frame(
    state: GameState, step: int, event: Sequence[Json] | None, names: Sequence[str]
) -> dict[str, Json]:
    """The table after ``step`` events (``event`` is the last one, as the record writes
    it: ``[seat, "bid 3"]`` or ``["deal", "AS 10H ..."]``), with every hand shown.

    ``lines`` are the game's own panel lines that every seat sees alike (Pluck's quotas,
    Euchre's contract, Buckup's pot), and ``seat_lines`` each seat's lines that only it
    sees (the kitty it took, the card it was given), all in the presentation layer's
    words."""
    labels = state.rules.joker_labels
    observations = [state.observe(s) for s in range(state.players)]
    views = [observation_json(obs, history=False) for obs in observations]
    text_of = CardText(labels=labels)
    panel_lines = [game_lines(obs, names, text_of) for obs in observations]
    common = [
        {"label": line.label, "text": line.public}
        for line in panel_lines[0]
        if line.public is not None and line.label != "Teams"
    ]
    private = [
        [
            {"label": line.label, "text": line.text}
            for line in lines
            if line.text != line.public and line.label != "Teams"
        ]
        for lines in panel_lines
    ]
    shared = public_view(views)
    trump = state.trump if state.trump_known else None
    over = state.is_terminal()
    hands = [
        [] if over else [format_card(c, labels=labels) for c in sorted_hand(cards_of(h), trump)]
        for h in state.hands
    ]
    extra = shared.get("extra") or {}
    actor: int | None = None
    chance: str | None = None
    text = ""
    if event is not None:
        who, what = event
        if isinstance(who, str):
            chance, text = who, what
        else:
            actor, text = int(who), str(what)
    return {
        "step": step,
        "actor": actor,
        "chance": chance,
        "action": text,
        "phase": state.phase_name,
        "hand_number": shared["hand_number"],
        "hands_played": state.hands_played,
        "hands_in_game": shared["hands_in_game"],
        "hand_size": state.hand_size,
        "dealer": state.dealer,
        "special": shared["special"],
        "call": shared["call"],
        "trump": SUIT_NAMES[trump] if trump is not None else None,
        "turn_up": shared["turn_up"],
        "hands": hands,
        "bids": list(state.bids),
        "tricks_won": list(state.tricks_won),
        "current_trick": [[s, format_card(c, labels=labels)] for s, c in state.trick],
        "trick_winners": list(state.trick_winners),
        "scores": list(state.scores),
        "to_act": list(state.to_act()),
        "extra": extra,
        "seat_extra": [_strip_common(v.get("extra") or {}, extra) for v in views],
        "lines": common,
        "seat_lines": private,
    }


def replay_json(record: GameRecord, names: Sequence[str] | None = None) -> dict[str, Json]:
    """The record replayed into frames (see the module's docstring), the seats called
    ``names`` (default ``Seat 0``, ``Seat 1``... as the command line calls them).

    Answers ``game``, ``name``, ``players``, ``names``, ``seed``, ``options``,
    ``finished``, ``final_scores``, ``winners``, ``frames`` (frame 0 is the table before
    the first event; each frame's ``narration`` says what its event did, in the words of
    :mod:`tricktaker.present` as the seat that acted saw it), ``hands`` (each hand: its
    ``number``, the ``frame`` where it begins, the ``tricks`` (the frame where each
    trick is complete, its cards and its winner), the ``result`` as the record's hand
    results give it, and ``end``, the frame where it ends) and the ``scorecard`` of the
    whole game (as the presentation layer writes it for every client).

    Raises :class:`~tricktaker.engine.RecordError` for a record that does not replay.
    """
    if len(record.events) > MAX_EVENTS:
        raise RecordError(f"the record has {len(record.events)} events, more than {MAX_EVENTS}")
    state = record.replay()  # checks the whole record first, with the engine's messages
    labels = state.rules.joker_labels
    final = state
    given = record.first_dealer if record.first_dealer_given else None
    state = new_game(final.rules, players=record.players, seed=record.seed, first_dealer=given)
    seats = list(names) if names is not None else [f"Seat {s}" for s in range(record.players)]
    if len(seats) != record.players:
        raise ValueError(f"{len(seats)} names for {record.players} seats")
    text_of = CardText(labels=labels)
    frames = [frame(state, 0, None, seats)]
    frames[0]["narration"] = []
    hands: list[dict[str, Json]] = []
    for step, (who, text) in enumerate(record.events, start=1):
        played_before = state.hands_played
        tricks_before = len(state.trick_cards)
        if not hands or hands[-1]["number"] != state.hands_played + 1:
            hands.append({"number": state.hands_played + 1, "frame": step - 1, "tricks": []})
        actor = None if isinstance(who, str) else int(who)
        before = state.observe(actor if actor is not None else 0)
        action = None
        if actor is None:
            cards = tuple(parse_card(c, labels=labels) for c in text.split())
            state.apply_chance(ChanceOutcome(str(who), cards))
        else:
            action = Action.parse(text, labels=labels)
            state.apply(actor, action)
        after = state.observe(actor if actor is not None else 0)
        lines = narrate(before, after, seats, text_of, actor=actor, action=action)
        shown = frame(state, step, [who, text], seats)
        # A chance step is told as everyone is told it; an action as its actor saw it.
        said = [line.text if actor is not None else line.public for line in lines]
        shown["narration"] = [line for line in said if line]
        frames.append(shown)
        if state.hands_played > played_before:  # the hand ended with this event
            result = state.history[-1]
            if len(result.trick_cards) > len(hands[-1]["tricks"]):
                last = result.trick_cards[-1]
                hands[-1]["tricks"].append(
                    {
                        "frame": step,
                        "cards": [[s, format_card(c, labels=labels)] for s, c in last],
                        "winner": result.trick_winners[-1],
                    }
                )
            hands[-1]["result"] = result.to_json(labels=labels)
            hands[-1]["end"] = step
        elif len(state.trick_cards) > tricks_before:
            last = state.trick_cards[-1]
            hands[-1]["tricks"].append(
                {
                    "frame": step,
                    "cards": [[s, format_card(c, labels=labels)] for s, c in last],
                    "winner": state.trick_winners[-1],
                }
            )
    return {
        "game": record.game,
        "name": final.rules.name,
        "players": record.players,
        "names": seats,
        "seed": record.seed,
        "options": dict(final.rules.options),
        "partnerships": [list(team) for team in final.setup.partnerships],
        "cooperative": final.setup.cooperative,
        "finished": final.is_terminal(),
        "final_scores": list(final.scores),
        "winners": final.winners() if final.is_terminal() else [],
        "frames": frames,
        "hands": hands,
        "scorecard": scorecard(
            final.history,
            seats,
            text_of,
            final.setup.partnerships,
            cooperative=final.setup.cooperative,
            hooks=final.rules.spec.hooks,
        ).to_json(),
    }
