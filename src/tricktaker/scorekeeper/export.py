"""The sheet on paper and in files: CSV, JSON (read back, checked) and Markdown."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tricktaker.rules import Ruleset, RulesetError
from tricktaker.scorekeeper.entries import call_from_json
from tricktaker.scorekeeper.sheet import (
    EntryError,
    Row,
    ScoreSheet,
    SheetError,
)

__all__ = [
    "SHEET_FORMAT",
    "SHEET_VERSION",
    "sheet_from_json",
    "sheet_to_csv",
    "sheet_to_json",
    "sheet_to_markdown",
]

SHEET_FORMAT = "tricktaker-score-sheet"
SHEET_VERSION = 1


def _by_name(sheet: ScoreSheet, values: tuple[int, ...] | tuple[int | None, ...]) -> dict[str, Any]:
    return dict(zip(sheet.players, values, strict=True))


def sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The sheet as plain JSON data: the game, the players, every hand as entered and
    as scored, and the result."""
    hands: list[dict[str, Any]] = []
    for row in sheet.rows:
        entry = row.entry
        hand: dict[str, Any] = {
            "hand": row.number,
            "dealer": sheet.players[row.dealer],
            "hand_size": row.hand_size,
            "trump": entry.trump,
            "special": row.special,
            "bids": _by_name(sheet, row.bids or (None,) * len(sheet.players)),
            "tricks": _by_name(sheet, row.tricks),
            "scores": _by_name(sheet, row.scores),
            "totals": _by_name(sheet, row.totals),
        }
        if entry.call is not None:
            hand["call"] = entry.call.to_json()
        if entry.game is not None:
            hand.update(entry.game.to_json(sheet.players))
        if entry.trick_winners:
            hand["trick_winners"] = [sheet.players[s] for s in entry.trick_winners]
        hands.append(hand)
    return {
        "format": SHEET_FORMAT,
        "version": SHEET_VERSION,
        "game": sheet.game,
        "options": dict(sheet.options),
        "players": list(sheet.players),
        "first_dealer": sheet.players[sheet.first_dealer],
        "hands": hands,
        "over": sheet.is_over(),
        "winners": [sheet.players[s] for s in sheet.winners()],
    }


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise SheetError(f"{where}: {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise SheetError(f"{where}: {key!r} has the wrong type")
    return value


def _per_player(
    sheet: ScoreSheet, data: Mapping[str, Any], key: str, where: str, *, optional: bool = False
) -> list[Any]:
    values = _need(data, key, dict, where)
    if set(values) != set(sheet.players):
        raise SheetError(f"{where}: {key!r} must give a value for each player, by name")
    out = [values[name] for name in sheet.players]
    for value in out:
        if value is None and optional:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise SheetError(f"{where}: {key!r} holds {value!r}, not a whole number")
    return out


def sheet_from_json(data: object, *, rules: Ruleset | None = None) -> ScoreSheet:
    """Read a sheet written by :func:`sheet_to_json`: every hand is entered again
    (the rules check it) and the scores written in the file must be the rules' own,
    else the file is refused as changed by hand. ``rules``: the sheet's ruleset when
    it is not a shipped game (house rules), already loaded."""
    if not isinstance(data, dict):
        raise SheetError("a score sheet is a JSON object")
    if data.get("format") != SHEET_FORMAT:
        raise SheetError(f"not a tricktaker score sheet (format {data.get('format')!r})")
    if data.get("version") != SHEET_VERSION:
        raise SheetError(f"score sheet version {data.get('version')!r} is not known")
    game = _need(data, "game", str, "the sheet")
    options = _need(data, "options", dict, "the sheet")
    players = _need(data, "players", list, "the sheet")
    if not all(isinstance(p, str) for p in players):
        raise SheetError("the sheet: players must be names")
    dealer = _need(data, "first_dealer", str, "the sheet")
    try:
        sheet = ScoreSheet(game, players, first_dealer=dealer, options=options, rules=rules)
    except RulesetError as exc:
        raise SheetError(f"the sheet's game: {exc}") from None
    hands = _need(data, "hands", list, "the sheet")
    for number, hand in enumerate(hands, start=1):
        where = f"hand {number}"
        if not isinstance(hand, dict):
            raise SheetError(f"{where}: not a JSON object")
        if hand.get("hand") != number:
            raise SheetError(f"{where}: the hands are out of order")
        call_data = hand.get("call")
        call = None
        if call_data is not None:
            if not isinstance(call_data, dict):
                raise SheetError(f"{where}: 'call' has the wrong type")
            _need(call_data, "modifiers", list, where)
            _need(call_data, "size", int, where)
            _need(call_data, "kind", str, where)
            call = call_from_json(call_data)
        winner_names = hand.get("trick_winners", [])
        if not isinstance(winner_names, list) or not all(isinstance(w, str) for w in winner_names):
            raise SheetError(f"{where}: 'trick_winners' must be a list of names")
        trump = hand.get("trump")
        if trump is not None and not isinstance(trump, str):
            raise SheetError(f"{where}: 'trump' has the wrong type")
        bids = _per_player(sheet, hand, "bids", where, optional=True)
        try:
            game = sheet.steps.entry_from_file(hand, sheet.players)
        except SheetError as exc:
            raise SheetError(f"{where}: {exc}") from None
        try:
            entry = sheet.entry(
                bids=bids if any(b is not None for b in bids) else (),
                tricks=_per_player(sheet, hand, "tricks", where),
                trick_winners=[sheet.seat_of(w) for w in winner_names],
                trump=trump,
                call=call,
            )
            row = sheet.add_entry(replace(entry, game=game))
        except EntryError as exc:
            raise SheetError(f"{where}: {exc}") from None
        _check_row(sheet, row, hand, where)
    if "winners" in data and data["winners"] != [sheet.players[s] for s in sheet.winners()]:
        raise SheetError("the sheet names other winners than the rules: it was changed by hand")
    return sheet


def _check_row(sheet: ScoreSheet, row: Row, hand: Mapping[str, Any], where: str) -> None:
    expected = {"dealer": sheet.players[row.dealer], "hand_size": row.hand_size}
    for key, value in expected.items():
        if hand.get(key) != value:
            raise SheetError(
                f"{where}: the file says the {key.replace('_', ' ')} is {hand.get(key)!r},"
                f" but the rules give {value!r}: the sheet was changed by hand"
            )
    for key, values in (("scores", row.scores), ("totals", row.totals)):
        written = _per_player(sheet, hand, key, where)
        for seat, (was, rule) in enumerate(zip(written, values, strict=True)):
            if was != rule:
                what = "scored" if key == "scores" else "has a total of"
                raise SheetError(
                    f"{where}: the file says {sheet.players[seat]} {what} {was}, but the"
                    f" rules give {rule}: the sheet was changed by hand"
                )


def sheet_to_csv(sheet: ScoreSheet) -> str:
    """One row per hand (hand, dealer, cards, trump, special hand, then each player's
    bid, tricks, score and total), then the S, O and P counts in the total columns."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["hand", "dealer", "cards", "trump", "special"]
    for name in sheet.players:
        header += [f"{name} bid", f"{name} tricks", f"{name} score", f"{name} total"]
    writer.writerow(header)
    for row in sheet.rows:
        line: list[object] = [
            row.number,
            sheet.players[row.dealer],
            row.hand_size,
            row.trump or "",
            row.special or "",
        ]
        for seat in range(len(sheet.players)):
            bid = row.bids[seat] if row.bids else ""
            line += [bid, row.tricks[seat], row.scores[seat], row.totals[seat]]
        writer.writerow(line)
    for outcome in "SOP":
        line = [outcome, "", "", "", ""]
        for seat in range(len(sheet.players)):
            line += ["", "", "", sheet.counts(seat)[outcome]]
        writer.writerow(line)
    return out.getvalue()


def cell(row: Row, seat: int) -> str:
    """A player's cell of a hand: ``bid/tricks score = total`` (``3/4 +31 = 31``);
    without bids (Euchre), ``tricks score = total``."""
    if not row.bids:
        return f"{row.tricks[seat]} {row.scores[seat]:+d} = {row.totals[seat]}"
    return f"{row.bids[seat]}/{row.tricks[seat]} {row.scores[seat]:+d} = {row.totals[seat]}"


def result_line(sheet: ScoreSheet) -> str:
    """Who won, or where the game stands."""
    if not sheet.is_over():
        played = len(sheet.rows)
        return f"{played} hand{'' if played == 1 else 's'} played; the game goes on."
    won = sheet.winners()
    if sheet.cooperative:
        return "The team won: every hand size was made." if won else "The team lost."
    names = " and ".join(sheet.players[s] for s in won)
    return f"{names} won." if len(won) == 1 else f"{names} share the win."


def sheet_to_markdown(sheet: ScoreSheet) -> str:
    """A printable sheet in Markdown: a table of hands, the S/O/P rows and the result."""
    name = sheet.rules.name
    lines = [
        f"# {name}: score sheet",
        "",
        f"Players in seating order: {', '.join(sheet.players)}."
        f" First dealer: {sheet.players[sheet.first_dealer]}.",
        "",
        "Each player's cell: bid/tricks, the hand's score = the running total.",
        "",
        "| Hand | Dealer | Cards | Trump | " + " | ".join(sheet.players) + " |",
        "|---:|---|---:|---|" + "---:|" * len(sheet.players),
    ]
    for row in sheet.rows:
        trump = row.trump or ""
        if row.special:
            trump = f"{trump} ({row.special})" if trump else row.special
        cells = " | ".join(cell(row, s) for s in range(len(sheet.players)))
        lines.append(
            f"| {row.number} | {sheet.players[row.dealer]} | {row.hand_size} | {trump} | {cells} |"
        )
    for outcome, word in (("S", "Set"), ("O", "Over"), ("P", "Perfect")):
        counts = " | ".join(str(sheet.counts(s)[outcome]) for s in range(len(sheet.players)))
        lines.append(f"| {outcome} | {word} | | | {counts} |")
    lines += ["", result_line(sheet), ""]
    return "\n".join(lines)
