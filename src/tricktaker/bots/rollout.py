"""The search's rollout card policy, one for every game.

A rollout sees every hand and plays the cards greedily (:func:`greedy_card`): a seat
that wants the trick wins it as cheaply as it surely can, and one that does not plays
its strongest losing card. What differs between games is only *whether* a seat wants
the trick, which each game's rollout says: in the Oh Hell family while the seat is
short of its bid (never in a misere hand); in a game where every trick counts (tricks
above a quota, chips per trick, a partnership's points: :func:`rollout_card`), always,
unless a partner already holds the trick against everyone still to play
(:func:`partner_holds`). The compiled kernel's rollouts (``kernel/policy.cpp``) play the
same cards, ties included.

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("blackout"), players=4, seed=1)
>>> state.apply_chance()
>>> seat = state.to_act()[0]
>>> while state.phase_name == "bidding":
...     seat = state.to_act()[0]
...     state.apply(seat, state.legal_actions(seat)[0])
>>> seat = state.to_act()[0]
>>> greedy_card(state, seat, state.legal_actions(seat), want=True) in state.legal_actions(seat)
True
"""

from __future__ import annotations

from typing import Literal

from tricktaker.engine.actions import PLAY, Action
from tricktaker.engine.state import GameState
from tricktaker.engine.tables import CardTables, build_tables

__all__ = ["Unsure", "greedy_card", "partner_holds", "rollout_card"]

_NO_TRUMP = build_tables(trump=None, jokers_as_trump=False)

Unsure = Literal["strongest", "lowest"]
"""What a seat that wants the trick but cannot be sure to win it plays (:func:`greedy_card`)."""


def _reply_strength(state: GameState, seat: int, led: int, tables: CardTables) -> int:
    """The strongest card ``seat`` could legally play to a trick led in ``led``."""
    setup = state.setup
    return tables.strongest_reply(
        state.hands[seat], led, follow_suit=setup.follow_suit, must_trump=setup.must_trump
    )


def _threat(state: GameState, seat: int, led: int, tables: CardTables) -> int:
    """The strongest card any seat still to play after ``seat`` could add to the trick."""
    best = 0
    nxt = state.next_active(seat)
    end = state.trick[0][0] if state.trick else seat
    while nxt != end:
        strength = _reply_strength(state, nxt, led, tables)
        if strength > best:
            best = strength
        nxt = state.next_active(nxt)
    return best


def greedy_card(
    state: GameState,
    seat: int,
    actions: list[Action],
    *,
    want: bool,
    unsure: Unsure = "strongest",
) -> Action:
    """The card a greedy player who sees every hand picks.

    Wanting the trick: the cheapest card sure to win it (no one still to play can beat
    it); else, with ``unsure="strongest"`` (the Oh Hell family: a trick short of the bid
    is worth a try), the strongest card that wins it so far (the strongest card when
    leading), or with ``unsure="lowest"`` (games where every trick counts: keep the
    high cards for a sure trick), the lowest card; and the lowest card when none wins.
    Not wanting it: the strongest card that loses it so far (when leading: the lowest
    card), else, when every card wins, the lowest (the highest when last to play)."""
    tables: CardTables = state.tables or _NO_TRUMP
    cards = [int(a.value) for a in actions]
    trick = state.trick
    key = tables.key
    if not trick:
        suit_of = tables.suit_of
        if want:
            threats: dict[int, int] = {}
            sure = []
            for card in cards:
                led = suit_of[card]
                if led not in threats:
                    threats[led] = _threat(state, seat, led, tables)
                if key(card, led) > threats[led]:
                    sure.append(card)
            if sure:
                return Action(PLAY, min(sure, key=lambda c: (key(c, suit_of[c]), c)))
        ranked = sorted(cards, key=lambda c: key(c, suit_of[c]))
        return Action(PLAY, ranked[-1] if want and unsure == "strongest" else ranked[0])
    led = tables.suit_of[trick[0][1]]
    best = max(key(c, led) for _, c in trick)
    last = len(trick) == state.players - 1 or state.next_active(seat) == trick[0][0]
    ranked = sorted(cards, key=lambda c: (key(c, led), tables.rank_of[c]))
    winners = [c for c in ranked if key(c, led) > best]
    losers = [c for c in ranked if key(c, led) <= best]
    if want:
        if winners:
            if last:
                return Action(PLAY, winners[0])
            threat = _threat(state, seat, led, tables)
            for card in winners:
                if key(card, led) > threat:
                    return Action(PLAY, card)
            return Action(PLAY, winners[-1] if unsure == "strongest" else ranked[0])
        return Action(PLAY, losers[0])
    if losers:
        return Action(PLAY, losers[-1])
    return Action(PLAY, winners[-1] if last else winners[0])


def partner_holds(state: GameState, seat: int) -> bool:
    """Whether a partner of ``seat`` holds the trick in progress against every
    opponent still to play (so ``seat`` need not win it)."""
    trick = state.trick
    if not trick:
        return False
    team = next((t for t in state.setup.partnerships if seat in t), ())
    if len(team) < 2:
        return False
    tables: CardTables = state.tables or _NO_TRUMP
    led = tables.suit_of[trick[0][1]]
    best, holder = -1, -1
    for s, card in trick:
        strength = tables.key(card, led)
        if strength > best:
            best, holder = strength, s
    if holder not in team:
        return False
    end = trick[0][0]
    nxt = state.next_active(seat)
    while nxt != end:
        if nxt not in team and _reply_strength(state, nxt, led, tables) > best:
            return False
        nxt = state.next_active(nxt)
    return True


def rollout_card(state: GameState, seat: int, actions: list[Action]) -> Action:
    """The rollout's card in a game where every trick counts: win it when the seat
    surely can, unless a partner already holds it, else play low
    (:func:`greedy_card` with ``unsure="lowest"``, :func:`partner_holds`)."""
    want = not partner_holds(state, seat)
    return greedy_card(state, seat, actions, want=want, unsure="lowest")
