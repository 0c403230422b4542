"""Scripted chat models and game helpers for the lga agent tests (no real model).

`Script` answers every call of every model built from it, records each call
(module, messages, temperature, max_tokens, schema) and can fail once on the
n-th call. `ScriptedModels` is a `ModelProvider` over a script.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel

from roundtable.games import avalon
from roundtable.games.avalon.bots import POLICIES
from roundtable.models.errors import ModelUnavailableError


CGA_MARKERS = {"Task: Choose questions": "questions", "Task: Answer the question": "answer",
               "Task: Reflect": "reflect", "Task: Suggest from experience": "suggest"}
"""The cga agent's modules by their task text (its chain-of-thought answer reads as ``act``)."""


def module_of(messages: list[BaseMessage], schema: type[BaseModel] | None) -> str:
    """Which lga module sent a prompt, read from its task text."""
    system = str(messages[0].content)
    user = str(messages[-1].content)
    if system.startswith("You read game answers"):
        return "extract"
    for marker, module in CGA_MARKERS.items():
        if marker in user:
            return module
    if "Task: Update your summary" in user or "Task: Summarize" in user:
        return "summarize"
    if "Task: Analyse" in user:
        return "analyze"
    if "Task: Write your plan" in user:
        return "plan"
    if "Answer in JSON" in user or "Reply in this form" in user:
        return "act"
    return "respond"


@dataclass
class Call:
    """One recorded model call."""

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
        elif name in ("own", "answers"):
            out[name] = [f"{name.upper()}-TEXT-{i}." for i in range(1, spec.get("minItems", 1) + 1)]
        elif name == "reflection":
            out[name] = "As the player, I observed that REFLECTION-TEXT."
        elif name == "thought":
            out[name] = "THOUGHT-TEXT."
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
}


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

    def reply(self, messages: list[BaseMessage], model: "ScriptedChatModel", schema: type[BaseModel] | dict | None) -> str:
        call = Call(module_of(messages, schema), list(messages), model.temperature, model.max_tokens, schema,
                    model.slot, model.sampling)
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
    """A chat model answering from a `Script`; structured output parses the scripted JSON with the schema."""

    script: Any
    temperature: float = 0.0
    max_tokens: int | None = None
    slot: int | None = None
    sampling: dict[str, Any] = {}

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        text = self.script.reply(messages, self, None)
        return ChatResult(generations=[ChatGeneration(message=_message(text))])

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Any:
        def run(messages: Any) -> Any:
            text = self.script.reply(list(messages), self, schema)
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
        return ScriptedChatModel(script=self.script, temperature=temperature, max_tokens=max_tokens, slot=slot,
                                 sampling=dict(sampling))

    def json_schema(self, spec: str | None) -> bool:
        return self.json

    def slots(self, spec: str | None) -> int:
        return self.server_slots


# ------------------------------------------------------------------ games


def play_until(
    predicate: Callable[[avalon.AvalonState, list[avalon.Request]], bool],
    preset: str = "lan6",
    seed: int = 1,
    rules: tuple[str, ...] = (),
) -> tuple[avalon.AvalonState, list[avalon.Request]]:
    """Play a game with the naive bots until ``predicate(state, pending)`` holds.

    Raises:
        AssertionError: the game ended first.
    """
    state = avalon.new_game(avalon.AvalonConfig.build(preset, rules=list(rules)), seed=seed)
    naive = POLICIES["naive"]
    while not state.is_over:
        requests = avalon.pending(state)
        if predicate(state, requests):
            return state, requests
        decisions = {r.player: naive(avalon.view(state, r.player), r, seed) for r in requests}
        state = avalon.apply(state, decisions)
    raise AssertionError("the game ended before the predicate held")


def first(kind: str, round_: int = 1) -> Callable[[avalon.AvalonState, list[avalon.Request]], bool]:
    """Predicate: a request of ``kind`` is pending in round ``round_`` or later."""
    return lambda state, requests: state.round >= round_ and any(r.kind == kind for r in requests)


def lga_input(state: avalon.AvalonState, request: avalon.Request, memory: dict[str, Any] | None = None,
              options: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    """The lga graph input for ``request`` in ``state`` (full view; ``memory``: the player's pool)."""
    return {
        "view": avalon.view(state, request.player).model_dump(mode="json"),
        "request": request.model_dump(mode="json"),
        "pool": dict(memory or {}),
        "seat": {"kind": "lga", "model": "fake", "options": dict(options or {})},
        "seed": seed,
    }


def outcome(request: avalon.Request, values: dict[str, Any]) -> dict[str, Any]:
    """An lga graph's output for ``request`` as ``{"decision": Decision dict, "memory": the player's pool}``."""
    return {"decision": values["decisions"][request.id], "memory": values["memory"][str(request.player)]}


def decide(graph: Any, state: avalon.AvalonState, request: avalon.Request, memory: dict[str, Any] | None = None,
           options: dict[str, Any] | None = None, seed: int = 1) -> tuple[avalon.Decision, dict[str, Any]]:
    """One decision by a compiled lga graph: ``(Decision, the player's new pool)``."""
    out = outcome(request, graph.invoke(lga_input(state, request, memory, options, seed)))
    return avalon.Decision.model_validate(out["decision"]), out["memory"]
