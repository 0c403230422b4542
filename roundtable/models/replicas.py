"""Several OpenAI-compatible endpoints serving one model (replicas): calls spread by load, failures skipped.

A spec such as ``http://h1:8000/v1|http://h2:8000/v1#qwen`` (`roundtable.models.spec`) names replicas. Its chat
model is still one ``langchain_openai.ChatOpenAI`` (`roundtable.models.factory`), whose ``openai`` client talks
through the HTTP transport made here: each request goes to one replica, chosen when the request is sent.

Routing, per request (an HTTP call of the ``openai`` client: one chat completion):

1. **Least outstanding first.** Among the replicas in rotation, the one with the fewest requests of this process
   outstanding (sent or waiting for a permit of `roundtable.models.limits`, not yet answered); among equals the
   one sent to longest ago (at first, the first written), so sequential calls take the replicas in turn.
2. **Failover.** A replica that refuses the connection, resets it, stays silent past the spec's ``timeout`` or
   answers 5xx is taken out of rotation for ``cooldown`` seconds (the spec's option, default
   `DEFAULT_COOLDOWN`) and the same request goes to the next replica at once. A 429 (busy) sends it on too,
   without the cool-down. After the cool-down the replica is back in rotation; being idle, it gets the next
   request, which tells whether it has come back.
3. **Every replica down.** When no replica in rotation is left to try, the request tries the cooling ones, the
   one back soonest first, so each request tries every replica at most once. If they all fail, the transport
   gives the ``openai`` client the last failure (an ``httpx`` error or the 5xx answer), which retries the whole
   request ``max_retries`` times with its backoff, as for one endpoint; then the model raises
   `roundtable.models.errors.ModelUnavailableError` naming every replica and why each failed, and the game
   stops resumably, as for a single dead endpoint.

The bound on concurrent calls per endpoint (`roundtable.models.limits.endpoint_slot`) is held per replica, from
the moment the request is sent until its answer is read (sync calls; the async path has no bound, as for one
endpoint). Health and load are kept per base URL for the whole process, shared by every game and every chat
model that names the replica. Which replica answered a call is in its reply's ``response_metadata["replica"]``.

Why not a library: LiteLLM's ``Router`` has least-busy routing and cool-downs but makes the call itself (its own
client and response types), and LangChain's ``with_fallbacks`` tries runnables in a fixed order with no load
spreading and no cool-down; both would replace the ``ChatOpenAI`` call whose usage, structured output, seeds
and llama.cpp options the agents rely on. docs/usage.md#several-endpoints-for-one-model says more.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import openai

from roundtable.models.limits import endpoint_slot

if TYPE_CHECKING:
    import httpx  # the API that httpx2 mirrors; types are checked against it
else:
    # The transports must be made of the HTTP library the openai SDK is built on: httpx2 from openai 3 on
    # (an API-identical fork), httpx before (as langchain-openai's own ``_compat`` chooses).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")

DEFAULT_COOLDOWN = 30.0
"""Seconds a replica that failed stays out of rotation, unless the spec's ``cooldown=`` says otherwise."""

_FAILED_STATUS = 500
"""Answers from this status up take a replica out of rotation."""

_BUSY_STATUS = 429
"""An answer with this status sends the request to another replica, without a cool-down."""

_LIMITS = httpx.Limits(max_connections=1000, max_keepalive_connections=100)
"""Connection limits of the transports to the replicas: those of the ``openai`` client's own (openai-python
``DEFAULT_CONNECTION_LIMITS``)."""

_DROPPED_HEADERS = {"content-encoding", "content-length", "transfer-encoding"}
"""Headers of a failed answer that no longer describe it once its body has been read (and decoded)."""


@dataclass
class _Health:
    """One replica's state in this process (guarded by ``_lock``)."""

    outstanding: int = 0
    down_until: float = 0.0
    last_sent: int = 0
    served: int = 0
    failures: int = 0
    last_error: str = ""


_lock = threading.Lock()
_health: dict[str, _Health] = {}
_sent = 0
"""Requests sent to any replica so far (each replica's ``last_sent`` is the number of its latest)."""
_served_by: ContextVar[str | None] = ContextVar("roundtable_replica_served_by", default=None)


def reset_replicas() -> None:
    """Forget every replica's load, health and counts (tests and benchmarks)."""
    global _sent
    with _lock:
        _health.clear()
        _sent = 0


def replica_stats() -> dict[str, dict[str, float | int | str]]:
    """Per replica base URL: ``served`` (answered requests), ``failures`` (connection errors, timeouts, 5xx),
    ``outstanding`` (requests now in flight or waiting), ``down_for`` (seconds left of its cool-down, 0 when in
    rotation) and ``last_error``; for tests, benchmarks and diagnostics."""
    now = time.monotonic()
    with _lock:
        return {url: {"served": h.served, "failures": h.failures, "outstanding": h.outstanding,
                      "down_for": max(0.0, h.down_until - now), "last_error": h.last_error}
                for url, h in _health.items()}


