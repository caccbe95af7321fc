"""Score sheets kept by the server: the scorekeeper of games played with real cards.

A sheet is stored as its ruleset (as data, house rules included), options, players,
first dealer, and the log of what was entered: hands added, hands corrected, the last
hand taken back, each with the id the client gave it. The sheet itself is rebuilt by
entering the hands again through :class:`tricktaker.scorekeeper.ScoreSheet`, as a
table is rebuilt from its events: the rules are never written twice.

The HTTP API lives under ``/sheets`` (see docs/scorekeeper.md). Creating a sheet
answers an edit token (stored only as its SHA-256 hash; it goes in ``Authorization:
Bearer TOKEN``) and a read-only view key (``?view=KEY``) for the other players. The
keeper may give out an edit link: a second key that edits too (also kept as its hash),
made anew or revoked by the keeper's own token, which shuts out the old link. Every
entry is committed before it is answered; an entry the rules refuse is an RFC 9457
problem body with the rule's words and its ``rule``, and leaves the sheet unchanged; a
request repeated with the same entry ``id`` is applied once.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response
from pydantic import Field, ValidationError

from tricktaker.rules import Ruleset, RulesetError
from tricktaker.rules.ruleset import ruleset_from_data
from tricktaker.scorekeeper import (
    CallEntry,
    EntryError,
    HandEntry,
    ScoreSheet,
    SheetError,
    sheet_from_json,
    sheet_to_csv,
    sheet_to_json,
    sheet_to_markdown,
)
from tricktaker.scorekeeper.offers import bid_offer
from tricktaker.server.db import hash_token, new_token
from tricktaker.server.messages import Body
from tricktaker.server.problems import PROBLEM_RESPONSES, ServiceError, problem
from tricktaker.server.sheet_store import (
    Op,
    StaleSheetError,
    StoredSheet,
    append_op,
    load_sheet,
    set_edit_link,
    store_sheet,
)
from tricktaker.server.sheet_views import entry_data, next_view, offer_view, sheet_view

if TYPE_CHECKING:
    from tricktaker.server.service import TableService

CACHED_SHEETS = 256
"""Sheets kept built in memory (the database stays the truth: a cached sheet is used
only while the stored log has not moved on)."""


# ------------------------------------------------------------ entries as data


def entry_of(sheet: ScoreSheet, data: dict[str, Any]) -> HandEntry:
    """The :class:`HandEntry` of stored or sent data (its sizes checked by the sheet)."""
    call = data.get("call")
    return sheet.entry(
        bids=data.get("bids") or (),
        tricks=data.get("tricks") or (),
        trick_winners=data.get("trick_winners") or (),
        trump=data.get("trump"),
        call=None
        if call is None
        else CallEntry(int(call["size"]), str(call["kind"]), tuple(call["modifiers"])),
        contract=data.get("contract"),
        declarer=data.get("declarer"),
        ante=data.get("ante"),
        decisions=data.get("decisions") or (),
        drawn=data.get("drawn") or (),
    )


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
            sheet.add(**entry_kwargs(sheet, data))
    except (EntryError, KeyError) as exc:  # pragma: no cover - a damaged log
        raise ServiceError(
            500, "sheet-damaged", f"The stored sheet cannot be read: {exc}"
        ) from None
    return sheet, by_id


# ----------------------------------------------------------------- requests


ENTRY_ID = r"^[\x21-\x7e]+$"
"""An entry id: printable ASCII without spaces."""


class CallIn(Body):
    """Caller Clag: the dealer's call."""

    size: int = Field(ge=0, le=60)
    kind: str = Field(default="normal", max_length=40)
    modifiers: list[str] = Field(default_factory=list, max_length=10)


