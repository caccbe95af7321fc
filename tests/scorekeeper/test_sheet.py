"""The score sheet: the Bluke sample sheet, the rules checked at entry, corrections."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from tricktaker.scorekeeper import (
    CallEntry,
    EntryError,
    ScoreSheet,
    SheetError,
    sheet_from_json,
    sheet_to_csv,
    sheet_to_json,
    sheet_to_markdown,
)

BLUKE_TABLE = ["John", "Margaret", "Steve", "Betsy"]


def bluke_sample() -> ScoreSheet:
    """docs/games/bluke.md, Scoring, example 2: the hand of 13, John dealing."""
    sheet = ScoreSheet("bluke", BLUKE_TABLE)
    row = sheet.add(bids=[3, 3, 2, 5], tricks=[4, 0, 4, 5])
    assert row.hand_size == 13
    assert row.scores == (31, -30, 22, 50)
    return sheet


def test_bluke_sample_second_hand_as_printed_is_refused() -> None:
    """docs/games/bluke.md, Scoring, example 2 is the first hand of the traditional
    sample sheet, whose second hand (12 cards, bids 2, 4, 5, 3) is printed with tricks
    1, 2, 3, 5: they add up to 11, not 12. The tricks of a hand add up to its size, so
    the scorekeeper refuses that row and the sheet stays as it was."""
    sheet = bluke_sample()
    assert sheet.next_hand().hand_size == 12
    with pytest.raises(EntryError) as caught:
        sheet.add(bids=[2, 4, 5, 3], tricks=[1, 2, 3, 5])
    assert caught.value.rule == "tricks total the hand size"
    assert "1 + 2 + 3 + 5 = 11, not 12" in str(caught.value)
    assert len(sheet.rows) == 1
    assert sheet.totals == (31, -30, 22, 50)


@pytest.mark.parametrize("corrected", [[1, 3, 3, 5], [1, 2, 4, 5]])
def test_bluke_sample_totals_with_hand_12_corrected(corrected: list[int]) -> None:
    """docs/games/bluke.md, Scoring, example 2: the sample sheet's totals after its
    third hand (the later hand of 11 of the example). Its hand 12 lacks one trick;
    the printed scores (John, Margaret and Steve set, Betsy 2 over) stay the same when
    the missing trick went to Margaret (3 of 4) or to Steve (4 of 5), who stay set, and
    with either correction the third hand's totals are the sample's 22, -29, -18, 112."""
    sheet = bluke_sample()
    second = sheet.add(bids=[2, 4, 5, 3], tricks=corrected)
    assert second.totals == (11, -70, -28, 82)
    third = sheet.add(bids=[1, 4, 1, 3], tricks=[2, 5, 1, 3])
    assert third.hand_size == 11
    assert third.scores == (11, 41, 10, 30)
    assert third.totals == (22, -29, -18, 112)
    assert [sheet.counts(s) for s in range(4)] == [
        {"S": 1, "O": 2, "P": 0},
        {"S": 2, "O": 1, "P": 0},
        {"S": 1, "O": 1, "P": 1},
        {"S": 0, "O": 1, "P": 2},
    ]


def test_next_hand_tells_dealer_size_trump_and_bid_order() -> None:
    """docs/games/blackout.md, Bidding: the eldest bids first and the dealer last."""
    sheet = ScoreSheet("blackout", ["Ann", "Bob", "Cy", "Di"], first_dealer="Cy")
    nxt = sheet.next_hand()
    assert (nxt.number, nxt.dealer, nxt.hand_size) == (1, 2, 1)
    assert nxt.bid_order == (3, 0, 1, 2)
    assert nxt.trump_rule == "the turned-up card"


def test_hook_names_the_forbidden_bid() -> None:
    """docs/games/blackout.md, Options: with the hook the dealer may not bring the bids
    to the number of tricks in the hand."""
    sheet = ScoreSheet("blackout", ["Ann", "Bob", "Cy", "Di"], options={"hook": True})
    sheet.add(bids=[1, 0, 1, 0], tricks=[1, 0, 0, 0])  # hand of 1, Ann deals
    sheet.add(bids=[0, 0, 1, 0], tricks=[0, 1, 1, 0])  # hand of 2, Bob deals
    # Hand of 3, Cy deals: Di, Ann and Bob bid 1, 1, 0; Cy may not bid 1.
    with pytest.raises(EntryError) as caught:
        sheet.check_bids({3: 1, 0: 1, 1: 0, 2: 1})
    assert caught.value.rule == "hook rule"
    assert "Cy, the dealer, may not bid 1: the bids would total the 3 tricks" in str(caught.value)
    sheet.check_bids({3: 1, 0: 1, 1: 0, 2: 2})
    before = sheet.rows
    with pytest.raises(EntryError):
        sheet.add(bids=[1, 0, 1, 1], tricks=[1, 1, 1, 0])
    assert sheet.rows == before


def test_bid_range_and_minimum_bid() -> None:
    """docs/games/bluke.md, Bidding: nobody may bid zero (unless min_bid is 0), and a bid
    is at most the hand size."""
    sheet = ScoreSheet("bluke", BLUKE_TABLE)
    with pytest.raises(EntryError, match="Margaret may not bid 0: the lowest bid is 1"):
        sheet.check_bids({1: 0})
    with pytest.raises(EntryError, match="Margaret may not bid 14: a bid is from 1 to 13"):
        sheet.check_bids({1: 14})
    zero = ScoreSheet("bluke", BLUKE_TABLE, options={"min_bid": 0})
    zero.check_bids({1: 0})


def test_bids_must_total_the_hand_in_cooperative_blackout() -> None:
    """docs/games/coop_blackout.md, Bidding: the bids add up to exactly the hand size;
    docs/games/coop_blackout.md, Hands and schedule: a size is dealt again until every
    player is exact, and the game is won when the schedule is completed."""
    sheet = ScoreSheet("coop_blackout", ["Ann", "Bob"])
    with pytest.raises(EntryError) as caught:
        sheet.check_bids({1: 0, 0: 0})
    assert caught.value.rule == "bids total the hand size"
    missed = sheet.add(bids=[0, 1], tricks=[1, 0])
    assert not missed.all_exact
    assert missed.special == "missed: this size again"
    assert sheet.next_hand().hand_size == 1
    for size in range(1, 27):
        sheet.add(bids=[size, 0], tricks=[size, 0])
    assert sheet.is_over()
    assert sheet.winners() == (0, 1)
    with pytest.raises(EntryError, match="the team won"):
        sheet.next_hand()


def test_misere_hand_everyone_bids_zero() -> None:
    """docs/games/clag.md, Special hands: in hand 12, misère, every player bids 0."""
    sheet = ScoreSheet("clag", ["Ann", "Bob", "Cy", "Di"])
    while sheet.next_hand().number < 12:
        size = sheet.next_hand().hand_size
        assert size is not None
        sheet.add(bids=[0, 0, 0, 0], tricks=[size, 0, 0, 0])
    nxt = sheet.next_hand()
    assert nxt.misere
    with pytest.raises(EntryError, match="in a misere hand everyone bids 0"):
        sheet.check_bids({(nxt.dealer + 1) % 4: 1})
    row = sheet.add(bids=[None] * 4, tricks=[7, 0, 0, 0])
    assert row.bids == (0, 0, 0, 0)


def test_zero_bid_limit() -> None:
    """docs/games/kachuful.md, Bidding: with 6 or more players a player who has bid 0 in
    five hands in a row may not bid 0 in the next."""
    names = ["A", "B", "C", "D", "E", "F"]
    sheet = ScoreSheet("kachuful", names)
    for size in range(1, 6):
        sheet.add(bids=[0] * 6, tricks=[size, 0, 0, 0, 0, 0])
    assert sheet.next_hand().simultaneous
    with pytest.raises(EntryError, match="C may not bid 0 after 5 zero bids in a row"):
        sheet.check_bids({2: 0})
    sheet.check_bids({2: 1})


def test_tricks_are_checked() -> None:
    """docs/games/bluke.md, Scoring: each player's tricks are counted out of the hand."""
    sheet = ScoreSheet("bluke", BLUKE_TABLE)
    with pytest.raises(EntryError, match="Steve cannot take 14 tricks in a hand of 13"):
        sheet.add(bids=[1, 1, 1, 1], tricks=[0, 0, 14, 0])
    with pytest.raises(EntryError, match="give a bid and a trick count for each of the 4"):
        sheet.add(bids=[1, 1, 1], tricks=[13, 0, 0])
    assert sheet.rows == ()


