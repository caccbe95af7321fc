"""The running score sheet, as players keep it on paper: one row per finished hand with
its size, trump and dealer and each player's bid (or quota), tricks, score and running
total, or each team's points (Euchre), or the chips and the pot (Buckup); then the
totals, each player's Set / Over / Perfect counts and the totals after every hand (a
chart's series).

Everything is computed from the finished hands a seat may see
(``Observation.history``); a row's ``summary`` lines also come with a ``public`` form
that names no card only some seats know (for spectators).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricktaker.cards import SUIT_NAMES
from tricktaker.engine import HandResult, Observation

from .text import (
    CardText,
    ante_text,
    bid_text,
    card_text,
    contract_text,
    describe_special,
    payments_by_seat,
    pluck_line,
    seat_name,
    team_text,
)

Json = Any
"""Plain JSON data."""

OUTCOME_WORDS = {"S": "set", "O": "over", "P": "exact"}
"""How a hand's outcome against a bid is said."""
QUOTA_WORDS = {"S": "short", "O": "over", "P": "made"}
"""How a hand's outcome against a quota (Pluck) is said."""


@dataclass(frozen=True, slots=True)
class TextLine:
    """A line of text as the seat may read it, and its ``public`` form (None: the line is
    about cards only this seat may know, and a spectator is not told it)."""

    text: str
    public: str | None

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {"text": self.text, "public": self.public}


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat in one hand: bid (or quota; None when the game has none), tricks won
    (None when the seat sat the hand out), the hand's score, the running total, S/O/P
    against the bid, and the stack after the hand where chips are played for."""

    bid: int | None
    tricks: int | None
    score: int
    total: int
    outcome: str | None
    stack: int | None = None


@dataclass(frozen=True, slots=True)
class TeamScore:
    """One partnership in one hand: its tricks, the hand's points and the running total."""

    seats: list[int]
    name: str
    tricks: int
    score: int
    total: int


@dataclass(slots=True)
class ScoreRow:
    """One finished hand of the score sheet."""

    hand: int
    hand_size: int
    dealer: int
    dealer_name: str
    trump: str | None
    """The trump suit's name (``hearts``), None for no trump."""
    turn_up: str | None
    trump_text: str
    special: str
    """A special hand or Caller Clag's call in words ('' when neither)."""
    seats: list[SeatScore]
    teams: list[TeamScore] = field(default_factory=list)
    all_exact: bool | None = None
    """Cooperative games: whether every bid was made exactly."""
    contract: dict[str, Json] | None = None
    """Euchre: ``bidder``, ``tricks``, ``trump``, ``text`` and ``made``."""
    thrown_in: bool = False
    pot: dict[str, Json] | None = None
    """Buckup: ``before``, ``settled``, ``after``, ``winners``, ``burned``, ``ante``."""
    quotas: list[int] | None = None
    plucks: list[dict[str, Json]] = field(default_factory=list)
    summary: list[TextLine] = field(default_factory=list)

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {
            "hand": self.hand,
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "dealer_name": self.dealer_name,
            "trump": self.trump,
            "turn_up": self.turn_up,
            "trump_text": self.trump_text,
            "special": self.special,
            "seats": [
                {
                    "bid": s.bid,
                    "tricks": s.tricks,
                    "score": s.score,
                    "total": s.total,
                    "outcome": s.outcome,
                    "stack": s.stack,
                }
                for s in self.seats
            ],
            "teams": [
                {
                    "seats": list(t.seats),
                    "name": t.name,
                    "tricks": t.tricks,
                    "score": t.score,
                    "total": t.total,
                }
                for t in self.teams
            ],
            "all_exact": self.all_exact,
            "contract": self.contract,
            "thrown_in": self.thrown_in,
            "pot": self.pot,
            "quotas": self.quotas,
            "plucks": self.plucks,
            "summary": [line.to_json() for line in self.summary],
        }