class HandIn(Body):
    """One hand as the table reports it, by seat in seating order."""

    id: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        pattern=ENTRY_ID,
        description="The client's id of this entry: a request repeated with it is applied once.",
    )
    hand: int | None = Field(
        default=None, ge=1, description="The hand this entry is for (refused if another)."
    )
    bids: list[int | None] = Field(default_factory=list, max_length=16)
    tricks: list[int] = Field(max_length=16)
    trick_winners: list[int] = Field(default_factory=list, max_length=64)
    trump: str | None = Field(default=None, max_length=20)
    call: CallIn | None = None
    contract: str | None = Field(default=None, max_length=10)
    declarer: int | None = Field(default=None, ge=0, le=15)
    ante: str | None = Field(default=None, max_length=40)
    decisions: list[list[str]] = Field(default_factory=list, max_length=16)
    drawn: list[int] = Field(default_factory=list, max_length=16)

    def data(self) -> dict[str, Any]:
        """The entry's fields as data (without ``id`` and ``hand``)."""
        return self.model_dump(exclude={"id", "hand"})


class BidsIn(Body):
    """The bids made so far this hand (null: not yet), checked in bidding order; with
    ``hand``, those of hand ``hand`` as corrected (the hands before it as they stand)."""

    hand: int | None = Field(default=None, ge=1)
    bids: list[int | None] = Field(default_factory=list, max_length=16)
    call: CallIn | None = None
    trump: str | None = Field(default=None, max_length=20)


class UndoIn(Body):
    """Take back the last hand (``hand``: its number, refused if it is not the last)."""

    id: str | None = Field(default=None, min_length=1, max_length=64, pattern=ENTRY_ID)
    hand: int | None = Field(default=None, ge=1)


class CreateSheet(Body):
    """A new sheet: a shipped ``game`` or a house-rules ``ruleset_toml``, the players'
    names in seating order and the first dealer (a name; default: the first player)."""

    game: str | None = Field(default=None, max_length=100)
    ruleset_toml: str | None = Field(default=None, max_length=64 * 1024)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=50)
    players: list[Annotated[str, Field(max_length=40)]] = Field(min_length=1, max_length=16)
    first_dealer: str | None = Field(default=None, max_length=40)


class ImportSheet(Body):
    """A sheet exported as JSON (house rules: with its ``ruleset_toml``)."""

    sheet: dict[str, Any]
    ruleset_toml: str | None = Field(default=None, max_length=64 * 1024)


class EntryRefusedError(ServiceError):
    """An entry the rules refuse: the problem body names the ``rule``."""

    def __init__(self, error: EntryError) -> None:
        status = 409 if error.rule == "end of game" else 422
        super().__init__(status, "entry-refused", error.reason)
        self.rule = error.rule

    def body(self) -> dict[str, Any]:
        """The problem+json body, with the rule."""
        return {**problem(self.status, self.code, self.detail), "rule": self.rule}


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


# ------------------------------------------------------------------ service


@dataclass(slots=True)
class Built:
    """A sheet built in memory at version ``seq``."""

    stored: StoredSheet
    sheet: ScoreSheet
    by_id: dict[str, Op] = field(default_factory=dict)


