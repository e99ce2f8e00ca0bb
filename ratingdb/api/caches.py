"""What the API keeps in memory between requests: rendered list pages, and which revision a
list is at.

A page of a published revision is fixed by the revision (its list id, digest and how many
revisions the list has) and the query, which is what its ETag says (``routes.lists.list_etag``;
for the HTML page also the reader's language, ``routes.listings.list_page_etag``), so the JSON
or HTML rendered for one ETag can be served again to any client asking for the same page
(:class:`PageCache`, one for both). Names and federations come from the players table, which a
later list import may update: a page lives at most ``ttl_seconds`` (the ``max-age`` the latest
revision's pages are sent with), so a renamed player shows within that time, as in a client's
or proxy's cache.

Which revision is the latest, and how many a list has, changes only when a correction
publishes a new revision: :class:`ListLookups` keeps the answer for a second, so that a page
already rendered is served without reading the database at all. A new revision shows within
two seconds (the second, then the one request that reads it again; the HTTP caches in front
may keep the latest revision's pages for 300 s anyway).

A player's history and the player page are fixed by the lists of their categories and by the
player's record, whose :class:`~ratingdb.services.published.Generation` (how many lists, the
highest id, how many edits of records officers made) moves with every publication, revision
and edit: kept for a second like the list lookups, it names the page
(``routes.players.history_etag``, ``routes.pages.player_page_etag``), so a history already
rendered is answered without the database too.

The player page's ranks come from each latest list's rank table (:class:`Builds`: one read of
the list's ratings per federation, kept as long as a page, since the players' federations are
read with it).

All are shared by the event loop and the threads that run requests' reads.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

#: Default bound: at about 20 kB per page of 100 entries, some 3,000 pages.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_TTL_SECONDS = 300.0
#: How long the answer to "which revision is the latest" is kept.
DEFAULT_LOOKUP_SECONDS = 1.0
#: Lists whose lookup is kept at once (each a few hundred bytes).
MAX_LOOKUPS = 4096
#: Rank tables kept at once: a few latest lists (each at most some thousands of ratings per
#: federation, about 100 kB at 500,000 entries in 200 federations).
MAX_RANK_TABLES = 16

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PageCache:
    """Bytes by key, at most ``max_bytes`` in all (0: keep nothing), each for ``ttl_seconds``."""

    def __init__(
        self,
        max_bytes: int = DEFAULT_MAX_BYTES,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be 0 or more, got {max_bytes}")
        if ttl_seconds <= 0:
            raise ValueError(f"ttl_seconds must be more than 0, got {ttl_seconds}")
        self.max_bytes = max_bytes
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._pages: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._pages)

    def get(self, key: str) -> bytes | None:
        """The page stored under ``key``, unless it is missing or expired."""
        if self.max_bytes == 0:
            return None
        with self._lock:
            found = self._pages.get(key)
            if found is None:
                return None
            expires, body = found
            if self._clock() >= expires:
                self._drop(key)
                return None
            self._pages.move_to_end(key)
            return body

    def put(self, key: str, body: bytes) -> None:
        """Keep ``body`` under ``key``, dropping the least recently used pages to make room. A
        page larger than the whole bound is not kept."""
        if len(body) > self.max_bytes:
            return
        with self._lock:
            if key in self._pages:
                self._drop(key)
            self._pages[key] = (self._clock() + self.ttl_seconds, body)
            self._bytes += len(body)
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._pages)))

    def _drop(self, key: str) -> None:
        _, body = self._pages.pop(key)
        self._bytes -= len(body)


class Deflated:
    """A view of a :class:`PageCache` that keeps each page gzip-compressed (level 6, as the
    responses are), for the pages many of which are asked for: a history of 121 points,
    18.8 kB, keeps as about 2 kB, and a ten-year player page, 397 kB, as 24 kB. At full size,
    2,000 players' histories and pages would not fit in the 64 MB shared with the list pages,
    and each would push out the others. A client that accepts gzip is sent the kept bytes as
    they are (:meth:`get_gzip`): compressing a 397 kB page again at each request cost 5.5 ms
    of the server's CPU, 20 times what the rest of the answer costs. The keys (ETags) of these
    pages and of the others never meet."""

    def __init__(self, pages: PageCache) -> None:
        self.pages = pages

    def get(self, key: str) -> bytes | None:
        """The page as it was put (decompressed)."""
        found = self.pages.get(key)
        return None if found is None else zlib.decompress(found, wbits=GZIP_WBITS)

    def get_gzip(self, key: str) -> bytes | None:
        """The page as kept: a gzip member (RFC 1952), ready to send as ``Content-Encoding:
        gzip``."""
        return self.pages.get(key)

    def put(self, key: str, body: bytes) -> bytes:
        """Keep ``body`` compressed; returns the gzip member kept, which a first render sends
        as it is to a client that accepts gzip (compressed once, not again on the way out)."""
        packed = gzip_member(body)
        self.pages.put(key, packed)
        return packed


#: zlib's window bits for a gzip header and trailer (RFC 1952) rather than zlib's (RFC 1950).
GZIP_WBITS = 31
#: The level the pages are kept and sent at: compression.COMPRESS_LEVEL's, zlib's default.
GZIP_LEVEL = 6


def gzip_member(body: bytes) -> bytes:
    """``body`` as one gzip member, as GZipMiddleware would send it (level 6)."""
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, GZIP_WBITS)
    return packer.compress(body) + packer.flush()


class ListLookups(Generic[K, V]):
    """Values by key for ``ttl_seconds`` each (0: none), at most ``max_entries`` of them, the
    oldest out first."""

    def __init__(
        self,
        ttl_seconds: float = DEFAULT_LOOKUP_SECONDS,
        max_entries: int = MAX_LOOKUPS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ttl_seconds < 0:
            raise ValueError(f"ttl_seconds must be 0 or more, got {ttl_seconds}")
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, got {max_entries}")
        self.ttl_seconds = ttl_seconds
        self.max_entries = max_entries
        self._clock = clock
        self._values: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: K) -> V | None:
        """The value kept under ``key``, unless it is missing or older than the time.

        When a value's time is over, one caller is told so (None) and reads it again while the
        others keep getting the old value for up to ``ttl_seconds`` more: 50 clients asking
        for one list the moment its lookup ends would otherwise all queue for the database at
        once (a p99 of 175 ms where the median is 26 ms). If that caller never puts a value
        back (its read failed), the next caller after that time is told."""
        if self.ttl_seconds == 0:
            return None
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            expires, value = found
            now = self._clock()
            if now < expires:
                return value
            # This caller refreshes; the others are served the old value meanwhile.
            self._values[key] = (now + self.ttl_seconds, value)
            return None

    def put(self, key: K, value: V) -> None:
        if self.ttl_seconds == 0:
            return
        with self._lock:
            self._values.pop(key, None)
            self._values[key] = (self._clock() + self.ttl_seconds, value)
            while len(self._values) > self.max_entries:
                self._values.popitem(last=False)


class Builds(Generic[K, V]):
    """Values slow to build (a list's rank table), kept as :class:`ListLookups` keeps its
    values, and built by one caller at a time: while one builds a value, the others are told
    to do without it (None) instead of building it too (50 clients asking at once would read
    the whole list 50 times). ``ttl_seconds`` 0: nothing is built or kept."""

    def __init__(
        self,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        max_entries: int = MAX_RANK_TABLES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._values: ListLookups[K, V] = ListLookups(ttl_seconds, max_entries, clock)
        self._building: set[K] = set()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: K, build: Callable[[], V]) -> V | None:
        """The value kept under ``key``; else, unless another caller is building it,
        ``build()`` (kept and returned); else None."""
        if self._values.ttl_seconds == 0:
            return None
        found = self._values.get(key)
        if found is not None:
            return found
        with self._lock:
            if key in self._building:
                return None
            self._building.add(key)
        try:
            value = build()
            self._values.put(key, value)
            return value
        finally:
            with self._lock:
                self._building.discard(key)
