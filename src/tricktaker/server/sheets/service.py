"""The sheet service: sheets built from their stored log, cached while current, every
entry checked by the scorekeeper and stored before it is answered."""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tricktaker.rules import Ruleset, RulesetError
from tricktaker.rules.ruleset import ruleset_from_data
from tricktaker.scorekeeper import (
    CallEntry,
    EntryError,
    ScoreSheet,
    SheetError,
    sheet_from_json,
    sheet_to_json,
)
from tricktaker.scorekeeper.offers import bid_offer
from tricktaker.server.db import hash_token, new_token
from tricktaker.server.deps import Database, RulesRequest, bearer, load_rules
from tricktaker.server.errors import (
    DamagedError,
    EntryAfterEndError,
    EntryRefusedError,
    InvalidRequestError,
    NotAllowedError,
    NotPossibleNowError,
    NotSignedInError,
    ReadOnlyError,
    RefusedError,
    SheetNotFoundError,
)
from tricktaker.server.sheets.store import (
    Op,
    StaleSheetError,
    StoredSheet,
    append_op,
    load_sheet,
    set_edit_link,
    store_sheet,
)
from tricktaker.server.sheets.views import next_view, offer_view, sheet_view

CACHED_SHEETS = 256
"""Sheets kept built in memory (the database stays the truth: a cached sheet is used
only while the stored log has not moved on)."""


def sheet_rules(stored: StoredSheet) -> Ruleset:
    """The sheet's ruleset, from the data stored with it."""
    return ruleset_from_data(stored.ruleset_data, options=stored.options, source=stored.game)


def build_sheet(stored: StoredSheet) -> tuple[ScoreSheet, dict[str, Op]]:
    """The sheet rebuilt from its log, and its entries by client id."""
    assert stored.ops is not None
    sheet = ScoreSheet(
        stored.game,
        stored.players,
        first_dealer=stored.players[stored.first_dealer],
        options=stored.options,
        rules=sheet_rules(stored),
    )
    hands: list[dict[str, Any]] = []
    by_id: dict[str, Op] = {}
    for op in stored.ops:
        if op.client_id is not None:
            by_id[op.client_id] = op
        if op.kind == "add":
            hands.append(op.data["entry"])
        elif op.kind == "fix":
            hands[op.hand - 1] = op.data["entry"]
        elif op.kind == "undo":
            hands.pop()
    try:
        for data in hands:
            sheet.add_entry(sheet.entry_from_json(data))
    except (EntryError, KeyError) as exc:  # pragma: no cover - a damaged log
        raise DamagedError("sheet-damaged", f"The stored sheet cannot be read: {exc}") from None
    return sheet, by_id


# ----------------------------------------------------------------- requests


def entry_refused(error: EntryError) -> RefusedError:
    """The refusal of an entry the rules refuse, naming the rule (an entry after the
    game's end is not possible now; any other is invalid)."""
    if error.rule == "end of game":
        return EntryAfterEndError(error.reason, error.rule)
    return EntryRefusedError(error.reason, error.rule)


# ------------------------------------------------------------------ service


@dataclass(slots=True)
class Built:
    """A sheet built in memory at version ``seq``."""

    stored: StoredSheet
    sheet: ScoreSheet
    by_id: dict[str, Op] = field(default_factory=dict)


