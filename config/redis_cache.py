"""Django's own Redis cache backend, keeping one redis-py client for each connection pool,
and carrying on without Redis when it is out of reach.

Django's backend makes a new `redis.Redis` for every cache call, and making one builds
its table of some 170 reply callbacks: about half a millisecond, more than the round trip
to Redis itself, on every page a visitor gets from the cache and every session read. The
client is safe to share (its connections come from the pool, which redis-py keeps per
process), so one per pool is kept and used again.

The cache only ever holds what the database can give again: pages, published versions,
copies of sessions. So when Redis cannot be reached, a read finds nothing and a write is
dropped, with a warning in the log, and the site answers from the database, slower,
rather than failing every page; people logged in stay so (their sessions are in the
database too). A delete is not excused (a session ended at logout or replaced at login
must not come back when Redis does): logging in and out wait for Redis, failing as
Django's own backend would.
"""

import logging

import redis as redis_py
from django.core.cache.backends import redis

logger = logging.getLogger(__name__)

OUT_OF_REACH = (redis_py.ConnectionError, redis_py.TimeoutError)


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


def _out_of_reach(what: str, error: Exception) -> None:
    # One line each, no traceback: an outage would otherwise fill the log.
    logger.warning("Redis is out of reach (%s): cache %s skipped", error, what)


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient

    def validate_key(self, key):
        """Redis takes any key: none of the checks for memcached's limits that Django
        makes of every key by default (a few µs a key, on every visit)."""

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except OUT_OF_REACH as error:
            _out_of_reach("read", error)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except OUT_OF_REACH as error:
            _out_of_reach("read", error)
            return {}

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except OUT_OF_REACH as error:
            _out_of_reach("read", error)
            return False

    def add(self, key, value, timeout=redis.DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except OUT_OF_REACH as error:
            _out_of_reach("write", error)
            return False

    def set(self, key, value, timeout=redis.DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except OUT_OF_REACH as error:
            _out_of_reach("write", error)

    def set_many(self, data, timeout=redis.DEFAULT_TIMEOUT, version=None):
        try:
            return super().set_many(data, timeout, version)
        except OUT_OF_REACH as error:
            _out_of_reach("write", error)
            return list(data)
