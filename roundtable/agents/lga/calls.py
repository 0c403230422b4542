"""Model access for the ``lga`` nodes: which chat model, at which temperature, with what length cap."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.lga.turn import Turn

DRY_SAMPLING: tuple[tuple[str, Any], ...] = (
    ("dry_multiplier", 2.0), ("dry_base", 2.0), ("dry_allowed_length", 2), ("dry_penalty_last_n", 32768),
    ("dry_sequence_breakers", ("\n", ":", '"', "*", *"0123456789")),
)
"""llama.cpp's DRY ("don't repeat yourself") sampler over the last 32,768 tokens (the whole context; this server
refuses -1), prompt included: a token that would extend a sequence already in the context beyond 2 tokens loses
``2 * 2 ** (length - 2)`` logits, so a reply that starts copying an earlier speaker's sentence (or the player's
own earlier words) turns away from it within a few words. Sequences break at a newline, colon, quote or asterisk
(llama.cpp's defaults) and at every digit, so naming players ("players 1 and 5") is never penalized, however
often the same team was named before. Sent with the calls that write words said at the table (`LgaOptions.dry`).
With the earlier multiplier 1.0 and allowed length 3, short formulaic sentences between two player numbers
("I support it. Player 4 is likely ...") came through, and the words were often asked for again
(docs/measurements.md#words-asked-again). Source: llama.cpp
``tools/server/README.md`` (``dry_*`` parameters); the DRY sampler of p-e-w, text-generation-webui PR #5677."""

AGAIN_TEMPERATURE = 0.8
"""Temperature of words asked for again after a near copy (the agent modules' 0.3 gave a copy back in 38
of 50 near-copy re-asks of the 2026-11-24 games: docs/measurements.md#words-asked-again)."""



def agent_model(models: ModelProvider, turn: Turn, words: int, speaking: bool = False,
                again: bool = False) -> BaseChatModel:
    """The seat's model at the agent-module temperature, capped for a reply of ``words`` words, on the player's slot;
    ``speaking``: the reply holds words said at the table, sampled with `DRY_SAMPLING` where `LgaOptions.dry` is on;
    ``again``: those words are asked for again after a near copy, sampled at `AGAIN_TEMPERATURE` at least."""
    dry = speaking and turn.options.uses_dry(turn.seat.model)
    sampling = DRY_SAMPLING if dry else ()
    temperature = max(turn.temperature, AGAIN_TEMPERATURE) if speaking and again else turn.temperature
    return models.chat(turn.seat.model, temperature, max_tokens_for(words), slot=turn.slot, sampling=sampling)


def extractor_model(models: ModelProvider, turn: Turn) -> BaseChatModel:
    """The seat's model at the extraction temperature (0), for short answers."""
    return models.chat(turn.seat.model, turn.extraction_temperature, 48, slot=turn.slot)


def uses_json_schema(models: ModelProvider, turn: Turn) -> bool:
    """Whether to ask for schema-constrained output: the seat option, or the endpoint's support (``auto``)."""
    option = turn.options.structured
    if option == "auto":
        return models.json_schema(turn.seat.model)
    return bool(option)
