"""Progress of long work, reported by the edge that runs it.

Services never print: a long loop wraps its iterable in the ``Track`` it was given. The command
line and the jobs give ``terminal_progress``; everything else gets ``no_progress``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Protocol, TypeVar

from tqdm import tqdm

T = TypeVar("T")


class Track(Protocol):
    def __call__(self, items: Iterable[T], label: str, total: int | None = None) -> Iterable[T]:
        """``items``, unchanged, while showing how far the loop has got."""
        ...


def no_progress(items: Iterable[T], label: str, total: int | None = None) -> Iterable[T]:
    return items


def terminal_progress(items: Iterable[T], label: str, total: int | None = None) -> Iterable[T]:
    """A progress bar on standard error when it is a terminal; silent otherwise (scripts, CI)."""
    return tqdm(
        items, desc=label, total=total, file=sys.stderr, disable=not sys.stderr.isatty(),
        leave=False, unit_scale=True, mininterval=0.5,
    )  # fmt: skip
