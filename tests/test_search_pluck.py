"""The search bots' support for Pluck (docs/games/pluck.md): the determinizer, the rollout
policy, the rewards, and PIMC and ISMCTS playing whole games.

The positions are built by hand in the second hand of a game: the first hand is dealt
in "triples" (three cards of one effective suit with clubs as trump, one to each seat,
the top card to the seat that should win the trick) so that its trick counts, and so
the plucks of the second hand, are chosen exactly (docs/games/pluck.md, Plucks: each trick
above quota in the previous hand is a pluck to take).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import pytest

from tests.games.pluck_triples import TRIPLES, triple_hands
from tests.helpers import act, deal, game, play_cards
from tricktaker import GameState, IllegalActionError, load_ruleset, new_game
from tricktaker.bots import Bot, ISMCTSBot, PIMCBot, make_bot, play_game
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.rollout import rollout_card
from tricktaker.cards import JOKER_MASK, SUIT_MASKS, card_set, cards_of, parse_card
from tricktaker.engine.actions import Action, play
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.tables import build_tables
from tricktaker.games.pluck.hooks import GIVE_BACK, PLUCK, PluckData
from tricktaker.games.pluck.search import (
    SEARCH,
    PluckDeterminizer,
    pluck_card,
    pluck_voids,
    rollout_action,
)

# Case b: seat 0 plucks seat 2 twice, then seat 1 plucks seat 2 (hidden from seat 0).
DEAL_B = [
    "2C 3C 4C 5C 6C 7C 3D 4D 5D 3H 4H 5H 3S 4S 5S 6S 7S",
    "8C 9C 10C JC QC KC AC 6H 7H 8H AH 8S 9S 10S JS BJ LJ",
    "6D 7D 8D 9D 10D JD QD KD AD 9H 10H JH QH KH QS KS AS",
]

# Case a: seat 1 plucks seat 0 twice, then seat 2 (hidden from seat 0).
DEAL_A = [
    "2C 3C 4C 5C 6C 3D 4D 5D 6D 7D 3H 4H 5H 6H 10S JS QS",
    "7C 8C 9C 10C JC QC KC AC BJ LJ 8D 9D 10D 3S 4S 5S 6S",
    "JD QD KD AD 7H 8H 9H 10H JH QH KH AH 7S 8S 9S KS AS",
]


# ---------------------------------------------------------------------- helpers


def after_first_hand(tricks: Sequence[int], hands: int = 6) -> GameState:
    """A game (seat 0 the first dealer) whose first hand gave ``tricks[seat]`` tricks."""
    state = game("pluck", 3, first_dealer=0, options={"hands": hands})
    winners = [s for s in range(3) for _ in range(tricks[s])]
    deal(state, triple_hands(winners))
    act(state, 0, "call_trump C")
    for triple in TRIPLES:
        for _ in range(3):
            seat = state.to_act()[0]
            card = next(parse_card(c) for c in triple if (state.hands[seat] >> parse_card(c)) & 1)
            state.apply(seat, play(card))
    assert list(state.history[-1].tricks) == list(tricks)
    return state


def second_hand(
    first_tricks: Sequence[int],
    hands: Sequence[str],
    plucks: Sequence[tuple[int, str, int, str]],
    cards: Sequence[str],
) -> GameState:
    """The second hand of a game whose first hand gave ``first_tricks``: ``hands`` dealt,
    the ``plucks`` made (the plucker, the card it gives, the pluckee, the card it gives
    back), clubs called trump by the dealer (seat 1), then ``cards`` played."""
    state = after_first_hand(first_tricks)
    deal(state, hands)
    for plucker, given, pluckee, returned in plucks:
        act(state, plucker, f"pluck {given}")
        act(state, pluckee, f"give_back {returned}")
    act(state, 1, "call_trump C")
    play_cards(state, cards)
    return state


def case_b(plays: int = 11) -> GameState:
    """docs/games/pluck.md, Plucks: 9, 7 and 1 tricks against quotas 7, 6 and 4, so seat 0 plucks
    seat 2 twice and then seat 1 plucks seat 2 once. Seat 0 gives 3H (seat 2 returns KH, so seat
    2 holds no AH) and 4D (AD back); seat 1 gives 6H (QH back). Clubs are trump; seat 2 shows a
    club void (no jokers either), seat 1 a diamond void."""
    plucks = [(0, "3H", 2, "KH"), (0, "4D", 2, "AD"), (1, "6H", 2, "QH")]
    moves = ["2C", "8C", "6D", "8S", "QS", "3S", "7D", "5D", "9C", "7H", "9H"]
    return second_hand([9, 7, 1], DEAL_B, plucks, moves[:plays])


def case_a(plays: int = 11) -> GameState:
    """docs/games/pluck.md, Plucks: 5, 9 and 3 tricks against quotas 7, 6 and 4, so seat 1 plucks
    seat 0 twice (3S for QS, 8D for 8D) and then seat 2 once: it gives seat 2 the QS it just got
    and receives the AS, hidden from seat 0. Clubs are trump; seat 2 shows a club void, seat 1 a
    heart void."""
    plucks = [(1, "3S", 0, "QS"), (1, "8D", 0, "8D"), (1, "QS", 2, "AS")]
    moves = ["2C", "7C", "JD", "4S", "7S", "3S", "7H", "3H", "9C", "5S", "8S"]
    return second_hand([5, 9, 3], DEAL_A, plucks, moves[:plays])


def check_sample(obs: Observation, sampled: GameState) -> None:
    """The sampled state is a legal engine state that looks exactly the same to the
    seat: the whole observation (hand, plucks it saw, tricks, legal actions, phase,
    history...) is equal, every seen card is where the seat saw it, and the other
    seats' hands fit the voids they showed."""
    assert sampled.observe(obs.seat) == obs
    assert sampled.legal_actions(obs.seat) == list(obs.legal_actions)
    hands = sampled.hands
    assert sum(h.bit_count() for h in hands) + obs.played.bit_count() == 51
    assert hands[0] ^ hands[1] ^ hands[2] == hands[0] | hands[1] | hands[2]  # no card twice
    voids = pluck_voids(obs)
    for seat in range(3):
        played = sum(1 for t in (*obs.tricks, obs.current_trick) for s, _ in t if s == seat)
        if obs.phase == "playing":
            assert hands[seat].bit_count() == 17 - played
        if obs.tables is not None:
            for suit in range(4):
                if (voids[seat] >> suit) & 1:
                    assert not hands[seat] & obs.tables.suit_masks[suit]
    for p in obs.extra["plucks"]:
        if obs.seat in (p["plucker"], p["pluckee"]):
            assert p["given"] is not None
            assert p["returned"] is not None