@dataclass(slots=True)
class Scorecard:
    """The score sheet of a game so far.

    ``layout`` says which columns matter: ``bids`` (bid/tricks/score per seat),
    ``quota`` (Pluck: quota/tricks/over), ``team`` (Euchre: contract and team points),
    ``chips`` (Buckup: chips won or lost, the pot, the stacks) or ``tricks`` (tricks and
    points per seat, no bids).
    """

    layout: str
    unit: str
    cooperative: bool
    names: list[str]
    teams: list[dict[str, Json]]
    rows: list[ScoreRow]
    totals: list[int]
    team_totals: list[int]
    stacks: list[int] | None
    counts: list[dict[str, int]] | None
    outcome_words: dict[str, str]
    series: list[list[int]]
    """The totals of every seat after each hand (``series[k][seat]``), for a chart."""
    team_series: list[list[int]]
    standings: list[dict[str, Json]] = field(default_factory=list)
    """The ranking after the hands so far (see :func:`standings`)."""

    def to_json(
        self, row_json: Callable[[ScoreRow], dict[str, Json]] | None = None
    ) -> dict[str, Json]:
        """The value as plain JSON data (``row_json``: what writes a row, when not
        :meth:`ScoreRow.to_json`, such as a memo of the rows written before)."""
        write = row_json or ScoreRow.to_json
        return {
            "layout": self.layout,
            "unit": self.unit,
            "cooperative": self.cooperative,
            "names": list(self.names),
            "teams": self.teams,
            "rows": [write(row) for row in self.rows],
            "totals": self.totals,
            "team_totals": self.team_totals,
            "stacks": self.stacks,
            "counts": self.counts,
            "outcome_words": self.outcome_words,
            "series": self.series,
            "team_series": self.team_series,
            "standings": self.standings,
        }


# ------------------------------------------------------------ what the game keeps


def has_bids(history: Sequence[HandResult], players: int) -> bool:
    """Whether the hands carry a bid (or quota) per seat, so S/O/P makes sense."""
    return all(len(hand.bids) == players for hand in history)


def is_team_game(partnerships: Sequence[Sequence[int]]) -> bool:
    """Whether seats score as partnerships (more than one team)."""
    return len(partnerships) > 1


def chips_game(history: Sequence[HandResult]) -> bool:
    """Whether the hands are played for chips (Buckup)."""
    return any("stacks" in hand.extra for hand in history)


def chips_net(obs: Observation) -> list[int] | None:
    """Each seat's chips won or lost so far, as its stack shows them now (docs/games/
    buckup.md, Chips, antes and the pot: a player's score is their stack minus the
    starting stack), counting this hand's payments before the hand is settled; None
    when the game is not played for chips.

    The scores change only when a hand is settled; this is what the stacks say now.

    >>> from tricktaker import load_ruleset, new_game
    >>> state = new_game(load_ruleset("buckup"), players=4, seed=5)
    >>> while state.observe(0).extra.get("pot") == 0:
    ...     if state.is_chance():
    ...         state.apply_chance()
    ...     else:
    ...         seat = state.to_act()[0]
    ...         state.apply(seat, state.observe(seat).legal_actions[0])
    >>> obs = state.observe(0)
    >>> obs.scores, obs.extra["stacks"][0] - 500 == chips_net(obs)[0] != 0
    ((0, 0, 0, 0), True)
    """
    stacks = obs.extra.get("stacks") if obs.extra else None
    settings = obs.rules.data.get("settings")
    start = settings.get("starting_stack") if isinstance(settings, Mapping) else None
    if not isinstance(stacks, list) or not isinstance(start, int):
        return None
    return [int(stack) - start for stack in stacks]


def score_unit(history: Sequence[HandResult]) -> str:
    """What a game's totals count: points, tricks over quota, or chips."""
    if chips_game(history):
        return "chips net"
    if any("quotas" in hand.extra for hand in history):
        return "tricks over quota"
    return "points"


def outcome_tally(history: Sequence[HandResult], seat: int) -> dict[str, int]:
    """How many hands ``seat`` was set (under its bid), over, and perfect."""
    counts = {"S": 0, "O": 0, "P": 0}
    for hand in history:
        counts[hand.outcome(seat)] += 1
    return counts


def outcome_counts(history: Sequence[HandResult], seat: int) -> str:
    """``S1 O2 P5``: hands set (under), over and perfect for ``seat``."""
    return " ".join(f"{key}{value}" for key, value in outcome_tally(history, seat).items())


def layout_of(
    history: Sequence[HandResult],
    players: int,
    partnerships: Sequence[Sequence[int]],
    hooks: str | None = None,
) -> str:
    """The scorecard's layout (see :class:`Scorecard`)."""
    if hooks == "pluck" or any("quotas" in hand.extra for hand in history):
        return "quota"
    if (history and has_bids(history, players)) or (not history and hooks is None):
        return "bids"
    if is_team_game(partnerships):
        return "team"
    if hooks == "buckup" or chips_game(history):
        return "chips"
    return "tricks"


# ------------------------------------------------------------ one hand


def hand_summary(hand: HandResult, names: Sequence[str], cards: CardText) -> list[str]:
    """The hand's game-specific facts in words (quotas and plucks, contract, pot)."""
    return [line.text for line in summary_lines(hand, names, cards)]


