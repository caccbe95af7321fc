"""A complete bot for a tricktaker table server, written against the protocol alone.

It needs Python 3.11 and the ``websockets`` library, nothing of tricktaker. Run it with
a table's invite link; it takes a free seat and plays until the game ends:

    python protocol_bot.py "http://127.0.0.1:8000/tables/ID?invite=CODE" --name Randy

Its play is deliberately simple: the lowest card it may play, the lowest bid it may
make, else a random legal action. Replace ``choose`` with your own ideas.
"""

import argparse
import asyncio
import json
import random
import urllib.request
from typing import Any
from urllib.parse import parse_qs, urlsplit

import websockets

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def join(link: str, name: str) -> tuple[str, str]:
    """Take a free seat with the invite link: the table's socket address and the seat token."""
    parts = urlsplit(link)
    table = parts.path.rstrip("/").split("/")[-1]
    invite = parse_qs(parts.query)["invite"][0]
    base = f"{parts.scheme}://{parts.netloc}"
    body = json.dumps({"invite": invite, "name": name}).encode()
    request = urllib.request.Request(
        f"{base}/tables/{table}/join", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        joined = json.load(answer)
    print(f"Seat {joined['seat']}, token {joined['seat_token']}")
    ws_base = base.replace("http", "ws", 1)  # http -> ws, https -> wss
    return f"{ws_base}/tables/{table}/ws", joined["seat_token"]


def strength(action: str) -> float:
    """How strong an action looks: a card by its rank (jokers highest), a bid by its number."""
    value = action.split()[-1]
    if value.isdigit():
        return int(value)
    return RANKS.index(value[:-1]) if value[:-1] in RANKS else 99


def choose(view: dict[str, Any]) -> str:
    """The action to take, from the seat's view (its legal actions are in the view)."""
    legal: list[str] = view["legal_actions"]
    if all(a.startswith(("play ", "bid ")) for a in legal):
        return min(legal, key=strength)
    return random.choice(legal)


async def play(ws_url: str, token: str) -> None:
    """Say hello with the seat token, then act whenever the view says it is our turn."""
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        seat, view, sent, waiting = None, None, 0, None
        async for text in ws:
            message = json.loads(text)
            kind = message["type"]
            if kind == "welcome":
                seat = message["seat"]
            if kind in ("welcome", "event"):
                view = message["view"]
            if kind in ("ack", "error") and message.get("id") == waiting:
                if kind == "error":
                    print("refused:", message["message"])
                waiting = None
            if view is None or waiting is not None:
                continue
            if view["phase"] == "game_over":
                print("Game over, scores:", view["scores"])
                return
            if seat in view["to_act"] and view["legal_actions"]:
                sent += 1
                waiting = f"a{sent}"
                action = choose(view) if kind != "error" else random.choice(view["legal_actions"])
                await ws.send(json.dumps({"type": "action", "id": waiting, "action": action}))


def main() -> None:
    parser = argparse.ArgumentParser(description="A simple bot for a tricktaker table.")
    parser.add_argument("link", help="the invite link: http://HOST:PORT/tables/ID?invite=CODE")
    parser.add_argument("--name", default="Protocol bot")
    args = parser.parse_args()
    asyncio.run(play(*join(args.link, args.name)))


if __name__ == "__main__":
    main()
