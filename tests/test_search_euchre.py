"""Search support for Euchre, the 23-card auction version (docs/games/euchre.md): the
determinizer, the rollout policy, the rewards, and the search bots playing whole games.

Every hand-built position starts with seat 0 dealing, so seat 1 (left of the dealer)
calls first and, as declarer, leads.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from tests.games.euchre_play import call, deal, discard, new
from tests.helpers import play_cards
from tricktaker import GameState, Observation, load_ruleset, new_game
from tricktaker.bots import Bot, ISMCTSBot, PIMCBot, make_bot, play_game
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.bots.rollout import rollout_card
from tricktaker.cards import card_set, cards_of, format_card, parse_card
from tricktaker.engine.actions import Action, play
from tricktaker.games.euchre.hooks import AUCTION, DISCARD, PASS, EuchreData
from tricktaker.games.euchre.policy import auction, trump_estimate
from tricktaker.games.euchre.search import (
    SEARCH,
    EuchreDeterminizer,
    contract_estimates,
    heuristic_call,
    rewards,
    rollout_action,
)

# A hand with voids, hearts trump (the left bower is the JD). Seat 1 bids 3H and
# discards 9C 10S 9D. Trick 1: seat 2 shows no trump (so no JD either). Trick 2
# (diamonds led): seat 2 and seat 3 show no diamonds, but seat 3 still holds the JD,
# a trump. Trick 3 (clubs led): seat 1 trumps, showing no clubs.
VOID_DEAL = [
    "10H QD KD AD QC",  # seat 0 (dealer)
    "JH AH KH 9C 10S",  # seat 1
    "AS KS QS AC KC",  # seat 2
    "9H JD JS 10C JC",  # seat 3
]
VOID_KITTY = "QH 9D 10D"
VOID_CALLS = ("3H", "pass", "pass", "pass")
VOID_DISCARDS = "9C 10S 9D"
VOID_TRICKS = ["JH", "AS", "9H", "10H", "10D", "KC", "JS", "AD", "QC", "QH", "AC", "JC"]


def void_position(tricks: int = 3) -> GameState:
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, *VOID_CALLS)
    discard(state, VOID_DISCARDS)
    play_cards(state, VOID_TRICKS[: 4 * tricks])
    return state


def swapped(state: GameState) -> GameState:
    """The same position with seat 2's QS and seat 3's 10C exchanged (both unplayed)."""
    other = state.clone()
    change = mask("QS 10C")
    other.hands[2] ^= change
    other.hands[3] ^= change
    assert other.hands != state.hands
    return other


def mask(text: str) -> int:
    return card_set(text.split())


def data(state: GameState) -> EuchreData:
    assert isinstance(state.ext, EuchreData)
    return state.ext


def check_sample(real: GameState, seat: int, sampled: GameState) -> None:
    """The sampled state is a legal state that the seat cannot tell from the real one:
    the whole observation is equal (phase, legal actions, its hand, the auction, the
    contract, tricks, scores, history, and for the declarer the kitty and discards),
    every seat holds as many cards as in the real state, no card the seat has seen is
    elsewhere, and the hand can be played to its end."""
    obs = real.observe(seat)
    assert sampled.observe(seat) == obs
    seen = obs.hand or 0
    for s in range(4):
        assert sampled.hands[s].bit_count() == real.hands[s].bit_count() or (
            s == data(real).declarer and obs.phase == "discard" and s != seat
        )
        if s != seat:
            assert not sampled.hands[s] & seen
    cards = [c for held in sampled.hands for c in cards_of(held)]
    cards += [c for trick in sampled.trick_cards for _, c in trick] + [c for _, c in sampled.trick]
    cards += data(sampled).discards
    if data(sampled).declarer is None:
        cards += sampled.kitty
    assert sorted(cards) == sorted(sampled.setup.deck)
    assert len(sampled.kitty) == 3
    after = sampled.clone()
    rollout_hand(after, SEARCH)
    assert after.hands_played == real.hands_played + 1


def samples(
    real: GameState, seat: int, count: int, seed: int = 0, *, infer_calls: bool = True
) -> list[GameState]:
    rng = random.Random(seed)
    sampler = EuchreDeterminizer(real.observe(seat), infer_calls=infer_calls)
    out = [sampler.sample(rng) for _ in range(count)]
    for sampled in out:
        check_sample(real, seat, sampled)
    return out


# ------------------------------------------------------------------ determinizer


def test_the_search_support_is_registered_for_euchre() -> None:
    assert search_for("euchre") is SEARCH
    assert SEARCH.searched is None  # every decision: calls, discards, cards


@pytest.mark.parametrize(("seat", "moment"), [(0, 0), (2, 2), (1, 3), (1, 6), (3, 8), (0, 20)])
def test_a_copied_sample_is_the_state_a_replay_gives(seat: int, moment: int) -> None:
    """After the first sample the determinizer copies it with other cards; the copy is
    the state the engine's replay of the same deal gives (every seat's view of it)."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    for _ in range(moment):
        actor = state.to_act()[0]
        state.apply(actor, rollout_action(state, actor, state.legal_actions(actor)))
    sampler = EuchreDeterminizer(state.observe(seat))
    rng = random.Random(moment)
    sampler.sample(rng)
    for _ in range(10):
        cards = sampler.deal(rng)
        replayed = sampler._build(*cards)
        copied = sampler._refill(*cards)
        assert copied.hands == replayed.hands
        assert copied.dealt == replayed.dealt
        assert copied.kitty == replayed.kitty
        assert copied.ext == replayed.ext
        assert [copied.observe(s) for s in range(4)] == [replayed.observe(s) for s in range(4)]
        rollout_hand(copied, SEARCH)
        rollout_hand(replayed, SEARCH)
        assert copied.history[-1] == replayed.history[-1]