class SheetService:
    """The sheets of one server process: built from the database, cached while current."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
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
        """The sheet at its stored version (404 if none); call under :meth:`guard`."""
        if len(sheet_id) > 32 or "\x00" in sheet_id:
            raise ServiceError(404, "no-sheet", "There is no such sheet.")
        cached = self._cache.get(sheet_id)
        stored = await self.tables.db(load_sheet, sheet_id, cached.stored.seq if cached else None)
        if stored is None:
            raise ServiceError(404, "no-sheet", f"There is no sheet {sheet_id!r}.")
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
        401/403 if neither."""
        token = _bearer(authorization)
        if token is not None:
            hashed = hash_token(token)
            if hmac.compare_digest(hashed, built.stored.edit_token_hash):
                return True
            link = built.stored.edit_link_hash
            if link is not None and hmac.compare_digest(hashed, link):
                return True
            raise ServiceError(
                403,
                "bad-token",
                "This is not the sheet's edit token, or its edit link was replaced or revoked.",
            )
        if view is not None:
            if hmac.compare_digest(view.encode(), built.stored.view_key.encode()):
                return False
            raise ServiceError(403, "bad-view-key", "This is not the sheet's view key.")
        raise ServiceError(
            401, "no-token", "Give the sheet's edit token (Authorization: Bearer) or ?view=KEY."
        )

    @staticmethod
    def is_owner(built: Built, authorization: str | None) -> bool:
        """Whether the request holds the keeper's own edit token (not an edit link)."""
        token = _bearer(authorization)
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
                raise ServiceError(403, "read-only", "The view key cannot change the sheet.")
            if not self.is_owner(built, authorization):
                raise ServiceError(
                    403,
                    "not-keeper",
                    "Only the browser that started the sheet gives out or revokes its edit link.",
                )
            key = new_token() if make else None
            hashed = hash_token(key) if key is not None else None
            if not await self.tables.db(set_edit_link, sheet_id, hashed):
                raise ServiceError(404, "no-sheet", f"There is no sheet {sheet_id!r}.")
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
                    raise ServiceError(403, "read-only", "The view key cannot change the sheet.")
                if client_id is not None and client_id in built.by_id:
                    return self.view(built, True, authorization), built.by_id[client_id], False
                try:
                    kind, hand, data = await asyncio.to_thread(change, built.sheet)
                except EntryError as exc:
                    raise EntryRefusedError(exc) from None
                op = Op(built.stored.seq + 1, kind, hand, data, client_id)
                try:
                    await self.tables.db(append_op, sheet_id, op)
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
        raise ServiceError(409, "busy", "The sheet is being changed elsewhere; try again.")

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
            Op(n, "add", n, {"entry": entry_data(e)}, None)
            for n, e in enumerate(sheet.entries, start=1)
        ]
        await self.tables.db(store_sheet, stored, ops)
        return sheet_id, token, view_key


def _load_rules(game: str | None, toml: str | None, options: dict[str, Any]) -> Ruleset:
    from tricktaker.server.api import CreateTable, _load_rules

    try:
        request = CreateTable(game=game, ruleset_toml=toml, options=options)
    except ValidationError as exc:
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ServiceError(422, "bad-sheet", detail, field="options") from None
    return _load_rules(request)[0]


def _new_sheet(request: CreateSheet) -> ScoreSheet:
    rules = _load_rules(request.game, request.ruleset_toml, request.options)
    try:
        return ScoreSheet(
            rules.id,
            request.players,
            first_dealer=request.first_dealer,
            options=dict(rules.options),
            rules=rules,
        )
    except (SheetError, RulesetError) as exc:
        text = re.sub(r"^[^:\s]+:\d+:\d+: (players: )?", "", str(exc))
        field_name = "first_dealer" if "no player is called" in text else "players"
        raise ServiceError(422, "bad-sheet", text, field=field_name) from None


def _imported(request: ImportSheet) -> ScoreSheet:
    data = request.sheet
    toml = request.ruleset_toml or data.get("ruleset_toml")
    options = data.get("options")
    game = data.get("game")
    if not isinstance(options, dict) or not isinstance(game, str):
        raise ServiceError(422, "bad-sheet", "Not a tricktaker score sheet.", field="sheet")
    rules = _load_rules(None if toml else game, toml if isinstance(toml, str) else None, options)
    try:
        return sheet_from_json(data, rules=rules)
    except SheetError as exc:
        raise ServiceError(422, "bad-sheet", str(exc), field="sheet") from None


def export_json(built: Built) -> dict[str, Any]:
    """The sheet as the library writes it, with its house rules' TOML when it has one."""
    data = sheet_to_json(built.sheet)
    if built.stored.ruleset_toml is not None:
        data["ruleset_toml"] = built.stored.ruleset_toml
    return data


def _change_json(sheet: ScoreSheet, changes: Sequence[Any]) -> list[dict[str, Any]]:
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


def _check_hand(sheet: ScoreSheet, hand: int | None, wanted: int) -> None:
    if hand is not None and hand != wanted:
        raise ServiceError(
            409,
            "wrong-hand",
            f"This entry is for hand {hand}, but the sheet is at hand {wanted}.",
            field="hand",
        )


