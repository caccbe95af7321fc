"""Search support for Buckup (docs/games/buckup.md): the determinizer samples states
the observing seat cannot tell from the real one at every decision the game asks for
(the ante, the 19 redeal, stay or fold and out for now, the discards and the draw, the
tricks), never reading hidden cards; the rollout policy and rewards cover a whole hand;
the PIMC and ISMCTS bots play Buckup legally and deterministically.

Seats are numbered clockwise; with ``first_dealer=0`` the decisions go 1, 2, ... and the
dealer (seat 0) decides last (docs/games/buckup.md, Stay or fold: in turn from the
dealer's left each player stays or folds).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from tests.helpers import act, deal, game, play_cards
from tricktaker import ChanceOutcome, GameState, Observation, load_ruleset, new_game
from tricktaker.bots import ISMCTSBot, PIMCBot, make_bot
from tricktaker.bots.determinize import known_voids
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.bots.rollout import rollout_card
from tricktaker.cards import cards_of, format_card, parse_card
from tricktaker.engine.actions import Action
from tricktaker.games.buckup.history import hand_strength
from tricktaker.games.buckup.hooks import BuckupData
from tricktaker.games.buckup.search import (
    BuckupDeterminizer,
    Step,
    public_script,
    rewards,
    rollout_action,
)

# ---------------------------------------------------------------------- helpers


def new(
    players: int = 5, *, options: Mapping[str, object] | None = None, seed: int = 0
) -> GameState:
    return game("buckup", players, options=options, seed=seed, first_dealer=0)


def data(state: GameState) -> BuckupData:
    assert isinstance(state.ext, BuckupData)
    return state.ext


def start(state: GameState, hands: Sequence[str], turn_up: str, ante: str = "kept") -> None:
    """The dealer sets the ante, then the given hands are dealt."""
    act(state, state.dealer, f"ante {ante}")
    deal(state, hands, turn_up=turn_up)


def stay(
    state: GameState, seat: int, discards: str = "", drawn: str | None = None, how: str = "stay"
) -> None:
    """``seat`` stays (or comes back), discards, says draw and draws ``drawn``."""
    act(state, seat, how)
    for card in discards.split():
        act(state, seat, f"discard {card}")
    act(state, seat, "draw")
    if drawn is not None:
        state.apply_chance(ChanceOutcome("draw", tuple(parse_card(c) for c in drawn.split())))
    while state.is_chance():
        state.apply_chance()


def samples(state: GameState, seat: int, count: int, seed: int = 0) -> list[GameState]:
    sampler = BuckupDeterminizer(state.observe(seat))
    rng = random.Random(seed)
    return [sampler.sample(rng) for _ in range(count)]


def where(state: GameState) -> list[tuple[str, int]]:
    """Every card's place: a seat's hand, the stock, the discards, set aside, played, or
    the turn-up."""
    d = data(state)
    out = [(f"seat {s}", c) for s in range(state.players) for c in cards_of(state.hands[s])]
    out += [("stock", c) for c in d.stock] + [("discards", c) for c in d.discards]
    out += [("aside", c) for c in d.setting_aside]
    out += [("played", c) for trick in state.trick_cards for _, c in trick]
    out += [("played", c) for _, c in state.trick]
    if state.turn_up is not None:
        out.append(("turn-up", state.turn_up))
    return out


def assert_consistent(true: GameState, sampled: GameState, seat: int) -> None:
    """docs/games/buckup.md: the sampled state shows ``seat`` exactly what the
    real one does (phase, legal actions, its hand, its discards and draws, chips, statuses,
    payments, tricks), every card is in one place, the hidden hands and piles have their real
    sizes, and no seat holds a card of a suit it showed it lacks."""
    obs = true.observe(seat)
    assert sampled.observe(seat) == obs
    cards = sorted(c for _, c in where(sampled))
    if true.phase_name != "ante":
        assert cards == list(range(52))
    assert [h.bit_count() for h in sampled.hands] == [h.bit_count() for h in true.hands]
    real, got = data(true), data(sampled)
    assert len(got.stock) == len(real.stock)
    assert len(got.discards) == len(real.discards)
    assert got.setting_aside == real.setting_aside
    assert got.drawn == real.drawn
    assert got.status == real.status
    assert got.ledger.stacks == real.ledger.stacks
    assert got.ledger.pot == real.ledger.pot
    assert got.ledger.payments == real.ledger.payments
    for other, void in enumerate(known_voids(obs)):
        held = {c // 13 for c in cards_of(sampled.hands[other])}
        assert not any((void >> suit) & 1 for suit in held), f"seat {other} breaks a void"


def run_to_end(state: GameState) -> None:
    """Play the hand out with the rollout policy (the engine checks every step)."""
    start_hands = state.hands_played
    state.seed = 99
    rollout_hand(state, search_for("buckup"))
    assert state.hands_played == start_hands + 1 or state.is_terminal()


def five_dealt() -> GameState:
    """Five players, spades trump (the 2S turned up), the hands dealt."""
    state = new(5)
    start(
        state,
        [
            "AD KD QD JD 10D",
            "AH KH 3C 4D 5D",
            "QH 2C 3D 9S 7C",
            "JH 10H 9H 8H 6C",
            "AC KC QC JC 10C",
        ],
        "2S",
    )
    return state


def several_voids() -> GameState:
    """Five players, spades trump. After the draw seats 0, 2 and 4 show a void in hearts
    (trick 1 and 2) and seat 4 one in diamonds (trick 3); seat 3 folded; seat 1's own
    discard 3C and the others' three discards are in the discard pile. Seat 1 is to
    follow diamonds in trick 3 (4D or 5D)."""
    state = five_dealt()
    stay(state, 1, "3C", "2H")
    stay(state, 2, "2C 7C", "4S 5C")
    act(state, 3, "fold")
    stay(state, 4)
    stay(state, 0, "10D", "6D")
    play_cards(state, ["AH", "QH", "10C", "6D", "KH", "9S", "JC", "JD", "3D", "QC", "AD"])
    assert state.to_act() == (1,)
    return state


# ----------------------------------------------------------- the observation


def test_observation_shows_own_discards_and_draws_only() -> None:
    """docs/games/buckup.md, Discard and draw: a player who stays discards and draws; the cards
    are private, the numbers public (the draw fee shows them). Only the player sees its discards
    and the cards it drew."""
    state = several_voids()
    mine = state.observe(1).extra
    assert mine["discarded"] == ["3C"]
    assert mine["drew"] == ["2H"]
    assert state.observe(2).extra["discarded"] == ["2C", "7C"]
    for seat in (0, 3, 4):
        extra = state.observe(seat).extra
        assert "3C" not in repr(extra)
        assert "2H" not in repr(extra)
    assert "discarded" not in state.observe(4).extra  # stayed and kept all five
    assert "drawn" not in mine  # the draw fees show the counts


def test_observation_gives_counts_without_a_card_fee_and_thrown_scare_cards() -> None:
    """docs/games/buckup.md, Discard and draw: with no card fee the fees do not show how many
    cards were drawn, so the counts are given; Scare cards: a face-up scare card thrown away is
    seen leaving."""
    state = game("buckup", 4, options={"card_fee": 0, "scare_cards": True}, first_dealer=0)
    start(state, ["AS KS QS JS 10S", "2H KH QH JH 10H", "AC KC QC JC 10C", "AD KD QD JD 10D"], "2C")
    stay(state, 1, "2H QH")
    extra = state.observe(3).extra
    assert extra["drawn"] == [0, 2, 0, 0]
    assert extra["scare_discarded"] == [False, True, False, False]
    assert extra["scare_cards"][1] == "2H"
    assert "discarded" not in extra
    assert "drew" not in extra


# ----------------------------------------------------------- the determinizer


def test_hand_built_position_with_several_voids() -> None:
    """Voids in hearts (seats 0, 2, 4) and diamonds (seat 4) are respected; the folded
    seat keeps five cards; seat 1's own discard stays in the discard pile."""
    state = several_voids()
    obs = state.observe(1)
    voids = known_voids(obs)
    hearts, diamonds = 1 << 2, 1 << 1
    assert voids[0] & hearts
    assert voids[2] & hearts
    assert voids[4] & (hearts | diamonds)
    seen: Counter[int] = Counter()
    for sampled in samples(state, 1, 40):
        assert_consistent(state, sampled, 1)
        assert parse_card("3C") in data(sampled).discards
        for s in range(5):
            seen[s] += sampled.hands[s] != state.hands[s]
    assert seen[3] > 0
    assert seen[0] > 0