class SheetService:
    """The sheets of one server process: built from the database, cached while current."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._cache: OrderedDict[str, Built] = OrderedDict()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def guard(self, sheet_id: str) -> AsyncIterator[None]:
        """One request at a time for a sheet (in this process)."""
        lock, users = self._locks.get(sheet_id, (asyncio.Lock(), 0))
        self._locks[sheet_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[sheet_id]
            if users == 1:
                del self._locks[sheet_id]
            else:
                self._locks[sheet_id] = (lock, users - 1)

    async def current(self, sheet_id: str) -> Built:
        """The sheet at its stored version (:class:`SheetNotFoundError` if none); call under
        :meth:`guard`."""
        if len(sheet_id) > 32 or "\x00" in sheet_id:
            raise SheetNotFoundError()
        cached = self._cache.get(sheet_id)
        known = cached.stored.seq if cached else None
        stored = await self.database.run(load_sheet, sheet_id, known)
        if stored is None:
            raise SheetNotFoundError(sheet_id)
        if cached is not None and stored.ops is None:
            self._cache.move_to_end(sheet_id)
            cached.stored.edit_link_hash = stored.edit_link_hash
            return cached
        sheet, by_id = await asyncio.to_thread(build_sheet, stored)
        built = Built(stored, sheet, by_id)
        self._cache[sheet_id] = built
        while len(self._cache) > CACHED_SHEETS:
            self._cache.popitem(last=False)
        return built

    @staticmethod
    def can_edit(built: Built, authorization: str | None, view: str | None) -> bool:
        """Whether the request holds the edit token (True) or the view key (False);
        refused (:class:`NotSignedInError`, :class:`NotAllowedError`) if neither."""
        token = bearer(authorization)
        if token is not None:
            hashed = hash_token(token)
            if hmac.compare_digest(hashed, built.stored.edit_token_hash):
                return True
            link = built.stored.edit_link_hash
            if link is not None and hmac.compare_digest(hashed, link):
                return True
            raise NotAllowedError(
                "bad-token",
                "This is not the sheet's edit token, or its edit link was replaced or revoked.",
            )
        if view is not None:
            if hmac.compare_digest(view.encode(), built.stored.view_key.encode()):
                return False
            raise NotAllowedError("bad-view-key", "This is not the sheet's view key.")
        raise NotSignedInError(
            "no-token", "Give the sheet's edit token (Authorization: Bearer) or ?view=KEY."
        )

    @staticmethod
    def is_owner(built: Built, authorization: str | None) -> bool:
        """Whether the request holds the keeper's own edit token (not an edit link)."""
        token = bearer(authorization)
        return token is not None and hmac.compare_digest(
            hash_token(token), built.stored.edit_token_hash
        )

    def view(self, built: Built, editing: bool, authorization: str | None = None) -> dict[str, Any]:
        """The sheet's JSON view."""
        stored = built.stored
        key = stored.view_key if editing else None
        return sheet_view(
            stored.id,
            stored.seq,
            built.sheet,
            view_key=key,
            owner=editing and self.is_owner(built, authorization),
            edit_link=stored.edit_link_hash is not None,
        )

    async def edit_link(self, sheet_id: str, authorization: str | None, make: bool) -> str | None:
        """Make a new edit link's key (the old link stops working), or revoke the link
        (``make`` False): the keeper's own token only."""
        async with self.guard(sheet_id):
            built = await self.current(sheet_id)
            if not self.can_edit(built, authorization, None):
                raise ReadOnlyError()
            if not self.is_owner(built, authorization):
                raise NotAllowedError(
                    "not-keeper",
                    "Only the browser that started the sheet gives out or revokes its edit link.",
                )
            key = new_token() if make else None
            hashed = hash_token(key) if key is not None else None
            if not await self.database.run(set_edit_link, sheet_id, hashed):
                raise SheetNotFoundError(sheet_id)
            built.stored.edit_link_hash = hashed
            return key

    async def read(
        self, sheet_id: str, authorization: str | None, view: str | None
    ) -> tuple[Built, bool]:
        """The sheet and whether the request may edit it."""
        async with self.guard(sheet_id):
            built = await self.current(sheet_id)
            return built, self.can_edit(built, authorization, view)

    async def write(
        self,
        sheet_id: str,
        authorization: str | None,
        client_id: str | None,
        change: Callable[[ScoreSheet], tuple[str, int, dict[str, Any]]],
    ) -> tuple[dict[str, Any], Op, bool]:
        """Apply ``change`` (which returns the entry's kind, hand and data, raising
        :class:`EntryError` to refuse) and store it before answering: the sheet's view,
        the stored entry, and whether it was applied now (False: a repeated id)."""
        async with self.guard(sheet_id):
            for _attempt in range(3):
                built = await self.current(sheet_id)
                if not self.can_edit(built, authorization, None):
                    raise ReadOnlyError()
                if client_id is not None and client_id in built.by_id:
                    return self.view(built, True, authorization), built.by_id[client_id], False
                try:
                    kind, hand, data = await asyncio.to_thread(change, built.sheet)
                except EntryError as exc:
                    raise entry_refused(exc) from None
                op = Op(built.stored.seq + 1, kind, hand, data, client_id)
                try:
                    await self.database.run(append_op, sheet_id, op)
                except StaleSheetError:
                    self._cache.pop(sheet_id, None)  # another process wrote: rebuild, retry
                    continue
                except BaseException:
                    self._cache.pop(sheet_id, None)
                    raise
                built.stored.seq = op.seq
                if client_id is not None:
                    built.by_id[client_id] = op
                return self.view(built, True, authorization), op, True
        raise NotPossibleNowError("busy", "The sheet is being changed elsewhere; try again.")

    async def create(self, sheet: ScoreSheet, toml: str | None) -> tuple[str, str, str]:
        """Store a new sheet (with the hands it holds): its id, edit token and view key."""
        token, view_key = new_token(), secrets.token_urlsafe(12)
        sheet_id = secrets.token_urlsafe(9)
        stored = StoredSheet(
            id=sheet_id,
            game=sheet.rules.id,
            ruleset_toml=toml,
            ruleset_data=sheet.rules.data,
            options=dict(sheet.rules.options),
            players=list(sheet.players),
            first_dealer=sheet.first_dealer,
            edit_token_hash=hash_token(token),
            view_key=view_key,
            seq=len(sheet.entries),
        )
        ops = [
            Op(n, "add", n, {"entry": e.to_json()}, None)
            for n, e in enumerate(sheet.entries, start=1)
        ]
        await self.database.run(store_sheet, stored, ops)
        return sheet_id, token, view_key


