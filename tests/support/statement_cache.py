"""One cache of compiled SQL statements for every engine of a test worker.

SQLAlchemy compiles each statement once per engine: its cache key holds the engine's dialect
object, and every engine has a dialect of its own. A process of ratingdb has one or two engines
and compiles each statement once; a test worker makes a new engine for nearly every test (each
test has its own database, and the commands run in-process make their own) and compiled every
statement again each time: 15 % of the in-process tests' CPU (py-spy, 2026-12-02).

Here the engines of a worker share one cache whose keys name the dialect by what it is rather
than by which object it is: its class and its settings once connected (server version, flags,
the functions it was given), so that only engines that would compile a statement the same way
share it. A dialect not yet connected keeps its own keys. What the tests run is unchanged; only
where a compiled statement is found is.
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Hashable
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.orm import Mapper
from sqlalchemy.util import LRUCache

#: Statements kept (SQLAlchemy keeps 500 per engine; the suite runs a few thousand distinct ones
#: on two databases).
SIZE = 4000
_SETTING_TYPES = (bool, int, float, str, bytes, type(None))
_FUNCTION_TYPES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
)


def _setting(value: Any) -> Hashable:
    """A dialect attribute as part of its identity: plain values and functions as they are,
    tuples item by item, other objects (the preparer, the type compiler: made from the
    settings) by their class; modules (the driver) as they are."""
    if isinstance(value, (*_SETTING_TYPES, *_FUNCTION_TYPES, type)):
        return value
    if isinstance(value, tuple | frozenset):
        return tuple(_setting(item) for item in value)
    return (type(value).__module__, type(value).__qualname__)


class SharedCompiledCache:
    """The part of a compiled cache's interface SQLAlchemy uses (``get``, item assignment), over
    one LRU cache, the dialect in each key replaced by what it is."""

    def __init__(self, cache: LRUCache[Any, Any]) -> None:
        self._cache = cache
        self._names: weakref.WeakKeyDictionary[Dialect, Hashable] = weakref.WeakKeyDictionary()

    def _name(self, dialect: Dialect) -> Hashable:
        name = self._names.get(dialect)
        if name is None:
            if dialect.server_version_info is None:
                return dialect  # not connected yet: its settings may still change
            settings = sorted((key, _setting(value)) for key, value in vars(dialect).items())
            name = (type(dialect), tuple(settings))
            self._names[dialect] = name
        return name

    def _key(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        return (self._name(key[0]), *key[1:])

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        return self._cache.get(self._key(key), default)

    def __setitem__(self, key: tuple[Any, ...], value: Any) -> None:
        self._cache[self._key(key)] = value

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        self._cache.clear()


SHARED = SharedCompiledCache(LRUCache(SIZE))


def _share(connection: Connection) -> None:
    engine = connection.engine
    cache: object = engine._compiled_cache
    if cache is not None and cache is not SHARED:
        engine._compiled_cache = SHARED  # type: ignore[assignment]


def install(mappers: frozenset[Mapper[Any]]) -> None:
    """Every engine's statements (at its first connection) and the ORM's flushes of
    ``mappers`` (their own caches, keyed by dialect too) go to the shared cache."""
    if not event.contains(Engine, "engine_connect", _share):
        event.listen(Engine, "engine_connect", _share)
    for mapper in mappers:
        mapper.__dict__["_compiled_cache"] = SHARED
