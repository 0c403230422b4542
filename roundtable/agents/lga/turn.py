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
from roundtable.aids.interface import checked_of, knowledge_note
from roundtable.games.protocol import PlayerView, Request
from roundtable.tables.protocol import GameTable, TableSettings, game_table, game_template

LAN_ROLES = frozenset({"merlin", "percival", "servant", "morgana", "assassin"})
"""The roles Lan et al.'s released code describes (template ``lga/role``); another role's introduction is the game's
card (`GameTable.role_card`). A role set holding one of them is the game Lan et al.'s own sentences describe
(`Turn.lan_game`, docs/agents/lga.md#other-games)."""

TABLE_PIECES = "lga/table"
"""Where lga's templates for the pieces a game leaves to the kind are (`TableSettings.prompt`: ``lga/table/rules``,
``lga/table/role``, ``lga/table/instruction``, ``lga/table/speech``)."""


def table_piece(piece: str) -> str:
    """The template of lga for a piece a game's table leaves to the kind (`TableSettings.prompt`):
    ``lga/table/<piece>``."""
    return f"{TABLE_PIECES}/{piece}"


@dataclass(frozen=True)
class Turn:
    """The parsed inputs of one decision.

    Attributes:
        view, request, seat, seed: the graph's inputs, parsed.
        memory: the current memory pool (the graph's ``pool``; see `roundtable.agents.lga.memory`).
        options: the seat's `LgaOptions`. context: the run's `LgaContext`.
        state: the raw graph state.
    """

    view: PlayerView
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
            view=parse_view(state["view"]),
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

    def module(self, step: str) -> str:
        """The template of module ``step`` for this seat in any game: Lan et al.'s (``lga/<step>``) with the aids off,
        the aids' (``aids/lga/<step>``, tuned for the embedded model) with them on (docs/agents/aids.md)."""
        return f"aids/lga/{step}" if self.options.aided else f"lga/{step}"

    def template(self, step: str) -> str:
        """The template of module ``step`` for this seat at this game's table: `module`'s, or where the kind words the
        step for the game, that template (``aids/lga/avalon/standing``: `roundtable.tables.protocol.game_template`,
        a lookup by template, not a comparison of the game's name; docs/agents/lga.md#other-games)."""
        return game_template(self.context, self.module, self.view.game, step)

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
        table = self.table
        card = table.role_card() if view.role not in LAN_ROLES else ""

        def info(part: str) -> str:
            return self.context.render("lga/role", role=view.role, part=part, card=card)

        learned = str(memory.get("strategy") or self.options.strategy or "")
        return {
            "me": view.player, "players": view.players, "role_title": table.role_title,
            "knowledge": table.knowledge_text(),
            "game_title": table.game_title, "lan_game": self.lan_game,
            "probe_sides": list(table.probe_sides), "probe_roles": table.probe_roles,
            "phase": f"{table.round_name} phase, round {view.round}",
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
        attempt, pool = int(memory.get("attempt") or 1), memory  # the proposal of the newest record (1: none)
        old = mem.stale_records(memory, view.round) if ended else []
        if old:
            first, round_ = old[0]["round"], old[-1]["round"]
            attempt, pool = max(int(r.get("attempt") or 1) for r in old), {"records": old}
        table = self.table
        variables: dict[str, Any] = {
            "me": view.player,
            "players": view.players,
            "round": round_,
            "round_name": table.round_name,
            "probe_sides": list(table.probe_sides),
            "probe_roles": table.probe_roles,
            "attempt": attempt,
            "board": "\n".join(memory.get("board") or []),
            "transcript": mem.public_transcript(pool, first, attempt, self.options.transcript_chars),
            "role_card": self.role_card(),
            "knowledge": table.knowledge_text(),
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
                                   plan=plan, previous_plan=previous_plan, private_notes=variables["private_notes"],
                                   round_name=variables["round_name"])

    def messages(self, user: str) -> list[BaseMessage]:
        """``[system, user]``: the system message is Lan et al.'s system prompt (template ``lga/system``: the game's
        rules inside it, the player's name, role and strategy) with the aids off, the rules alone with them on."""
        if self.options.aided:
            return [SystemMessage(self.rules_text()), HumanMessage(user)]
        variables = self.paper_variables()
        system = self.context.render("lga/system", rules=self.rules_text(), **variables)
        return [SystemMessage(system), HumanMessage(user)]

    def standing(self) -> str:
        """How this player answers the Host in every call of its game (template ``aids/lga/standing``, Avalon's
        ``aids/lga/avalon/standing``: `template`): the manner of its words at the table (its own, at most
        ``response_words`` words, what to keep secret) and, in Avalon, the rule of a team vote; part of the private
        part, so no task repeats it."""
        return self.context.render(self.template("standing"), words=self.options.response_words,
                                   side=self.view.side, role=self.view.role)

    def notes(self) -> list[str]:
        """The notes this decision's prompts show: summary, analysis and plan (an ablated module's left out), the
        player's private texts behind its answer (`Decision.thoughts`)."""
        memory, opts = self.memory, self.options
        shown = [memory.get("summary"), None if opts.no_analysis else memory.get("analysis"),
                 None if opts.no_plan else memory.get("plan")]
        return [str(note) for note in shown if note]

    # ------------------------------------------------------- the game's table

    @cached_property
    def table(self) -> GameTable:
        """The game's table of this decision over lga's context (`roundtable.tables.protocol.game_table`,
        docs/architecture.md#a-games-table): its strategy is the learned one in memory, else the seat's option; its
        role notes the seat's; the pieces a game leaves to the kind are lga's ``lga/table/<piece>`` (`table_piece`).

        Raises:
            ConfigurationError: the game describes no table.
        """
        opts = self.options
        return game_table(self.view, self.request, self.context, TableSettings(
            response_words=opts.response_words, knowledge_lines=opts.knowledge_note, aids=opts.aided,
            strategy=str(self.memory.get("strategy") or opts.strategy or ""), role_notes=opts.role_notes,
            prompt=table_piece))

    @property
    def lan_game(self) -> bool:
        """Whether the game is the one Lan et al.'s own sentences describe (its quests, points and roles): its role set
        holds a role their code describes (`LAN_ROLES`: every Avalon game); elsewhere lga's templates say a neutral
        sentence instead (docs/agents/lga.md#other-games)."""
        return not LAN_ROLES.isdisjoint(self.view.role_set)

    @property
    def checked(self) -> dict[int, bool]:
        """The player's remembered private results (a Werewolf Seer's checks, `roundtable.aids.interface.record_checks`,
        kept in the memory's ``checked``); ``{}`` for anyone else."""
        return checked_of(self.memory.get("checked"))

    def rules_text(self) -> str:
        """The game's rules (`GameTable.rules_text`)."""
        return self.table.rules_text()

    def role_card(self) -> str:
        """The player's role card (`GameTable.role_card`)."""
        return self.table.role_card()

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as the player's record line (`GameTable.narrate`)."""
        return self.table.narrate(event)

    def request_variables(self) -> dict[str, Any]:
        """The request's fields for the answer templates (`GameTable.request_variables`: Avalon's carry its team
        lines)."""
        return self.table.request_variables()

    def instruction(self) -> str:
        """The Host's instruction (`GameTable.instruction`), with the aids' note of what the player's own knowledge
        settles where the seat's ``knowledge_note`` is on (`roundtable.aids.interface.knowledge_note`: Werewolf's;
        ``""`` in Avalon, whose team lines are the table's own)."""
        host = self.table.instruction()
        note = (knowledge_note(self.context, self.view, self.request, self.checked) if self.options.knowledge_note
                else "")
        return "\n".join(part for part in (host, note) if part)

    def speech(self) -> str:
        """How the words are said (`GameTable.speech`)."""
        return self.table.speech()

    def choice_help(self, json: bool, reason: bool = False) -> str:
        """How the answer's choice is written (`GameTable.choice_help`)."""
        return self.table.choice_help(json, reason)

    def retry_note(self, attempt: int) -> str:
        """The Host's note when asking again for players (`GameTable.retry_note`)."""
        return self.table.retry_note(attempt)

    def decided(self, action: dict[str, Any] | None) -> str:
        """The chosen action in words (`GameTable.decided`; ``""``: none)."""
        return self.table.decided(action)
