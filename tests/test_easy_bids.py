"""The easy bot bids in a sensible range of the tricks available, in every shipped game
with bids and every kind of hand (issue 26, defect 1).

How people bid Oh Hell: the bids of a table add up to about the tricks in the hand, a
little over on small hands and under on big ones. Here, for every game, player count
and kind of hand (trump, no trump, a Bluke turned up, Clag's special hands, Caller
Clag's calls) and size band, the mean bid total of a table of easy bots must lie within
30% of the tricks available (within 2 on hands of a few cards), or as far under as
:func:`allowed` says where bidding under is what scores. Before the fix the no-trump
hands drew about twice the tricks (Blackout's 13-card hand at 4 players: 30). And no
seat bids more tricks than its cards could plausibly take.

The games are played by ``bench/easy_bids.py`` (the before/after table of the issue);
seeds are fixed, two games per game and player count.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Sequence
from typing import Any

import pytest

from tests.helpers import OH_HELL_GAMES, load_bench
from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.cards import HIGH_JOKER, LOW_JOKER
from tricktaker.engine.actions import BID

bench = load_bench("easy_bids")

TABLES = 2
"""Games per game and player count."""


@functools.cache
def hands_of(game: str) -> tuple[Any, ...]:
    """Every hand of the bench's tables of easy bots for ``game`` (its fewest players,
    4 and its most, at most 7)."""
    return tuple(bench.collect([game], None, TABLES, 0, None))


def allowed(game: str, players: int, tricks: float) -> tuple[float, float]:
    """The range the mean bid total of a group of hands must lie in: within 30% of the
    tricks (2 on hands of a few cards). Lower where bidding under is what people do
    and what scores: on big hands (8 cards or more: 40%), where a seat's share of the
    tricks is under 1.5 (a zero bid is then the likeliest to be exact: 65%), and where
    a bid is a floor, tricks over it scoring more (Bluke, docs/games/bluke.md, Scoring:
    50%). Higher where the lowest bid forces it (docs/games/bluke.md, Bidding: nobody
    bids 0)."""
    rules = load_ruleset(game)
    slack = max(0.3 * tricks, 2.0)
    under = slack
    if tricks >= 8:
        under = max(under, 0.4 * tricks)
    if tricks / players < 1.5:
        under = max(under, 0.65 * tricks)
    scoring = rules.scoring
    if scoring.score_of(2, 3, 5, players) > scoring.score_of(2, 2, 5, players):
        under = max(under, 0.5 * tricks)
    forced = rules.spec.bidding.min_bid * players
    return tricks - under, max(tricks, forced) + slack


def plausible(cards: Sequence[int], trump: int | None, deck: Sequence[int], held: int) -> int:
    """The most tricks a person would think a hand could take: its trumps and Blukes,
    each other card whose beaters (the higher cards of its suit it does not hold) the
    opponents hold fewer than 1.5 of on average (they hold ``held`` of the cards it
    does not see), the cards beyond three of each suit, plus one and one more for every
    six cards (long hands hold long trumps and ruff side cards)."""
    mine = set(cards)
    pool = len(deck) - len(mine)
    count = 1 + len(cards) // 6
    lengths = [0, 0, 0, 0]
    for card in cards:
        if card in (HIGH_JOKER, LOW_JOKER) or card // 13 == trump:
            count += 1
            continue
        lengths[card // 13] += 1
        beaters = [c for c in deck if c < 52 and c // 13 == card // 13 and c > card]
        count += sum(c not in mine for c in beaters) * held / pool < 1.5
    return count + sum(max(0, n - 3) for n in lengths)


def test_every_game_with_bids_is_covered() -> None:
    assert sorted(bench.bid_games()) == sorted(OH_HELL_GAMES)


@pytest.mark.parametrize("game", OH_HELL_GAMES)
def test_bid_totals_sit_near_the_tricks_available(game: str) -> None:
    hands = hands_of(game)
    wrong = []
    for (_, players, kind, band), group in sorted(bench.group(hands).items()):
        if "misere" in kind:
            continue
        tricks = statistics.fmean(h.hand_size for h in group)
        total = statistics.fmean(h.total for h in group)
        low, high = allowed(game, players, tricks)
        if not low <= total <= high:
            wrong.append(
                f"{players} players, {kind}, {band} cards: bids total {total:.1f}"
                f" for {tricks:.1f} tricks (allowed {low:.1f} to {high:.1f})"
            )
    assert not wrong, f"{game}: " + "; ".join(wrong)


@pytest.mark.parametrize("game", [g for g in OH_HELL_GAMES if g != "coop_blackout"])
def test_no_seat_bids_more_than_its_cards_could_take(game: str) -> None:
    # Not Cooperative Blackout: its bids must total the hand size, so a seat may be
    # left to bid what the others did not (docs/games/coop_blackout.md, Bidding).
    rules = load_ruleset(game)
    min_bid = rules.spec.bidding.min_bid
    wrong = []
    for hand in hands_of(game):
        if "blind" in hand.kind or "misere" in hand.kind:
            continue  # bid before seeing the cards; misere: 0 (below)
        deck = rules.deck(hand.players)
        held = (hand.players - 1) * hand.hand_size
        for bid, cards in zip(hand.bids, hand.deal, strict=True):
            most = max(min_bid, plausible(cards, hand.trump, deck, held))
            if bid > most:
                wrong.append(f"{hand.players}p {hand.kind} {hand.hand_size} cards: bid {bid}")
    assert not wrong, f"{game}: " + "; ".join(wrong[:8])


@pytest.mark.parametrize("game", ["clag", "caller_clag"])
def test_misere_hands_are_bid_zero(game: str) -> None:
    # docs/games/clag.md, Special hands (hands 12 and 13): every player bids 0;
    # docs/games/caller_clag.md, Special hands: the misere kinds likewise.
    misere = [h for h in hands_of(game) if "misere" in h.kind]
    assert misere
    assert all(h.total == 0 for h in misere)


def test_the_kinds_of_hand_are_all_played() -> None:
    kinds = {h.kind for game in OH_HELL_GAMES for h in hands_of(game)}
    for kind in (
        "trump",
        "no trump",
        "no_trump",
        "bid before trump",
        "blind bid",
        "blind pile",
        "called no trump",
        "called blind pile",
        "called misere no trump",
    ):
        assert kind.replace("_", " ") in kinds, kind


@pytest.mark.parametrize("players", [3, 4])
def test_bluke_turned_up_no_trump_hands(players: int) -> None:
    # docs/games/bluke.md, Deal and trump: a Bluke turned up leaves the hand at no trump.
    # The first hand is the largest (13 cards); deals with a Bluke turned up are found
    # by seed, and a table of easy bots bids them.
    rules = load_ruleset("bluke")
    totals = []
    for seed in range(400):
        state = new_game(rules, players=players, seed=seed)
        while state.is_chance():
            state.apply_chance()
        if state.observe(0).turn_up not in (HIGH_JOKER, LOW_JOKER):
            continue
        bots = [make_bot("easy", seed=seed + s) for s in range(players)]
        while any(a.kind == BID for s in state.to_act() for a in state.legal_actions(s)):
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].act(state.observe(seat)))
        obs = state.observe(0)
        assert obs.trump is None
        totals.append(sum(b or 0 for b in obs.bids))
        if len(totals) == 4:
            break
    assert len(totals) == 4
    tricks = state.observe(0).hand_size
    low, high = allowed("bluke", players, tricks)
    assert low <= statistics.fmean(totals) <= high, (totals, tricks)


def test_the_benchmark_prints_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--games", "1", "--games-list", "jabberwocky", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "before:" in out
    assert "after:" in out
    assert "mean bid total / tricks" in out
    assert bench.main(["--strength", "jabberwocky:3", "--deal-sets", "2"]) == 0
    assert "score per hand after - before" in capsys.readouterr().out
