"""The seat options of the ``react`` kind (``--agent-option``), validated before the game starts.

Example: ``--agents naive,servant=react --agent-option servant:summary_words=120``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from roundtable.agents.protocol import validated_options
from roundtable.aids.interface import CheckOptions


class ReactOptions(CheckOptions):
    """Validated ``react`` seat options (unknown keys are refused; docs/agents/react.md#options).

    Attributes:
        summary_words: the word limit of the running summary (AvalonBench sets none; a small model needs one).
        thought_words: the word limit of the step-by-step reasoning before an action.
        response_words: the word cap of the one sentence said at the table.
        retries: times a pick with too few players is asked for again (AvalonBench's parser asks once more).
        structured: the parser asks for JSON-schema output: ``auto`` where the endpoint takes JSON schemas;
            ``True``/``False`` force it.
        temperature: sampling of the reasoning, the summary and the words (default: the run's context, 0.1).
        parse_temperature: sampling of the parser (default: the run's context, 0).
        word_checks, vote_check, knowledge_note, dry: the checks' switches
            (`roundtable.aids.options.CheckOptions`, docs/agents/checks.md#options): the sentence
            checked before it is said (``speak``), a team vote against what the player knows asked again
            (``parse``), the team lines beside the request, the DRY sampler for the sentence.
    """

    model_config = ConfigDict(extra="forbid")

    PAPER: ClassVar[dict[str, Any]] = {**CheckOptions.PAPER, "summary_words": 400, "thought_words": 300}
    """AvalonBench's values for every model but the embedded one (docs/agents/paper-values.md): no limit on the
    summary or the reasoning (the fields' maxima), one sentence said at the table, no checks."""

    summary_words: int = Field(default=80, ge=10, le=400)
    thought_words: int = Field(default=60, ge=5, le=300)
    response_words: int = Field(default=25, ge=5, le=100)
    retries: int = Field(default=1, ge=0, le=5)
    structured: bool | Literal["auto"] = "auto"
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    parse_temperature: float | None = Field(default=None, ge=0.0, le=2.0)

    @classmethod
    def parse(cls, options: dict[str, Any] | None, model: str | None = None) -> ReactOptions:
        """Validate seat options for a seat playing ``model`` (a model spec; ``None``: the embedded model), the
        switches of ``PAPER`` absent or ``auto`` resolved for it (docs/agents/paper-values.md).

        Raises:
            ConfigurationError: an unknown option or a bad value (the message names it and lists the valid ones).
        """
        return validated_options(cls, options, "react", model)
