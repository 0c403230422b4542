"""Model calls with cost accounting, and where agents get their chat models.

Every model call an agent makes goes through `call_text` or `call_structured`,
which time the call and read its token counts with the model layer's
`roundtable.models.usage.Usage`, so a decision can report its cost
(`Decision.usage`): calls, failures, prompt tokens, completion tokens, cached
prompt tokens, latency in seconds.

Agents do not build chat models themselves: they ask a `ModelProvider` for
``(model spec, temperature, max_tokens)``. `FactoryModels` is the default, backed
by `roundtable.models.chat_model`; tests pass a provider of scripted models.

Reproducible calls: inside `seeded_calls(seed, request id, step)` (which every
agent step enters, `roundtable.agents.protocol.agent_step`) each call carries a
``seed`` (OpenAI's and llama.cpp's sampling seed) derived from the agent's seed,
the request, the step, the module and the call's number within the step, so a
step rerun from a checkpoint with the same prompts samples the same replies,
and an edited prompt changes only the calls that read it and those after.
Each call's record also keeps its seed, prompt and reply, which a decision's
usage lists under ``log`` (for comparing forks and the replay page).
"""

from __future__ import annotations

import functools
import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, Protocol

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ValidationError

from roundtable.games.rng import rng_for
from roundtable.models import chat_model, parse_model_spec, prompt_slots, supports_json_schema
from roundtable.models.usage import Usage

MODULE_METADATA = "roundtable_module"
"""The key under which every call names its agent module (``summarize``, ``act``, ``think``, ``extract``, ...) in
the call's LangChain metadata: tracing shows it, and the scripted test model answers by it."""

UNUSABLE_KEY = "unusable"
"""Set (1) in the usage record of a call whose reply came back but did not parse or validate (`call_structured`);
not summed into a decision's usage: `roundtable.agents.common.decision.unusable_replies` names it."""