def check_samples(state: GameState, seat: int, count: int = 12, seed: int = 0) -> list[GameState]:
    """Samples for ``seat`` in ``state``; the true position is one of the consistent ones."""
    obs = state.observe(seat)
    sampler = PluckDeterminizer(obs)
    assert sampler.allows(hands_after_plucks(state))
    rng = random.Random(seed)
    out = [sampler.sample(rng) for _ in range(count)]
    for sampled in out:
        check_sample(obs, sampled)
    return out


def hands_after_plucks(state: GameState) -> list[int]:
    """Each seat's cards after the done plucks (before one under way), cards played
    not included."""
    hands = list(state.hands)
    data = state.ext
    assert isinstance(data, PluckData)
    if data.stage == "give_back":
        assert data.given is not None
        plucker, pluckee = data.pending[0]
        hands[plucker] |= 1 << data.given
        hands[pluckee] &= ~(1 << data.given)
    return hands


def bit(text: str) -> int:
    return 1 << parse_card(text)


# ------------------------------------------------------------- what a play shows


def test_the_2c_opening_shows_nothing_even_with_clubs_trump() -> None:
    """docs/games/pluck.md, Play: when clubs are trump the opening 2C opens trumps at once; the
    forced 2C lead is no trump lead before trumps were broken."""
    state = case_b(plays=3)
    voids = pluck_voids(state.observe(0))
    assert voids == [0, 0, 0b0001]  # only seat 2's failure to follow clubs


def test_a_trump_lead_before_trumps_are_broken_shows_only_trumps() -> None:
    """docs/games/pluck.md, Play: trumps may not be led until broken unless the leader has only
    trumps; and failing to follow shows a void in the led (effective) suit."""
    obs = case_b(plays=0).observe(0)
    fake = dataclasses.replace(
        obs,
        trump=3,
        tables=build_tables(trump=3, jokers_as_trump=True),
        tricks=(((0, parse_card("2C")), (1, parse_card("8C")), (2, parse_card("6D"))),),
        current_trick=((1, parse_card("8S")), (2, parse_card("QH"))),
    )
    voids = pluck_voids(fake)
    assert voids[1] == 0b0111  # led a spade (trump) before trumps were broken
    assert voids[2] == 0b1001  # no club in the first trick, no spade now


