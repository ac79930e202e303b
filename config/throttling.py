"""The API's throttles (anonymous clients by address, signed-in fans by user), counted
atomically where the cache is Redis.

DRF's own throttle reads a client's list of request times from the cache, appends one and
writes it back: two gunicorn workers answering the same client at once both read the list
before either writes it, and one request is forgotten. Under a burst across 4 workers every
one of 180 requests got through a rate of 120 a minute. With a Redis cache the same moving
window is kept by the ``limits`` library, one Lua script a request in Redis itself, so
concurrent requests are counted one after the other; in the same Redis database as the
cache, so clearing the cache forgets the counts too. Other caches (the development default's
memory, one process) keep DRF's own counting.
"""

from __future__ import annotations

import functools
import time
from typing import Any

from django.conf import settings
from limits import RateLimitItemPerSecond
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from rest_framework import throttling

from core.cache import OUTAGE, outage_met, redis_down
from core.roles import is_commissioner

REDIS_CACHES = {"django.core.cache.backends.redis.RedisCache", "core.cache.ResilientRedisCache"}


@functools.cache
def moving_window(url: str) -> MovingWindowRateLimiter:
    # A silent host is given the cache's own time (CACHE_TIMEOUT_SECONDS), not for ever.
    seconds = getattr(settings, "CACHE_TIMEOUT_SECONDS", 1.0)
    storage = RedisStorage(url, socket_connect_timeout=seconds, socket_timeout=seconds)
    return MovingWindowRateLimiter(storage)


def redis_limiter() -> MovingWindowRateLimiter | None:
    """Return the limiter on the cache's Redis, or None when the cache is not one Redis."""
    cache = settings.CACHES["default"]
    location = cache.get("LOCATION")
    if cache["BACKEND"] not in REDIS_CACHES or not isinstance(location, str) or "," in location:
        return None
    return moving_window(location)


class CountedInRedis(throttling.SimpleRateThrottle):
    """A DRF throttle whose moving window is counted in the cache's Redis (see above)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        self.limiter = redis_limiter()
        if self.limiter is None or self.rate is None:
            return super().allow_request(request, view)
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.window_key = key
        count, seconds = self.parse_rate(self.rate)
        assert count is not None and seconds is not None  # a rate was set (checked above)
        self.item = RateLimitItemPerSecond(count, seconds)
        # The counts live in the cache's Redis: while it cannot be reached the API answers
        # uncounted rather than not at all (core/cache.py; nginx's copies still answer
        # repeated reads), and the log says so.
        if redis_down():
            return True
        try:
            return self.limiter.hit(self.item, key)
        except OUTAGE as exc:
            outage_met(exc, "the API throttle")
            return True

    def wait(self) -> float | None:
        if self.limiter is None:
            return super().wait()
        stats = self.limiter.get_window_stats(self.item, self.window_key)
        return max(0.0, stats.reset_time - time.time())


class AnonRateThrottle(CountedInRedis, throttling.AnonRateThrottle):
    """DRF's anonymous throttle (same rate, client and 429 answer), atomic on Redis."""


class SignedInRateThrottle(CountedInRedis, throttling.UserRateThrottle):
    """A signed-in client's throttle (``API_USER_RATE``), counted by user: a fan's token
    sent from many addresses is still one client. Anonymous clients are the anonymous
    throttle's (counted once, by address), and commissioners are not throttled: they run
    the league, scripts included (imports, a season's writes)."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not (user and user.is_authenticated) or is_commissioner(user):
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class SignInRateThrottle(CountedInRedis, throttling.SimpleRateThrottle):
    """A password tried for a token (``POST /api/auth/token/``), counted by address as the
    fans' sign-in is (``CHALLENGE_SIGNIN_RATE``), whoever is signed in: DRF's token view
    has no throttle at all, and each try costs a password hash (a security review sent
    them unthrottled while the anonymous API answered 429)."""

    scope = "signin"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method != "POST":
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
