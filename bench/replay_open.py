"""What opening a replay costs, before and after replays were made a hand at a time.

    python bench/replay_open.py [--repeat 5] [--baseline-src REV] [--browser N] [--json]

Two long records are made by easy bots with fixed seeds: a 7-player Buckup game with
``four_card_deal`` that runs to its 200-hand cap (``hands`` = ``max_hands`` = 200), and a
4-player Bluke game (25 hands, 13 cards down to 1 and back). Each is opened as the replay
page opens it, by ``POST /api/replays`` with the record, through the server's own routes
(FastAPI's, in-process with its test client: no sockets, so the time is the server's):

* before: the replay as it was, every frame whole in one answer
  (``tricktaker.web.replays.replay_json`` of the last commit that had it, or of
  ``--baseline-src REV``, read with ``git show`` and served by a route written as the
  old one was);
* after: the server as it is, which answers the outline and the first hand's frames
  (``tricktaker.web.replays.Replay``); the page asks for each other hand when it steps
  into it.

Reported for each record and side: the record's size (compact JSON), the bytes of JSON
the page is sent to open it, the server's time to answer (wall clock and the process's
CPU time, each the median of ``--repeat`` runs, the two sides in turns, after one
untimed request each), and the ratios after/before. For the after side also: the bytes
of every hand and the score sheet (what stepping through the whole game fetches) and
the median time the server takes to make one hand's frames (what stepping into a hand
waits for).

With ``--browser N`` the page itself is timed too, in Chromium (``--chromium``), N runs
a side: from picking the record file to the first frame shown, and from pressing End to
the last frame shown. Before is the page's files and replay routes of the baseline
revision (``git archive``), after the server and page as they are; both served by
uvicorn on loopback ports in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REPLAYS = "src/tricktaker/web/replays.py"

RECORDS: list[tuple[str, str, int, dict[str, Any]]] = [
    (
        "buckup, 7 players, 200 hands",
        "buckup",
        7,
        {"four_card_deal": True, "hands": 200, "max_hands": 200},
    ),
    ("bluke, 4 players, 25 hands", "bluke", 4, {}),
]


def make_record(game: str, players: int, options: dict[str, Any], seed: int = 1) -> Any:
    """A whole game of easy bots (seeded), as ``play --record`` keeps it."""
    from tricktaker.bots import make_bot, play_game
    from tricktaker.engine import new_game
    from tricktaker.rules import load_ruleset

    state = new_game(load_ruleset(game, options=options), players=players, seed=seed)
    play_game(state, [make_bot("easy", seed=seed + s) for s in range(players)])
    return state.record()


def baseline_revision() -> str:
    """The commit just before replays were made a hand at a time: the parent of the
    newest commit whose replays.py no longer has ``replay_json`` (HEAD if none has)."""
    found = subprocess.run(
        ["git", "log", "--format=%H", "--", REPLAYS],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for index, rev in enumerate(found):
        if "def replay_json(" in git_show(rev):
            return f"{found[index - 1]}^" if index else "HEAD"
    raise SystemExit("no version of replays.py with replay_json in this checkout's history")


def git_show(rev: str) -> str:
    return subprocess.run(
        ["git", "show", f"{rev}:{REPLAYS}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def load_baseline(rev: str) -> ModuleType:
    """The old replays module (of ``rev``), imported from a copy of its source."""
    folder = Path(tempfile.mkdtemp(prefix="replay-baseline-"))
    path = folder / "old_replays.py"
    path.write_text(git_show(rev), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_replays", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def before_app(old: ModuleType, static: Path | None = None) -> Any:
    """A server whose replay routes answer as the old ones did, every frame at once
    (``POST /api/replays``, ``GET /api/replays/{id}``), with the old page's static
    files at ``/`` if given."""
    from fastapi import FastAPI
    from starlette.staticfiles import StaticFiles

    from tricktaker.engine import GameRecord

    app = FastAPI()
    kept: dict[str, dict[str, Any]] = {}

    @app.post("/api/replays", status_code=201)
    async def upload_replay(record: dict[str, Any]) -> dict[str, Any]:
        replay = await asyncio.to_thread(lambda: old.replay_json(GameRecord.from_json(record)))
        replay_id = secrets.token_urlsafe(9)
        kept.clear()  # one at a time: the bench opens each record once
        kept[replay_id] = replay
        return {"id": replay_id, **replay}

    @app.get("/api/replays/{replay_id}")
    async def get_replay(replay_id: str) -> dict[str, Any]:
        return {"id": replay_id, **kept[replay_id]}

    if static is not None:
        app.mount("/", StaticFiles(directory=static, html=True), name="web")
    return app


def before_client(old: ModuleType) -> Any:
    from fastapi.testclient import TestClient

    return TestClient(before_app(old))


def after_app(folder: Path) -> Any:
    """The server as it is (its own routes and page, a SQLite database it never uses)."""
    from tricktaker.server import create_app

    return create_app(f"sqlite:///{folder / 'bench.sqlite3'}")


def after_client(folder: Path) -> Any:
    from fastapi.testclient import TestClient

    return TestClient(after_app(folder))


def measure(client: Any, body: bytes) -> tuple[float, float, Any]:
    """One ``POST /api/replays``: its wall-clock seconds, the process's CPU seconds
    (the server's work: the test client runs the app in this process), the answer."""
    headers = {"content-type": "application/json"}
    start, cpu = time.perf_counter(), time.process_time()
    answer = client.post("/api/replays", content=body, headers=headers)
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    assert answer.status_code == 201, answer.text[:500]
    return wall, used, answer


def run(repeat: int, rev: str) -> list[dict[str, Any]]:
    old = load_baseline(rev)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="replay-bench-") as folder:
        after = after_client(Path(folder))
        before = before_client(old)
        small = make_record("pluck", 3, {"hands": 1})
        warm = json.dumps(small.to_json(), separators=(",", ":")).encode()
        measure(before, warm)  # the first request's one-off costs (imports, rules) untimed
        measure(after, warm)
        for label, game, players, options in RECORDS:
            record = make_record(game, players, options)
            body = json.dumps(record.to_json(), separators=(",", ":")).encode()
            old_runs: list[tuple[float, float]] = []
            new_runs: list[tuple[float, float]] = []
            for _ in range(repeat):  # in turns, so that a busy machine slows both alike
                wall, cpu, old_answer = measure(before, body)
                old_runs.append((wall, cpu))
                wall, cpu, new_answer = measure(after, body)
                new_runs.append((wall, cpu))
            opened = new_answer.json()
            replay_id = opened["id"]
            hand_bytes = 0
            hand_times: list[float] = []
            for hand in opened["hands"][1:]:
                start = time.perf_counter()
                got = after.get(f"/api/replays/{replay_id}/hands/{hand['number']}")
                hand_times.append(time.perf_counter() - start)
                assert got.status_code == 200, got.text[:500]
                hand_bytes += len(got.content)
            sheet = after.get(f"/api/replays/{replay_id}/scorecard")
            rows.append(
                {
                    "record": label,
                    "events": len(record.events),
                    "record_bytes": len(body),
                    "before_bytes": len(old_answer.content),
                    "after_bytes": len(new_answer.content),
                    "before_s": statistics.median(w for w, _ in old_runs),
                    "after_s": statistics.median(w for w, _ in new_runs),
                    "before_cpu_s": statistics.median(c for _, c in old_runs),
                    "after_cpu_s": statistics.median(c for _, c in new_runs),
                    "all_hands_bytes": len(new_answer.content) + hand_bytes + len(sheet.content),
                    "hand_s": statistics.median(hand_times) if hand_times else 0.0,
                }
            )
    return rows


