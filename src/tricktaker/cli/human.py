"""Reading a person's decisions: bids, cards, the game's own actions (a caller's calls,
plucks, auctions, discards, antes) and table commands.

The words of a game's own actions (how its choices are listed, what a typed word means,
the question asked) come from the game's ``present`` capability
(:class:`~tricktaker.present.game.GamePresent`); this module names no game's action kinds.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tricktaker.cards import (
    RANK_LABELS,
    CardError,
    card_rank,
    format_card,
    parse_card,
    parse_suit,
)
from tricktaker.coach.model import Hint, value_unit
from tricktaker.engine import Action, Observation
from tricktaker.engine.actions import (
    BID,
    PLAY,
    PLAY_PILE,
    ActionParseError,
    action_kinds,
    bid,
    play,
)
from tricktaker.present.game import GamePresent, game_present
from tricktaker.present.text import display_order, value_type, words

from .render import Cards, paint

HELP_WORDS = frozenset({"?", "help", "h"})
QUIT_WORDS = frozenset({"quit", "exit", "q"})
SCORE_WORDS = frozenset({"score", "scores", "scorecard"})
HINT_WORDS = frozenset({"hint", "hints"})
HINT_SECONDS = 1.0
"""The time the coach takes to value a decision when ``hint`` is typed."""
NUMBER = re.compile(r"^[+-]?\d+$")
STANDARD_PHASES = frozenset({"bidding", "playing"})
MAX_INPUT = 40
"""The longest line read as a choice (every choice is shorter); longer lines are cut
to this length when quoted back."""
RANK_WORDS: dict[str, int] = {label.lower(): rank for rank, label in enumerate(RANK_LABELS)} | {
    "t": 8
}
"""A bare rank as typed: ``q``, ``10``, ``t`` (ten), ``a``."""
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip


def quoted(text: str, limit: int = MAX_INPUT) -> str:
    """Text a person typed, quoted for a message and cut to ``limit`` characters.

    >>> quoted("zz"), quoted("x" * 60, limit=8)
    ("'zz'", "'xxxxxxx…'")
    """
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


@dataclass(frozen=True, slots=True)
class Reply:
    """What a line of input means: an action, a table command, or an error to show."""

    action: Action | None = None
    command: str | None = None
    error: str | None = None


def is_card_action(action: Action) -> bool:
    """Whether the action's value is a card (``play``, ``pluck``, ``discard`` ...)."""
    return value_type(action.kind) == "card"


def action_label(
    action: Action, cards: Cards, game: GamePresent, *, bare_cards: bool = True
) -> str:
    """An action as shown in lists: ``A♠``, ``2``, ``pluck 7♥``; the game's own actions
    as ``game`` (the game's ``present`` capability) lists them: ``no_trump``, ``done``."""
    if action.kind == PLAY_PILE:
        return "next card of your pile"
    own = game.choice_label(action, cards)
    if own is not None:
        return own
    if is_card_action(action) and isinstance(action.value, int):
        card = cards.card(action.value)
        return card if bare_cards or action.kind == PLAY else f"{words(action.kind)} {card}"
    if value_type(action.kind) == "none":
        return words(action.kind)
    if action.kind == BID:
        return str(action.value)
    return f"{words(action.kind)} {words(str(action.value))}"


def card_choice(obs: Observation) -> str | None:
    """The action kind (``play``, ``pluck``, ``discard`` ...) when the seat chooses a card
    of its hand: every card action legal now is of that one kind and takes a card it holds.
    The hand is then numbered, and a number picks that card."""
    hand = obs.hand
    if hand is None:
        return None
    kinds = set()
    for action in obs.legal_actions:
        if is_card_action(action):
            if not isinstance(action.value, int) or not hand >> action.value & 1:
                return None
            kinds.add(action.kind)
    return kinds.pop() if len(kinds) == 1 else None


def card_action(kind: str, card: int) -> Action:
    """The action of ``kind`` with ``card`` (``play(card)`` for a play)."""
    return play(card) if kind == PLAY else Action(kind, card)


