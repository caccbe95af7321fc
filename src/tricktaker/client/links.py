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


def _read(path: Path) -> dict[str, dict[str, object]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def saved_seat(link: TableLink, path: Path | None = None) -> tuple[int, str] | None:
    """The seat and token kept for the table, if any."""
    entry = _read(path or tokens_file()).get(link.key)
    if isinstance(entry, dict):
        seat, token = entry.get("seat"), entry.get("token")
        if isinstance(seat, int) and isinstance(token, str):
            return seat, token
    return None


def save_seat(link: TableLink, seat: int, token: str, path: Path | None = None) -> Path:
    """Keep the seat's token for the table (readable by this user only); the file."""
    file = path or tokens_file()
    data = _read(file)
    data[link.key] = {"seat": seat, "token": token}
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_name(file.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1)
    temporary.replace(file)
    return file


def forget_seat(link: TableLink, path: Path | None = None) -> None:
    """Drop the table's token (the seat was given up or refused it)."""
    file = path or tokens_file()
    data = _read(file)
    if data.pop(link.key, None) is not None:
        save_all = file.with_name(file.name + ".tmp")
        save_all.write_text(json.dumps(data, indent=1), encoding="utf-8")
        save_all.replace(file)
