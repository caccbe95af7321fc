"""The bounded memo (:mod:`tricktaker.memo`): least recently used values dropped beyond
its size, values tied to a live owner dropped with it, never found for another object."""

from __future__ import annotations

import gc
import threading
from functools import partial

import pytest

from tricktaker.memo import Memo


class Owner:
    """An object a value is derived from."""


def test_a_value_is_computed_once_and_the_least_recently_used_goes_first() -> None:
    memo = Memo[str, int](maxsize=2)
    calls: list[str] = []

    def compute(key: str) -> int:
        calls.append(key)
        return len(key)

    assert memo.get("a", lambda: compute("a")) == 1
    assert memo.get("bb", lambda: compute("bb")) == 2
    assert memo.get("a", lambda: compute("a")) == 1  # "a" is now the most recent
    assert memo.get("ccc", lambda: compute("ccc")) == 3  # drops "bb"
    assert calls == ["a", "bb", "ccc"]
    assert "a" in memo
    assert "bb" not in memo
    assert len(memo) == 2
    assert (memo.hits, memo.misses) == (1, 3)
    memo.clear()
    assert len(memo) == 0


def test_values_of_an_owner_go_with_it_and_never_reach_another_object() -> None:
    memo = Memo[int, str](maxsize=8)
    first = Owner()
    assert memo.get(1, lambda: "first", owner=first) == "first"
    assert memo.get(1, lambda: "never", owner=first) == "first"
    assert memo.contains(1, owner=first)
    del first
    gc.collect()
    assert len(memo) == 0
    # Objects made and dropped one after another often get the same id(): none sees a
    # value of an earlier one.
    for round_ in range(50):
        owner = Owner()
        text = f"round {round_}"
        assert memo.get(1, partial(str, text), owner=owner) == text
        del owner
    gc.collect()
    assert len(memo) == 0


def test_an_owner_with_no_values_left_is_not_held() -> None:
    memo = Memo[int, int](maxsize=1)
    owner = Owner()
    memo.get(1, lambda: 1, owner=owner)
    memo.get(2, lambda: 2)  # drops the owner's only value
    assert not memo.contains(1, owner=owner)
    assert memo._owners == {}


def test_threads_share_one_memo() -> None:
    memo = Memo[int, int](maxsize=16)
    owners = [Owner() for _ in range(4)]
    errors: list[BaseException] = []

    def work(start: int) -> None:
        try:
            for step in range(2000):
                key = (start + step) % 32
                owner = owners[step % 4]
                double = key * 2
                assert memo.get(key, partial(int, double), owner=owner) == double
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(memo) <= 16


def test_a_memo_keeps_at_least_one_value() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Memo[int, int](maxsize=0)


def test_the_memo_is_the_bottom_layer() -> None:
    """Every layer may use the memo: it imports nothing of the package."""
    import ast
    from pathlib import Path

    import tricktaker.memo

    tree = ast.parse(Path(tricktaker.memo.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not [name for name in imported if name.startswith("tricktaker")]


def test_peek_and_put_revise_a_kept_value_without_computing() -> None:
    """A value revised as more is learnt (the kernel's check that a ruleset's results
    depend on the team's tricks only) is read without computing and replaced in place."""

    class Rules:
        pass

    memo = Memo[int, tuple[bool, int]](maxsize=2)
    rules = Rules()
    assert memo.peek(4, owner=rules) is None
    memo.put(4, (True, 1), owner=rules)
    memo.put(4, (True, 2), owner=rules)
    assert memo.peek(4, owner=rules) == (True, 2)
    assert memo.peek(4, owner=Rules()) is None
    assert len(memo) == 1
    memo.put(5, (False, 1), owner=rules)
    memo.put(6, (False, 1), owner=rules)
    assert memo.peek(4, owner=rules) is None  # the least recently used went
    del rules
    assert len(memo) == 0