def _checked(
    sheet: ScoreSheet, request: BidsIn, bids: dict[int, int], call: CallEntry | None
) -> dict[str, Any]:
    """The answer of ``/check``: the next hand as the call makes it and the bids the next
    bidder may make (of hand ``request.hand`` in a correction)."""
    if request.hand is not None and request.hand <= len(sheet.rows):
        sheet = sheet.upto(request.hand - 1)
    else:
        _check_hand(sheet, request.hand, len(sheet.rows) + 1)
    try:
        sheet.check_bids(bids, call=call, trump=request.trump)
        offer = bid_offer(sheet, bids, call=call, trump=request.trump)
        return {"ok": True, "next": next_view(sheet, call), "bid_offer": offer_view(offer)}
    except EntryError as exc:
        raise EntryRefusedError(exc) from None


PROBLEMS = PROBLEM_RESPONSES
"""The refusals of every ``/sheets`` operation (RFC 9457 problem bodies)."""
EXPORTS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The sheet as CSV, JSON or Markdown.",
        "content": {"text/csv": {}, "application/json": {}, "text/markdown": {}},
    }
}

AuthHeader = Annotated[str | None, Header(description="Bearer EDIT_TOKEN.")]
ViewQuery = Annotated[str | None, Query(max_length=64, description="The read-only view key.")]


