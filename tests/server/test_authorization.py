"""Who may do what: every route of the server called by everyone who must be refused,
then by whoever may (docs/protocol.md, Who may call what), over a real server process
(on SQLite: see :data:`ON_SQLITE`).

The callers: ``nobody`` (no session, no token), ``guest`` (no account, the tokens of a
table, sheet and set of their own), ``stranger`` (signed in, no part of the thing),
``member`` (a member of the club who is not its organiser; club routes only),
``rival`` (the organiser of another club, naming Ann's club's members, invitations,
evenings and tables under their own club's id),
``no_csrf`` and ``bad_csrf`` (the right person's session cookie and tokens, with no
CSRF header or a wrong one; routes that change something only) and ``owner`` (the right
person, with the right token where one is needed). Every refused call answers its
documented status, and the whole world as its people see it (tables, sheets, clubs,
sets, accounts) reads back the same after them; then those who may call it do.

The list of routes comes from the application itself: a route added without an entry
here fails :func:`test_every_route_has_an_entry`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.routing import Mount, Route
from websockets.sync.client import connect

from tests.server.authorization_world import ONE_HAND, Caller, People, World, unique_name
from tests.server.people import PASSWORD
from tests.server_process import ServerProcess
from tricktaker.server import create_app
from tricktaker.server.app import LIVE_SOCKET

REFUSERS = ("nobody", "guest", "stranger", "member", "rival", "no_csrf", "bad_csrf")
"""The callers who may be refused, in the order they call."""

SELF = ("nobody", "guest", "no_csrf", "bad_csrf")
"""The callers of a route that signs its caller out (a stranger would sign themself
out, as the owner does)."""

CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
"""The methods that must carry the CSRF token with a session cookie."""


ON_SQLITE = pytest.mark.parametrize("module_server", ["sqlite"], indirect=True, scope="module")
"""The matrix runs on SQLite alone: its 80 routes take about 20 s of CPU on each database
(two busy cores), and the routes' own modules (test_accounts.py, test_clubs.py,
test_players.py, test_duplicate_fair.py...) run each route on PostgreSQL too. Without
this mark it runs on both (it passed on both when it was written)."""


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    """The module's real server process."""
    return module_server


@pytest.fixture(scope="module")
def people(server: ServerProcess) -> Iterator[People]:
    """The module's people (signed up once: a sign-up hashes a password)."""
    everyone = People(server)
    yield everyone
    for client in (everyone.ann, everyone.ben, everyone.cyd, everyone.dee):
        client.close()


Call = Callable[[World, Caller], httpx.Response]
"""A route's request, made by the caller against the test's world."""


@dataclass(frozen=True)
class Rule:
    """Who may call one route: ``call`` makes its request; ``refused`` is the status each
    refused caller gets (``no_csrf`` and ``bad_csrf``: 403 with every changing method);
    ``allowed`` the status of those who may (the owner always, and whoever else
    ``refused`` leaves out); ``club``: the member is a caller too; ``fresh``: the owner
    calls on a ``session`` of their own (the route ends it), or is a newcomer with an
    ``account`` of their own (the route changes or deletes it); ``callers``: who calls
    before the owner; ``owner``: whether the owner calls too; ``shown`` checks
    what each caller who may call it is shown (given the caller's name and the JSON)."""

    call: Call
    allowed: int = 200
    refused: tuple[tuple[str, int], ...] = ()
    club: bool = False
    fresh: str = ""
    callers: tuple[str, ...] = REFUSERS
    owner: bool = True
    shown: Callable[[str, Any], None] | None = None