def legal_cards(obs: Observation) -> frozenset[int] | None:
    """The cards the seat may choose, when it chooses a card of its hand (else None)."""
    kind = card_choice(obs)
    if kind is None:
        return None
    return frozenset(int(a.value) for a in obs.legal_actions if a.kind == kind)


def numbered_choices(obs: Observation) -> list[tuple[int, Action]]:
    """What each number picks: when the seat chooses a card of its hand, the cards in the
    order the hand shows them (legal or not: a refusal then says why), then the other
    legal actions; otherwise the legal actions in order."""
    kind = card_choice(obs)
    if kind is None:
        return list(enumerate(obs.legal_actions, 1))
    choices = [card_action(kind, card) for card in display_order(obs)]
    choices += [a for a in obs.legal_actions if a.kind != kind]
    return list(enumerate(choices, 1))


def in_display_order(obs: Observation, cards: Collection[int]) -> list[int]:
    """``cards`` in the order the seat's hand shows them (any not held after, in id order)."""
    order = display_order(obs)
    return [c for c in order if c in cards] + sorted(c for c in cards if c not in order)


def value_phase(obs: Observation) -> bool:
    """Whether a bare number is the value itself (bids, a lone number kind: a caller's
    hand sizes)."""
    if obs.phase == "bidding":
        return True
    kinds = {a.kind for a in obs.legal_actions}
    return len(kinds) == 1 and value_type(next(iter(kinds))) == "int"


def numbered_phase(obs: Observation) -> bool:
    """Whether a bare number picks from the list (it is the value when bidding or sizing)."""
    return not value_phase(obs)


def lists_choices(obs: Observation) -> bool:
    """Whether the legal choices are listed before asking (word choices of a game phase;
    not numbers, which are asked with their range)."""
    if obs.phase in STANDARD_PHASES or not obs.legal_actions or value_phase(obs):
        return False
    return not all(is_card_action(a) for a in obs.legal_actions) or len(obs.legal_actions) == 1


def show_choices(console: Console, obs: Observation, cards: Cards) -> None:
    """The legal actions, numbered where a number picks one."""
    legal = obs.legal_actions
    if not numbered_phase(obs):
        values = ", ".join(str(a.value) for a in legal)
        console.print(Text(f"Legal: {values}"))
        return
    bare = len({a.kind for a in legal}) == 1
    game = game_present(obs.rules)
    items = [
        Text(f"{i}) {action_label(a, cards, game, bare_cards=bare)}")
        for i, a in numbered_choices(obs)
        if a in legal
    ]
    items = [paint(console, item) for item in items]
    console.print(Text("Legal:"), Columns(items, padding=(0, 3)))


def prompt_text(obs: Observation, cards: Cards | None = None) -> str:
    legal = obs.legal_actions
    if obs.phase == "bidding":
        values = [int(a.value) for a in legal]
        if len(values) == 1:
            return f"Your bid (only {values[0]} is allowed; Enter takes it): "
        if values == list(range(values[0], values[-1] + 1)):
            return f"Your bid ({values[0]}-{values[-1]}): "
        return f"Your bid ({', '.join(map(str, values))}): "
    cards = cards or Cards(symbols=False)
    game = game_present(obs.rules)
    own = game.prompt(obs, cards)
    if own is not None:
        return own
    if legal and legal[0].kind == PLAY_PILE:
        return "Play the next card of your pile (Enter): "
    if len(legal) == 1 and legal[0].kind == PLAY and isinstance(legal[0].value, int):
        return f"Your card (Enter plays {cards.card(legal[0].value)}, your only legal card): "
    if obs.phase == "playing" or not legal:
        how = "its number, or e.g. AS, 10h, q" if card_choice(obs) else "e.g. AS, 10h"
        return f"Your card ({how}; ? lists the legal ones): "
    return game_prompt(legal, cards, game)


