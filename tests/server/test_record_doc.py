"""docs/protocol.md, The game record: a third party replays a record from the page alone.

A real server (uvicorn on a local port, on SQLite and on PostgreSQL) plays three tables
of bots to the end, and the test fetches each record over HTTP and checks it with a
checker written here from the page's section and nothing else: it deals each hand's
cards to the seats from the deck order as the page says, and checks that every card
played was in that seat's hand then. For an Oh Hell game (Blackout, with its hook option
on) it also checks the bidding order and the hook, following suit, every trick's winner,
each hand's scores by the ruleset's formulas and the final scores; for two games with
hooks (Euchre: a patterned deal with a kitty, which the declarer takes; Pluck: cards
passed between seats by plucks) the deals and who holds each card. The checker reads the
ruleset only from the record (its data and options), and imports nothing of this
program: no replay, record, rules or engine code.

That the checks would catch a wrong page: the same records checked with the deal order
turned by one seat or two (``seat_shift``, as if the page said the dealer were dealt
first) fail, for all three games.
"""

from __future__ import annotations

import ast
import copy
import itertools
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx
import pytest

from tests.server.conftest import LiveServer

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Ranks from low to high, as the page writes them."""

Record = dict[str, Any]


# ------------------------------------------------------------- reading the ruleset


def put(data: dict[str, Any], dotted: str, value: Any) -> None:
    """Write ``value`` at ``a.b`` (field ``b`` of table ``a``) of ``data``."""
    *tables, name = dotted.split(".")
    for table in tables:
        data = data.setdefault(table, {})
    data[name] = copy.deepcopy(value)


def rules_of(record: Record) -> dict[str, Any]:
    """The record's ruleset with its options applied, as the page says: an on/off
    option writes its ``set`` when true and its ``unset`` when false, a number option
    its value to its ``field``."""
    rules: dict[str, Any] = copy.deepcopy(record["ruleset"])
    for name, value in record["options"].items():
        option = rules["options"][name]
        if option["type"] == "bool":
            for dotted, written in option.get("set" if value else "unset", {}).items():
                put(rules, dotted, written)
        else:
            put(rules, option["field"], value)
    return rules


def formula(text: str, **names: int) -> int:
    """A ruleset formula (docs/rulesets.md: integers, ``+ - * // %``, ``abs``, ``min``,
    ``max``, comparisons, ``a if c else b``) evaluated over ``names``."""
    operators: dict[type, Callable[[int, int], int]] = {
        ast.Add: lambda a, b: a + b,
        ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: lambda a, b: a // b,
        ast.Mod: lambda a, b: a % b,
    }
    comparisons: dict[type, Callable[[int, int], bool]] = {
        ast.Eq: lambda a, b: a == b,
        ast.NotEq: lambda a, b: a != b,
        ast.Lt: lambda a, b: a < b,
        ast.LtE: lambda a, b: a <= b,
        ast.Gt: lambda a, b: a > b,
        ast.GtE: lambda a, b: a >= b,
    }
    functions: dict[str, Callable[..., int]] = {"abs": abs, "min": min, "max": max}

    def value(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            return names[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp):
            return operators[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return comparisons[type(node.ops[0])](value(node.left), value(node.comparators[0]))
        if isinstance(node, ast.IfExp):
            return value(node.body) if value(node.test) else value(node.orelse)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return functions[node.func.id](*(value(arg) for arg in node.args))
        raise AssertionError(f"not a ruleset formula: {ast.dump(node)}")

    return int(value(ast.parse(str(text), mode="eval")))


def hand_sizes(rules: Mapping[str, Any], players: int, deck: int) -> list[int]:
    """The schedule's hand sizes (docs/rulesets.md, ``[schedule]``): comma-separated
    parts, each a number, ``max`` or ``players``, a run ``a..b..c`` one card at a time
    through each point, or a repeat ``count*size``."""
    schedule = rules.get("schedule", {})
    assert not schedule.get("called")
    assert not schedule.get("final_all_dealt")
    top = schedule.get("max_hand", "deck // players")
    if isinstance(top, Mapping):
        top = top[str(players)]
    maximum = formula(str(top), deck=deck, players=players)
    sizes = schedule.get("sizes", "1..max")
    if isinstance(sizes, Mapping):
        sizes = sizes[str(players)]

    def number(word: str) -> int:
        named = {"max": maximum, "players": players}
        return named[word.strip()] if word.strip() in named else int(word)

    out: list[int] = []
    for part in str(sizes).split(","):
        if "*" in part:
            count, size = part.split("*")
            out.extend([number(size)] * number(count))
        elif ".." in part:
            points = [number(p) for p in part.split("..")]
            out.append(points[0])
            for start, end in itertools.pairwise(points):
                step = 1 if end > start else -1
                out.extend(range(start + step, end + step, step))
        else:
            out.append(number(part))
    return out


# ------------------------------------------------------------------- dealing


def deal_order(dealer: int, players: int, rules: Mapping[str, Any], seat_shift: int) -> list[int]:
    """The seats in the order they receive cards: the dealer's left first, the dealer
    last (from the right with a counterclockwise deal). ``seat_shift`` turns it, to
    show the checks catch a wrong order."""
    if rules.get("table", {}).get("deal_direction") == "counterclockwise":
        order = [(dealer - 1 - i) % players for i in range(players)]
    else:
        order = [(dealer + 1 + i) % players for i in range(players)]
    return [(seat + seat_shift) % players for seat in order]


def deal(
    cards: list[str], order: list[int], size: int, rules: Mapping[str, Any]
) -> tuple[list[list[str]], list[str], list[str]]:
    """Each seat's cards, the kitty and the undealt cards, from the deal event's deck
    order: one card at a time round the deal order, or in the pattern's packets."""
    players = len(order)
    hands: list[list[str]] = [[] for _ in range(players)]
    kitty: list[str] = []
    pattern = rules.get("deal", {}).get("pattern")
    used = 0
    if pattern is None:
        for i in range(size * players):
            hands[order[i % players]].append(cards[i])
        used = size * players
    else:
        for group in pattern.split(";"):
            words = group.split()
            if words[0] == "kitty":
                count = int(words[1])
                kitty.extend(cards[used : used + count])
                used += count
                continue
            for seat, count in zip(order, (int(word) for word in words), strict=True):
                hands[seat].extend(cards[used : used + count])
                used += int(count)
    return hands, kitty, cards[used:]


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


