"""The seat options of the ``naive`` kind (``--agent-option``), validated before the game starts.

Examples: ``--agents naive --agent-option flavour=avalonbench`` (docs/agents/naive.md#flavours);
``--agents naive --agent-option words=model --model local`` (docs/agents/naive.md#words-from-a-model).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from roundtable.agents.protocol import validated_options
from roundtable.games import GAMES

OURS = "ours"
"""The flavour every game's own bot is (`roundtable.games.protocol.RuleBot`), the default."""
FLAVOURS: tuple[str, ...] = (OURS, *sorted({name for rules in GAMES.values() if rules.bot is not None
                                            for name in rules.bot.flavours}))
"""Every flavour some game's bot offers (``RuleBot.flavours``), ``ours`` first."""

Words = Literal["template", "model"]
"""Where a ``naive`` seat's words come from (the seat option ``words``)."""
TEMPLATE: Words = "template"
"""The ``words`` value of the bots' own templated sentence, the default (no model)."""
MODEL: Words = "model"
"""The ``words`` value with which a seat's words come from a model (AvalonBench's 'detached' LLM)."""
MODEL_OPTIONS: dict[str, Any] = {"words": MODEL}
"""The seat options with which a ``naive`` seat plays a model (`roundtable.agents.protocol.AgentKind.model_options`)."""


class NaiveOptions(BaseModel):
    """Validated ``naive`` seat options (unknown keys are refused; docs/agents/naive.md#flavours).

    Attributes:
        flavour: which of the game's bots plays the seat: ``ours`` (the game's own, `RuleBot`) or a flavour of
            it (``RuleBot.flavours``: Avalon's ``avalonbench``, AvalonBench's code decision by decision).
        words: where the seat's words come from when a request wants words: ``template`` (the default), the bot's
            own plain sentence, no model; ``model``, one sentence written by the seat's model from the bot's
            decision, its role, what it knows and what it heard, as AvalonBench's bots spoke with discussion on
            (Light et al. 2023, §5.1; `roundtable.agents.naive.words`, docs/agents/naive.md#words-from-a-model).
            The actions are the bot's either way.
    """

    model_config = ConfigDict(extra="forbid")

    flavour: str = OURS
    words: Words = TEMPLATE

    @field_validator("flavour")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in FLAVOURS:
            raise ValueError(f"unknown flavour {value!r}; valid flavours: {', '.join(FLAVOURS)}")
        return value

    @classmethod
    def parse(cls, options: dict[str, Any] | None, model: str | None = None) -> NaiveOptions:
        """Validate seat options (``model``, the seat's model spec, is taken as every kind's ``parse`` takes it;
        the bots' options do not depend on it).

        Raises:
            ConfigurationError: an unknown option, flavour or ``words`` value (the message names it and lists the
                valid ones).
        """
        return validated_options(cls, options, "naive", model)