def summary_lines(hand: HandResult, names: Sequence[str], cards: CardText) -> list[TextLine]:
    """:func:`hand_summary` with each line's public form, which names no card that only
    some seats know (a pluck's cards, the kitty)."""
    extra = hand.extra
    lines: list[TextLine] = []
    if "quotas" in extra:
        quotas = ", ".join(f"{seat_name(s, names)} {q}" for s, q in enumerate(extra["quotas"]))
        plucks = extra.get("plucks") or []
        line = f"Quotas: {quotas}.  Plucks before play: {len(plucks)}."
        lines.append(TextLine(line, line))
        for pluck in plucks:
            hidden = {**pluck, "given": None, "returned": None}
            lines.append(
                TextLine(
                    f"  {pluck_line(pluck, names, cards)}", f"  {pluck_line(hidden, names, cards)}"
                )
            )
    if "contract" in extra or extra.get("thrown_in"):
        line = contract_summary(extra, names, cards)
        lines.append(TextLine(line, line))
        if isinstance(extra.get("kitty"), list):
            kitty = " ".join(card_text(c, cards) for c in extra["kitty"])
            discards = " ".join(card_text(c, cards) for c in extra.get("discards") or [])
            line = f"Kitty: {kitty}" + (f";  discarded: {discards}" if discards else "")
            lines.append(TextLine(line, None))
    if "pot_before" in extra:
        lines += [TextLine(line, line) for line in pot_summary(extra, names)]
    return lines


def contract_summary(extra: Mapping[str, Any], names: Sequence[str], cards: CardText) -> str:
    """``Contract Seat 1: 4 tricks, ♥ hearts trump (auction: ...); tricks by team: 4 - 1.``"""
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
    """Buckup: the pot carried in and out, who won it, who was burned, the payments."""
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