def test_every_sampled_state_plays_on_to_the_end_of_the_hand() -> None:
    state = several_voids()
    for sampled in samples(state, 1, 5):
        run_to_end(sampled)
        assert len(rewards(sampled)) == 5


def after_seat_1_drew() -> GameState:
    """``five_dealt``, then seat 1 has stayed and drawn for 3C 4D 5D; seat 2 to act."""
    state = five_dealt()
    stay(state, 1, "3C 4D 5D")
    return state


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_stay_or_fold_after_others_drew(seat: int) -> None:
    """At each seat's stay-or-fold decision (and for a seat that is not asked), with
    earlier players' discards in the pile."""
    state = after_seat_1_drew()
    stay(state, 2, "2C")
    assert state.phase_name == "stay_or_fold"
    assert state.to_act() == (3,)
    for sampled in samples(state, seat, 20):
        assert_consistent(state, sampled, seat)


def test_discarding_in_progress() -> None:
    """A player part way through its discards: those already thrown are set aside."""
    state = after_seat_1_drew()
    act(state, 2, "stay")
    act(state, 2, "discard 2C")
    assert state.phase_name == "discard"
    for sampled in samples(state, 2, 20):
        assert_consistent(state, sampled, 2)
        assert data(sampled).setting_aside == [parse_card("2C")]


