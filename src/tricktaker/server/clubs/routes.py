"""The club routes under ``/api/clubs`` and ``/api/club-invites`` (docs/clubs.md;
docs/protocol.md, Clubs).

Every route wants a signed-in user (the accounts' :data:`SignedInUser`: 401 without a
session; the accounts' CSRF check covers every POST, PATCH and DELETE); a club's routes
answer its members only (403 ``not-member``), and what changes the club, its evenings
and its tables its organisers only (403 ``not-organiser``). A club's tables are
ordinary unlisted tables whose host token the server keeps: the organisers start them
through the club, members take their seats through it. No answer carries a card, a
token of another's or an invitation's code (but the one just made).
"""

from __future__ import annotations

import asyncio
import datetime
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response
from pydantic import Field

from tricktaker.bots.names import bot_name
from tricktaker.rules import Ruleset, RulesetError
from tricktaker.server.accounts import SignedInUser
from tricktaker.server.accounts import store as accounts
from tricktaker.server.accounts.passwords import name_key
from tricktaker.server.clubs import store
from tricktaker.server.clubs.results import (
    Order,
    evening_duplicate,
    matchpoints_standings,
    member_statistics,
    points_standings,
)
from tricktaker.server.clubs.service import (
    Clubs,
    NotOrganiserError,
    club_hands,
    duplicate_set,
)
from tricktaker.server.clubs.store import MEMBER, ORGANISER, Club, Evening
from tricktaker.server.db import hash_token, new_token, now
from tricktaker.server.deps import Body, RulesRequest, load_rules
from tricktaker.server.duplicate import store as duplicate_store
from tricktaker.server.errors import (
    InvalidRequestError,
    NotFoundError,
    NotPossibleNowError,
)
from tricktaker.server.players.privacy import allows, load_privacies
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.sheets.service import new_sheet
from tricktaker.server.tables.routes import CreateTable, _check_bot, _new_table
from tricktaker.server.tables.service import TableService
from tricktaker.stats import rules_label

INVITE_DAYS = 7
"""An invitation's life by default, in days (at most :data:`INVITE_DAYS_MOST`)."""
INVITE_DAYS_MOST = 60
TABLES_MOST = 40
"""The most tables one evening may have."""
KINDS = ("tables", "duplicate", "cards")
"""An evening's kinds: tables with the house rules, a duplicate set's tables, or a
real-card evening kept on score sheets."""

