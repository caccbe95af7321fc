"""The easy (heuristic) bot's bids, before and after the refit of its card model: at a
table of easy bots, how the bids of each hand add up against the tricks available.

For every shipped game with bids (Pluck, Euchre and Buckup have none), at the player
counts given, the script plays whole games with every seat an easy bot and sorts the
hands by kind: trump or no trump (a Bluke turned up, every card dealt, 7 Truf's and
Romanian Whist's 8-card hands), Clag's special hands, Caller Clag's calls (the callers
here call each kind in turn, since the bot itself always calls a normal hand), and by
hand size (1-3, 4-7, 8-12, 13 and up). For each group it prints the tricks available
and the distribution of the bid total: mean, median, min, max, and the shares of hands
bid over and under, BEFORE (the card model as it was, :data:`BEFORE`) and AFTER (the
bot as it is now), on the same deals.

    .venv/bin/python bench/easy_bids.py [--games 6] [--seed 0] [--games-list blackout,clag]
        [--players 3,4] [--all-players] [--markdown]

Without ``--players`` or ``--all-players`` each game is played at its fewest players, at
4 and at its most (Bluke and Kachuful at most 7). See ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from tricktaker.arena import mean_interval
from tricktaker.arena.stats import Interval
from tricktaker.bots import heuristic, play_game
from tricktaker.bots.base import make_bot
from tricktaker.engine import new_game
from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.engine.observation import Observation
from tricktaker.engine.results import HandResult
from tricktaker.games.ohhell.calls import CALL_KIND, CALL_SIZE, KINDS
from tricktaker.rules import list_rulesets, load_ruleset
from tricktaker.rules.ruleset import Ruleset

BEFORE: Mapping[str, object] = {
    "SIDE_WEIGHTS": (
        -2.129, 2.526, -0.152, -0.637, 0.467, 1.384, -1.112, 1.659,
        -1.909, -0.405, 1.362, -0.736, -0.534, 3.463,
    ),
    "TRUMP_WEIGHTS": (
        -0.188, 2.369, -0.313, -0.344, 0.237, 0.058, 0.285, -0.368, 0.854, -0.12, 0.214,
        0.179,
    ),
    "CALIBRATION_DEALS": 0,
}  # fmt: skip
"""The card model before the refit (commit 56d44d6): fitted with one greedy seat against
random bots half the time, without the features added since, and no calibration of the
table's chances. Features the old model did not have get weight 0, which gives exactly
the old chances."""

MOST_PLAYERS = 7
"""The largest table played by default (Bluke allows 15, Kachuful 10)."""

SIZE_BANDS = ((1, 3), (4, 7), (8, 12), (13, 99))


@contextmanager
def card_model(weights: Mapping[str, object] | None) -> Iterator[None]:
    """The heuristic bot with ``weights`` (None: as it is), padded with zeros for the
    features the given weights lack; restored afterwards."""
    if weights is None:
        yield
        return
    saved = {name: getattr(heuristic, name) for name in weights}
    try:
        for name, value in weights.items():
            current = getattr(heuristic, name)
            if isinstance(value, tuple):
                value = value + (0.0,) * (len(current) - len(value))
            setattr(heuristic, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(heuristic, name, value)


@dataclass(frozen=True)
class HandBids:
    """One hand of a table of easy bots: its kind and the bids made."""

    game: str
    players: int
    hand_size: int
    kind: str
    bids: tuple[int, ...]
    dealer: int = 0
    trump: int | None = None
    deal: tuple[tuple[int, ...], ...] = ()
    """Each seat's cards when play began (for a pile hand, its pile)."""

    @property
    def total(self) -> int:
        return sum(self.bids)

    @property
    def band(self) -> str:
        low, high = next(b for b in SIZE_BANDS if b[0] <= self.hand_size <= b[1])
        return f"{low}-{high}" if high < 99 else f"{low}+"


def hand_kind(rules: Ruleset, hand: HandResult) -> str:
    """A hand's kind as the tables show it: ``trump``, ``no trump``, ``no trump (Bluke
    turned up)``, ``no trump (all dealt)``, a special hand's name, or a called kind with
    its modifiers (Caller Clag)."""
    special = dict(hand.special or {})
    if "kind" in special:
        mods = [str(m) for m in special.get("modifiers", ())]
        return " ".join(["called", str(special["kind"]).replace("_", " "), *mods])
    if "name" in special:
        return str(special["name"]).replace("_", " ")
    if hand.trump is not None:
        return "trump"
    if hand.turn_up is not None and hand.turn_up >= 52:
        return "no trump (Bluke turned up)"
    return "no trump"


