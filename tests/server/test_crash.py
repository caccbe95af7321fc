"""The server killed with SIGKILL in the middle of a game loses nothing (issue 11, point 5).

docs/protocol.md: every accepted action is stored in the database before anyone is told
of it; a client that reconnects (its seat token and ``last_seq``) gets a fresh snapshot
and carries on. The real server runs as a subprocess (``python -m tricktaker serve``) on
the test's database (SQLite and PostgreSQL) and the clients talk to it over real
WebSockets.
"""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from tests.server.helpers import Player, Table, make_table, replay_saved
from tests.server_process import ServerProcess
from tricktaker.cards import parse_card
from tricktaker.engine import Action, ChanceOutcome, GameRecord, GameState, new_game
from tricktaker.rules.ruleset import ruleset_from_data

SEED = 20_261_124


def choose(player: Player) -> str:
    """The client's move: a legal action chosen from its view by a generator seeded by
    the seat and the table's seq, so the same position gets the same move."""
    assert player.view is not None
    rng = random.Random(f"{SEED}:{player.seat}:{player.seq}")
    return str(rng.choice(player.view["legal_actions"]))


def drain(players: list[Player], *, closed: bool = False) -> bool:
    """Read whatever has arrived on every socket; whether anything did (``closed``: the
    sockets may have been cut, by the server's death)."""
    got = False
    cut = (TimeoutError, ConnectionClosed) if closed else (TimeoutError,)
    for p in players:
        with contextlib.suppress(*cut):
            while True:
                p.receive(timeout=0)
                got = True
    return got