def describe_replicas(urls: tuple[str, ...]) -> str:
    """``"http://h1/v1: connection error (...); http://h2/v1: HTTP 503"``: each replica's last failure, for the
    message of an outage of them all."""
    with _lock:
        return "; ".join(f"{url}: {_health[url].last_error if url in _health else 'not tried'}" for url in urls)


@contextlib.contextmanager
def serving() -> Iterator[Callable[[], str | None]]:
    """Within the block, the returned function gives the replica that answered the block's last request."""
    token = _served_by.set(None)
    try:
        yield _served_by.get
    finally:
        _served_by.reset(token)


def _choose(urls: tuple[str, ...], tried: set[str]) -> str | None:
    """Take the next replica for a request that has tried ``tried``: the least outstanding in rotation (among
    equals the one sent to longest ago, then the first in ``urls``), else the cooling one back soonest; ``None``
    when all were tried. Counts it outstanding."""
    global _sent
    now = time.monotonic()
    with _lock:
        health = {url: _health.setdefault(url, _Health()) for url in urls if url not in tried}
        up = [url for url, h in health.items() if h.down_until <= now]
        if up:
            url = min(up, key=lambda u: (health[u].outstanding, health[u].last_sent))
        elif health:
            url = min(health, key=lambda u: (health[u].down_until, health[u].last_sent))
        else:
            return None
        _sent += 1
        health[url].outstanding += 1
        health[url].last_sent = _sent
        return url


def _finish(url: str, failure: str | None, cooldown: float) -> None:
    """A request to ``url`` is over: answered (``failure`` None), or failed, which starts a cool-down of
    ``cooldown`` seconds (0: none, for a busy answer)."""
    with _lock:
        health = _health.setdefault(url, _Health())
        health.outstanding -= 1
        if failure is None:
            health.served += 1
            health.down_until = 0.0
        else:
            health.failures += 1
            health.last_error = failure
            if cooldown:
                health.down_until = time.monotonic() + cooldown


def _abandon(url: str) -> None:
    """A request to ``url`` was interrupted (not by the replica): it is no longer outstanding, nothing else."""
    with _lock:
        _health.setdefault(url, _Health()).outstanding -= 1


def _failure(error: httpx.TransportError) -> str:
    kind = "timeout" if isinstance(error, httpx.TimeoutException) else "connection error"
    return f"{kind} ({error})" if str(error) else kind


def _answer(response: httpx.Response, content: bytes) -> httpx.Response:
    """A failed answer whose body has been read, as the ``openai`` client should see it."""
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in _DROPPED_HEADERS]
    return httpx.Response(response.status_code, headers=headers, content=content, extensions=response.extensions)


class _Routing:
    """What the sync and async transports share: the replicas, the cool-down, and moving a request."""

    def __init__(self, urls: tuple[str, ...], cooldown: float) -> None:
        if len(urls) < 2:
            raise ValueError("replicas are two or more base URLs")
        self.urls = urls
        self.cooldown = cooldown
        self._prefix = urls[0].rstrip("/") + "/"

    def to(self, request: httpx.Request, url: str) -> httpx.Request:
        """``request`` (addressed to the first replica, the client's base URL) addressed to ``url``."""
        target = str(request.url)
        if not target.startswith(self._prefix):
            raise ValueError(f"request to {target} is not under the replicas' base URL {self._prefix}")
        headers = [(k, v) for k, v in request.headers.multi_items() if k.lower() != "host"]
        return httpx.Request(request.method, url.rstrip("/") + "/" + target[len(self._prefix):], headers=headers,
                             content=request.content, extensions=request.extensions)

    def outcome(self, response: httpx.Response) -> tuple[str | None, float]:
        """``(failure, cool-down)`` of an answer: ``(None, 0)`` for one to give the caller."""
        if response.status_code >= _FAILED_STATUS:
            return f"HTTP {response.status_code}", self.cooldown
        if response.status_code == _BUSY_STATUS:
            return "HTTP 429 (busy)", 0.0
        return None, 0.0


class _Released(httpx.SyncByteStream):
    """An answer's body that calls ``release`` once, when closed (its request is then over)."""

    def __init__(self, stream: httpx.SyncByteStream, release: Callable[[], None]) -> None:
        self._stream = stream
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[bytes]:
        yield from self._stream

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


def _releaser(url: str) -> Callable[[], None]:
    """What ends an answered request to ``url`` (the async path holds no bound on concurrent calls)."""
    return lambda: _finish(url, None, 0.0)


class _AsyncReleased(httpx.AsyncByteStream):
    """`_Released` for the async transport."""

    def __init__(self, stream: httpx.AsyncByteStream, release: Callable[[], None]) -> None:
        self._stream = stream
        self._release: Callable[[], None] | None = release

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