def test_voids_are_in_effective_suits_with_bowers() -> None:
    """docs/games/euchre.md, Players and deck: The left bower is a trump in every respect and is
    no longer a card of its printed suit. Seat 2 failed to follow trumps: it holds no heart and
    not the JD. Seat 3 failed to follow diamonds: it holds no diamond, but may hold the JD. Seat
    1 trumped a club: no clubs. Seen from seat 0, a defender."""
    real = void_position()
    hearts = mask("9H 10H JH QH KH AH") | mask("JD")
    diamonds = mask("9D 10D QD KD AD")
    clubs = mask("9C 10C JC QC KC AC")
    jd = parse_card("JD")
    holders: Counter[int] = Counter()
    for infer in (False, True):
        for sampled in samples(real, 0, 150, seed=1, infer_calls=infer):
            assert not sampled.hands[2] & (hearts | diamonds)
            assert not sampled.hands[3] & diamonds
            assert not sampled.hands[1] & clubs
            holders.update(s for s in range(4) if (sampled.hands[s] >> jd) & 1)
            if (sampled.hands[1] >> jd) & 1 == 0 and (sampled.hands[3] >> jd) & 1 == 0:
                assert jd in data(sampled).discards
    assert holders[3] > 0
    assert holders[1] > 0
    assert holders[2] == 0


def test_a_defender_samples_the_kitty_and_the_discards() -> None:
    """docs/games/euchre.md, Kitty and discard: only the declarer sees the kitty and its
    discards. For seat 0 the three discards are any three of the unknown cards, the kitty any
    three of the declarer's eight, and the dealt cards of seat 1 the other five."""
    real = void_position()
    kitties, discards = set(), set()
    for sampled in samples(real, 0, 200, seed=2):
        declarer_cards = (
            cards_of(sampled.hands[1])
            + [c for t in sampled.trick_cards for s, c in t if s == 1]
            + data(sampled).discards
        )
        assert set(sampled.kitty) <= set(declarer_cards)
        assert len(data(sampled).discards) == 3
        kitties.add(tuple(sorted(sampled.kitty)))
        discards.add(tuple(sorted(data(sampled).discards)))
    assert len(kitties) > 10
    assert len(discards) > 10