def play(
    players: list[Player],
    acks: dict[int, tuple[int, str]],
    counter: list[int],
    *,
    stop_at_half: bool,
    limit: float = 180.0,
) -> tuple[Player, str, str] | None:
    """Play the people's turns (``acks``: seq → (seat, action) of every ack). With
    ``stop_at_half``, once half the hands are played, the next move is sent without
    waiting for its answer and returned as (player, action id, action)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        views = [p.view for p in players if p.view is not None]
        if len(views) == len(players) and all(v["phase"] == "game_over" for v in views):
            return None
        busy = drain(players)
        for p in players:
            if not p.my_turn() or not p.view:
                continue
            counter[0] += 1
            action, action_id = choose(p), f"s{p.seat}-{counter[0]}"
            if stop_at_half and p.view["hands_played"] * 2 >= p.view["hands_in_game"]:
                p.send({"type": "action", "id": action_id, "action": action})
                return p, action_id, action
            answer = p.act(action, action_id)
            assert answer["type"] == "ack", answer
            acks[answer["seq"]] = (p.seat or 0, action)
            busy = True
        if not busy:
            time.sleep(0.002)
    raise AssertionError("the game did not finish in time")


def replay_with_seeded_chance(record: dict[str, Any]) -> GameState:
    """The game without the crash: the record's seat actions applied to a new game from
    the table's seed, every chance step (deal, turn-up...) drawn by the engine from that
    seed rather than read from the record."""
    rules = ruleset_from_data(record["ruleset"], options=record["options"], source="record")
    state = new_game(rules, players=record["players"], seed=record["seed"])
    labels = state.setup.labels
    for who, text in record["events"]:
        if isinstance(who, str):
            assert state.is_chance(), f"the record has a {who} where the game has none"
            state.apply_chance()
            drawn = state.events[-1][1]
            assert isinstance(drawn, ChanceOutcome)
            expected = tuple(parse_card(c, labels=labels) for c in text.split())
            assert (drawn.kind, drawn.cards) == (who, expected), "a chance step differs"
        else:
            state.apply(who, Action.parse(text, labels=labels))
    return state


def test_a_game_survives_sigkill_of_the_server(
    server: ServerProcess, tmp_path: Path, db_url: str
) -> None:
    """docs/protocol.md (every accepted action is stored before anyone is told of it;
    a reconnecting client gets a fresh snapshot): two people, two bots and a spectator
    play half a game; the server is killed with SIGKILL right after a person sent a move
    whose answer never came; it restarts on the same database; every client reconnects
    with its token and last_seq; the person sends the same move with the same id again;
    the game is finished and its record downloaded.

    What "the record of the same actions played without the crash" means here: the bots
    are seeded, but a bot is made afresh (from the same seed) when the server rebuilds the
    table, so its random generator restarts and its moves after the crash need not be
    the ones it would have made without it. The people's moves are reproducible (chosen
    from the view by a generator seeded by seat and seq). So the reference is the
    record's own seat actions played in the engine from the table's seed with every
    chance step drawn from the seed again (not read from the record): the deals after
    the restart must be the deals of the uninterrupted game, and the result must be the
    downloaded record exactly. Besides: every action acknowledged before or after the
    crash is in the record at its acknowledged seq; the move in flight at the crash is
    in it exactly once; the events the clients saw before the crash are the record's
    first events; and ``tricktaker replay`` replays the downloaded record.
    """
    http = httpx.Client(base_url=server.url, timeout=30)
    table: Table = make_table(
        http,
        game="blackout",
        seats=["human", "heuristic", "human", "random"],
        host_seat=0,
        seed=SEED,
        grace_seconds=600,
    )
    humans = [Player(server.ws_url, table.id, table.tokens[s]) for s in (0, 2)]
    watcher = Player(server.ws_url, table.id, None)
    started = http.post(f"/tables/{table.id}/start", headers=table.host())
    assert started.status_code == 204, started.text
    for p in [*humans, watcher]:
        p.until("welcome")
    acks: dict[int, tuple[int, str]] = {}
    counter = [0]
    in_flight = play(humans, acks, counter, stop_at_half=True)
    assert in_flight is not None
    mover, flying_id, flying_action = in_flight

    server.kill()
    drain(
        [*humans, watcher], closed=True
    )  # what was sent before the crash, up to the closed socket
    seen_before = {
        m["seq"]: m["actor"] for p in [*humans, watcher] for m in p.messages if m["type"] == "event"
    }
    last_seqs = {p.seat: p.seq for p in humans}
    for p in [*humans, watcher]:
        with contextlib.suppress(Exception):
            p.close()

    server.start()
    again = [Player(server.ws_url, table.id, table.tokens[s], last_seqs[s]) for s in (0, 2)]
    watcher2 = Player(server.ws_url, table.id, None, watcher.seq)
    assert [p.seat for p in again] == [0, 2]
    assert all(p.seq >= last_seqs[p.seat or 0] for p in again)
    same = next(p for p in again if p.seat == mover.seat)
    answer = same.act(flying_action, flying_id)  # stored before the crash, or not yet
    assert answer["type"] == "ack", answer
    acks[answer["seq"]] = (mover.seat or 0, flying_action)
    assert same.act(flying_action, flying_id) == answer  # and once only
    assert play(again, acks, counter, stop_at_half=False) is None
    for p in again:
        p.close()

    downloaded = http.get(f"/tables/{table.id}/record")
    assert downloaded.status_code == 200, downloaded.text
    record = downloaded.json()
    events = record["events"]
    assert record["finished"]
    # Every acknowledged action, before and after the crash, at its acknowledged seq.
    for seq, (seat, action) in acks.items():
        assert events[seq - 1] == [seat, action]
    # The in-flight move was applied exactly once.
    flying_seq = answer["seq"]
    assert events[flying_seq - 1] == [mover.seat, flying_action]
    # What the clients were told before the crash is the start of the record.
    for seq, actor in seen_before.items():
        who = events[seq - 1][0]
        assert (who if isinstance(who, int) else None) == actor
    # The same actions played without the crash give the same record.
    uninterrupted = replay_with_seeded_chance(record)
    assert uninterrupted.is_terminal()
    assert uninterrupted.record(names=record["names"]).to_json() == record
    assert GameRecord.from_json(record).replay().scores == record["final_scores"]
    # The spectator's stream after reconnecting went on to the end of the game.
    deadline = time.monotonic() + 30
    while watcher2.seq < len(events) and time.monotonic() < deadline:
        drain([watcher2])
        time.sleep(0.01)
    assert watcher2.seq == len(events)
    assert watcher2.view is not None
    assert watcher2.view["hand"] is None
    watcher2.close()

    replayed = replay_saved(record, tmp_path / "crashed-game.json")
    assert str(record["final_scores"][0]) in replayed, replayed[-2000:]
