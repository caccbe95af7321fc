"""Datasets of simulated decisions: written by ``tricktaker simulate --dataset DIR``.

One row per decision of every game: the game, the seed, the hand, the seat and its bot,
the seat's observation in the fixed encoding of :mod:`tricktaker.envs.encoding`, the
legal actions as a mask, the action chosen, and the outcome of the hand and of the game
joined in (docs/datasets.md has the schema). Needs the ``datasets`` extra
(``pip install 'tricktaker[datasets]'``: pyarrow and numpy); pandas or polars read the
same files if installed::

    table = tricktaker.datasets.load("runs/blackout")   # a pyarrow Table
    x = tricktaker.datasets.observations(table)          # numpy (decisions, size)
    frame = table.to_pandas()                             # with pandas
    frame = polars.from_arrow(table)                      # with polars
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa
    import pyarrow.dataset as pa_dataset

__all__ = ["legal_masks", "load", "metadata", "observations", "open_dataset"]

METADATA_FILE = "dataset.json"


def metadata(directory: str | Path) -> dict[str, Any]:
    """The dataset's ``dataset.json``: settings, counts, encoding fields, action names."""
    path = Path(directory) / METADATA_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{directory} is not a tricktaker dataset (no {METADATA_FILE})")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def open_dataset(directory: str | Path) -> pa_dataset.Dataset:
    """The dataset as a lazy ``pyarrow.dataset.Dataset`` (filter and project before
    reading: ``open_dataset(d).to_table(columns=["action"], filter=...)``)."""
    import pyarrow.dataset as pa_dataset

    info = metadata(directory)
    files = [str(Path(directory) / name) for name in info["files"]]
    return pa_dataset.dataset(files, format="parquet")


def load(directory: str | Path, *, columns: list[str] | None = None) -> pa.Table:
    """The whole dataset (or the given columns) as a ``pyarrow.Table``, in the order
    written (games by seed, decisions in the order made)."""
    return open_dataset(directory).to_table(columns=columns)


def observations(table: pa.Table) -> npt.NDArray[np.float32]:
    """The ``observation`` column as a ``(decisions, observation_size)`` float32 array."""
    import numpy as np

    column = table.column("observation").combine_chunks()
    size = column.type.list_size
    values = column.flatten().to_numpy(zero_copy_only=False)
    return np.asarray(values, dtype=np.float32).reshape(-1, size)


def legal_masks(table: pa.Table) -> npt.NDArray[np.bool_]:
    """The ``legal`` column as a ``(decisions, action_size)`` bool array."""
    import numpy as np

    column = table.column("legal").combine_chunks()
    size = column.type.list_size
    values = column.flatten().to_numpy(zero_copy_only=False)
    return np.asarray(values, dtype=np.bool_).reshape(-1, size)