def test_the_declarer_keeps_its_kitty_and_discards() -> None:
    """docs/games/euchre.md, Kitty and discard: the declarer saw the kitty and made the discards
    itself."""
    real = void_position(tricks=1)
    for sampled in samples(real, 1, 50, seed=3):
        assert sampled.kitty == real.kitty
        assert data(sampled).discards == data(real).discards
        assert sorted(sampled.dealt[1]) == sorted(real.dealt[1])


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_samples_match_at_every_decision_of_a_hand(seat: int) -> None:
    """Every decision kind of docs/games/euchre.md (Auction, Kitty and discard, Play): the first
    call, calls after a bid, each of the declarer's three discards, leads and follows (and the
    moments when the seat does not act)."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    steps: list[str] = ["4D", "pass", "5H", "pass", "pass"]
    moments = 0
    while state.hands_played == 0:
        samples(state, seat, 8, seed=moments)
        moments += 1
        actor = state.to_act()[0]
        if steps:
            call(state, steps.pop(0))
        else:
            legal = state.legal_actions(actor)
            state.apply(actor, rollout_action(state, actor, legal))
    assert moments > 15


def test_no_trump_has_no_bowers_in_the_voids() -> None:
    """docs/games/euchre.md, Players and deck: No trump: no bowers. A seat that fails to follow
    diamonds holds no diamond at all, the JD included."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, "NT", "pass", "pass", "pass")
    discard(state, VOID_DISCARDS)
    play_cards(state, ["10D", "KC", "JD", "AD"])  # seat 3 follows with the JD
    play_cards(state, ["QD", "QH", "AS", "10C"])  # seats 1 and 2 show no diamonds
    diamonds = mask("9D 10D JD QD KD AD")
    for sampled in samples(state, 3, 200, seed=4):
        assert not sampled.hands[1] & diamonds
        assert not sampled.hands[2] & diamonds


def test_the_usual_bower_order_is_respected() -> None:
    """docs/games/euchre.md, Options: `usual_bower_order`, the usual order with the right bower
    highest."""
    state = new({"usual_bower_order": True})
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, *VOID_CALLS)
    discard(state, VOID_DISCARDS)
    play_cards(state, VOID_TRICKS[:8])
    for sampled in samples(state, 2, 50, seed=5):
        assert sampled.rules.spec.play.bowers == "right_high"


def test_samples_are_uniform_over_the_consistent_deals() -> None:
    """Without call inference the hidden cards are exactly uniform: enumerate every
    placement of seat 0's nine unknown cards (two each to seats 1-3, three discards)
    consistent with the voids, and compare each card's chance to be in each place. The
    kitty is any three of the declarer's eight cards."""
    real = void_position()
    unknown = cards_of(mask("AH KH QS KS JD 10C 9C 10S 9D"))
    banned = {
        1: mask("9C 10C JC QC KC AC"),
        2: mask("9H 10H JH QH KH AH JD 9D 10D QD KD AD"),
        3: mask("9D 10D QD KD AD"),
    }
    exact: Counter[tuple[int, int]] = Counter()
    deals = 0
    for one in itertools.combinations(unknown, 2):
        if card_set(one) & banned[1]:
            continue
        rest = [c for c in unknown if c not in one]
        for two in itertools.combinations(rest, 2):
            if card_set(two) & banned[2]:
                continue
            left = [c for c in rest if c not in two]
            for three in itertools.combinations(left, 2):
                if card_set(three) & banned[3]:
                    continue
                deals += 1
                out = [c for c in left if c not in three]
                for place, cards in ((1, one), (2, two), (3, three), (4, out)):
                    exact.update((place, c) for c in cards)
    rounds = 3000
    seen: Counter[tuple[int, int]] = Counter()
    kitty: Counter[int] = Counter()
    rng = random.Random(11)
    sampler = EuchreDeterminizer(real.observe(0), infer_calls=False)
    for _ in range(rounds):
        sampled = sampler.sample(rng)
        for place in (1, 2, 3):
            seen.update((place, c) for c in cards_of(sampled.hands[place]))
        seen.update((4, c) for c in data(sampled).discards)
        kitty.update(sampled.kitty)
    for key in set(exact) | set(seen):
        assert abs(seen[key] / rounds - exact[key] / deals) < 0.04, key
    played_by_declarer = [parse_card(c) for c in ("JH", "10D", "QH")]
    for card in played_by_declarer:
        assert abs(kitty[card] / rounds - 3 / 8) < 0.04


