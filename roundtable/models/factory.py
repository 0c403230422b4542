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

The model class itself is in `roundtable.models.chat`, imported when the first model is built: the ``openai`` SDK
and langchain-openai take about 0.6 s to import, which a command or a game without a model seat never pays.

Source: langchain-openai 1.7 ``ChatOpenAI`` (``max_retries`` and ``timeout`` go
to the ``openai`` client); openai-python ``_base_client`` (retry policy).
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from roundtable.models import local  # xllamacpp, optional, is imported only when the server starts
from roundtable.models.errors import ModelConfigError
from roundtable.models.spec import LOCAL, ModelSpec, parse_flag
from roundtable.settings import settings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

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
    import openai

    from roundtable.models import replicas
    from roundtable.models.chat import OutageAwareChatOpenAI

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
        chat_model(spec, 0.0, None)  # built once (cached), as a game's every seat checks its model


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
