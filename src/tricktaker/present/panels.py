"""What the table shows a seat besides its cards: the hand's heading and trump, the
notes of the hand (special hands, the hook, blind or simultaneous bidding), one row per
seat (bid, tricks, score, dealer, whose turn), and each game's own panel: the hook's
forbidden bid, Caller Clag's call, Pluck's quotas and plucks, Euchre's auction,
contract and kitty, Buckup's ante, pot, chips and statuses.

Everything comes from one observation, so a seat is told only what it may know. Each
labelled line also carries a ``public`` form (or None) for spectators.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricktaker.cards import SUIT_NAMES
from tricktaker.engine import Observation

from .text import (
    CardText,
    ante_text,
    bid_text,
    card_text,
    cards_text,
    conjugate,
    contract_text,
    describe_call,
    describe_special,
    display_order,
    hand_heading,
    object_name,
    payments_by_seat,
    plain,
    plain_json,
    pluck_line,
    seat_name,
    team_of,
    team_text,
    teams_line,
)

Json = Any
"""Plain JSON data."""


@dataclass(frozen=True, slots=True)
class Line:
    """A labelled line of a game's panel (``Quotas: Ann 7, Bob 4``), with its ``public``
    form for spectators (None when it is about cards only this seat knows)."""

    label: str
    text: str
    public: str | None

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {"label": self.label, "text": self.text, "public": self.public}


PLUCK_KEYS = frozenset({"quotas", "plucks", "plucks_pending", "pluck_in_progress"})
EUCHRE_KEYS = frozenset(
    {
        "auction",
        "high_bid",
        "passed",
        "contract",
        "kitty",
        "discards",
        "team_scores",
        "team_tricks",
        "target",
    }
)
BUCKUP_KEYS = frozenset({"pot", "ante", "scare_cards", "stock", "payments", "discarded", "drew"})
GRID_KEYS = frozenset({"stacks", "status"})
"""Shown per seat in the seat rows rather than as lines."""
PUBLIC_KEYS = frozenset({"drawn", "scare_discarded"})
"""Keys of the fallback lines that every seat sees alike."""


# ----------------------------------------------------------------- Pluck


def pluck_lines(extra: Mapping[str, Any], names: Sequence[str], cards: CardText) -> list[Line]:
    """docs/games/pluck.md: the quotas, the plucks done (with the cards the seat saw), the
    pluck under way and the plucks to come."""
    lines: list[Line] = []
    pending = list(extra.get("plucks_pending") or [])
    quotas = extra.get("quotas")
    if isinstance(quotas, list) and quotas:
        text = ",  ".join(f"{names[s]} {q}" for s, q in enumerate(quotas))
        lines.append(Line("Quotas", text, text))
    plucks = extra.get("plucks") or []
    if plucks:
        text = ";  ".join(pluck_line(p, names, cards) for p in plucks)
        hidden = [{**p, "given": None, "returned": None} for p in plucks]
        lines.append(Line("Plucks", text, ";  ".join(pluck_line(p, names, cards) for p in hidden)))
    current = extra.get("pluck_in_progress")
    if isinstance(current, Mapping):
        plucker = seat_name(current.get("plucker"), names)
        pluckee = object_name(current.get("pluckee"), names)
        given = current.get("given")
        gave = card_text(given, cards) if given is not None else "a card face down"
        start = f"{conjugate(plucker, 'pluck')} {pluckee}, giving "
        rest = " the highest card of its suit goes back"
        lines.append(Line("Now", f"{start}{gave};{rest}", f"{start}a card face down;{rest}"))
        pending = pending[1:]
    if pending:
        counts: dict[tuple[int, int], int] = {}
        for plucker_seat, pluckee_seat in pending:
            pair = (plucker_seat, pluckee_seat)
            counts[pair] = counts.get(pair, 0) + 1
        shown = [
            f"{conjugate(seat_name(a, names), 'pluck')} {object_name(b, names)}"
            + (f" x{n}" if n > 1 else "")
            for (a, b), n in counts.items()
        ]
        text = ";  ".join(shown)
        lines.append(Line("To come", text, text))
    return lines


def pluck_panel(obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
    """Pluck's data: quotas, plucks done (cards where the seat saw them), the pluck under
    way, the plucks to come, and who names trump."""
    extra = obs.extra
    plucks = [
        {
            "plucker": p.get("plucker"),
            "pluckee": p.get("pluckee"),
            "given": p.get("given"),
            "returned": p.get("returned"),
            "text": pluck_line(p, names, cards),
        }
        for p in extra.get("plucks") or []
        if isinstance(p, Mapping)
    ]
    current = extra.get("pluck_in_progress")
    return {
        "quotas": list(extra.get("quotas") or []),
        "plucks": plucks,
        "pending": [list(p) for p in extra.get("plucks_pending") or []],
        "in_progress": dict(current) if isinstance(current, Mapping) else None,
        "trump_caller": obs.to_act[0] if obs.phase == "call_trump" and obs.to_act else None,
    }


# ---------------------------------------------------------------- Euchre


def euchre_lines(obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
    """docs/games/euchre.md: the auction, the high bid, who passed, the contract, the
    kitty and discards (the declarer's alone), the teams' points."""
    extra = obs.extra
    lines: list[Line] = []

    def both(label: str, text: str) -> None:
        lines.append(Line(label, text, text))

    auction = extra.get("auction")
    if isinstance(auction, list):
        shown = ",  ".join(f"{seat_name(s, names)} {bid_text(b, cards)}" for s, b in auction)
        both("Auction", shown or "no bid yet")
    high = extra.get("high_bid")
    if isinstance(high, Mapping):
        both("High bid", f"{seat_name(high.get('seat'), names)} {bid_text(high.get('bid'), cards)}")
    passed = extra.get("passed")
    if passed:
        both("Passed", ", ".join(seat_name(s, names) for s in passed))
    contract = extra.get("contract")
    if isinstance(contract, Mapping):
        both("Contract", contract_text(contract, names, cards))
    if extra.get("kitty") is not None:
        lines.append(Line("Kitty", cards_text(extra["kitty"], cards), None))
    if extra.get("discards") is not None:
        lines.append(Line("Discards", cards_text(extra["discards"], cards), None))
    scores, tricks = extra.get("team_scores"), extra.get("team_tricks")
    if obs.partnerships and isinstance(scores, list):
        parts = []
        for number, team in enumerate(obs.partnerships):
            part = f"{team_text(team, names)} {scores[number]}"
            if isinstance(tricks, list):
                part += f" ({tricks[number]} trick{'s' if tricks[number] != 1 else ''})"
            parts.append(part)
        target = extra.get("target")
        both("Points", ",  ".join(parts) + (f";  game to {target}" if target else ""))
    return lines


def euchre_panel(obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
    """Euchre's data: the auction, high bid, passes, contract, kitty and discards (None
    unless this seat is the declarer), the teams' points and tricks, the target."""
    extra = obs.extra
    high = extra.get("high_bid")
    contract = extra.get("contract")
    return {
        "auction": [
            {"seat": s, "bid": b, "text": bid_text(b, cards)} for s, b in extra.get("auction") or []
        ],
        "high_bid": (
            {"seat": high.get("seat"), "bid": high.get("bid"), "text": bid_text(high["bid"], cards)}
            if isinstance(high, Mapping)
            else None
        ),
        "passed": list(extra.get("passed") or []),
        "contract": (
            {**dict(contract), "text": contract_text(contract, names, cards)}
            if isinstance(contract, Mapping)
            else None
        ),
        "kitty": list(extra["kitty"]) if extra.get("kitty") is not None else None,
        "discards": list(extra["discards"]) if extra.get("discards") is not None else None,
        "team_scores": list(extra.get("team_scores") or []),
        "team_tricks": list(extra.get("team_tricks") or []),
        "target": extra.get("target"),
    }