def test_caller_clag_calls_and_madness() -> None:
    """docs/games/caller_clag.md, Scoring, example 2: ascending madness, hand of 4,
    three players, bids 2, 1, 0; tricks won by the first, second, first and third
    player score 18, 14 and 8."""
    sheet = ScoreSheet("caller_clag", ["Ann", "Bob", "Cy"], first_dealer="Cy")
    assert sheet.next_hand().called
    with pytest.raises(EntryError, match="Cy deals and calls the hand first"):
        sheet.add(bids=[2, 1, 0], tricks=[2, 1, 1])
    with pytest.raises(EntryError, match="the caller calls a hand of 3 to 7 cards, not 9"):
        sheet.check_call(CallEntry(9))
    with pytest.raises(EntryError, match="madness scoring cannot be added to a misere hand"):
        sheet.check_call(CallEntry(4, "misere", ("ascending_madness",)))
    call = CallEntry(4, "normal", ("ascending_madness",))
    with pytest.raises(EntryError, match="give who won each trick"):
        sheet.add(bids=[2, 1, 0], tricks=[2, 1, 1], call=call)
    row = sheet.add(bids=[2, 1, 0], tricks=[2, 1, 1], trick_winners=[0, 1, 0, 2], call=call)
    assert row.scores == (18, 14, 8)
    assert row.special == "4 cards, normal + ascending_madness"


