"""The chat model every model is: `OutageAwareChatOpenAI`, a ``langchain_openai.ChatOpenAI`` that raises
`roundtable.models.errors.ModelUnavailableError` when its endpoint is down (built by `roundtable.models.factory`,
whose docstring gives the retry policy and its sources).

Kept apart from the factory so that the ``openai`` SDK and langchain-openai (about 0.6 s to import) load only
when a model is built.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import openai
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

from roundtable.models import replicas
from roundtable.models.errors import ModelUnavailableError
from roundtable.models.limits import endpoint_slot

_OUTAGES = (openai.APIConnectionError, openai.InternalServerError, openai.RateLimitError)
"""Errors meaning "the endpoint is not serving" (``APITimeoutError`` is an ``APIConnectionError``)."""


class MalformedCompletion(Exception):
    """The endpoint answered 200 with a body that is not a chat completion (HTML, no ``choices``)."""


def _preview(response: Any) -> str:
    text = " ".join(str(response).split())
    return text[:80] + ("..." if len(text) > 80 else "")


class OutageAwareChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` that raises :class:`ModelUnavailableError` when its endpoint is down.

    Behaves exactly like ``ChatOpenAI`` otherwise (structured output, streaming,
    async); the translation happens after the client's own retries. A 200
    answer that is not a chat completion (an HTML page, a body without
    ``choices``) is retried like an outage (``max_retries`` times, with
    backoff), then raised as :class:`ModelUnavailableError` too. A ``before_call`` hook, when given, runs before
    each request (the embedded server's seeding of a fresh slot, `roundtable.models.local.LocalServer.prepare_slot`).
    With ``replicas`` set (the base URLs of a spec naming several, its client routed by
    `roundtable.models.replicas`), the bound on concurrent calls is held per replica by the transport, the
    error names every replica, and each reply's ``response_metadata["replica"]`` says which one answered.
    """

    _before_call: Callable[[], None] | None = PrivateAttr(default=None)
    _replicas: tuple[str, ...] = PrivateAttr(default=())

    @classmethod
    def is_lc_serializable(cls) -> bool:
        """Not serializable under ChatOpenAI's id (it is built from a spec instead)."""
        return False

    @contextlib.contextmanager
    def _outage_as_unavailable(self) -> Iterator[None]:
        try:
            yield
        except _OUTAGES as error:
            raise self._unavailable(_describe(error), outage=True) from error

    def _create_chat_result(self, response: Any, generation_info: dict[str, Any] | None = None) -> Any:
        payload = response if isinstance(response, dict) else getattr(response, "model_dump", lambda: response)()
        choices = payload.get("choices") if isinstance(payload, dict) else None
        if not isinstance(choices, list) or not choices:
            raise MalformedCompletion(f"the endpoint answered with no chat completion: {_preview(response)}")
        return super()._create_chat_result(response, generation_info)

    def _endpoint(self) -> str:
        """The endpoint's base URL, the key of its bound on concurrent calls (`roundtable.models.limits`); for
        replicas their base URLs joined by ``|``, as the spec names them."""
        if self._replicas:
            return "|".join(self._replicas)
        return str(self.root_client.base_url).rstrip("/")

    def _unavailable(self, reason: str, outage: bool = False) -> ModelUnavailableError:
        if self._replicas and outage:
            reason = f"{reason}; every replica failed: {replicas.describe_replicas(self._replicas)}"
        return ModelUnavailableError(self._endpoint(), self.model_name, reason)

    def _endpoint_slot(self) -> contextlib.AbstractContextManager[None]:
        """The bound on concurrent calls held around one call: the endpoint's, or none here for replicas, whose
        transport holds each replica's own."""
        return contextlib.nullcontext() if self._replicas else endpoint_slot(self._endpoint())

    def _served(self, result: Any, replica: str | None) -> Any:
        """``result`` (a ``ChatResult``) with the replica that answered in its messages' ``response_metadata``."""
        if self._replicas and replica is not None:
            for generation in result.generations:
                generation.message.response_metadata["replica"] = replica
        return result

    def _retries(self) -> int:
        """Retries of a malformed answer: as many as of a failed connection (`chat_model` always sets them)."""
        return self.max_retries or 0

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        if self._before_call is not None:
            self._before_call()
        retries = self._retries()
        for attempt in range(retries + 1):
            try:
                with self._outage_as_unavailable(), self._endpoint_slot(), replicas.serving() as served:
                    return self._served(super()._generate(*args, **kwargs), served())
            except MalformedCompletion as error:
                if attempt == retries:
                    raise self._unavailable(f"{error} (after retries)") from error
                time.sleep(_backoff(attempt))
        raise AssertionError("unreachable")

    async def _agenerate(self, *args: Any, **kwargs: Any) -> Any:
        if self._before_call is not None:
            await asyncio.to_thread(self._before_call)
        retries = self._retries()
        for attempt in range(retries + 1):
            try:
                with self._outage_as_unavailable(), replicas.serving() as served:
                    return self._served(await super()._agenerate(*args, **kwargs), served())
            except MalformedCompletion as error:
                if attempt == retries:
                    raise self._unavailable(f"{error} (after retries)") from error
                await asyncio.sleep(_backoff(attempt))
        raise AssertionError("unreachable")

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        if self._before_call is not None:
            self._before_call()
        with self._outage_as_unavailable():
            yield from super()._stream(*args, **kwargs)

    async def _astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        if self._before_call is not None:
            await asyncio.to_thread(self._before_call)
        with self._outage_as_unavailable():
            async for chunk in super()._astream(*args, **kwargs):
                yield chunk


def _describe(error: Exception) -> str:
    """Short reason for an outage error, e.g. ``"connection error (Connection refused)"``."""
    if isinstance(error, openai.APIStatusError):
        return f"HTTP {error.status_code} after retries"
    root: BaseException = error
    while (cause := root.__cause__ or root.__context__) is not None:
        root = cause
    detail = f" ({root})" if root is not error and str(root) else ""
    kind = "timeout" if isinstance(error, openai.APITimeoutError) else "connection error"
    return f"{kind} after retries{detail}"


def _backoff(attempt: int) -> float:
    """Seconds to wait before retry ``attempt + 1`` of a malformed answer (0.5, 1, 2, ... up to 8)."""
    return min(8.0, 0.5 * 2**attempt)