ANYONE: tuple[tuple[str, int], ...] = ()
"""Nobody refused: a public route."""
SEAT = (("nobody", 401), ("guest", 401), ("stranger", 401))
"""A route for the holder of a seat's token (the guest holds another table's)."""
HOST = (("nobody", 403), ("guest", 403), ("stranger", 403))
"""A route for the holder of a table's host token."""
SET_HOST = (("nobody", 401), ("guest", 403), ("stranger", 401))
"""A route for the holder of a duplicate set's host token."""
SHEET = (("nobody", 401), ("guest", 403), ("stranger", 401))
"""A route for the holder of a sheet's edit token (the guest holds another sheet's)."""
SIGNED_IN = (("nobody", 401), ("guest", 401))
"""A route for anyone signed in."""
MEMBER = (("nobody", 401), ("guest", 401), ("stranger", 403))
"""A route for the club's members."""
ORGANISER = (*MEMBER, ("member", 403))
"""A route for the club's organisers."""
RIVAL = (("rival", 404),)
"""Another club's organiser, naming this club's member, invitation, evening or table
under their own club: 404, as for a name or id the club does not have."""


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _target(c: Caller) -> str:
    """The member whose role a caller would change: the member their own (an organiser
    they would make themself), everyone else Dee."""
    return "Ben" if c.name == "member" else "Dee"


def _club(w: World, c: Caller, method: str, rest: str = "", **kwargs: Any) -> httpx.Response:
    club = w.rival_club if c.name == "rival" else w.club
    return c.call(method, f"/api/clubs/{club}{rest}", **kwargs)


def _sheet(
    w: World, c: Caller, method: str, rest: str = "", wrong: str = "", **kwargs: Any
) -> httpx.Response:
    auth = c.auth(w.sheet["edit_token"], wrong or w.guest_sheet["edit_token"])
    return c.call(method, f"/sheets/{w.sheet['id']}{rest}", headers=auth, **kwargs)


def _host(w: World, c: Caller, table: dict[str, Any]) -> dict[str, str]:
    return c.auth(table["host_token"], w.guest_table["host_token"])


def _own_account(name: str, answer: Any) -> None:
    """``GET /api/me`` shows the caller's own account: the stranger's is Cyd's."""
    assert answer["user"]["name"] == {"stranger": "Cyd", "owner": "Ann"}[name], answer


def _anns_page(name: str, answer: Any) -> None:
    """Ann's page is hers (``own``, her privacy settings and her sheets) to Ann alone."""
    assert answer["own"] is (name == "owner"), (name, answer)
    if name != "owner":
        assert (answer.get("privacy"), answer["sheets"]) == (None, None), (name, answer)


WRONG_CODE = "x" * 43
"""An invitation's code of the right shape that invites to nothing."""

HAND = {"bids": [0, 0, 1, 0], "tricks": [0, 1, 1, 0]}
"""A second hand of Ann's sheet."""

