"""Cost accounting of model calls: calls, tokens, cached tokens, latency.

Two ways to get a :class:`Usage`:

* from one reply: :meth:`Usage.from_message` reads ``AIMessage.usage_metadata``
  (with structured output, ask for ``include_raw=True`` and pass ``result["raw"]``);
* from everything some code does: ``with collect_usage() as usage: ...`` records
  every chat-model call started inside the block, in any thread or task that
  inherits the block's context (LangGraph's parallel branches do), then
  ``usage.total`` is their sum and ``usage.records`` the per-call records.

Blocks nest (per decision inside per player inside per game): a call counts once
in every enclosing block. A :class:`UsageCollector` can also be passed explicitly
as a callback (``config={"callbacks": [collector]}``).

Token counts come from the endpoint's OpenAI ``usage`` object as langchain-openai
maps it: ``prompt_tokens`` -> ``input_tokens``, ``completion_tokens`` ->
``output_tokens``, ``prompt_tokens_details.cached_tokens`` ->
``input_token_details["cache_read"]`` (llama.cpp's server and OpenAI both report it).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.tracers.context import register_configure_hook
from pydantic import BaseModel, ConfigDict


class Usage(BaseModel):
    """Usage of one or more model calls; add them with ``+`` or ``sum(...)``.

    Attributes:
        calls: Completed model calls.
        failures: Model calls that raised (after the client's own retries).
        prompt_tokens: Prompt tokens, cached ones included.
        completion_tokens: Generated tokens.
        cached_tokens: Prompt tokens served from the endpoint's prompt cache.
        seconds: Summed wall-clock latency of the calls, in seconds (parallel
            calls overlap, so this can exceed the elapsed time).
    """

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    seconds: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        """Field-wise sum."""
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields})

    def __radd__(self, other: Any) -> Usage:
        """Support ``sum(usages)`` (whose start value is ``0``)."""
        if other == 0:
            return self
        return self.__add__(other)

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    @property
    def cached_share(self) -> float:
        """Fraction of prompt tokens served from cache (0.0 when there were none)."""
        return self.cached_tokens / self.prompt_tokens if self.prompt_tokens else 0.0

    @classmethod
    def from_message(cls, message: BaseMessage | None, seconds: float = 0.0) -> Usage:
        """Usage of the call that produced ``message`` (one call, zero tokens if unreported).

        Reads ``usage_metadata`` (LangChain's standard field), falling back to the
        raw OpenAI ``response_metadata["token_usage"]`` for the cached tokens.
        """
        meta = getattr(message, "usage_metadata", None) or {}
        raw = (getattr(message, "response_metadata", None) or {}).get("token_usage") or {}
        cached = (meta.get("input_token_details") or {}).get("cache_read")
        if cached is None:
            cached = (raw.get("prompt_tokens_details") or {}).get("cached_tokens")
        return cls(
            calls=1,
            prompt_tokens=meta.get("input_tokens", raw.get("prompt_tokens")) or 0,
            completion_tokens=meta.get("output_tokens", raw.get("completion_tokens")) or 0,
            cached_tokens=cached or 0,
            seconds=seconds,
        )

    @classmethod
    def from_result(cls, result: LLMResult, seconds: float = 0.0) -> Usage:
        """Usage of one model run from its ``LLMResult`` (as given to ``on_llm_end``)."""
        generations = [g for batch in result.generations for g in batch]
        first = generations[0] if generations else None
        if isinstance(first, ChatGeneration) and isinstance(first.message, AIMessage) and first.message.usage_metadata:
            return cls.from_message(first.message, seconds)
        token_usage = (result.llm_output or {}).get("token_usage") or {}
        cached = (token_usage.get("prompt_tokens_details") or {}).get("cached_tokens")
        return cls(
            calls=1,
            prompt_tokens=token_usage.get("prompt_tokens") or 0,
            completion_tokens=token_usage.get("completion_tokens") or 0,
            cached_tokens=cached or 0,
            seconds=seconds,
        )


class UsageRecord(BaseModel):
    """One model call as seen by a :class:`UsageCollector`.

    Attributes:
        run_id: LangChain run id of the call.
        model: Model name (``ls_model_name`` metadata), if known.
        node: LangGraph node that made the call (``langgraph_node`` metadata), if any.
        usage: The call's usage (``calls == 1`` or ``failures == 1``).
    """

    model_config = ConfigDict(frozen=True)

    run_id: UUID
    model: str | None = None
    node: str | None = None
    usage: Usage


class UsageCollector(BaseCallbackHandler):
    """Callback handler recording the usage of every chat-model call it sees (thread-safe).

    Each run id counts once, even when the collector hears of it twice (directly
    and through a nested collector).
    """

    run_inline = True  # record in the caller's thread/task, in order

    def __init__(self, parent: UsageCollector | None = None) -> None:
        self._parent = parent
        self._lock = threading.Lock()
        self._started: dict[UUID, tuple[float, str | None, str | None]] = {}
        self._records: dict[UUID, UsageRecord] = {}

    @property
    def records(self) -> list[UsageRecord]:
        """Per-call records, in completion order (a copy)."""
        with self._lock:
            return list(self._records.values())

    @property
    def total(self) -> Usage:
        """Sum of all records."""
        return sum((record.usage for record in self.records), Usage())

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Note the start time of a chat-model call."""
        self._start(run_id, kwargs.get("metadata"))

    def on_llm_start(self, serialized: dict[str, Any], prompts: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Note the start time of a completion-model call."""
        self._start(run_id, kwargs.get("metadata"))

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """Record a finished call."""
        seconds, model, node = self._finish(run_id)
        self._record(UsageRecord(run_id=run_id, model=model, node=node, usage=Usage.from_result(response, seconds)))

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Record a failed call."""
        seconds, model, node = self._finish(run_id)
        self._record(UsageRecord(run_id=run_id, model=model, node=node, usage=Usage(failures=1, seconds=seconds)))

    def _start(self, run_id: UUID, metadata: Mapping[str, Any] | None) -> None:
        metadata = metadata or {}
        with self._lock:
            self._started[run_id] = (time.perf_counter(), metadata.get("ls_model_name"), metadata.get("langgraph_node"))

    def _finish(self, run_id: UUID) -> tuple[float, str | None, str | None]:
        with self._lock:
            started = self._started.pop(run_id, None)
        if started is None:
            return 0.0, None, None
        return time.perf_counter() - started[0], started[1], started[2]

    def _record(self, record: UsageRecord) -> None:
        with self._lock:
            if record.run_id in self._records:
                return
            self._records[record.run_id] = record
        if self._parent is not None:
            self._parent._record(record)


_current: ContextVar[UsageCollector | None] = ContextVar("roundtable_usage_collector", default=None)
register_configure_hook(_current, inheritable=True)


@contextlib.contextmanager
def collect_usage() -> Iterator[UsageCollector]:
    """Collect the usage of every model call started inside the ``with`` block.

    Works across threads and tasks that copy the block's context (LangChain's and
    LangGraph's executors do) and nests: an inner block's calls also count in
    the outer ones.

    Yields:
        A :class:`UsageCollector`; read ``.total`` or ``.records`` (also after the block).
    """
    collector = UsageCollector(parent=_current.get())
    token = _current.set(collector)
    try:
        yield collector
    finally:
        _current.reset(token)