Id = Annotated[str, Path(min_length=1, max_length=32)]
Day = Annotated[str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$")]
Code = Annotated[str, Path(min_length=8, max_length=128)]


class CreateClub(RulesRequest):
    """A new club: its name and house rules (a shipped ``game`` or a ``ruleset_toml``,
    with options) and its tables' size."""

    name: str = Field(min_length=1, max_length=60)
    players: int | None = Field(default=None, ge=1, le=16)


class CreateInvite(Body):
    """A new invitation, good for ``days`` days."""

    days: int = Field(default=INVITE_DAYS, ge=1, le=INVITE_DAYS_MOST)


class ChangeMember(Body):
    """A member's new role."""

    role: Literal["organiser", "member"]


class CreateEvening(Body):
    """A new evening: its day (default today, UTC), name and kind."""

    day: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    name: str | None = Field(default=None, max_length=60)
    kind: Literal["tables", "duplicate", "cards"] = "tables"


class CreateClubTable(Body):
    """A table of the evening: each seat ``human`` (a member takes it) or a bot."""

    seats: list[str] | None = Field(default=None, max_length=16)
    grace_seconds: float = Field(default=60.0, ge=0.05, le=3600.0)
    move_timer: float | None = Field(default=None, ge=0.05, le=3600.0)
    away_bot: str = Field(default="easy", max_length=100)


class TakeSeat(Body):
    """Take a free seat (the first free one by default)."""

    seat: int | None = Field(default=None, ge=0, le=15)


class StartTables(Body):
    """Start: ``bot`` plays every seat still free (None: a free seat stops the start)."""

    bot: str | None = Field(default=None, max_length=100)


class CreateClubSheet(Body):
    """A real-card evening's score sheet: its players' names in seating order (a
    member's user name records that member) and the first dealer."""

    players: list[Annotated[str, Field(max_length=40)]] = Field(min_length=1, max_length=16)
    first_dealer: str | None = Field(default=None, max_length=40)


def _stamp(moment: datetime.datetime) -> str:
    return moment.isoformat()


def _new_club(request: CreateClub) -> tuple[Club, Ruleset]:
    rules, toml = load_rules(request)
    players = request.players or (4 if 4 in rules.player_counts else rules.player_counts[0])
    try:
        rules.check_players(players)
        rules.hands_for(players)
    except RulesetError as exc:
        raise InvalidRequestError("bad-players", str(exc), field="players") from None
    name = " ".join(request.name.split())
    if not name:
        raise InvalidRequestError("bad-name", "Give the club a name.", field="name")
    club = Club(
        id=secrets.token_urlsafe(9),
        name=name,
        created_at=now(),
        game=rules.id,
        preset=request.game,
        ruleset_toml=toml,
        ruleset_data=rules.data,
        options=dict(rules.options),
        players=players,
        fingerprint=rules_label(rules).fingerprint,
    )
    return club, rules


def _evening_json(evening: Evening) -> dict[str, Any]:
    return {
        "id": evening.id,
        "day": evening.day,
        "name": evening.name,
        "kind": evening.kind,
        "duplicate_set": evening.set_id,
        "created_at": _stamp(evening.created_at),
    }


def _invite_json(invite: store.Invite) -> dict[str, Any]:
    return {
        "id": invite.id,
        "created_at": _stamp(invite.created_at),
        "expires_at": _stamp(invite.expires_at),
        "revoked": invite.revoked,
        "open": invite.open_at(now()),
        "uses": invite.uses,
    }


def _today() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _check_day(day: str, where: str) -> str:
    try:
        datetime.date.fromisoformat(day)
    except ValueError:
        raise InvalidRequestError("bad-day", f"{day!r} is not a day.", field=where) from None
    return day


def clubs_router(service: TableService) -> APIRouter:
    """The ``/api/clubs`` and ``/api/club-invites`` routes."""
    clubs = Clubs(service)
    database = clubs.database
    router = APIRouter(prefix="/api", tags=["clubs"], responses=PROBLEM_RESPONSES)
    service.belonging.club_of = store.place_of_table  # a table shows its club
    service.belonging.set_club_of = store.place_of_set

    def club_json(club: Club) -> dict[str, Any]:
        label = rules_label(clubs.rules(club))
        return {
            "id": club.id,
            "name": club.name,
            "rules": label.to_json(),
            "game": club.game,
            "options": club.options,
            "players": club.players,
            "hands": club_hands(clubs.rules(club), club.players),
            "created_at": _stamp(club.created_at),
        }

    async def names_of(club: Club) -> dict[int, str]:
        return {m.user_id: m.name for m in await database.run(store.members, club.id)}

    @router.post("/clubs", status_code=201)
    async def create_club(body: CreateClub, signed: SignedInUser) -> dict[str, Any]:
        """Make a club: the signed-in user is its first organiser."""
        club, _rules = await asyncio.to_thread(_new_club, body)
        await database.run(store.create_club, club, signed.user.id)
        return {"club": club_json(club), "role": ORGANISER}

    @router.get("/clubs")
    async def my_clubs(signed: SignedInUser) -> dict[str, Any]:
        """The clubs the signed-in user belongs to, with their role."""
        found = await database.run(store.clubs_of, signed.user.id)
        return {"clubs": [{"club": club_json(club), "role": role} for club, role in found]}

    @router.get("/clubs/{club_id}")
    async def club_page(club_id: Id, signed: SignedInUser) -> dict[str, Any]:
        """A club: its house rules, members and evenings (its members only)."""
        club, role = await clubs.member(club_id, signed.user)
        members = await database.run(store.members, club.id)
        evenings = await database.run(store.evenings, club.id)
        return {
            "club": club_json(club),
            "role": role,
            "members": [
                {"name": m.name, "role": m.role, "joined_at": _stamp(m.joined_at)} for m in members
            ],
            "evenings": [_evening_json(e) for e in evenings],
        }

    # ------------------------------------------------------------ members

    async def user_of(name: str) -> int:
        found = await database.run(store.user_named, name_key(name))
        if found is None:
            raise NotFoundError("no-member", "The club has no member of that name.")
        return found[0]

    @router.patch("/clubs/{club_id}/members/{name}")
    async def change_member(
        club_id: Id,
        name: Annotated[str, Path(max_length=64)],
        body: ChangeMember,
        signed: SignedInUser,
    ) -> dict[str, Any]:
        """An organiser makes a member an organiser, or an organiser a member again."""
        club = await clubs.organiser(club_id, signed.user)
        user = await user_of(name)
        try:
            changed = await database.run(store.change_member, club.id, user, body.role)
        except store.LastOrganiserError:
            raise NotPossibleNowError(
                "last-organiser", "A club keeps one organiser at least."
            ) from None
        if not changed:
            raise NotFoundError("no-member", "The club has no member of that name.")
        return {"name": name, "role": body.role}

    @router.delete("/clubs/{club_id}/members/{name}", status_code=204)
    async def remove_member(
        club_id: Id, name: Annotated[str, Path(max_length=64)], signed: SignedInUser
    ) -> Response:
        """An organiser removes a member, or a member leaves the club."""
        _club, role = await clubs.member(club_id, signed.user)
        user = await user_of(name)
        if user != signed.user.id and role != ORGANISER:
            raise NotOrganiserError()
        try:
            removed = await database.run(store.change_member, club_id, user, None)
        except store.LastOrganiserError:
            raise NotPossibleNowError(
                "last-organiser", "A club keeps one organiser at least: appoint another first."
            ) from None
        if not removed:
            raise NotFoundError("no-member", "The club has no member of that name.")
        return Response(status_code=204)

    # ------------------------------------------------------------ invitations

    @router.post("/clubs/{club_id}/invites", status_code=201)
    async def create_invite(
        club_id: Id, body: CreateInvite, signed: SignedInUser
    ) -> dict[str, Any]:
        """An organiser makes an invitation: its ``code`` is answered this once (the
        server keeps its hash); the link ``#/club-invite/CODE`` accepts it."""
        club = await clubs.organiser(club_id, signed.user)
        code = new_token()
        expires = now() + datetime.timedelta(days=body.days)
        invite = await database.run(
            store.create_invite,
            secrets.token_urlsafe(9),
            club.id,
            hash_token(code),
            signed.user.id,
            expires,
        )
        return {**_invite_json(invite), "code": code, "link": f"#/club-invite/{code}"}

    @router.get("/clubs/{club_id}/invites")
    async def list_invites(club_id: Id, signed: SignedInUser) -> dict[str, Any]:
        """The club's invitations (never their codes), for its organisers."""
        club = await clubs.organiser(club_id, signed.user)
        return {"invites": [_invite_json(i) for i in await database.run(store.invites, club.id)]}

    @router.delete("/clubs/{club_id}/invites/{invite_id}", status_code=204)
    async def revoke_invite(club_id: Id, invite_id: Id, signed: SignedInUser) -> Response:
        """An organiser revokes an invitation: its code accepts nobody from now on."""
        club = await clubs.organiser(club_id, signed.user)
        if not await database.run(store.revoke_invite, club.id, invite_id):
            raise NotFoundError("no-invite", "The club has no invitation of that id.")
        return Response(status_code=204)

    async def open_invite(code: str) -> tuple[store.Invite, Club]:
        found = await database.run(store.invite_of, hash_token(code))
        if found is None or not found[0].open_at(now()):
            raise NotFoundError(
                "no-invite", "This invitation is unknown, revoked or expired: ask for a new one."
            )
        return found

    @router.get("/club-invites/{code}")
    async def see_invite(code: Code, signed: SignedInUser) -> dict[str, Any]:
        """What an invitation is to: the club's name and rules, when it expires, and
        whether the user is a member already."""
        invite, club = await open_invite(code)
        role = await database.run(store.role_of, club.id, signed.user.id)
        return {
            "club": {"id": club.id, "name": club.name, "rules": club_json(club)["rules"]},
            "expires_at": _stamp(invite.expires_at),
            "member": role is not None,
        }

    @router.post("/club-invites/{code}")
    async def accept_invite(code: Code, signed: SignedInUser) -> dict[str, Any]:
        """Accept an invitation: the user becomes a member (a member stays one)."""
        await open_invite(code)
        club_id = await database.run(store.accept, hash_token(code), signed.user.id, now())
        if club_id is None:
            raise NotFoundError("no-invite", "This invitation is no longer open.")
        role = await database.run(store.role_of, club_id, signed.user.id)
        return {"club": club_id, "role": role or MEMBER}

    # ------------------------------------------------------------ evenings

    @router.post("/clubs/{club_id}/evenings", status_code=201)
    async def create_evening(
        club_id: Id, body: CreateEvening, signed: SignedInUser
    ) -> dict[str, Any]:
        """An organiser plans an evening; a duplicate evening's set is made now (its
        deals fixed, dealt at every table of the evening)."""
        club = await clubs.organiser(club_id, signed.user)
        day = _check_day(body.day or _today(), "day")
        set_id = None
        if body.kind == "duplicate":
            made = await asyncio.to_thread(duplicate_set, club, clubs.rules(club), body.name)
            await database.run(duplicate_store.create_set, made)
            set_id = made.id
        name = " ".join((body.name or "").split()) or None
        evening = Evening(secrets.token_urlsafe(9), club.id, day, name, body.kind, set_id, now())
        await database.run(store.create_evening, evening)
        return _evening_json(evening)

    @router.get("/clubs/{club_id}/evenings/{evening_id}")
    async def evening_page(club_id: Id, evening_id: Id, signed: SignedInUser) -> dict[str, Any]:
        """An evening: its tables live (state, hand, seats, scores; never a card), its
        sheets, its results once tables finish and a duplicate evening's standings."""
        club, _role = await clubs.member(club_id, signed.user)
        evening = await clubs.evening(club, evening_id)
        names = await names_of(club)
        tables = await database.run(store.evening_tables, [evening.id])
        sheets = await database.run(store.evening_sheets, [evening.id])
        games = await clubs.games(club, [evening], running=True)
        shown = None  # a duplicate evening shows the hands every table has finished
        played = {g.key: len(g.state.history) for g in games if g.kind == "table"}
        if evening.kind == "duplicate":
            shown = min((played.get(t.table_id, 0) for t in tables), default=0)
        table_views = [await clubs.table_view(club, t, names, shown) for t in tables]
        sheet_views = [v for v in [await clubs.sheet_view(s, names) for s in sheets] if v]
        over = shown is None or all(g.finished for g in games if g.kind == "table")
        over = over and (shown is None or len(played) == len(tables))  # every table started
        answer: dict[str, Any] = {
            "club": {"id": club.id, "name": club.name},
            "evening": _evening_json(evening),
            "tables": table_views,
            "sheets": sheet_views,
            "results": [
                {**row.to_json(names[row.user_id])}
                for row in points_standings(g for g in games if g.finished)
            ]
            if over
            else [],
            "duplicate": None,
        }
        if evening.kind == "duplicate":
            ranked, where = evening_duplicate((g for g in games if g.kind == "table"), shown)
            people = {f"{g.number}:{s}": u for g in games for s, u in g.people.items()}
            seat_names = {
                f"{view['number']}:{seat['seat']}": seat["name"]
                for view in table_views
                for seat in view["seats"]
            }
            seat_bots = {  # a bot's seat (not a member's that the away bot played)
                f"{view['number']}:{seat['seat']}": seat["bot"] if seat["state"] == "bot" else None
                for view in table_views
                for seat in view["seats"]
            }
            answer["duplicate"] = [
                {
                    "table": where[row.entrant][0],
                    "seat": where[row.entrant][1],
                    "name": seat_names.get(row.entrant),
                    "bot": seat_bots.get(row.entrant),
                    "member": names.get(people.get(row.entrant, -1)),
                    "hands": row.hands,
                    "matchpoints": row.matchpoints,
                    "top": row.top,
                    "percent": round(row.percent, 2),
                    "against_average": round(row.against_average, 2),
                }
                for row in ranked
            ]
        return answer

    @router.post("/clubs/{club_id}/evenings/{evening_id}/tables", status_code=201)
    async def create_table(
        club_id: Id, evening_id: Id, body: CreateClubTable, signed: SignedInUser
    ) -> dict[str, Any]:
        """An organiser makes a table of the evening with the club's house rules (a
        duplicate evening's deals its set's); members take its seats."""
        club = await clubs.organiser(club_id, signed.user)
        evening = await clubs.evening(club, evening_id)
        if evening.kind == "cards":
            raise NotPossibleNowError(
                "real-cards", "A real-card evening has score sheets, not tables."
            )
        held = await database.run(store.evening_tables, [evening.id])
        if len(held) >= TABLES_MOST:
            raise NotPossibleNowError(
                "too-many-tables", f"An evening has {TABLES_MOST} tables at most."
            )
        data = None
        if evening.set_id is not None:
            data = await database.run(duplicate_store.load_set, evening.set_id)
            if data is None:
                raise NotPossibleNowError("no-set", "The evening's duplicate set is gone.")
        request = CreateTable.model_validate(
            {
                "game": club.preset,
                "ruleset_toml": club.ruleset_toml,
                "options": dict(club.options),
                "players": club.players,
                "seats": body.seats,
                "public": False,
                "grace_seconds": body.grace_seconds,
                "move_timer": body.move_timer,
                "away_bot": body.away_bot,
                **({"seed": data.duplicate.seed} if data is not None else {}),
            }
        )
        table, toml, host_token, _seat = await asyncio.to_thread(_new_table, request)
        names = list((await names_of(club)).values())
        for seat in table.seats:  # a bot never has a member's name (who takes a seat later)
            if seat.kind == "bot":
                others = [s.name for s in table.seats if s.name is not None and s is not seat]
                seat.name = bot_name(seat.seat, names + others)
        deals = data.duplicate.deals if data is not None else None
        live = await service.create(table, toml, deals=deals)
        if data is not None:
            await database.run(duplicate_store.add_table, data.id, table.id)
        number = await database.run(store.add_table, evening.id, table.id, host_token)
        live.club = store.place(club, evening, number)
        found, _live = await clubs.table(club, table.id)
        return await clubs.table_view(club, found, await names_of(club))

    @router.post("/clubs/{club_id}/tables/{table_id}/seat", status_code=201)
    async def take_seat(
        club_id: Id, table_id: Id, body: TakeSeat, signed: SignedInUser
    ) -> dict[str, Any]:
        """A member takes a free seat of the club's table: its seat token is answered
        this once (as ``POST /tables/{id}/join`` answers it) and the seat is theirs."""
        club, _role = await clubs.member(club_id, signed.user)
        found, live = await clubs.table(club, table_id)
        people = (await database.run(store.seat_users, [table_id])).get(table_id, {})
        if signed.user.id in people.values():
            raise NotPossibleNowError("already-seated", "You have a seat at this table already.")
        evening = await clubs.evening(club, found.evening_id)
        if evening.kind == "duplicate":  # the same cards at every table: one seat a person
            others = await database.run(store.evening_tables, [evening.id])
            seated = await database.run(store.seat_users, [t.table_id for t in others])
            if any(signed.user.id in by_seat.values() for by_seat in seated.values()):
                raise NotPossibleNowError(
                    "seated-this-evening",
                    "You have a seat at another table of this duplicate evening, which deals"
                    " the same cards.",
                )
        seat, token = await service.join(
            table_id, live.data.invite_code, signed.user.name, body.seat
        )
        await database.run(accounts.claim, signed.user.id, seats=[accounts.Proof(table_id, token)])
        return {"table": table_id, "seat": seat, "seat_token": token}

    async def start_table(club: Club, table: store.ClubTable, bot: str | None) -> None:
        live = await service.live(table.table_id)
        if live.data.status != "waiting":
            return
        if bot is not None:  # a bot in a free seat is named as no member is
            members = list((await names_of(club)).values())
            for seat in list(live.data.seats):
                if seat.kind == "human" and seat.token_hash is None:
                    await service.set_bot(
                        table.table_id, table.host_token, seat.seat, bot, avoid=members
                    )
        await service.start(table.table_id, table.host_token)

    def checked_bot(bot: str | None) -> str | None:
        return None if bot is None else _check_bot(bot, "bot")

    @router.post("/clubs/{club_id}/tables/{table_id}/start", status_code=204)
    async def start_one(
        club_id: Id, table_id: Id, body: StartTables, signed: SignedInUser
    ) -> Response:
        """An organiser starts one table (``bot`` plays its free seats)."""
        club = await clubs.organiser(club_id, signed.user)
        found, live = await clubs.table(club, table_id)
        if live.data.status != "waiting":
            raise NotPossibleNowError("already-started", "This table's game has started.")
        await start_table(club, found, checked_bot(body.bot))
        return Response(status_code=204)

    @router.post("/clubs/{club_id}/evenings/{evening_id}/start")
    async def start_all(
        club_id: Id, evening_id: Id, body: StartTables, signed: SignedInUser
    ) -> dict[str, Any]:
        """An organiser starts every waiting table of the evening together."""
        club = await clubs.organiser(club_id, signed.user)
        evening = await clubs.evening(club, evening_id)
        bot = checked_bot(body.bot)
        started = []
        for table in await database.run(store.evening_tables, [evening.id]):
            if (await service.live(table.table_id)).data.status == "waiting":
                await start_table(club, table, bot)
                started.append(table.table_id)
        return {"started": started}

    @router.post("/clubs/{club_id}/evenings/{evening_id}/sheets", status_code=201)
    async def create_sheet(
        club_id: Id, evening_id: Id, body: CreateClubSheet, signed: SignedInUser
    ) -> dict[str, Any]:
        """A member keeps a score sheet of the evening's real cards, with the club's
        house rules: a player named as a member is recorded as that member, and the
        sheet's hands count in their statistics. The sheet's edit token and view key
        are answered to its keeper (as ``POST /sheets`` answers them)."""
        club, _role = await clubs.member(club_id, signed.user)
        evening = await clubs.evening(club, evening_id)
        sheet = await asyncio.to_thread(
            new_sheet,
            club.preset,
            club.ruleset_toml,
            dict(club.options),
            body.players,
            body.first_dealer,
        )
        sheet_id, token, view_key = await clubs.sheets.create(sheet, club.ruleset_toml)
        by_key = {name_key(m.name): m.user_id for m in await database.run(store.members, club.id)}
        people = [by_key.get(name_key(player)) for player in sheet.players]
        await database.run(store.add_sheet, evening.id, sheet_id, people)
        proof = [accounts.Proof(sheet_id, token)]
        for user in {signed.user.id, *(u for u in people if u is not None)}:
            await database.run(accounts.claim, user, sheets=proof)
        return {
            "id": sheet_id,
            "edit_token": token,
            "view_key": view_key,
            "link": f"#/score/{sheet_id}",
            "members": [sheet.players[i] if u is not None else None for i, u in enumerate(people)],
        }

    # ------------------------------------------------------------ the season

    @router.get("/clubs/{club_id}/standings")
    async def season_standings(
        club_id: Id,
        signed: SignedInUser,
        by: Order = "points",
        first: Annotated[Day, Query(alias="from")] = None,
        last: Annotated[Day, Query(alias="to")] = None,
    ) -> dict[str, Any]:
        """The season's standings (the evenings from ``from`` to ``to``, inclusive),
        ``by`` points or duplicate matchpoints (docs/clubs.md, Standings)."""
        club, _role = await clubs.member(club_id, signed.user)
        for day, where in ((first, "from"), (last, "to")):
            if day is not None:
                _check_day(day, where)
        evenings = await database.run(store.evenings, club.id, first, last)
        games = await clubs.games(club, evenings)
        names = await names_of(club)
        rows: list[dict[str, Any]]
        if by == "points":
            rows = [r.to_json(names[r.user_id]) for r in points_standings(games)]
        else:
            rows = [r.to_json(names[r.user_id]) for r in matchpoints_standings(games)]
        return {"from": first, "to": last, "by": by, "evenings": len(evenings), "standings": rows}

    @router.get("/clubs/{club_id}/statistics")
    async def statistics(
        club_id: Id,
        signed: SignedInUser,
        first: Annotated[Day, Query(alias="from")] = None,
        last: Annotated[Day, Query(alias="to")] = None,
    ) -> dict[str, Any]:
        """The members' statistics over the club's games alone (per ruleset
        fingerprint, as a player's page gives them). A member who shares their page
        with nobody (docs/players.md, What you share) is left out, but for themself."""
        club, _role = await clubs.member(club_id, signed.user)
        evenings = await database.run(store.evenings, club.id, first, last)
        figures = member_statistics(await clubs.games(club, evenings))
        names = await names_of(club)
        privacies = await database.run(load_privacies, sorted(figures))
        return {
            "members": [
                {"name": names[user], "statistics": figures[user]}
                for user in sorted(figures, key=lambda u: names[u].lower())
                if user in names
                and (user == signed.user.id or allows(privacies[user].page, "club"))
            ]
        }

    return router
