"""The messages of the live-play protocol, version 1, as pydantic models.

Clients send :data:`ClientMessage` (``hello``, ``action``, ``undo``, ``hint``, ``chat``,
``ping``); the
server sends the ``Server*`` models. ``docs/protocol.md`` prints the JSON Schema of each
(kept in sync by ``python -m tricktaker.server.protocol_doc``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1
"""The protocol version this server speaks (``v`` in ``hello`` and ``welcome``)."""

PROTOCOL_MINOR = 4
"""The additions to version 1 this server knows (docs/protocol.md, Versions): 1.1, the
views sent as changes to a client that asks (``deltas`` in ``hello``); 1.2, an action
answered by its event, carrying its id, to a client that asks (``event_acks``); 1.3,
``undo`` at a practice table (and the table's ``practice``); 1.4, the coach's ``hint``
(and the table's ``hints``)."""

MAX_MESSAGE_BYTES = 16 * 1024
"""The largest message a client may send: a longer one is refused (``too_large``) and
the socket stays open."""

MAX_SOCKET_MESSAGE_BYTES = 64 * 1024
"""A message longer than this is refused (``too_large``) and its socket then closed
with code 1009 (message too big)."""

MAX_SOCKET_FRAME_BYTES = 1024 * 1024
"""The longest message the server reads at all (uvicorn's ``ws_max_size``, which
``tricktaker serve`` sets): a longer one is not read, and its socket is closed with
code 1009 at once, with no ``error`` before (the server never has it to answer)."""

MAX_CHAT_CHARS = 500
"""The longest chat message, in characters."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Message):
    """The first message on a socket: a seat ``token`` (or none, to watch as a
    spectator) and the last sequence number the client saw (None: it saw nothing)."""

    type: Literal["hello"]
    v: int = PROTOCOL_VERSION
    token: str | None = Field(default=None, max_length=200)
    last_seq: int | None = Field(default=None, ge=0)
    resume: bool = Field(
        default=False,
        description="true: on a reconnect, send what was missed since last_seq (a resumed"
        " message, then the missed events) instead of a welcome, when it is in the current"
        " game and not too far behind; otherwise a welcome comes as usual.",
    )
    deltas: bool = Field(
        default=False,
        description="true (protocol 1.1): each event's view after the first is sent as its"
        " changes from the last view sent on this socket (delta and removed) instead of"
        " whole; a welcome, and the first event after a resumed, still carry whole views.",
    )
    event_acks: bool = Field(
        default=False,
        description="true (protocol 1.2): an action this socket sends that is accepted is"
        " answered by its event alone, which then carries the action's id; no ack follows."
        " A repeated id is answered by ack, and a refused action by error, as before.",
    )


class ActionMessage(_Message):
    """An action for the client's own seat, written as in records (``bid 3``,
    ``play 10H``). ``id`` is the client's choice: a repeated id is applied once and
    answered the same."""

    type: Literal["action"]
    id: str = Field(min_length=1, max_length=64)
    action: str = Field(min_length=1, max_length=100)


class UndoMessage(_Message):
    """Protocol 1.3: take back the client's own seat's last action (a bid, a card...)
    and every event after it, at a practice table (the table's ``practice``: every
    other seat a bot). Answered by ``ack`` (its ``seq`` the undo's) after every socket
    of the table got a fresh ``welcome``, or by ``error`` with code ``not_allowed``,
    which changes nothing. ``id`` as an action's: a repeated id is undone once."""

    type: Literal["undo"]
    id: str = Field(min_length=1, max_length=64)


class HintMessage(_Message):
    """Protocol 1.4: ask the coach for the values of the client's own seat's legal
    choices, on its turn, where the table's ``hints`` are on. Answered by ``hint`` (to
    this socket alone) or by ``error`` (``hints_off``, ``not_your_turn``,
    ``not_your_seat``, ``rate_limited``, ``not_playing``). ``id``: the client's, which
    the answer carries."""

    type: Literal["hint"]
    id: str = Field(min_length=1, max_length=64)


class ChatMessage(_Message):
    """A chat message (plain text; never interpreted as markup)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=MAX_CHAT_CHARS)


class Ping(_Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | ActionMessage | UndoMessage | HintMessage | ChatMessage | Ping,
    Field(discriminator="type"),
]
"""Any message a client may send."""

CLIENT_MESSAGE: TypeAdapter[
    Hello | ActionMessage | UndoMessage | HintMessage | ChatMessage | Ping
] = TypeAdapter(ClientMessage)


class SeatInfo(BaseModel):
    """A seat as everyone sees it. ``state``: ``free`` (nobody sits), ``bot``,
    ``connected``, ``away`` (a person whose connection dropped) or ``replaced`` (a bot
    plays for an away person until they come back, or for a seat given up in a game
    until someone takes it). ``bot``: a bot seat's bot, or the bot that plays a
    ``replaced`` seat (the table's ``away_bot``); None otherwise."""

    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    state: Literal["free", "bot", "connected", "away", "replaced"]
    open: bool = Field(
        default=False,
        description="Protocol 1.3: a person's seat that anyone may take from the list of"
        " open tables; false: kept for whoever the host gives the invite code.",
    )


class ClubEvening(BaseModel):
    """An evening of a club, as its tables and its duplicate set name it."""

    id: str
    day: str = Field(description="The evening's day, YYYY-MM-DD.")
    name: str | None = Field(description="The evening's name, if the organiser gave one.")


class ClubPlace(BaseModel):
    """The club and the evening a table (or a duplicate set) was made for: the club's
    page, ``#/club/{id}?evening={evening.id}``, is its members' (docs/clubs.md, What
    a club's tables show)."""

    id: str
    name: str
    evening: ClubEvening
    number: int | None = Field(
        default=None,
        description="The table's number in the evening (null for a duplicate set).",
    )


class TableInfo(BaseModel):
    """A table as everyone sees it (no tokens, no invite code)."""

    id: str
    game: str
    options: dict[str, Any]
    ruleset: dict[str, Any] = Field(
        default_factory=dict,
        description="The table's rules as data, as a game record keeps them (house rules"
        " included): a client loads them with tricktaker.rules.ruleset_from_data.",
    )
    players: int
    status: Literal["waiting", "playing", "finished"]
    game_number: int
    seq: int
    grace_seconds: float
    move_timer: float | None
    seats: list[SeatInfo]
    practice: bool = Field(
        default=False,
        description="Protocol 1.3: whether this is a practice table, where the one person"
        " seated (every other seat a bot) may take back their last action (undo).",
    )
    hints: bool = Field(
        default=False,
        description="Protocol 1.4: whether the coach's hints are on at this table, for"
        " everyone seated: always at a practice table, elsewhere when the host allowed"
        " them in creating it.",
    )
    club: ClubPlace | None = Field(
        default=None,
        description="The club whose evening this table was made for: the club's id and"
        " name, the evening and the table's number in it; null for any other table."
        " Whoever may see the table reads them (docs/clubs.md).",
    )


class ChatLine(BaseModel):
    """A stored chat message."""

    seat: int | None
    name: str
    text: str
    at: str


class Welcome(_Message):
    """The answer to ``hello``: who the client is (``seat``; None for a spectator), the
    table, the current ``seq``, the client's whole view (None before the first game
    starts) and the recent chat. A welcome replaces everything the client held."""

    type: Literal["welcome"] = "welcome"
    v: int = PROTOCOL_VERSION
    seat: int | None
    seq: int
    table: TableInfo
    view: dict[str, Any] | None
    chat: list[ChatLine]


class Resumed(_Message):
    """The answer to a ``hello`` with ``resume`` when the server replays what the client
    missed: the events numbered ``last_seq + 1`` to ``seq`` follow at once, each as the
    ``event`` the client would have received (its own view only). The client keeps what
    it held and applies them; ``table`` is the table now."""

    type: Literal["resumed"] = "resumed"
    v: int = PROTOCOL_VERSION
    seat: int | None
    last_seq: int
    seq: int
    table: TableInfo


class _EventHead(_Message):
    """What every form of an event carries (see :class:`Event`)."""

    type: Literal["event"] = "event"
    seq: int
    game_number: int
    actor: int | None
    chance: str | None
    action: str | None


def _ack_id() -> Any:
    """The ``id`` field of an event (protocol 1.2): last, and left out when None."""
    return Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="Protocol 1.2: the id of the action this event is, on the socket that"
        " sent it, when its hello asked for event_acks (the event is then its ack);"
        " otherwise absent.",
    )


class Event(_EventHead):
    """One event of the game record, numbered ``seq``. ``actor`` is the seat that acted
    (None for a chance step, whose kind is ``chance``: ``deal``...). ``action`` is the
    action's text, given only to the seat that took it (others see its effects in their
    view). ``view`` is the receiver's view after the event, without ``history``;
    ``hand_result`` is the hand just finished, as the receiver may see it."""

    view: dict[str, Any]
    hand_result: dict[str, Any] | None = None
    id: str | None = _ack_id()


class EventDelta(_EventHead):
    """Protocol 1.1, to a socket whose ``hello`` asked for ``deltas``: an ``event`` whose
    view is sent as its changes from the last view sent on this socket. ``delta`` holds
    each top-level key of the view whose value changed (or is new), with its new value,
    except ``present``, which holds only the keys of the ``present`` block that changed
    (each replacing that key of the block held), its ``seats`` either whole or as the
    changed fields of each changed row by seat number (``{"3": {"to_act": true}}``);
    ``removed`` lists the top-level keys the view no longer has. The view held, so
    changed, is exactly the ``view`` a plain event would carry."""

    delta: dict[str, Any]
    removed: list[str]
    hand_result: dict[str, Any] | None = None
    id: str | None = _ack_id()


class Ack(_Message):
    """An action was accepted and stored as event ``seq`` (answered again, the same,
    for a repeated ``id``)."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int


class Error(_Message):
    """A message was refused and changed nothing. ``code``: ``bad_message``,
    ``too_large``, ``rate_limited``, ``unauthorized``, ``not_your_seat``, ``not_playing``
    (no game is being played at the table: not started, or over), ``illegal`` (then
    ``rule`` names the rule, as ``tricktaker play`` does), ``not_allowed`` (protocol
    1.3: an ``undo`` refused; ``message`` says why), ``hints_off`` and ``not_your_turn``
    (protocol 1.4: a ``hint`` refused), ``unavailable`` (the database cannot store
    anything just now: send the same message again in a few seconds)."""

    type: Literal["error"] = "error"
    id: str | None = None
    code: str
    message: str
    rule: str | None = None
    field: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="For bad_message: the field of the message at fault (type, id,"
        " action...); absent when the message as a whole is (a binary frame, not JSON,"
        " not a JSON object) and for the other codes.",
    )


class HintChoice(BaseModel):
    """One legal choice in a ``hint``: ``action`` is the text to send in an ``action``
    message, ``label`` the choice in words; ``mean`` the points the seat can expect
    from the hand after it (the game's points: chips, a team's points), ``stderr`` that
    estimate's standard error, ``make_chance`` the chance of making the seat's bid (None
    where there is none), ``deals`` the deals it was estimated over, ``best`` whether it
    is the coach's choice."""

    action: str
    label: str
    mean: float
    stderr: float
    make_chance: float | None
    deals: int
    best: bool


class HintAnswer(_Message):
    """Protocol 1.4: the coach's values of every legal choice of the seat, best first,
    computed from that seat's observation alone, sent to the socket that asked
    (``id``). ``seq``: the table's when it was asked (the hint is for that position);
    ``best``: the coach's choice; ``model``: what the values assume, in a sentence;
    ``exact``: every consistent deal enumerated (else sampled); ``deals``: the fewest
    deals any choice was estimated over; ``seconds``: how long it took; ``unit``: what
    the values count (``points``, ``chips``, or ``chance the table is exact`` in a
    cooperative ruleset); ``chance``: the values are chances from 0 to 1, to be shown
    as percentages."""

    type: Literal["hint"] = "hint"
    id: str
    seq: int
    seat: int
    choices: list[HintChoice]
    best: str
    model: str
    exact: bool
    deals: int
    seconds: float
    unit: str = "points"
    chance: bool = False


class Chat(_Message):
    """A chat message, sent to everyone at the table (text only)."""

    type: Literal["chat"] = "chat"
    seq: int
    line: ChatLine


class Presence(_Message):
    """A seat's ``state`` changed (see :class:`SeatInfo`)."""

    type: Literal["presence"] = "presence"
    seq: int
    seat: int
    state: Literal["free", "bot", "connected", "away", "replaced"]


class TableChanged(_Message):
    """The table changed: someone joined or left, a seat got a bot, a game started or
    finished, a rematch began. A client whose ``view`` is stale after it (a new game)
    receives a fresh ``welcome``."""

    type: Literal["table"] = "table"
    seq: int
    table: TableInfo


class Pong(_Message):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"
    seq: int


SERVER_MESSAGES: tuple[type[BaseModel], ...] = (
    Welcome,
    Resumed,
    Event,
    EventDelta,
    Ack,
    Error,
    HintAnswer,
    Chat,
    Presence,
    TableChanged,
    Pong,
)
"""Every message the server sends."""

CLIENT_MESSAGES: tuple[type[BaseModel], ...] = (
    Hello,
    ActionMessage,
    UndoMessage,
    HintMessage,
    ChatMessage,
    Ping,
)
"""Every message a client sends."""


# The messages sent once per action, built as plain dicts: validating and dumping a
# pydantic model walks the whole view, which took a fifth of the server's time under
# load (bench/server_load.py). tests/server/test_live_play.py checks that each equals
# its model's dump.


def event_message(
    seq: int,
    game_number: int,
    actor: int | None,
    chance: str | None,
    action: str | None,
    view: dict[str, Any],
    hand_result: dict[str, Any] | None,
) -> dict[str, Any]:
    """An :class:`Event`, as its ``model_dump()`` would give it."""
    return {
        "type": "event",
        "seq": seq,
        "game_number": game_number,
        "actor": actor,
        "chance": chance,
        "action": action,
        "view": view,
        "hand_result": hand_result,
    }


def ack_message(client_id: str, seq: int) -> dict[str, Any]:
    """An :class:`Ack`, as its ``model_dump()`` would give it."""
    return {"type": "ack", "id": client_id, "seq": seq}
