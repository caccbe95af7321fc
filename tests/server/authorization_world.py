"""The world of the authorization matrix (tests/server/test_authorization.py): the
people signed up on the module's server, a caller of a route, and what one test's route
acts on (Ann's tables, sheet, set and club, and a guest's own), made as the route asks
for it and read back whole to check that a refused call changed nothing."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import httpx

from tests.server.people import PASSWORD, TLS, csrf, person
from tests.server_process import ServerProcess

ONE_HAND = 'id = "one_card"\nextends = "blackout"\n[schedule]\nsizes = "1"\n'
"""Blackout of one hand of one card: a table of bots soon finished."""

NAMES = itertools.count(1)
"""Numbers for the names the tests sign up (unique in the module's database)."""


def unique_name() -> str:
    """A user name not signed up yet."""
    return f"Someone{next(NAMES)}"


class People:
    """The module's signed-up people: Ann (who owns things), Ben and Dee (members of
    Ann's clubs), Cyd (a stranger to all of it); and a guest with no account."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.ann = person(server, "Ann")
        self.ben = person(server, "Ben")
        self.cyd = person(server, "Cyd")
        self.dee = person(server, "Dee")

    def client(self) -> httpx.Client:
        """A new client with no cookie."""
        return httpx.Client(base_url=self.server.url, timeout=30, verify=TLS)

    def again(self, name: str = "Ann") -> httpx.Client:
        """A new session of ``name`` (logged in again), its CSRF header set."""
        client = self.client()
        answer = client.post("/api/login", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        client.headers.update(csrf(client))
        return client


@dataclass
class Caller:
    """One caller of a route: ``name`` (see tests/server/test_authorization.py) and the
    client it calls with (cookies and headers)."""

    name: str
    client: httpx.Client | None
    """None: a rehearsal, which sends nothing (see :meth:`call`)."""

    @property
    def right(self) -> bool:
        """Whether the caller holds the right tokens (the owner, with or without CSRF)."""
        return self.name in ("owner", "no_csrf", "bad_csrf")

    def pick(self, right: Any, wrong: Any) -> Any:
        """A value the caller puts in a path or body: the right one for the owner's
        calls and for ``nobody`` (refused for having no session or token, not for a
        wrong value), the wrong one for everyone else."""
        return right if self.right or self.name == "nobody" else wrong

    def auth(self, right: str | None, wrong: str | None = None) -> dict[str, str]:
        """The caller's ``Authorization`` header: the right token for the owner's calls,
        the guest's own (``wrong``) for the guest, none for everyone else."""
        token = right if self.right else wrong if self.name == "guest" else None
        return {"Authorization": f"Bearer {token}"} if token else {}

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The request, answered; in a rehearsal (no client) nothing is sent, and the
        rule's call has only made what the request acts on."""
        if self.client is None:
            return httpx.Response(0)
        return self.client.request(method, path, **kwargs)


class World:
    """What one test's route acts on, each thing made the first time it is asked for:
    Ann's tables, sheet, set and club (Ben and Dee its members), and the guest's own."""

    def __init__(self, people: People) -> None:
        self.people = people
        self.ann = people.ann
        self.guest = people.client()
        self.made: list[str] = []

    def _table(self, client: httpx.Client, **body: Any) -> dict[str, Any]:
        game = {} if "ruleset_toml" in body else {"game": "blackout"}
        made = client.post("/tables", json={**game, "players": 3, **body})
        assert made.status_code == 201, made.text
        self.made.append(made.json()["table"]["id"])
        return dict(made.json())

    @cached_property
    def table(self) -> dict[str, Any]:
        """Ann's table: Ann at seat 0 (its host), two bots; not started."""
        return self._table(self.ann, seats=["human", "easy", "easy"], host_seat=0, name="Ann")

    @cached_property
    def open_table(self) -> dict[str, Any]:
        """Ann's table of four people's seats, Ann at seat 0: three to join."""
        seats = ["human"] * 4
        return self._table(self.ann, players=4, seats=seats, host_seat=0, name="Ann")

    @cached_property
    def finished(self) -> dict[str, Any]:
        """Ann's table of bots, its one-card game played to the end."""
        made = self._table(self.ann, ruleset_toml=ONE_HAND, seats=["easy"] * 3)
        path = f"/tables/{made['table']['id']}"
        host = {"Authorization": f"Bearer {made['host_token']}"}
        assert self.ann.post(f"{path}/start", headers=host).status_code == 204
        for _ in range(600):
            if self.ann.get(path).json()["status"] == "finished":
                return made
            self.ann.get("/tables")  # a moment for the bots
        raise AssertionError("the bots did not finish")

    @cached_property
    def guest_table(self) -> dict[str, Any]:
        """The guest's own table (no account), the guest its host at seat 0."""
        return self._table(self.guest, seats=["human", "easy", "easy"], host_seat=0)

    @cached_property
    def replay(self) -> str:
        """The id of a replay of the finished table's game."""
        answer = self.ann.get(f"/api/tables/{self.finished['table']['id']}/replay")
        assert answer.status_code == 200, answer.text
        return str(answer.json()["id"])

    def _sheet(self, client: httpx.Client) -> dict[str, Any]:
        players = ["Ann", "Bob", "Cy", "Di"]
        made = client.post("/sheets", json={"game": "blackout", "players": players})
        assert made.status_code == 201, made.text
        sheet = dict(made.json())
        hand = {"bids": [1, 0, 1, 0], "tricks": [1, 0, 0, 0]}
        auth = {"Authorization": f"Bearer {sheet['edit_token']}"}
        entered = client.post(f"/sheets/{sheet['id']}/hands", headers=auth, json=hand)
        assert entered.status_code == 200, entered.text
        return sheet

    @cached_property
    def sheet(self) -> dict[str, Any]:
        """Ann's score sheet of four, one hand entered."""
        return self._sheet(self.ann)

    @cached_property
    def guest_sheet(self) -> dict[str, Any]:
        """The guest's own score sheet."""
        return self._sheet(self.guest)

    @cached_property
    def sheet_link(self) -> str:
        """Ann's sheet with an edit link out: its key."""
        auth = {"Authorization": f"Bearer {self.sheet['edit_token']}"}
        made = self.ann.post(f"/sheets/{self.sheet['id']}/edit-link", headers=auth)
        assert made.status_code == 200, made.text
        return str(made.json()["edit_key"])

    def _set(self, client: httpx.Client) -> dict[str, Any]:
        made = client.post("/duplicate", json={"game": "blackout", "players": 3, "seed": 3})
        assert made.status_code == 201, made.text
        return dict(made.json())

    @cached_property
    def duplicate(self) -> dict[str, Any]:
        """Ann's duplicate set (its host token)."""
        return self._set(self.ann)

    @cached_property
    def guest_duplicate(self) -> dict[str, Any]:
        """The guest's own duplicate set."""
        return self._set(self.guest)

    @cached_property
    def club(self) -> str:
        """Ann's club (she its organiser), Ben and Dee its members; its id."""
        made = self.ann.post(
            "/api/clubs", json={"name": "Thursday", "game": "blackout", "players": 3}
        )
        assert made.status_code == 201, made.text
        club = str(made.json()["club"]["id"])
        code = self._invite(club)["code"]
        for member in (self.people.ben, self.people.dee):
            joined = member.post(f"/api/club-invites/{code}")
            assert joined.status_code == 200, joined.text
        return club

    def _invite(self, club: str) -> dict[str, Any]:
        made = self.ann.post(f"/api/clubs/{club}/invites", json={"days": 7})
        assert made.status_code == 201, made.text
        return dict(made.json())

    @cached_property
    def invite(self) -> dict[str, Any]:
        """An open invitation to Ann's club (its id and code)."""
        return self._invite(self.club)

    @cached_property
    def evening(self) -> str:
        """An evening of Ann's club (tables with its house rules); its id."""
        made = self.ann.post(f"/api/clubs/{self.club}/evenings", json={"name": "Week 1"})
        assert made.status_code == 201, made.text
        return str(made.json()["id"])

    @cached_property
    def club_table(self) -> str:
        """A table of the evening, every seat free; its id."""
        path = f"/api/clubs/{self.club}/evenings/{self.evening}/tables"
        made = self.ann.post(path, json={})
        assert made.status_code == 201, made.text
        return str(made.json()["table"])

    @cached_property
    def rival_club(self) -> str:
        """Cyd's own club (she its organiser); its id."""
        body = {"name": "Rivals", "game": "blackout", "players": 3}
        made = self.people.cyd.post("/api/clubs", json=body)
        assert made.status_code == 201, made.text
        return str(made.json()["club"]["id"])

    @cached_property
    def newcomer(self) -> httpx.Client:
        """Someone just signed up, whose account a route may change or delete."""
        return person(self.people.server, unique_name())

    @cached_property
    def other_session(self) -> str:
        """The public id of another session of Ann's."""
        again = self.people.again()
        try:
            return str(again.get("/api/me").json()["session"])
        finally:
            again.close()

    def secrets(self) -> set[str]:
        """Every token and code made so far: seat, host and set tokens, invitations,
        sheets' edit tokens, view keys and edit links' keys, clubs' invitation codes."""
        made = self.__dict__
        found = {
            str(thing[key])
            for name in (
                *("table", "open_table", "finished", "guest_table"),
                *("duplicate", "guest_duplicate"),
            )
            if name in made
            for thing in [made[name]]
            for key in ("host_token", "seat_token", "invite")
            if thing.get(key)
        }
        for name in ("sheet", "guest_sheet"):
            if name in made:
                found |= {made[name]["edit_token"], made[name]["view_key"]}
        if "sheet_link" in made:
            found.add(made["sheet_link"])
        if "invite" in made:
            found.add(made["invite"]["code"])
        return found

    def state(self) -> dict[str, Any]:
        """Everything made so far as its people read it, Ann's account and page, and
        what the stranger's account holds."""
        ann, seen = self.ann, {}
        for table in self.made:
            seen[f"table {table}"] = ann.get(f"/tables/{table}").json()
        for name in ("sheet", "guest_sheet"):
            if name in self.__dict__:
                sheet = self.__dict__[name]
                auth = {"Authorization": f"Bearer {sheet['edit_token']}"}
                seen[name] = ann.get(f"/sheets/{sheet['id']}", headers=auth).json()
        for name in ("duplicate", "guest_duplicate"):
            if name in self.__dict__:
                seen[name] = ann.get(f"/duplicate/{self.__dict__[name]['set']['id']}").json()
        if "club" in self.__dict__:
            club = f"/api/clubs/{self.club}"
            seen["club"] = ann.get(club).json()
            seen["invites"] = ann.get(f"{club}/invites").json()
            if "evening" in self.__dict__:
                seen["evening"] = ann.get(f"{club}/evenings/{self.evening}").json()
        seen["page"] = ann.get("/api/players/Ann").json()
        seen["me"] = ann.get("/api/me").json()
        sessions = ann.get("/api/me/sessions").json()
        for session in sessions["sessions"]:
            del session["last_seen_at"], session["expires_at"]
        seen["sessions"] = sessions
        seen["stranger"] = self.people.cyd.get("/api/me").json()  # what Cyd holds
        return seen