RULES: dict[tuple[str, str], Rule] = {
    # Accounts (docs/protocol.md, Accounts)
    ("POST", "/api/signup"): Rule(
        lambda w, c: c.call(
            "POST", "/api/signup", json={"name": unique_name(), "password": PASSWORD}
        ),
        allowed=201,
        callers=("nobody", "no_csrf", "bad_csrf"),
        fresh="session",
    ),
    ("POST", "/api/login"): Rule(
        lambda w, c: c.call(
            "POST", "/api/login", json={"name": "Ann", "password": c.pick(PASSWORD, "wrong pass")}
        ),
        refused=(("guest", 401),),
        callers=("guest", "no_csrf", "bad_csrf"),
        fresh="session",
    ),
    ("POST", "/api/logout"): Rule(  # the stranger would sign themself out
        lambda w, c: c.call("POST", "/api/logout"),
        allowed=204,
        fresh="session",
        callers=SELF,
    ),
    ("GET", "/api/me"): Rule(
        lambda w, c: c.call("GET", "/api/me"), refused=SIGNED_IN, shown=_own_account
    ),
    ("POST", "/api/me/claim"): Rule(
        lambda w, c: c.call(
            "POST",
            "/api/me/claim",
            json={
                "seats": [
                    {
                        "id": w.table["table"]["id"],
                        "token": c.pick(w.table["seat_token"], w.guest_table["seat_token"]),
                    }
                ],
                "hosts": [
                    {
                        "id": w.table["table"]["id"],
                        "token": c.pick(w.table["host_token"], w.table["seat_token"]),
                    }
                ],
                "sheets": [
                    {
                        "id": w.sheet["id"],
                        "token": c.pick(w.sheet["edit_token"], w.sheet["view_key"]),
                    }
                ],
            },
        ),
        refused=SIGNED_IN,
    ),
    ("POST", "/api/me/password"): Rule(
        lambda w, c: c.call(
            "POST",
            "/api/me/password",
            json={
                "current_password": c.pick(PASSWORD, "wrong pass"),
                "new_password": "a new passphrase",
            },
        ),
        refused=(*SIGNED_IN, ("stranger", 403)),
        fresh="account",
    ),
    ("DELETE", "/api/me"): Rule(
        lambda w, c: c.call("DELETE", "/api/me", json={"password": c.pick(PASSWORD, "wrong pass")}),
        allowed=204,
        refused=(*SIGNED_IN, ("stranger", 403)),
        fresh="account",
    ),
    ("GET", "/api/me/privacy"): Rule(
        lambda w, c: c.call("GET", "/api/me/privacy"), refused=SIGNED_IN
    ),
    ("PUT", "/api/me/privacy"): Rule(
        lambda w, c: c.call("PUT", "/api/me/privacy", json={"sheets": "private"}),
        refused=SIGNED_IN,
    ),
    ("DELETE", "/api/me/sessions/others"): Rule(
        lambda w, c: c.call("DELETE", "/api/me/sessions/others"), refused=SIGNED_IN
    ),
    ("GET", "/api/me/sessions"): Rule(
        lambda w, c: c.call("GET", "/api/me/sessions"), refused=SIGNED_IN
    ),
    ("DELETE", "/api/me/sessions/{session_id}"): Rule(
        lambda w, c: c.call("DELETE", f"/api/me/sessions/{w.other_session}"),
        allowed=204,
        refused=(*SIGNED_IN, ("stranger", 404)),
    ),
    ("DELETE", "/api/me/sessions"): Rule(
        lambda w, c: c.call("DELETE", "/api/me/sessions"),
        allowed=204,
        refused=SIGNED_IN,
        fresh="account",
        callers=SELF,
    ),
    # Tables (docs/protocol.md, HTTP API)
    ("POST", "/tables"): Rule(
        lambda w, c: c.call(
            "POST", "/tables", json={"game": "blackout", "players": 3, "seats": ["easy"] * 3}
        ),
        allowed=201,
    ),
    ("GET", "/tables"): Rule(lambda w, c: c.call("GET", "/tables")),
    ("GET", "/tables/{table_id}"): Rule(
        lambda w, c: c.call("GET", f"/tables/{w.table['table']['id']}")
    ),
    ("POST", "/tables/{table_id}/join"): Rule(
        lambda w, c: c.call(
            "POST",
            f"/tables/{w.open_table['table']['id']}/join",
            json={"invite": c.pick(w.open_table["invite"], w.guest_table["invite"]), "name": "Jo"},
        ),
        refused=(("guest", 403), ("stranger", 403)),
    ),
    ("POST", "/tables/{table_id}/leave"): Rule(
        lambda w, c: c.call(
            "POST",
            f"/tables/{w.table['table']['id']}/leave",
            headers=c.auth(w.table["seat_token"], w.guest_table["seat_token"]),
        ),
        allowed=204,
        refused=SEAT,
    ),
    ("PUT", "/tables/{table_id}/seats/{seat}/bot"): Rule(
        lambda w, c: c.call(
            "PUT",
            f"/tables/{w.open_table['table']['id']}/seats/1/bot",
            headers=_host(w, c, w.open_table),
            json={"bot": "easy"},
        ),
        allowed=204,
        refused=HOST,
    ),
    ("POST", "/tables/{table_id}/start"): Rule(
        lambda w, c: c.call(
            "POST", f"/tables/{w.table['table']['id']}/start", headers=_host(w, c, w.table)
        ),
        allowed=204,
        refused=HOST,
    ),
    ("POST", "/tables/{table_id}/rematch"): Rule(
        lambda w, c: c.call(
            "POST",
            f"/tables/{w.finished['table']['id']}/rematch",
            headers=_host(w, c, w.finished),
        ),
        allowed=204,
        refused=HOST,
    ),
    ("GET", "/tables/{table_id}/record"): Rule(
        lambda w, c: c.call("GET", f"/tables/{w.finished['table']['id']}/record")
    ),
    ("POST", "/tables/{table_id}/review"): Rule(  # no such seat: nothing to review
        lambda w, c: c.call(
            "POST", f"/tables/{w.finished['table']['id']}/review", json={"seat": 7}
        ),
        allowed=404,
    ),
    ("GET", "/tables/{table_id}/review"): Rule(
        lambda w, c: c.call(
            "GET", f"/tables/{w.finished['table']['id']}/review", params={"seat": 0}
        )
    ),
    ("GET", "/api/tables/{table_id}/replay"): Rule(
        lambda w, c: c.call("GET", f"/api/tables/{w.finished['table']['id']}/replay")
    ),
    # Replays and the browser client's routes
    ("POST", "/api/replays"): Rule(
        lambda w, c: c.call(
            "POST",
            "/api/replays",
            json=w.ann.get(f"/tables/{w.finished['table']['id']}/record").json(),
        ),
        allowed=201,
    ),
    ("GET", "/api/replays/{replay_id}"): Rule(
        lambda w, c: c.call("GET", f"/api/replays/{w.replay}")
    ),
    ("GET", "/api/replays/{replay_id}/hands/{number}"): Rule(
        lambda w, c: c.call("GET", f"/api/replays/{w.replay}/hands/1")
    ),
    ("GET", "/api/replays/{replay_id}/scorecard"): Rule(
        lambda w, c: c.call("GET", f"/api/replays/{w.replay}/scorecard")
    ),
    ("POST", "/api/replays/{replay_id}/review"): Rule(  # no such seat
        lambda w, c: c.call("POST", f"/api/replays/{w.replay}/review", json={"seat": 7}),
        allowed=404,
    ),
    ("GET", "/api/replays/{replay_id}/review"): Rule(
        lambda w, c: c.call("GET", f"/api/replays/{w.replay}/review", params={"seat": 0})
    ),
    ("GET", "/api/games"): Rule(lambda w, c: c.call("GET", "/api/games")),
    ("GET", "/api/bots"): Rule(lambda w, c: c.call("GET", "/api/bots")),
    ("GET", "/rules/{game}"): Rule(lambda w, c: c.call("GET", "/rules/blackout")),
    ("POST", "/api/rulesets/check"): Rule(
        lambda w, c: c.call("POST", "/api/rulesets/check", json={"toml": ONE_HAND})
    ),
    ("GET", "/openapi.json"): Rule(lambda w, c: c.call("GET", "/openapi.json")),
    ("GET", "/docs"): Rule(lambda w, c: c.call("GET", "/docs")),
    ("GET", "/docs/oauth2-redirect"): Rule(lambda w, c: c.call("GET", "/docs/oauth2-redirect")),
    ("GET", "/redoc"): Rule(lambda w, c: c.call("GET", "/redoc")),
    ("GET", "/"): Rule(lambda w, c: c.call("GET", "/")),
    # Duplicate sets and the daily challenge (docs/protocol.md, Duplicate sets)
    ("POST", "/duplicate"): Rule(
        lambda w, c: c.call("POST", "/duplicate", json={"game": "blackout", "players": 3}),
        allowed=201,
    ),
    ("GET", "/duplicate/daily"): Rule(lambda w, c: c.call("GET", "/duplicate/daily")),
    ("GET", "/duplicate/{set_id}"): Rule(
        lambda w, c: c.call("GET", f"/duplicate/{w.duplicate['set']['id']}")
    ),
    ("POST", "/duplicate/{set_id}/tables"): Rule(
        lambda w, c: c.call(
            "POST",
            f"/duplicate/{w.duplicate['set']['id']}/tables",
            headers=c.auth(w.duplicate["host_token"], w.guest_duplicate["host_token"]),
            json={"seats": ["easy"] * 3},
        ),
        allowed=201,
        refused=SET_HOST,
    ),
    ("GET", "/duplicate/daily/{game}"): Rule(
        lambda w, c: c.call("GET", "/duplicate/daily/blackout")
    ),
    ("POST", "/duplicate/daily/{game}/play"): Rule(  # once a day: signed up afresh
        lambda w, c: c.call("POST", "/duplicate/daily/blackout/play", json={"name": "Ann"}),
        allowed=201,
        callers=("nobody", "no_csrf", "bad_csrf"),
    ),
    # Players' pages (docs/protocol.md, Players)
    ("GET", "/api/players/{name}"): Rule(
        lambda w, c: c.call("GET", "/api/players/Ann"), shown=_anns_page
    ),
    ("GET", "/api/players/{name}/games"): Rule(
        lambda w, c: c.call("GET", "/api/players/Ann/games")
    ),
    # Clubs (docs/protocol.md, Clubs)
    ("POST", "/api/clubs"): Rule(
        lambda w, c: c.call("POST", "/api/clubs", json={"name": "Friday", "game": "blackout"}),
        allowed=201,
        refused=SIGNED_IN,
    ),
    ("GET", "/api/clubs"): Rule(lambda w, c: c.call("GET", "/api/clubs"), refused=SIGNED_IN),
    ("GET", "/api/clubs/{club_id}"): Rule(
        lambda w, c: _club(w, c, "GET"), refused=MEMBER, club=True
    ),
    ("PATCH", "/api/clubs/{club_id}/members/{name}"): Rule(
        lambda w, c: _club(w, c, "PATCH", f"/members/{_target(c)}", json={"role": "organiser"}),
        refused=(*ORGANISER, *RIVAL),
        club=True,
    ),
    ("DELETE", "/api/clubs/{club_id}/members/{name}"): Rule(
        lambda w, c: _club(w, c, "DELETE", "/members/Dee"),
        allowed=204,
        refused=(*ORGANISER, *RIVAL),
        club=True,
    ),
    ("POST", "/api/clubs/{club_id}/invites"): Rule(
        lambda w, c: _club(w, c, "POST", "/invites", json={"days": 3}),
        allowed=201,
        refused=ORGANISER,
        club=True,
    ),
    ("GET", "/api/clubs/{club_id}/invites"): Rule(
        lambda w, c: _club(w, c, "GET", "/invites"), refused=ORGANISER, club=True
    ),
    ("DELETE", "/api/clubs/{club_id}/invites/{invite_id}"): Rule(
        lambda w, c: _club(w, c, "DELETE", f"/invites/{w.invite['id']}"),
        allowed=204,
        refused=(*ORGANISER, *RIVAL),
        club=True,
    ),
    ("GET", "/api/club-invites/{code}"): Rule(
        lambda w, c: c.call("GET", f"/api/club-invites/{c.pick(w.invite['code'], WRONG_CODE)}"),
        refused=(*SIGNED_IN, ("stranger", 404)),
        callers=("nobody", "guest", "stranger"),
    ),
    ("POST", "/api/club-invites/{code}"): Rule(
        lambda w, c: c.call("POST", f"/api/club-invites/{c.pick(w.invite['code'], WRONG_CODE)}"),
        refused=(*SIGNED_IN, ("stranger", 404)),
        callers=("nobody", "guest", "stranger", "no_csrf", "bad_csrf"),
    ),
    ("POST", "/api/clubs/{club_id}/evenings"): Rule(
        lambda w, c: _club(w, c, "POST", "/evenings", json={"name": "Week 2"}),
        allowed=201,
        refused=ORGANISER,
        club=True,
    ),
    ("GET", "/api/clubs/{club_id}/evenings/{evening_id}"): Rule(
        lambda w, c: _club(w, c, "GET", f"/evenings/{w.evening}"),
        refused=(*MEMBER, *RIVAL),
        club=True,
    ),
    ("POST", "/api/clubs/{club_id}/evenings/{evening_id}/tables"): Rule(
        lambda w, c: _club(w, c, "POST", f"/evenings/{w.evening}/tables", json={}),
        allowed=201,
        refused=(*ORGANISER, *RIVAL),
        club=True,
    ),
    ("POST", "/api/clubs/{club_id}/tables/{table_id}/seat"): Rule(
        lambda w, c: _club(w, c, "POST", f"/tables/{w.club_table}/seat", json={}),
        allowed=201,
        refused=(*MEMBER, *RIVAL),
        club=True,
    ),
    ("POST", "/api/clubs/{club_id}/tables/{table_id}/start"): Rule(
        lambda w, c: _club(w, c, "POST", f"/tables/{w.club_table}/start", json={"bot": "easy"}),
        allowed=204,
        refused=(*ORGANISER, *RIVAL),
        club=True,
    ),
    ("POST", "/api/clubs/{club_id}/evenings/{evening_id}/start"): Rule(
        lambda w, c: (
            w.club_table,
            _club(w, c, "POST", f"/evenings/{w.evening}/start", json={"bot": "easy"}),
        )[1],
        refused=(*ORGANISER, *RIVAL),
        club=True,
    ),
    ("POST", "/api/clubs/{club_id}/evenings/{evening_id}/sheets"): Rule(
        lambda w, c: _club(
            w, c, "POST", f"/evenings/{w.evening}/sheets", json={"players": ["Ann", "Ben", "Zed"]}
        ),
        allowed=201,
        refused=(*MEMBER, *RIVAL),
        club=True,
    ),
    ("GET", "/api/clubs/{club_id}/standings"): Rule(
        lambda w, c: _club(w, c, "GET", "/standings"), refused=MEMBER, club=True
    ),
    ("GET", "/api/clubs/{club_id}/statistics"): Rule(
        lambda w, c: _club(w, c, "GET", "/statistics"), refused=MEMBER, club=True
    ),
    # Score sheets (docs/scorekeeper.md, The HTTP API)
    ("POST", "/sheets"): Rule(
        lambda w, c: c.call(
            "POST", "/sheets", json={"game": "blackout", "players": ["Ann", "Bob", "Cy"]}
        ),
        allowed=201,
    ),
    ("POST", "/sheets/import"): Rule(
        lambda w, c: c.call(
            "POST",
            "/sheets/import",
            json={"sheet": _sheet(w, Caller("owner", w.ann), "GET", "/export.json").json()},
        ),
        allowed=201,
    ),
    ("GET", "/sheets/{sheet_id}"): Rule(lambda w, c: _sheet(w, c, "GET"), refused=SHEET),
    ("POST", "/sheets/{sheet_id}/edit-link"): Rule(
        lambda w, c: _sheet(w, c, "POST", "/edit-link", wrong=w.sheet_link),
        refused=SHEET,
    ),
    ("DELETE", "/sheets/{sheet_id}/edit-link"): Rule(
        lambda w, c: _sheet(w, c, "DELETE", "/edit-link", wrong=w.sheet_link),
        refused=SHEET,
    ),
    ("POST", "/sheets/{sheet_id}/hands"): Rule(
        lambda w, c: _sheet(w, c, "POST", "/hands", json=HAND), refused=SHEET
    ),
    ("PUT", "/sheets/{sheet_id}/hands/{number}"): Rule(
        lambda w, c: _sheet(
            w, c, "PUT", "/hands/1", json={"bids": [1, 0, 1, 0], "tricks": [0, 0, 1, 0]}
        ),
        refused=SHEET,
    ),
    ("POST", "/sheets/{sheet_id}/undo"): Rule(
        lambda w, c: _sheet(w, c, "POST", "/undo", json={"hand": 1}), refused=SHEET
    ),
    ("POST", "/sheets/{sheet_id}/check"): Rule(
        lambda w, c: _sheet(w, c, "POST", "/check", json={"bids": [1, 0, 1, 1]}), refused=SHEET
    ),
    ("GET", "/sheets/{sheet_id}/export.{fmt}"): Rule(
        lambda w, c: _sheet(w, c, "GET", "/export.json"), refused=SHEET
    ),
}
"""Every route's rule, by its method and path as the application names them."""