def game_prompt(legal: tuple[Action, ...], cards: Cards, game: GamePresent) -> str:
    """The prompt of a game's own phase, from the kinds of action now legal (the game's
    own question, :meth:`GamePresent.prompt`, is asked first)."""
    if len(legal) == 1:
        only = action_label(legal[0], cards, game, bare_cards=False)
        return f"Your move: {only} is the only choice (Enter takes it): "
    kinds = sorted({a.kind for a in legal}, key=[a.kind for a in legal].index)
    card_kinds = [k for k in kinds if value_type(k) == "card"]
    if card_kinds and len(card_kinds) == len(kinds):
        return f"Card to {words(' or '.join(card_kinds))} (its number or e.g. 7h; ? lists them): "
    shown = ", ".join(words(k) for k in kinds)
    return f"Your choice ({shown}: a number from the list, a word or an action): "


def _from_text(raw: str, obs: Observation, cards: Cards) -> Reply:
    """Exact action text such as ``play AS``, ``bid 2``, ``pluck 7h``, ``auction 4h``."""
    try:
        action = Action.parse(raw, labels=cards.labels)
    except ActionParseError as exc:
        same = [a for a in obs.legal_actions if a.kind == raw.lower()]
        if len(same) == 1:
            return Reply(action=same[0])
        return Reply(error=str(exc))
    if value_type(action.kind) == "str":
        for legal in obs.legal_actions:
            if legal.kind == action.kind and str(legal.value).lower() == str(action.value).lower():
                return Reply(action=legal)
        # a suit named where the kind's values are suit letters (``call_trump hearts``)
        return _suit_word(str(action.value), obs, kind=action.kind) or Reply(action=action)
    for legal in obs.legal_actions:
        if legal == action:
            return Reply(action=legal)
    return Reply(action=action)


def _suit_word(word: str, obs: Observation, *, kind: str | None = None) -> Reply | None:
    """A suit named where a suit-valued action (``call_trump S``) is legal (of ``kind``,
    when given)."""
    try:
        letter = "CDHS"[parse_suit(word)]
    except CardError:
        return None
    for legal in obs.legal_actions:
        if kind is not None and legal.kind != kind:
            continue
        if value_type(legal.kind) == "str" and str(legal.value).upper() == letter:
            return Reply(action=legal)
    return None


def _game_word(raw: str, obs: Observation, cards: Cards) -> Reply | None:
    """A bare word in a game's phase: a legal action's value (``4h``, ``nt``, ``kept``),
    a suit where a suit is asked, a word of the game's own (its ``present``
    capability's :meth:`~tricktaker.present.game.GamePresent.read_word`: ``done``, a bid
    to refuse), or a card where card actions are legal."""
    key = raw.lower().replace(" ", "_").replace("-", "_")
    for legal in obs.legal_actions:
        kind_type = value_type(legal.kind)
        if kind_type == "str" and str(legal.value).lower() == key:
            return Reply(action=legal)
        if kind_type == "none" and legal.kind == key:
            return Reply(action=legal)
    suit = _suit_word(raw, obs)
    if suit is not None:
        return suit
    own = game_present(obs.rules).read_word(raw, obs)
    if isinstance(own, Action):
        return Reply(action=own)
    if own is not None:
        return Reply(error=own)
    card_kinds = sorted({a.kind for a in obs.legal_actions if is_card_action(a)})
    if not card_kinds:
        return None
    try:
        card = parse_card(raw, labels=cards.labels)
    except CardError as exc:
        return Reply(error=str(exc))
    for legal in obs.legal_actions:
        if is_card_action(legal) and legal.value == card:
            return Reply(action=legal)
    if len(card_kinds) == 1:
        return Reply(action=play(card) if card_kinds[0] == PLAY else Action(card_kinds[0], card))
    return Reply(
        error=f"{quoted(raw)}: say which, e.g. {' or '.join(f'{k} {raw}' for k in card_kinds)}"
    )


