"""Hands and scorecards of the games with their own phases: Pluck (tricks against quota),
Euchre (team points, contracts) and Buckup (chips won and lost, stacks).

Each function takes the finished hands as a seat may see them (``Observation.history``,
or the full history in a replay) and falls back to a plain per-seat table for a game
it does not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.table import Table

from tricktaker.engine import HandResult

from .render import Cards
from .render_games import (
    ante_text,
    bid_text,
    card_text,
    contract_text,
    payments_by_seat,
    pluck_line,
    seat_name,
    team_text,
)


def has_bids(history: Sequence[HandResult], players: int) -> bool:
    """Whether the hands carry a bid (or quota) per seat, so S/O/P makes sense."""
    return all(len(hand.bids) == players for hand in history)


def is_team_game(partnerships: Sequence[Sequence[int]]) -> bool:
    return len(partnerships) > 1


def chips_game(history: Sequence[HandResult]) -> bool:
    return any("stacks" in hand.extra for hand in history)


def score_unit(history: Sequence[HandResult]) -> str:
    """What a game's totals count: points, tricks over quota, or chips."""
    if chips_game(history):
        return "chips net"
    if any("quotas" in hand.extra for hand in history):
        return "tricks over quota"
    return "points"


# ------------------------------------------------------------ one hand


def hand_summary(hand: HandResult, names: Sequence[str], cards: Cards) -> list[str]:
    """The hand's game-specific facts in words (quotas and plucks, contract, pot)."""
    extra = hand.extra
    lines: list[str] = []
    if "quotas" in extra:
        quotas = ", ".join(f"{seat_name(s, names)} {q}" for s, q in enumerate(extra["quotas"]))
        plucks = extra.get("plucks") or []
        lines.append(f"Quotas: {quotas}.  Plucks before play: {len(plucks)}.")
        lines += [f"  {pluck_line(p, names, cards)}" for p in plucks]
    if "contract" in extra or extra.get("thrown_in"):
        lines.append(contract_summary(extra, names, cards))
        if isinstance(extra.get("kitty"), list):
            kitty = " ".join(card_text(c, cards) for c in extra["kitty"])
            discards = " ".join(card_text(c, cards) for c in extra.get("discards") or [])
            lines.append(f"Kitty: {kitty}" + (f";  discarded: {discards}" if discards else ""))
    if "pot_before" in extra:
        lines += pot_summary(extra, names)
    return lines


def contract_summary(extra: Mapping[str, Any], names: Sequence[str], cards: Cards) -> str:
    contract = extra.get("contract")
    if extra.get("thrown_in") or not isinstance(contract, Mapping):
        return "Thrown in: everyone passed."
    text = f"Contract {contract_text(contract, names, cards)}"
    auction = extra.get("auction")
    if isinstance(auction, list) and auction:
        bids = ", ".join(f"{seat_name(s, names)} {bid_text(b, cards)}" for s, b in auction)
        text += f" (auction: {bids})"
    tricks = extra.get("partnership_tricks")
    if isinstance(tricks, list):
        text += f"; tricks by team: {' - '.join(map(str, tricks))}"
    return text + "."


