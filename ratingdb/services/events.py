"""What the services tell whoever listens once a list is written: a close, or a cascade (a
correction's recalculation of a category's later lists). Plain Python, so that the services
depend on no metrics library: ``ratingdb.observability`` subscribes at an edge and turns each
event into Prometheus figures (docs/operations.md, "Metrics and logs").

An event is told when the rows are written, inside the caller's transaction: a close whose
transaction rolls back afterwards has been told all the same. A listener that raises is a bug
of the listener, and the operation fails with it rather than hide it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ratingdb.rules import Category

#: ``close``: a period closed and its list published (revision 1); ``cascade``: the lists of a
#: category recalculated after a correction, from its earliest period on.
Operation = Literal["close", "cascade"]


@dataclass(frozen=True, slots=True)
class ListsWritten:
    """``rows``: every row written (entries, markers, statuses, calculations, chunks; what the
    audit log's ``rows`` counts for a close); ``entries``: the players on the lists written;
    ``lists``: how many list revisions were written (1 for a close, 0 or more for a cascade)."""

    operation: Operation
    category: Category
    seconds: float
    lists: int
    entries: int
    rows: int


Listener = Callable[[ListsWritten], None]

_listeners: list[Listener] = []
_lock = threading.Lock()


def subscribe(listener: Listener) -> None:
    """Tell ``listener`` every event from now on (once, however often it subscribes)."""
    with _lock:
        if listener not in _listeners:
            _listeners.append(listener)


def unsubscribe(listener: Listener) -> None:
    with _lock:
        if listener in _listeners:
            _listeners.remove(listener)


def tell(event: ListsWritten) -> None:
    """Each listener in the order it subscribed."""
    with _lock:
        listeners = tuple(_listeners)
    for listener in listeners:
        listener(event)