def test_calls_only_in_caller_clag() -> None:
    """docs/games/bluke.md, Hands and schedule: the schedule, not a caller, sets the hand."""
    sheet = ScoreSheet("bluke", BLUKE_TABLE)
    with pytest.raises(EntryError, match="Bluke has no calls"):
        sheet.add(bids=[1, 1, 1, 1], tricks=[13, 0, 0, 0], call=CallEntry(5))


def test_trump_entry() -> None:
    """docs/games/kachuful.md, Deal and trump: the trump rotates, so the sheet knows it."""
    sheet = ScoreSheet("kachuful", ["A", "B", "C", "D"])
    assert sheet.trump_by_rule()
    assert sheet.add(bids=[0] * 4, tricks=[1, 0, 0, 0]).trump == "spades"
    bluke = ScoreSheet("bluke", BLUKE_TABLE)
    assert bluke.add(bids=[1] * 4, tricks=[13, 0, 0, 0], trump="H").trump == "hearts"
    with pytest.raises(EntryError, match="'purple' is not a trump"):
        bluke.add(bids=[1] * 4, tricks=[12, 0, 0, 0], trump="purple")


def test_fix_recomputes_later_hands_and_reports_changes() -> None:
    """docs/games/bluke.md, Scoring: correcting hand 1 changes every later total."""
    sheet = bluke_sample()
    sheet.add(bids=[2, 4, 5, 3], tricks=[1, 3, 3, 5])
    entry = sheet.entry(bids=[3, 3, 2, 5], tricks=[3, 1, 4, 5])
    changes = sheet.fix(1, entry)
    assert sheet.rows[0].scores == (30, -30, 22, 50)
    assert sheet.totals == (10, -70, -28, 82)
    assert {(c.hand, c.seat, c.what, c.old, c.new) for c in changes} == {
        (1, 0, "score", 31, 30),
        (1, 0, "total", 31, 30),
        (2, 0, "total", 11, 10),
    }
    bad = sheet.entry(bids=[3, 3, 2, 5], tricks=[3, 1, 4, 4])
    with pytest.raises(EntryError, match="hand 1: the tricks must add up"):
        sheet.fix(1, bad)
    assert sheet.totals == (10, -70, -28, 82)
    with pytest.raises(EntryError, match="there is no hand 5"):
        sheet.fix(5, entry)


def test_undo_takes_back_the_last_hand() -> None:
    """docs/games/bluke.md, Hands and schedule: after undo the 12-card hand is next again."""
    sheet = bluke_sample()
    sheet.add(bids=[2, 4, 5, 3], tricks=[1, 3, 3, 5])
    sheet.undo()
    assert len(sheet.rows) == 1
    assert sheet.next_hand().hand_size == 12
    sheet.undo()
    with pytest.raises(EntryError, match="no hand has been entered"):
        sheet.undo()