# ---------------------------------------------------------------- the checkers


def check_oh_hell_record(record: Record, *, seat_shift: int = 0) -> None:
    """Replay an Oh Hell record (no hooks, no jokers) from the page: the deals, the
    bids (order, range, hook), every card's owner and following suit, each trick's
    winner, each hand's scores and the final scores."""
    assert record["format"] == "tricktaker-record"
    assert record["version"] == 1
    rules = rules_of(record)
    assert "hooks" not in rules
    players = record["players"]
    events = list(record["events"])
    deck = len(events[0][1].split())
    sizes = hand_sizes(rules, players, deck)
    specials = {s["hand"]: s for s in rules.get("schedule", {}).get("special", [])}
    scoring = rules.get("scoring", {})
    hook = rules.get("bidding", {}).get("hook", False)
    assert rules.get("bidding", {}).get("style", "sequential") == "sequential"
    assert rules.get("trump", {}).get("method", "turn_up") == "turn_up"
    assert rules.get("play", {}).get("follow_suit", True)
    assert not rules.get("play", {}).get("must_trump", False)
    left = -1 if rules.get("table", {}).get("dealer_rotation") == "right" else 1
    dealer = record["first_dealer"]
    totals = [0] * players
    at = 0
    for number, size in enumerate(sizes, start=1):
        kind, text = events[at]
        at += 1
        assert kind == "deal", (number, kind)
        cards = text.split()
        assert len(cards) == deck
        assert len(set(cards)) == deck
        hands, kitty, rest = deal(
            cards, deal_order(dealer, players, rules, seat_shift), size, rules
        )
        assert not kitty
        special = specials.get(number, {})
        turn_up = rest[0] if rest and special.get("trump") != "none" else None
        trump = suit(turn_up) if turn_up is not None else None
        eldest = (dealer + 1) % players
        bids: list[int] = []
        for i in range(players):
            seat, action = events[at]
            at += 1
            assert seat == (eldest + i) % players, (number, "bid out of turn", seat)
            word, value = action.split()
            assert word == "bid"
            bid = int(value)
            assert 0 <= bid <= size
            if hook and i == players - 1:
                assert sum(bids) + bid != size, (number, "the hook")
            bids.append(bid)
        bid_of = {(eldest + i) % players: bid for i, bid in enumerate(bids)}
        tricks = [0] * players
        leader = eldest
        for _ in range(size):
            trick: list[tuple[int, str]] = []
            for i in range(players):
                seat, action = events[at]
                at += 1
                assert seat == (leader + i) % players, (number, "played out of turn", seat)
                word, card = action.split()
                assert word == "play"
                hand = hands[seat]
                assert card in hand, (number, f"seat {seat} plays {card} it does not hold")
                if trick and suit(card) != suit(trick[0][1]):
                    led = suit(trick[0][1])
                    assert all(suit(c) != led for c in hand), (number, "did not follow suit")
                hand.remove(card)
                trick.append((seat, card))
            led = suit(trick[0][1])
            trumps = [(s, c) for s, c in trick if suit(c) == trump]
            contenders = trumps or [(s, c) for s, c in trick if suit(c) == led]
            leader = max(contenders, key=lambda played: rank(played[1]))[0]
            tricks[leader] += 1
        assert all(not hand for hand in hands)
        for seat in range(players):
            bid, took = bid_of[seat], tricks[seat]
            otherwise = scoring.get("otherwise", "0")
            if took == bid:
                rule = scoring.get("exact_zero") if bid == 0 else None
                rule = rule or scoring.get("exact", otherwise)
            else:
                rule = scoring.get("over" if took > bid else "under", otherwise)
            names = {"bid": bid, "tricks": took, "hand_size": size, "players": players}
            totals[seat] += formula(rule, **names)
            assert "trick_points" not in scoring
        dealer = (dealer + left) % players
    assert at == len(events), "events after the schedule's last hand"
    assert record["finished"] is True
    assert record["final_scores"] == totals


