"""The facts every table shows beside the cards, from the presentation layer: the running
bids against the tricks, the hand in the order it is held with its trumps marked, the
cards each seat still holds, the standings, and seats named from 1."""

from __future__ import annotations

from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.cards import parse_card
from tricktaker.engine import GameRecord, GameState, bid
from tricktaker.present import present_json
from tricktaker.present.panels import bids_line, cards_held, hidden_hand_note
from tricktaker.present.scorecard import standings
from tricktaker.present.text import default_seat_name, display_order

NAMES = ["Ann", "Bob", "Cy", "Di"]


def blackout_at_bidding(size_hands: int = 1) -> GameState:
    state = new_game(load_ruleset("blackout"), players=4, seed=11, first_dealer=3)
    state.apply_chance()
    return state


def test_the_bids_line_counts_the_bids_against_the_tricks() -> None:
    """docs/games/blackout.md, Bidding: each player bids the tricks they expect to take;
    the line shows the bids so far against the tricks of the hand, then over or under."""
    state = blackout_at_bidding()
    size = state.hand_size
    line = bids_line(state.observe(0))
    assert line is not None
    assert line["waiting"] == 4
    assert line["total"] == 0
    assert line["tricks"] == size
    assert size == 1  # the first hand: one trick, in the singular
    assert line["text"] == "No bids yet: 1 trick"
    state.apply(0, bid(1))
    line = bids_line(state.observe(2))
    assert line is not None
    assert line["text"] == f"Bids so far 1 of {size}, 3 to bid"
    for seat in (1, 2, 3):
        state.apply(seat, bid(1))
    line = bids_line(state.observe(1))
    assert line is not None
    assert line["over"] == 4 - size
    expected = (
        f"Bids 4 of {size}: {4 - size} over"
        if size < 4
        else (f"Bids 4 of {size}: {size - 4} under" if size > 4 else f"Bids 4 of {size}: even")
    )
    assert line["text"] == expected
    assert present_json(state.observe(1), NAMES)["panel"]["bids"] == line


def test_no_bids_line_where_the_game_has_no_bids_to_total() -> None:
    """docs/games/euchre.md, Auction: Euchre's contract comes from an auction, not from a
    bid per player, so there is no total of bids to show."""
    state = new_game(load_ruleset("euchre"), players=4, seed=3)
    state.apply_chance()
    assert bids_line(state.observe(0)) is None


def test_the_left_bower_is_shown_among_the_trumps() -> None:
    """docs/games/euchre.md, Players and deck: the left bower is a trump for the whole
    hand; the hand shows it with the trumps, which come first, strongest first."""
    state = new_game(load_ruleset("euchre"), players=4, seed=3)
    state.apply_chance()
    bots = [make_bot("easy", seed=s) for s in range(4)]
    while state.observe(0).phase != "playing":
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    trump = state.trump
    assert trump is not None
    left = parse_card("J" + "CDHS"[3 - trump])
    right = parse_card("J" + "CDHS"[trump])
    for seat in range(4):
        obs = state.observe(seat)
        order = display_order(obs)
        tables = obs.tables
        assert tables is not None
        trumps = [c for c in order if tables.suit_of[c] == trump]
        assert order[: len(trumps)] == trumps, "the trumps come first"
        keys = [tables.key(c, trump) for c in trumps]
        assert keys == sorted(keys, reverse=True), "strongest trump first"
        hand = present_json(obs, NAMES)["hand"]
        assert [h["card"] for h in hand] == [f"{c}" for c in _codes(order)]
        for entry in hand:
            if entry["card"] in (_code(left), _code(right)):
                assert entry["trump"] is True
                assert entry["suit"] == "CDHS"[trump]
    # the same deal with the trump known holds the bower rule in one place: the tables
    assert state.tables is not None
    assert state.tables.suit_of[left] == trump


def _code(card: int) -> str:
    from tricktaker.cards import format_card

    return format_card(card)


def _codes(cards: list[int]) -> list[str]:
    return [_code(c) for c in cards]


def test_each_seat_holds_the_hand_less_the_cards_it_played() -> None:
    """docs/games/blackout.md, Play: each trick takes one card from every player."""
    state = blackout_at_bidding()
    bots = [make_bot("easy", seed=s) for s in range(4)]
    size = state.hand_size
    while not state.trick:
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    leader = state.trick[0][0]
    obs = state.observe(0)
    for seat in range(4):
        assert cards_held(obs, seat) == size - (seat == leader)
    rows = present_json(obs, NAMES)["seats"]
    assert [row["cards"] for row in rows] == [cards_held(obs, s) for s in range(4)]


def test_standings_rank_by_total_with_ties_sharing_a_place() -> None:
    """docs/games/blackout.md, End of the game: the highest total wins."""
    ranked = standings([12, 30, 12, 7], NAMES)
    assert [(e["place"], e["name"], e["total"]) for e in ranked] == [
        (1, "Bob", 30),
        (2, "Ann", 12),
        (2, "Cy", 12),
        (4, "Di", 7),
    ]
    teams = standings([6, 10, 6, 10], NAMES, [(0, 2), (1, 3)])
    assert [(e["place"], e["seats"], e["total"]) for e in teams] == [
        (1, [1, 3], 10),
        (2, [0, 2], 6),
    ]
    together = standings([5, 5, 5], NAMES[:3], cooperative=True)
    assert len(together) == 1
    assert together[0]["seats"] == [0, 1, 2]


def test_a_finished_game_shows_its_standings_and_no_hidden_hand_note() -> None:
    """docs/games/blackout.md, End of the game; Blackout has no blind bidding, so the
    finished game never says the seat bid blind."""
    state = new_game(load_ruleset("blackout"), players=3, seed=2)
    bots = [make_bot("random", seed=s) for s in range(3)]
    from tricktaker.bots import play_game

    play_game(state, bots)
    obs = state.observe(0)
    block = present_json(obs, NAMES[:3])
    assert block["panel"]["hand_note"] is None
    assert "blind" not in hidden_hand_note(obs)
    ranked = block["scorecard"]["standings"]
    assert ranked[0]["total"] == max(state.scores)
    assert sorted(e["total"] for e in ranked) == sorted(state.scores)


def test_seats_are_named_from_one() -> None:
    assert [default_seat_name(s) for s in range(3)] == ["Seat 1", "Seat 2", "Seat 3"]


def test_a_record_keeps_the_names_and_the_undos() -> None:
    state = new_game(load_ruleset("jabberwocky"), players=3, seed=1)
    state.apply_chance()
    record = state.record(names=["Ann", "Bob", "Cy"])
    undone = GameRecord(
        **{
            **{f: getattr(record, f) for f in record.__dataclass_fields__},
            "undos": [{"seat": 0, "at": 1, "events": [[0, "bid 1"]]}],
        }
    )
    again = GameRecord.loads(undone.dumps())
    assert again.names == ["Ann", "Bob", "Cy"]
    assert again.undos == [{"seat": 0, "at": 1, "events": [[0, "bid 1"]]}]
    assert again.replay().hand_size == state.hand_size
    old = {k: v for k, v in record.to_json().items() if k not in ("names", "undos")}
    assert GameRecord.from_json(old).names is None


def test_no_hidden_hand_note_between_hands() -> None:
    """docs/games/blackout.md, Deal and trump: between two hands the cards are not dealt
    yet; the panel says nothing of a hidden hand then (the heading tells the next hand)."""
    state = new_game(load_ruleset("blackout"), players=3, seed=2)
    assert state.is_chance()
    block = present_json(state.observe(0), NAMES[:3])
    assert block["panel"]["hand_note"] is None
