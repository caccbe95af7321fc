"""The fixed facts of one game (ruleset + player count), computed once and shared by clones."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tricktaker.cards import card_rank, card_suit, parse_card
from tricktaker.rules.ruleset import HandSpec, Ruleset, parse_deal_pattern

if TYPE_CHECKING:
    from tricktaker.engine.hooks import GameHooks


@dataclass(frozen=True, slots=True)
class Setup:
    """Flags read on hot paths, unpacked from the ruleset for one player count."""

    players: int
    deck: tuple[int, ...]
    schedule: tuple[HandSpec, ...]
    follow_suit: bool
    must_trump: bool
    trump_lead_after_broken: bool
    jokers_as_trump: bool
    simultaneous: bool
    hook: bool
    min_bid: int
    sum_equals_hand: bool
    zero_streak_limit: int | None
    trump_method: str
    when_no_card: str
    rotation: tuple[int, ...]
    dealer_step: int
    deal_counterclockwise: bool
    cooperative: bool
    advance_when_all_exact: bool
    max_hands: int | None
    called: bool
    called_hands: int
    called_min: int
    called_max: int
    labels: tuple[str, str]
    hooks: GameHooks | None
    opening_lead: int | None
    bowers: str | None
    deal_pattern: tuple[tuple[str, tuple[int, ...]], ...] | None
    partnerships: tuple[tuple[int, ...], ...]
    deck_mask: int = field(init=False, repr=False, compare=False)
    """The deck as a card set; worked out from :attr:`deck`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck_mask", sum(1 << card for card in self.deck))

    def deal_packets(self, seats: list[int], size: int) -> list[tuple[int, int]]:
        """``(seat, count)`` packets of the deal in order; seat -1 is the kitty."""
        if self.deal_pattern is None:
            return [(seats[i % self.players], 1) for i in range(size * self.players)]
        packets: list[tuple[int, int]] = []
        for target, counts in self.deal_pattern:
            if target == "kitty":
                packets.append((-1, counts[0]))
            else:
                packets.extend((seat, count) for seat, count in zip(seats, counts, strict=True))
        return packets

    @classmethod
    def of(cls, rules: Ruleset, players: int) -> Setup:
        """The setup for ``players`` seats, built once per ruleset and cached on it."""
        cached = rules.setups.get(players)
        if cached is None:
            cached = rules.setups[players] = cls._build(rules, players)
        assert isinstance(cached, Setup)
        return cached

    @classmethod
    def _build(cls, rules: Ruleset, players: int) -> Setup:
        rules.check_players(players)
        spec = rules.spec
        streak = spec.bidding.zero_streak_limit
        if streak is not None and players < spec.bidding.zero_streak_min_players:
            streak = None
        return cls(
            players=players,
            deck=rules.deck(players),
            schedule=rules.hands_for(players),
            follow_suit=spec.play.follow_suit,
            must_trump=spec.play.must_trump,
            trump_lead_after_broken=spec.play.trump_lead == "after_broken",
            jokers_as_trump=spec.play.jokers == "trump",
            simultaneous=spec.bidding.style == "simultaneous",
            hook=spec.bidding.hook,
            min_bid=spec.bidding.min_bid,
            sum_equals_hand=spec.bidding.sum_equals_hand,
            zero_streak_limit=streak,
            trump_method=spec.trump.method,
            when_no_card=spec.trump.when_no_card,
            rotation=rules.rotation,
            dealer_step=1 if spec.table.dealer_rotation == "left" else -1,
            deal_counterclockwise=spec.table.deal_direction == "counterclockwise",
            cooperative=rules.cooperative,
            advance_when_all_exact=spec.schedule.advance == "when_all_exact",
            max_hands=spec.schedule.max_hands,
            called=spec.schedule.called,
            called_hands=spec.schedule.called_hands,
            called_min=spec.schedule.called_min,
            called_max=spec.schedule.called_max,
            labels=rules.joker_labels,
            hooks=rules.hooks,
            opening_lead=parse_card(spec.play.opening_lead) if spec.play.opening_lead else None,
            bowers=spec.play.bowers,
            deal_pattern=parse_deal_pattern(
                spec.deal.pattern, players, rules.where("deal.pattern")
            ),
            partnerships=tuple(tuple(team) for team in spec.table.partnerships),
        )


def draw_for_dealer(
    rng: random.Random, players: int, *, break_ties_by_suit: bool
) -> tuple[int, list[tuple[int, int]]]:
    """The table ritual: each seat draws a card; highest rank deals.

    Ties on the highest rank are redrawn among the tied seats, or broken by suit
    (clubs lowest, spades highest). Returns the dealer and the ``(seat, card)`` draws.
    """
    pack = list(range(52))
    rng.shuffle(pack)
    draws: list[tuple[int, int]] = []
    contenders = list(range(players))
    while True:
        drawn = [(seat, pack.pop()) for seat in contenders]
        draws.extend(drawn)
        if break_ties_by_suit:
            return max(drawn, key=lambda d: (card_rank(d[1]), card_suit(d[1])))[0], draws
        top = max(card_rank(card) for _, card in drawn)
        contenders = [seat for seat, card in drawn if card_rank(card) == top]
        if len(contenders) == 1:
            return contenders[0], draws
