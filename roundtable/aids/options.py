"""The seat options of the small-model aids, shared by every model-driven kind (docs/agents/checks.md#options).

A kind's options model inherits `CheckOptions` (and may change a default, as ``lga`` does for ``vote_check``):

- ``aids``: ``auto`` (default), ``on`` or ``off``, the one switch of every aid below (`roundtable.aids.switch`):
  ``auto`` is on for a model declared small (`roundtable.models.spec.is_small`); off, the options below take
  the papers' values (no check, no note, no DRY sampling) unless given one;

- ``word_checks``: which checks its words pass before they are said (`roundtable.aids.review`):
  ``copy`` (a near copy of what it heard or of its own private thoughts), ``tactic`` (public words stating the
  speaker's own tactic, `roundtable.detectors.words.stated_tactic`), ``team`` (words naming another team
  than the one chosen), ``exposure`` (words giving the speaker away); ``|``-separated on the command line,
  ``none`` for no check;
- ``vote_check``: which decisions are checked against what the player's own knowledge settles
  (`roundtable.aids.settled`): ``off``, ``knowledge`` (its knowledge, the rules, and a Werewolf day
  vote against its own statement of that day) or ``record`` (also the public record);
- ``overrule``: a decision against what is settled is replaced by the settled one at once (no second call,
  recorded as ``...: overruled``) instead of being asked for again; ``auto``: with the aids on (the embedded
  model does not follow the re-ask's note);
- ``knowledge_note``: the prompt states what the player's own knowledge settles about the decision in hand
  (Avalon's team lines, `roundtable.tables.avalon.AvalonTable.team_knowledge`; Werewolf's note,
  `roundtable.aids.werewolf`);
- ``drop_sentences``: words that still fail a check after the one re-ask lose the sentences that fail it (the
  player keeps to itself what would spoil the game; recorded as ``...: sentences dropped``), and words with no
  sentence left give way to the game's plain words; ``auto``: with the aids on (the embedded model repeats what
  the note asked it not to say);
- ``dry``: words said at the table are sampled with llama.cpp's DRY sampler
  (`roundtable.aids.sampling.DRY_SAMPLING`); ``auto``: with the aids on.

Example: ``--agent-option word_checks=copy|exposure --agent-option vote_check=off``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, field_validator

from roundtable.aids.switch import AidsMode, auto_switch

WordCheck = Literal["copy", "tactic", "team", "exposure"]
WORD_CHECKS: tuple[WordCheck, ...] = ("copy", "tactic", "team", "exposure")
"""Every words check, in the order they are run and named in `Decision.checks`."""


class CheckOptions(BaseModel):
    """The aid switches of a kind's seat options (see the module docstring). They were tuned for the embedded
    1.5B model: with the aids off (``aids=off``, or ``auto`` on a model not declared small), ``word_checks``,
    ``vote_check`` and ``knowledge_note`` not given a value are off, as the papers ran their agents (`PAPER`), and
    every ``auto`` switch is off.

    Attributes:
        aids: ``auto``, ``on`` or ``off`` as given; once parsed (`roundtable.agents.protocol.validated_options`),
            ``on`` or ``off``.
        word_checks: the words checks that run (default: all of `WORD_CHECKS`; empty: none).
        vote_check: ``off``, ``knowledge`` (what the player's reveal knowledge or its own night results settle,
            the rules: Avalon's fifth team, and its own words: a Werewolf day vote for the player it said it
            would vote out) or ``record`` (also the public record: a team with no one from a failed quest).
        overrule: replace a decision against what is settled instead of asking again; ``auto``: with the aids.
        knowledge_note: state in the prompt what the player's own knowledge settles about the decision in hand.
        dry: sample words said at the table with the DRY sampler; ``auto``: with the aids.
        drop_sentences: drop the sentences of re-asked words that still fail a check; ``auto``: with the aids.
    """

    PAPER: ClassVar[dict[str, Any]] = {"word_checks": (), "vote_check": "off", "knowledge_note": False}
    """The papers' values (none of them checked a model's answer), taken with the aids off; with them on the field
    defaults hold (`roundtable.aids.switch.with_aids`, docs/agents/paper-values.md)."""

    aids: AidsMode = "auto"
    word_checks: tuple[WordCheck, ...] = WORD_CHECKS
    vote_check: Literal["off", "knowledge", "record"] = "knowledge"
    knowledge_note: bool = True
    dry: bool | Literal["auto"] = "auto"
    overrule: bool | Literal["auto"] = "auto"
    drop_sentences: bool | Literal["auto"] = "auto"

    @field_validator("word_checks", mode="before")
    @classmethod
    def _split_checks(cls, value: Any) -> Any:
        """``"copy|team"`` -> ``("copy", "team")``; ``"none"`` or ``""`` -> ``()``."""
        if isinstance(value, str):
            parts = [part.strip() for part in value.split("|")]
            return tuple(part for part in parts if part and part != "none")
        return value

    def checks_words(self, check: WordCheck) -> bool:
        """Whether the words check ``check`` runs."""
        return check in self.word_checks

    @property
    def aided(self) -> bool:
        """Whether the aids are on (``aids`` resolved to ``on``; an unresolved ``auto`` counts as off)."""
        return self.aids == "on"

    def checks_answers(self) -> bool:
        """Whether any check of an answer runs (a words check, or ``vote_check`` not ``off``): the kind then hands its
        answers to the aids' step (`roundtable.aids.interface.check`)."""
        return bool(self.word_checks) or self.vote_check != "off"

    def overrules(self) -> bool:
        """Whether a decision against what is settled is replaced rather than asked again."""
        return auto_switch(self.overrule, self.aided)

    def drops_sentences(self) -> bool:
        """Whether re-asked words that still fail a check lose their failing sentences."""
        return auto_switch(self.drop_sentences, self.aided)

    def uses_dry(self) -> bool:
        """Whether words said at the table are sampled with the DRY sampler."""
        return auto_switch(self.dry, self.aided)


def check_prompts(words_nodes: list[str], vote_nodes: list[str]) -> dict[str, tuple[str, list[str], str]]:
    """The prompt fields of the checks' Host notes for a kind's context (`roundtable.prompts.rendering.PromptFields`):
    ``review_note_prompt`` (template ``checks/words_note``, read by ``words_nodes``) and ``vote_note_prompt``
    (``checks/vote_note``, read by ``vote_nodes``), ``stance_words_prompt`` (``checks/stance_words``, read by
    ``words_nodes``), ``trust_words_prompt`` (``checks/trust_words``, read by ``words_nodes``) and
    ``team_words_prompt`` (``checks/team_words``, read by ``words_nodes``), so Studio shows
    and edits them with the kind's other prompts."""
    return {
        "review_note_prompt": ("checks/words_note", words_nodes,
                               "The Host's note when the agent asks again: its words copied a speaker or its own "
                               "private thoughts, named another team, or gave it away."),
        "vote_note_prompt": ("checks/vote_note", vote_nodes,
                             "The Host's note when the agent asks again: its vote or choice went against what it "
                             "knows."),
        "stance_words_prompt": ("checks/stance_words", words_nodes,
                                "The words said instead of a sentence whose stance on the team went against the "
                                "vote the agent's knowledge settles, when said again after the Host's note."),
        "trust_words_prompt": ("checks/trust_words", words_nodes,
                               "The words said instead of a sentence naming whom the agent takes for Merlin or the "
                               "Seer, when said again after the Host's note."),
        "team_words_prompt": ("checks/team_words", words_nodes,
                              "The words an Avalon leader says at its final word when its own words nearly "
                              "copied its first words on the team."),
    }
