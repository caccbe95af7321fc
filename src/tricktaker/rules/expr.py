"""Small, safe arithmetic formulas used by ruleset files (scoring, hand-size limits).

A formula is a Python-like expression over a fixed set of names (``bid``, ``tricks``,
``hand_size``, ``players``, ``k``, ``deck``), integer literals, ``+ - * //``,
``abs``, ``min``, ``max`` and conditional expressions ``a if cond else b`` with
comparisons. Nothing else is accepted, so a ruleset file cannot run code.

>>> f = compile_formula("10 * bid + (tricks - bid)", names=("bid", "tricks"))
>>> f(bid=3, tricks=5)
32
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

Formula = Callable[..., int]

_BINARY: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_FUNCTIONS: dict[str, Callable[..., int]] = {"abs": abs, "min": min, "max": max}


class FormulaError(ValueError):
    """A formula that is not in the allowed language."""


def _build(node: ast.AST, names: tuple[str, ...]) -> Callable[[dict[str, int]], Any]:
    if isinstance(node, ast.Expression):
        return _build(node.body, names)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        value = node.value
        return lambda env: value
    if isinstance(node, ast.Name):
        if node.id not in names:
            allowed = ", ".join(names)
            raise FormulaError(f"unknown name {node.id!r} (allowed: {allowed})")
        key = node.id
        return lambda env: env[key]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _build(node.operand, names)
        return lambda env: -inner(env)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        fn = _BINARY[type(node.op)]
        left, right = _build(node.left, names), _build(node.right, names)
        return lambda env: fn(left(env), right(env))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        cmp = _COMPARE[type(node.ops[0])]
        left, right = _build(node.left, names), _build(node.comparators[0], names)
        return lambda env: cmp(left(env), right(env))
    if isinstance(node, ast.BoolOp):
        parts = [_build(v, names) for v in node.values]
        if isinstance(node.op, ast.And):
            return lambda env: all(p(env) for p in parts)
        return lambda env: any(p(env) for p in parts)
    if isinstance(node, ast.IfExp):
        test, body, other = (_build(n, names) for n in (node.test, node.body, node.orelse))
        return lambda env: body(env) if test(env) else other(env)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
    ):
        fn_call = _FUNCTIONS[node.func.id]
        args = [_build(a, names) for a in node.args]
        return lambda env: fn_call(*(a(env) for a in args))
    raise FormulaError(f"{ast.unparse(node)!r} is not allowed in a formula")


def compile_formula(text: str, *, names: tuple[str, ...]) -> Formula:
    """Compile ``text`` into a function taking the ``names`` as keyword arguments."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"{text!r} is not a formula: {exc.msg}") from None
    body = _build(tree, names)

    def formula(**env: int) -> int:
        return int(body(env))

    return formula
