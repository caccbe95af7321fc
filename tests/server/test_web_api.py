"""The browser client's HTTP routes: the games and their options, the rules pages, the
check of a house-rules file, replays computed by the engine, and the page itself at /.

docs/protocol.md (HTTP API, Errors); docs/rulesets.md for the house-rules errors.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tricktaker.bots import make_bot, play_game
from tricktaker.docs import page_ids
from tricktaker.engine import GameRecord, new_game
from tricktaker.rules import list_rulesets, load_ruleset
from tricktaker.server import create_app
from tricktaker.server.problems import MEDIA_TYPE
from tricktaker.server.web import MAX_RECORD_BYTES
from tricktaker.web.replays import apply_change

HOUSE_RULES = """\
id = "our_blackout"
name = "Our Blackout"
extends = "blackout"

[bidding]
hook = 3
"""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The application on a fresh SQLite file, shared by the module's tests (they only
    read, or make tables of their own)."""
    folder = tmp_path_factory.mktemp("web")
    app = create_app(f"sqlite:///{folder / 'server.sqlite3'}", http_rate=None)
    with TestClient(app) as client:
        yield client


def problem_of(answer: Any, status: int) -> dict[str, Any]:
    """The problem+json body of a refusal with ``status``."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith(MEDIA_TYPE)
    body: dict[str, Any] = answer.json()
    assert body["status"] == status
    return body


def finished_record(game: str, players: int, seed: int, **options: object) -> dict[str, Any]:
    """The record of a whole game of random bots, as ``play --record`` writes it."""
    state = new_game(load_ruleset(game, options=options), players=players, seed=seed)
    play_game(state, [make_bot("random", seed=seed + s) for s in range(players)])
    assert state.is_terminal()
    data: dict[str, Any] = state.record().to_json()
    return data


# ------------------------------------------------------------------ games and rules


def test_games_lists_every_shipped_ruleset_with_its_options(web: TestClient) -> None:
    """Every shipped game, with its one-line description, player range, options (type,
    default, limits, help) and its rules page."""
    games = web.get("/api/games").json()
    assert [g["id"] for g in games] == list_rulesets()
    for game in games:
        rules = load_ruleset(game["id"])
        assert game["name"] == rules.name
        assert game["description"] == rules.spec.description
        # The ruleset's range, widened by each option that changes it (players_range).
        widened = [o["players_range"] for o in game["options"] if o["players_range"]]
        low = min([rules.spec.players.min, *(r["min"] for r in widened)])
        high = max([rules.spec.players.max, *(r["max"] for r in widened)])
        assert game["players"] == {"min": low, "max": high}
        assert [o["name"] for o in game["options"]] == list(rules.spec.options)
        assert game["rules_url"] == (f"/rules/{game['id']}" if game["id"] in page_ids() else None)
    pluck = next(g for g in games if g["id"] == "pluck")
    hands = next(o for o in pluck["options"] if o["name"] == "hands")
    assert hands["type"] == "int"
    assert (hands["default"], hands["min"], hands["max"]) == (6, 1, 300)
    assert hands["help"] == "Number of hands in a game."
    blackout = next(g for g in games if g["id"] == "blackout")
    hook = next(o for o in blackout["options"] if o["name"] == "hook")
    assert (hook["type"], hook["default"], hook["choices"]) == ("bool", False, [False, True])
    assert blackout["default_players"] == 4


def test_bots_are_the_levels_a_seat_may_have(web: TestClient) -> None:
    """Each level is a bot POST /tables accepts as a seat (docs/protocol.md, HTTP API)."""
    bots = web.get("/api/bots").json()
    assert [b["id"] for b in bots] == ["random", "easy", "medium", "hard"]
    answer = web.post(
        "/tables", json={"game": "pluck", "seats": ["human", *[b["id"] for b in bots[:2]]]}
    )
    assert answer.status_code == 201, answer.text


def test_rules_page_is_the_games_page_as_html(web: TestClient) -> None:
    """/rules/GAME is docs/games/GAME.md rendered: its headings (with the ids its own
    #anchor links use), its tables, links to other games' pages."""
    answer = web.get("/rules/buckup")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    page = answer.text
    assert "<h1" in page
    assert "Buckup" in page
    assert 'id="stay-or-fold"' in page
    assert 'href="#stay-or-fold"' in page
    assert "<table>" in page
    assert 'href="/base.css"' in page  # styled by the package's own CSS, nothing fetched
    assert not re.search(r'(src|href)="(https?:)?//', page)
    readme_links = web.get("/rules/blackout").text
    assert ".md" not in "".join(re.findall(r'href="([^"]*)"', readme_links))


def test_rules_page_of_an_unknown_game_is_a_problem(web: TestClient) -> None:
    body = problem_of(web.get("/rules/no_such_game"), 404)
    assert "pluck" in body["detail"]  # names the pages there are


# ------------------------------------------------------------------ house rules


def test_check_answers_the_game_a_good_file_makes(web: TestClient) -> None:
    """A house-rules file that extends a shipped game: its name, the fields it changes,
    and its options with their values in the file (docs/rulesets.md)."""
    text = HOUSE_RULES.replace("hook = 3", "hook = true")
    check = web.post("/api/rulesets/check", json={"toml": text}).json()
    assert check["ok"] is True
    assert check["errors"] == []
    assert check["game"]["id"] == "our_blackout"
    assert check["game"]["name"] == "Our Blackout"
    assert check["based_on"] == "blackout"
    assert check["changes"] == ["bidding.hook"]
    hook = next(o for o in check["game"]["options"] if o["name"] == "hook")
    assert hook["default"] is True  # the option's value follows the file's fields


def test_check_locates_each_error_as_the_command_line_does(web: TestClient) -> None:
    """Each error names its field and line, with the CLI's own text."""
    check = web.post("/api/rulesets/check", json={"toml": HOUSE_RULES + "foo = 1\n"}).json()
    assert check["ok"] is False
    assert check["game"] is None
    hook, foo = check["errors"]
    assert (hook["field"], hook["line"], hook["column"]) == ("bidding.hook", 6, 8)
    assert hook["message"] == "expected true or false, got the number 3"
    assert hook["text"] == f"house-rules.toml:6:8: bidding.hook: {hook['message']}"
    assert (foo["field"], foo["line"]) == ("bidding.foo", 7)


def test_check_of_bad_toml_options_and_players(web: TestClient) -> None:
    """Unreadable TOML points at its line; an option's error names the option; a player
    count the game does not allow names ``players``."""
    broken = web.post("/api/rulesets/check", json={"toml": 'id = "x"\n[bidding\n'}).json()
    (error,) = broken["errors"]
    assert error["line"] == 2
    assert error["field"] is None
    assert error["message"].startswith("not valid TOML")
    text = HOUSE_RULES.replace("hook = 3", "hook = true")
    bad_option = web.post(
        "/api/rulesets/check", json={"toml": text, "options": {"hok": True}}
    ).json()
    assert bad_option["errors"][0]["option"] == "hok"
    assert "unknown option" in bad_option["errors"][0]["message"]
    pluck = 'id = "my_pluck"\nname = "My Pluck"\nextends = "pluck"\n'
    low = web.post("/api/rulesets/check", json={"toml": pluck, "options": {"hands": 0}}).json()
    assert low["errors"][0]["option"] == "hands"
    assert "below the minimum 1" in low["errors"][0]["message"]
    players = web.post("/api/rulesets/check", json={"toml": pluck, "players": 5}).json()
    assert players["errors"][0]["field"] == "players"


# ------------------------------------------------------------------ replays


def frames_of(web: TestClient, opening: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame of an opened replay whole: its first hand from the opening, each other
    hand asked for, each change applied to the frame before as the page applies it."""
    frames: list[dict[str, Any]] = []
    for hand in opening["hands"]:
        number = hand["number"]
        if number == 1:
            answer = opening["first_hand"]
        else:
            answer = web.get(f"/api/replays/{opening['id']}/hands/{number}").json()
        assert answer["hand"] == number
        assert answer["first"] == (0 if number == 1 else hand["frame"] + 1)
        previous: dict[str, Any] | None = None
        for item in answer["frames"]:
            previous = dict(item) if previous is None else apply_change(previous, item)
            frames.append(previous)
        assert frames[-1]["step"] == answer["last"]
    return frames


def test_replay_of_a_record_steps_through_every_event_with_every_hand(web: TestClient) -> None:
    """docs/protocol.md, Replays: the record replays; each frame shows every seat's
    cards, and the tricks and hands are marked as the engine played them."""
    record = finished_record("blackout", 3, seed=5)
    answer = web.post("/api/replays", json=record)
    assert answer.status_code == 201, answer.text
    replay = answer.json()
    history = GameRecord.from_json(record).replay().history
    assert replay["finished"] is True
    assert replay["final_scores"] == record["final_scores"]
    assert replay["steps"] == len(record["events"])
    frames = frames_of(web, replay)
    assert [f["step"] for f in frames] == list(range(len(record["events"]) + 1))
    assert frames[0]["action"] == ""
    assert frames[-1]["phase"] == "game_over"
    assert [h["number"] for h in replay["hands"]] == [h.number for h in history]
    for hand, result in zip(replay["hands"], history, strict=True):
        tricks = [frames[f]["trick"] for f in hand["tricks"]]
        assert [t["winner"] for t in tricks] == list(result.trick_winners)
        assert hand["end"] == hand["tricks"][-1]
        dealt = frames[hand["frame"] + 1]  # the frame after the deal
        assert dealt["chance"] == "deal"
        assert [len(cards) for cards in dealt["hands"]] == [result.hand_size] * 3
        shown = [card for cards in dealt["hands"] for card in cards]
        assert sorted(shown) == sorted(c for cards in result.to_json()["deal"] for c in cards)
        assert frames[hand["tricks"][-1]]["action"].startswith("play ")
    assert sum(1 for f in frames if f["trick"]) == sum(len(h.trick_winners) for h in history)
    assert replay["names"] == ["Seat 1", "Seat 2", "Seat 3"]
    card = web.get(f"/api/replays/{replay['id']}/scorecard").json()
    assert [row["hand"] for row in card["rows"]] == [h.number for h in history]
    assert card["totals"] == record["final_scores"]
    plays = [f for f in frames if f["action"].startswith("play ")]
    first = plays[0]
    card_text = first["action"].split()[1]
    assert first["narration"][0].startswith(f"Seat {first['actor'] + 1} plays ")
    assert card_text[:-1] in first["narration"][0]
    again = web.get(f"/api/replays/{replay['id']}").json()
    assert again == replay


def test_a_replay_shows_each_hand_as_a_player_holds_it(web: TestClient) -> None:
    """docs/games/euchre.md, Card ranking: the left bower (the jack of the trump's
    colour) is a trump; a replay shows it among the trumps, trumps first."""
    for seed in range(1, 40):
        record = finished_record("euchre", 4, seed=seed)
        replay = web.post("/api/replays", json=record).json()
        for frame in frames_of(web, replay):
            trump = frame["trump"]
            if trump not in ("clubs", "spades") or frame["phase"] != "playing":
                continue
            left = "JS" if trump == "clubs" else "JC"
            for cards, trumps in zip(frame["hands"], frame["trumps"], strict=True):
                if left in cards and len(cards) > 1:
                    assert cards.index(left) < trumps, (cards, trumps)
                    assert all(c[-1] == trump[0].upper() or c == left for c in cards[:trumps])
                    return
    raise AssertionError("no left bower held in play in 39 games")


def test_a_long_games_replay_opens_with_little_and_sends_each_hand_when_asked(
    web: TestClient,
) -> None:
    """docs/protocol.md, Replays: a 7-player Buckup game of 150 hands (docs/games/buckup.md,
    Options: four_card_deal) opens with its outline and first hand only, fewer bytes than
    the record itself (whole frames were some 100 times the record); each hand, and the
    score sheet, come when asked."""
    record = finished_record("buckup", 7, seed=1, four_card_deal=True, hands=150, max_hands=150)
    size = len(json.dumps(record, separators=(",", ":")))
    answer = web.post("/api/replays", json=record)
    assert answer.status_code == 201, answer.text
    assert len(answer.content) < size, (len(answer.content), size)
    replay = answer.json()
    assert len(replay["hands"]) == 150
    assert len(replay["first_hand"]["frames"]) == replay["hands"][1]["frame"] + 1
    opened = web.get(f"/api/replays/{replay['id']}")
    assert len(opened.content) < size
    biggest = 0
    for number in (2, 75, 150):
        hand = web.get(f"/api/replays/{replay['id']}/hands/{number}")
        assert hand.status_code == 200, hand.text
        biggest = max(biggest, len(hand.content))
        frames = hand.json()["frames"]
        assert frames[0]["step"] == replay["hands"][number - 1]["frame"] + 1
        assert [f["step"] for f in frames] == list(
            range(frames[0]["step"], hand.json()["last"] + 1)
        )
    assert biggest < 64 * 1024
    last = web.get(f"/api/replays/{replay['id']}/hands/150").json()
    whole: dict[str, Any] = {}
    for item in last["frames"]:
        whole = dict(item) if not whole else apply_change(whole, item)
    assert whole["step"] == len(record["events"])
    assert whole["phase"] == "game_over"
    assert whole["scores"] == record["final_scores"]
    card = web.get(f"/api/replays/{replay['id']}/scorecard").json()
    assert len(card["rows"]) == 150
    for number in (0, 151):
        missing = problem_of(web.get(f"/api/replays/{replay['id']}/hands/{number}"), 404)
        assert missing["detail"] == f"This replay has no hand {number}: the game has 150."


def test_a_replay_names_the_seats_as_the_record_does_and_counts_its_undos(
    web: TestClient,
) -> None:
    """docs/protocol.md, Replays: a record that keeps the players' names is replayed with
    them (narration included), and one of a practice game says how many actions were
    taken back; a record without names numbers its seats from 1."""
    record = finished_record("blackout", 3, seed=8)
    record["names"] = ["Ann", "Ben", "Cleo"]
    first_bid = next(i for i, (_, text) in enumerate(record["events"]) if text[:3] == "bid")
    seat = record["events"][first_bid][0]
    record["undos"] = [{"seat": seat, "at": first_bid, "events": [[seat, "bid 0"]]}]
    replay = web.post("/api/replays", json=record).json()
    assert replay["names"] == ["Ann", "Ben", "Cleo"]
    assert replay["undos"] == 1
    frames = frames_of(web, replay)
    bid = frames[first_bid + 1]
    assert bid["narration"][0].startswith(f"{record['names'][seat]} bids ")
    plain = web.post("/api/replays", json=finished_record("blackout", 3, seed=8)).json()
    assert plain["names"] == ["Seat 1", "Seat 2", "Seat 3"]
    assert plain["undos"] == 0


def test_replay_of_pluck_shows_each_seats_own_information(web: TestClient) -> None:
    """docs/games/pluck.md, Plucks: the cards passed in a pluck are seen only by the two
    players involved; a replay (the game over) shows them for every seat."""
    record = finished_record("pluck", 3, seed=2, hands=2)
    replay = web.post("/api/replays", json=record).json()
    frames = frames_of(web, replay)
    assert [len(cards) for cards in frames[1]["hands"]] == [17, 17, 17]
    assert len(replay["hands"]) == 2
    plucks = [f for f in frames if f["action"].startswith("pluck ")]
    assert plucks, "seed 2 has plucks in its second hand"
    first = plucks[0]
    plucker = first["actor"]
    passing = first["seat_extra"][plucker]["pluck_in_progress"]
    assert passing["plucker"] == plucker
    assert passing["given"]
    pluckee = passing["pluckee"]
    (other,) = {0, 1, 2} - {plucker, pluckee}
    assert first["seat_extra"][pluckee]["pluck_in_progress"] == passing
    assert "pluck_in_progress" not in first["seat_extra"][other]
    given = passing["given"][:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[passing["given"][-1]]
    assert first["narration"] == [f"Seat {plucker + 1} plucks Seat {pluckee + 1}, giving {given}."]
    for seat in (plucker, pluckee):  # in the words of the table's panel, for those two
        assert any(given in line["text"] for line in first["seat_lines"][seat])
    assert not any(given in line["text"] for line in first["seat_lines"][other])
    assert all(given not in line["text"] for line in first["lines"])  # not in the common lines


def test_a_record_over_64_kib_uploads_and_only_that_route_reads_it(web: TestClient) -> None:
    """docs/protocol.md, Errors: 413 over 64 KiB, except a game record sent to
    ``POST /api/replays`` (up to 1 MiB): a long game's record is larger than 64 KiB."""
    record = finished_record("buckup", 4, seed=1, hands=125, max_hands=125)
    body = json.dumps(record, separators=(",", ":")).encode()
    assert 64 * 1024 < len(body) < MAX_RECORD_BYTES
    headers = {"content-type": "application/json"}
    answer = web.post("/api/replays", content=body, headers=headers)
    assert answer.status_code == 201, answer.text
    assert answer.json()["final_scores"] == record["final_scores"]
    refused = problem_of(web.post("/api/rulesets/check", content=body, headers=headers), 413)
    assert refused["detail"] == f"A request may be at most {64 * 1024} bytes."
    huge = b"{" + b" " * MAX_RECORD_BYTES + b"}"
    too_large = problem_of(web.post("/api/replays", content=huge, headers=headers), 413)
    assert too_large["type"].endswith("/too-large")
    assert too_large["detail"] == f"A request may be at most {MAX_RECORD_BYTES} bytes."


def test_a_record_that_does_not_replay_is_refused_with_the_engines_reason(
    web: TestClient,
) -> None:
    record = finished_record("blackout", 3, seed=6)
    first_play = next(i for i, (who, text) in enumerate(record["events"]) if text[:4] == "play")
    seat = record["events"][first_play][0]
    record["events"][first_play] = [(seat + 1) % 3, record["events"][first_play][1]]
    body = problem_of(web.post("/api/replays", json=record), 422)
    assert body["field"] == "record"
    assert body["detail"].startswith(f"event {first_play + 1} ")
    assert "turn" in body["detail"]
    not_a_record = problem_of(web.post("/api/replays", json={"game": "bluke"}), 422)
    assert "not a tricktaker record" in not_a_record["detail"]
    for path in ("", "/hands/1", "/scorecard"):
        gone = problem_of(web.get(f"/api/replays/nothing-here{path}"), 404)
        assert gone["detail"].startswith("No such replay here")


def test_a_tables_replay_waits_for_the_end_of_its_game(web: TestClient) -> None:
    """docs/protocol.md, GET /tables/{id}/record: refused while the game is played (the
    replay shows every hand); once over, the replay is the record's."""
    created = web.post(
        "/tables",
        json={"game": "pluck", "options": {"hands": 1}, "seats": ["random"] * 3, "seed": 4},
    ).json()
    table, host = created["table"]["id"], created["host_token"]
    problem_of(web.get(f"/api/tables/{table}/replay"), 409)
    assert web.post(
        f"/tables/{table}/start", headers={"Authorization": f"Bearer {host}"}
    ).is_success
    deadline = time.monotonic() + 60
    while web.get(f"/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    replay = web.get(f"/api/tables/{table}/replay").json()
    record = web.get(f"/tables/{table}/record").json()
    assert replay["table"] == table
    names = replay["names"]  # the record's names, else the table's (its bots' names)
    assert len(set(names)) == 3
    assert all(names)
    assert names == record.get("names", names)
    assert len(frames_of(web, replay)) == len(record["events"]) + 1
    assert replay["final_scores"] == record["final_scores"]
    again = web.get(f"/api/tables/{table}/replay").json()
    assert again["id"] == replay["id"]  # kept: opened again without replaying again
    problem_of(web.get("/api/tables/nope/replay"), 404)


# ------------------------------------------------------------------ the page


def test_the_page_is_served_at_the_root_and_never_shadows_the_api(web: TestClient) -> None:
    """The static files come last: / is the page, the API paths still answer, and an
    unknown path is a problem body (never the page, never a server error)."""
    index = web.get("/")
    assert index.status_code == 200
    assert "app.js" in index.text
    assert web.get("/app.js").headers["content-type"].startswith("text/javascript")
    assert isinstance(web.get("/tables").json(), list)
    problem_of(web.get("/no/such/file.js"), 404)
    problem_of(web.post("/no/such/path", json={}), 404)
    problem_of(web.post("/", json={}), 404)


def test_static_files_are_in_the_package() -> None:
    """The page is package data: it is served however tricktaker is installed."""
    from tricktaker.web import static_dir

    folder = static_dir()
    for name in (
        "index.html",
        "app.js",
        "api.js",
        "base.css",
        "lobby.js",
        "invite.js",
        "replay.js",
    ):
        assert (folder / name).is_file(), name
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="(https?:)?//', index)  # nothing from elsewhere
    assert Path(folder).parent.name == "web"
