"""What the table shows a seat besides its cards: the hand's heading and trump, the
notes of the hand (special hands, the hook, blind or simultaneous bidding), one row per
seat (bid, tricks, score, dealer, whose turn), and the game's own panel as labelled
lines and drawn cards, which the game's ``present`` capability writes
(:mod:`tricktaker.present.game`: Pluck's quotas and plucks, Euchre's auction,
contract and kitty, Buckup's ante, pot, chips and statuses, for example).

Everything comes from one observation, so a seat is told only what it may know. Each
labelled line also carries a ``public`` form (or None) for spectators.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktaker.cards import SUIT_NAMES
from tricktaker.engine import Observation

from .game import GamePresent, game_present
from .parts import CardsLine, Line, SeatFacts
from .reads import derived
from .text import (
    CardText,
    display_order,
    hand_heading,
    plain_json,
    team_of,
    team_text,
    teams_line,
)

Json = Any
"""Plain JSON data."""


# ---------------------------------------------------------------- all games


def game_lines(
    obs: Observation, names: Sequence[str], cards: CardText, game: GamePresent | None = None
) -> list[Line]:
    """The game's own information for the seat, as labelled lines: the teams first, then
    the lines the game's ``present`` capability writes (``game``: that capability, when
    the caller has it already)."""
    lines: list[Line] = []
    if obs.partnerships:
        text = teams_line(obs.partnerships, names, obs.seat)
        public = " vs ".join(team_text(team, names) for team in obs.partnerships)
        lines.append(Line("Teams", text, public))
    return lines + (game or game_present(obs.rules)).lines(obs, names, cards)


def game_cards(
    obs: Observation, names: Sequence[str], cards: CardText, game: GamePresent | None = None
) -> list[CardsLine]:
    """The cards the game's panel draws for the seat (see :class:`CardsLine`)."""
    return (game or game_present(obs.rules)).cards(obs, names, cards)


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


def bids_line(obs: Observation, game: GamePresent | None = None) -> dict[str, Json] | None:
    """The running total of the bids against the tricks of the hand, the key fact of every
    Oh Hell game (docs/games/blackout.md, Bidding): ``Bids 9 of 13: 4 over``. None where
    the hand has no bids to total: the games whose presentation says so (those with their
    own contracts, such as Pluck's quotas, Euchre's auction, Buckup's stay or fold), a
    misere hand, before the bidding.

    ``total`` is the sum of the bids this seat can see, ``tricks`` the tricks of the hand,
    ``waiting`` the seats whose bid it cannot see yet (not made, or made but hidden in
    simultaneous bidding), ``hidden`` those made but hidden."""
    if obs.misere or not (game or game_present(obs.rules)).bids_total:
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
    colours), each card with whether it is a trump and the suit it follows as, and
    ``received: true`` on a card another seat has just handed over (a pluck's card);
    None while the seat may not look at its cards."""
    if obs.hand is None:
        return None
    received = game_present(obs.rules).received(obs)
    tables = obs.tables
    out: list[dict[str, Json]] = []
    for card in display_order(obs):
        if tables is not None:
            suit = tables.suit_of[card]
            trump = (obs.trump is not None and suit == obs.trump) or tables.trump_key[card] >= 1000
        else:
            suit = card // 13 if card < 52 else 4
            trump = False
        shown: dict[str, Json] = {
            "card": cards.code(card),
            "trump": trump,
            "suit": "CDHS"[suit] if 0 <= suit < 4 else None,
        }
        if received >> card & 1:
            shown["received"] = True
        out.append(shown)
    return out


def cards_held(obs: Observation, seat: int) -> int:
    """How many cards ``seat`` still holds, as everyone can count them: the hand's size
    less the cards it has played to the tricks (none while it sits the hand out or before
    the deal)."""
    if obs.phase in ("deal", "game_over") or game_present(obs.rules).undealt_note(obs):
        return 0
    if obs.active is not None and not obs.active[seat]:
        return 0
    played = sum(1 for trick in obs.tricks for s, _ in trick if s == seat)
    played += sum(1 for s, _ in obs.current_trick if s == seat)
    return max(0, obs.hand_size - played)


def notes(obs: Observation, game: GamePresent | None = None) -> list[str]:
    """The hand's notes: a special hand or call (in the words of ``game``, the game's
    ``present`` capability), misere, the hook, bids that must total the hand size,
    simultaneous bidding."""
    found = []
    special = (game or game_present(obs.rules)).special_text(obs.special, obs.call)
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


def hidden_hand_note(obs: Observation, game: GamePresent | None = None) -> str:
    """Why the seat cannot see its cards now (docs/games/clag.md, Special hands: only a
    blind hand is bid before looking)."""
    if obs.phase == "game_over":
        return "(none: the game is over)"
    if obs.phase == "deal":
        return "(not dealt yet)"
    game = game or game_present(obs.rules)
    undealt = game.undealt_note(obs)
    if undealt is not None:
        return undealt
    if obs.pile:
        return "(hidden: your cards are a face-down pile, played in pile order)"
    return game.hidden_note


def bid_cell(obs: Observation, seat: int) -> str:
    """The seat's bid as shown: the number, ``bid`` (made, hidden) or ``-``."""
    value = obs.bids[seat]
    if value is not None:
        return str(value)
    return "bid" if obs.bid_made[seat] else "-"


