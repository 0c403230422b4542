"""Usage accounting: summing, reading replies, and collecting across threads, tasks and graphs."""

from __future__ import annotations

import asyncio
import contextvars
import operator
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult, LLMResult
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from typing_extensions import TypedDict

from roundtable.models.usage import Usage, UsageCollector, collect_usage


class MeteredChatModel(BaseChatModel):
    """Answers "ok", reporting 10 prompt tokens (4 cached) and 2 completion tokens; fails on "boom"."""

    @property
    def _llm_type(self) -> str:
        return "metered-fake"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if "boom" in str(messages[-1].content):
            raise RuntimeError("boom")
        usage = {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12, "input_token_details": {"cache_read": 4}}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="ok", usage_metadata=usage))])


MODEL = MeteredChatModel()
ONE_CALL = Usage(calls=1, prompt_tokens=10, completion_tokens=2, cached_tokens=4)


def without_time(usage: Usage) -> Usage:
    return usage.model_copy(update={"seconds": 0.0})


def test_addition_and_sum() -> None:
    a = Usage(calls=1, prompt_tokens=100, completion_tokens=10, cached_tokens=80, seconds=1.5)
    b = Usage(calls=2, failures=1, prompt_tokens=50, completion_tokens=5, seconds=0.5)
    total = a + b
    assert total == Usage(calls=3, failures=1, prompt_tokens=150, completion_tokens=15, cached_tokens=80, seconds=2.0)
    assert sum([a, b]) == total
    assert sum([], Usage()) == Usage()
    assert total.total_tokens == 165
    assert total.cached_share == pytest.approx(80 / 150)
    assert Usage().cached_share == 0.0
    with pytest.raises(TypeError):
        a + 1


def test_from_message_reads_usage_metadata() -> None:
    message = AIMessage(
        content="x",
        usage_metadata={
            "input_tokens": 120,
            "output_tokens": 7,
            "total_tokens": 127,
            "input_token_details": {"cache_read": 100},
        },
    )
    assert Usage.from_message(message, seconds=0.25) == Usage(
        calls=1, prompt_tokens=120, completion_tokens=7, cached_tokens=100, seconds=0.25
    )


def test_from_message_falls_back_to_raw_openai_usage() -> None:
    message = AIMessage(
        content="x",
        response_metadata={
            "token_usage": {"prompt_tokens": 30, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 20}}
        },
    )
    assert Usage.from_message(message) == Usage(calls=1, prompt_tokens=30, completion_tokens=3, cached_tokens=20)
    assert Usage.from_message(None) == Usage(calls=1)


def test_from_result_reads_llm_output() -> None:
    result = LLMResult(
        generations=[[ChatGeneration(message=AIMessage(content="x"))]],
        llm_output={"token_usage": {"prompt_tokens": 5, "completion_tokens": 1}},
    )
    assert Usage.from_result(result) == Usage(calls=1, prompt_tokens=5, completion_tokens=1)


def test_collects_calls_in_block_only() -> None:
    MODEL.invoke("before")
    with collect_usage() as usage:
        MODEL.invoke("a")
        MODEL.invoke("b")
    MODEL.invoke("after")
    assert without_time(usage.total) == ONE_CALL + ONE_CALL
    assert len(usage.records) == 2
    assert all(record.usage.seconds >= 0 for record in usage.records)


def test_failures_are_counted() -> None:
    with collect_usage() as usage:
        MODEL.invoke("a")
        with pytest.raises(RuntimeError):
            MODEL.invoke("boom")
    assert (usage.total.calls, usage.total.failures) == (1, 1)


def test_nested_blocks_count_each_call_once() -> None:
    with collect_usage() as game:
        MODEL.invoke("a")
        with collect_usage() as decision:
            MODEL.invoke("b")
            MODEL.invoke("c")
        MODEL.invoke("d")
    assert decision.total.calls == 2
    assert game.total.calls == 4
    assert without_time(game.total) == sum([ONE_CALL] * 4, Usage())


def test_explicit_callback() -> None:
    collector = UsageCollector()
    MODEL.invoke("a", config={"callbacks": [collector]})
    with collect_usage() as outer:  # also sees the call once, even with the explicit handler
        MODEL.invoke("b", config={"callbacks": [collector]})
    assert collector.total.calls == 2
    assert outer.total.calls == 1


def test_threads_that_copy_the_context() -> None:
    with collect_usage() as usage, ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(contextvars.copy_context().run, MODEL.invoke, str(i)) for i in range(8)]
        for future in futures:
            future.result()
    assert usage.total.calls == 8


def test_async_tasks() -> None:
    async def main() -> Usage:
        with collect_usage() as usage:
            await asyncio.gather(*(MODEL.ainvoke(str(i)) for i in range(5)))
        return usage.total

    assert asyncio.run(main()).calls == 5


class FanOut(TypedDict):
    replies: Annotated[list[str], operator.add]


def _graph() -> Any:
    def ask(state: dict) -> dict:
        return {"replies": [MODEL.invoke(f"player {state['player']}").content]}

    builder = StateGraph(FanOut)
    builder.add_node("ask", ask)
    builder.add_conditional_edges(START, lambda _: [Send("ask", {"player": i}) for i in range(5)], ["ask"])
    builder.add_edge("ask", END)
    return builder.compile()


def test_langgraph_parallel_branches() -> None:
    graph = _graph()
    with collect_usage() as usage:
        result = graph.invoke({"replies": []})
    assert result["replies"] == ["ok"] * 5
    assert usage.total.calls == 5
    assert {record.node for record in usage.records} == {"ask"}

    async def main() -> Usage:
        with collect_usage() as inner:
            await graph.ainvoke({"replies": []})
        return inner.total

    assert asyncio.run(main()).calls == 5
