"""The ``cga`` agent's switches, read from `SeatSpec.options` (Xu et al. 2023; docs/agents/cga.md).

The paper's pipeline is the *faithful* mode: every action refreshes the
questions, their answers (one call per question) and the reflection. Cost
switches (``auto``: with the aids, on for a small model, whose 2-core
budget needs them, as `roundtable.agents.lga.options.LgaOptions` does):

- ``refresh``: ``action`` (the paper: questions, answers, reflection and the
  suggestion for every action) or ``round`` (once per Werewolf day or Avalon
  round; later actions of the round reuse them);
- ``merge_answers``: the answers to all questions and the reflection in one
  structured call instead of one call per question plus one for the reflection.

Experience (item 4 of issue 12): ``pool`` names the experience pool
(`roundtable.agents.cga.experience`; empty: none), ``experience`` whether the
seat reads it at decision time, ``learn`` whether its tuples join the pool
after the game (a frozen pool takes none). Which roles or sides use experience
is set with ``--agent-option`` targets, e.g. ``werewolf:experience=false``.

Checks before answering (`roundtable.aids.options.CheckOptions`, docs/agents/checks.md#options):
``word_checks`` (its words against what it heard and its own reflection, answers and thought, the team it
chose, giving itself away), ``vote_check`` (default ``knowledge``: a vote or choice against what its own
knowledge settles), ``knowledge_note`` (Werewolf's note of what its knowledge settles; Avalon's team lines) and
``dry`` (the DRY sampler for the calls that write its words; ``auto``: with the aids).

Example seat: ``SeatSpec(kind="cga", model="local", options={"refresh": "action"})``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, field_validator

from roundtable.agents.protocol import validated_options
from roundtable.aids.interface import CheckOptions, auto_switch
from roundtable.models import parse_model_spec


class CgaOptions(CheckOptions):
    """Validated ``cga`` seat options (unknown keys are refused).

    Attributes:
        freshness: K, the last messages in every prompt (Xu et al.: 15).
        freshness_step: messages that leave the recent ones at once, joining the earlier messages the
            informative ones are chosen from (1: Xu et al.'s last K, sliding; the embedded model's 15 shows K to
            2K - 1, so that the history grows by appending and the server's prompt cache serves it:
            docs/agents/cga.md#the-modules).
        informative: N, the highest-scored earlier messages added (docs/agents/cga.md#informativeness).
        questions: how many questions the model selects from its role's set (Xu et al.'s runs: 5).
        own_questions: questions the model asks of its own (Xu et al.: 2; the embedded model: 0, it copied listed
            questions as its own in every selection of pq-cga-xu7-v2-s1 and the cga lan6 smoke game).
        choose_questions: the model chooses the ``questions`` (Xu et al.), or the first ``questions`` of the set are
            asked with no choice (the embedded model, which chose the listed order: docs/agents/cga.md#questions).
        fixed_questions: the questions of the set's ``asked`` part (name, role and objective; guesses at roles;
            whether one's role is exposed) are asked without choosing and ``questions`` more are chosen from the
            rest (the embedded model's default, the design measured on it), or, as Xu et al., they are
            candidates like the rest and the model chooses ``questions`` of them all (5 of 9 in Werewolf).
        retrieved: T, messages retrieved from memory per question (Xu et al.: 5).
        refresh: ``action`` / ``round`` / ``auto`` (see the module docstring).
        merge_answers: one call answers every question and writes the reflection; ``auto``: local only.
        structured: ``auto`` asks the model layer whether the endpoint takes JSON schemas.
        answer_words / reflection_words / suggestion_words / thought_words / response_words: word limits.
        pool: experience pool name (``""``: no experience). experience: read the pool at decision time.
        learn: add this seat's (reflection, response, score) tuples to the pool after the game.
        epsilon: least cosine similarity of a retrieved experience's reflection (Xu et al.: 0.8 to 0.85).
        max_experiences: most experiences retrieved (Xu et al.: 50).
        embeddings: ``minilm`` (offline, default), ``sentence-transformers/NAME`` (a Sentence-BERT model where it is
            installed, such as Xu et al.'s ``sentence-transformers/all-mpnet-base-v2``) or a model spec of an
            OpenAI-compatible embeddings endpoint (`roundtable.tools.embeddings`).
        temperature: content calls (docs/agents/cga.md#options: 0.3).
        question_temperature: the question step (may be warmer).
        thought_temperature: the chain-of-thought answer (docs/agents/cga.md#options: 0).
        extraction_temperature: extractor (0).
        retries: times too few players named are asked for again before the fallback.
        word_checks, vote_check, knowledge_note, dry: the checks' switches (see the module docstring).
    """

    model_config = ConfigDict(extra="forbid")

    PAPER: ClassVar[dict[str, Any]] = {**CheckOptions.PAPER, "fixed_questions": False, "choose_questions": True,
                                       "own_questions": 2, "freshness_step": 1}
    """Xu et al.'s values for every model but the embedded one (docs/agents/paper-values.md): the model chooses
    ``questions`` of all its role's questions, none asked without choosing, and asks 2 of its own; the last K
    messages sliding; no checks."""

    freshness: int = Field(default=15, ge=1, le=100)
    freshness_step: int = Field(default=15, ge=1, le=50)
    informative: int = Field(default=5, ge=0, le=50)
    questions: int = Field(default=5, ge=0, le=12)
    own_questions: int = Field(default=0, ge=0, le=4)
    choose_questions: bool = False
    fixed_questions: bool = True
    retrieved: int = Field(default=5, ge=1, le=20)
    refresh: Literal["action", "round", "auto"] = "auto"
    merge_answers: bool | Literal["auto"] = "auto"
    structured: bool | Literal["auto"] = "auto"
    answer_words: int = Field(default=24, ge=5, le=80)
    reflection_words: int = Field(default=50, ge=10, le=200)
    suggestion_words: int = Field(default=30, ge=5, le=100)
    thought_words: int = Field(default=60, ge=10, le=300)
    response_words: int = Field(default=40, ge=5, le=100)
    pool: str = Field(default="", pattern=r"^([A-Za-z0-9][A-Za-z0-9_.-]{0,62})?$")
    experience: bool = True
    learn: bool = True
    epsilon: float = Field(default=0.85, ge=0.0, le=1.0)
    max_experiences: int = Field(default=50, ge=1, le=500)
    embeddings: str = "minilm"
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    question_temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    thought_temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    extraction_temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    retries: int = Field(default=1, ge=0, le=5)

    @field_validator("embeddings")
    @classmethod
    def _embeddings(cls, value: str) -> str:
        """``minilm`` or a well-formed model spec of one endpoint (checked before the game starts: a pool's vectors
        all come from one server, so replicas are refused)."""
        if value.strip().startswith("sentence-transformers/"):  # Xu et al.'s models, where installed
            return value.strip()
        if value.strip() and value.strip() != "minilm" and parse_model_spec(value).replicas:
            raise ValueError("embeddings name one endpoint (BASE_URL#MODEL), not several replicas")
        return value.strip() or "minilm"

    def per_round(self) -> bool:
        """Whether questions, answers, reflection and suggestion are refreshed once per round (``auto``: with the
        aids)."""
        if self.refresh == "auto":
            return self.aided
        return self.refresh == "round"

    def merges_answers(self) -> bool:
        """Whether one call answers every question and writes the reflection (``auto``: with the aids)."""
        return auto_switch(self.merge_answers, self.aided)

    @classmethod
    def parse(cls, options: dict | None, model: str | None = None) -> CgaOptions:
        """Validate seat options for a seat playing ``model`` (a model spec; ``None``: the embedded model), the
        switches of ``PAPER`` absent or ``auto`` resolved for it (docs/agents/paper-values.md).

        Raises:
            ConfigurationError: an unknown option or a bad value (the message names it).
        """
        return validated_options(cls, options, "cga", model)