# ---------------------------------------------------------------- Buckup


def buckup_lines(extra: Mapping[str, Any], names: Sequence[str], cards: CardText) -> list[Line]:
    """docs/games/buckup.md: the pot, the ante, the face-up scare cards, the stock and
    each seat's payments this hand."""
    lines: list[Line] = []

    def both(label: str, text: str) -> None:
        lines.append(Line(label, text, text))

    if "pot" in extra:
        both("Pot", str(extra["pot"]))
    if "ante" in extra:
        both("Ante", ante_text(extra["ante"]) if extra["ante"] else "not set yet")
    scare = extra.get("scare_cards")
    if isinstance(scare, list) and any(c is not None for c in scare):
        both(
            "Face up",
            ",  ".join(
                f"{names[s]} {card_text(c, cards)}" for s, c in enumerate(scare) if c is not None
            ),
        )
    if "stock" in extra:
        both("Stock", f"{extra['stock']} cards")
    payments = extra.get("payments")
    if isinstance(payments, list):
        both("Payments", payments_by_seat(payments, names))
    for key, label in (("discarded", "Discarded"), ("drew", "Drew")):
        own = extra.get(key)
        if isinstance(own, list) and own:  # the seat's own cards: no public form
            lines.append(Line(label, cards_text(own, cards), None))
    return lines