class ReplicaTransport(httpx.BaseTransport):
    """An ``httpx`` transport sending each request to one of ``urls`` (see the module docstring).

    Args:
        urls: The replicas' base URLs (two or more); the client's ``base_url`` must be the first.
        cooldown: Seconds a failed replica stays out of rotation.
        inner: The transport that does the HTTP (default: an ``httpx.HTTPTransport`` with ``openai``'s
            connection limits).

    Raises (from ``handle_request``):
        httpx.TransportError: every replica failed and the last failure was a connection error or timeout
            (an answer of 5xx or 429 from the last is returned instead).
    """

    def __init__(self, urls: tuple[str, ...], cooldown: float, inner: httpx.BaseTransport | None = None) -> None:
        self._routing = _Routing(urls, cooldown)
        self._inner = inner or httpx.HTTPTransport(limits=_LIMITS)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` to the replicas in turn until one answers (see the module docstring)."""
        request.read()
        routing = self._routing
        tried: set[str] = set()
        last: httpx.Response | httpx.TransportError | None = None
        while (url := _choose(routing.urls, tried)) is not None:
            tried.add(url)
            held = contextlib.ExitStack()
            try:
                held.enter_context(endpoint_slot(url))
                response = self._inner.handle_request(routing.to(request, url))
            except httpx.TransportError as error:
                held.close()
                _finish(url, _failure(error), routing.cooldown)
                last = error
                continue
            except BaseException:
                held.close()
                _abandon(url)
                raise
            failure, cooldown = routing.outcome(response)
            if failure is not None:
                try:
                    content = response.read()
                finally:
                    response.close()
                    held.close()
                _finish(url, failure, cooldown)
                last = _answer(response, content)
                continue
            _served_by.set(url)

            def release(url: str = url, held: contextlib.ExitStack = held) -> None:
                held.close()
                _finish(url, None, 0.0)

            stream = response.stream
            assert isinstance(stream, httpx.SyncByteStream)
            return httpx.Response(response.status_code, headers=response.headers,
                                  stream=_Released(stream, release), extensions=response.extensions)
        if isinstance(last, httpx.Response):
            return last
        assert last is not None, "a request tries at least one replica"
        raise last

    def close(self) -> None:
        """Close the inner transport's connections."""
        self._inner.close()


class AsyncReplicaTransport(httpx.AsyncBaseTransport):
    """`ReplicaTransport` for async clients (the same routing and health; no bound on concurrent calls).

    Args:
        urls: The replicas' base URLs (two or more); the client's ``base_url`` must be the first.
        cooldown: Seconds a failed replica stays out of rotation.
        inner: The transport that does the HTTP (default: an ``httpx.AsyncHTTPTransport`` with ``openai``'s
            connection limits).
    """

    def __init__(self, urls: tuple[str, ...], cooldown: float, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self._routing = _Routing(urls, cooldown)
        self._inner = inner or httpx.AsyncHTTPTransport(limits=_LIMITS)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` to the replicas in turn until one answers (see the module docstring)."""
        await request.aread()
        routing = self._routing
        tried: set[str] = set()
        last: httpx.Response | httpx.TransportError | None = None
        while (url := _choose(routing.urls, tried)) is not None:
            tried.add(url)
            try:
                response = await self._inner.handle_async_request(routing.to(request, url))
            except httpx.TransportError as error:
                _finish(url, _failure(error), routing.cooldown)
                last = error
                continue
            except BaseException:
                _abandon(url)
                raise
            failure, cooldown = routing.outcome(response)
            if failure is not None:
                try:
                    content = await response.aread()
                finally:
                    await response.aclose()
                _finish(url, failure, cooldown)
                last = _answer(response, content)
                continue
            _served_by.set(url)
            stream = response.stream
            assert isinstance(stream, httpx.AsyncByteStream)
            return httpx.Response(response.status_code, headers=response.headers,
                                  stream=_AsyncReleased(stream, _releaser(url)), extensions=response.extensions)
        if isinstance(last, httpx.Response):
            return last
        assert last is not None, "a request tries at least one replica"
        raise last

    async def aclose(self) -> None:
        """Close the inner transport's connections."""
        await self._inner.aclose()


@lru_cache(maxsize=64)
def http_client(urls: tuple[str, ...], cooldown: float) -> Any:
    """The HTTP client (``openai.DefaultHttpxClient``: the SDK's defaults) of the chat models of these replicas,
    one per process, sending through a `ReplicaTransport`."""
    return openai.DefaultHttpxClient(transport=cast(Any, ReplicaTransport(urls, cooldown)))


@lru_cache(maxsize=64)
def async_http_client(urls: tuple[str, ...], cooldown: float) -> Any:
    """The async HTTP client (``openai.DefaultAsyncHttpxClient``) of the chat models of these replicas, one per
    process, sending through an `AsyncReplicaTransport`."""
    return openai.DefaultAsyncHttpxClient(transport=cast(Any, AsyncReplicaTransport(urls, cooldown)))
