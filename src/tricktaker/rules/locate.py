"""Where each key and value of a TOML text is: line and column for error messages.

:mod:`tomllib` reads a file but forgets positions; this scanner walks text that
``tomllib`` has already accepted and records, for every key path, the position of
its value (and of its key). Table headers, dotted keys, inline tables, arrays and
arrays of tables are followed; array elements are numbered from 0, as pydantic
numbers them in error locations.

>>> spots = locate('[bidding]\\nhook = "yes"\\n')
>>> spots[("bidding", "hook")]
Spot(line=2, column=8, key_line=2, key_column=1)
>>> spots[("bidding",)].line
1
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

Path = tuple[str | int, ...]

_BARE = re.compile(r"[A-Za-z0-9_-]*")
_SCALAR = re.compile(r"[^,\]}#\r\n]*")
_BASIC = re.compile(r'"(?:[^"\\]|\\.)*"')
_LITERAL = re.compile(r"'[^']*'")
_SPACES = re.compile(r"[ \t]*")
_BLANKS = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")


class Spot(NamedTuple):
    """1-based line and column of a value, and of the key that names it."""

    line: int
    column: int
    key_line: int
    key_column: int


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.line_starts = [0, *(found.end() for found in re.finditer("\n", text))]
        self.spots: dict[Path, Spot] = {}
        self.array_tables: dict[Path, int] = {}

    # ----------------------------------------------------------------- helpers

    def where(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, index) - 1
        return line + 1, index - self.line_starts[line] + 1

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.text[j] if j < len(self.text) else ""

    def skip_blanks(self, *, newlines: bool) -> None:
        """Skip spaces (and newlines and comments when ``newlines``)."""
        found = (_BLANKS if newlines else _SPACES).match(self.text, self.i)
        assert found is not None  # both patterns match the empty string
        self.i = found.end()

    def skip_line(self) -> None:
        end = self.text.find("\n", self.i)
        self.i = len(self.text) if end < 0 else end + 1

    def string(self) -> str:
        """Read a basic or literal string (single- or multi-line) at the cursor."""
        quote = self.peek()
        if self.text.startswith(quote * 3, self.i):
            start = self.i + 3
            end = self.text.find(quote * 3, start)
            while quote == '"' and end > 0 and _escaped(self.text, end):
                end = self.text.find(quote * 3, end + 1)
            end = len(self.text) if end < 0 else end
            while self.text.startswith(quote, end + 3):  # up to two quotes end the string
                end += 1
            self.i = end + 3
            return self.text[start:end]
        found = (_BASIC if quote == '"' else _LITERAL).match(self.text, self.i)
        end = found.end() if found else len(self.text)
        raw = self.text[self.i + 1 : end - 1]
        self.i = end
        if quote == '"' and "\\" in raw:
            try:
                return str(raw.encode("latin-1", "backslashreplace").decode("unicode_escape"))
            except UnicodeDecodeError:
                return raw
        return raw

    def key(self) -> list[tuple[str, int]]:
        """A dotted key: its parts, each with the text index where it starts."""
        parts: list[tuple[str, int]] = []
        while True:
            self.skip_blanks(newlines=False)
            start = self.i
            if self.peek() in ('"', "'"):
                parts.append((self.string(), start))
            else:
                bare = _BARE.match(self.text, self.i)
                assert bare is not None  # the pattern matches the empty string
                parts.append((bare.group(), start))
                self.i = bare.end()
            self.skip_blanks(newlines=False)
            if self.peek() != ".":
                return parts
            self.i += 1

    # ----------------------------------------------------------------- grammar

    def record(self, path: Path, value_at: int, key_at: int) -> None:
        self.spots[path] = Spot(*self.where(value_at), *self.where(key_at))

    def document(self) -> None:
        table: Path = ()
        while True:
            self.skip_blanks(newlines=True)
            if self.i >= len(self.text):
                return
            start = self.i
            if self.text.startswith("[[", self.i):
                self.i += 2
                base = self.header(start)
                index = self.array_tables.get(base, -1) + 1
                self.array_tables[base] = index
                table = (*base, index)
                self.record(table, start, start)
            elif self.peek() == "[":
                self.i += 1
                table = self.header(start)
                self.record(table, start, start)
            else:
                self.pair(table)
                self.skip_blanks(newlines=False)
                if self.peek() == "#":
                    self.skip_line()

    def header(self, start: int) -> Path:
        """The path of a ``[table]`` or ``[[array]]`` header; its parents are noted too."""
        path = tuple(name for name, _ in self.key())
        for end in range(1, len(path) + 1):
            if path[:end] not in self.spots:
                self.record(path[:end], start, start)
        self.skip_line()
        return path

    def pair(self, table: Path) -> None:
        parts = self.key()
        path = table
        for name, at in parts[:-1]:
            path = (*path, name)
            if path not in self.spots:
                self.record(path, at, at)
        path = (*path, parts[-1][0])
        self.skip_blanks(newlines=False)
        self.i += 1  # '='
        self.skip_blanks(newlines=False)
        self.record(path, self.i, parts[-1][1])
        self.value(path)

    def value(self, path: Path) -> None:
        char = self.peek()
        if char == "{":
            self.i += 1
            while True:
                self.skip_blanks(newlines=True)
                if self.peek() == "}":
                    self.i += 1
                    return
                self.pair(path)
                self.skip_blanks(newlines=True)
                if self.peek() == ",":
                    self.i += 1
        elif char == "[":
            self.i += 1
            index = 0
            while True:
                self.skip_blanks(newlines=True)
                if self.peek() in ("]", ""):
                    self.i += 1
                    return
                item: Path = (*path, index)
                self.record(item, self.i, self.i)
                self.value(item)
                index += 1
                self.skip_blanks(newlines=True)
                if self.peek() == ",":
                    self.i += 1
        elif char in ('"', "'"):
            self.string()
        else:
            scalar = _SCALAR.match(self.text, self.i)
            assert scalar is not None  # the pattern matches the empty string
            self.i = scalar.end()


def _escaped(text: str, index: int) -> bool:
    """Whether the character at ``index`` is preceded by an odd number of backslashes."""
    count = 0
    while index - count - 1 >= 0 and text[index - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def locate(text: str) -> dict[Path, Spot]:
    """The position of every key path in ``text`` (TOML that :mod:`tomllib` accepts)."""
    scanner = _Scanner(text)
    scanner.document()
    return scanner.spots