def test_players_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/games/bluke.md, Players and deck: 2 to 15 players. A game with Python rules
    that declares no scorekeeper steps has no sheet."""
    with pytest.raises(SheetError, match="same name"):
        ScoreSheet("bluke", ["Ann", "ann"])
    with pytest.raises(SheetError, match="no player is called 'Zed'"):
        ScoreSheet("bluke", ["Ann", "Bob"], first_dealer="Zed")
    with pytest.raises(ValueError, match="players"):
        ScoreSheet("bluke", ["Ann"])
    plugin = Path(__file__).resolve().parents[1] / "plugins" / "last_trick.toml"
    from tests.plugins.last_trick import LastTrickHooks  # registers the game's Python rules

    monkeypatch.setattr(LastTrickHooks, "capabilities", {})
    with pytest.raises(SheetError, match="does not keep the sheet of"):
        ScoreSheet(str(plugin), ["Ann", "Bob", "Cy", "Di"])


def test_json_round_trip_and_tampering() -> None:
    """docs/games/bluke.md, Scoring: a saved sheet reads back with the same totals; a
    score changed by hand is refused."""
    sheet = bluke_sample()
    sheet.add(bids=[2, 4, 5, 3], tricks=[1, 3, 3, 5])
    data = json.loads(json.dumps(sheet_to_json(sheet)))
    again = sheet_from_json(data)
    assert again.rows == sheet.rows
    data["hands"][1]["totals"]["Betsy"] = 92
    with pytest.raises(SheetError, match="Betsy has a total of 92, but the rules give 82"):
        sheet_from_json(data)
    data = json.loads(json.dumps(sheet_to_json(sheet)))
    data["hands"][0]["tricks"]["John"] = 5
    with pytest.raises(SheetError, match="hand 1: the tricks must add up"):
        sheet_from_json(data)
    with pytest.raises(SheetError, match="not a tricktaker score sheet"):
        sheet_from_json({"format": "other"})


def test_csv_and_markdown() -> None:
    """docs/games/bluke.md, Scoring: the sheet shows bids, scores and the S/O/P rows."""
    sheet = bluke_sample()
    lines = sheet_to_csv(sheet).splitlines()
    assert lines[0].startswith("hand,dealer,cards,trump,special,John bid,John tricks")
    assert lines[1] == "1,John,13,,,3,4,31,31,3,0,-30,-30,2,4,22,22,5,5,50,50"
    assert lines[2].startswith("S,")
    text = sheet_to_markdown(sheet)
    assert "| 1 | John | 13 |  | 3/4 +31 = 31 | 3/0 -30 = -30 |" in text
    assert "| P | Perfect | | | 0 | 0 | 0 | 1 |" in text


def test_the_scorekeeper_page_examples() -> None:
    """docs/scorekeeper.md, In Python: its examples run as written."""
    page = Path(__file__).resolve().parents[2] / "docs" / "scorekeeper.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_pluck_quotas_and_plucks_owed() -> None:
    """docs/games/pluck.md, Bidding: quotas of 7 (dealer), 6 (left) and 4 (right);
    Plucks: each trick above quota is a pluck to take next hand from a player who fell
    short; Scoring: the hand's result is the tricks against quota."""
    sheet = ScoreSheet("pluck", ["Ann", "Bob", "Cy"])
    first = sheet.next_hand()
    assert first.facts["quotas"] == (7, 6, 4)
    assert first.facts["plucks"] == ()
    assert not sheet.has_bids()
    with pytest.raises(EntryError, match="11, not 17"):
        sheet.add(tricks=[5, 5, 1])
    row = sheet.add(tricks=[9, 5, 3], trump="hearts")
    assert row.bids == (7, 6, 4)
    assert row.scores == (2, -1, -1)
    assert row.trump == "hearts"
    second = sheet.next_hand()
    assert second.dealer == 1
    assert second.facts["quotas"] == (4, 7, 6)
    assert second.facts["plucks"] == ((0, 1), (0, 2))
    assert "Ann plucks Bob once" in second.notes


