"""Euchre on a score sheet (docs/games/euchre.md, docs/scorekeeper.md): the table enters
the contract and who won the auction (the declarer bids it, everyone else passes), or
that all four passed (the hand is thrown in), then the tricks.

>>> from tricktaker.scorekeeper import ScoreSheet
>>> sheet = ScoreSheet("euchre", ["Ann", "Bob", "Cy", "Di"])
>>> sheet.add(tricks=[5, 0, 0, 0], contract="4H", declarer=0).scores
(2, 0, 2, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from tricktaker.engine.actions import Action
from tricktaker.games.euchre.hooks import AUCTION, PASS
from tricktaker.scorekeeper.entries import EntryError, SheetError
from tricktaker.scorekeeper.steps import HandTurn, SheetSteps, Step, TricksAsked

if TYPE_CHECKING:
    from tricktaker.engine import GameState, HandResult
    from tricktaker.scorekeeper.entries import HandEntry
    from tricktaker.scorekeeper.steps import GameEntry

__all__ = ["SCOREKEEPER", "EuchreEntry", "EuchreSheetSteps"]

RULE = "Euchre: auction"


@dataclass(frozen=True, slots=True)
class EuchreEntry:
    """The auction as the table reports it: the winning bid (``4H``, ``NT``) and the seat
    that won it; both None when all four passed."""

    contract: str | None = None
    declarer: int | None = None

    def to_json(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        """``contract`` and ``declarer``; in a sheet file, ``contract`` as
        ``{"bidder": NAME, "bid": "4H"}`` (null when all passed)."""
        if players is None:
            return {"contract": self.contract, "declarer": self.declarer}
        if self.contract is None or self.declarer is None:
            return {"contract": None}
        return {"contract": {"bidder": players[self.declarer], "bid": self.contract}}


class EuchreSheetSteps(SheetSteps):
    """Euchre's sheet: the contract and its declarer, then the tricks."""

    has_bids: ClassVar[bool] = False
    no_play: ClassVar[str] = "all four passed, so the hand was thrown in"

    def game_steps(self, state: GameState) -> tuple[Step, ...]:
        return (
            Step(
                name="contract",
                kind="seat_text",
                label="Contract",
                question="Who won the auction, with which bid?",
                hint="e.g. 4H, 5D, NT",
                seat_field="declarer",
                seat_question="Who won the auction",
                skip="All four passed",
                checked=True,
            ),
        )

    def entry(self, fields: Mapping[str, Any], players: Sequence[str]) -> EuchreEntry:
        contract, declarer = fields.get("contract"), fields.get("declarer")
        others = sorted(k for k, v in fields.items() if k not in ("contract", "declarer") and v)
        if others:
            raise EntryError(f"Euchre takes no {', '.join(others)}", rule="entry")
        if contract is not None and not isinstance(contract, str):
            raise EntryError("the contract is a bid such as 4H or NT", rule=RULE)
        if declarer is not None and (not isinstance(declarer, int) or isinstance(declarer, bool)):
            raise EntryError("the declarer is a seat's number", rule=RULE)
        text = contract.strip().upper() if contract else None
        return EuchreEntry(contract=text or None, declarer=declarer)

    def entry_from_file(self, hand: Mapping[str, Any], players: Sequence[str]) -> EuchreEntry:
        data = hand.get("contract")
        if data is None:
            return EuchreEntry()
        if not isinstance(data, Mapping):
            raise SheetError("'contract' has the wrong type")
        bid, bidder = data.get("bid"), data.get("bidder")
        if not isinstance(bid, str) or not isinstance(bidder, str):
            raise SheetError("'contract' needs its 'bid' and its 'bidder'")
        wanted = bidder.strip().casefold()
        seats = [s for s, name in enumerate(players) if name.casefold() == wanted]
        if not seats:
            raise SheetError(f"no player is called {bidder!r} (the players: {', '.join(players)})")
        return EuchreEntry(contract=bid.strip().upper() or None, declarer=seats[0])

    def trump_rule(self, state: GameState, *, pending: bool) -> str:
        return "the contract's suit, or no trump"

    def opening(self, eldest: str, *, simultaneous: bool) -> str:
        return f"{eldest} calls first in the auction"

    def notes(self, state: GameState, players: Sequence[str]) -> list[str]:
        teams = " against ".join(
            " & ".join(players[s] for s in team) for team in state.setup.partnerships
        )
        assert state.hooks is not None
        target = state.hooks.settings(state).target
        return [
            f"partnerships: {teams}; game to {target} points",
            "enter the contract (e.g. 4H or NT) and who won the auction",
        ]

    def special(self, result: HandResult) -> str | None:
        contract = result.extra.get("contract")
        if contract is None:
            return "thrown in"
        trump = str(contract["trump"]).replace("_", " ")
        return f"{contract['tricks']} {trump}"

    def tricks_asked(
        self, entry: GameEntry | None, players: Sequence[str], state: GameState
    ) -> TricksAsked:
        if not isinstance(entry, EuchreEntry) or entry.declarer is None:
            return TricksAsked(())
        declarer = entry.declarer
        side = next(t for t in state.setup.partnerships if declarer in t)
        who = " & ".join(players[s] for s in side)
        return TricksAsked(
            ((declarer, f"Tricks taken by {who}"),), rest=(declarer + 1) % len(players)
        )

    def check_entry(self, entry: HandEntry, players: Sequence[str]) -> None:
        game = entry.game
        assert game is None or isinstance(game, EuchreEntry)
        if game is None or game.contract is None:
            if game is not None and game.declarer is not None:
                raise EntryError("give the contract the bidder won", rule=RULE)
            return
        if game.declarer is None or not 0 <= game.declarer < len(players):
            raise EntryError("give who won the auction with the contract", rule=RULE)

    def take_step(self, state: GameState, turn: HandTurn) -> None:
        """The auction is the contract entered: the declarer bids it, everyone else
        passes; the kitty's discards are any legal ones."""
        if state.phase_name != AUCTION:
            super().take_step(state, turn)
            return
        seat = state.to_act()[0]
        game = turn.entry.game
        assert game is None or isinstance(game, EuchreEntry)
        if game is not None and game.contract is not None and seat == game.declarer:
            turn.act(state, seat, Action(AUCTION, game.contract))
        else:
            state.apply(seat, Action(PASS))


SCOREKEEPER = EuchreSheetSteps()
"""Euchre's ``scorekeeper`` capability."""