def read_reply(text: str, obs: Observation, cards: Cards) -> Reply:
    """Understand one line typed by the seat in ``obs`` (legality is checked later)."""
    raw = text.strip()
    word = raw.lower()
    legal = obs.legal_actions
    if not word:
        if len(legal) == 1:
            return Reply(action=legal[0])
        return Reply(error="type your choice (? lists the legal ones)")
    if len(raw) > MAX_INPUT:
        return Reply(error=f"{quoted(raw)} is too long to be a choice (? lists the legal ones)")
    if word in HELP_WORDS:
        return Reply(command="help")
    if word in QUIT_WORDS:
        # ``q`` is the queen while choosing a card and holding one; ``quit`` always quits
        choosing = word == "q" and any(is_card_action(a) for a in legal)
        queen = _rank(word, obs, cards) if choosing else None
        return queen or Reply(command="quit")
    if word in SCORE_WORDS:
        return Reply(command="scores")
    if word in HINT_WORDS:
        return Reply(command="hint")
    pile = bool(legal) and legal[0].kind == PLAY_PILE
    if pile and word in ("play", "pile", "p", "next"):
        return Reply(action=legal[0])
    if word.split()[0] in action_kinds():
        return _from_text(raw, obs, cards)
    if NUMBER.match(word):
        return _number(int(word), obs, cards)
    if word in RANK_WORDS and any(is_card_action(a) for a in legal):
        rank = _rank(word, obs, cards)
        return rank or Reply(error=f"you hold no {RANK_NAMES[RANK_WORDS[word]]}")
    phase = obs.phase
    if phase == "bidding":
        return Reply(error=f"{raw!r} is not a bid: type a number of tricks, like 2")
    reply = _game_word(raw, obs, cards)
    if reply is not None:
        return reply
    if phase == "playing":
        try:
            return Reply(action=play(parse_card(raw, labels=cards.labels)))
        except CardError as exc:
            return Reply(error=str(exc))
    return Reply(error=f"{quoted(raw)} is not understood (? lists the legal choices)")


def _number(number: int, obs: Observation, cards: Cards) -> Reply:
    legal = obs.legal_actions
    if obs.phase == "bidding":
        return Reply(action=bid(number))
    if value_phase(obs):
        return Reply(action=Action(legal[0].kind, number))
    choices = dict(numbered_choices(obs))
    if number in choices:
        return Reply(action=choices[number])
    if card_choice(obs) is not None:
        rank = _rank(str(number), obs, cards)
        if rank is not None:
            return rank
        return Reply(
            error=f"{number} is not a card number: your cards are numbered 1 to"
            f" {len(obs.my_cards)} (? lists the legal ones)"
        )
    return Reply(error=f"{number} is not in the list: pick 1 to {len(choices)} (? lists them)")


def _rank(word: str, obs: Observation, cards: Cards) -> Reply | None:
    """A bare rank (``q``, ``10``): the one legal card of that rank; when several are
    legal, which to type; the one card of that rank held (refused later, with the
    reason); None when no card of the hand has that rank."""
    rank = RANK_WORDS.get(word)
    if rank is None:
        return None
    matches = [
        a
        for a in obs.legal_actions
        if is_card_action(a) and isinstance(a.value, int) and card_rank(a.value) == rank
    ]
    distinct = in_display_order(obs, {int(a.value) for a in matches})
    if len(matches) == 1:
        return Reply(action=matches[0])
    if len(distinct) > 1:
        names = ", ".join(cards.card(c) for c in distinct[:-1]) + f" or {cards.card(distinct[-1])}"
        example = format_card(distinct[0], labels=cards.labels).lower()
        return Reply(error=f"{names}: type the suit too (e.g. {example})")
    if matches:
        return None  # one card, several kinds of action: the game's words decide
    kind = card_choice(obs)
    held = [c for c in display_order(obs) if card_rank(c) == rank]
    if kind is not None and len(held) == 1:
        return Reply(action=card_action(kind, held[0]))
    if held:
        names = " ".join(cards.card(c) for c in held)
        return Reply(
            error=f"no {RANK_NAMES[rank]} may be chosen now ({names}); ? lists the legal cards"
        )
    return None


