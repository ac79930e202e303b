"""The shared cache (``CACHE_URL``), which an outage of its Redis makes slower, never broken.

Everything the site keeps in the cache can be done again without it: a page or a table is
rendered afresh, an odds build is asked again by the next reader, a sign-up or the API's
throttle counts from zero. So while the cache's Redis cannot be reached, Django's Redis cache
here reads as empty and keeps nothing: a read misses, a write is dropped, ``add`` (the locks
of odds builds) says someone else holds the key, and ``incr`` says the key is gone (what the
callers already handle). A warning is logged, once a minute at most, and Redis is not asked
again for :data:`RETRY_SECONDS`, so a silent host costs one connect timeout in that time,
not one a call. ``/healthz`` says the cache is unreachable (config/health.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

from core.release import release

log = logging.getLogger(__name__)

OUTAGE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
"""What an unreachable (refused, silent, reset) Redis raises."""

RETRY_SECONDS = 5.0
"""After an outage is met, how long every call is answered without asking Redis."""

WARN_EVERY = 60.0

T = TypeVar("T")


_state = {"down_until": 0.0, "warned_at": -WARN_EVERY}


def release_key(key: str, key_prefix: str, version: Any) -> str:
    """Django's cache key, under the release that makes it (``KEY_FUNCTION``): what an
    earlier release kept in a shared cache is never read by a later one
    (:mod:`core.release`)."""
    return f"{key_prefix}:{version}:{release()}:{key}"


def redis_down() -> bool:
    """Whether an outage of the cache's Redis was met less than :data:`RETRY_SECONDS` ago."""
    return time.monotonic() < _state["down_until"]


def outage_met(exc: Exception, what: str) -> None:
    """Note an outage of the cache's Redis met by ``what``; warn once a minute at most."""
    now = time.monotonic()
    _state["down_until"] = now + RETRY_SECONDS
    if now - _state["warned_at"] >= WARN_EVERY:
        _state["warned_at"] = now
        log.warning(
            "the cache's Redis cannot be reached (%s: %s, by %s): the site goes on without "
            "it; asked again in %g s",
            exc.__class__.__name__,
            exc,
            what,
            RETRY_SECONDS,
        )


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, read as empty while its Redis cannot be reached."""

    def _call(self, what: str, call: Callable[[], T], outage: Callable[[], T]) -> T:
        if redis_down():
            return outage()
        try:
            return call()
        except OUTAGE as exc:
            outage_met(exc, f"the cache's {what}")
            return outage()

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call(
            "get",
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: default,
        )

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._call(
            "get_many", lambda: super(ResilientRedisCache, self).get_many(keys, version), dict
        )

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._call(
            "has_key", lambda: super(ResilientRedisCache, self).has_key(key, version), lambda: False
        )

    def set(
        self,
        key: Any,
        value: Any,
        timeout: Any = DEFAULT_TIMEOUT,
        version: Any = None,
        **kwargs: Any,
    ) -> None:
        self._call(
            "set",
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            lambda: None,
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._call(
            "set_many",
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            lambda: list(data),
        )

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._call(
            "add",
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            lambda: False,
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._call(
            "touch",
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            lambda: False,
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._call(
            "delete", lambda: super(ResilientRedisCache, self).delete(key, version), lambda: False
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._call(
            "delete_many",
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda: None,
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        def gone() -> int:
            raise ValueError(f"Key '{key}' not found (the cache's Redis cannot be reached)")

        return self._call(
            "incr", lambda: super(ResilientRedisCache, self).incr(key, delta, version), gone
        )

    def clear(self) -> None:
        self._call("clear", lambda: super(ResilientRedisCache, self).clear(), lambda: None)
