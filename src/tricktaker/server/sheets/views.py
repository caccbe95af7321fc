"""The score sheets of the server as JSON: a hand as entered, the rows, the next hand
with what the rules offer to enter, and the whole sheet (the answers of ``/sheets``,
docs/scorekeeper.md, The HTTP API)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktaker.scorekeeper import CallEntry, Row, ScoreSheet
from tricktaker.scorekeeper.export import result_line
from tricktaker.scorekeeper.offers import BidOffer, bid_offer
from tricktaker.scorekeeper.steps import Step

# ------------------------------------------------------------------- views


def _names(sheet: ScoreSheet, seats: Sequence[int]) -> list[str]:
    return [sheet.players[s] for s in seats]


def row_view(sheet: ScoreSheet, row: Row) -> dict[str, Any]:
    """One hand of the sheet as JSON."""
    seats = range(len(sheet.players))
    return {
        "hand": row.number,
        "dealer": row.dealer,
        "hand_size": row.hand_size,
        "trump": row.trump,
        "special": row.special,
        "bids": list(row.bids) if row.bids else None,
        "tricks": list(row.tricks),
        "scores": list(row.scores),
        "totals": list(row.totals),
        "outcomes": [row.outcome(s) for s in seats] if row.bids else None,
        "entry": sheet.entries[row.number - 1].to_json(),
    }


def to_enter(sheet: ScoreSheet, steps: tuple[Step, ...]) -> list[str]:
    """What the table enters for the next hand, in order: ``call``, ``bids``, the fields
    of the game's own ``steps`` (a Euchre ``contract``; Buckup's ``ante``, ``decisions``
    and ``drawn``), ``trump`` (when the rules do not fix it), ``tricks``,
    ``trick_winners`` (tricks scored by number)."""
    nxt = sheet.next_hand()
    out = ["call"] if nxt.called else []
    if sheet.has_bids():
        out.append("bids")
    for step in steps:
        out += [step.name] + ([step.count.name] if step.count is not None else [])
    if not sheet.trump_by_rule():
        out.append("trump")
    out.append("tricks")
    if nxt.trick_points:
        out.append("trick_winners")
    return out


def offer_view(offer: BidOffer | None) -> dict[str, Any] | None:
    """The bids a bidder may make, as JSON: the seat, its legal bids and the bids the
    rules refuse it now with the reason."""
    if offer is None:
        return None
    return {
        "seat": offer.seat,
        "bids": list(offer.legal),
        "forbidden": [{"bid": bid, "reason": why} for bid, why in offer.forbidden],
    }


def next_view(sheet: ScoreSheet, call: CallEntry | None = None) -> dict[str, Any] | None:
    """The next hand: dealer, size, trump rule, who bids first, what to enter, and what
    the rules offer (the first bidder's bids, the game's own steps with their choices);
    the game's own facts (Pluck's ``quotas`` and ``plucks``) join them."""
    if sheet.is_over():
        return None
    nxt = sheet.next_hand(call)
    offer = bid_offer(sheet, call=call) if not nxt.misere else None
    steps = sheet.game_steps()
    return {
        **nxt.facts,
        "hand": nxt.number,
        "dealer": nxt.dealer,
        "hand_size": nxt.hand_size,
        "special": nxt.special,
        "trump_rule": nxt.trump_rule,
        "trump_by_rule": sheet.trump_by_rule(),
        "bid_order": list(nxt.bid_order),
        "bids_first": sheet.players[nxt.bid_order[0]],
        "simultaneous": nxt.simultaneous,
        "blind": nxt.blind,
        "misere": nxt.misere,
        "hook": nxt.hook,
        "called": nxt.called,
        "call_sizes": list(nxt.call_sizes),
        "trick_points": nxt.trick_points,
        "notes": list(nxt.notes),
        "opening": nxt.opening,
        "enter": to_enter(sheet, steps),
        "steps": [step.to_json() for step in steps],
        "fills_last_tricks": sheet.steps.fills_last_tricks,
        "bid_offer": offer_view(offer),
    }


def sheet_view(
    sheet_id: str,
    seq: int,
    sheet: ScoreSheet,
    *,
    view_key: str | None,
    owner: bool = False,
    edit_link: bool = False,
) -> dict[str, Any]:
    """The whole sheet as JSON; ``view_key`` is shown to those who may edit only;
    ``owner``: the request holds the keeper's own token (it may give out the edit link);
    ``edit_link``: an edit link is out (told to the owner only)."""
    seats = range(len(sheet.players))
    chips = sheet.chips()
    return {
        "id": sheet_id,
        "version": seq,
        "game": sheet.game,
        "name": sheet.rules.name,
        "players": list(sheet.players),
        "first_dealer": sheet.first_dealer,
        "options": dict(sheet.options),
        "can_edit": view_key is not None,
        "owner": owner,
        "edit_link": edit_link and owner,
        "view_key": view_key,
        "cooperative": sheet.cooperative,
        "has_bids": sheet.has_bids(),
        "steps": [step.to_json() for step in sheet.game_steps()],
        "fills_last_tricks": sheet.steps.fills_last_tricks,
        "rows": [row_view(sheet, row) for row in sheet.rows],
        "totals": list(sheet.totals),
        "counts": [sheet.counts(s) for s in seats],
        "chips": None if chips is None else {"stacks": list(chips[0]), "pot": chips[1]},
        "over": sheet.is_over(),
        "winners": _names(sheet, sheet.winners()),
        "result": result_line(sheet),
        "next": next_view(sheet),
    }
