"""One decision's inputs, parsed once per node, and the prompt pieces every module shares.

Prompt layout (every module; template ``lga/context``): the system message is
the game's rules (the same for every player of a game); the user message holds
the public part (earlier quests' Host facts, this quest's public records: the
same text for every player at the same moment), the player's private part (role
card, knowledge, how it answers the Host) with its notes (summary, analysis,
plan), this quest's private records (last: they change within a quest), then
the task. Two orders, chosen per endpoint (`LgaOptions.prompt_layout`):

- ``per_player``: what changes least first: the private part (fixed for the
  game), the earlier quests' Host facts (only appended to when a round is
  summarized), the notes (rewritten once a round), this quest's public records
  (growing within the quest). Each player's calls are pinned to a server slot
  of its own (llama.cpp's ``id_slot``), whose prompt cache then holds that
  player's last prompt: a call processes only the public lines that are new
  since then, and its task; the first call after a round's summary processes
  that round's new Host facts, the new notes and the new quest's lines, not the
  whole board again. The default where the endpoint has slots
  (`ModelProvider.slots`), as the embedded model does.
- ``shared``: public part first, so one shared prompt cache (a hosted
  endpoint's, or a one-slot server's) reuses the prefix every player's prompt
  starts with at a given moment.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.lga import memory as mem
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.options import LgaOptions
from roundtable.agents.lga.state import LgaState
from roundtable.agents.protocol import SeatSpec, agent_context, parse_view, player_slot
from roundtable.games.avalon import AvalonView, Role
from roundtable.games.protocol import Request
from roundtable.tables.avalon import AvalonTable, avalon_view

LAN_ROLES = frozenset({"merlin", "percival", "servant", "morgana", "assassin"})
"""The roles Lan et al.'s released code describes (template ``lga/role``); another role's introduction is the game's
card."""


@dataclass(frozen=True)
class Turn:
    """The parsed inputs of one decision.

    Attributes:
        view, request, seat, seed: the graph's inputs, parsed.
        memory: the current memory pool (the graph's ``pool``; see `roundtable.agents.lga.memory`).
        options: the seat's `LgaOptions`. context: the run's `LgaContext`.
        state: the raw graph state.
    """

    view: AvalonView
    request: Request
    seat: SeatSpec
    seed: int
    memory: dict[str, Any]
    options: LgaOptions
    context: LgaContext
    state: LgaState
    slots: int = 0

    @classmethod
    def of(cls, state: LgaState, runtime: Runtime[LgaContext] | None, models: ModelProvider | None = None) -> Turn:
        """Parse the graph state and the runtime context; ``models`` says how many server slots the seat's
        endpoint has (none asked: 0).

        Raises:
            pydantic.ValidationError: malformed view, request or seat.
            ConfigurationError: invalid seat options.
        """
        seat = SeatSpec.model_validate(state["seat"])
        options = LgaOptions.parse(seat.options, seat.model)
        slots = models.slots(seat.model) if models is not None and options.prompt_layout != "shared" else 0
        return cls(
            view=avalon_view(parse_view(state["view"])),
            request=Request.model_validate(state["request"]),
            seat=seat,
            seed=int(state.get("seed") or 0),
            memory=dict(state.get("pool") or {}),
            options=options,
            context=agent_context(LgaContext, "lga", runtime.context if runtime is not None else None),
            state=state,
            slots=slots,
        )

    # ------------------------------------------------------------- caching

    @property
    def layout(self) -> str:
        """``per_player`` or ``shared`` (see the module docstring); ``auto`` is per player where there are slots."""
        layout = self.options.prompt_layout
        if layout == "auto":
            return "per_player" if self.slots else "shared"
        return layout

    @property
    def slot(self) -> int | None:
        """The server slot this player's calls are pinned to (``player - 1`` modulo the slots), or None."""
        return player_slot(self.view.player, self.slots) if self.layout == "per_player" else None

    # ------------------------------------------------------------ sampling

    @property
    def temperature(self) -> float:
        """Agent-module temperature: seat option, else the run's context (0.3)."""
        t = self.options.temperature
        return self.context.temperature if t is None else t

    @property
    def extraction_temperature(self) -> float:
        """Extractor temperature: seat option, else the run's context (0)."""
        t = self.options.extraction_temperature
        return self.context.extraction_temperature if t is None else t

    # -------------------------------------------------------- prompt parts

    def template(self, step: str) -> str:
        """The template of module ``step`` for this seat: Lan et al.'s (``lga/<step>``) with the aids off, the aids'
        (``aids/lga/<step>``, tuned for the embedded model) with them on (docs/agents/aids.md)."""
        return f"aids/lga/{step}" if self.options.aided else f"lga/{step}"

    @cached_property
    def _paper(self) -> dict[str, Any]:
        """`paper_variables` of this round's records, rendered once per turn (the system message and the task both
        read them)."""
        return self._paper_variables(ended=False)

    def paper_variables(self, ended: bool = False) -> dict[str, Any]:
        """`_paper_variables`, this round's rendered once per turn."""
        return self._paper_variables(ended=True) if ended else dict(self._paper)

    def _paper_variables(self, ended: bool = False) -> dict[str, Any]:
        """The variables of Lan et al.'s module prompts (templates ``lga/*``): the player's name and role, the
        game's phase, the role information (template ``lga/role``: introduction, goal, strategy; a learned strategy
        replaces the initial one), the notes, and the conversations the summary compresses (the records of the
        rounds that ended when ``ended``, else this round's so far) as JSON lines."""
        view, memory = self.view, self.memory
        records = mem.stale_records(memory, view.round) if ended else [
            r for r in memory.get("records") or [] if r["round"] >= view.round]
        role = Role(view.role)
        card = self.table.role_card() if role.value not in LAN_ROLES else ""

        def info(part: str) -> str:
            return self.context.render("lga/role", role=role.value, part=part, card=card)

        learned = str(memory.get("strategy") or self.options.strategy or "")
        return {
            "me": view.player, "players": view.players, "role_title": role.title,
            "knowledge": self.table.knowledge_text(),
            "phase": f"quest phase, round {view.round}",
            "introduction": info("introduction"), "goal": info("goal"), "strategy": learned or info("strategy"),
            "summary": str(memory.get("summary") or ""),
            "analysis": "" if self.options.no_analysis else str(memory.get("analysis") or ""),
            "plan": "" if self.options.no_plan else str(memory.get("plan") or ""),
            "previous_plan": "" if self.options.no_plan else str(memory.get("plan") or ""),
            "conversations": "\n".join(json.dumps({"message": r.get("text") or "", "name": r.get("speaker"),
                                                    "message_type": r.get("vis")}) for r in records),
            "suggestion": str(memory.get("suggestions") or ""), "other_strategy": self.options.role_notes,
        }

    def base_variables(self, ended: bool = False) -> dict[str, Any]:
        """Variables every ``lga/*`` template gets: with the aids off Lan et al.'s (`paper_variables`); with them
        on also the rendered ``shared`` and ``private`` parts of the aids' templates.

        Args:
            ended: show the records of the rounds that ended and are not yet
                summarized (for the summary) instead of the current round's,
                so the summary's prompt starts as the player's last prompt of
                that round did and its prompt cache serves all but the task.
        """
        if not self.options.aided:
            return self.paper_variables(ended)
        view, memory = self.view, self.memory
        first = round_ = view.round
        attempt, pool = view.attempt, memory
        old = mem.stale_records(memory, view.round) if ended else []
        if old:
            first, round_ = old[0]["round"], old[-1]["round"]
            attempt, pool = max(int(r.get("attempt") or 1) for r in old), {"records": old}
        variables: dict[str, Any] = {
            "me": view.player,
            "players": view.players,
            "round": round_,
            "attempt": attempt,
            "leader": view.leader,
            "board": "\n".join(memory.get("board") or []),
            "transcript": mem.public_transcript(pool, first, attempt, self.options.transcript_chars),
            "role_card": self.role_card(),
            "knowledge": self.table.knowledge_text(),
            "summary": str(memory.get("summary") or ""),
            "private_notes": mem.private_notes(pool, first),
            "analysis": "" if self.options.no_analysis else str(memory.get("analysis") or ""),
            "plan": "" if self.options.no_plan else str(memory.get("plan") or ""),
            "standing": self.standing(),
        }
        variables["shared"] = self.context.render("aids/lga/shared", **variables)
        variables["board_part"] = self.context.render("aids/lga/shared", **{**variables, "transcript": ""})
        variables["quest_part"] = self.context.render("aids/lga/shared", **{**variables, "board": ""})
        variables["private"] = self.context.render("aids/lga/private", **variables)
        variables["layout"] = self.layout
        variables["context"] = self.context_text(variables, variables["analysis"], variables["plan"])
        return variables

    def context_text(self, variables: dict[str, Any], analysis: str = "", plan: str = "",
                     previous_plan: bool = False) -> str:
        """What precedes a module's task, in this turn's layout (template ``aids/lga/context``; ``""`` with the aids
        off: Lan et al.'s module prompts hold their parts themselves).

        Args:
            variables: `base_variables` (its ``shared`` and ``private`` parts).
            analysis: the analysis note the module shows (``""``: none).
            plan: the plan note the module shows (``""``: none).
            previous_plan: the plan is the one the module is about to replace.
        """
        if not self.options.aided:
            return ""
        return self.context.render("aids/lga/context", layout=self.layout, shared=variables["shared"],
                                   board=variables["board_part"], quest=variables["quest_part"],
                                   private=variables["private"], summary=variables["summary"], analysis=analysis,
                                   plan=plan, previous_plan=previous_plan, private_notes=variables["private_notes"])

    def messages(self, user: str) -> list[BaseMessage]:
        """``[system, user]``: the system message is Lan et al.'s system prompt (template ``lga/system``: the game's
        rules inside it, the player's name, role and strategy) with the aids off, the rules alone with them on."""
        if self.options.aided:
            return [SystemMessage(self.rules_text()), HumanMessage(user)]
        variables = self.paper_variables()
        system = self.context.render("lga/system", rules=self.rules_text(), **variables)
        return [SystemMessage(system), HumanMessage(user)]

    def standing(self) -> str:
        """How this player answers the Host in every call of its game (template ``lga/standing``): the manner of
        its words at the table (its own, at most ``response_words`` words, what to keep secret) and the rule of a
        team vote; part of the private part, so no task repeats it."""
        return self.context.render("aids/lga/standing", words=self.options.response_words, side=self.view.side,
                                   role=self.view.role)

    def notes(self) -> list[str]:
        """The notes this decision's prompts show: summary, analysis and plan (an ablated module's left out), the
        player's private texts behind its answer (`Decision.thoughts`)."""
        memory, opts = self.memory, self.options
        shown = [memory.get("summary"), None if opts.no_analysis else memory.get("analysis"),
                 None if opts.no_plan else memory.get("plan")]
        return [str(note) for note in shown if note]

    # ------------------------------------------------------ the Avalon table

    @cached_property
    def table(self) -> AvalonTable:
        """The Avalon table of this decision (`roundtable.tables.avalon.AvalonTable`): its strategy is the
        learned one in memory, else the seat's option; its role notes the seat's."""
        return AvalonTable(view=self.view, request=self.request, context=self.context,
                           response_words=self.options.response_words,
                           strategy=str(self.memory.get("strategy") or self.options.strategy or ""),
                           role_notes=self.options.role_notes, knowledge_lines=self.options.knowledge_note,
                           aids=self.options.aided)

    def rules_text(self) -> str:
        """`AvalonTable.rules_text`."""
        return self.table.rules_text()

    def role_card(self) -> str:
        """`AvalonTable.role_card`."""
        return self.table.role_card()

    def narrate(self, event: dict[str, Any]) -> str | None:
        """`AvalonTable.narrate`."""
        return self.table.narrate(event)

    def team_knowledge(self) -> str:
        """`AvalonTable.team_knowledge`."""
        return self.table.team_knowledge()

    @property
    def last_chance(self) -> bool:
        """`AvalonTable.last_chance`."""
        return self.table.last_chance

    def request_variables(self) -> dict[str, Any]:
        """`AvalonTable.request_variables`."""
        return self.table.request_variables()

    def instruction(self) -> str:
        """`AvalonTable.instruction`."""
        return self.table.instruction()

    def speech(self) -> str:
        """`AvalonTable.speech`."""
        return self.table.speech()

    def choice_help(self, json: bool, reason: bool = False) -> str:
        """`AvalonTable.choice_help`."""
        return self.table.choice_help(json, reason)

    def retry_note(self, attempt: int) -> str:
        """`AvalonTable.retry_note`."""
        return self.table.retry_note(attempt)

    def decided(self, action: dict[str, Any] | None) -> str:
        """`AvalonTable.decided`."""
        return self.table.decided(action)