def _seat_facts(obs: Observation) -> SeatFacts:
    """The game's per-seat facts (quotas, chips, statuses) of ``obs``."""
    return game_present(obs.rules).seats(obs)


def _hand_hidden(obs: Observation) -> bool:
    """Whether the seat may not look at its cards now."""
    return obs.hand is None


def seat_rows(obs: Observation, names: Sequence[str]) -> list[dict[str, Json]]:
    """One row per seat: name, bid, tricks won (None when sitting the hand out), score,
    dealer, whether it is to act, team mates, quota, status and stack where the game
    has them (its ``present`` capability's :class:`~tricktaker.present.parts.SeatFacts`)."""
    facts = derived(obs, _seat_facts)
    quotas, stacks, status = facts.quota, facts.stack, facts.status
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


def panel_game(obs: Observation, game: GamePresent | None = None) -> str | None:
    """The name of the game whose own panel the seat is shown (the hooks its ruleset
    names, such as ``euchre``), with a seat grid of its own and a result in its own
    unit; None for a game that declares no panel of its own (the panel's ``game``)."""
    return obs.rules.spec.hooks if (game or game_present(obs.rules)).own_panel else None


def panel(obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
    """The panel data of ``obs``'s seat (see docs/protocol.md, Views): the hand's heading,
    trump, notes, the hook, the bids' total and the call, and the game's own ``lines``
    and ``cards`` (labelled lines and cards drawn, the same for every game)."""
    game = game_present(obs.rules)
    return {
        "game": panel_game(obs, game),
        "heading": hand_heading(obs, names),
        "trump": {
            "suit": SUIT_NAMES[obs.trump] if obs.trump is not None else None,
            "known": obs.trump_known,
            "turn_up": cards.code(obs.turn_up) if obs.turn_up is not None else None,
            "text": cards.trump(obs.trump, obs.turn_up, obs.trump_known),
        },
        "notes": notes(obs, game),
        "hand_note": (
            hidden_hand_note(obs, game)
            if derived(obs, _hand_hidden) and obs.phase not in ("game_over", "deal")
            else None
        ),
        "hook": hook_info(obs),
        "bids": bids_line(obs, game),
        "call": (
            {**plain_json(obs.call), "text": game.call_text(obs.call)}
            if obs.call is not None
            else None
        ),
        "lines": [line.to_json() for line in game_lines(obs, names, cards, game)],
        "cards": [line.to_json() for line in game_cards(obs, names, cards, game)],
        "headings": dict(game.action_headings),
    }
