"""The seat options of the ``naive`` kind (``--agent-option``), validated before the game starts.

Example: ``--agents naive --agent-option flavour=avalonbench`` (docs/agents/naive.md#flavours).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from roundtable.agents.protocol import validated_options
from roundtable.games import GAMES

OURS = "ours"
"""The flavour every game's own bot is (`roundtable.games.protocol.RuleBot`), the default."""
FLAVOURS: tuple[str, ...] = (OURS, *sorted({name for rules in GAMES.values() if rules.bot is not None
                                            for name in rules.bot.flavours}))
"""Every flavour some game's bot offers (``RuleBot.flavours``), ``ours`` first."""


class NaiveOptions(BaseModel):
    """Validated ``naive`` seat options (unknown keys are refused; docs/agents/naive.md#flavours).

    Attributes:
        flavour: which of the game's bots plays the seat: ``ours`` (the game's own, `RuleBot`) or a flavour of
            it (``RuleBot.flavours``: Avalon's ``avalonbench``, AvalonBench's code decision by decision).
    """

    model_config = ConfigDict(extra="forbid")

    flavour: str = OURS

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
            ConfigurationError: an unknown option or flavour (the message names it and lists the valid ones).
        """
        return validated_options(cls, options, "naive", model)