def sheets_router(tables: TableService) -> APIRouter:
    """The ``/sheets`` API on the table server's database."""
    service = SheetService(tables)
    router = APIRouter(prefix="/sheets", tags=["score sheets"], responses=PROBLEMS)

    @router.post("", status_code=201)
    async def create_sheet(request: CreateSheet) -> dict[str, Any]:
        """Start a sheet; answers its edit token (keep it) and its read-only view key."""
        sheet = await asyncio.to_thread(_new_sheet, request)
        return await _created(sheet, request.ruleset_toml)

    @router.post("/import", status_code=201)
    async def import_sheet(request: ImportSheet) -> dict[str, Any]:
        """Start a sheet from an exported JSON sheet (every hand checked again)."""
        sheet = await asyncio.to_thread(_imported, request)
        toml = request.ruleset_toml or request.sheet.get("ruleset_toml")
        return await _created(sheet, toml if isinstance(toml, str) else None)

    async def _created(sheet: ScoreSheet, toml: str | None) -> dict[str, Any]:
        sheet_id, token, view_key = await service.create(sheet, toml)
        bearer = f"Bearer {token}"
        built, _ = await service.read(sheet_id, bearer, None)
        return {
            "id": sheet_id,
            "edit_token": token,
            "view_key": view_key,
            "sheet": service.view(built, True, bearer),
        }

    @router.get("/{sheet_id}")
    async def get_sheet(
        sheet_id: str, authorization: AuthHeader = None, view: ViewQuery = None
    ) -> dict[str, Any]:
        """The sheet: rows, totals, Set/Over/Perfect counts and the next hand."""
        built, editing = await service.read(sheet_id, authorization, view)
        return service.view(built, editing, authorization)

    @router.post("/{sheet_id}/edit-link")
    async def make_edit_link(sheet_id: str, authorization: AuthHeader = None) -> dict[str, Any]:
        """Give out a new edit link: answers its ``edit_key``, which edits the sheet as
        ``Authorization: Bearer KEY`` (the browser's link: ``#/score/ID?edit=KEY``). The
        link made before stops working. Takes the keeper's own edit token."""
        key = await service.edit_link(sheet_id, authorization, True)
        return {"edit_key": key}

    @router.delete("/{sheet_id}/edit-link")
    async def revoke_edit_link(sheet_id: str, authorization: AuthHeader = None) -> dict[str, Any]:
        """Revoke the edit link: whoever holds it may only follow the sheet with its view
        link from now on. Takes the keeper's own edit token."""
        await service.edit_link(sheet_id, authorization, False)
        return {"edit_link": False}

    @router.post("/{sheet_id}/hands")
    async def add_hand(
        sheet_id: str, request: HandIn, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        """Enter the next hand; a refused entry changes nothing."""

        def change(sheet: ScoreSheet) -> tuple[str, int, dict[str, Any]]:
            _check_hand(sheet, request.hand, len(sheet.rows) + 1)
            sheet.add(**entry_kwargs(sheet, request.data()))
            return "add", len(sheet.rows), {"entry": entry_data(sheet.entries[-1])}

        view, op, applied = await service.write(sheet_id, authorization, request.id, change)
        return {"applied": applied, "hand": op.hand, "sheet": view}

    @router.put("/{sheet_id}/hands/{number}")
    async def fix_hand(
        sheet_id: str, number: int, request: HandIn, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        """Correct hand ``number``: every later hand is scored again; answers what changed."""

        def change(sheet: ScoreSheet) -> tuple[str, int, dict[str, Any]]:
            changes = sheet.fix(number, entry_of(sheet, request.data()))
            entry = entry_data(sheet.entries[number - 1])
            return "fix", number, {"entry": entry, "changes": _change_json(sheet, changes)}

        view, op, applied = await service.write(sheet_id, authorization, request.id, change)
        changes = op.data.get("changes", [])
        return {"applied": applied, "hand": op.hand, "changes": changes, "sheet": view}

    @router.post("/{sheet_id}/undo")
    async def undo_hand(
        sheet_id: str, request: UndoIn, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        """Take back the last hand entered."""

        def change(sheet: ScoreSheet) -> tuple[str, int, dict[str, Any]]:
            _check_hand(sheet, request.hand, len(sheet.rows))
            hand = len(sheet.rows)
            return "undo", hand, {"entry": entry_data(sheet.undo())}

        view, op, applied = await service.write(sheet_id, authorization, request.id, change)
        return {"applied": applied, "hand": op.hand, "sheet": view}

    @router.post("/{sheet_id}/check")
    async def check_bids(
        sheet_id: str, request: BidsIn, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        """Check the bids made so far (and a Caller Clag call): answers the next hand
        as the call makes it, or the rule a bid breaks."""
        async with service.guard(sheet_id):
            built = await service.current(sheet_id)
            if not service.can_edit(built, authorization, None):
                raise ServiceError(403, "read-only", "The view key cannot change the sheet.")
            call = None
            if request.call is not None:
                call = CallEntry(
                    request.call.size, request.call.kind, tuple(request.call.modifiers)
                )
            bids = {s: b for s, b in enumerate(request.bids) if b is not None}
            return await asyncio.to_thread(_checked, built.sheet, request, bids, call)

    @router.get("/{sheet_id}/export.{fmt}", responses=EXPORTS)
    async def export_sheet(
        sheet_id: str, fmt: str, authorization: AuthHeader = None, view: ViewQuery = None
    ) -> Response:
        """The sheet as CSV, JSON (importable) or Markdown."""
        if fmt not in ("csv", "json", "md"):
            raise ServiceError(404, "no-format", "Export as csv, json or md.")
        built, _ = await service.read(sheet_id, authorization, view)
        name = f"{built.sheet.rules.id}-{sheet_id}.{fmt}"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        if fmt == "csv":
            return Response(sheet_to_csv(built.sheet), media_type="text/csv", headers=headers)
        if fmt == "md":
            text = sheet_to_markdown(built.sheet)
            return Response(text, media_type="text/markdown", headers=headers)
        body = json.dumps(export_json(built), indent=2, ensure_ascii=False)
        return Response(body, media_type="application/json", headers=headers)

    return router


def entry_kwargs(sheet: ScoreSheet, data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``ScoreSheet.add`` for entry ``data``."""
    entry = entry_of(sheet, data)
    return {
        "bids": entry.bids,
        "tricks": entry.tricks,
        "trick_winners": entry.trick_winners,
        "trump": entry.trump,
        "call": entry.call,
        "contract": entry.contract,
        "declarer": entry.declarer,
        "ante": entry.ante,
        "decisions": entry.decisions,
        "drawn": entry.drawn,
    }
