"""Protocol 1.2: an accepted action answered by its event (``event_acks`` in ``hello``).

docs/protocol.md, Events as acks: the action's event carries its ``id`` to the socket
that sent it, and no ``ack`` follows; a repeated id is answered by ``ack``, a refused
action by ``error``; every other socket is sent what it was before.
"""

from __future__ import annotations

import random

import httpx

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, start_and_welcome
from tests.server.test_deltas import drain
from tricktaker.server.tables.messages import Event, EventDelta


def test_events_answer_the_actions_of_a_socket_that_asks(live_server: LiveServer) -> None:
    """docs/protocol.md, Events as acks: over a whole game, each accepted action of the
    asking socket is answered by its own event with its id (whole or as changes) and
    never by an ack; the seat's other socket and a spectator see no id and no ack; the
    views are those a plain socket holds."""
    http = httpx.Client(base_url=live_server.url, timeout=30)
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"], seed=9)
    asking = Player(live_server.ws_url, table.id, table.tokens[0], deltas=True, event_acks=True)
    whole = Player(live_server.ws_url, table.id, table.tokens[0], event_acks=True)
    plain = Player(live_server.ws_url, table.id, table.tokens[0])
    watcher = Player(live_server.ws_url, table.id, None, event_acks=True)
    clients = (asking, whole, plain, watcher)
    start_and_welcome(http, table, clients)
    rng = random.Random(5)
    answered = 0
    for n in range(10_000):
        drain(*clients)
        if asking.view is not None and asking.view["phase"] == "game_over":
            break
        if not asking.my_turn():
            asking.receive(timeout=20)
            continue
        if n % 7 == 0:  # a refused action is answered by error, as before
            refused = asking.act("bid 99", f"bad{n}")
            assert refused["type"] == "error"
            assert refused["code"] == "illegal"
        action = asking.random_action(rng)
        answer = asking.act(action, f"e{n}")
        assert answer["type"] == "event", answer
        assert answer["actor"] == 0
        assert answer["action"] == action
        model = EventDelta if "delta" in answer else Event
        assert model.model_validate(answer).model_dump() == answer  # the schema, in order
        assert list(model.model_validate(answer).model_dump()) == list(answer)
        answered += 1
        if answered == 3:  # the same id again: applied once, answered by ack
            seq = answer["seq"]
            again = asking.act(action, f"e{n}")
            assert again == {"type": "ack", "id": f"e{n}", "seq": seq}
    final = asking.seq
    for p in clients:
        while p.seq < final:
            p.receive(timeout=20)
    assert answered > 5
    acks = [m for m in asking.messages if m["type"] == "ack"]
    assert len(acks) == 1  # the repeated id only
    ided = [m for m in asking.messages if m["type"] == "event" and "id" in m]
    assert len(ided) == answered
    for other in (whole, plain, watcher):
        assert not [m for m in other.messages if m["type"] == "ack"]
        assert not [m for m in other.messages if "id" in m and m["type"] == "event"]
    assert asking.views == plain.views
    assert whole.views == plain.views
    for p in clients:
        p.close()


def test_a_bad_event_acks_is_refused_and_the_next_hello_taken(live_server: LiveServer) -> None:
    """docs/protocol.md, Events as acks: ``event_acks`` is true or false; anything else is
    refused by ``bad_message`` (as a server before 1.2 refuses the field), and the
    client's next hello is taken."""
    http = httpx.Client(base_url=live_server.url, timeout=30)
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"], seed=9)
    client = Player(live_server.ws_url, table.id, table.tokens[0], hello=False)
    client.send({"type": "hello", "v": 1, "token": table.tokens[0], "event_acks": "yes please"})
    refused = client.until("error")
    assert refused["code"] == "bad_message"
    client.send({"type": "hello", "v": 1, "token": table.tokens[0], "event_acks": True})
    assert client.until("welcome")["seat"] == 0
    client.close()