# ------------------------------------------------------------- hand-built positions


def test_case_b_samples_respect_voids_exclusions_and_the_hidden_pluck() -> None:
    """Seat 0 plucked seat 2 (KH back: seat 2 had no AH) before seat 1's hidden pluck of
    seat 2; seat 2 is void in clubs (and so holds no joker), seat 1 in diamonds."""
    state = case_b()
    assert state.to_act() == (0,)
    sampler = PluckDeterminizer(state.observe(0))
    assert (sampler.k, sampler.after_mine, sampler.case_a) == (1, True, False)
    seen_first: Counter[int] = Counter()
    for sampled in check_samples(state, 0, count=60):
        hands = sampled.hands
        assert not hands[2] & (SUIT_MASKS[0] | JOKER_MASK)
        assert not hands[1] & SUIT_MASKS[1]
        assert hands[1] & bit("AH")  # a pluckee's highest heart never rises
        assert hands[2] & bit("3H")
        assert hands[2] & bit("4D")
        seen_first[hands[1]] += 1
    assert len(seen_first) > 10  # the hidden cards really are sampled


def test_case_a_a_card_given_back_may_have_moved_in_the_hidden_pluck() -> None:
    """Seat 0 gave QS back to seat 1, which then plucked seat 2 unseen. The QS may have
    gone on to seat 2 (it did: seat 2 gave back the AS), so both places are sampled."""
    state = case_a()
    assert state.hands[2] & bit("QS")
    sampler = PluckDeterminizer(state.observe(0))
    assert (sampler.k, sampler.after_mine, sampler.case_a) == (1, True, True)
    where: Counter[int] = Counter()
    for sampled in check_samples(state, 0, count=60, seed=3):
        where[next(s for s in range(3) if sampled.hands[s] & bit("QS"))] += 1
        assert not sampled.hands[2] & (SUIT_MASKS[0] | JOKER_MASK)
        assert not sampled.hands[1] & SUIT_MASKS[2]
    assert set(where) == {1, 2}


def test_every_decision_of_the_second_hand_for_every_seat() -> None:
    """docs/games/pluck.md, Deal and trump: plucks (pluck and the forced give_back), the dealer
    names trump, the tricks. At each step every seat's samples are consistent."""
    for build in (case_a, case_b):
        state = build()
        kinds: Counter[str] = Counter()
        replay = after_first_hand([5, 9, 3] if build is case_a else [9, 7, 1])
        deal(replay, DEAL_A if build is case_a else DEAL_B)
        moves = [
            (s, a)
            for s, a in state.events[len(replay.events) :]
            if isinstance(s, int) and isinstance(a, Action)
        ]
        for seat, action in moves:
            for observer in range(3):
                check_samples(replay, observer, count=2, seed=observer)
            kinds[action.kind] += 1
            replay.apply(seat, action)
        assert {PLUCK, GIVE_BACK, "call_trump", "play"} <= set(kinds)


def test_seats_not_in_the_plucks_see_only_hidden_plucks() -> None:
    """Seat 0 is on quota: seat 1's two plucks of seat 2 are hidden from it."""
    state = after_first_hand([7, 8, 2])
    state.apply_chance()
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    steps = 0
    while state.hands_played == 1:
        seat = state.to_act()[0]
        if steps % 5 == 0:
            check_samples(state, 0, count=3, seed=steps)
            check_samples(state, 1, count=1, seed=steps)
        state.apply(seat, bots[seat].act(state.observe(seat)))
        steps += 1


def test_hidden_plucks_before_the_seats_own() -> None:
    """Seat 1 (two tricks over) plucks seat 2 twice before seat 0 (one over) plucks it."""
    state = after_first_hand([8, 8, 1])
    state.apply_chance()
    assert isinstance(state.ext, PluckData)
    assert state.ext.pending == [(1, 2), (1, 2), (0, 2)]
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    steps = 0
    while state.hands_played == 1:
        seat = state.to_act()[0]
        if steps < 8 or steps % 6 == 0:
            check_samples(state, 0, count=3, seed=steps)
        state.apply(seat, bots[seat].act(state.observe(seat)))
        steps += 1


