"""Narration from one seat's observations before and after a step, in known situations
of each game; cards only the seat may know are named to it alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.present.helpers import NAMES, Step, cards_named, steps
from tricktaker.engine import Action
from tricktaker.present import SYMBOLS, present_json
from tricktaker.present.narrate import Narration, narrate
from tricktaker.present.text import CardText


def first_step(game: str, match: Callable[[Step], bool], **kwargs: object) -> Step:
    """The first step of a bot game that ``match`` accepts."""
    for step in steps(game, **kwargs):  # type: ignore[arg-type]
        if match(step):
            return step
    raise AssertionError(f"no such step in {game}")


def told(step: Step, seat: int, names: tuple[str, ...] = NAMES) -> list[Narration]:
    return narrate(
        step.before[seat],
        step.after[seat],
        names[: len(step.after)],
        SYMBOLS,
        actor=step.actor,
        action=step.action,
    )


def texts(step: Step, seat: int) -> list[str]:
    return [line.text for line in told(step, seat)]


def acted(kind: str) -> Callable[[Step], bool]:
    return lambda step: step.action is not None and step.action.kind == kind


def test_a_pluck_names_the_card_only_to_the_two_players_of_it() -> None:
    """docs/games/pluck.md, Plucks: the plucker passes the victim a card face down; only
    the two players of a pluck see the cards that change hands."""
    step = first_step("pluck", acted("pluck"))
    assert step.actor is not None
    assert step.action is not None
    plucker, card = step.actor, SYMBOLS.card(int(step.action.value))
    pluckee = step.before[plucker].extra["plucks_pending"][0][1]
    other = 3 - plucker - pluckee
    start = f"{NAMES[plucker]} plucks {NAMES[pluckee]}, giving"
    assert texts(step, plucker) == [f"{start} {card}."]
    assert texts(step, pluckee) == [f"{start} {card}."]
    assert texts(step, other) == [f"{start} a card face down."]
    assert told(step, plucker)[0].public == f"{start} a card face down."
    you = ("You", *NAMES[1:])
    if plucker == 0:
        assert told(step, 0, you)[0].text == f"You pluck {NAMES[pluckee]}, giving {card}."
    elif pluckee == 0:
        assert told(step, 0, you)[0].text == f"{NAMES[plucker]} plucks you, giving {card}."


def test_the_card_given_back_is_named_to_the_plucker_who_now_holds_it() -> None:
    """docs/games/pluck.md, Plucks: the victim hands back their highest card of that
    suit; the third player sees only that a card went back."""
    step = first_step("pluck", acted("give_back"))
    assert step.actor is not None
    assert step.action is not None
    pluckee = step.actor
    plucker = step.after[pluckee].extra["plucks"][-1]["plucker"]
    other = 3 - plucker - pluckee
    card = SYMBOLS.card(int(step.action.value))
    assert texts(step, plucker)[0] == f"{NAMES[pluckee]} gives back {card} to {NAMES[plucker]}."
    assert texts(step, other)[0] == f"{NAMES[pluckee]} gives back a card to {NAMES[plucker]}."


def test_the_dealer_names_trump_in_pluck() -> None:
    """docs/games/pluck.md, Deal and trump: after the plucks the dealer names trump."""
    step = first_step("pluck", acted("call_trump"))
    assert step.action is not None
    suit = SYMBOLS.suit("CDHS".index(str(step.action.value)))
    for seat in range(3):
        assert texts(step, seat) == [
            f"{NAMES[step.before[seat].dealer]} names {suit} as trump.",
            f"Trump: {suit}",
        ]


def test_the_kitty_is_named_to_the_declarer_alone() -> None:
    """docs/games/euchre.md, Kitty and discard: only the declarer ever sees the kitty
    and the discards."""
    step = first_step("euchre", lambda s: s.after[0].extra.get("contract") is not None, seed=1)
    declarer = step.after[0].extra["contract"]["declarer"]
    kitty = step.after[declarer].extra["kitty"]
    for seat in range(4):
        line = next(line for line in told(step, seat) if line.kind == "contract")
        named = cards_named(line.text)
        assert named == (set(kitty) if seat == declarer else set())
        assert line.public is not None
        assert cards_named(line.public) == set()
        assert "takes the kitty" in line.text
    discard = first_step("euchre", acted("discard"), seed=1)
    assert discard.actor is not None
    assert texts(discard, (discard.actor + 1) % 4) == [f"{NAMES[discard.actor]} discards a card."]
    assert cards_named(texts(discard, discard.actor)[0])


def test_sequential_bids_and_tricks_are_told_to_everyone() -> None:
    """docs/games/blackout.md, Bidding and Play: everyone sees the bids already made;
    the trick goes to its winner, and everyone sees its cards."""
    bid = first_step("blackout", acted("bid"))
    assert bid.actor is not None
    for seat in range(4):
        assert texts(bid, seat) == [f"{NAMES[bid.actor]} bids {bid.action.value}."]  # type: ignore[union-attr]
        assert told(bid, seat)[0].mine == (seat == bid.actor)
    trick = first_step(
        "blackout", lambda s: len(s.after[0].trick_winners) == 1 and not s.before[0].trick_winners
    )
    lines = told(trick, 2)
    assert [line.kind for line in lines] == ["play", "trick"]
    winner = trick.after[2].trick_winners[0]
    assert lines[1].text.startswith(f"{NAMES[winner]} wins the trick (")
    assert lines[1].bold
    assert [seat for seat, _ in lines[1].cards] == [s for s, _ in trick.after[2].tricks[0]]


def test_simultaneous_bids_stay_hidden_until_all_are_in() -> None:
    """docs/games/blackout.md, Options: with simultaneous_bidding nobody sees another bid
    until all are in."""
    options = {"simultaneous_bidding": True}
    first = first_step("blackout", acted("bid"), options=options)
    assert texts(first, 1) == [f"{NAMES[first.actor]} has bid (hidden until every bid is in)."]  # type: ignore[index]
    last = first_step(
        "blackout", lambda s: acted("bid")(s) and all(s.after[0].bid_made), options=options
    )
    revealed = told(last, 0)[-1]
    assert revealed.kind == "bids_revealed"
    assert revealed.text.startswith("Bids revealed: Ann ")


def test_the_end_of_a_hand_is_told_with_the_next_hands_heading() -> None:
    """docs/games/blackout.md, Hands and schedule: after a hand the deal passes on."""
    step = first_step(
        "blackout", lambda s: s.after[0].hands_played == 1 and s.before[0].hands_played == 0
    )
    kinds = [line.kind for line in told(step, 0)]
    assert kinds[-2:] == ["hand_over", "next_hand"]
    assert told(step, 0)[-2].text == "Hand 1 is over."
    assert told(step, 0)[-1].text.startswith("Hand 2 of ")


def test_antes_are_told_as_payments() -> None:
    """docs/games/buckup.md, Chips, antes and the pot: every player antes into the pot."""
    step = first_step("buckup", acted("ante"))
    lines = told(step, 0)
    assert lines[0].text.startswith(f"{NAMES[step.actor]} sets the ante: ante ")  # type: ignore[index]
    payment = [line for line in lines if line.kind == "payment"]
    assert payment
    assert payment[0].text.endswith(" (ante).")
    assert " pay " in payment[0].text


def test_caller_clag_calls_are_told() -> None:
    """docs/games/caller_clag.md, Hands and schedule: the caller chooses the hand size."""
    step = first_step("caller_clag", acted("call_size"), players=4)
    assert texts(step, 1)[0] == f"{NAMES[step.actor]} calls a hand of {step.action.value} cards."  # type: ignore[index, union-attr]


def test_the_hook_panel_names_the_forbidden_bid() -> None:
    """docs/games/blackout.md, Options: with the hook the dealer, who bids last, may not
    bring the total of the bids to the number of tricks."""
    step = first_step(
        "blackout",
        lambda s: (
            s.after[0].phase == "bidding"
            and sum(b is not None for b in s.after[0].bids) == 3
            and sum(b or 0 for b in s.after[0].bids) <= s.after[0].hand_size
        ),
        options={"hook": True},
    )
    last = step.after[0].to_act[0]
    obs = step.after[last]
    hook = present_json(obs, NAMES[:4])["panel"]["hook"]
    assert hook["seat"] == last == obs.dealer
    forbidden = obs.hand_size - sum(b or 0 for b in obs.bids)
    assert hook["forbidden"] == forbidden
    assert Action.parse(f"bid {forbidden}") not in obs.legal_actions
    assert hook["reason"] == f"the last bid may not make the total equal {obs.hand_size} tricks"


@pytest.mark.parametrize("symbols", [True, False])
def test_cards_are_written_as_the_console_can(symbols: bool) -> None:
    """Text uses suit symbols, or letters where a console cannot print them."""
    step = first_step("blackout", acted("play"))
    cards = CardText(symbols=symbols)
    line = narrate(
        step.before[0], step.after[0], NAMES[:4], cards, actor=step.actor, action=step.action
    )[0]
    assert any(symbol in line.text for symbol in "♣♦♥♠") == symbols