def test_call_inference_leans_towards_the_bidders_trumps() -> None:
    """The other seats' calls weigh the deals: seat 1 bid 3H, so seen from seat 2 its
    dealt cards hold more hearts than the uniform deals do."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, "3H")
    hearts = mask("9H 10H JH QH KH AH JD")

    def mean_hearts(infer: bool) -> float:
        sampler = EuchreDeterminizer(state.observe(2), infer_calls=infer)
        rng = random.Random(6)
        return sum((sampler.sample(rng).hands[1] & hearts).bit_count() for _ in range(300)) / 300

    assert mean_hearts(True) > mean_hearts(False) + 0.3


def test_discard_inference_keeps_trumps_and_aces_in_the_declarers_hand() -> None:
    """Declarers discard their weakest side cards: seen from seat 0, the sampled
    discards hold fewer trumps (the AH, KH and JD are unknown) than uniform ones."""
    real = void_position()
    strong = mask("AH KH JD AC")

    def mean_strong(infer: bool) -> float:
        sampler = EuchreDeterminizer(real.observe(0), infer_calls=infer)
        rng = random.Random(9)
        drawn = [data(sampler.sample(rng)).discards for _ in range(300)]
        return sum((card_set(cards) & strong).bit_count() for cards in drawn) / 300

    assert mean_strong(True) < mean_strong(False) - 0.2


def test_hidden_cards_are_never_read() -> None:
    """Two real states that differ only in cards seat 0 cannot see (seat 2's QS and seat
    3's 10C swapped) give the same samples from the same seed."""
    first = void_position()
    second = swapped(first)
    assert first.observe(0) == second.observe(0)
    assert first.observe(2) != second.observe(2)
    for infer in (False, True):
        a = samples(first, 0, 20, seed=7, infer_calls=infer)
        b = samples(second, 0, 20, seed=7, infer_calls=infer)
        assert [s.hands for s in a] == [s.hands for s in b]
        assert [s.kitty for s in a] == [s.kitty for s in b]


def test_random_games_sample_consistent_states() -> None:
    """Whole hands between heuristic and random bots: at every decision of every seat
    (and for the seats waiting), samples match the observation."""
    rng = random.Random(0)
    for seed in range(2):
        state = new_game(load_ruleset("euchre"), players=4, seed=seed)
        bots = [make_bot("heuristic" if s % 2 else "random", seed=s) for s in range(4)]
        while state.hands_played < 1 + seed and not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            for seat in range(4):
                sampled = EuchreDeterminizer(state.observe(seat)).sample(rng)
                check_sample(state, seat, sampled)
            actor = state.to_act()[0]
            state.apply(actor, bots[actor].act(state.observe(actor)))


def test_a_defender_waiting_for_the_discards_sees_none_made() -> None:
    """The number of discards made is not in another seat's observation: its samples
    have the declarer about to discard (with eight cards)."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, *VOID_CALLS)
    discard(state, "9C")
    for sampled in samples(state, 3, 20, seed=8):
        assert sampled.hands[1].bit_count() == 8
        assert data(sampled).discards == []


def test_determinizer_refuses_other_games_and_moments() -> None:
    state = new_game(load_ruleset("blackout"), players=4, seed=0)
    state.apply_chance()
    with pytest.raises(ValueError, match="not a game of Euchre"):
        EuchreDeterminizer(state.observe(0))
    state = new()
    with pytest.raises(ValueError, match="nothing to determinize"):
        EuchreDeterminizer(state.observe(0))


# ---------------------------------------------------------------- rollout policy


def test_estimates_and_calls_are_the_heuristic_bots() -> None:
    """The rollout's calls are the heuristic's (docs/games/euchre.md, Auction), from faster
    estimates that equal :func:`trump_estimate`."""
    rng = random.Random(1)
    deck = list(load_ruleset("euchre").deck(4))
    for bowers in ("left_high", "right_high"):
        for _ in range(200):
            hand = card_set(rng.sample(deck, 5))
            fast = contract_estimates(hand, bowers)
            for trump in range(4):
                slow = trump_estimate(hand, trump, bowers=bowers)
                assert fast[trump] == pytest.approx(slow)
            assert fast[4] == pytest.approx(trump_estimate(hand, None, bowers=None))
    for seed in range(40):
        state = new_game(load_ruleset("euchre"), players=4, seed=seed)
        state.apply_chance()
        while state.phase_name == "auction":
            seat = state.to_act()[0]
            action = auction(state.observe(seat), rng)
            text = heuristic_call(state.hands[seat], "left_high", data(state).high, (seat + 2) % 4)
            assert text == (str(action.value) if action.kind == AUCTION else PASS)
            assert rollout_action(state, seat, state.legal_actions(seat)) == action
            state.apply(seat, action)


def test_the_rollout_does_not_overtake_a_partner_who_has_the_trick() -> None:
    """Partnerships (docs/games/euchre.md, Players and deck): seat 3's partner seat 1 holds the
    trick with the right bower and seat 0 cannot beat it, so seat 3 plays its lowest trump."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, *VOID_CALLS)
    discard(state, VOID_DISCARDS)
    play_cards(state, ["JH", "AS"])
    assert state.to_act() == (3,)
    action = rollout_action(state, 3, state.legal_actions(3))
    assert action == play(parse_card("9H"))


def test_the_rollout_discards_side_cards_and_plays_the_shared_card_policy() -> None:
    """The discards keep trumps and aces (docs/games/euchre.md, Kitty and discard); the cards
    are the shared policy of every game where each trick counts (bots/rollout.py)."""
    state = new()
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, *VOID_CALLS)
    kept = []
    for _ in range(3):
        action = rollout_action(state, 1, state.legal_actions(1))
        kept.append(format_card(int(action.value)))
        state.apply(1, action)
    assert sorted(kept) == sorted(["9C", "10S", "9D"])
    # No card of the declarer is sure to win the lead (seat 3's left bower, the highest
    # trump here, outranks its trumps; seat 0 holds higher diamonds): it leads its lowest.
    legal = state.legal_actions(1)
    assert (
        rollout_action(state, 1, legal) == rollout_card(state, 1, legal) == play(parse_card("10D"))
    )