def play_table(rules: Ruleset, players: int, seed: int) -> list[HandBids]:
    """One game with every seat an easy bot (seeded from ``seed``); a caller (Caller
    Clag) calls the size and each kind of hand
    (:data:`~tricktaker.games.ohhell.calls.KINDS`) in turn, no modifier."""
    bots = [make_bot("easy", seed=seed * 31 + s) for s in range(players)]
    state = new_game(rules, players=players, seed=seed)
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in state.to_act():
            obs = state.observe(seat)
            legal = obs.legal_actions
            action: Action
            if legal and legal[0].kind == CALL_SIZE:
                action = legal[(obs.hand_number + seed) % len(legal)]
            elif legal and legal[0].kind == CALL_KIND:
                wanted = KINDS[(obs.hand_number + seed) % len(KINDS)]
                action = next((a for a in legal if a.value == wanted), legal[0])
            else:
                action = bots[seat].act(obs)
            state.apply(seat, action)
    return [
        HandBids(
            rules.id,
            players,
            hand.hand_size,
            hand_kind(rules, hand),
            tuple(hand.bids),
            hand.dealer,
            hand.trump,
            tuple(tuple(cards) for cards in hand.deal),
        )
        for hand in state.history
    ]


def bid_games() -> list[str]:
    """The shipped games with Oh Hell bids (no game hooks, or hooks that keep the
    engine's bids)."""
    return [g for g in list_rulesets() if keeps_engine_bids(load_ruleset(g).hooks)]


def default_players(rules: Ruleset) -> list[int]:
    counts = list(rules.player_counts)
    picks = {counts[0], min(counts[-1], MOST_PLAYERS)}
    if 4 in counts:
        picks.add(4)
    return sorted(picks)


def collect(
    games: Sequence[str],
    players: Sequence[int] | None,
    tables: int,
    seed: int,
    weights: Mapping[str, object] | None,
) -> list[HandBids]:
    """Every hand of ``tables`` games per game and player count, with the card model
    ``weights`` (None: the bot as it is)."""
    hands: list[HandBids] = []
    with card_model(weights):
        for game in games:
            rules = load_ruleset(game)
            counts = [p for p in (players or default_players(rules)) if p in rules.player_counts]
            for count in counts:
                for number in range(tables):
                    hands.extend(play_table(rules, count, seed + 1000 * count + number))
    return hands


@dataclass(frozen=True)
class Summary:
    """The bid totals of one group of hands against the tricks available."""

    hands: int
    tricks: float
    mean: float
    median: float
    low: int
    high: int
    over: float
    under: float

    def cells(self, sep: str = " ") -> str:
        return sep.join(
            (
                f"{self.mean:5.1f}",
                f"{self.median:5.1f}",
                f"{self.low:3d}",
                f"{self.high:3d}",
                f"{100 * self.over:4.0f}%",
                f"{100 * self.under:4.0f}%",
            )
        )


def summarize(hands: Sequence[HandBids]) -> Summary:
    totals = [h.total for h in hands]
    return Summary(
        hands=len(hands),
        tricks=statistics.fmean(h.hand_size for h in hands),
        mean=statistics.fmean(totals),
        median=statistics.median(totals),
        low=min(totals),
        high=max(totals),
        over=sum(h.total > h.hand_size for h in hands) / len(hands),
        under=sum(h.total < h.hand_size for h in hands) / len(hands),
    )


Key = tuple[str, int, str, str]


def group(hands: Sequence[HandBids]) -> dict[Key, list[HandBids]]:
    groups: dict[Key, list[HandBids]] = defaultdict(list)
    for hand in hands:
        groups[(hand.game, hand.players, hand.kind, hand.band)].append(hand)
    return groups


def table(before: Sequence[HandBids], after: Sequence[HandBids], markdown: bool) -> list[str]:
    """One row per game, players, kind and size band: tricks, then the bid totals'
    mean, median, min, max, share over and share under, before and after."""
    old, new = group(before), group(after)
    head = "mean  med  min max  over under"
    lines: list[str] = []
    if markdown:
        cells = " | ".join(("mean", "med", "min", "max", "over", "under"))
        lines.append(
            f"| game | pl | kind | size | hands | tricks | before: {cells} | after: {cells} |"
        )
        lines.append("|---|---:|---|---|---:|---:|" + "---:|" * 12)
    else:
        lines.append(
            f"{'game':22} {'pl':>2} {'kind':34} {'size':5} {'hands':>5} {'tricks':>6}"
            f"   before: {head}   after: {head}"
        )
    for key in sorted(new, key=lambda k: (k[0], k[1], k[2] != "trump", k[2], k[3])):
        if key not in old:
            continue
        a, b = summarize(old[key]), summarize(new[key])
        game, players, kind, band = key
        if markdown:
            lines.append(
                f"| {game} | {players} | {kind} | {band} | {b.hands} | {b.tricks:.1f}"
                f" | {a.cells(' | ')} | {b.cells(' | ')} |"
            )
        else:
            lines.append(
                f"{game:22} {players:2d} {kind[:34]:34} {band:5} {b.hands:5d} {b.tricks:6.1f}"
                f"           {a.cells()}          {b.cells()}"
            )
    return lines


