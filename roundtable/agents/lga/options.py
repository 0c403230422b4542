"""The ``lga`` agent's switches, read from `SeatSpec.options`.

Ablations of Lan et al. (EMNLP 2024): ``no_analysis``, ``no_plan``,
``no_action`` (respond directly: one call gives the words and the action is
extracted from them), ``analysis_scope`` (``all`` / ``teammates`` /
``adversaries``). Cost switches: ``merge_plan`` (one call writes both the
analysis and the plan), ``separate_response`` (the response is its own call
after the action, instead of one call returning both), word limits and
``retries``. Sampling: ``temperature`` and ``extraction_temperature`` (default:
the run's context, 0.3 and 0).

Example seat: ``SeatSpec(kind="lga", model="local", options={"no_plan": True})``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from roundtable.agents.protocol import validated_options
from roundtable.aids.interface import CheckOptions, auto_switch


class LgaOptions(CheckOptions):
    """Validated ``lga`` seat options (unknown keys are refused).

    Attributes:
        no_analysis / no_plan / no_action: the paper's module ablations.
        analysis_scope: which players the analysis covers.
        merge_plan: the analysis call also writes the plan (saves a call per
            round); ``auto`` (default): merged with the aids (the embedded model),
            whose 2-core budget needs it, separate for other models.
        merge_summary: once a round has ended, the summary call also writes
            the new analysis and plan (saves one or two calls per round);
            ``auto`` (default): merged with the aids (`roundtable.aids.switch`).
        separate_response: ask for the words in a second call after the action.
        structured: ``auto`` asks the model layer whether the endpoint supports
            JSON-schema output; ``True``/``False`` force it.
        retries: times too few players named are asked for again before the fallback.
        reason_before: request kinds whose answer a JSON-schema reply
            precedes with a one-sentence reason: ``vote_team`` (the embedded
            model approved more teams with one: docs/measurements.md#team-votes) and
            ``propose_team`` (whom the leader leaves out: good leaders proposed
            teams without an evil player more often; a final proposal, which
            names a team already proposed, has none); both by default;
            ``|``-separated on the command line.
        summary_words / analysis_words / plan_words / response_words: word
            limits given to the model (the paper's maxima: 100 for analysis and
            response); ``max_tokens`` follows from them.
        prompt_layout: ``per_player`` (private part first; each player pinned to a server slot of its
            own), ``shared`` (public part first, for one shared prompt cache) or ``auto`` (default:
            per player where the endpoint has slots, `roundtable.models.factory.prompt_slots`); see
            `roundtable.agents.lga.turn`.
        transcript_chars: budget of the current quest's records in a prompt, in characters: the whole
            quest while it fits (the text then only grows, and each player's prompt cache keeps it), then
            earlier proposals' Host lines and the current proposal's talk (newest kept);
            `roundtable.agents.lga.memory.public_transcript`.
        temperature / extraction_temperature: override the run's context.
        word_checks, knowledge_note, dry: the shared check switches
            (`roundtable.aids.options.CheckOptions`): the words checks before words are said
            (`roundtable.agents.lga.review`; default all), the team lines beside a vote or proposal (default on),
            llama.cpp's DRY sampler for the calls that write words said at the table
            (`roundtable.aids.sampling.DRY_SAMPLING`; ``auto``, the default: on for the embedded
            ``local`` model only, since other servers may refuse the parameters).
        vote_check: which team votes are checked against what the player's lines about the team say its side
            wants (`roundtable.agents.lga.vote_check`): ``off``, ``knowledge`` (default: Merlin's and the evil
            players' reveal knowledge, and every player's fifth team) or ``record`` (also a team with no one
            from a failed quest). A vote against it is asked for once more, or with ``overrule`` (``auto``: the
            embedded model, where no re-ask changed a vote, docs/measurements.md#team-votes) replaced at once.
        strategy: a learned strategy for the player's role (Lan et al.'s experience learning, written
            between games by `roundtable.experiments.learning`), replacing the role card's initial one;
            empty (default): the initial strategy.
        role_notes: learned descriptions of how the other roles play, added to the role card; empty
            (default): none.
    """

    model_config = ConfigDict(extra="forbid")

    PAPER: ClassVar[dict[str, Any]] = {
        **CheckOptions.PAPER, "analysis_words": 100, "response_words": 100, "summary_words": 300, "plan_words": 100,
        "separate_response": True, "reason_before": ()}
    """Lan et al.'s values for every model but the embedded one (docs/agents/paper-values.md): analysis and
    response up to 100 words, summary and plan with no stated limit (the fields' maxima), the response a call of
    its own after the action, no reason before an answer, no checks."""

    no_analysis: bool = False
    no_plan: bool = False
    no_action: bool = False
    analysis_scope: Literal["all", "teammates", "adversaries"] = "all"
    merge_plan: bool | Literal["auto"] = "auto"
    merge_summary: bool | Literal["auto"] = "auto"
    separate_response: bool = False
    structured: bool | Literal["auto"] = "auto"
    retries: int = Field(default=1, ge=0, le=5)
    reason_before: tuple[str, ...] = ("vote_team", "propose_team")
    summary_words: int = Field(default=30, ge=10, le=300)
    analysis_words: int = Field(default=20, ge=10, le=100)
    plan_words: int = Field(default=15, ge=10, le=100)
    response_words: int = Field(default=20, ge=5, le=100)
    transcript_chars: int = Field(default=4000, ge=200, le=20000)
    prompt_layout: Literal["auto", "per_player", "shared"] = "auto"
    vote_check: Literal["off", "knowledge", "record"] = "knowledge"
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    extraction_temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    strategy: str = Field(default="", max_length=1000)
    role_notes: str = Field(default="", max_length=4000)

    @model_validator(mode="after")
    def _merges_are_aids(self) -> LgaOptions:
        """A merged call is an aid (Lan et al. call each module on its own): refused with the aids off."""
        if self.aids == "off" and (self.merge_plan is True or self.merge_summary is True):
            raise ValueError("merge_plan and merge_summary are aids (Lan et al. call each module on its own): "
                             "set aids=on to merge calls")
        return self

    @field_validator("reason_before", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return tuple(part.strip() for part in value.split("|") if part.strip()) if isinstance(value, str) else value

    def merges_plan(self) -> bool:
        """Whether analysis and plan come from one call (``auto``: with the aids)."""
        if self.no_plan:
            return False
        return auto_switch(self.merge_plan, self.aided)

    def merges_summary(self) -> bool:
        """Whether the summary call also writes the analysis and plan (those not ablated; ``auto``: with the aids)."""
        if self.no_analysis and self.no_plan:
            return False
        return auto_switch(self.merge_summary, self.aided)

    @classmethod
    def parse(cls, options: dict[str, Any] | None, model: str | None = None) -> LgaOptions:
        """Validate seat options for a seat playing ``model`` (a model spec; ``None``: the embedded model), the
        switches of ``PAPER`` absent or ``auto`` resolved for it (docs/agents/paper-values.md).

        Raises:
            ConfigurationError: an unknown option or a bad value (the message names it).
        """
        return validated_options(cls, options, "lga", model)
