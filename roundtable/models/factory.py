"""The one factory of chat models: a :class:`ModelSpec` in, a ``ChatOpenAI`` out.

Every model, embedded or hosted, is a ``langchain_openai.ChatOpenAI`` (more
precisely :class:`OutageAwareChatOpenAI`, a subclass) talking to an
OpenAI-compatible endpoint:

=========  ======================================  =========================================
kind       endpoint                                key
=========  ======================================  =========================================
local      the embedded server (started lazily)    none
openai     ``$OPENAI_BASE_URL`` or api.openai.com  ``$OPENAI_API_KEY``
server     the spec's URL, or one of its replicas  ``$ROUNDTABLE_SERVER_API_KEY`` if set
=========  ======================================  =========================================

A spec naming several endpoints (replicas, ``BASE_URL|BASE_URL#MODEL``) gives the same ``ChatOpenAI``, whose
``openai`` client sends each request to one replica through `roundtable.models.replicas.ReplicaTransport`:
spread by outstanding requests, a failing replica skipped during its cool-down.

Retries: the ``openai`` client retries connection errors, timeouts, 408, 409,
429 and 5xx with exponential backoff (0.5 s doubling to 8 s, jittered; it honours
``Retry-After``), ``max_retries`` times. When they are exhausted on an outage
(connection refused/reset, timeout, 429, 5xx), the model raises
:class:`ModelUnavailableError` naming the URL, so the game stops at a checkpoint
and can be resumed. Other errors (bad request, authentication) pass unchanged. For replicas a failing replica is
first skipped for the next (`roundtable.models.replicas`); these retries, and the error, come only when every
replica failed, and the error names each.

Source: langchain-openai 1.7 ``ChatOpenAI`` (``max_retries`` and ``timeout`` go
to the ``openai`` client); openai-python ``_base_client`` (retry policy).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import openai
from langchain_core.language_models import BaseChatModel
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr, SecretStr

from roundtable.models import local, replicas  # xllamacpp, optional, is imported only when the server starts
from roundtable.models.errors import ModelConfigError, ModelUnavailableError
from roundtable.models.limits import endpoint_slot
from roundtable.models.spec import LOCAL, ModelSpec, parse_flag
from roundtable.settings import settings

LOCAL_MAX_RETRIES = 2
"""Retries against the embedded server (an error there rarely heals by waiting)."""

REMOTE_MAX_RETRIES = 4
"""Retries against remote endpoints: about 7 s of backoff before giving up."""

LOCAL_TIMEOUT = 1800.0
"""Seconds a request to the embedded server may take, queueing included (one slot, 2 cores)."""

REMOTE_TIMEOUT = 60.0
"""Seconds a request to a remote endpoint may stay silent before it counts as a timeout (retried like a
connection error). An endpoint that accepts connections and never answers therefore stops the game after at most
``(1 + REMOTE_MAX_RETRIES) x REMOTE_TIMEOUT`` seconds plus the backoff, about 5 minutes; the spec's ``timeout=``
and ``max_retries=`` options change both."""

SERVER_API_KEY_ENV = "ROUNDTABLE_SERVER_API_KEY"
"""Environment variable holding the key sent to ``server``-kind endpoints (read by `roundtable.settings`)."""

JSON_SCHEMA_ENV = "ROUNDTABLE_JSON_SCHEMA"
"""Environment variable (true/false) giving :func:`supports_json_schema` for ``server`` specs (read by
`roundtable.settings`)."""

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


_cache: dict[tuple[ModelSpec, float, int | None, int | None, tuple[tuple[str, Any], ...]], BaseChatModel] = {}
_cache_lock = threading.Lock()


def chat_model(spec: ModelSpec, temperature: float, max_tokens: int | None = None,
               slot: int | None = None, sampling: tuple[tuple[str, Any], ...] = ()) -> BaseChatModel:
    """Build (or reuse) the chat model for ``spec``.

    Models are cached per ``(spec, temperature, max_tokens, slot, sampling)`` for the life of the
    process. For ``local`` specs the embedded server is started on first use.

    Args:
        spec: What to talk to (:func:`roundtable.models.spec.parse_model_spec`).
        temperature: Sampling temperature (0 for extraction, 0.3 for agent modules).
        max_tokens: Cap on generated tokens per call; ``None``: the endpoint's default.
        slot: The llama.cpp server slot every call is pinned to (``id_slot`` in the request body, 0-based,
            below `prompt_slots`), so a caller keeps its own prompt cache there; ``None``: the server picks.
        sampling: extra sampler parameters sent in every request body, as ``((name, value), ...)``, e.g.
            llama.cpp's DRY sampler (`roundtable.agents.lga.calls.DRY_SAMPLING`); only for servers that take them.

    Returns:
        An :class:`OutageAwareChatOpenAI` (a ``ChatOpenAI``).

    Raises:
        ModelConfigError: Missing credentials for a hosted model.
        MissingModelPartsError, ModelChecksumError, LocalServerError: The
            embedded model could not be started (``local`` only).
    """
    key = (spec, float(temperature), max_tokens, slot, tuple(sampling))
    with _cache_lock:
        model = _cache.get(key)
        if model is None:
            model = _cache[key] = _build(spec, float(temperature), max_tokens, slot, dict(sampling))
        return model


def prompt_slots(spec: ModelSpec) -> int:
    """How many server slots with a prompt cache each ``spec``'s callers may be pinned to (0: none).

    The spec's ``slots`` option wins; otherwise the embedded server's slot count
    (`roundtable.models.local.LocalSettings`, read without starting it) for
    ``local``, and 0 for hosted and URL endpoints, whose one shared prompt cache
    is best served by prompts that share a long prefix.

    Raises:
        ValueError: a ``ROUNDTABLE_LOCAL_*`` variable is malformed.
    """
    if spec.slots is not None:
        return spec.slots
    if spec.kind == "local":
        return local.LocalSettings.from_env().n_parallel
    return 0


def clear_model_cache() -> None:
    """Forget the cached models (the embedded server keeps running)."""
    with _cache_lock:
        _cache.clear()


def _build(spec: ModelSpec, temperature: float, max_tokens: int | None, slot: int | None = None,
           sampling: dict[str, Any] | None = None) -> BaseChatModel:
    common: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens}
    body = dict(sampling or {}) | ({"id_slot": slot} if slot is not None else {})
    if body:
        common["extra_body"] = body
    if spec.kind == "local":
        server = local.local_server()
        model = OutageAwareChatOpenAI(
            model=LOCAL,
            base_url=server.base_url,
            api_key=SecretStr("local"),
            max_retries=_or(spec.max_retries, LOCAL_MAX_RETRIES),
            timeout=_or(spec.timeout, LOCAL_TIMEOUT),
            stream_usage=True,
            **common,
        )
        if slot is not None:
            model._before_call = functools.partial(server.prepare_slot, slot)
        return model
    remote: dict[str, Any] = {
        "model": spec.model,
        "max_retries": _or(spec.max_retries, REMOTE_MAX_RETRIES),
        "timeout": _or(spec.timeout, REMOTE_TIMEOUT),
        **common,
    }
    if spec.kind == "server":
        remote |= {"base_url": spec.base_url, "api_key": settings().server_api_key or SecretStr("none")}
    if spec.replicas:
        cooldown = _or(spec.cooldown, replicas.DEFAULT_COOLDOWN)
        remote |= {"http_client": replicas.http_client(spec.replicas, cooldown),
                   "http_async_client": replicas.async_http_client(spec.replicas, cooldown)}
    try:
        model = OutageAwareChatOpenAI(**remote)
        model._replicas = spec.replicas
        return model
    except openai.OpenAIError as error:
        raise ModelConfigError(
            f"cannot use hosted model {spec.model!r}: {error} "
            "(set OPENAI_API_KEY, and OPENAI_BASE_URL for a non-OpenAI provider)"
        ) from error


def _backoff(attempt: int) -> float:
    """Seconds to wait before retry ``attempt + 1`` of a malformed answer (0.5, 1, 2, ... up to 8)."""
    return min(8.0, 0.5 * 2**attempt)


def check_model(spec: ModelSpec) -> None:
    """Check that ``spec`` can be used with this environment, without any model call or server start:
    hosted credentials present, ``$ROUNDTABLE_JSON_SCHEMA`` readable.

    Raises:
        ModelConfigError: the first problem found, named.
    """
    try:
        supports_json_schema(spec)
    except ValueError as error:
        raise ModelConfigError(str(error)) from None
    if spec.kind != "local":
        _build(spec, 0.0, None)


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def supports_json_schema(spec: ModelSpec) -> bool:
    """Whether to ask ``spec`` for schema-constrained output (``method="json_schema"``).

    The spec's ``json_schema`` option wins; otherwise ``True`` for ``local`` and
    ``openai``, and for ``server`` the value of ``$ROUNDTABLE_JSON_SCHEMA``
    (``true``/``false``, default ``true``). When ``False``, agents ask for prose
    and run the extractor of docs/games/protocol.md#reading-answers-from-replies.

    Raises:
        ValueError: ``$ROUNDTABLE_JSON_SCHEMA`` is set to something other than a boolean.
    """
    if spec.json_schema is not None:
        return spec.json_schema
    if spec.kind != "server":
        return True
    value = settings().json_schema.strip()
    try:
        return parse_flag(value) if value else True
    except ValueError as error:
        raise ValueError(f"${JSON_SCHEMA_ENV}: {error}") from None