def test_euchre_contracts_and_partnership_scores() -> None:
    """docs/games/euchre.md, Scoring: the worked examples with seats 1 and 3 declaring
    (Bob and Di); both partners carry their side's score; a thrown-in hand scores
    nothing. End of the game: the side that reaches the target wins."""
    names = ["Ann", "Bob", "Cy", "Di"]
    sheet = ScoreSheet("euchre", names, options={"target": 10})
    assert not sheet.has_bids()
    assert sheet.trump_by_rule()
    cases = [("3H", 3, (0, 1, 0, 1)), ("4S", 5, (0, 2, 0, 2)), ("4D", 3, (2, 0, 2, 0))]
    for contract, taken, scores in cases:
        row = sheet.add(tricks=[0, taken, 5 - taken, 0], contract=contract, declarer=1)
        assert row.scores == scores
    thrown = sheet.add(tricks=[0, 0, 0, 0])
    assert thrown.special == "thrown in"
    assert thrown.scores == (0, 0, 0, 0)
    with pytest.raises(EntryError, match="no tricks were played"):
        sheet.add(tricks=[1, 1, 2, 1])
    with pytest.raises(EntryError, match="'6H' is not a bid"):
        sheet.add(tricks=[5, 0, 0, 0], contract="6H", declarer=0)
    with pytest.raises(EntryError, match="give who won the auction"):
        sheet.add(tricks=[5, 0, 0, 0], contract="NT")
    for _ in range(4):
        sheet.add(tricks=[0, 5, 0, 0], contract="NT", declarer=1)
    assert sheet.is_over()
    assert sheet.totals == (2, 11, 2, 11)
    assert sheet.winners() == (1, 3)


def test_buckup_worked_example_chips_balance() -> None:
    """docs/games/buckup.md, Scoring, worked example: seat 3 deals, ante kept; seat 0
    folds, seat 1 draws 3, seat 2 draws 1, seat 3 draws 5; tricks 3, 2 and 0: stacks
    490, 513, 502, 440 and a pot of 55, adding up to the 2,000 chips of the start."""
    sheet = ScoreSheet("buckup", ["A", "B", "C", "D"], first_dealer="D")
    assert sheet.chips() == ((500, 500, 500, 500), 0)
    with pytest.raises(EntryError, match="B's decision is missing"):
        sheet.add(tricks=[0, 3, 2, 0], decisions=[("fold",)], drawn=[0, 3, 1, 5])
    with pytest.raises(EntryError, match="A is out of this hand and took no tricks"):
        sheet.add(
            tricks=[1, 2, 2, 0],
            decisions=[("fold",), ("stay",), ("stay",), ("stay",)],
            drawn=[0, 3, 1, 5],
        )
    with pytest.raises(EntryError, match="B cannot draw 6 cards"):
        sheet.add(
            tricks=[0, 3, 2, 0],
            decisions=[("fold",), ("stay",), ("stay",), ("stay",)],
            drawn=[0, 6, 1, 5],
        )
    row = sheet.add(
        ante="kept",
        tricks=[0, 3, 2, 0],
        decisions=[("fold",), ("stay",), ("stay",), ("stay",)],
        drawn=[0, 3, 1, 5],
    )
    assert row.scores == (-10, 13, 2, -60)
    assert row.special == "pot 0 -> 55"
    stacks, pot = sheet.chips() or ((), 0)
    assert stacks == (490, 513, 502, 440)
    assert sum(stacks) + pot == 2000


def test_buckup_dealer_obligation() -> None:
    """docs/games/buckup.md, Dealer's obligation: with exactly one other player in, the
    dealer must stay; with nobody else in, the dealer takes the pot without play."""
    sheet = ScoreSheet("buckup", ["A", "B", "C", "D"], first_dealer="D")
    with pytest.raises(EntryError) as caught:
        sheet.add(
            tricks=[0, 0, 0, 0],
            decisions=[("stay",), ("fold",), ("fold",), ("fold",)],
            drawn=[0, 0, 0, 0],
        )
    assert caught.value.rule == "Buckup: dealer's obligation"
    row = sheet.add(
        tricks=[0, 0, 0, 0], decisions=[("fold",), ("fold",), ("fold",)], drawn=[0, 0, 0, 0]
    )
    assert row.special == "pot 0 -> 0"
    assert sheet.chips() == ((490, 490, 490, 530), 0)