def test_ante_and_nineteen_redeal() -> None:
    """docs/games/buckup.md, Ante and 19 redeal: the dealer's ante (nothing dealt yet), and the
    19 redeal of a player whose five cards are all 9 or lower and add up to 19 or less."""
    state = new(4)
    for sampled in samples(state, 0, 3):
        assert_consistent(state, sampled, 0)
    start(state, ["AD KD QD JD 10D", "2C 3D 4H 5S 5C", "QH 2H 3S 9S 7C", "JH 10H 9H 8H 6C"], "2S")
    assert state.phase_name == "redeal"
    assert state.to_act() == (1,)
    for sampled in samples(state, 1, 20):
        assert_consistent(state, sampled, 1)
    act(state, 1, "keep")
    for seat in range(4):
        for sampled in samples(state, seat, 5):
            assert_consistent(state, sampled, seat)


def ofn_position() -> GameState:
    """docs/games/buckup.md, Out for now: seat 1 stays, seats 2 and 3 go out for now, the dealer
    goes out for now with one player in: seat 2 may come back."""
    state = new(4, options={"out_for_now": True})
    start(state, ["AD KD QD JD 10D", "AH KH 3C 4D 5D", "QH 2C 3D 9S 7C", "JH 10H 9H 8H 6C"], "2S")
    stay(state, 1, "3C")
    act(state, 2, "out_for_now")
    act(state, 3, "out_for_now")
    act(state, 0, "out_for_now")
    return state


def test_out_for_now_come_back_and_dealer_choice() -> None:
    """docs/games/buckup.md, Out for now: the players out for now get one more turn to come back
    in (and draw); if nobody does, the dealer comes back in or concedes the pot to the single
    player."""
    state = ofn_position()
    assert state.phase_name == "come_back"
    assert state.to_act() == (2,)
    for sampled in samples(state, 2, 15):
        assert_consistent(state, sampled, 2)
    act(state, 2, "fold")
    act(state, 3, "fold")
    assert state.phase_name == "dealer_choice"
    for sampled in samples(state, 0, 15):
        assert_consistent(state, sampled, 0)
    other = ofn_position()
    stay(other, 2, "2C 7C", how="come_back")
    act(other, 3, "fold")
    assert other.phase_name == "playing"
    # Staying at once and coming back later leave the same chips and statuses: the
    # observation cannot tell them apart, and either order of decisions explains it.
    script = public_script(other.observe(1))
    assert script[0] == Step(1, Action("stay"), 1, need=1.8)
    assert [(s.seat, s.discards) for s in script if s.discards is not None] == [(1, 1), (2, 2)]
    for sampled in samples(other, 1, 15):
        assert_consistent(other, sampled, 1)