# ----------------------------------------------------------------------- rewards

REST = ["KH", "QS", "JD", "KD", "10C", "QD", "AH", "KS"]
"""The last two tricks of the void hand: seats 1 & 3 take both, four tricks in all."""


def test_rewards_are_partnership_points() -> None:
    """docs/games/euchre.md, Scoring: 1 point for 3 or 4 tricks; partners share the reward."""
    state = void_position()
    play_cards(state, REST)
    assert state.history[0].hand_scores == (0, 1, 0, 1)
    assert rewards(state) == [-0.25, 0.25, -0.25, 0.25]
    thrown = new()
    deal(thrown, VOID_DEAL, VOID_KITTY)
    call(thrown, "pass", "pass", "pass", "pass")
    assert rewards(thrown) == [0.0] * 4


def with_result(state: GameState, hand: Sequence[int], total: Sequence[int]) -> list[float]:
    """The rewards had the last hand scored ``hand`` with these totals."""
    last = state.history[-1]
    state.history[-1] = replace(last, hand_scores=tuple(hand), total_scores=tuple(total))
    return rewards(state)


def test_rewards_count_points_up_to_the_target_and_the_win() -> None:
    """docs/games/euchre.md, Scoring: 2 points for five tricks, 2 to the defenders when the
    declarers fall short; End of the game: the game is to 10 points, so a side that needs one
    point gains nothing more from two, and reaching the target is worth half a reward more."""
    state = void_position()
    play_cards(state, REST)
    assert with_result(state, (0, 2, 0, 2), (0, 2, 0, 2)) == [-0.5, 0.5, -0.5, 0.5]
    assert with_result(state, (2, 0, 2, 0), (4, 6, 4, 6)) == [0.5, -0.5, 0.5, -0.5]
    assert with_result(state, (0, 2, 0, 2), (3, 11, 3, 11)) == [-0.75, 0.75, -0.75, 0.75]
    assert with_result(state, (2, 0, 2, 0), (10, 8, 10, 8)) == [1.0, -1.0, 1.0, -1.0]