class Served:
    """An app served by uvicorn on a free loopback port, in a thread of this process."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [listener]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline:
                raise SystemExit("the bench's server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def baseline_static(rev: str, folder: Path) -> Path:
    """The page's files as they were at ``rev`` (git archive), under ``folder``."""
    archive = subprocess.run(
        ["git", "archive", rev, "src/tricktaker/web/static"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src/tricktaker/web/static"


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def browser_times(url: str, path: Path, repeat: int, chromium: str) -> dict[str, float]:
    """In Chromium, as a person does it: open the replay page, pick the record file,
    and time until the first frame is shown ("step 0 of"), then press End and time
    until the last frame is ("Game over"). Medians of ``repeat`` runs, each in a new
    browser context (nothing cached)."""
    from playwright.sync_api import sync_playwright

    status = "document.querySelector('#replay-status')?.textContent ?? ''"
    opened: list[float] = []
    ended: list[float] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for _ in range(repeat):
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{url}/#/replay")
                page.wait_for_selector("#record-file", state="attached")
                start = time.perf_counter()
                page.set_input_files("#record-file", str(path))
                page.wait_for_function(f"({status}).includes('step 0 of')", timeout=600_000)
                opened.append(time.perf_counter() - start)
                start = time.perf_counter()
                page.keyboard.press("End")
                page.wait_for_function(f"({status}).includes('Game over')", timeout=600_000)
                ended.append(time.perf_counter() - start)
                context.close()
        finally:
            browser.close()
    return {"open_s": statistics.median(opened), "end_s": statistics.median(ended)}


def run_browser(repeat: int, rev: str, chromium: str) -> list[dict[str, Any]]:
    """The page's times to open each record and step to its end, before and after."""
    old = load_baseline(rev)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="replay-bench-") as name:
        folder = Path(name)
        before = Served(before_app(old, baseline_static(rev, folder)))
        after = Served(after_app(folder))
        try:
            for label, game, players, options in RECORDS:
                record = make_record(game, players, options)
                path = folder / f"{game}.json"
                record.save(path)
                rows.append(
                    {
                        "record": label,
                        "before": browser_times(before.url, path, repeat, chromium),
                        "after": browser_times(after.url, path, repeat, chromium),
                    }
                )
        finally:
            before.stop()
            after.stop()
    return rows


def report_browser(rows: list[dict[str, Any]], repeat: int) -> str:
    lines = [
        f"In Chromium (median of {repeat} runs): from picking the record file to the first"
        " frame shown, and from End to the last frame shown",
        "",
        f"{'record':<30} | {'open':^27} | {'End':^27}",
        f"{'':<30} |" + f" {'before':>8} {'after':>8} {'ratio':>7} |" * 2,
    ]
    for r in rows:
        b, a = r["before"], r["after"]
        lines.append(
            f"{r['record']:<30} |"
            f" {b['open_s']:>7.2f}s {a['open_s']:>7.2f}s {a['open_s'] / b['open_s']:>7.3f} |"
            f" {b['end_s']:>7.2f}s {a['end_s']:>7.2f}s {a['end_s'] / b['end_s']:>7.3f}"
        )
    return "\n".join(lines)


def report(rows: list[dict[str, Any]], rev: str, repeat: int) -> str:
    lines = [
        f"Opening a replay (POST /api/replays), before = {rev[:10]} (every frame at once),"
        f" after = this checkout; server time: median of {repeat} runs",
        f"(the machine's load average at the end: {os.getloadavg()[0]:.1f} on"
        f" {os.cpu_count()} cores; wall clock counts the wait for a core, CPU does not)",
        "",
        f"{'record':<30} {'events':>6} {'record':>7} | {'bytes sent to open':^25} |"
        f" {'server time to answer':^25} | {'server CPU to answer':^25}",
        f"{'':<30} {'':>6} {'bytes':>7} |" + f" {'before':>9} {'after':>7} {'ratio':>7} |" * 3,
    ]
    for r in rows:
        lines.append(
            f"{r['record']:<30} {r['events']:>6} {r['record_bytes']:>7,} |"
            f" {r['before_bytes']:>9,} {r['after_bytes']:>7,}"
            f" {r['after_bytes'] / r['before_bytes']:>7.3f} |"
            f" {r['before_s']:>8.2f}s {r['after_s']:>6.2f}s {r['after_s'] / r['before_s']:>7.3f} |"
            f" {r['before_cpu_s']:>8.2f}s {r['after_cpu_s']:>6.2f}s"
            f" {r['after_cpu_s'] / r['before_cpu_s']:>7.3f}"
        )
    lines.append("")
    for r in rows:
        lines.append(
            f"{r['record']}: sent to open = {r['after_bytes'] / r['record_bytes']:.2f} x the"
            f" record (before {r['before_bytes'] / r['record_bytes']:.0f} x); every hand and"
            f" the sheet, stepped through to the end: {r['all_hands_bytes']:,} bytes;"
            f" one hand made in {r['hand_s'] * 1000:.0f} ms (median)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (median)")
    parser.add_argument(
        "--baseline-src",
        default=None,
        help="the git revision whose replays.py is the baseline (default: the last one"
        " with replay_json)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--browser",
        type=int,
        default=0,
        metavar="N",
        help="also time the page in Chromium, N runs a side (needs Playwright)",
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="Chromium to run")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    rev = subprocess.run(
        ["git", "rev-parse", args.baseline_src or baseline_revision()],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    repeat = max(1, args.repeat)
    rows = run(repeat, rev)
    pages = run_browser(args.browser, rev, args.chromium) if args.browser else []
    if args.json:
        figures = {"baseline": rev, "repeat": repeat, "rows": rows, "browser": pages}
        print(json.dumps(figures, indent=2))
    else:
        print(report(rows, rev, repeat))
        if pages:
            print()
            print(report_browser(pages, args.browser))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