def score_row(
    hand: HandResult,
    names: Sequence[str],
    cards: CardText,
    partnerships: Sequence[Sequence[int]],
    *,
    cooperative: bool = False,
) -> ScoreRow:
    """One finished hand as a row of the score sheet."""
    players = len(names)
    extra = hand.extra
    bids = len(hand.bids) == players
    stacks = extra.get("stacks") if isinstance(extra.get("stacks"), list) else None
    seats = [
        SeatScore(
            bid=hand.bids[s] if bids else None,
            tricks=hand.tricks[s],
            score=hand.hand_scores[s],
            total=hand.total_scores[s],
            outcome=hand.outcome(s) if bids else None,
            stack=int(stacks[s]) if stacks is not None else None,
        )
        for s in range(players)
    ]
    special_name = (
        str(hand.special.get("name")) if hand.special and "name" in hand.special else None
    )
    call = hand.special if hand.special and "caller_size" in hand.special else None
    row = ScoreRow(
        hand=hand.number,
        hand_size=hand.hand_size,
        dealer=hand.dealer,
        dealer_name=names[hand.dealer],
        trump=SUIT_NAMES[hand.trump] if hand.trump is not None else None,
        turn_up=cards.code(hand.turn_up) if hand.turn_up is not None else None,
        trump_text=cards.trump(hand.trump, hand.turn_up),
        special=describe_special(special_name, call),
        seats=seats,
        all_exact=hand.all_exact if cooperative else None,
        summary=summary_lines(hand, names, cards),
    )
    if is_team_game(partnerships):
        row.teams = [
            TeamScore(
                seats=list(team),
                name=team_text(team, names),
                tricks=sum(hand.tricks[s] for s in team),
                score=hand.hand_scores[team[0]],
                total=hand.total_scores[team[0]],
            )
            for team in partnerships
        ]
    contract = extra.get("contract")
    if isinstance(contract, Mapping):
        bidder = contract.get("bidder", contract.get("declarer"))
        made = any(bidder in team and hand.hand_scores[team[0]] > 0 for team in partnerships)
        row.contract = {
            "bidder": bidder,
            "tricks": contract.get("tricks"),
            "trump": contract.get("trump"),
            "text": contract_text(contract, names, cards),
            "made": made,
        }
    row.thrown_in = bool(extra.get("thrown_in"))
    if "pot_before" in extra:
        row.pot = {
            "before": extra.get("pot_before"),
            "settled": extra.get("pot_settled"),
            "after": extra.get("pot_after"),
            "winners": list(extra.get("winners") or []),
            "burned": list(extra.get("burned") or []),
            "ante": dict(extra["ante"]) if isinstance(extra.get("ante"), Mapping) else None,
            "ante_text": ante_text(extra["ante"]) if extra.get("ante") else None,
        }
    if isinstance(extra.get("quotas"), list):
        row.quotas = [int(q) for q in extra["quotas"]]
        row.plucks = [
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
    return row


# ------------------------------------------------------------ the game


def scorecard(
    history: Sequence[HandResult],
    names: Sequence[str],
    cards: CardText,
    partnerships: Sequence[Sequence[int]] = (),
    *,
    cooperative: bool = False,
    hooks: str | None = None,
    rows: Sequence[ScoreRow] | None = None,
) -> Scorecard:
    """The score sheet of the finished hands ``history``. ``rows``: each hand's row of the
    sheet, as :func:`score_row` makes it, already made by the caller (who keeps the rows
    of the hands it has seen)."""
    players = len(names)
    if rows is None:
        rows = [
            score_row(hand, names, cards, partnerships, cooperative=cooperative) for hand in history
        ]
    elif len(rows) != len(history):
        raise ValueError(f"{len(rows)} score rows for {len(history)} hands")
    layout = layout_of(history, players, partnerships, hooks)
    teams = list(partnerships) if is_team_game(partnerships) else []
    last = history[-1] if history else None
    totals = list(last.total_scores) if last is not None else [0] * players
    stacks = last.extra.get("stacks") if last is not None else None
    bids = bool(history) and has_bids(history, players)
    return Scorecard(
        layout=layout,
        unit=score_unit(history),
        cooperative=cooperative,
        names=list(names),
        teams=[{"seats": list(team), "name": team_text(team, names)} for team in teams],
        rows=list(rows),
        totals=totals,
        team_totals=[totals[team[0]] for team in teams],
        stacks=[int(v) for v in stacks] if isinstance(stacks, list) else None,
        counts=[outcome_tally(history, s) for s in range(players)] if bids else None,
        outcome_words=QUOTA_WORDS if layout == "quota" else OUTCOME_WORDS,
        series=[list(hand.total_scores) for hand in history],
        team_series=[[hand.total_scores[team[0]] for team in teams] for hand in history],
        standings=standings(totals, names, partnerships, cooperative=cooperative)
        if history
        else [],
    )


def standings(
    totals: Sequence[int],
    names: Sequence[str],
    partnerships: Sequence[Sequence[int]] = (),
    *,
    cooperative: bool = False,
) -> list[dict[str, Json]]:
    """The ranking by total, highest first (docs/games/blackout.md, End of the game: the
    highest total wins): one entry per seat, per team in a partnership game, or one for
    the whole table in a cooperative game; tied entries share a place.

    >>> [(e["place"], e["name"], e["total"]) for e in standings([5, 9, 5], ["Ann", "Ben", "Cy"])]
    [(1, 'Ben', 9), (2, 'Ann', 5), (2, 'Cy', 5)]
    """
    if cooperative:
        seats = list(range(len(names)))
        total = totals[0] if totals else 0
        return [{"place": 1, "seats": seats, "name": team_text(seats, names), "total": total}]
    if is_team_game(partnerships):
        groups = [list(team) for team in partnerships]
    else:
        groups = [[seat] for seat in range(len(names))]
    ranked = sorted(groups, key=lambda group: (-totals[group[0]], group[0]))
    out: list[dict[str, Json]] = []
    for index, group in enumerate(ranked):
        total = totals[group[0]]
        place = out[-1]["place"] if out and out[-1]["total"] == total else index + 1
        name = team_text(group, names) if len(group) > 1 else names[group[0]]
        out.append({"place": place, "seats": group, "name": name, "total": total})
    return out


def observation_scorecard(
    obs: Observation,
    names: Sequence[str],
    cards: CardText,
    rows: Sequence[ScoreRow] | None = None,
) -> Scorecard:
    """The score sheet as the seat of ``obs`` may see it (``rows``: see :func:`scorecard`)."""
    return scorecard(
        obs.history,
        names,
        cards,
        obs.partnerships,
        cooperative=obs.cooperative,
        hooks=obs.rules.spec.hooks,
        rows=rows,
    )


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


def winners_line(winners: Sequence[int], names: Sequence[str], scores: Sequence[int]) -> str:
    """``Winner: Seat 2 (87 points)`` or ``Winners (tied): ...``."""
    if not winners:
        return "No winner."
    best = scores[winners[0]]
    who = ", ".join(names[s] for s in winners)
    if len(winners) == 1:
        return f"Winner: {who} with {best} points."
    return f"Winners (tied): {who} with {best} points."


def cooperative_line(hands_played: int, completed: bool) -> str:
    """The result of a cooperative game."""
    result = "completed: the table wins" if completed else "not completed: the table loses"
    return f"Hands played: {hands_played}. The schedule was {result}."
