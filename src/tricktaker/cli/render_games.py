"""What the games with their own phases show at the table: the ``extra`` section of an
observation (Pluck's plucks, Euchre's auction and contract, Buckup's pot and stacks),
rendered only from what the seat may know; unknown keys are shown as ``key: value``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.table import Table

from tricktaker.cards import SUIT_LETTERS, SUIT_NAMES, CardError, parse_card
from tricktaker.engine import Observation

from .render import Cards

Lines = list[tuple[str, str]]


def plain(value: Any) -> str:
    """Any JSON-like value in words (the fallback for keys a game adds later)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value) or "none"
    return str(value).replace("_", " ")


def card_text(text: Any, cards: Cards) -> str:
    """A card written ``7H`` / ``BJ`` in the cards' style (``7♥``); ``a card`` when hidden."""
    if text is None:
        return "a card"
    try:
        return cards.card(parse_card(str(text), labels=cards.labels))
    except CardError:
        return str(text)


def cards_text(values: Any, cards: Cards) -> str:
    if not isinstance(values, list | tuple):
        return plain(values)
    return " ".join(card_text(v, cards) for v in values) or "none"


def seat_name(seat: Any, names: Sequence[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)


def object_name(seat: Any, names: Sequence[str]) -> str:
    """A seat as the object of a sentence: ``you`` or ``Seat 2``."""
    name = seat_name(seat, names)
    return "you" if name == "You" else name


def conjugate(name: str, base: str) -> str:
    """``You pluck`` / ``Seat 2 plucks``."""
    return f"{name} {base}" if name == "You" else f"{name} {base}s"


def team_text(team: Sequence[int], names: Sequence[str]) -> str:
    """``You & Seat 2``."""
    return " & ".join(seat_name(s, names) for s in team)


def teams_line(partnerships: Sequence[Sequence[int]], names: Sequence[str], seat: int) -> str:
    """``You & Seat 2 vs Seat 1 & Seat 3`` (the seat's own team first)."""
    teams = sorted(partnerships, key=lambda team: seat not in team)
    return " vs ".join(team_text(team, names) for team in teams)


def team_of(partnerships: Sequence[Sequence[int]], seat: int) -> int | None:
    for number, team in enumerate(partnerships):
        if seat in team:
            return number
    return None


def suit_text(word: Any, cards: Cards) -> str:
    """A suit given by letter or name (``H``, ``hearts``, ``no_trump``) in the cards' style."""
    text = str(word)
    if text.lower() in ("no_trump", "nt", "none"):
        return "no trump"
    for suit, name in enumerate(SUIT_NAMES):
        if text.upper() == SUIT_LETTERS[suit] or text.lower() == name:
            return cards.suit(suit)
    return text.replace("_", " ")


def bid_text(bid: Any, cards: Cards) -> str:
    """An auction bid: ``4H`` as ``4 ♥ hearts``, ``NT`` as ``no trump``, ``pass``."""
    text = str(bid)
    if text.upper() == "NT":
        return "no trump (5)"
    if text.lower() == "pass":
        return "pass"
    if len(text) >= 2 and text[:-1].isdigit():
        return f"{text[:-1]} {suit_text(text[-1], cards)}"
    return text


# ----------------------------------------------------------------- Pluck


def pluck_line(pluck: Mapping[str, Any], names: Sequence[str], cards: Cards) -> str:
    """``Seat 1 plucked you (gave 3♥, got back J♥)``; the cards only when they are known."""
    plucker = seat_name(pluck.get("plucker"), names)
    text = f"{plucker} plucked {object_name(pluck.get('pluckee'), names)}"
    given, returned = pluck.get("given"), pluck.get("returned")
    if given is not None:
        text += f" (gave {card_text(given, cards)}, got back {card_text(returned, cards)})"
    return text


def pluck_lines(extra: Mapping[str, Any], names: Sequence[str], cards: Cards) -> Lines:
    lines: Lines = []
    pending = list(extra.get("plucks_pending") or [])
    quotas = extra.get("quotas")
    if isinstance(quotas, list) and quotas:
        lines.append(("Quotas", ",  ".join(f"{names[s]} {q}" for s, q in enumerate(quotas))))
    plucks = extra.get("plucks") or []
    if plucks:
        lines.append(("Plucks", ";  ".join(pluck_line(p, names, cards) for p in plucks)))
    current = extra.get("pluck_in_progress")
    if isinstance(current, Mapping):
        plucker = seat_name(current.get("plucker"), names)
        pluckee = object_name(current.get("pluckee"), names)
        given = current.get("given")
        gave = card_text(given, cards) if given is not None else "a card face down"
        now = f"{conjugate(plucker, 'pluck')} {pluckee}, giving {gave};"
        lines.append(("Now", now + " the highest card of its suit goes back"))
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
        lines.append(("To come", ";  ".join(shown)))
    return lines


# ---------------------------------------------------------------- Euchre


def contract_text(contract: Mapping[str, Any], names: Sequence[str], cards: Cards) -> str:
    """``Seat 1: 4 tricks, ♥ hearts trump`` (declarer or bidder, tricks, trump)."""
    who = contract.get("declarer", contract.get("bidder"))
    trump = contract.get("trump")
    trump_words = "no trump" if trump in (None, "no_trump") else f"{suit_text(trump, cards)} trump"
    return f"{seat_name(who, names)}: {contract.get('tricks')} tricks, {trump_words}"


def euchre_lines(obs: Observation, names: Sequence[str], cards: Cards) -> Lines:
    extra = obs.extra
    lines: Lines = []
    auction = extra.get("auction")
    if isinstance(auction, list):
        shown = ",  ".join(f"{seat_name(s, names)} {bid_text(b, cards)}" for s, b in auction)
        lines.append(("Auction", shown or "no bid yet"))
    high = extra.get("high_bid")
    if isinstance(high, Mapping):
        lines.append(
            ("High bid", f"{seat_name(high.get('seat'), names)} {bid_text(high.get('bid'), cards)}")
        )
    passed = extra.get("passed")
    if passed:
        lines.append(("Passed", ", ".join(seat_name(s, names) for s in passed)))
    contract = extra.get("contract")
    if isinstance(contract, Mapping):
        lines.append(("Contract", contract_text(contract, names, cards)))
    if extra.get("kitty") is not None:
        lines.append(("Kitty", cards_text(extra["kitty"], cards)))
    if extra.get("discards") is not None:
        lines.append(("Discards", cards_text(extra["discards"], cards)))
    scores, tricks = extra.get("team_scores"), extra.get("team_tricks")
    if obs.partnerships and isinstance(scores, list):
        parts = []
        for number, team in enumerate(obs.partnerships):
            part = f"{team_text(team, names)} {scores[number]}"
            if isinstance(tricks, list):
                part += f" ({tricks[number]} trick{'s' if tricks[number] != 1 else ''})"
            parts.append(part)
        target = extra.get("target")
        lines.append(("Points", ",  ".join(parts) + (f";  game to {target}" if target else "")))
    return lines


# ---------------------------------------------------------------- Buckup


def ante_text(ante: Any) -> str:
    """``ante 5 each, fold fee 5, 5 a card kept``."""
    if not isinstance(ante, Mapping):
        return plain(ante)
    parts = [f"ante {ante.get('ante')} each"]
    fold_fee = ante.get("fold_fee")
    parts.append(f"fold fee {fold_fee}" if fold_fee else "no fold fee")
    per = str(ante.get("fee_per", "kept")).replace("_", " ")
    parts.append(f"{ante.get('card_fee')} a card {per}")
    return ", ".join(parts)


def payment_text(payment: Any, names: Sequence[str]) -> str:
    if not isinstance(payment, Mapping):
        return plain(payment)
    amount = payment.get("amount")
    verb = "pays" if not isinstance(amount, int) or amount >= 0 else "takes"
    who = seat_name(payment.get("seat"), names)
    if who == "You":
        verb = verb.removesuffix("s")
    shown = abs(amount) if isinstance(amount, int) else amount
    reason = str(payment.get("reason", "")).replace("_", " ")
    return f"{who} {verb} {shown}" + (f" ({reason})" if reason else "")


def payment_groups(payments: Sequence[Any], names: Sequence[str]) -> list[str]:
    """Payments in order, runs of the same amount for the same reason joined:
    ``Seat 3, You, Seat 1 pay 5 (ante)``."""
    lines: list[str] = []
    run: list[Mapping[str, Any]] = []

    def flush() -> None:
        if len(run) == 1:
            lines.append(payment_text(run[0], names))
        elif run:
            who = ", ".join(seat_name(p.get("seat"), names) for p in run)
            lines.append(payment_text({**run[0], "seat": who}, names).replace(" pays ", " pay "))
        run.clear()

    for payment in payments:
        if not isinstance(payment, Mapping):
            flush()
            lines.append(plain(payment))
            continue
        if run and (payment.get("amount"), payment.get("reason")) != (
            run[0].get("amount"),
            run[0].get("reason"),
        ):
            flush()
        run.append(payment)
    flush()
    return lines


def payments_by_seat(payments: Sequence[Any], names: Sequence[str]) -> str:
    """Each seat's payments as their effect on its stack: ``You: ante -5, win +60``."""
    seats: dict[str, list[str]] = {}
    for payment in payments:
        if not isinstance(payment, Mapping) or not isinstance(payment.get("amount"), int):
            continue
        who = seat_name(payment.get("seat"), names)
        reason = str(payment.get("reason", "")).replace("_", " ")
        seats.setdefault(who, []).append(f"{reason} {-payment['amount']:+d}")
    return ";  ".join(f"{who}: {', '.join(items)}" for who, items in seats.items()) or "none"


def buckup_lines(extra: Mapping[str, Any], names: Sequence[str], cards: Cards) -> Lines:
    lines: Lines = []
    if "pot" in extra:
        lines.append(("Pot", str(extra["pot"])))
    if "ante" in extra:
        lines.append(("Ante", ante_text(extra["ante"]) if extra["ante"] else "not set yet"))
    scare = extra.get("scare_cards")
    if isinstance(scare, list) and any(c is not None for c in scare):
        lines.append(
            (
                "Face up",
                ",  ".join(
                    f"{names[s]} {card_text(c, cards)}"
                    for s, c in enumerate(scare)
                    if c is not None
                ),
            )
        )
    if "stock" in extra:
        lines.append(("Stock", f"{extra['stock']} cards"))
    payments = extra.get("payments")
    if isinstance(payments, list):
        lines.append(("Payments", payments_by_seat(payments, names)))
    return lines


# ---------------------------------------------------------------- all games

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
BUCKUP_KEYS = frozenset({"pot", "ante", "scare_cards", "stock", "payments"})
GRID_KEYS = frozenset({"stacks", "status"})
"""Shown per seat in the seat grid rather than as lines."""

Renderer = Callable[[Observation, Sequence[str], Cards], Lines]
RENDERERS: tuple[tuple[frozenset[str], Renderer], ...] = (
    (PLUCK_KEYS, lambda obs, names, cards: pluck_lines(obs.extra, names, cards)),
    (EUCHRE_KEYS, euchre_lines),
    (BUCKUP_KEYS, lambda obs, names, cards: buckup_lines(obs.extra, names, cards)),
)


def game_lines(obs: Observation, names: Sequence[str], cards: Cards) -> Lines:
    """The game's own information for the seat, as labelled lines (teams first)."""
    lines: Lines = []
    if obs.partnerships:
        lines.append(("Teams", teams_line(obs.partnerships, names, obs.seat)))
    known: set[str] = set(GRID_KEYS)
    for keys, render in RENDERERS:
        if keys & obs.extra.keys():
            lines += render(obs, names, cards)
            known |= keys
    for key, value in obs.extra.items():
        if key not in known:
            lines.append((key.replace("_", " ").capitalize(), plain(value)))
    return lines


def seat_grid(obs: Observation, names: Sequence[str]) -> Table:
    """One row per seat: quota or team or status and stack, tricks won and score."""
    extra = obs.extra
    quotas = extra.get("quotas") if isinstance(extra.get("quotas"), list) else None
    stacks = extra.get("stacks") if isinstance(extra.get("stacks"), list) else None
    status = extra.get("status") if isinstance(extra.get("status"), list) else None
    grid = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    grid.add_column("Seat")
    if obs.partnerships:
        grid.add_column("Team")
    if quotas:
        grid.add_column("Quota", justify="right")
    if status:
        grid.add_column("Status")
    grid.add_column("Won", justify="right")
    if stacks:
        grid.add_column("Stack", justify="right")
    grid.add_column("Net" if stacks else "Score", justify="right")
    for seat in range(obs.players):
        marks = " (D)" if seat == obs.dealer else ""
        if seat in obs.to_act:
            marks += " <-"
        row = [names[seat] + marks]
        if obs.partnerships:
            number = team_of(obs.partnerships, seat)
            mates = [] if number is None else [s for s in obs.partnerships[number] if s != seat]
            row.append("with " + team_text(mates, names) if mates else "-")
        if quotas:
            row.append(str(quotas[seat]))
        if status:
            row.append(str(status[seat]).replace("_", " "))
        active = obs.active is None or obs.active[seat]
        row.append(str(obs.tricks_won[seat]) if active else "-")
        if stacks:
            row.append(str(stacks[seat]))
        score = obs.scores[seat]
        row.append(f"{score:+d}" if stacks else str(score))
        grid.add_row(*row)
    return grid
