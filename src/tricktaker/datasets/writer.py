"""Write recorded games (:class:`~tricktaker.datasets.record.GameRows`) as Parquet files.

A dataset is a directory: ``part-00000.parquet``, ``part-00001.parquet``, ... (each at
most ``rows_per_file`` decisions, in row groups of at most ``row_group`` decisions,
compressed with zstd) and ``dataset.json`` (the settings, the encoding's fields and the
action names). The schema is :data:`SCHEMA` (docs/datasets.md describes every column).
Games are written whole and in the order given, so the files are the same for any
number of workers.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from tricktaker import __version__
from tricktaker.envs.encoding import Encoding

from . import METADATA_FILE
from .record import GameRows

FORMAT_VERSION: Final = 1
PART_PATTERN: Final = "part-{:05d}.parquet"


def schema(encoding: Encoding) -> pa.Schema:
    """The Arrow schema of a dataset of the game ``encoding`` describes."""
    return pa.schema(
        [
            pa.field("game", pa.dictionary(pa.int8(), pa.string())),
            pa.field("game_seed", pa.int64()),
            pa.field("hand", pa.int16()),
            pa.field("step", pa.int32()),
            pa.field("seat", pa.int8()),
            pa.field("bot", pa.dictionary(pa.int8(), pa.string())),
            pa.field("phase", pa.dictionary(pa.int8(), pa.string())),
            pa.field("observation", pa.list_(pa.float32(), encoding.observation_size)),
            pa.field("legal", pa.list_(pa.bool_(), encoding.action_size)),
            pa.field("action", pa.int16()),
            pa.field("choices", pa.int16()),
            pa.field("hand_score", pa.int32()),
            pa.field("bid", pa.int16()),
            pa.field("tricks", pa.int16()),
            pa.field("final_score", pa.int32()),
            pa.field("won", pa.bool_()),
        ]
    )


class DatasetError(ValueError):
    """A dataset directory that cannot be written or read."""


class DatasetWriter:
    """Appends games to a dataset directory; :meth:`close` writes the last file and the
    metadata. Use as a context manager."""

    def __init__(
        self,
        directory: Path,
        *,
        encoding: Encoding,
        game: str,
        bots: Sequence[str],
        settings: Mapping[str, Any],
        rows_per_file: int = 1_000_000,
        row_group: int = 65_536,
    ) -> None:
        if rows_per_file < 1 or row_group < 1:
            raise DatasetError("rows_per_file and row_group must be at least 1")
        directory.mkdir(parents=True, exist_ok=True)
        if any(directory.glob("part-*.parquet")) or (directory / METADATA_FILE).exists():
            raise DatasetError(f"{directory} already holds a dataset: choose an empty directory")
        self.directory = directory
        self.encoding = encoding
        self.game = game
        self.bots = tuple(bots)
        self.settings = dict(settings)
        self.rows_per_file = rows_per_file
        self.row_group = row_group
        self.schema = schema(encoding)
        self.rows = 0
        self.games = 0
        self.files: list[Path] = []
        self._writer: pq.ParquetWriter | None = None
        self._in_file = 0
        self._buffer: list[GameRows] = []
        self._buffered = 0
        self._closed = False

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, rows: GameRows) -> None:
        """Append one game's decisions."""
        self._buffer.append(rows)
        self._buffered += len(rows)
        self.games += 1
        while self._buffered >= self.row_group:
            self._flush(self.row_group)

    def _flush(self, limit: int) -> None:
        """Write up to ``limit`` buffered rows as one row group (at a file's end, fewer)."""
        if not self._buffered:
            return
        if self._writer is None:
            path = self.directory / PART_PATTERN.format(len(self.files))
            self._writer = pq.ParquetWriter(
                path, self.schema, compression="zstd", compression_level=6
            )
            self.files.append(path)
            self._in_file = 0
        count = min(limit, self._buffered, self.rows_per_file - self._in_file)
        table = self._table(self._take(count))
        self._writer.write_table(table, row_group_size=count)
        self._in_file += count
        self.rows += count
        if self._in_file >= self.rows_per_file:
            self._writer.close()
            self._writer = None

    def _take(self, count: int) -> list[GameRows]:
        """The first ``count`` buffered rows (a game may be split between row groups)."""
        taken: list[GameRows] = []
        need = count
        while need:
            first = self._buffer[0]
            if len(first) <= need:
                taken.append(self._buffer.pop(0))
                need -= len(first)
            else:
                taken.append(_slice(first, 0, need))
                self._buffer[0] = _slice(first, need, len(first))
                need = 0
        self._buffered -= count
        return taken

    def _table(self, parts: list[GameRows]) -> pa.Table:
        encoding = self.encoding
        count = sum(len(p) for p in parts)

        def cat(name: str) -> Any:
            return np.concatenate([getattr(p, name) for p in parts])

        observation = cat("observation").reshape(-1)
        legal = cat("legal").reshape(-1)
        bots = [self.bots[int(s)] for p in parts for s in p.seat]
        columns = [
            pa.DictionaryArray.from_arrays(
                pa.array(np.zeros(count, np.int8)), pa.array([self.game])
            ),
            pa.array(np.concatenate([np.full(len(p), p.game_seed, np.int64) for p in parts])),
            pa.array(cat("hand")),
            pa.array(cat("step")),
            pa.array(cat("seat")),
            pa.array(bots, pa.string()).dictionary_encode().cast(self.schema.field("bot").type),
            pa.array([ph for p in parts for ph in p.phase], pa.string())
            .dictionary_encode()
            .cast(self.schema.field("phase").type),
            pa.FixedSizeListArray.from_arrays(pa.array(observation), encoding.observation_size),
            pa.FixedSizeListArray.from_arrays(pa.array(legal), encoding.action_size),
            pa.array(cat("action")),
            pa.array(cat("choices")),
            pa.array(cat("hand_score")),
            pa.array(cat("bid")),
            pa.array(cat("tricks")),
            pa.array(cat("final_score")),
            pa.array(cat("won")),
        ]
        return pa.Table.from_arrays(columns, schema=self.schema)

    def close(self) -> None:
        """Write what is buffered and the metadata file (once)."""
        if self._closed:
            return
        self._closed = True
        while self._buffered:
            self._flush(self.row_group)
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        metadata = {
            "format": FORMAT_VERSION,
            "tricktaker": __version__,
            "game": self.game,
            "bots": list(self.bots),
            **self.settings,
            "games": self.games,
            "decisions": self.rows,
            "files": [path.name for path in self.files],
            "observation_size": self.encoding.observation_size,
            "action_size": self.encoding.action_size,
            "observation_fields": [
                {
                    "name": f.name,
                    "offset": f.offset,
                    "size": f.size,
                    "low": f.low,
                    "high": f.high,
                    "meaning": f.meaning,
                }
                for f in self.encoding.fields
            ],
            "actions": [str(action) for action in self.encoding.actions],
        }
        path = self.directory / METADATA_FILE
        path.write_text(json.dumps(metadata, indent=1) + "\n", encoding="utf-8")

    @property
    def bytes_written(self) -> int:
        """The size of the Parquet files so far."""
        return sum(path.stat().st_size for path in self.files if path.exists())


def _slice(rows: GameRows, start: int, stop: int) -> GameRows:
    """Decisions ``start:stop`` of a game: every per-decision column cut, the game's own
    facts (``game_seed``, ``hands``, ``final_scores``, ``winners``) kept."""
    cut = slice(start, stop)
    return dataclasses.replace(
        rows,
        hand=rows.hand[cut],
        step=rows.step[cut],
        seat=rows.seat[cut],
        phase=rows.phase[cut],
        observation=rows.observation[cut],
        legal=rows.legal[cut],
        action=rows.action[cut],
        choices=rows.choices[cut],
        hand_score=rows.hand_score[cut],
        bid=rows.bid[cut],
        tricks=rows.tricks[cut],
        final_score=rows.final_score[cut],
        won=rows.won[cut],
    )
