"""A score sheet survives the server killed with SIGKILL in the middle of a game
(docs/scorekeeper.md, In the browser and on the server: every entry is stored before it
is answered). The real server runs as a subprocess (``python -m tricktaker serve``) on
the test's database (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.server_process import ServerProcess
from tricktaker.scorekeeper import ScoreSheet

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def a_hand(sheet: ScoreSheet, rng: random.Random) -> dict[str, Any]:
    """A legal hand for the sheet's next hand: bids checked one by one in bidding order
    (a bid the rules refuse is drawn again), tricks dealt out at random."""
    nxt = sheet.next_hand()
    size = nxt.hand_size
    assert size is not None
    bids: dict[int, int] = {}
    for seat in nxt.bid_order:
        for _try in range(50):
            bids[seat] = rng.randint(0, min(size, 3))
            try:
                sheet.check_bids(bids)
                break
            except ValueError:
                continue
    tricks = [0] * len(PLAYERS)
    for _trick in range(size):
        tricks[rng.randrange(len(PLAYERS))] += 1
    return {"bids": [bids[s] for s in range(len(PLAYERS))], "tricks": tricks}


def test_a_sheet_survives_sigkill_of_the_server(server: ServerProcess) -> None:
    """docs/scorekeeper.md, In the browser and on the server: half a game of Blackout
    with the hook is entered; the server is killed (SIGKILL) right after an entry was
    sent whose answer is not read; it restarts on the same database; the sheet is
    intact (every answered hand, the one in flight at most once: its retry with the same
    id applies it once), and the game is entered to its end with the scores the
    library gives."""
    http = httpx.Client(base_url=server.url, timeout=30)
    created = http.post(
        "/sheets", json={"game": "blackout", "players": PLAYERS, "options": {"hook": True}}
    )
    assert created.status_code == 201, created.text
    sheet_id, token = created.json()["id"], created.json()["edit_token"]
    view_key = created.json()["view_key"]
    auth = {"Authorization": f"Bearer {token}"}
    reference = ScoreSheet("blackout", PLAYERS, options={"hook": True})
    rng = random.Random(20_261_124)
    total_hands = 13  # docs/games/blackout.md, Hands and schedule: 1 to 13 cards
    while len(reference.rows) < total_hands // 2:
        hand = a_hand(reference, rng)
        number = len(reference.rows) + 1
        answer = http.post(
            f"/sheets/{sheet_id}/hands", headers=auth, json={"id": f"h{number}", **hand}
        )
        assert answer.status_code == 200, answer.text
        reference.add(**hand)
    before = http.get(f"/sheets/{sheet_id}", headers=auth).json()
    assert before["totals"] == list(reference.totals)

    # One more entry goes out; the server dies before its answer is read.
    in_flight = {"id": "in-flight", **a_hand(reference, rng)}
    with httpx.Client(base_url=server.url, timeout=30) as other:
        request = other.build_request(
            "POST", f"/sheets/{sheet_id}/hands", headers=auth, json=in_flight
        )
        stream = other.send(request, stream=True)
        server.kill()
        stream.close()

    server.start()
    after = http.get(f"/sheets/{sheet_id}", params={"view": view_key}).json()
    stored_rows = after["rows"][: len(before["rows"])]
    assert [r["scores"] for r in stored_rows] == [r["scores"] for r in before["rows"]]
    assert len(after["rows"]) in (len(before["rows"]), len(before["rows"]) + 1)
    retried = http.post(f"/sheets/{sheet_id}/hands", headers=auth, json=in_flight)
    assert retried.status_code == 200, retried.text
    assert retried.json()["hand"] == len(before["rows"]) + 1
    again = http.post(f"/sheets/{sheet_id}/hands", headers=auth, json=in_flight)
    assert not again.json()["applied"]
    reference.add(bids=in_flight["bids"], tricks=in_flight["tricks"])
    assert again.json()["sheet"]["totals"] == list(reference.totals)

    while not reference.is_over():
        hand = a_hand(reference, rng)
        answer = http.post(f"/sheets/{sheet_id}/hands", headers=auth, json=hand)
        assert answer.status_code == 200, answer.text
        reference.add(**hand)
    final = http.get(f"/sheets/{sheet_id}", headers=auth).json()
    assert len(final["rows"]) == total_hands
    assert final["over"]
    assert final["next"] is None
    assert final["totals"] == list(reference.totals)
    assert final["winners"] == [PLAYERS[s] for s in reference.winners()]
