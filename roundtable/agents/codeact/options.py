"""The seat options of the ``codeact`` and ``cot`` kinds (``--agent-option``), validated before the game starts.

Example: ``--agents cot,good=codeact --agent-option good:leader=react`` (Shi et
al.'s comparison of CoT, ReAct and CodeAct leaders). Both kinds take the checks' switches of
`roundtable.aids.options.CheckOptions` (``word_checks``, ``vote_check``, ``knowledge_note``,
``dry``; docs/agents/checks.md#options).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from roundtable.agents.protocol import validated_options
from roundtable.aids.interface import CheckOptions


class CotOptions(CheckOptions):
    """Validated ``cot`` seat options (unknown keys are refused).

    Attributes:
        memory_messages: k, the last messages kept in the global memory (Shi et al.: 15).
        key_lines: the newest key-information lines kept (the Host's notes and identity talk).
        memory_step: messages and key lines that leave the memory at once when it is full (1: Shi et al.'s sliding
            window of the last k; the embedded model's 15 lets a prompt's memory grow by appending, which the
            server's prompt cache serves: docs/agents/codeact.md#memory).
        thought_words: the word limit of a chain of thought.
        response_words: the word limit of what is said at the table.
        structured: ``auto`` asks the model layer whether the endpoint takes JSON schemas; ``True``/``False`` force it.
        temperature: prose temperature (default: the run's context, 0.7).
        word_checks, vote_check, knowledge_note, dry: the checks' switches (docs/agents/checks.md#options).
    """

    model_config = ConfigDict(extra="forbid")

    PAPER: ClassVar[dict[str, Any]] = {**CheckOptions.PAPER, "thought_words": 300, "memory_step": 1}
    """Shi et al.'s values for every model but the embedded one (docs/agents/paper-values.md): no limit on a chain
    of thought (the field's maximum), the last k messages as a sliding window, no checks."""

    @property
    def team_by(self) -> str:
        """How this seat chooses a team: ``cot`` (the ``cot`` kind reasons in prose for every decision)."""
        return "cot"

    memory_messages: int = Field(default=15, ge=1, le=100)
    key_lines: int = Field(default=20, ge=0, le=100)
    memory_step: int = Field(default=15, ge=1, le=50)
    thought_words: int = Field(default=50, ge=5, le=300)
    response_words: int = Field(default=30, ge=5, le=100)
    structured: bool | Literal["auto"] = "auto"
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)

    @classmethod
    def parse(cls, options: dict[str, Any] | None, model: str | None = None) -> CotOptions:
        """Validate seat options for a seat playing ``model`` (a model spec; ``None``: the embedded model), the
        switches of ``PAPER`` absent or ``auto`` resolved for it (docs/agents/paper-values.md).

        Raises:
            ConfigurationError: an unknown option or a bad value (the message names it).
        """
        return validated_options(cls, options, "codeact" if cls is CodeActOptions else "cot", model)


class CodeActOptions(CotOptions):
    """Validated ``codeact`` seat options.

    Attributes:
        leader: how a team is chosen: ``codeact`` (a program in the sandbox, Shi et al.), ``cot``
            (prose reasoning) or ``react`` (thought, action, observation in text).
        max_attempts: programs written per team (the first and the self-debugged ones), then the fallback.
        react_steps: ReAct steps before the leader must finish.
        program_tokens: ``max_tokens`` of a program reply.
        timeout: wall-clock seconds a program may run in the sandbox.
        code_temperature: code temperature (default: the run's context, 0).
    """

    @property
    def team_by(self) -> str:
        """How this seat chooses a team (``codeact``, ``cot`` or ``react``)."""
        return self.leader

    leader: Literal["codeact", "cot", "react"] = "codeact"
    max_attempts: int = Field(default=3, ge=1, le=10)
    react_steps: int = Field(default=3, ge=1, le=8)
    program_tokens: int = Field(default=480, ge=64, le=2000)
    timeout: float = Field(default=10.0, gt=0.0, le=120.0)
    code_temperature: float | None = Field(default=None, ge=0.0, le=2.0)