def test_the_leader_of_the_first_trick_holds_the_2c() -> None:
    """docs/games/pluck.md, Play: the holder of the 2C leads it; before it is played, everyone
    knows where it is."""
    state = case_b(plays=0)
    state_2c = next(s for s in range(3) if state.hands[s] & bit("2C"))
    for seat in range(3):
        for sampled in check_samples(state, seat, count=10):
            assert sampled.hands[state_2c] & bit("2C")


def test_before_the_deal_and_after_the_game() -> None:
    """Before a deal nothing is hidden (the sample is the hand's public start); after
    the last hand there is nothing to sample; other games are refused."""
    state = case_b()
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    play_game(state, bots, until_hand_end=True)  # the third hand's deal is next
    assert state.phase_name == "deal"
    for seat in range(3):
        sampled = PluckDeterminizer(state.observe(seat)).sample(random.Random(0))
        assert sampled.observe(seat) == state.observe(seat)  # the last plucks as seen
    over = after_first_hand([9, 7, 1], hands=1)
    assert over.is_terminal()
    with pytest.raises(ValueError, match="over"):
        PluckDeterminizer(over.observe(0))
    other = new_game(load_ruleset("blackout"), players=3, seed=0)
    with pytest.raises(ValueError, match="Pluck"):
        PluckDeterminizer(other.observe(0))


# -------------------------------------------------------------- uniform sampling


def _oracle(state: GameState, seat: int) -> set[tuple[int, int]]:
    """Every position (the other seats' cards now) consistent with ``seat``'s
    observation, found by brute force with the engine: every split of the unseen
    cards; back through the done plucks, last first, each of the seat's own undone
    and each hidden one undone in every possible way (any card given, the pluckee's
    forced return); then the hand dealt, replayed and observed."""
    obs = state.observe(seat)
    sampler = PluckDeterminizer(obs)
    o1, o2 = sampler.others
    found: set[tuple[int, int]] = set()
    for first in itertools.combinations(cards_of(sampler.unknown), sampler.need):
        now = [0, 0, 0]
        now[seat] = state.hands[seat]
        now[o1] = card_set(first)
        now[o2] = sampler.unknown & ~now[o1]
        after = [now[s] | sampler.played[s] for s in range(3)]
        if any(_replays(state, seat, dealt, gives) for dealt, gives in _undo(obs, after)):
            found.add((now[o1], now[o2]))
    return found


