"""The search's rollout card policy, one for every game.

A rollout sees every hand and plays the cards greedily (:func:`greedy_card`): a seat
that wants the trick wins it as cheaply as it surely can, and one that does not plays
its strongest losing card. What differs between games is only *whether* a seat wants
the trick and what it tries when it cannot be sure to win it:

- in the Oh Hell family (``search_ohhell``) a seat wants the trick while it is short of
  its bid, and once over it where a trick more scores more (a point a trick: a lost bid
  takes what it can; never in a misere hand), and unsure, plays the strongest card that
  wins the trick so far (a trick short of the bid is worth a try);
- in a game where every trick counts (tricks above a quota, chips per trick, a
  partnership's points: Pluck, Buckup, Euchre's card play; :func:`rollout_card`), a seat
  always wants the trick, unless a partner already holds it against everyone still to
  play (:func:`partner_holds`), and unsure, plays what :data:`EVERY_TRICK_UNSURE` says.

No game has a card policy of its own. The compiled kernel's rollouts
(``kernel/policy.cpp``) play the same cards, ties included: the Oh Hell family's, and
:func:`rollout_card` in the hook games whose card play it searches (the differential
tests, ``tests/kernel/test_differential.py``, compare them move by move).

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

__all__ = ["EVERY_TRICK_UNSURE", "Unsure", "greedy_card", "partner_holds", "rollout_card"]

_NO_TRUMP = build_tables(trump=None, jokers_as_trump=False)

Unsure = Literal["strongest", "lowest"]
"""What a seat that wants the trick but cannot be sure to win it plays (:func:`greedy_card`)."""

EVERY_TRICK_UNSURE: Unsure = "lowest"
"""What a seat plays in a game where every trick counts (:func:`rollout_card`) when it
wants the trick but cannot be sure to win it: the lowest card, keeping the high cards
for a trick they surely take (the kernel's ``EVERY_TRICK_STRONGEST`` is the same
choice). Measured against "strongest" in arena head-to-heads (bench/README.md, "One
rollout card policy")."""


def _threat(state: GameState, seat: int, led: int, tables: CardTables) -> int:
    """The strongest card any seat still to play after ``seat`` could add to the trick."""
    setup = state.setup
    follow_suit, must_trump = setup.follow_suit, setup.must_trump
    reply, hands, next_active = tables.strongest_reply, state.hands, state.next_active
    best = 0
    nxt = next_active(seat)
    end = state.trick[0][0] if state.trick else seat
    while nxt != end:
        strength = reply(hands[nxt], led, follow_suit=follow_suit, must_trump=must_trump)
        if strength > best:
            best = strength
        nxt = next_active(nxt)
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
    trump_key, suit_of, rank_of = tables.trump_key, tables.suit_of, tables.rank_of
    cards = [int(a.value) for a in actions]
    trick = state.trick
    if not trick:
        # Each card's strength when it is led (CardTables.key with its own suit led).
        own = [trump_key[c] or 100 + rank_of[c] for c in cards]
        if want:
            # The hands still to play after the seat, and the strongest reply each led
            # suit meets among them.
            hands, next_active = state.hands, state.next_active
            later = []
            nxt = next_active(seat)
            while nxt != seat:
                later.append(hands[nxt])
                nxt = next_active(nxt)
            setup = state.setup
            follow_suit, must_trump = setup.follow_suit, setup.must_trump
            reply = tables.strongest_reply
            threats: dict[int, int] = {}
            sure: list[tuple[int, int]] = []
            for index, card in enumerate(cards):
                led = suit_of[card]
                threat = threats.get(led)
                if threat is None:
                    threat = 0
                    for hand in later:
                        strength = reply(hand, led, follow_suit=follow_suit, must_trump=must_trump)
                        if strength > threat:
                            threat = strength
                    threats[led] = threat
                if own[index] > threat:
                    sure.append((own[index], card))
            if sure:
                return Action(PLAY, min(sure)[1])
        # The strongest card (the last of equals) when wanting, else the weakest (first).
        ranked = [(strength, i) for i, strength in enumerate(own)]
        chosen = max(ranked) if want and unsure == "strongest" else min(ranked)
        return Action(PLAY, cards[chosen[1]])
    led = suit_of[trick[0][1]]
    best = 0
    for _, card in trick:
        strength = trump_key[card] or (100 + rank_of[card] if suit_of[card] == led else 0)
        if strength > best:
            best = strength
    last = len(trick) == state.players - 1 or state.next_active(seat) == trick[0][0]
    # By strength, then rank within the suit, then the order of the legal actions.
    entries = [
        (trump_key[c] or (100 + rank_of[c] if suit_of[c] == led else 0), rank_of[c], i)
        for i, c in enumerate(cards)
    ]
    if want:
        winners = [entry for entry in entries if entry[0] > best]
        if not winners:
            return Action(PLAY, cards[min(entries)[2]])
        if last:
            return Action(PLAY, cards[min(winners)[2]])
        threat = _threat(state, seat, led, tables)
        beating = [entry for entry in winners if entry[0] > threat]
        if beating:
            return Action(PLAY, cards[min(beating)[2]])
        pick = max(winners) if unsure == "strongest" else min(entries)
        return Action(PLAY, cards[pick[2]])
    losers = [entry for entry in entries if entry[0] <= best]
    if losers:
        return Action(PLAY, cards[max(losers)[2]])
    return Action(PLAY, cards[(max(entries) if last else min(entries))[2]])


def partner_holds(state: GameState, seat: int) -> bool:
    """Whether a partner of ``seat`` holds the trick in progress against every
    opponent still to play (so ``seat`` need not win it)."""
    trick = state.trick
    partnerships = state.setup.partnerships
    if not trick or not partnerships:
        return False
    team = next((t for t in partnerships if seat in t), ())
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
    setup = state.setup
    end = trick[0][0]
    nxt = state.next_active(seat)
    while nxt != end:
        if nxt not in team:
            reply = tables.strongest_reply(
                state.hands[nxt], led, follow_suit=setup.follow_suit, must_trump=setup.must_trump
            )
            if reply > best:
                return False
        nxt = state.next_active(nxt)
    return True


def rollout_card(state: GameState, seat: int, actions: list[Action]) -> Action:
    """The rollout's card in a game where every trick counts: win the trick as cheaply as
    the seat surely can, unless a partner already holds it (:func:`partner_holds`); else
    play as :data:`EVERY_TRICK_UNSURE` says (:func:`greedy_card`)."""
    want = not (state.setup.partnerships and partner_holds(state, seat))
    return greedy_card(state, seat, actions, want=want, unsure=EVERY_TRICK_UNSURE)
