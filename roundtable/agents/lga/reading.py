"""Reading the answer from the act or respond reply, shared by both nodes: the common reading
(`roundtable.agents.common.reading`) over this turn's extractor model and pick retries."""

from __future__ import annotations

from typing import Any

from roundtable.agents.common import reading
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.lga.calls import extractor_model
from roundtable.agents.lga.turn import Turn


def extract_action(
    models: ModelProvider, turn: Turn, reply: str, structured: bool
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """`roundtable.agents.common.reading.extract_action` with the seat's extractor model and this kind's context."""
    return reading.extract_action(extractor_model(models, turn), turn.context, turn.request, turn.view.players,
                                  reply, structured)


def settle(turn: Turn, action: dict[str, Any], attempt: int) -> dict[str, Any]:
    """`roundtable.agents.common.reading.settle` with the seat's retries (`LgaOptions.retries`) and seed."""
    return reading.settle(turn.request, turn.seed, turn.options.retries, action, attempt)