USAGE_KEYS = ("calls", "failures", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds")
"""Keys of a usage record (the fields of `roundtable.models.usage.Usage`); sums keep the same keys."""


class ModelProvider(Protocol):
    """Where an agent gets its chat models.

    ``chat(spec, temperature, max_tokens, slot, sampling)`` returns a LangChain chat model for
    the seat's model spec string (``local``, a hosted model name, or
    ``BASE_URL#MODEL``; see `roundtable.models.spec`), pinned to server slot
    ``slot`` when it is not None, sending the extra sampler parameters ``sampling``; ``json_schema(spec)`` says whether
    to ask the
    endpoint for schema-constrained output (``with_structured_output(...,
    method="json_schema")``); ``slots(spec)`` how many server slots with a
    prompt cache each its callers may be pinned to (0: one shared cache).
    """

    def chat(self, spec: str | None, temperature: float, max_tokens: int | None,
             slot: int | None = None, sampling: tuple[tuple[str, Any], ...] = ()) -> BaseChatModel:
        """A chat model for ``spec`` (see the class docstring)."""
        ...

    def json_schema(self, spec: str | None) -> bool:
        """Whether to ask ``spec``'s endpoint for schema-constrained output."""
        ...

    def slots(self, spec: str | None) -> int:
        """How many server slots with a prompt cache ``spec``'s callers may be pinned to (0: one shared cache)."""
        ...


@lru_cache(maxsize=64)
def _parsed(spec: str) -> Any:
    return parse_model_spec(spec)


class FactoryModels:
    """The default `ModelProvider`: `roundtable.models.chat_model`, `supports_json_schema` and `prompt_slots`.

    A seat without a model spec uses ``local`` (the embedded model, started
    once per process by the model layer, which also caches the chat models).

    Raises (from `chat`):
        roundtable.models.ModelConfigError, LocalServerError, ...: the model layer's errors.
        ValueError: a malformed spec string.
    """

    def chat(self, spec: str | None, temperature: float, max_tokens: int | None,
             slot: int | None = None, sampling: tuple[tuple[str, Any], ...] = ()) -> BaseChatModel:
        """`roundtable.models.chat_model` of ``spec`` (``local`` when None)."""
        return chat_model(_parsed(spec or "local"), temperature=float(temperature), max_tokens=max_tokens, slot=slot,
                          sampling=sampling)

    def json_schema(self, spec: str | None) -> bool:
        """`roundtable.models.supports_json_schema` of ``spec`` (``local`` when None)."""
        return supports_json_schema(_parsed(spec or "local"))

    def slots(self, spec: str | None) -> int:
        """`roundtable.models.prompt_slots` of ``spec`` (``local`` when None)."""
        return prompt_slots(_parsed(spec or "local"))


# ------------------------------------------------------------------ usage


def usage_of(message: BaseMessage | None, seconds: float, *, failed: bool = False) -> dict[str, Any]:
    """The usage record of one call (`roundtable.models.usage.Usage` as a dict).

    Args:
        message: the reply (``None`` when the call gave none).
        seconds: the call's wall-clock latency.
        failed: the call raised (counted in ``failures``, not ``calls``).

    Returns:
        ``{"calls", "failures", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds"}``.
    """
    if failed or message is None:
        usage = Usage(failures=1 if failed else 0, calls=0 if failed else 1, seconds=seconds)
    else:
        usage = Usage.from_message(message, seconds)
    record = usage.model_dump()
    record["seconds"] = round(record["seconds"], 3)
    return record


def total_usage(records: Iterable[dict[str, Any]], fallbacks: int = 0) -> dict[str, Any]:
    """Sum call records into a decision's usage: the `USAGE_KEYS` plus ``fallbacks``.

    Args:
        records: per-call usage records (`usage_of`), possibly with a ``module`` key.
        fallbacks: fallback rules applied for this decision.

    Returns:
        The summed `USAGE_KEYS`, ``fallbacks``, and, when records name their
        module, ``modules``: ``{module: summed USAGE_KEYS}`` (e.g. how much of a
        decision went to the round's summary); when records carry their prompt,
        ``log``: ``[{"module", "seed", "prompt", "reply"}]`` per call, in order
        (``prompt``: ``[{"role", "content"}]``).
    """
    total: dict[str, Any] = {k: 0 for k in USAGE_KEYS}
    modules: dict[str, dict[str, Any]] = {}
    records = list(records)
    log = [{k: r.get(k) for k in ("module", "seed", "prompt", "reply")} for r in records if "prompt" in r]
    for record in records:
        rows = [total]
        if record.get("module"):
            rows.append(modules.setdefault(str(record["module"]), {k: 0 for k in USAGE_KEYS}))
        for row in rows:
            for key in USAGE_KEYS:
                row[key] += record.get(key) or 0
    for row in (total, *modules.values()):
        row["seconds"] = round(row["seconds"], 3)
    total["fallbacks"] = fallbacks
    if modules:
        total["modules"] = modules
    if log:
        total["log"] = log
    return total


# ------------------------------------------------------------------ seeds

_SEEDS: ContextVar[tuple[int, tuple[object, ...], Counter[str]] | None] = ContextVar("roundtable_call_seeds",
                                                                                     default=None)


@contextmanager
def seeded_calls(seed: int | None, *key: object) -> Iterator[None]:
    """Calls made inside carry seeds derived from ``seed`` and ``key`` (e.g. request id and agent step);
    ``seed=None``: no seeds (the endpoint samples freely). Per thread and task (a context variable)."""
    token = _SEEDS.set(None if seed is None else (seed, key, Counter()))
    try:
        yield
    finally:
        _SEEDS.reset(token)


def next_call_seed(module: str) -> int | None:
    """The seed of the next call of ``module`` in the current `seeded_calls` block (31 bits), or ``None``
    outside one. The n-th call of a module gets ``rng_for(seed, *key, module, n)``'s first 31 bits."""
    current = _SEEDS.get()
    if current is None:
        return None
    seed, key, counts = current
    counts[module] += 1
    return rng_for(seed, *key, module, counts[module]).getrandbits(31)


def with_seed(model: BaseChatModel, seed: int | None) -> BaseChatModel:
    """``model`` sampling with ``seed`` (a copy; chat models without a ``seed`` field are returned as they are)."""
    if seed is None or "seed" not in getattr(type(model), "model_fields", {}):
        return model
    return model.model_copy(update={"seed": seed})


def _prompt(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
    return [{"role": m.type, "content": text_of(m)} for m in messages]


def _logged(record: dict[str, Any], seed: int | None, messages: Sequence[BaseMessage], reply: str) -> dict[str, Any]:
    return record | {"seed": seed, "prompt": _prompt(messages), "reply": reply}


# ------------------------------------------------------------------ calls


@functools.cache
def unusable_reply_errors() -> tuple[type[BaseException], ...]:
    """Errors that mean "the reply cannot be used" (fall back), not "the endpoint is gone" (stop). A function, so
    that the ``openai`` SDK (0.5 s to import) is loaded only when a call has failed."""
    import openai

    return (OutputParserException, ValidationError, json.JSONDecodeError, openai.LengthFinishReasonError,
            openai.ContentFilterFinishReasonError, openai.BadRequestError)

UNUSABLE = "(unusable reply"
"""Start of the raw text `call_structured` reports for a call that raised an unusable-reply error."""


def text_of(message: BaseMessage | None) -> str:
    """The text of a reply message (string content, or the text parts of a list content)."""
    if message is None:
        return ""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)


def call_text(model: BaseChatModel, messages: Sequence[BaseMessage], module: str) -> tuple[str, dict[str, Any]]:
    """One plain model call.

    Returns:
        ``(reply text, usage record with module name)``.

    Raises:
        Whatever the model raises (connection errors, `ModelUnavailableError`):
        a plain call has no fallback, and the game stops resumably.
    """
    seed = next_call_seed(module)
    start = time.perf_counter()
    reply = with_seed(model, seed).invoke(list(messages), config={"metadata": {MODULE_METADATA: module}})
    record = usage_of(reply, time.perf_counter() - start) | {"module": module}
    return text_of(reply), _logged(record, seed, messages, text_of(reply))


def _completion_text(completion: Any) -> str:
    """The reply text of an OpenAI ``ChatCompletion`` an error carries (``""`` when there is none)."""
    try:
        return str(completion.choices[0].message.content or "")
    except (AttributeError, IndexError, TypeError):
        return ""


def _completion_tokens(completion: Any) -> dict[str, int]:
    """The token counts of an OpenAI ``ChatCompletion`` an error carries (``{}`` when it has none): a reply
    cut at the length limit was still paid for."""
    usage = getattr(completion, "usage", None)
    if usage is None:
        return {}
    details = getattr(usage, "prompt_tokens_details", None)
    return {"prompt_tokens": int(getattr(usage, "prompt_tokens", 0) or 0),
            "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0),
            "cached_tokens": int(getattr(details, "cached_tokens", 0) or 0)}


def call_structured(
    model: BaseChatModel, messages: Sequence[BaseMessage], schema: type[BaseModel], module: str
) -> tuple[dict[str, Any] | None, str, dict[str, Any]]:
    """One schema-constrained call: ``with_structured_output(<schema as JSON schema>, method="json_schema",
    include_raw=True)``, validated here with ``schema``.

    The schema goes to the endpoint as a plain JSON schema, so the client does
    not validate the reply itself: a reply that does not validate keeps its
    whole raw text (the client's own parse would raise and lose it).

    Returns:
        ``(parsed fields or None, raw reply text, usage record)``. ``None`` when
        the reply did not parse or validate, or the endpoint refused the schema
        or stopped at the length limit; the raw text then holds what came back
        (the reply itself where there was one, then the error). A call that
        raised counts in the record's ``failures``; a reply that came back and
        did not parse or validate is a call whose record carries
        ``UNUSABLE_KEY``.

    Raises:
        Connection-type errors (and `ModelUnavailableError`) pass through.
    """
    seed = next_call_seed(module)
    runnable = with_seed(model, seed).with_structured_output(schema.model_json_schema(), method="json_schema",
                                                             include_raw=True)
    start = time.perf_counter()
    try:
        result = runnable.invoke(list(messages), config={"metadata": {MODULE_METADATA: module}})
    except unusable_reply_errors() as error:
        completion = getattr(error, "completion", None)
        record = usage_of(None, time.perf_counter() - start, failed=True) | _completion_tokens(completion) | {
            "module": module}
        said = _completion_text(completion)
        raw = f"{said}\n{UNUSABLE}: {type(error).__name__}: {str(error)[:200]})".lstrip("\n")
        return None, raw, _logged(record, seed, messages, raw)
    latency = time.perf_counter() - start
    raw_message = result.get("raw") if isinstance(result, dict) else None
    raw = text_of(raw_message)
    record = _logged(usage_of(raw_message, latency) | {"module": module}, seed, messages, raw)
    parsed = result.get("parsed") if isinstance(result, dict) else result
    if isinstance(parsed, BaseModel):
        return parsed.model_dump(), raw, record
    if isinstance(parsed, dict):
        try:
            return schema.model_validate(parsed).model_dump(), raw, record
        except ValidationError:
            pass
    return None, raw, record | {UNUSABLE_KEY: 1}