def _undo(obs: Observation, hands: list[int]) -> Iterator[tuple[list[int], list[int]]]:
    """Every (deal, hidden cards given) that the done plucks could have come from."""

    def back(
        index: int, hands: list[int], gives: list[int]
    ) -> Iterator[tuple[list[int], list[int]]]:
        if index < 0:
            yield hands, gives
            return
        p = obs.extra["plucks"][index]
        pl, pe = p["plucker"], p["pluckee"]
        if p["given"] is not None:
            g, r = bit(p["given"]), bit(p["returned"])
            out = hands[:]
            out[pl] = (out[pl] & ~r) | g
            out[pe] = (out[pe] | r) & ~g
            yield from back(index - 1, out, gives)
            return
        for r in cards_of(hands[pl] & ~JOKER_MASK):
            suit = SUIT_MASKS[r // 13]
            if (hands[pe] & suit) >> r:  # the return was the pluckee's highest
                continue
            for g in [r, *cards_of(hands[pe] & suit)]:
                out = hands[:]
                out[pl] = (out[pl] & ~(1 << r)) | (1 << g)
                out[pe] = (out[pe] & ~(1 << g)) | (1 << r)
                yield from back(index - 1, out, [g, *gives])

    yield from back(len(obs.extra["plucks"]) - 1, hands, [])


def _replays(state: GameState, seat: int, dealt: list[int], gives: list[int]) -> bool:
    """Whether dealing ``dealt`` and replaying the hand, with ``gives`` given in the
    hidden plucks, shows the seat what it saw."""
    obs = state.observe(seat)
    if any(h.bit_count() != 17 for h in dealt):
        return False
    trial = new_game(state.rules, players=3, seed=0, first_dealer=state.dealer)
    trial.hands_played, trial.history, trial.scores = 1, list(obs.history), list(obs.scores)
    trial.apply_chance(ChanceOutcome("deal", trial.deck_order_for([cards_of(h) for h in dealt])))
    hidden = iter(gives)
    try:
        for p in obs.extra["plucks"]:
            given = parse_card(p["given"]) if p["given"] is not None else next(hidden)
            trial.apply(p["plucker"], Action(PLUCK, given))
            trial.apply(p["pluckee"], trial.legal_actions(p["pluckee"])[0])
        trial.apply(trial.dealer, Action("call_trump", "CDHS"[obs.trump or 0]))
        for trick in (*obs.tricks, obs.current_trick):
            for s, card in trick:
                trial.apply(s, play(card))
    except IllegalActionError:
        return False
    return trial.observe(seat) == obs


def case_before() -> GameState:
    """8, 7 and 2 tricks: seats 0 and 1 tie on one pluck each; the tie starts with the
    new dealer, seat 1, so its pluck of seat 2 (hidden from seat 0) comes first."""
    state = after_first_hand([8, 7, 2])
    deal(state, DEAL_B)
    return state


def case_aside() -> GameState:
    """7, 7 and 3 tricks: seat 1 plucks seat 2 once; seat 0 takes no part."""
    state = after_first_hand([7, 7, 3])
    deal(state, DEAL_A)
    return state


@pytest.mark.parametrize(
    ("build", "cards"), [(case_a, 5), (case_b, 5), (case_before, 4), (case_aside, 4)]
)
def test_positions_are_sampled_uniformly_among_all_consistent_ones(
    build: Callable[[], GameState], cards: int
) -> None:
    """Late in the hand (the seat holding ``cards`` cards), the brute-force set of
    consistent positions equals the sampler's support, and every position is drawn
    about equally often."""
    state = build()
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    while not (state.to_act() == (0,) and state.hands[0].bit_count() <= cards):
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    truth = _oracle(state, 0)
    assert len(truth) >= 3
    sampler = PluckDeterminizer(state.observe(0))
    rng = random.Random(11)
    draws = 200 * len(truth)
    counts: Counter[tuple[int, int]] = Counter()
    o1, o2 = sampler.others
    for _ in range(draws):
        hands = sampler.position(rng)
        counts[(hands[o1] & sampler.unknown, hands[o2] & sampler.unknown)] += 1
    assert set(counts) == truth
    assert all(130 <= c <= 270 for c in counts.values()), sorted(counts.values())


def test_copied_samples_are_the_states_a_replay_gives() -> None:
    """In the play later samples are copies of the first with other hidden parts; they
    equal, field by field and record by record, the states a full replay builds."""
    for build in (case_a, case_b):
        state = build()
        for seat in range(3):
            obs = state.observe(seat)
            fast, slow = PluckDeterminizer(obs), PluckDeterminizer(obs, reuse=False)
            rng_fast, rng_slow = random.Random(4), random.Random(4)
            for _ in range(6):
                one, two = fast.sample(rng_fast), slow.sample(rng_slow)
                assert one.hands == two.hands
                assert one.dealt == two.dealt
                assert one.ext == two.ext
                assert one.record().dumps() == two.record().dumps()
                assert [one.observe(s) for s in range(3)] == [two.observe(s) for s in range(3)]


# ------------------------------------------------------------ no hidden reading


def test_samples_depend_on_the_observation_only() -> None:
    """Two true states that differ only in cards hidden from seat 0 give the same
    samples for the same seed, and the same decision by a search bot."""
    state = case_b()
    other = PluckDeterminizer(state.observe(0)).sample(random.Random(5))
    other.seed = state.seed
    assert other.hands != state.hands
    assert other.observe(0) == state.observe(0)
    one = [s.hands for s in check_samples(state, 0, count=5, seed=9)]
    two = [s.hands for s in check_samples(other, 0, count=5, seed=9)]
    assert one == two
    bot_one = PIMCBot(seed=3, determinizations=3)
    bot_two = PIMCBot(seed=3, determinizations=3)
    assert bot_one.act(state.observe(0)) == bot_two.act(other.observe(0))


# ------------------------------------------------------------ rollouts, rewards


def test_the_rollout_pluck_takes_the_biggest_swap() -> None:
    """docs/games/pluck.md, Plucks: the pluckee gives back their highest card of the suit given,
    so seat 0 gives its lowest diamond for seat 2's AD (better than 3H for the KH)."""
    state = after_first_hand([9, 7, 1])
    deal(state, DEAL_B)
    assert pluck_card(state, 0) == Action(PLUCK, parse_card("3D"))
    assert rollout_action(state, 0, state.legal_actions(0)) == Action(PLUCK, parse_card("3D"))


def test_the_rollout_card_play() -> None:
    """Leads a card nobody can beat, wins second in hand only when the third seat
    cannot overtake, and wins last as cheaply as it can."""
    state = case_b(plays=1)  # 2C led by seat 0; seat 1 to follow with a club
    assert rollout_card(state, 1, state.legal_actions(1)) == play(parse_card("8C"))
    state = case_b(plays=3)  # seat 1 leads: its AH wins (side suits before trumps)
    assert rollout_card(state, 1, state.legal_actions(1)) == play(parse_card("AH"))
    state = case_b(plays=8)  # 7D, 5D led; seat 1 is void in diamonds and ruffs low
    assert rollout_card(state, 1, state.legal_actions(1)) == play(parse_card("9C"))


def test_the_trump_call_weighs_samples_by_the_dealers_cards() -> None:
    """The dealer (seat 1) named clubs: samples giving it more clubs weigh more; the
    dealer's own samples, and samples before the call, are not weighed."""
    state = case_b()
    sampler = PluckDeterminizer(state.observe(0))
    samples = [sampler.sample(random.Random(seed)) for seed in range(30)]
    weights = [sampler.weight(s) for s in samples]
    clubs = [(s.hands[1] | sampler.played[1]) & SUIT_MASKS[0] for s in samples]
    assert all(0.1 <= w <= 1.0 for w in weights)
    by_length = sorted(zip((c.bit_count() for c in clubs), weights, strict=True))
    assert by_length[0][1] < by_length[-1][1]
    assert PluckDeterminizer(state.observe(1)).weight(state) == 1.0
    before = after_first_hand([9, 7, 1])
    deal(before, DEAL_B)  # the plucks come first: no trump named yet
    assert PluckDeterminizer(before.observe(0)).weight(before) == 1.0


def test_rewards_are_tricks_against_quota() -> None:
    """docs/games/pluck.md, Scoring: each hand reports tricks against quota (9, 7, 1 against 7,
    6, 4)."""
    state = after_first_hand([9, 7, 1])
    assert SEARCH.rewards(state) == [2 / 8, 1 / 8, -3 / 8]
    assert search_for("pluck") is SEARCH


# ------------------------------------------------------------ whole games


def _kinds_by(state: GameState, seats: Sequence[int]) -> set[str]:
    return {a.kind for s, a in state.events if isinstance(a, Action) and s in seats}


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_search_bots_play_whole_games_making_every_decision(kind: str) -> None:
    """Three search bots play a two-hand game: plucks, returns, trump calls and cards."""

    def bot(seed: int) -> Bot:
        if kind == "pimc":
            return PIMCBot(seed=seed, determinizations=2, rollouts=8, min_determinizations=1)
        return ISMCTSBot(seed=seed, iterations=12)

    def run(seed: int) -> tuple[GameState, str]:
        state = new_game(load_ruleset("pluck", options={"hands": 2}), players=3, seed=seed)
        play_game(state, [bot(10 * seed + s) for s in range(3)])
        return state, state.record().dumps()

    # A game whose first hand leaves plucks to make (not every deal does).
    seed = next(s for s in range(3, 20) if PLUCK in _kinds_by(run(s)[0], range(3)))
    state, record = run(seed)
    assert state.is_terminal()
    assert {PLUCK, GIVE_BACK, "call_trump", "play"} <= _kinds_by(state, range(3))
    assert run(seed)[1] == record  # deterministic given the seeds


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_default_search_bots_play_a_game_against_heuristic(kind: str) -> None:
    state = new_game(load_ruleset("pluck", options={"hands": 3}), players=3, seed=4)
    play_game(
        state, [make_bot(kind, seed=1), make_bot("heuristic", seed=2), make_bot(kind, seed=3)]
    )
    assert state.is_terminal()


@pytest.mark.slow
def test_many_seeded_games_every_seat_every_step() -> None:
    """Random and heuristic games of four hands: at every step the true position is one
    of the consistent ones for every seat, and a sample matches its observation."""
    rules = load_ruleset("pluck", options={"hands": 4})
    for seed in range(6):
        state = new_game(rules, players=3, seed=seed)
        bots = [make_bot("random" if seed % 2 else "heuristic", seed=seed + s) for s in range(3)]
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            for seat in range(3):
                check_samples(state, seat, count=1, seed=seed)
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].act(state.observe(seat)))