def sheet_rules_of(game: str | None, toml: str | None, options: dict[str, Any]) -> Ruleset:
    """The ruleset of a new sheet: a shipped ``game`` or a house-rules ``toml``, with
    ``options`` (:class:`InvalidRequestError`, ``bad-sheet``, when they are not a request's)."""
    try:
        request = RulesRequest(game=game, ruleset_toml=toml, options=options)
    except ValidationError as exc:
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise InvalidRequestError("bad-sheet", detail, field="options") from None
    return load_rules(request)[0]


def new_sheet(
    game: str | None,
    toml: str | None,
    options: dict[str, Any],
    players: Sequence[str],
    first_dealer: str | None,
) -> ScoreSheet:
    """A new sheet of the rules asked for, with no hand entered."""
    rules = sheet_rules_of(game, toml, options)
    try:
        return ScoreSheet(
            rules.id,
            list(players),
            first_dealer=first_dealer,
            options=dict(rules.options),
            rules=rules,
        )
    except (SheetError, RulesetError) as exc:
        text = re.sub(r"^[^:\s]+:\d+:\d+: (players: )?", "", str(exc))
        field_name = "first_dealer" if "no player is called" in text else "players"
        raise InvalidRequestError("bad-sheet", text, field=field_name) from None


def imported_toml(data: dict[str, Any], ruleset_toml: str | None) -> Any:
    """The house rules of a sheet to import: those sent with it, else those exported
    with it (None: a shipped game's sheet)."""
    return ruleset_toml or data.get("ruleset_toml")


def imported_sheet(data: dict[str, Any], ruleset_toml: str | None) -> ScoreSheet:
    """The sheet exported as ``data`` (house rules: with their ``ruleset_toml``, else
    those exported with it), every hand checked again."""
    toml = imported_toml(data, ruleset_toml)
    options = data.get("options")
    game = data.get("game")
    if not isinstance(options, dict) or not isinstance(game, str):
        raise InvalidRequestError("bad-sheet", "Not a tricktaker score sheet.", field="sheet")
    rules = sheet_rules_of(None if toml else game, toml if isinstance(toml, str) else None, options)
    try:
        return sheet_from_json(data, rules=rules)
    except SheetError as exc:
        raise InvalidRequestError("bad-sheet", str(exc), field="sheet") from None


def export_json(built: Built) -> dict[str, Any]:
    """The sheet as the library writes it, with its house rules' TOML when it has one."""
    data = sheet_to_json(built.sheet)
    if built.stored.ruleset_toml is not None:
        data["ruleset_toml"] = built.stored.ruleset_toml
    return data


def change_json(sheet: ScoreSheet, changes: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "hand": c.hand,
            "seat": c.seat,
            "player": sheet.players[c.seat],
            "what": c.what,
            "old": c.old,
            "new": c.new,
        }
        for c in changes
    ]


def check_hand(hand: int | None, wanted: int) -> None:
    """Refuse an entry for hand ``hand`` when the sheet is at hand ``wanted``."""
    if hand is not None and hand != wanted:
        raise NotPossibleNowError(
            "wrong-hand",
            f"This entry is for hand {hand}, but the sheet is at hand {wanted}.",
            field="hand",
        )


def checked_bids(
    sheet: ScoreSheet,
    hand: int | None,
    bids: dict[int, int],
    call: CallEntry | None,
    trump: str | None,
) -> dict[str, Any]:
    """The answer of ``/check``: the next hand as the call makes it and the bids the next
    bidder may make (of hand ``hand`` in a correction)."""
    if hand is not None and hand <= len(sheet.rows):
        sheet = sheet.upto(hand - 1)
    else:
        check_hand(hand, len(sheet.rows) + 1)
    try:
        sheet.check_bids(bids, call=call, trump=trump)
        offer = bid_offer(sheet, bids, call=call, trump=trump)
        return {"ok": True, "next": next_view(sheet, call), "bid_offer": offer_view(offer)}
    except EntryError as exc:
        raise entry_refused(exc) from None