def pot_summary(extra: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    winners = extra.get("winners") or []
    burned = extra.get("burned") or []
    settled = extra.get("pot_settled")
    line = f"Pot: {extra.get('pot_before')} carried in"
    line += f", {settled} at settlement" if settled is not None else ""
    line += f", {extra.get('pot_after')} carried over."
    if winners:
        line += f"  Won by {', '.join(seat_name(s, names) for s in winners)}."
    else:
        line += "  Nobody took 2 tricks: the pot stays."
    if burned:
        line += f"  Burned: {', '.join(seat_name(s, names) for s in burned)}."
    lines = [line]
    payments = extra.get("payments")
    if isinstance(payments, list) and payments:
        lines.append("Payments: " + payments_by_seat(payments, names) + ".")
    if extra.get("ante"):
        lines.append(f"Ante: {ante_text(extra['ante'])}.")
    return lines


def game_hand_table(
    hand: HandResult,
    names: Sequence[str],
    partnerships: Sequence[Sequence[int]],
) -> Table:
    """One finished hand of a game without per-seat bids: tricks, hand score, total
    (and the stacks where chips are played for)."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    stacks = hand.extra.get("stacks")
    if is_team_game(partnerships):
        table.add_column("Team")
        table.add_column("Won", justify="right")
        table.add_column("Hand", justify="right")
        table.add_column("Total", justify="right")
        for team in partnerships:
            first = team[0]
            won = sum(hand.tricks[s] for s in team)
            table.add_row(
                team_text(team, names),
                str(won),
                f"{hand.hand_scores[first]:+d}",
                str(hand.total_scores[first]),
            )
        return table
    table.add_column("Seat")
    table.add_column("Won", justify="right")
    table.add_column("Chips" if stacks else "Hand", justify="right")
    if isinstance(stacks, list):
        table.add_column("Stack", justify="right")
    table.add_column("Net" if stacks else "Total", justify="right")
    for seat, name in enumerate(names):
        row = [name, str(hand.tricks[seat]), f"{hand.hand_scores[seat]:+d}"]
        if isinstance(stacks, list):
            row.append(str(stacks[seat]))
        total = hand.total_scores[seat]
        row.append(f"{total:+d}" if stacks else str(total))
        table.add_row(*row)
    return table


# ------------------------------------------------------------ the game


def game_scorecard(
    history: Sequence[HandResult],
    names: Sequence[str],
    cards: Cards,
    partnerships: Sequence[Sequence[int]],
    *,
    title: str | None = None,
) -> Table:
    """Per hand and in total, for a game without per-seat bids (Euchre, Buckup)."""
    if is_team_game(partnerships):
        return team_scorecard(history, names, cards, partnerships, title=title)
    chips = chips_game(history)
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Dealer")
    table.add_column("Trump")
    if chips:
        table.add_column("Pot", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for hand in history:
        row = [str(hand.number), names[hand.dealer], cards.trump(hand.trump, hand.turn_up)]
        if chips:
            row.append(f"{hand.extra.get('pot_before', '-')}->{hand.extra.get('pot_after', '-')}")
        for seat in range(len(names)):
            row.append(f"{hand.tricks[seat]} tr {hand.hand_scores[seat]:+d}")
        table.add_row(*row)
    table.add_section()
    pad = [""] * (3 if chips else 2)
    totals = history[-1].total_scores if history else tuple(0 for _ in names)
    table.add_row("Net" if chips else "Total", *pad, *(_signed(v, chips) for v in totals))
    stacks = history[-1].extra.get("stacks") if history else None
    if isinstance(stacks, list):
        table.add_row("Stack", *pad, *(str(v) for v in stacks))
    return table


def _signed(value: int, chips: bool) -> str:
    return f"{value:+d}" if chips else str(value)


def team_scorecard(
    history: Sequence[HandResult],
    names: Sequence[str],
    cards: Cards,
    partnerships: Sequence[Sequence[int]],
    *,
    title: str | None = None,
) -> Table:
    """Euchre: per hand the contract, whether it was made, and each team's points."""
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Dealer")
    table.add_column("Contract")
    for team in partnerships:
        table.add_column(team_text(team, names), justify="right")
    for hand in history:
        contract = hand.extra.get("contract")
        if isinstance(contract, Mapping):
            declared = contract_text(contract, names, cards)
            bidder = contract.get("bidder", contract.get("declarer"))
            made = any(bidder in team and hand.hand_scores[team[0]] > 0 for team in partnerships)
            declared += " - made" if made else " - set"
        else:
            declared = "thrown in"
        row = [str(hand.number), names[hand.dealer], declared]
        for team in partnerships:
            won = sum(hand.tricks[s] for s in team)
            row.append(f"{won} tr {hand.hand_scores[team[0]]:+d} = {hand.total_scores[team[0]]}")
        table.add_row(*row)
    table.add_section()
    totals = history[-1].total_scores if history else tuple(0 for _ in names)
    table.add_row("Total", "", "", *(str(totals[team[0]]) for team in partnerships))
    return table


def result_line(
    winners: Sequence[int],
    names: Sequence[str],
    scores: Sequence[int],
    partnerships: Sequence[Sequence[int]],
    *,
    unit: str = "points",
) -> str:
    """``Winning team: You & Seat 2 with 10 points.`` / ``Winner: Seat 1 with +12 chips net.``"""
    if not winners:
        return "No winner."
    best = scores[winners[0]]
    if abs(best) == 1:
        unit = unit.replace("points", "point").replace("chips", "chip").replace("tricks", "trick")
    amount = f"{best} {unit}" if unit.startswith("point") else f"{best:+d} {unit}"
    for team in partnerships:
        if is_team_game(partnerships) and set(team) == set(winners):
            return f"Winning team: {team_text(team, names)} with {amount}."
    who = ", ".join(names[s] for s in winners)
    if len(winners) == 1:
        return f"Winner: {who} with {amount}."
    return f"Winners (tied): {who} with {amount}."
