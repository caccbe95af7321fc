"""A score sheet handed to another phone (issue 31, point 2; docs/scorekeeper.md, The
edit link), in Chromium: the keeper's phone makes the edit link and shows it as a QR
code; a second phone (its own browser context, 390x844) opens the link the QR code
carries and enters a hand, which the keeper's phone shows; the keeper revokes the link,
and the second phone can then only follow the sheet: it says so, offers no entry, its
old key is refused by the server, and it still sees the keeper's next hand.

Pictures of both phones at each step are saved in test-artifacts/screenshots/ (to look
at; nothing is compared with them)."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.conftest import PHONE, SCREENSHOTS, NewPage
from tests.web.test_scorekeeper import enter_hand, start_sheet

BLOCKS = [  # error correction level M, versions 1 to 10: (EC a block, [(blocks, data)])
    (10, [(1, 16)]),
    (16, [(1, 28)]),
    (26, [(1, 44)]),
    (18, [(2, 32)]),
    (24, [(2, 43)]),
    (16, [(4, 27)]),
    (18, [(4, 31)]),
    (22, [(2, 38), (2, 39)]),
    (22, [(3, 36), (2, 37)]),
    (26, [(4, 43), (1, 44)]),
]
ALIGN = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42]]
ALIGN += [[6, 26, 46], [6, 28, 50]]
MASKS: list[Callable[[int, int], bool]] = [
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
]


def _function_module(n: int, version: int, i: int, j: int) -> bool:
    """Whether module (row i, column j) is no data: a finder with its separator and
    format area, a timing line, an alignment pattern or the version's blocks."""
    if (i < 9 and j < 9) or (i < 9 and j >= n - 8) or (i >= n - 8 and j < 9):
        return True
    if i == 6 or j == 6:
        return True
    if version >= 7 and ((i < 6 and j >= n - 11) or (j < 6 and i >= n - 11)):
        return True
    centres = ALIGN[version - 1]
    for a in centres:
        for b in centres:
            corner = (a == 6 and b == 6) or (a == 6 and b == centres[-1])
            if corner or (a == centres[-1] and b == 6):
                continue
            if abs(i - a) <= 2 and abs(j - b) <= 2:
                return True
    return False


def qr_text(dark: set[tuple[int, int]], n: int) -> set[str]:
    """What a QR code of byte mode, level M, says (versions 1 to 10), read as a
    scanner would, without its error correction (a drawn code has no damage): the
    text each mask gives that reads as a whole byte-mode segment."""
    version = (n - 17) // 4
    order: list[tuple[int, int]] = []
    column, upward = n - 1, True
    while column > 0:
        if column == 6:
            column -= 1
        rows = range(n - 1, -1, -1) if upward else range(n)
        for i in rows:
            for j in (column, column - 1):
                if not _function_module(n, version, i, j):
                    order.append((i, j))
        column -= 2
        upward = not upward
    _ec, groups = BLOCKS[version - 1]
    sizes = [data for count, data in groups for _ in range(count)]
    found: set[str] = set()
    for mask in MASKS:
        bits = [((i, j) in dark) != mask(i, j) for i, j in order]
        words = [
            int("".join("1" if b else "0" for b in bits[k : k + 8]), 2)
            for k in range(0, len(bits) - 7, 8)
        ]
        blocks: list[list[int]] = [[] for _ in sizes]
        place = 0
        for index in range(max(sizes)):
            for number, size in enumerate(sizes):
                if index < size:
                    blocks[number].append(words[place])
                    place += 1
        stream = "".join(f"{word:08b}" for block in blocks for word in block)
        if stream[:4] != "0100":
            continue
        width = 8 if version < 10 else 16
        length = int(stream[4 : 4 + width], 2)
        body = stream[4 + width : 4 + width + 8 * length]
        if len(body) < 8 * length:
            continue
        data = bytes(int(body[k : k + 8], 2) for k in range(0, len(body), 8))
        try:
            found.add(data.decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return found


def _shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"handover-{name}.png"))


def _qr_link(page: Page) -> set[str]:
    """What the edit link's QR code on the page says, read from its drawn modules."""
    box = page.get_by_role("img", name="QR code of the edit link")
    size = int(box.get_attribute("viewBox").split()[2])  # type: ignore[union-attr]
    drawn = box.locator("path").get_attribute("d") or ""
    dark = {(int(y) - 4, int(x) - 4) for x, y in re.findall(r"M(\d+) (\d+)", drawn)}
    return qr_text(dark, size - 8)


def test_a_sheet_handed_to_another_phone(web_server: ServerProcess, new_page: NewPage) -> None:
    keeper = new_page(viewport=PHONE)
    start_sheet(keeper, web_server, hook=False)
    sheet_id = keeper.evaluate("location.hash").split("/")[2].split("?")[0]
    keeper.get_by_role("button", name="Make an edit link").click()
    link = keeper.locator(".sk-edit-link-text").input_value()
    assert re.search(rf"#/score/{sheet_id}\?edit=[\w-]{{20,}}$", link)
    expect(keeper.get_by_role("img", name="QR code of the edit link")).to_be_visible()
    assert link in _qr_link(keeper)  # the QR code carries the link shown
    _shoot(keeper, "1-keeper-link")

    helper = new_page(viewport=PHONE)
    helper.goto(link)
    expect(helper.locator(".sk-entry")).to_be_visible()
    enter_hand(helper, 1, [1, 0, 0, 0], [1, 0, 0, 0], "♥ hearts")
    expect(helper.locator(".sk-status")).to_have_text("saved")
    expect(keeper.locator(".sk-sheet tbody tr")).to_have_count(1, timeout=15_000)
    _shoot(helper, "2-helper-entered")
    _shoot(keeper, "3-keeper-sees")

    keeper.get_by_role("button", name="Revoke the edit link").click()
    expect(keeper.locator(".sk-edit-link-text")).to_have_count(0)
    # The second phone learns it at its next poll, and follows from then on.
    problem = helper.locator(".sk-problem")
    expect(problem).to_contain_text("can no longer change the sheet", timeout=15_000)
    expect(problem).to_contain_text("follows the sheet, read-only")
    expect(helper.locator(".sk-entry")).to_have_count(0)
    expect(helper.locator(".sk-status")).to_have_text("following the sheet")
    key = link.rsplit("edit=", 1)[1]
    hand = {"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0], "trump": "spades"}
    refused = httpx.post(
        f"{web_server.url}/sheets/{sheet_id}/hands",
        json=hand,
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    assert refused.status_code == 403, refused.text

    enter_hand(keeper, 2, [0, 1, 0, 0], [1, 1, 0, 0], "♠ spades")
    expect(keeper.locator(".sk-status")).to_have_text("saved")
    expect(helper.locator(".sk-sheet tbody tr")).to_have_count(2, timeout=15_000)
    _shoot(helper, "4-helper-follows")
    helper.reload()  # after a reload it still follows, and still cannot enter a hand
    expect(helper.locator(".sk-sheet tbody tr")).to_have_count(2, timeout=15_000)
    expect(helper.locator(".sk-status")).to_have_text("following the sheet", timeout=15_000)
    expect(helper.locator(".sk-entry")).to_have_count(0)
    _shoot(keeper, "5-keeper-revoked")
    assert keeper.console_errors == []  # type: ignore[attr-defined]
    errors = [e for e in helper.console_errors if "status of 403" not in e]  # type: ignore[attr-defined]
    assert errors == []
