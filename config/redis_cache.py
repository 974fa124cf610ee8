"""Django's own Redis cache backend, keeping one redis-py client for each connection pool.

Django's backend makes a new `redis.Redis` for every cache call, and making one builds
its table of some 170 reply callbacks: about half a millisecond, more than the round trip
to Redis itself, on every page a visitor gets from the cache and every session read. The
client is safe to share (its connections come from the pool, which redis-py keeps per
process), so one per pool is kept and used again. Everything else is Django's.
"""

from django.core.cache.backends import redis


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


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