def _routes(routes: list[Any]) -> Iterator[tuple[str, str]]:
    """Each (method, path) of the application's routes, routers opened up; the static
    files' mount as ``GET /``."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _routes(inner.routes)
        elif isinstance(route, Mount):
            yield ("GET", route.path or "/")
        elif isinstance(route, Route):
            for method in sorted((route.methods or set()) - {"HEAD"}):
                yield (method, route.path)
        else:
            raise AssertionError(f"a route of an unknown kind: {route!r}")


SOCKET = ("WEBSOCKET", LIVE_SOCKET.path)
"""The live-play socket, served ahead of the routes (see
:func:`test_the_live_socket_takes_only_its_own_seats`)."""


def test_every_route_has_an_entry(tmp_path: Path) -> None:
    """The application's routes are exactly those ruled here: a new route fails until
    it says who may call it."""
    app = create_app(f"sqlite:///{tmp_path / 'routes.sqlite3'}", migrate=False)
    routes = set(_routes(app.routes))
    if getattr(app, "live_socket", None) is not None:
        routes.add(SOCKET)
    assert sorted(routes - {*RULES, SOCKET}) == [], "routes with no rule"
    assert sorted({*RULES, SOCKET} - routes) == [], "rules of no route"


@ON_SQLITE
def test_the_live_socket_takes_only_its_own_seats(server: ServerProcess, people: People) -> None:
    """A table's socket: the ``hello`` of another table's seat token, or of a made-up one,
    is answered ``unauthorized`` and the socket closed; the seat's own token is
    welcomed to its seat (docs/protocol.md, Live play)."""
    world = World(people)
    table = world.table["table"]["id"]
    for token in (world.guest_table["seat_token"], "x" * 43):
        with connect(f"{server.ws_url}/tables/{table}/ws") as socket:
            socket.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            answer = json.loads(socket.recv(timeout=20))
            assert (answer["type"], answer.get("code")) == ("error", "unauthorized"), answer
    with connect(f"{server.ws_url}/tables/{table}/ws") as socket:
        socket.send(json.dumps({"type": "hello", "v": 1, "token": world.table["seat_token"]}))
        answer = json.loads(socket.recv(timeout=20))
        assert (answer["type"], answer["seat"]) == ("welcome", 0), answer


def _callers(names: list[str], world: World, people: People, rule: Rule) -> dict[str, Caller]:
    """The test's callers by name, every session made before the world is read."""
    owner = {"session": people.again, "account": lambda: world.newcomer}.get(
        rule.fresh, lambda: world.ann
    )()
    made = {"owner": Caller("owner", owner)}
    for name in names:
        client = {
            "guest": world.guest,
            "stranger": people.cyd,
            "rival": people.cyd,
            "member": people.ben,
        }.get(name)
        if client is None:
            client = people.client()
            if name in ("no_csrf", "bad_csrf"):
                client.cookies.update(owner.cookies)
            if name == "bad_csrf":
                client.headers["X-CSRF-Token"] = "0" * 64
        made[name] = Caller(name, client)
    return made


