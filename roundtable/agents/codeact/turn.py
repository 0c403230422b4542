"""One decision's parsed inputs for the ``codeact``/``cot`` nodes, and the prompt pieces they share.

Each step renders its template through `CodeActTurn.prompt`: with the seat's aids off (docs/agents/aids.md) the
paper's (``codeact/<step>``: Shi et al.'s prompts, docs/agents/codeact.md#paper-mode), whose system message is Shi et
al.'s global prompt (``codeact/global``: the game rule, the role assignment, the role identification); with them on
the aids' (``aids/codeact/<step>``; ``cot`` renders the same templates), whose system message is the table's rules.
The Host's instruction, the answer formats, the words' guidance, the role card and the rules are the game's table
(`roundtable.tables.protocol.GameTable`, docs/architecture.md#a-games-table), rendered over this kind's context, so
every kind that plays a game reads the same table; where a game leaves a piece to the kind (Werewolf's rules, role
card, instruction, speech), the kind's neutral ``codeact/table/<piece>``. Shi et al.'s global prompt and Figure 3's
numbers state Avalon's facts (`GameTable.paper_game`): at another game's table the system message is
the table's rules, role card and knowledge (``codeact/table/global``; docs/agents/codeact.md#other-games). No game
is named here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.codeact.facts import leader_facts
from roundtable.agents.codeact.memory import earlier_key
from roundtable.agents.codeact.options import CodeActOptions, CotOptions
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.common.speech_model import speaking_model
from roundtable.agents.protocol import SeatSpec, agent_context, parse_view, player_slot
from roundtable.aids.interface import heard_lines
from roundtable.games.protocol import PlayerView, Request
from roundtable.tables.protocol import GameTable, PaperGame, TableSettings, game_table, game_template

PAPER_ROLES = ("merlin", "percival", "servant", "morgana", "assassin", "minion")
"""The roles of Shi et al.'s game, whose role assignment prompts are theirs (Appendix A, Table 4)."""


def table_prompt(piece: str) -> str:
    """The kind's template for a piece a game leaves to it (`roundtable.tables.protocol.TableSettings.prompt`):
    ``codeact/table/<piece>``, a neutral text (Shi et al. have no words for another game)."""
    return f"codeact/table/{piece}"


