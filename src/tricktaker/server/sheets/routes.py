"""The HTTP routes of the score sheets, under ``/sheets`` (docs/scorekeeper.md, The
HTTP API): the request bodies, and each route calling the sheet service."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response
from pydantic import ConfigDict, Field

from tricktaker.scorekeeper import CallEntry, ScoreSheet, sheet_to_csv, sheet_to_markdown
from tricktaker.server.deps import Body, Database
from tricktaker.server.errors import InvalidRequestError, NotFoundError, ReadOnlyError
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.sheets.service import (
    SheetService,
    change_json,
    check_hand,
    checked_bids,
    export_json,
    imported_sheet,
    imported_toml,
    new_sheet,
)

# ----------------------------------------------------------------- requests


ENTRY_ID = r"^[\x21-\x7e]+$"
"""An entry id: printable ASCII without spaces."""


class CallIn(Body):
    """Caller Clag: the dealer's call."""

    size: int = Field(ge=0, le=60)
    kind: str = Field(default="normal", max_length=40)
    modifiers: list[str] = Field(default_factory=list, max_length=10)


GAME_FIELDS = 8
"""The most fields of a game's own a hand entry may carry (a Euchre contract and its
declarer; Buckup's ante, decisions and cards drawn)."""


class HandIn(Body):
    """One hand as the table reports it, by seat in seating order
    (:meth:`HandEntry.to_json <tricktaker.scorekeeper.HandEntry.to_json>`): the fields of
    every game, then the fields of the game's own steps (the sheet's ``steps`` name them:
    a Euchre ``contract`` and ``declarer``; Buckup's ``ante``, ``decisions`` and
    ``drawn``), which the game's scorekeeper checks."""

    model_config = ConfigDict(strict=True, extra="allow")

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

    def data(self) -> dict[str, Any]:
        """The entry's fields as data (without ``id`` and ``hand``): the JSON that
        :meth:`ScoreSheet.entry_from_json
        <tricktaker.scorekeeper.ScoreSheet.entry_from_json>` reads."""
        extra = self.model_extra or {}
        if len(extra) > GAME_FIELDS or len(json.dumps(extra)) > 4096:
            raise InvalidRequestError("bad-entry", "The entry has too many fields.")
        return {**self.model_dump(exclude={"id", "hand"}), **extra}


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


# ------------------------------------------------------------------ routes


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


def sheets_router(database: Database) -> APIRouter:
    """The ``/sheets`` API on the server's database."""
    service = SheetService(database)
    router = APIRouter(prefix="/sheets", tags=["score sheets"], responses=PROBLEMS)

    @router.post("", status_code=201)
    async def create_sheet(request: CreateSheet) -> dict[str, Any]:
        """Start a sheet; answers its edit token (keep it) and its read-only view key."""
        sheet = await asyncio.to_thread(
            new_sheet,
            request.game,
            request.ruleset_toml,
            request.options,
            request.players,
            request.first_dealer,
        )
        return await _created(sheet, request.ruleset_toml)

    @router.post("/import", status_code=201)
    async def import_sheet(request: ImportSheet) -> dict[str, Any]:
        """Start a sheet from an exported JSON sheet (every hand checked again)."""
        sheet = await asyncio.to_thread(imported_sheet, request.sheet, request.ruleset_toml)
        toml = imported_toml(request.sheet, request.ruleset_toml)
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
            check_hand(request.hand, len(sheet.rows) + 1)
            sheet.add_entry(sheet.entry_from_json(request.data()))
            return "add", len(sheet.rows), {"entry": sheet.entries[-1].to_json()}

        view, op, applied = await service.write(sheet_id, authorization, request.id, change)
        return {"applied": applied, "hand": op.hand, "sheet": view}

    @router.put("/{sheet_id}/hands/{number}")
    async def fix_hand(
        sheet_id: str, number: int, request: HandIn, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        """Correct hand ``number``: every later hand is scored again; answers what changed."""

        def change(sheet: ScoreSheet) -> tuple[str, int, dict[str, Any]]:
            changes = sheet.fix(number, sheet.entry_from_json(request.data()))
            entry = sheet.entries[number - 1].to_json()
            return "fix", number, {"entry": entry, "changes": change_json(sheet, changes)}

        view, op, applied = await service.write(sheet_id, authorization, request.id, change)
        changes = op.data.get("changes", [])
        return {"applied": applied, "hand": op.hand, "changes": changes, "sheet": view}

    @router.post("/{sheet_id}/undo")
    async def undo_hand(
        sheet_id: str, request: UndoIn, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        """Take back the last hand entered."""

        def change(sheet: ScoreSheet) -> tuple[str, int, dict[str, Any]]:
            check_hand(request.hand, len(sheet.rows))
            hand = len(sheet.rows)
            return "undo", hand, {"entry": sheet.undo().to_json()}

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
                raise ReadOnlyError()
            call = None
            if request.call is not None:
                call = CallEntry(
                    request.call.size, request.call.kind, tuple(request.call.modifiers)
                )
            bids = {s: b for s, b in enumerate(request.bids) if b is not None}
            return await asyncio.to_thread(
                checked_bids, built.sheet, request.hand, bids, call, request.trump
            )

    @router.get("/{sheet_id}/export.{fmt}", responses=EXPORTS)
    async def export_sheet(
        sheet_id: str, fmt: str, authorization: AuthHeader = None, view: ViewQuery = None
    ) -> Response:
        """The sheet as CSV, JSON (importable) or Markdown."""
        if fmt not in ("csv", "json", "md"):
            raise NotFoundError("no-format", "Export as csv, json or md.")
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
