"""The Redis cache backend (config/redis_cache.py) is Django's own, keeping one client
for each connection pool instead of making one for every call. Needs the Redis that
`make test` starts."""

import warnings

from django.core.cache.backends.base import CacheKeyWarning
from django.core.cache.backends.redis import RedisCache as DjangosRedisCache

from config.redis_cache import RedisCache


def test_one_client_is_made_and_used_again_and_the_cache_works():
    cache = RedisCache("redis://127.0.0.1:6379/6", {"KEY_PREFIX": "test-redis-cache"})
    cache.clear()

    cache.set("a", {"body": b"page"}, 60)
    assert cache.add("b", 1, 60) and not cache.add("b", 2, 60)

    assert cache.get_many(["a", "b", "c"]) == {"a": {"body": b"page"}, "b": 1}
    assert cache._cache.get_client() is cache._cache.get_client(write=True)
    assert len(cache._cache._clients) == 1
    cache.clear()


def test_any_key_goes_without_memcacheds_checks():
    """Django checks every key against memcached's limits by default (a warning for a key
    over 250 characters or with a space); Redis has neither, so the backend skips the
    check on every call. With Django's own backend the same key warns."""
    key = "page " + "x" * 300
    params = {"KEY_PREFIX": "test-redis-cache"}
    ours = RedisCache("redis://127.0.0.1:6379/6", params)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        ours.set(key, 1, 60)
        assert ours.get(key) == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CacheKeyWarning)
        DjangosRedisCache("redis://127.0.0.1:6379/6", params).get(key)
    assert any(issubclass(w.category, CacheKeyWarning) for w in caught)
    ours.clear()