def test_rewards_at_the_end_of_a_game() -> None:
    state = new({"target": 2})
    state.scores = [1, 1, 1, 1]
    deal(state, VOID_DEAL, VOID_KITTY)
    call(state, *VOID_CALLS)
    discard(state, VOID_DISCARDS)
    play_cards(state, [*VOID_TRICKS, *REST])
    assert state.is_terminal()
    assert rewards(state) == [-0.75, 0.75, -0.75, 0.75]


# ------------------------------------------------------------------- search bots


class Recording:
    """Wraps a bot: it sees only its own seat's observation, answers legally, and
    records the kinds of its decisions."""

    def __init__(self, inner: Bot, seat: int, kinds: Counter[str]) -> None:
        self.inner, self.seat, self.kinds, self.name = inner, seat, kinds, inner.name

    def act(self, observation: Observation) -> Action:
        assert isinstance(observation, Observation)
        assert observation.seat == self.seat
        action = self.inner.act(observation)
        assert action in observation.legal_actions
        if len(observation.legal_actions) > 1:
            self.kinds[action.kind] += 1
        return action


def whole_game(make: Callable[[int], Bot], seed: int) -> str:
    """A game to 1 point (one hand that is not thrown in) between four search bots;
    every decision kind is made."""
    kinds: Counter[str] = Counter()
    state = new_game(load_ruleset("euchre", options={"target": 1}), players=4, seed=seed)
    bots = [Recording(make(seed + s), s, kinds) for s in range(4)]
    play_game(state, bots)
    assert state.is_terminal()
    assert set(kinds) == {AUCTION, PASS, DISCARD, "play"}, kinds
    return state.record().dumps()


def test_pimc_plays_a_whole_game_making_every_decision() -> None:
    """docs/games/euchre.md, Auction, Kitty and discard and Play: calls, discards and cards are
    all the bot's."""

    def make(seed: int) -> Bot:
        return PIMCBot(seed, determinizations=3, rollouts=12, min_determinizations=1)

    assert whole_game(make, 1) == whole_game(make, 1)  # deterministic given the seed


def test_ismcts_plays_a_whole_game_making_every_decision() -> None:
    def make(seed: int) -> Bot:
        return ISMCTSBot(seed, iterations=12)

    assert whole_game(make, 2) == whole_game(make, 2)


def test_the_search_bots_see_only_their_observation() -> None:
    """Seat 0's choice is the same when the cards it cannot see are placed otherwise."""
    first = void_position()
    second = swapped(first)
    assert first.to_act() == (1,)
    for make in (lambda: PIMCBot(seed=3, determinizations=6), lambda: ISMCTSBot(3, 60)):
        assert make().act(first.observe(1)) == make().act(second.observe(1))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pimc", "ismcts:iterations=100"])
def test_the_search_bots_beat_the_heuristic(name: str) -> None:
    """Duplicate hands: the search bots' partnership scores more than the heuristic's
    (ISMCTS with its Euchre defaults, the other seats' tree moves following the game's
    policy with their sampled cards, at a quarter of its default budget: 100 deals a
    flat auction choice, 100 iterations a card; it scored 26 to the heuristic's 14 on
    these hands, at its default budget 28 in four times the time)."""
    totals: Counter[str] = Counter()
    for seed in range(12):
        for swap in (0, 1):
            state = new_game(load_ruleset("euchre"), players=4, seed=seed, first_dealer=seed % 4)
            names = [name, "heuristic"] * 2 if not swap else ["heuristic", name] * 2
            bots = [make_bot(names[s], seed=seed * 4 + s) for s in range(4)]
            play_game(state, bots, until_hand_end=True)
            for s in (0, 1):
                totals[names[s]] += state.history[0].hand_scores[s]
    assert totals[name] > totals["heuristic"]
