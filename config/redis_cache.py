"""Django's own Redis cache backend, keeping one redis-py client for each connection pool,
carrying on without Redis when it is out of reach, and keeping copies of announced keys
in each process's own memory until their change is heard.

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

import contextlib
import logging
import threading
import time

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

    def announce(self, key, value, timeout, channel):
        """SET `key` and PUBLISH it on `channel`, in one round trip and in that order (so
        whoever hears the news reads the new value), then PING and wait. Redis answers a
        command only after it has written out what the ones before it queued, so once
        the PING is answered the news has left Redis for every subscriber (on one
        machine: is already in its socket), before the change's own answer goes out.
        Measured here: without the PING, 1 in 5,000 pieces of news was not yet in the
        subscriber's socket when the publisher had its answer; with it, none."""
        client = self.get_client(key, write=True)
        pipeline = client.pipeline(transaction=False)
        pipeline.set(key, self._serializer.dumps(value), ex=timeout)
        pipeline.publish(channel, key)
        pipeline.execute()
        client.ping()


def _out_of_reach(what: str, error: Exception) -> None:
    # One line each, no traceback: an outage would otherwise fill the log.
    logger.warning("Redis is out of reach (%s): cache %s skipped", error, what)


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
        self.heard = Heard(self)

    def announce(self, key, value, timeout=redis.DEFAULT_TIMEOUT, version=None):
        """Set `key` and tell every process keeping a copy of it (`heard`) to drop it."""
        key = self.make_and_validate_key(key, version=version)
        try:
            self._cache.announce(key, value, self.get_backend_timeout(timeout), self.heard.channel)
        except OUT_OF_REACH as error:
            _out_of_reach("write", error)

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


class Heard:
    """Copies of announced keys kept in this process, each dropped as soon as news of its
    change arrives (Redis's publish and subscribe), so that most reads of them need no
    round trip to Redis at all. A copy is only used:

    - while this process is subscribed to the news, and is kept only if no news at all
      arrived since the look before it was read from Redis (`look`, then `keep`);
    - after a look at everything that has arrived, made before every use;
    - if the look before was less than a second ago, and brought less than a hundred
      pieces of news: news can wait in Redis, not yet in this process's socket, only
      when the socket is full, and a second of news is far short of that. Otherwise
      every copy is forgotten and read again.

    Lost the subscription (Redis out of reach, a restart): every copy is forgotten, and
    the next look subscribes again, at most every few seconds."""

    LOOKS_WITHIN = 1.0
    MOST_NEWS = 100
    RETRY_AFTER = 5.0

    def __init__(self, cache):
        self.cache = cache
        self.channel = cache.make_key("announced")
        self._copies = {}
        self._pubsub = None
        self._retry_at = 0.0
        self._looked_at = 0.0
        self._news = 0  # pieces of news heard so far: the ticket of `look`
        self._lock = threading.Lock()

    def look(self) -> int | None:
        """Take in the news that has arrived; a ticket for `keep`, or None when this
        process hears no news (no copy is then used or kept)."""
        with self._lock:
            now = time.monotonic()
            if self._pubsub is None and not self._subscribe(now):
                return None
            if now - self._looked_at > self.LOOKS_WITHIN:
                self._copies.clear()
            self._looked_at = now
            try:
                heard = 0
                while (news := self._pubsub.get_message(timeout=0.0)) is not None:
                    if news["type"] == "message":
                        heard += 1
                        self._copies.pop(news["data"].decode(), None)
            except (redis_py.RedisError, OSError) as error:
                self._lose(now, error)
                return None
            if heard >= self.MOST_NEWS:
                self._copies.clear()
            self._news += heard
            return self._news

    def get(self, key):
        """The copy of `key` kept here (None: none); after a `look`."""
        found = self._copies.get(self.cache.make_key(key))
        if found is None or found[1] < time.monotonic():
            return None
        return found[0]

    def keep(self, key, value, ticket: int | None, timeout: float) -> None:
        """Keep a copy of `value`, read from Redis after the look that gave `ticket`, for
        at most `timeout` seconds; not if any news has arrived since that look."""
        with self._lock:
            if ticket is not None and ticket == self._news and self._pubsub is not None:
                self._copies[self.cache.make_key(key)] = (value, time.monotonic() + timeout)

    def _subscribe(self, now: float) -> bool:
        if now < self._retry_at:
            return False
        try:
            pubsub = self.cache._cache.get_client().pubsub()
            pubsub.subscribe(self.channel)
            # Subscribed once Redis says so: only news after that is sure to arrive.
            while (reply := pubsub.get_message(timeout=1.0)) is not None:
                if reply["type"] == "subscribe":
                    break
            else:
                raise redis_py.TimeoutError("no answer to SUBSCRIBE")
        except (redis_py.RedisError, OSError) as error:
            self._lose(now, error)
            return False
        self._pubsub, self._copies, self._looked_at = pubsub, {}, now
        return True

    def _lose(self, now: float, error: Exception) -> None:
        _out_of_reach("news", error)
        if self._pubsub is not None:
            with contextlib.suppress(redis_py.RedisError, OSError):
                self._pubsub.close()
        self._pubsub, self._copies, self._retry_at = None, {}, now + self.RETRY_AFTER
