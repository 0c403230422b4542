"""The chat model of a call whose reply may hold words said at the table: the one place a kind's model calls meet
the aids' sampling (`roundtable.aids.sampling`, docs/agents/aids.md).

With the seat's aids off (and no aid switched on by hand), the call is the kind's own: its temperature, no extra
sampler parameters, and no aid is called.
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from roundtable.agents.common.model_calls import ModelProvider
from roundtable.aids.interface import CheckOptions, speech_sampling, speech_temperature


def speaking_model(models: ModelProvider, spec: str | None, options: CheckOptions, temperature: float,
                   max_tokens: int | None, *, slot: int | None = None, speaking: bool = False, again: bool = False,
                   dry: bool = False) -> BaseChatModel:
    """``models.chat(spec, temperature, max_tokens, slot=slot)``, with the aids' sampling where it applies.

    Args:
        models: where chat models come from.
        spec: the seat's model spec (None: the embedded model).
        options: the seat's aid options (`CheckOptions`).
        temperature: the kind's temperature for the call.
        max_tokens: the reply's cap, in tokens.
        slot: the server slot the player's calls are pinned to (None: shared).
        speaking: the reply holds words said at the table (DRY-sampled where the seat's ``dry`` is on,
            `CheckOptions.uses_dry`).
        again: those words are asked for again after a near copy (sampled at `AGAIN_TEMPERATURE` at least).
        dry: DRY-sampled as words are, though not said (react's reasoning).
    """
    sampled = speaking or dry
    if (speaking and again) or (sampled and options.uses_dry()):
        temperature = speech_temperature(temperature, speaking and again)
        return models.chat(spec, temperature, max_tokens, slot=slot, sampling=speech_sampling(options, sampled))
    return models.chat(spec, temperature, max_tokens, slot=slot)
