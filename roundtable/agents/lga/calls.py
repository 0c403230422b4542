"""Model access for the ``lga`` nodes: which chat model, at which temperature, with what length cap."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.common.speech_model import speaking_model
from roundtable.agents.lga.turn import Turn
from roundtable.aids.interface import AGAIN_TEMPERATURE, DRY_SAMPLING

__all__ = ["AGAIN_TEMPERATURE", "DRY_SAMPLING", "agent_model", "extractor_model", "uses_json_schema"]


def agent_model(models: ModelProvider, turn: Turn, words: int, speaking: bool = False,
                again: bool = False) -> BaseChatModel:
    """The seat's model at the agent-module temperature, capped for a reply of ``words`` words, on the player's slot;
    ``speaking``: the reply holds words said at the table, sampled with `DRY_SAMPLING` where the seat's ``dry`` is
    on (`roundtable.aids.sampling.speech_sampling`); ``again``: those words are asked for again after a
    near copy, sampled at `AGAIN_TEMPERATURE` at least."""
    return speaking_model(models, turn.seat.model, turn.options, turn.temperature, max_tokens_for(words),
                          slot=turn.slot, speaking=speaking, again=again)


def extractor_model(models: ModelProvider, turn: Turn) -> BaseChatModel:
    """The seat's model at the extraction temperature (0), for short answers."""
    return models.chat(turn.seat.model, turn.extraction_temperature, 48, slot=turn.slot)


def uses_json_schema(models: ModelProvider, turn: Turn) -> bool:
    """Whether to ask for schema-constrained output: the seat option, or the endpoint's support (``auto``)."""
    option = turn.options.structured
    if option == "auto":
        return models.json_schema(turn.seat.model)
    return bool(option)