def test_scare_cards_stay_where_they_are_seen() -> None:
    """docs/games/buckup.md, Scare cards: one card of each deal is face up. A held scare card
    stays with its player; one thrown away is in the discard pile."""
    state = new(4, options={"scare_cards": True})
    start(state, ["AD KD QD JD 10D", "2H KH 3C 4D 5D", "QH 2C 3D 9S 7C", "JH 10H 9H 8H 6C"], "4C")
    stay(state, 1, "2H 3C")
    act(state, 2, "fold")
    for sampled in samples(state, 3, 20):
        assert_consistent(state, sampled, 3)
        assert parse_card("2H") in data(sampled).discards
        assert sampled.hands[2] >> parse_card("QH") & 1
        assert sampled.hands[0] >> parse_card("AD") & 1


def restocked() -> GameState:
    """Seven players: seat 1 throws five cards, the stock runs out during seat 4's draw and
    the discards of seats 1 to 3 (14 cards) become the new stock; seats 4, 5 and 0 draw 1,
    5 and 2 of them, 6 are left. Seat 1 then leads."""
    state = new(7, seed=1)
    act(state, 0, "ante kept")
    state.apply_chance()
    throws = {1: 5, 2: 4, 3: 5, 4: 3, 5: 5, 0: 2}
    for seat in (1, 2, 3, 4, 5, 6, 0):
        if seat == 6:
            act(state, 6, "fold")
            continue
        act(state, seat, "stay")
        for card in sorted(cards_of(state.hands[seat]), key=lambda c: c % 13)[: throws[seat]]:
            state.apply(seat, Action("discard", card))
        act(state, seat, "draw")
        while state.is_chance():
            state.apply_chance()
    assert data(state).restocks == 1
    assert len(data(state).stock) == 6
    return state


def test_own_discards_shuffled_into_a_new_stock() -> None:
    """docs/games/buckup.md, Discard and draw: When the stock runs out, the discards are shuffled
    to form a new stock. Seat 1's discards may then be in the hands of seats 4, 5 and 0 (who drew
    from the new stock) or in the stock, as often as a fair shuffle puts them there: 1, 5, 2 and
    6 in 14."""
    state = restocked()
    mine = [parse_card(c) for c in state.observe(1).extra["discarded"]]
    counts: Counter[str] = Counter()
    total = 0
    for sampled in samples(state, 1, 120, seed=3):
        assert_consistent(state, sampled, 1)
        for place, card in where(sampled):
            if card in mine:
                assert place in ("seat 4", "seat 5", "seat 0", "stock"), place
                counts[place] += 1
                total += 1
    for place, expected in (("seat 4", 1 / 14), ("seat 5", 5 / 14), ("seat 0", 2 / 14)):
        assert abs(counts[place] / total - expected) < 0.06, (place, counts)
    assert abs(counts["stock"] / total - 6 / 14) < 0.06


