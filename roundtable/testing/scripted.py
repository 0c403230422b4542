"""A scripted chat model for tests of agent kinds: no real model, replies chosen by the agent module that calls.

Every model call of an agent goes through `roundtable.agents.common.model_calls.call_text` or
`call_structured`, which name the calling module (``summarize``, ``act``, ``think``, ``extract``, ...) in the
call's metadata (`MODULE_METADATA`). `Script` answers each call from its replies for that module (or a default),
records it, and can fail once on the n-th call; `ScriptedModels` is a `ModelProvider` over a script. The module is
never guessed from a prompt's wording, so rewording a template sends no reply to the wrong step.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig, RunnableLambda
from pydantic import BaseModel, Field

from roundtable.agents.cga.answer import ANSWER_KEY
from roundtable.agents.common.model_calls import MODULE_METADATA
from roundtable.models.errors import ModelUnavailableError


class UnnamedCallError(LookupError):
    """A model call whose metadata names no module: it did not go through ``call_text`` or ``call_structured``."""


def module_of(metadata: Mapping[str, Any] | None) -> str:
    """The agent module a call's metadata names (`MODULE_METADATA`).

    Raises:
        UnnamedCallError: none is named.
    """
    module = (metadata or {}).get(MODULE_METADATA)
    if not module:
        raise UnnamedCallError("a model call names no module in its metadata: make it with "
                               "roundtable.agents.common.model_calls.call_text or call_structured")
    return str(module)


@dataclass
class Call:
    """One recorded model call: the agent module that made it (from the call's metadata), its messages, sampling
    and schema."""

    module: str
    messages: list[BaseMessage]
    temperature: float
    max_tokens: int | None
    schema: type[BaseModel] | dict | None
    slot: int | None = None
    sampling: dict[str, Any] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        """All message texts joined."""
        return "\n".join(str(m.content) for m in self.messages)


Reply = str | Callable[[Call], str]

_LOCK = threading.Lock()


def default_structured(schema: type[BaseModel] | dict) -> str:
    """A valid JSON answer for an answer or extractor schema (a pydantic model or its JSON schema)."""
    props = (schema if isinstance(schema, dict) else schema.model_json_schema())["properties"]
    out: dict[str, Any] = {}
    for name, spec in props.items():
        enum = spec.get("enum") or []
        if name == "players":
            out[name] = list(range(1, spec["minItems"] + 1)) if "minItems" in spec else [1, 2]
        elif name == "answer":
            out[name] = "fail" if "fail" in enum else enum[0]  # an evil card fails; a vote approves
        elif name == "reason":
            out[name] = "Nobody on it is suspect."
        elif name == "player":
            out[name] = enum[0] if enum else spec.get("minimum", 1)  # a pass (0) when allowed
        elif name == "words":
            out[name] = "I trust this team."
        elif name in ("summary", "analysis", "plan"):
            out[name] = f"{name.upper()}-TEXT."
        elif name == "chosen":
            out[name] = list(range(1, spec.get("minItems", 1) + 1))
        elif name == "own":
            out[name] = [f"OWN-TEXT-{i}." for i in range(1, spec.get("minItems", 1) + 1)]
        elif name.startswith(ANSWER_KEY):  # cga's answers, one key per question
            out[name] = f"ANSWERS-TEXT-{name.removeprefix(ANSWER_KEY)}."
        elif name == "reflection":
            out[name] = "As the player, I observed that REFLECTION-TEXT."
        elif name == "thought":
            out[name] = "THOUGHT-TEXT."
        elif name.startswith("player_"):  # the belief probe's parser: P(good) per player
            out[name] = 0.5
    return json.dumps(out)


FAKE_MODEL = "http://127.0.0.1:9/v1#fake"
"""A seat's model spec in graph tests: a server that is never called (scripted models answer), needing no key."""

DEFAULTS: dict[str, str] = {
    "summarize": "Quest went as planned. SUMMARY-TEXT.",
    "analyze": "Player 2 seems honest. ANALYSIS-TEXT.",
    "plan": "Back trusted players. PLAN-TEXT.",
    "act": "Choice: 1, 2\nWords: I propose players 1 and 2.",
    "respond": "I agree with this team.",
    "extract": "1, 2",
    "questions": "Chosen: 1, 2\nOwn: Who is lying?\nOwn: Whom do I trust?",
    "answer": "ANSWER-TEXT.",
    "reflect": "As the player, I observed that REFLECTION-TEXT.",
    "suggest": "The best way for you to do under such reflection is SUGGESTION-TEXT.",
    "think": "Choice: 1, 2\nWords: I propose players 1 and 2.",
    "write": "I agree with this team.",
    "debug": "I agree with this team.",
    "react": "I agree with this team.",
    "parse": "Answer: 1, 2",
    "speak": "I trust this team.",
    "believe": "Everyone seems as likely good as evil to me.",
    "parse_beliefs": "Answer: {" + ", ".join(f"{p}: 0.5" for p in range(1, 11)) + "}",  # AvalonBench's template
    "suggestions": "1. Trust the servants.",
    "strategy": "Lead with trusted players.",
    "other_role": "Played quietly.",
}
"""The reply of a module the script gives none for (a schema-constrained call gets `default_structured`)."""


@dataclass
class Script:
    """Replies for every module, by module name; records calls.

    Attributes:
        replies: ``{module: text or callable(Call) -> text}``; a list value is consumed in order.
        fail_at: raise `ModelUnavailableError` on this call number (1-based), once.
        fail_on: raise it on the first call for which ``fail_on(call, earlier calls)`` holds, once
            (for calls made in parallel, whose numbers vary from run to run).
    """

    replies: dict[str, Reply | list[Reply]] = field(default_factory=dict)
    fail_at: int | None = None
    fail_on: Callable[[Call, list[Call]], bool] | None = None
    calls: list[Call] = field(default_factory=list)
    failed: bool = False

    def reply(self, module: str, messages: list[BaseMessage], model: ScriptedChatModel,
              schema: type[BaseModel] | dict | None) -> str:
        """The scripted reply to one call of ``module`` (recorded in `calls`).

        Raises:
            ModelUnavailableError: the scripted failure (`fail_at`, `fail_on`).
            KeyError: a module with neither a scripted reply nor a default.
        """
        call = Call(module, list(messages), model.temperature, model.max_tokens, schema, model.slot, model.sampling)
        with _LOCK:  # parallel seats call at once
            earlier = list(self.calls)
            self.calls.append(call)
            fails = not self.failed and (
                (self.fail_at is not None and len(self.calls) == self.fail_at)
                or (self.fail_on is not None and self.fail_on(call, earlier)))
            self.failed = self.failed or fails
        if fails:
            raise ModelUnavailableError("http://fake/v1", "fake", "scripted failure")
        reply = self.replies.get(call.module)
        if isinstance(reply, list):
            reply = reply.pop(0) if len(reply) > 1 else reply[0]
        if reply is None:
            return default_structured(schema) if schema is not None else DEFAULTS[call.module]
        return reply(call) if callable(reply) else reply

    def modules(self) -> list[str]:
        """The module of each call so far, in order."""
        return [c.module for c in self.calls]


def _message(text: str) -> AIMessage:
    return AIMessage(text, usage_metadata={"input_tokens": 100, "output_tokens": 10, "total_tokens": 110,
                                          "input_token_details": {"cache_read": 60}})


class ScriptedChatModel(BaseChatModel):
    """A chat model answering from a `Script` by the module its call names; structured output parses the scripted
    JSON with the schema."""

    script: Any = Field(repr=False)  # langchain reprs the model per call: the growing script is left out
    temperature: float = 0.0
    max_tokens: int | None = None
    slot: int | None = None
    sampling: dict[str, Any] = {}

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        text = self.script.reply(module_of(run_manager.metadata if run_manager else None), messages, self, None)
        return ChatResult(generations=[ChatGeneration(message=_message(text))])

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Any:
        """A runnable answering from the script and parsing the reply with ``schema`` (a pydantic model, or a JSON
        schema whose reply is parsed, not validated), as the OpenAI client's ``include_raw`` mode returns it."""
        def run(messages: Any, config: RunnableConfig) -> Any:
            text = self.script.reply(module_of(config.get("metadata")), list(messages), self, schema)
            raw = _message(text)
            try:
                if isinstance(schema, dict):  # a JSON schema: parsed, not validated (as JsonOutputParser)
                    parsed, error = json.loads(text), None
                else:
                    parsed, error = schema.model_validate_json(text), None
            except Exception as exc:  # noqa: BLE001 - mirrors include_raw's behaviour
                parsed, error = None, exc
            return {"raw": raw, "parsed": parsed, "parsing_error": error} if include_raw else parsed

        return RunnableLambda(run)


@dataclass
class ScriptedModels:
    """A `ModelProvider` of scripted models (``json_schema`` says whether the fake endpoint supports schemas,
    ``server_slots`` how many slots it has; each model built records the slot it was pinned to)."""

    script: Script
    json: bool = True
    server_slots: int = 0

    def chat(self, spec: str | None, temperature: float, max_tokens: int | None,
             slot: int | None = None, sampling: tuple[tuple[str, Any], ...] = ()) -> BaseChatModel:
        """A scripted model recording this temperature, cap, slot and sampling in each call."""
        return ScriptedChatModel(script=self.script, temperature=temperature, max_tokens=max_tokens, slot=slot,
                                 sampling=dict(sampling))

    def json_schema(self, spec: str | None) -> bool:
        """Whether the fake endpoint takes JSON schemas (``json``)."""
        return self.json

    def slots(self, spec: str | None) -> int:
        """The fake endpoint's server slots (``server_slots``)."""
        return self.server_slots