def _tells_no_secret(world: World, name: str, answer: httpx.Response) -> None:
    """No token or code of the world is in an answer to anyone but its owner."""
    told = [secret for secret in world.secrets() if secret in answer.text]
    assert told == [], (name, answer.text)


@pytest.mark.slow
@ON_SQLITE
@pytest.mark.parametrize("route", sorted(RULES), ids=" ".join)
def test_who_may_call(route: tuple[str, str], people: People) -> None:
    """Everyone who must be refused is refused, as documented, and changes nothing;
    then whoever may call the route does."""
    method, _ = route
    rule = RULES[route]
    world = World(people)
    refused = dict(rule.refused)
    if method in CHANGING:
        refused |= {"no_csrf": 403, "bad_csrf": 403}
    names = [name for name in rule.callers if rule.club or name != "member"]
    names = [name for name in names if name != "rival" or name in refused]
    if method not in CHANGING:
        names = [name for name in names if name not in ("no_csrf", "bad_csrf")]
    callers = _callers(names, world, people, rule)
    refusing = [name for name in names if name in refused]
    if refusing:  # a route that refuses nobody has nothing to read back
        rule.call(world, Caller("owner", None))  # a rehearsal: makes what the route acts on
        before = world.state()
        for name in refusing:
            answer = rule.call(world, callers[name])
            assert answer.status_code == refused[name], (name, answer.status_code, answer.text)
            assert answer.headers["content-type"].startswith("application/problem+json"), name
            _tells_no_secret(world, name, answer)
        assert world.state() == before, "a refused call changed something"
    allowed = [name for name in names if name not in refused]
    for name in [*allowed, *(("owner",) if rule.owner else ())]:
        answer = rule.call(world, callers[name])
        assert answer.status_code == rule.allowed, (name, answer.status_code, answer.text)
        if name != "owner":
            _tells_no_secret(world, name, answer)
        if rule.shown is not None:
            rule.shown(name, answer.json())
