"""Invite links and the seat tokens kept on this computer.

An invite link names the server, the table and its invite code:
``http://HOST:PORT/tables/ID?invite=CODE``. Joining gives a seat token; it is kept in
the user's data folder, keyed by server and table, so the same command run again
takes the same seat back.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit


class LinkError(ValueError):
    """A link that does not name a table of a server."""


@dataclass(frozen=True, slots=True)
class TableLink:
    """A table of a server: ``base`` (``http://HOST:PORT``), ``table`` id, the
    ``invite`` code if the link has one."""

    base: str
    table: str
    invite: str | None = None

    @property
    def ws_url(self) -> str:
        """The table's WebSocket address."""
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}:{self.base.split(':', 1)[1]}/tables/{self.table}/ws"

    @property
    def key(self) -> str:
        """The key of the table's seat token on this computer."""
        return f"{self.base}/tables/{self.table}"


def parse_link(text: str) -> TableLink:
    """The table a link names.

    >>> parse_link("http://127.0.0.1:8000/tables/Ab3?invite=XY")
    TableLink(base='http://127.0.0.1:8000', table='Ab3', invite='XY')
    >>> parse_link("example.org/tables/T1").base
    'http://example.org'
    """
    raw = text.strip()
    if "://" not in raw:
        raw = "http://" + raw
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{text!r} is not a table link (http://HOST:PORT/tables/ID?invite=CODE)")
    path = [p for p in parts.path.split("/") if p]
    if len(path) < 2 or path[-2] != "tables":
        raise LinkError(
            f"{text!r} names no table: a table link looks like"
            " http://HOST:PORT/tables/ID?invite=CODE"
        )
    prefix = "/".join(path[:-2])
    base = f"{parts.scheme}://{parts.netloc}" + (f"/{prefix}" if prefix else "")
    invite = parse_qs(parts.query).get("invite", [None])[0]
    return TableLink(base=base, table=path[-1], invite=invite)


def tokens_file() -> Path:
    """Where seat tokens are kept (``TRICKTAKER_SEATS`` overrides the data folder)."""
    given = os.environ.get("TRICKTAKER_SEATS")
    if given:
        return Path(given)
    from platformdirs import user_data_dir

    return Path(user_data_dir("tricktaker")) / "seats.json"


def _read(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A seat taken from this computer: its index (0-based, as the protocol numbers
    seats), its token and the name it was taken under."""

    seat: int
    token: str
    name: str | None = None


def saved_seats(link: TableLink, path: Path | None = None) -> list[KeptSeat]:
    """The seats kept for the table on this computer, in the order they were taken.

    A table may have several: two people at one computer, or one person in two
    terminals. A file written by an older version (one seat a table) still reads."""
    entry = _read(path or tokens_file()).get(link.key)
    if not isinstance(entry, dict):
        return []
    if "seat" in entry:  # the older form: {"seat": 0, "token": "..."}
        entry = {"seats": [entry]}
    kept = []
    for item in entry.get("seats") or ():
        if not isinstance(item, dict):
            continue
        seat, token, name = item.get("seat"), item.get("token"), item.get("name")
        if isinstance(seat, int) and not isinstance(seat, bool) and isinstance(token, str):
            kept.append(KeptSeat(seat, token, name if isinstance(name, str) else None))
    return kept


def saved_seat(link: TableLink, path: Path | None = None) -> tuple[int, str] | None:
    """The seat and token kept last for the table, if any."""
    kept = saved_seats(link, path)
    return (kept[-1].seat, kept[-1].token) if kept else None


def _write(file: Path, data: dict[str, object]) -> None:
    """Write the tokens file whole, readable by this user only (mode 0600)."""
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_name(file.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1)
    os.chmod(temporary, 0o600)  # an older file of another mode is replaced by this one
    temporary.replace(file)


def _store(file: Path, link: TableLink, seats: list[KeptSeat]) -> None:
    data = _read(file)
    if seats:
        data[link.key] = {
            "seats": [
                {"seat": k.seat, "token": k.token, **({"name": k.name} if k.name else {})}
                for k in seats
            ]
        }
    elif data.pop(link.key, None) is None:
        return
    _write(file, data)


def save_seat(
    link: TableLink, seat: int, token: str, path: Path | None = None, *, name: str | None = None
) -> Path:
    """Keep the seat's token for the table (beside the table's other seats kept here,
    replacing the seat's older token); the file, readable by this user only."""
    file = path or tokens_file()
    kept = [k for k in saved_seats(link, file) if k.seat != seat and k.token != token]
    _store(file, link, [*kept, KeptSeat(seat, token, name)])
    return file


def forget_seat(link: TableLink, path: Path | None = None, *, token: str | None = None) -> None:
    """Drop a token kept for the table (``token``; all of the table's without it): the
    seat was given up, or the server refused it."""
    file = path or tokens_file()
    kept = saved_seats(link, file)
    left = [k for k in kept if token is not None and k.token != token]
    if len(left) != len(kept):
        _store(file, link, left)