def hint_table(obs: Observation, hint: Hint, cards: Cards) -> Table:
    """Every legal choice with its value (the points the seat can expect from the hand,
    ± the standard error; a percentage where the values are chances, as the chance that
    the table is exact in a cooperative ruleset), the chance of making the bid where
    there is one, and the coach's choice marked; the best first."""
    game = game_present(obs.rules)
    chance_values = value_unit(obs.rules).chance
    bare = len({c.action.kind for c in hint.choices}) == 1
    chances = any(choice.make_chance is not None for choice in hint.choices)
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    table.add_column("choice")
    table.add_column("value", justify="right")
    if chances:
        table.add_column("makes bid", justify="right")
    table.add_column("")
    numbers = {a: n for n, a in numbered_choices(obs)} if numbered_phase(obs) else {}
    for choice in hint.choices:
        shown = action_label(choice.action, cards, game, bare_cards=bare)
        if choice.action.kind == BID and not bare:
            shown = f"bid {shown}"
        if choice.action in numbers:
            shown = f"{numbers[choice.action]}) {shown}"
        shown_value = (
            chance_with_error(choice.mean, choice.stderr, symbols=cards.symbols)
            if chance_values
            else value_with_error(choice.mean, choice.stderr, symbols=cards.symbols)
        )
        row = [shown, shown_value]
        if chances:
            chance = choice.make_chance
            row.append(f"{chance:.0%}" if chance is not None else "")
        marker = "← coach" if cards.symbols else "<- coach"
        row.append(marker if choice.action == hint.best else "")
        table.add_row(*row, style="bold" if choice.action == hint.best else "")
    for column in table.columns:
        column.highlight = True  # with the console's highlighter: the suit colours
    return table


def value_with_error(mean: float, stderr: float, *, symbols: bool = True) -> str:
    """A value and its standard error, to one decimal, or two where the error is below
    0.05 (so that it does not read as 0); in plain ASCII without ``symbols``.

    >>> value_with_error(7.04, 0.31), value_with_error(-2.5, 0.012)
    ('7.0 ± 0.3', '−2.50 ± 0.01')
    >>> value_with_error(-2.5, 0.012, symbols=False)
    '-2.50 +/- 0.01'
    """
    places = 1 if stderr >= 0.05 else 2
    if not symbols:
        return f"{mean:.{places}f} +/- {stderr:.{places}f}"
    return f"{mean:.{places}f} ± {stderr:.{places}f}".replace("-", "\N{MINUS SIGN}")


def chance_with_error(chance: float, stderr: float, *, symbols: bool = True) -> str:
    """A chance and its standard error as percentages, whole, or to one decimal where
    the error is below half a percent; in plain ASCII without ``symbols``.

    >>> chance_with_error(0.6234, 0.031), chance_with_error(1.0, 0.0)
    ('62% ± 3%', '100.0% ± 0.0%')
    >>> chance_with_error(0.6234, 0.031, symbols=False)
    '62% +/- 3%'
    """
    places = 0 if stderr >= 0.005 else 1
    sign = "±" if symbols else "+/-"
    return f"{chance:.{places}%} {sign} {stderr:.{places}%}"


def show_hint(console: Console, obs: Observation, cards: Cards) -> Hint:
    """Ask the coach (:func:`tricktaker.coach.values.hint`, from ``obs`` alone) and show
    its values for every legal choice, how they were estimated and what they assume."""
    from tricktaker.coach.values import hint as coach_hint

    if console.is_terminal:
        with console.status("The coach is thinking…"):
            hint = coach_hint(obs, seconds=HINT_SECONDS)
    else:
        hint = coach_hint(obs, seconds=HINT_SECONDS)
    print_hint(console, obs, hint, cards)
    return hint


def print_hint(console: Console, obs: Observation, hint: Hint, cards: Cards) -> None:
    """Show ``hint``'s values for ``obs``'s choices (:func:`hint_table`), how they were
    estimated and what they assume (``tricktaker play``'s and ``join``'s ``hint``)."""
    deals = min((choice.samples for choice in hint.choices), default=0)
    how = "exact, every deal" if hint.exact else f"{deals} deals, {hint.seconds:.1f} s"
    unit = value_unit(obs.rules)
    about = (
        f"the {unit.name} this hand"
        if unit.chance
        else f"{unit.name} you can expect from this hand"
    )
    console.print(Text(f"Coach ({how}): {about}", style="bold"))
    console.print(hint_table(obs, hint, cards))
    console.print(Text(f"Assuming {hint.model}.", style="dim"))
