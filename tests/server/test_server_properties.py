"""Bad input gets a clear answer and changes nothing; no card reaches a socket that may
not know it (issue 11, point 6).

Hypothesis drives whole games of every shipped game over real WebSockets against a real
uvicorn server, with several clients that interleave good moves with bad messages:
malformed JSON, an unknown type, a missing field, a message over the size limit, an
action out of turn, an illegal card, nonsense actions, a wrong or missing token, a
spectator acting, acting for another seat, a repeated hello, repeated action ids, joining
a full or finished table, bad host actions, flooding. It checks that

- every bad message is answered on its socket with ``error`` (or an HTTP 4xx with a
  problem body), the server logs no error and every good move is acknowledged;
- the stored record is exactly the accepted actions (each ``ack``) and the bots' moves,
  with every chance step drawn from the table's seed;
- no message to a seat or a spectator holds a card that socket may not know: the game is
  replayed in the engine, and each card in each message is compared with what
  ``state.observe(seat)`` has shown that seat up to the message's seq (its hands, the
  cards played, the turn-up, plucks, the kitty, draws...); a spectator may see only cards
  every seat has been shown (docs/protocol.md, Views).
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, Table, make_table
from tests.server.test_crash import replay_with_seeded_chance
from tricktaker.cards import format_card
from tricktaker.engine import Action, ChanceOutcome, new_game
from tricktaker.rules import load_ruleset
from tricktaker.rules.ruleset import ruleset_from_data
from tricktaker.server import create_app
from tricktaker.server.tables.views import Json, observation_json

GAMES = [
    "blackout",
    "bluke",
    "buckup",
    "caller_clag",
    "clag",
    "coop_blackout",
    "euchre",
    "jabberwocky",
    "kachuful",
    "la_podrida",
    "pluck",
    "romanian_whist",
    "seven_truf",
    "up_and_down_the_river",
]

SHORTER = {"coop_blackout": {"max_hands": 12}}
"""Options that keep a long game bounded (a cooperative Blackout may go on for 100 hands)."""

EXAMPLE = "like AS, 10H or 2C"
"""How an error message shows the way to write a card (no card of the game)."""

NOT_SCANNED = {"id", "name", "at", "text", "invite", "ruleset"}
"""Keys whose values are names, ids, times or chat, never cards; and the table's rules
(fixed text the same for every seat, whose notes name cards such as the 2C)."""


# ------------------------------------------------------------------ cards in messages


def card_pattern(labels: tuple[str, str]) -> re.Pattern[str]:
    """Any card written as the server writes it (``AS``, ``10H``, the game's jokers)."""
    jokers = "|".join(re.escape(label) for label in labels)
    return re.compile(rf"(?<![A-Za-z0-9])(?:(?:10|[2-9JQKA])[CDHS]|{jokers})(?![A-Za-z0-9])")


def cards_in(value: Json, pattern: re.Pattern[str], found: set[str] | None = None) -> set[str]:
    """Every card named anywhere in ``value`` (keys too), except under :data:`NOT_SCANNED`."""
    found = set() if found is None else found
    if isinstance(value, dict):
        for key, item in value.items():
            found.update(pattern.findall(str(key)))
            if key not in NOT_SCANNED:
                cards_in(item, pattern, found)
    elif isinstance(value, list):
        for item in value:
            cards_in(item, pattern, found)
    elif isinstance(value, str):
        found.update(pattern.findall(value))
    return found


def knowledge(record: dict[str, Any]) -> tuple[list[list[set[str]]], re.Pattern[str]]:
    """``known[seat][seq]``: every card ``observe(seat)`` has shown the seat up to event
    ``seq`` of the record (0: before the first event); the last row is what every seat
    has been shown (the spectators' share)."""
    rules = ruleset_from_data(record["ruleset"], options=record["options"], source="record")
    players = record["players"]
    state = new_game(rules, players=players, seed=record["seed"])
    labels = state.setup.labels
    pattern = card_pattern(labels)
    seen: list[set[str]] = [set() for _ in range(players)]
    known: list[list[set[str]]] = [[] for _ in range(players + 1)]

    def look() -> None:
        for s in range(players):
            obs = state.observe(s)
            cards_in(observation_json(obs, history=False), pattern, seen[s])
            for hand in obs.history:
                cards_in(hand.to_json(labels=labels), pattern, seen[s])
            known[s].append(set(seen[s]))
        known[players].append(set.intersection(*seen))

    look()
    for who, text in record["events"]:
        if isinstance(who, str):
            state.apply_chance()
            assert isinstance(state.events[-1][1], ChanceOutcome)
        else:
            state.apply(who, Action.parse(text, labels=labels))
        look()
    return known, pattern


# ------------------------------------------------------------------ the clients


@dataclass
class Game:
    """One table being played: its clients and what the server accepted."""

    server: LiveServer
    http: httpx.Client
    table: Table
    rng: random.Random
    players: list[Player]
    spectator: Player
    strangers: list[Player] = field(default_factory=list)
    acks: dict[int, tuple[int, str]] = field(default_factory=dict)
    answered: dict[str, dict[str, Any]] = field(default_factory=dict)
    sent_cards: dict[int, set[str]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    counter: int = 0

    def new_id(self, seat: int | None) -> str:
        self.counter += 1
        return f"c{seat}-{self.counter}"

    def drain(self) -> None:
        for p in [*self.players, self.spectator]:
            with contextlib.suppress(TimeoutError):
                while True:
                    p.receive(timeout=0)

    def over(self) -> bool:
        return all(p.view is not None and p.view["phase"] == "game_over" for p in self.players)

    def answer(self, p: Player, text: str, action_id: str | None) -> dict[str, Any]:
        """Send ``text`` raw and read until its answer (the ``ack`` or ``error`` with
        ``action_id``; without an id, the next ``error``)."""
        p.socket.send(text)
        while True:
            message = p.receive(timeout=20)
            if message["type"] in ("ack", "error") and message.get("id") == action_id:
                if message["type"] == "error":
                    self.errors[message["code"]] = self.errors.get(message["code"], 0) + 1
                return message

    def refused(self, p: Player, message: Any, codes: set[str], action_id: str | None) -> None:
        """A bad message: answered by an error of one of ``codes``, never applied."""
        text = message if isinstance(message, str) else json.dumps(message)
        got = self.answer(p, text, action_id)
        assert got["type"] == "error", got
        assert got["code"] in {*codes, "rate_limited"}, (got, text[:200])
        assert got["message"], got

    def action(self, p: Player, action: str, action_id: str) -> dict[str, Any]:
        """An action that may be accepted: an ack is kept as accepted."""
        message = {"type": "action", "id": action_id, "action": action}
        self.sent_cards.setdefault(id(p), set()).update(action.split()[1:])
        got = self.answer(p, json.dumps(message), action_id)
        if got["type"] == "ack":
            assert p.seat is not None
            previous = self.acks.setdefault(got["seq"], (p.seat, action))
            assert previous == (p.seat, action), (previous, action)
            self.answered[action_id] = got
        return got

    def good_move(self) -> bool:
        """The player to act plays a legal move from its view; whether one could."""
        movers = [p for p in self.players if p.my_turn()]
        if not movers:
            return False
        p = self.rng.choice(movers)
        assert p.view is not None
        move = self.rng.choice(p.view["legal_actions"])
        got = self.action(p, move, self.new_id(p.seat))
        if got["type"] == "error":
            assert got["code"] == "rate_limited", (got, move, p.view)
            time.sleep(0.05)
        return True

    def bad_move(self, kind: str) -> None:
        rng, p = self.rng, self.rng.choice(self.players)
        view = p.view or {}
        labels = {"HB", "LB"}
        deck = [format_card(c) for c in range(52)] + sorted(labels)
        if kind == "malformed":
            self.refused(
                p, rng.choice(['{"type": "action", "id": ', "[1, 2", "nope"]), {"bad_message"}, None
            )
        elif kind == "unknown_type":
            self.refused(p, {"type": "shuffle", "id": "x"}, {"bad_message"}, "x")
        elif kind == "missing_field":
            action_id = self.new_id(p.seat)  # a malformed action's error carries its id
            self.refused(p, {"type": "action", "id": action_id}, {"bad_message"}, action_id)
        elif kind == "oversize":
            big = {"type": "chat", "text": "x" * 20_000}
            self.refused(p, big, {"too_large"}, None)
        elif kind == "other_seat":
            other = (p.seat or 0) + 1
            action_id = self.new_id(p.seat)
            message = {"type": "action", "id": action_id, "action": "bid 1"}
            self.refused(p, {**message, "seat": other}, {"bad_message"}, action_id)
        elif kind == "spectator_acts":
            action_id = self.new_id(None)
            message = {"type": "action", "id": action_id, "action": "bid 1"}
            self.refused(self.spectator, message, {"not_your_seat"}, action_id)
        elif kind == "hello_again":
            hello = {"type": "hello", "v": 1, "token": None, "last_seq": None}
            self.refused(p, hello, {"bad_message"}, None)
        elif kind in ("out_of_turn", "illegal_card", "nonsense"):
            if kind == "nonsense":
                text = rng.choice(["dance", "play", "play ZZ", "bid -1", "bid x", "pass pass"])
            elif kind == "out_of_turn":
                hand = view.get("hand") or deck
                text = f"play {rng.choice(hand)}" if rng.random() < 0.7 else "bid 1"
            else:
                legal = set(view.get("legal_actions", []))
                text = rng.choice([f"play {c}" for c in deck if f"play {c}" not in legal])
            got = self.action(p, text, self.new_id(p.seat))
            if got["type"] == "error":  # not_playing: once the game is over
                assert got["code"] in ("illegal", "rate_limited", "not_playing"), got
                assert got["code"] != "illegal" or got["rule"], got
        elif kind == "repeat_id" and self.answered:
            action_id = rng.choice(sorted(self.answered))
            owner = next(q for q in self.players if action_id.startswith(f"c{q.seat}-"))
            first = self.answered[action_id]
            again = self.answer(
                owner, json.dumps({"type": "action", "id": action_id, "action": "bid 0"}), action_id
            )
            assert again == first or again.get("code") == "rate_limited", (again, first)
        elif kind in ("wrong_token", "no_hello"):
            stranger = Player(self.server.ws_url, self.table.id, None, hello=False)
            self.strangers.append(stranger)
            if kind == "wrong_token":
                hello = {"type": "hello", "v": 1, "token": "not-a-token", "last_seq": None}
                self.refused(stranger, hello, {"unauthorized"}, None)
            else:
                message = {"type": "action", "id": "a1", "action": "bid 1"}
                self.refused(stranger, message, {"unauthorized"}, "a1")
            stranger.close()
        elif kind == "http":
            self.bad_http()
        elif kind == "flood":
            for _ in range(240):
                p.send({"type": "ping"})
            answers: list[dict[str, Any]] = []
            while len(answers) < 240:
                message = p.receive(timeout=20)
                if message["type"] in ("pong", "error"):
                    answers.append(message)
            assert {a["type"] for a in answers} == {"pong", "error"}
            assert {a["code"] for a in answers if a["type"] == "error"} == {"rate_limited"}
            time.sleep(0.2)

    def bad_http(self) -> None:
        """Bad requests: each a 4xx problem body, changing nothing."""
        t = self.table
        wrong = {"Authorization": "Bearer not-a-token"}
        as_json = {"Content-Type": "application/json"}  # not JSON all the same: 400
        for answer, status in [
            (self.http.post(f"/tables/{t.id}/join", json={"invite": t.invite, "name": "Z"}), 409),
            (self.http.post(f"/tables/{t.id}/join", json={"invite": "bad", "name": "Z"}), 403),
            (self.http.post(f"/tables/{t.id}/start", headers=wrong), 403),
            (self.http.post(f"/tables/{t.id}/leave", headers=wrong), 401),
            (self.http.put(f"/tables/{t.id}/seats/0/bot", json={"bot": "easy"}), 403),
            (self.http.post(f"/tables/{t.id}/join", content=b"{oops", headers=as_json), 400),
        ]:
            if answer.status_code == 429:
                continue
            assert answer.status_code == status, answer.text
            assert answer.headers["content-type"].startswith("application/problem+json")
            assert answer.json()["status"] == status


BAD_KINDS = [
    "malformed",
    "unknown_type",
    "missing_field",
    "oversize",
    "other_seat",
    "spectator_acts",
    "hello_again",
    "out_of_turn",
    "illegal_card",
    "nonsense",
    "repeat_id",
    "wrong_token",
    "no_hello",
    "http",
]


def check_messages(game: Game, record: dict[str, Any]) -> int:
    """No message to any socket names a card it may not know; returns the count checked."""
    known, pattern = knowledge(record)
    players = record["players"]
    checked = 0
    sockets = [(p, p.seat) for p in game.players] + [(game.spectator, None)]
    sockets += [(s, None) for s in game.strangers]
    for p, seat in sockets:
        row = known[players if seat is None else seat]
        seq = 0
        for message in p.messages:
            if message["type"] in ("event", "welcome"):
                seq = message["seq"]
            allowed = row[min(seq, len(row) - 1)]
            if message["type"] == "error":
                allowed = allowed | game.sent_cards.get(id(p), set())
            if message["type"] == "error":  # its example of how cards are written
                message = {**message, "message": message["message"].replace(EXAMPLE, "")}
            leaked = cards_in(message, pattern) - allowed
            assert not leaked, (
                f"{record['game']}: seat {seat} was sent {sorted(leaked)} at seq {seq},"
                f" which it may not know: {json.dumps(message)[:1500]}"
            )
            checked += 1
    return checked


def play_whole_game(
    server: LiveServer, http: httpx.Client, game_id: str, seed: int, rng: random.Random
) -> Game:
    """A whole game of ``game_id`` with bad messages among the good ones."""
    rules = load_ruleset(game_id)
    counts = list(rules.player_counts)
    players = rng.choice([n for n in counts if n <= 5] or counts[:1])
    seats = ["human"] * players
    if players > 2 and rng.random() < 0.5:
        seats[rng.randrange(1, players)] = "random"
    table = make_table(
        http,
        game=game_id,
        options=SHORTER.get(game_id, {}),
        players=players,
        seats=seats,
        host_seat=0,
        seed=seed,
        grace_seconds=3600,
    )
    # Half the sockets ask for views as changes (protocol 1.1): the check of every
    # message covers the changes they are sent as well as the whole views.
    clients = [
        Player(server.ws_url, table.id, table.tokens[s], deltas=rng.random() < 0.5)
        for s in sorted(table.tokens)
    ]
    spectator = Player(server.ws_url, table.id, None, deltas=rng.random() < 0.5)
    game = Game(server, http, table, rng, clients, spectator)
    game.bad_http()
    started = http.post(f"/tables/{table.id}/start", headers=table.host())
    assert started.status_code == 204, started.text
    for p in [*clients, spectator]:
        p.until("welcome")
    bad_rate = rng.choice([0.05, 0.2, 0.4])
    flood_at = rng.randrange(5, 60) if rng.random() < 0.3 else -1
    deadline = time.monotonic() + 240
    steps = 0
    while not game.over():
        assert time.monotonic() < deadline, "the game did not finish"
        steps += 1
        game.drain()
        if steps == flood_at:
            game.bad_move("flood")
        elif rng.random() < bad_rate:
            game.bad_move(rng.choice(BAD_KINDS))
        elif not game.good_move():
            time.sleep(0.002)
    # After the game: bad messages still get answers, the finished table refuses joins.
    for kind in ("illegal_card", "repeat_id", "http"):
        game.bad_move(kind)
    return game


@contextlib.contextmanager
def serving(db_url: str) -> Iterator[tuple[LiveServer, httpx.Client]]:
    """The real server on ``db_url``, with the socket rate limit (flooding is tested) but
    no per-address HTTP limit (every client here comes from one address), and a client."""
    server = LiveServer(create_app(db_url, http_rate=None))
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            yield server, client
    finally:
        server.stop()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[tuple[LiveServer, httpx.Client]]:
    """The server on a SQLite file, for the bulk of the games."""
    with serving(f"sqlite:///{tmp_path / 'server.sqlite3'}") as pair:
        yield pair


@pytest.fixture
def any_server(db_url: str) -> Iterator[tuple[LiveServer, httpx.Client]]:
    """The server on each database of the suite (SQLite, PostgreSQL)."""
    with serving(db_url) as pair:
        yield pair


def run_and_check(
    live_server: LiveServer,
    http: httpx.Client,
    caplog: pytest.LogCaptureFixture,
    game_id: str,
    seed: int,
    rng: random.Random,
) -> None:
    caplog.clear()
    game = play_whole_game(live_server, http, game_id, seed, rng)
    game.drain()
    answer = http.get(f"/tables/{game.table.id}/record")
    assert answer.status_code == 200, answer.text
    record = answer.json()
    # The record is the accepted actions, the bots' and the seeded chance steps, exactly.
    events = record["events"]
    human = {p.seat for p in game.players}
    stored = {i + 1: (who, text) for i, (who, text) in enumerate(events) if who in human}
    assert stored == game.acks
    assert replay_with_seeded_chance(record).record(names=record["names"]).to_json() == record
    assert check_messages(game, record) > len(events)
    assert game.errors, "no bad message was sent"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    for p in [*game.players, game.spectator]:
        p.close()


PROPERTY = settings(
    max_examples=1,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SEEDS = st.integers(0, 2**32 - 1)


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS, moves=SEEDS)
def test_whole_games_with_bad_messages(
    sqlite_server: tuple[LiveServer, httpx.Client],
    caplog: pytest.LogCaptureFixture,
    game_id: str,
    seed: int,
    moves: int,
) -> None:
    """docs/protocol.md, Live play and Views: a whole game of each shipped game with bad
    messages among the good; each refused, nothing leaked, the record exactly the
    accepted actions."""
    run_and_check(*sqlite_server, caplog, game_id, seed, random.Random(moves))


@pytest.mark.slow
@settings(PROPERTY, max_examples=5)
@given(game_id=st.sampled_from(GAMES), seed=SEEDS, moves=SEEDS)
def test_whole_games_with_bad_messages_on_each_database(
    any_server: tuple[LiveServer, httpx.Client],
    caplog: pytest.LogCaptureFixture,
    game_id: str,
    seed: int,
    moves: int,
) -> None:
    """docs/protocol.md, Live play and Views: the same property on SQLite and on
    PostgreSQL, several games at one server."""
    run_and_check(*any_server, caplog, game_id, seed, random.Random(moves))


def test_the_knowledge_check_sees_another_seats_hand() -> None:
    """docs/protocol.md, Views: the check above can fail. After the deal each seat knows
    its own hand and no card of another seat's; a spectator knows no hand at all."""
    state = new_game(load_ruleset("blackout"), players=4, seed=7)
    state.apply_chance()
    while state.is_chance():
        state.apply_chance()
    record = state.record().to_json()
    known, pattern = knowledge(record)
    seq = len(record["events"])
    hands = [set(observation_json(state.observe(s))["hand"]) for s in range(4)]
    assert hands[0] <= known[0][seq]
    assert not hands[1] & known[0][seq]
    assert not (hands[0] | hands[1]) & known[4][seq]
    leak = {"type": "event", "view": {"hand": sorted(hands[1])}}
    assert cards_in(leak, pattern) == hands[1]
    as_changes = {"type": "event", "delta": {"hand": sorted(hands[1])}, "removed": []}
    assert cards_in(as_changes, pattern) == hands[1]