@pytest.mark.slow
def test_restocked_position_matches_a_simulation_of_fair_shuffles() -> None:
    """An independent check of the distribution: deal the hidden cards fairly, let each
    player throw a uniformly random set of its cards of the observed size, shuffle the
    discards into the new stock fairly, and keep the deals in which seat 2 holds the card
    it played and no card of the suit it showed it lacks. Where seat 1's discards are
    and how many cards of the led suit seat 5 holds agree with the sampler's."""
    state = restocked()
    lead = next(
        c
        for c in cards_of(state.hands[1])
        if not any(x // 13 == c // 13 for x in cards_of(state.hands[2]))
    )
    act(state, 1, f"play {format_card(lead)}")
    second = min(cards_of(state.hands[2]), key=lambda c: c % 13)
    act(state, 2, f"play {format_card(second)}")
    obs = state.observe(1)
    mine = [parse_card(c) for c in obs.extra["discarded"]]
    drew = [parse_card(c) for c in obs.extra["drew"]]
    dealt = mine + [c for c in [*cards_of(obs.hand or 0), lead] if c not in drew]
    assert obs.turn_up is not None
    unseen = [c for c in range(52) if c not in dealt + drew + [obs.turn_up]]
    throws = {2: 4, 3: 5, 4: 3, 5: 5, 0: 2}
    led = lead // 13
    rng = random.Random(5)
    count = 3000

    def fair() -> tuple[dict[int, list[int]], list[int]]:
        while True:
            rng.shuffle(unseen)
            hands = {s: unseen[5 * i : 5 * i + 5] for i, s in enumerate((2, 3, 4, 5, 6, 0))}
            first = drew + unseen[30:]  # the first stock: seat 1 drew its top five
            kept: dict[int, list[int]] = {}
            thrown = list(mine)
            for s, k in throws.items():
                cards = hands[s][:]
                rng.shuffle(cards)
                kept[s] = cards[k:]
                if s in (2, 3):
                    thrown += cards[:k]
            rng.shuffle(thrown)  # the new stock: the discards of seats 1 to 3
            after = {
                2: kept[2] + first[5:9],
                3: kept[3] + first[9:14],
                4: kept[4] + first[14:16] + thrown[0:1],
                5: kept[5] + thrown[1:6],
                0: kept[0] + thrown[6:8],
                6: hands[6],
            }
            if second in after[2] and not any(c // 13 == led for c in after[2]):
                return after, thrown[8:]

    def tally(hands: dict[int, list[int]], stock: list[int], out: Counter[str]) -> None:
        for card in mine:
            out[next((f"seat {s}" for s in hands if card in hands[s]), "stock")] += 1
        out[f"led {sum(1 for c in hands[5] if c // 13 == led)}"] += 1

    expected: Counter[str] = Counter()
    for _ in range(count):
        tally(*fair(), expected)
    got: Counter[str] = Counter()
    for sampled in samples(state, 1, count, seed=6):
        hands = {s: cards_of(sampled.hands[s]) for s in (0, 2, 3, 4, 5, 6)}
        hands[2].append(second)
        tally(hands, data(sampled).stock, got)
    for key in expected.keys() | got.keys():
        share = len(mine) if key.startswith(("seat", "stock")) else 1
        p, q = expected[key] / (count * share), got[key] / (count * share)
        assert abs(p - q) < 0.01 + 4 * (p * (1 - p) / (count * share)) ** 0.5, (key, p, q)


def test_weights_favour_hands_that_explain_the_decisions() -> None:
    """A player who stayed and kept four cards more likely holds a strong hand: the
    weighted samples give it a stronger dealt hand than the uniform ones; the weights
    are positive and at most 1, and 1 before anyone has decided."""
    state = new(4)
    assert BuckupDeterminizer(state.observe(0)).weight(state) == 1.0
    start(state, ["AD KD QD JD 10D", "AS KS QS 3C 4D", "QH 2C 3D 9S 7C", "JH 10H 9H 8H 6C"], "2S")
    stay(state, 1, "3C")
    sampler = BuckupDeterminizer(state.observe(2))
    rng = random.Random(2)
    plain = weighted = total = 0.0
    for _ in range(60):
        sampled = sampler.sample(rng)
        weight = sampler.weight(sampled)
        assert 0 < weight <= 1
        strength = hand_strength(sampler._dealt_hands(sampled)[1], sampled.trump)
        plain += strength / 60
        weighted += weight * strength
        total += weight
    assert weighted / total > plain + 0.2
    assert sampler.weight(state) > 0.5  # the real deal explains the decisions well


def test_hidden_cards_are_never_read() -> None:
    """Two real states that differ only in cards seat 1 cannot see (seat 3's folded hand
    and seat 2's discards, exchanged with the stock) give the same samples."""

    rules = load_ruleset("buckup")

    def build(folded: str, throws: str) -> GameState:
        state = new_game(rules, players=5, seed=0, first_dealer=0)
        start(
            state,
            ["AD KD QD JD 10D", "AH KH 3C 4D 5D", f"QH {throws} 3D 9S", folded, "AC KC QC JC 10C"],
            "2S",
        )
        stay(state, 1, "3C", "2H")
        stay(state, 2, throws, "4S 5C")
        act(state, 3, "fold")
        return state

    one = build("JH 10H 9H 8H 6C", "2C 7C")
    two = build("JH 10H 9H 8H 8C", "2C 6C")
    assert one.hands[3] != two.hands[3]
    assert one.observe(4) == two.observe(4)
    first = samples(one, 4, 5, seed=7)
    second = samples(two, 4, 5, seed=7)
    for a, b in zip(first, second, strict=True):
        assert a.hands == b.hands
        assert data(a).stock == data(b).stock
        assert data(a).discards == data(b).discards


def test_random_games_sample_consistent_states_at_every_decision() -> None:
    """Whole hands of several rule variants (docs/games/buckup.md, Options: `scare_cards`,
    `out_for_now`, `four_card_deal` for 8 players), checking samples at every decision of every
    seat."""
    kinds: Counter[str] = Counter()
    configs: list[tuple[int, dict[str, object], int]] = [
        (4, {}, 1),
        (6, {"out_for_now": True, "scare_cards": True}, 2),
        (8, {"four_card_deal": True}, 3),
    ]
    for players, options, seed in configs:
        state = game("buckup", players, options=options, seed=seed)
        bots = [make_bot("random" if s % 2 else "heuristic", seed=s) for s in range(players)]
        rng = random.Random(seed)
        while state.hands_played < 2 and not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            obs = state.observe(seat)
            kinds[obs.phase] += 1
            sampler = BuckupDeterminizer(obs)
            if rng.random() < 0.5:
                assert_consistent(state, sampler.sample(rng), seat)
            state.apply(seat, bots[seat].act(obs))
    assert {"ante", "stay_or_fold", "discard", "playing"} <= set(kinds)


def test_refuses_other_games_and_chance_steps() -> None:
    state = game("euchre", 4)
    with pytest.raises(ValueError, match="not a game of Buckup"):
        BuckupDeterminizer(state.observe(0))
    state = new(4)
    act(state, 0, "ante kept")
    assert state.is_chance()
    with pytest.raises(ValueError, match="nothing to determinize"):
        BuckupDeterminizer(state.observe(1))


# ------------------------------------------------------- rollouts and rewards


def test_rollout_policy_plays_sure_winners_and_ducks() -> None:
    """Full information: a card no later player can beat wins cheaply; otherwise the
    lowest card goes."""
    state = several_voids()
    assert str(rollout_card(state, 1, state.legal_actions(1))) == "play 4D"
    state = new(4)
    start(state, ["AD KD QD JD 10D", "AH KH 3C 4D 5D", "QH 2C 3D 9S 7C", "JH 10H 9H 8H 6C"], "2S")
    for seat in (1, 2, 3, 0):
        stay(state, seat)
    # Seat 1 leads: the ace of hearts is beaten by nobody (seat 2 follows hearts).
    assert str(rollout_action(state, 1, state.legal_actions(1))) in ("play AH", "play KH")


def test_rollout_policy_makes_every_money_decision() -> None:
    state = new(4)
    assert str(rollout_action(state, 0, state.legal_actions(0))) == "ante kept"
    start(state, ["AD KD QD JD 10D", "2C 3D 4H 5S 5C", "QH 2H 3S 9S 7C", "JH 10H 9H 8H 6C"], "2S")
    assert str(rollout_action(state, 1, state.legal_actions(1))) == "redeal"
    act(state, 1, "keep")
    assert str(rollout_action(state, 1, state.legal_actions(1))) == "fold"  # 19 points
    act(state, 1, "stay")
    assert str(rollout_action(state, 1, state.legal_actions(1))) == "discard 2C"
    state = ofn_position()
    assert rollout_action(state, 2, state.legal_actions(2)).kind in ("come_back", "fold")


def test_rewards_are_chips_plus_a_share_of_the_next_pot() -> None:
    """docs/games/buckup.md, Scoring: the hand's chips for each seat plus an equal share of the
    pot carried over, scaled by the largest pot the hand could reach (the pot carried in, the
    antes and draw fees for five cards each)."""
    state = several_voids()
    run_to_end(state)
    result = state.history[-1]
    got = rewards(state)
    scale = result.extra["pot_before"] + 5 * (5 + 5 * 5)
    share = result.extra["pot_after"] / 5
    assert got == [(s + share) / scale for s in result.hand_scores]
    assert sum(got) == pytest.approx(result.extra["pot_before"] / scale)
    assert all(-2 <= r <= 2 for r in got)


# ------------------------------------------------------------------- the bots


class Checked:
    """Wraps a bot: it sees only its own seat's observation and answers legally."""

    def __init__(self, inner: object, seat: int) -> None:
        self.inner, self.seat = inner, seat
        self.kinds: Counter[str] = Counter()

    def act(self, observation: Observation) -> Action:
        assert observation.seat == self.seat
        action = self.inner.act(observation)  # type: ignore[attr-defined]
        assert isinstance(action, Action)
        assert action in observation.legal_actions
        self.kinds[action.kind] += 1
        return action


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_search_bots_make_every_kind_of_decision(kind: str) -> None:
    """The ante, the redeal, stay, the discards, come back and the dealer's choice, and
    the cards, each decided by the search (not the heuristic fallback)."""

    def bot(seed: int) -> PIMCBot | ISMCTSBot:
        if kind == "pimc":
            return PIMCBot(seed, determinizations=3, rollouts=12, min_determinizations=2)
        return ISMCTSBot(seed, iterations=12)

    decided: set[str] = set()
    state = new(4)
    decided.add(bot(1).act(state.observe(0)).kind)
    start(state, ["AD KD QD JD 10D", "2C 3D 4H 5S 5C", "QH 2H 3S 9S 7C", "JH 10H 9H 8H 6C"], "2S")
    decided.add(bot(1).act(state.observe(1)).kind)
    act(state, 1, "keep")
    decided.add(bot(2).act(state.observe(1)).kind)
    act(state, 1, "stay")
    decided.add(bot(3).act(state.observe(1)).kind)
    state = ofn_position()
    decided.add(bot(4).act(state.observe(2)).kind)
    act(state, 2, "fold")
    act(state, 3, "fold")
    decided.add(bot(5).act(state.observe(0)).kind)
    state = several_voids()
    decided.add(bot(6).act(state.observe(1)).kind)
    assert {"ante", "play"} <= decided
    assert decided & {"redeal", "keep"}
    assert decided & {"stay", "fold"}
    assert decided & {"discard", "draw"}
    assert decided & {"come_back", "concede"}


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_search_bots_play_a_whole_game_deterministically(kind: str) -> None:
    """A complete game (one hand, extended until the pot is empty, at most two) with two
    search bots and two random ones; the same seeds give the same game."""
    options = {"hands": 1, "max_hands": 2}

    def play() -> tuple[str, Counter[str]]:
        state = game("buckup", 4, options=options, seed=3)
        bots = [
            Checked(
                PIMCBot(s, determinizations=3, rollouts=10, min_determinizations=2)
                if kind == "pimc"
                else ISMCTSBot(s, iterations=8),
                s,
            )
            if s in (0, 2)
            else Checked(make_bot("random", seed=s), s)
            for s in range(4)
        ]
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].act(state.observe(seat)))
        return state.record().dumps(), bots[0].kinds + bots[2].kinds

    first, kinds = play()
    assert play()[0] == first
    assert {"ante", "stay", "play"} <= set(kinds)
    assert {"discard", "draw"} & set(kinds)


def test_search_bots_use_the_buckup_search() -> None:
    found = search_for("buckup")
    assert found.determinizer is BuckupDeterminizer
    assert found.searches("stay")
    assert found.searches("discard")
    assert found.searches("play")
