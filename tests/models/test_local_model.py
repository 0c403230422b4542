"""End-to-end: the embedded llama.cpp server with the real 1.5B model (slow; ``-m model``).

Set ``ROUNDTABLE_MODEL_CACHE`` to share the assembled weights (1.1 GB) between runs.
"""

from __future__ import annotations

import importlib.util
from typing import Annotated

import pytest
from pydantic import BaseModel, Field

from roundtable.models.factory import chat_model, supports_json_schema
from roundtable.models.spec import parse_model_spec
from roundtable.models.usage import Usage, collect_usage
from roundtable.models.weights import QWEN25_CODER_1_5B, locate_part

pytestmark = pytest.mark.model

# About 700 tokens shared by the calls below, so the second call finds it in the prompt cache.
PREFIX = "You are the host of a board game. These are the table notes:\n" + "\n".join(
    f"Note {i}: player {i % 7 + 1} said the quest team looked {'safe' if i % 3 else 'suspicious'}." for i in range(45)
)


class Dice(BaseModel):
    """A bounded schema: exactly two ints in 1..6."""

    rolls: list[Annotated[int, Field(ge=1, le=6)]] = Field(min_length=2, max_length=2)


@pytest.fixture(scope="module")
def local():
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("xllamacpp is not installed: pip install 'roundtable[local]'")
    if locate_part(QWEN25_CODER_1_5B, 1) is None:
        pytest.skip("the model weight packages are not installed: pip install 'roundtable[local]'")
    from roundtable.models.local import local_server

    server = local_server()
    assert server.base_url.endswith("/v1")
    assert local_server() is server
    assert "AVX2" in server.features or "NEON" in server.features  # parsed from the loaded build
    return chat_model(parse_model_spec("local"), 0.0, 48)


def test_plain_call(local) -> None:
    reply = local.invoke("Answer with one word: what colour is the sky on a clear day?")
    assert isinstance(reply.content, str) and reply.content.strip()
    usage = Usage.from_message(reply)
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0


def test_structured_output_and_prompt_cache(local) -> None:
    assert supports_json_schema(parse_model_spec("local"))
    structured = local.with_structured_output(Dice, method="json_schema", include_raw=True)
    with collect_usage() as usage:
        first = structured.invoke([("system", PREFIX), ("user", "Roll two six-sided dice.")])
        second = structured.invoke([("system", PREFIX), ("user", "Roll two dice again, please.")])
    for result in (first, second):
        assert result["parsing_error"] is None
        assert isinstance(result["parsed"], Dice)
    first_usage, second_usage = (Usage.from_message(r["raw"]) for r in (first, second))
    assert first_usage.prompt_tokens > 600 and first_usage.completion_tokens > 0
    assert second_usage.cached_tokens >= 0.9 * first_usage.prompt_tokens - 20, "the shared prefix is reused"
    assert usage.total.calls == 2
    assert usage.total.cached_tokens >= second_usage.cached_tokens
    assert usage.total.prompt_tokens == first_usage.prompt_tokens + second_usage.prompt_tokens


def test_each_slot_keeps_its_own_prompt_cache(local) -> None:
    """Two players' prompts alternate; each pinned to its own slot still finds its own prefix cached."""
    spec = parse_model_spec("local")
    first, second = (chat_model(spec, 0.0, 4, slot=slot) for slot in (0, 1))
    mine = [("system", PREFIX), ("user", "Player 1 speaks.")]
    theirs = [("system", "Other rules.\n" + PREFIX[::-1]), ("user", "Player 2 speaks.")]
    opening = Usage.from_message(first.invoke(mine))
    second.invoke(theirs)
    again = Usage.from_message(first.invoke([*mine, ("user", "And now votes.")]))
    assert again.cached_tokens >= opening.prompt_tokens - 8, "slot 0 kept player 1's prompt"


def test_a_fresh_slot_is_seeded_with_the_rules_another_slot_read(local) -> None:
    """In a server of its own (fresh slots), slot 1's first call finds the system prompt slot 0 read (slot seeding)."""
    import httpx

    from roundtable.models.local import LocalServer, LocalSettings
    from roundtable.models.weights import ensure_weights

    def first_call(server: LocalServer, slot: int, user: str) -> dict:
        server.prepare_slot(slot)
        body = {"model": "local", "max_tokens": 2, "id_slot": slot,
                "messages": [{"role": "system", "content": PREFIX}, {"role": "user", "content": user}]}
        return httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=600).json()["usage"]

    with LocalServer(ensure_weights(), LocalSettings(n_ctx=4096, n_parallel=2, cache_ram_mib=0)) as server:
        opening = first_call(server, 0, "Player 1 speaks.")
        seeded = first_call(server, 1, "Player 2 speaks.")
        assert server.seeder is not None and server.seeder.seeded[1] >= opening["prompt_tokens"] - 2
        save_dir = server.seeder.save_dir  # the copy was written inside it and removed after the restore
        assert not any(save_dir.iterdir()) and not list(save_dir.parent.glob(f"{save_dir.name}*.bin"))
    assert not save_dir.exists()
    assert opening["prompt_tokens_details"]["cached_tokens"] == 0
    assert seeded["prompt_tokens_details"]["cached_tokens"] >= opening["prompt_tokens"] - 20, "the rules came seeded"


def test_a_server_never_stopped_removes_its_slot_save_dir_when_collected(local) -> None:
    import gc

    from roundtable.models.local import LocalServer, LocalSettings
    from roundtable.models.weights import ensure_weights

    server = LocalServer(ensure_weights(), LocalSettings(n_ctx=1024, n_parallel=1, cache_ram_mib=0))
    assert server.seeder is not None
    save_dir = server.seeder.save_dir
    assert save_dir.is_dir()
    del server
    gc.collect()
    assert not save_dir.exists()