def check_dealt_cards_record(record: Record, *, seat_shift: int = 0) -> None:
    """Check a record of a game with hooks whose hands are dealt by the ruleset (Euchre,
    Pluck) as far as the page says without the game's own rules: every hand's deal gives
    each seat its cards (and the kitty), the last seat to bid in the auction takes the
    kitty before it discards, a pluck's card goes to the seat that gives one back and
    that card to the plucker, every card a seat discards, plucks, gives back or plays is
    one it holds, and every card dealt to a seat is played or discarded by the end of
    the hand."""
    assert record["format"] == "tricktaker-record"
    assert record["version"] == 1
    rules = rules_of(record)
    assert "hooks" in rules
    players = record["players"]
    sizes = hand_sizes(rules, players, deck=len(record["events"][0][1].split()))
    left = -1 if rules.get("table", {}).get("dealer_rotation") == "right" else 1
    dealer = record["first_dealer"]
    hands: list[list[str]] = []
    kitty: list[str] = []
    bidder: int | None = None
    plucked: tuple[int, str] | None = None
    number = 0
    cards_played = 0

    def hand_over() -> None:
        # A hand ends with every card played, or thrown in before any card is.
        assert all(not hand for hand in hands) or cards_played == 0, (number, hands)

    for who, text in record["events"]:
        if who == "deal":
            if number:
                hand_over()
                dealer = (dealer + left) % players
            number += 1
            size = sizes[(number - 1) % len(sizes)]
            order = deal_order(dealer, players, rules, seat_shift)
            hands, kitty, _ = deal(text.split(), order, size, rules)
            bidder, cards_played = None, 0
            continue
        assert isinstance(who, int), who
        word, *value = text.split()
        if word == "auction":
            bidder = who
        elif word == "discard":
            assert who == bidder, (number, "a discard by another seat than the declarer")
            if kitty:  # the declarer takes the kitty into its hand before discarding
                hands[who].extend(kitty)
                kitty = []
            assert value[0] in hands[who], (number, f"seat {who} discards {value[0]}")
            hands[who].remove(value[0])
        elif word == "pluck":
            assert value[0] in hands[who], (number, f"seat {who} plucks with {value[0]}")
            hands[who].remove(value[0])
            plucked = who, value[0]
        elif word == "give_back":
            assert plucked is not None, (number, "a card given back with no pluck before it")
            plucker, card = plucked
            hands[who].append(card)
            assert value[0] in hands[who], (number, f"seat {who} gives back {value[0]}")
            hands[who].remove(value[0])
            hands[plucker].append(value[0])
            plucked = None
        elif word == "play":
            assert value[0] in hands[who], (number, f"seat {who} plays {value[0]} it does not hold")
            hands[who].remove(value[0])
            cards_played += 1
    assert number >= 1
    hand_over()
    assert record["finished"] is True


# ------------------------------------------------------------------- the tests


def finished_record(http: httpx.Client, body: dict[str, Any]) -> Record:
    """Create a table of bots, start it, wait for its game to end and fetch its record."""
    created = http.post("/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()["table"]["id"]
    host = {"Authorization": f"Bearer {created.json()['host_token']}"}
    assert http.post(f"/tables/{table}/start", headers=host).status_code == 204
    deadline = time.monotonic() + 120
    while http.get(f"/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    answer = http.get(f"/tables/{table}/record", params={"game": 1})
    assert answer.status_code == 200, answer.text
    record: Record = answer.json()
    return record


OH_HELL = {
    "game": "blackout",
    "options": {"hook": True},
    "players": 4,
    "seats": ["random"] * 4,
    "seed": 11,
}
KITTY = {"game": "euchre", "players": 4, "seats": ["random"] * 4, "seed": 11}
PLUCKS = {"game": "pluck", "players": 3, "seats": ["random"] * 3, "seed": 11}


@pytest.mark.slow
def test_a_record_replays_from_the_page_alone(live_server: LiveServer) -> None:
    """docs/protocol.md, The game record: three games played to the end by bots on a real
    server, their records fetched over HTTP, are dealt, bid, played and scored as the
    page says, every card where the page puts it, the final scores the record's.
    The checks depend on the page's mapping of the deck to the seats: with the deal
    order turned by one seat or two, the same records fail them."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        oh_hell = finished_record(http, OH_HELL)
        kitty = finished_record(http, KITTY)
        plucks = finished_record(http, PLUCKS)
    assert oh_hell["options"]["hook"] is True
    assert oh_hell["seed"] == OH_HELL["seed"]
    check_oh_hell_record(oh_hell)
    check_dealt_cards_record(kitty)
    check_dealt_cards_record(plucks)
    assert any(text.startswith("give_back") for _, text in plucks["events"])
    for shift in (1, 2):
        with pytest.raises(AssertionError):
            check_oh_hell_record(oh_hell, seat_shift=shift)
        for record in (kitty, plucks):
            with pytest.raises(AssertionError):
                check_dealt_cards_record(record, seat_shift=shift)
