"""Bot seats' names (tricktaker.bots.names)."""

from __future__ import annotations

from tricktaker.bots.names import BOT_NAMES, bot_name


def test_at_least_sixteen_short_distinct_names() -> None:
    assert len(BOT_NAMES) >= 16
    assert len({n.casefold() for n in BOT_NAMES}) == len(BOT_NAMES)
    assert all(len(n) <= 5 for n in BOT_NAMES)


def test_never_a_taken_name_case_insensitive() -> None:
    taken: list[str] = []
    for seat in range(40):
        name = bot_name(seat % 6, taken)
        assert name.casefold() not in {t.casefold() for t in taken}
        taken.append(name.upper() if seat % 2 else name)


def test_deterministic_and_in_seat_order() -> None:
    assert [bot_name(s, ["You"]) for s in range(4)] == ["Ada", "Ben", "Cleo", "Dot"]
    assert bot_name(3, ["dot"]) == bot_name(3, ["DOT"]) == "Eli"