def ratio_line(label: str, hands: Sequence[HandBids], size_at_least: int = 1) -> str:
    """The mean of total / tricks over hands with bids to total (no misere hand)."""
    ratios = [
        h.total / h.hand_size
        for h in hands
        if h.hand_size >= size_at_least and "misere" not in h.kind
    ]
    return (
        f"{label}: mean bid total / tricks {statistics.fmean(ratios):.3f} over {len(ratios)} hands"
    )


class BeforeBot(heuristic.HeuristicBot):
    """The easy bot with the card model of :data:`BEFORE` (only its bids differ: its
    play does not use the card model)."""

    def act(self, observation: Observation) -> Action:
        with card_model(BEFORE):
            return super().act(observation)


def strength(game: str, players: int, deal_sets: int, seed: int) -> tuple[Interval, Interval]:
    """Mean score per hand of the easy bot as it is (AFTER) minus the bot of
    :data:`BEFORE`, and their exact-bid rates' difference, over duplicate deals: in each
    deal set every seating of the two bots (alternating seats, rotated) plays the same
    deals; one sample per deal set, as the arena computes its intervals."""
    rules = load_ruleset(game)
    diffs: list[float] = []
    exact_diffs: list[float] = []
    for deal_set in range(deal_sets):
        score = [0.0, 0.0]
        exact = [0, 0]
        seats_of = [0, 0]
        for rotation in range(players):
            kinds = [(seat + rotation) % 2 for seat in range(players)]  # 1: AFTER
            bots: list[heuristic.HeuristicBot] = [
                heuristic.HeuristicBot(seed=seed + 13 * deal_set + seat)
                if kind
                else BeforeBot(seed=seed + 13 * deal_set + seat)
                for seat, kind in enumerate(kinds)
            ]
            state = new_game(rules, players=players, seed=seed + deal_set)
            play_game(state, bots)
            for hand in state.history:
                for seat, kind in enumerate(kinds):
                    score[kind] += hand.hand_scores[seat]
                    exact[kind] += int(hand.tricks[seat] == hand.bids[seat])
                    seats_of[kind] += 1
        diffs.append(score[1] / seats_of[1] - score[0] / seats_of[0])
        exact_diffs.append(exact[1] / seats_of[1] - exact[0] / seats_of[0])
    ones = [1.0] * len(diffs)
    return mean_interval(diffs, ones), mean_interval(exact_diffs, ones)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per game and player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games-list", default="", help="comma-separated game ids")
    parser.add_argument("--players", default="", help="comma-separated player counts")
    parser.add_argument("--all-players", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument(
        "--strength",
        default="",
        help="GAME:PLAYERS,...: instead of the bids, score per hand AFTER minus BEFORE",
    )
    parser.add_argument("--deal-sets", type=int, default=30, help="deal sets per --strength")
    args = parser.parse_args(argv)
    if args.strength:
        for item in args.strength.split(","):
            game, count = item.split(":")
            score, exact = strength(game, int(count), args.deal_sets, args.seed)
            print(
                f"{game} {count} players, {args.deal_sets} deal sets: score per hand"
                f" after - before {score.mean:+.3f} +- {score.half_width or 0:.3f},"
                f" exact rate {exact.mean:+.3f} +- {exact.half_width or 0:.3f}"
            )
        return 0
    games = [g for g in args.games_list.split(",") if g] or bid_games()
    players: list[int] | None = [int(p) for p in args.players.split(",") if p] or None
    if args.all_players:
        players = list(range(2, 16))
    before = collect(games, players, args.games, args.seed, BEFORE)
    after = collect(games, players, args.games, args.seed, None)
    print("\n".join(table(before, after, args.markdown)))
    for label, hands in (("before", before), ("after", after)):
        print(ratio_line(label, hands))
        print(ratio_line(f"{label} (8+ cards)", hands, 8))
    return 0


if __name__ == "__main__":
    sys.exit(main())