def buckup_panel(obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
    """Buckup's data: pot, ante, each seat's chips and status, the stock, this hand's
    payments, face-up cards, and the seat's own discards and draws."""
    extra = obs.extra
    ante = extra.get("ante")
    payments = [dict(p) for p in extra.get("payments") or [] if isinstance(p, Mapping)]
    return {
        "pot": extra.get("pot"),
        "ante": dict(ante) if isinstance(ante, Mapping) else None,
        "ante_text": ante_text(ante) if ante else "not set yet",
        "stacks": list(extra.get("stacks") or []),
        "status": list(extra.get("status") or []),
        "stock": extra.get("stock"),
        "payments": payments,
        "payments_text": payments_by_seat(payments, names),
        "scare_cards": list(extra["scare_cards"]) if "scare_cards" in extra else None,
        "scare_discarded": (list(extra["scare_discarded"]) if "scare_discarded" in extra else None),
        "drawn": list(extra["drawn"]) if "drawn" in extra else None,
        "discarded": list(extra.get("discarded") or []),
        "drew": list(extra.get("drew") or []),
    }


# ---------------------------------------------------------------- all games


def game_lines(obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
    """The game's own information for the seat, as labelled lines (teams first); keys
    a game adds later are shown as ``Key: value``."""
    lines: list[Line] = []
    if obs.partnerships:
        text = teams_line(obs.partnerships, names, obs.seat)
        public = " vs ".join(team_text(team, names) for team in obs.partnerships)
        lines.append(Line("Teams", text, public))
    extra = obs.extra
    known: set[str] = set(GRID_KEYS)
    if PLUCK_KEYS & extra.keys():
        lines += pluck_lines(extra, names, cards)
        known |= PLUCK_KEYS
    if EUCHRE_KEYS & extra.keys():
        lines += euchre_lines(obs, names, cards)
        known |= EUCHRE_KEYS
    if BUCKUP_KEYS & extra.keys():
        lines += buckup_lines(extra, names, cards)
        known |= BUCKUP_KEYS
    for key, value in extra.items():
        if key not in known:
            text = plain(value)
            lines.append(
                Line(key.replace("_", " ").capitalize(), text, text if key in PUBLIC_KEYS else None)
            )
    return lines


def hook_info(obs: Observation) -> dict[str, Json] | None:
    """docs/games/blackout.md, The hook: while the hook rule is on and the bids are being
    made, the seat that bids last and the bid it may not make (once the others have bid),
    with the reason; None when the rule is not on now."""
    if not obs.hook or obs.phase != "bidding":
        return None
    size = obs.hand_size
    made = sum(b for b in obs.bids if b is not None)
    known = sum(1 for b in obs.bids if b is not None)
    last = None
    forbidden = None
    if known == obs.players - 1 and obs.rules.spec.bidding.style != "simultaneous":
        last = next(s for s, b in enumerate(obs.bids) if b is None)
        if 0 <= size - made <= size:
            forbidden = size - made
    return {
        "seat": last,
        "forbidden": forbidden,
        "bids_so_far": made,
        "reason": f"the last bid may not make the total equal {size} tricks",
    }


def bids_line(obs: Observation) -> dict[str, Json] | None:
    """The running total of the bids against the tricks of the hand, the key fact of every
    Oh Hell game (docs/games/blackout.md, Bidding): ``Bids 9 of 13: 4 over``. None where
    the hand has no bids to total: the games with their own contracts (Pluck's quotas,
    Euchre's auction, Buckup's stay or fold), a misere hand, before the bidding.

    ``total`` is the sum of the bids this seat can see, ``tricks`` the tricks of the hand,
    ``waiting`` the seats whose bid it cannot see yet (not made, or made but hidden in
    simultaneous bidding), ``hidden`` those made but hidden."""
    if obs.rules.spec.hooks is not None or obs.misere:
        return None
    if obs.phase not in ("bidding", "playing"):
        return None
    if obs.phase == "bidding" and not any(obs.bid_made) and obs.bids.count(None) == obs.players:
        shown_any = False
    else:
        shown_any = True
    total = sum(b for b in obs.bids if b is not None)
    tricks = obs.hand_size
    waiting = sum(1 for b in obs.bids if b is None)
    hidden = sum(1 for s, b in enumerate(obs.bids) if b is None and obs.bid_made[s])
    if waiting:
        many = f"{tricks} trick" + ("" if tricks == 1 else "s")
        text = f"Bids so far {total} of {tricks}" if shown_any else f"No bids yet: {many}"
        if shown_any:
            text += f", {waiting} to bid" if not hidden else f", {waiting} not shown yet"
    else:
        gap = total - tricks
        if gap > 0:
            text = f"Bids {total} of {tricks}: {gap} over"
        elif gap < 0:
            text = f"Bids {total} of {tricks}: {-gap} under"
        else:
            text = f"Bids {total} of {tricks}: even"
    return {
        "total": total,
        "tricks": tricks,
        "waiting": waiting,
        "hidden": hidden,
        "over": total - tricks if not waiting else None,
        "text": text,
    }


def hand_view(obs: Observation, cards: CardText) -> list[dict[str, Json]] | None:
    """The seat's own hand as it is shown (:func:`~tricktaker.present.text.display_order`:
    the trumps first with the bowers among them, then the other suits alternating
    colours), each card with whether it is a trump and the suit it follows as; None while
    the seat may not look at its cards."""
    if obs.hand is None:
        return None
    tables = obs.tables
    out: list[dict[str, Json]] = []
    for card in display_order(obs):
        if tables is not None:
            suit = tables.suit_of[card]
            trump = (obs.trump is not None and suit == obs.trump) or tables.trump_key[card] >= 1000
        else:
            suit = card // 13 if card < 52 else 4
            trump = False
        out.append(
            {
                "card": cards.code(card),
                "trump": trump,
                "suit": "CDHS"[suit] if 0 <= suit < 4 else None,
            }
        )
    return out


def cards_held(obs: Observation, seat: int) -> int:
    """How many cards ``seat`` still holds, as everyone can count them: the hand's size
    less the cards it has played to the tricks (none while it sits the hand out or before
    the deal)."""
    if obs.phase in ("deal", "call_size", "game_over"):
        return 0
    if obs.active is not None and not obs.active[seat]:
        return 0
    played = sum(1 for trick in obs.tricks for s, _ in trick if s == seat)
    played += sum(1 for s, _ in obs.current_trick if s == seat)
    return max(0, obs.hand_size - played)


def notes(obs: Observation) -> list[str]:
    """The hand's notes: a special hand or call, misere, the hook, bids that must total
    the hand size, simultaneous bidding."""
    found = []
    special = describe_special(obs.special, obs.call)
    if special:
        found.append(special)
    if obs.misere:
        found.append("misere: everyone bids 0")
    bidding = obs.phase == "bidding"
    if obs.hook and bidding:
        found.append("hook: the last bid may not make the bids total the hand size")
    if obs.rules.spec.bidding.sum_equals_hand and bidding:
        found.append("the bids must total the hand size")
    if obs.rules.spec.bidding.style == "simultaneous" and bidding:
        found.append("simultaneous bidding: bids are revealed together")
    return found


def hidden_hand_note(obs: Observation) -> str:
    """Why the seat cannot see its cards now (docs/games/clag.md, Special hands: only a
    blind hand is bid before looking)."""
    if obs.phase == "game_over":
        return "(none: the game is over)"
    if obs.phase == "deal":
        return "(not dealt yet)"
    if obs.phase == "call_size":
        return "(not dealt yet: the caller first calls the hand size)"
    if obs.pile:
        return "(hidden: your cards are a face-down pile, played in pile order)"
    if obs.rules.spec.hooks is not None:
        return "(not dealt yet)"
    return "(hidden: you bid blind, before looking at your cards)"


def bid_cell(obs: Observation, seat: int) -> str:
    """The seat's bid as shown: the number, ``bid`` (made, hidden) or ``-``."""
    value = obs.bids[seat]
    if value is not None:
        return str(value)
    return "bid" if obs.bid_made[seat] else "-"


def seat_rows(obs: Observation, names: Sequence[str]) -> list[dict[str, Json]]:
    """One row per seat: name, bid, tricks won (None when sitting the hand out), score,
    dealer, whether it is to act, team mates, quota, status and stack where the game
    has them."""
    extra = obs.extra
    quotas = extra.get("quotas") if isinstance(extra.get("quotas"), list) else None
    stacks = extra.get("stacks") if isinstance(extra.get("stacks"), list) else None
    status = extra.get("status") if isinstance(extra.get("status"), list) else None
    rows = []
    for seat in range(obs.players):
        team = team_of(obs.partnerships, seat) if obs.partnerships else None
        mates = [] if team is None else [s for s in obs.partnerships[team] if s != seat]
        active = obs.active is None or obs.active[seat]
        rows.append(
            {
                "seat": seat,
                "name": names[seat],
                "dealer": seat == obs.dealer,
                "to_act": seat in obs.to_act,
                "bid": obs.bids[seat],
                "bid_made": obs.bid_made[seat],
                "bid_text": bid_cell(obs, seat),
                "tricks": obs.tricks_won[seat] if active else None,
                "score": obs.scores[seat],
                "team": team,
                "partners": team_text(mates, names) if mates else None,
                "quota": quotas[seat] if quotas else None,
                "status": status[seat] if status else None,
                "status_text": str(status[seat]).replace("_", " ") if status else None,
                "stack": stacks[seat] if stacks else None,
                "active": active,
                "cards": cards_held(obs, seat),
            }
        )
    return rows


def panel_game(obs: Observation) -> str | None:
    """The game whose own panel the seat is shown (``pluck``, ``euchre``, ``buckup``),
    with a seat grid of its own and a result in its own unit; None for the games of bids
    alone (the panel's ``game``)."""
    return obs.rules.spec.hooks


def panel(obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
    """The panel data of ``obs``'s seat (see docs/protocol.md, Views)."""
    data: dict[str, Json] = {
        "game": panel_game(obs),
        "heading": hand_heading(obs, names),
        "trump": {
            "suit": SUIT_NAMES[obs.trump] if obs.trump is not None else None,
            "known": obs.trump_known,
            "turn_up": cards.code(obs.turn_up) if obs.turn_up is not None else None,
            "text": cards.trump(obs.trump, obs.turn_up, obs.trump_known),
        },
        "notes": notes(obs),
        "hand_note": (
            hidden_hand_note(obs)
            if obs.hand is None and obs.phase not in ("game_over", "deal")
            else None
        ),
        "hook": hook_info(obs),
        "bids": bids_line(obs),
        "call": (
            {**plain_json(obs.call), "text": describe_call(obs.call)}
            if obs.call is not None
            else None
        ),
        "lines": [line.to_json() for line in game_lines(obs, names, cards)],
    }
    extra = obs.extra
    if PLUCK_KEYS & extra.keys():
        data["pluck"] = pluck_panel(obs, names, cards)
    if EUCHRE_KEYS & extra.keys():
        data["euchre"] = euchre_panel(obs, names, cards)
    if BUCKUP_KEYS & extra.keys():
        data["buckup"] = buckup_panel(obs, names, cards)
    return data