@dataclass(frozen=True)
class CodeActTurn:
    """The parsed inputs of one decision.

    Attributes:
        view, request, seat, seed, memory: the graph's inputs, parsed (``memory`` is the pool).
        options: the seat's `CodeActOptions` (``codeact``) or `CotOptions` (``cot``).
        context: the run's `CodeActContext`. kind: ``codeact`` or ``cot``.
        table: the game's table over this context (`roundtable.tables.protocol.GameTable`).
        paper: Shi et al.'s facts of the game (`GameTable.paper_game`; ``None``: another game).
    """

    view: PlayerView
    request: Request
    seat: SeatSpec
    seed: int
    memory: dict[str, Any]
    options: CotOptions
    context: CodeActContext
    kind: str
    table: GameTable
    paper: PaperGame | None

    @classmethod
    def of(cls, state: Mapping[str, Any], runtime: Runtime[Any] | None) -> CodeActTurn:
        """Parse the graph state and the runtime context.

        Raises:
            pydantic.ValidationError: malformed view, request or seat.
            ConfigurationError: invalid seat options, or the view's game describes no table.
        """
        seat = SeatSpec.model_validate(state["seat"])
        kind = "codeact" if seat.kind == "codeact" else "cot"
        options = (CodeActOptions if kind == "codeact" else CotOptions).parse(seat.options, seat.model)
        context = agent_context(CodeActContext, kind, runtime.context if runtime is not None else None)
        view = parse_view(state["view"])
        request = Request.model_validate(state["request"])
        memory = dict(state.get("pool") or {})
        table = game_table(view, request, context,
                           TableSettings(response_words=options.response_words, knowledge_lines=options.knowledge_note,
                                         aids=options.aided, prompt=table_prompt))
        return cls(view=view, request=request, seat=seat, seed=int(state.get("seed") or 0),
                   memory=memory, options=options, context=context, kind=kind, table=table, paper=table.paper_game)

    # ------------------------------------------------------------ sampling

    @property
    def text_temperature(self) -> float:
        """Prose temperature: the seat option, else the run's context (0.7)."""
        t = self.options.temperature
        return self.context.text_temperature if t is None else t

    @property
    def code_temperature(self) -> float:
        """Code temperature: the seat option, else the run's context (0)."""
        t = getattr(self.options, "code_temperature", None)
        return self.context.code_temperature if t is None else t

    def slot(self, models: ModelProvider) -> int | None:
        """The server slot this player's calls are pinned to (`roundtable.agents.protocol.player_slot`), or None."""
        return player_slot(self.view.player, models.slots(self.seat.model))

    def text_model(self, models: ModelProvider, words: int, speaking: bool = False,
                   again: bool = False) -> BaseChatModel:
        """The seat's model for prose of at most ``words`` words, on the player's slot; ``speaking``: the reply holds
        words said at the table (sampled with the DRY sampler where the seat's ``dry`` is on), ``again``: asked
        for again after a near copy (sampled warmer): `roundtable.aids.sampling`."""
        return speaking_model(models, self.seat.model, self.options, self.text_temperature, max_tokens_for(words),
                              slot=self.slot(models), speaking=speaking, again=again)

    @property
    def program_tokens(self) -> int:
        """``max_tokens`` of a program reply (`CodeActOptions.program_tokens`)."""
        return getattr(self.options, "program_tokens", CodeActOptions.model_fields["program_tokens"].default)

    def code_model(self, models: ModelProvider) -> BaseChatModel:
        """The seat's model for a program, on the player's slot."""
        return models.chat(self.seat.model, self.code_temperature, self.program_tokens, slot=self.slot(models))

    def structured(self, models: ModelProvider) -> bool:
        """Whether to ask for schema-constrained output (the seat option, or the endpoint's support)."""
        option = self.options.structured
        return models.json_schema(self.seat.model) if option == "auto" else bool(option)

    # -------------------------------------------------------- prompt parts

    def prompt(self, step: str) -> str:
        """The template of ``step`` for this seat: ``aids/codeact/<step>`` with the aids on, else the paper's
        ``codeact/<step>`` (docs/agents/codeact.md#paper-mode)."""
        return f"aids/codeact/{step}" if self.options.aided else f"codeact/{step}"

    def game_prompt(self, step: str) -> str:
        """The template of ``step`` for this seat at this game's table: `prompt`'s, or where the kind words the step
        for the game, that template (``aids/codeact/avalon/believe``: `roundtable.tables.protocol.game_template`, a
        lookup by template, not a comparison of the game's name; docs/agents/codeact.md#other-games)."""
        return game_template(self.context, self.prompt, self.view.game, step)

    def messages(self, user: str) -> list[BaseMessage]:
        """``[system: the rules, user: user]``: with the aids off Shi et al.'s global prompt (`global_prompt`), with
        them on the table's rules."""
        system = self.table.rules_text() if self.options.aided else self.global_prompt()
        return [SystemMessage(system), HumanMessage(user)]

    def global_prompt(self) -> str:
        """Shi et al.'s global prompt (template ``codeact/global``, §2.3 and Appendix A): the game rule, the role
        assignment and the role identification: the evil players the reveal showed (an evil player's teammates),
        Percival's two. At another game's table (no Shi et al.'s facts): the table's rules, the player's seat, its
        role card and knowledge (template ``codeact/table/global``)."""
        view = self.view
        if self.paper is None:
            return self.context.render("codeact/table/global", rules=self.table.rules_text().strip(), me=view.player,
                                       role_card=self.table.role_card().strip(),
                                       knowledge=self.table.knowledge_text().strip())
        labels = {str(k["is"]) for k in view.knowledge}
        seen = sorted(int(k["player"]) for k in view.knowledge)
        return self.context.render(
            "codeact/global", me=view.player, role=view.role,
            role_card="" if view.role in PAPER_ROLES else self.table.role_card(),
            evil_seen=seen if labels == {"evil"} else [],
            merlin_or_morgana=seen if labels == {"merlin_or_morgana"} else [],
            merlin=seen[0] if labels == {"merlin"} and seen else None, **self.paper.rules)

    def memory_text(self) -> str:
        """The global memory: the key lines said before the recent messages, then the recent messages
        (`roundtable.agents.codeact.memory.earlier_key`); template ``codeact/memory``, or with the aids on
        ``aids/codeact/memory``, after the role card and the knowledge."""
        view = self.view
        recent = list(self.memory.get("recent") or [])
        key = earlier_key(list(self.memory.get("key") or []), recent)
        if not self.options.aided:  # the role and its knowledge are in the system message (`global_prompt`)
            return self.context.render("codeact/memory", key=key, recent=recent)
        return self.context.render(
            "aids/codeact/memory", me=view.player, role_card=self.table.role_card(),
            knowledge=self.table.knowledge_text(), key=key, recent=recent)

    def heard(self) -> list[tuple[str, str]]:
        """The utterances in the global memory (key information and the recent messages), ``[("Player 3", words),
        ...]``, for the near-copy check (`roundtable.aids.review.heard_lines`)."""
        return heard_lines([*(self.memory.get("key") or []), *(self.memory.get("recent") or [])])

    def facts_text(self, facts: list[dict[str, Any]] | None = None) -> str:
        """The leader's facts as plain statements (template ``codeact/facts``, Shi et al.'s private and public
        information; with the aids on ``aids/codeact/facts``)."""
        facts = leader_facts(self.view, self.memory, self.table, self.paper) if facts is None else facts
        return self.context.render(self.prompt("facts"), facts=facts)

    def write_task(self, facts: list[dict[str, Any]]) -> str:
        """The CodeAct task (template ``codeact/write``, Shi et al.'s Figure 3; with the aids on
        ``aids/codeact/write``, our program skeleton); ``good`` and ``evil`` are ``None`` at a table that does not
        count the sides (another game than Avalon)."""
        rules = self.paper.rules if self.paper is not None else {}
        return self.context.render(self.prompt("write"), me=self.view.player,
                                   round=self.request.round, count=self.request.count,
                                   players=self.view.players, good=rules.get("good"), evil=rules.get("evil"),
                                   facts=self.facts_text(facts))

    @property
    def sandbox_owner(self) -> str:
        """Whose sandbox worker runs this agent's programs (one per player and game seed)."""
        return f"{self.kind}:{self.seed}:p{self.view.player}"
