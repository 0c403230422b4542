"""One decision's parsed inputs for the ``react`` nodes, and the prompt pieces they share.

Every call but the parser's has AvalonBench's layout (Light et al. 2023, §3.1): the *Rules*, the player's *Role*,
its *Summary* and the *Minutes* of the round, then the step's task. Each step renders its template through
`ReactTurn.prompt`: with the seat's aids off (docs/agents/aids.md) the paper's (``react/<step>``: AvalonBench's
prompts, docs/agents/react.md#paper-mode), whose system message is AvalonBench's Rules and Role (``react/rules``,
``react/role``); with them on the aids' (``aids/react/<step>``), whose system message is the table's rules and
whose user message starts with the table's role card and knowledge (template ``aids/react/context``). The Host's
instruction, how words are said and the role card are the game's table (`roundtable.tables.protocol.GameTable`,
docs/architecture.md#a-games-table), rendered over this kind's context; where a game leaves a piece to the kind
(Werewolf's rules, role card, instruction, speech) the kind's neutral ``react/table/<piece>``. AvalonBench's Rules
and the leader of its Discuss prompts are Avalon's facts (`GameTable.paper_game`): at another game's
table the system message is the table's rules and AvalonBench's Role line over the table's role title and
knowledge (docs/agents/react.md#other-games). No game is named here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.common.speech_model import speaking_model
from roundtable.agents.protocol import SeatSpec, agent_context, parse_view, player_slot
from roundtable.agents.react import memory as mem
from roundtable.agents.react.context import ReactContext
from roundtable.agents.react.options import ReactOptions
from roundtable.aids.interface import heard_lines
from roundtable.games.protocol import PlayerView, Request
from roundtable.tables.protocol import GameTable, PaperGame, TableSettings, game_table, game_template

PARSE_TOKENS = 48
"""``max_tokens`` of a parser reply (one ``Answer:`` line, or its JSON object)."""


def table_prompt(piece: str) -> str:
    """The kind's template for a piece a game leaves to it (`roundtable.tables.protocol.TableSettings.prompt`):
    ``react/table/<piece>``, a neutral text (AvalonBench has no words for another game)."""
    return f"react/table/{piece}"


@dataclass(frozen=True)
class ReactTurn:
    """The parsed inputs of one decision.

    Attributes:
        view, request, seat, seed: the graph's inputs, parsed.
        memory: the pool (`roundtable.agents.react.memory`). options: the seat's `ReactOptions`.
        context: the run's `ReactContext`. table: the game's table over it (`roundtable.tables.protocol.GameTable`).
        paper: AvalonBench's facts of the game (`GameTable.paper_game`; ``None``: another game).
    """

    view: PlayerView
    request: Request
    seat: SeatSpec
    seed: int
    memory: dict[str, Any]
    options: ReactOptions
    context: ReactContext
    table: GameTable
    paper: PaperGame | None

    @classmethod
    def of(cls, state: Mapping[str, Any], runtime: Runtime[Any] | None) -> ReactTurn:
        """Parse the graph state and the runtime context.

        Raises:
            pydantic.ValidationError: malformed view, request or seat.
            ConfigurationError: invalid seat options.
            ConfigurationError: the view's game describes no table.
        """
        seat = SeatSpec.model_validate(state["seat"])
        options = ReactOptions.parse(seat.options, seat.model)
        context = agent_context(ReactContext, "react", runtime.context if runtime is not None else None)
        view = parse_view(state["view"])
        request = Request.model_validate(state["request"])
        table = game_table(view, request, context,
                           TableSettings(response_words=options.response_words, knowledge_lines=options.knowledge_note,
                                         aids=options.aided, prompt=table_prompt))
        return cls(view=view, request=request, seat=seat, seed=int(state.get("seed") or 0),
                   memory=dict(state.get("pool") or {}), options=options, context=context, table=table,
                   paper=table.paper_game)

    # ------------------------------------------------------------ sampling

    def slot(self, models: ModelProvider) -> int | None:
        """The server slot this player's calls are pinned to (`roundtable.agents.protocol.player_slot`), or None."""
        return player_slot(self.view.player, models.slots(self.seat.model))

    def writer(self, models: ModelProvider, words: int, speaking: bool = False, again: bool = False,
               dry: bool = False) -> BaseChatModel:
        """The seat's model for a reply of at most ``words`` words at the kind's temperature (seat option, else the
        context's 0.1), on the player's slot; ``speaking``: the reply is words said at the table (sampled with the
        DRY sampler where the seat's ``dry`` is on), ``again``: asked for again after a near copy (sampled
        warmer): `roundtable.aids.sampling`; ``dry``: DRY-sampled as words are, though not said."""
        t = self.options.temperature
        return speaking_model(models, self.seat.model, self.options, self.context.temperature if t is None else t,
                              max_tokens_for(words), slot=self.slot(models), speaking=speaking, again=again, dry=dry)

    def parser(self, models: ModelProvider) -> BaseChatModel:
        """The seat's model as the parser: the parse temperature (seat option, else the context's 0), `PARSE_TOKENS`."""
        t = self.options.parse_temperature
        temperature = self.context.parse_temperature if t is None else t
        return models.chat(self.seat.model, temperature, PARSE_TOKENS, slot=self.slot(models))

    def structured(self, models: ModelProvider) -> bool:
        """Whether the parser asks for schema-constrained output (the seat option, or the endpoint's support)."""
        option = self.options.structured
        return models.json_schema(self.seat.model) if option == "auto" else bool(option)

    # -------------------------------------------------------- prompt parts

    def heard(self) -> list[tuple[str, str]]:
        """The talk among the minutes not yet summarized, ``[("Player 3", words), ...]`` (the player's own among
        them), for the near-copy check (`roundtable.aids.review.heard_lines`)."""
        return heard_lines(str(m.get("text") or "") for m in self.memory.get("minutes") or [])

    def private_texts(self, thoughts: list[str]) -> list[str]:
        """The private texts behind the decision in hand (`Decision.thoughts`): the running summary its prompts show
        and ``thoughts``, the reasoning written so far."""
        return [text for text in (str(self.memory.get("summary") or ""), *thoughts) if text]

    def prompt(self, step: str) -> str:
        """The template of ``step`` for this seat: ``aids/react/<step>`` with the aids on, else the paper's
        ``react/<step>`` (docs/agents/react.md#paper-mode)."""
        return f"aids/react/{step}" if self.options.aided else f"react/{step}"

    def game_prompt(self, step: str) -> str:
        """The template of ``step`` for this seat at this game's table: `prompt`'s, or where the kind words the step
        for the game, that template (``aids/react/avalon/summarize``: `roundtable.tables.protocol.game_template`, a
        lookup by template, not a comparison of the game's name; docs/agents/react.md#other-games)."""
        return game_template(self.context, self.prompt, self.view.game, step)

    def messages(self, user: str) -> list[BaseMessage]:
        """``[system: the rules, user: user]``: with the aids off AvalonBench's Rules and Role (``react/rules``, then
        ``react/role``: Light et al. 2023, Appendix A.1; at another game's table its rules, then ``react/role``),
        with them on the table's rules."""
        if self.options.aided:
            return [SystemMessage(self.table.rules_text()), HumanMessage(user)]
        rules = (self.context.render("react/rules", **self.paper.rules) if self.paper is not None
                 else self.table.rules_text().strip())
        system = "\n\n".join((rules, self.role_text()))
        return [SystemMessage(system), HumanMessage(user)]

    def role_text(self) -> str:
        """AvalonBench's Role (template ``react/role``, Light et al. 2023, Tables 7 and 8): the identity, and what the
        reveal showed: the evil players, and the good ones when it showed every evil player. At another game's table
        (no AvalonBench facts) the identity line over the table's role title, then the table's role card and
        knowledge."""
        view = self.view
        if self.paper is None:
            return self.context.render(
                "react/role", me=view.player, title=self.table.role_title, side=view.side, evil=[], good=[],
                merlin_or_morgana=[], merlin=None, card=self.table.role_card().strip(),
                knowledge=self.table.knowledge_text().strip())
        labels = {str(k["is"]) for k in view.knowledge}
        seen = sorted(int(k["player"]) for k in view.knowledge)
        evil = seen if labels == {"evil"} else []
        shown = len(evil) + (1 if view.side == "evil" else 0)
        good = ([p for p in range(1, view.players + 1) if p not in evil and p != view.player]
                if evil and shown == int(self.paper.rules["evil"]) else [])
        return self.context.render(
            "react/role", me=view.player, title=self.table.role_title, side=view.side, evil=evil, good=good,
            merlin_or_morgana=seen if labels == {"merlin_or_morgana"} else [],
            merlin=seen[0] if labels == {"merlin"} and seen else None, card="", knowledge="")

    def context_text(self, lines: list[str] | None = None, rounds: list[int] | None = None) -> str:
        """What every writing call's user message starts with: the summary and the minutes (template
        ``react/context``), with the aids on after the role card and private knowledge (``aids/react/context``).

        Args:
            lines: the minutes' lines (default: the round in hand's, `roundtable.agents.react.memory.minutes`).
            rounds: the rounds they cover (default: the round in hand).
        """
        round_ = self.view.round
        if not self.options.aided:  # the role is in the system message (`messages`)
            return self.context.render(
                "react/context", summary=str(self.memory.get("summary") or ""),
                minutes=mem.minutes(self.memory, round_) if lines is None else lines)
        return self.context.render(
            "aids/react/context", me=self.view.player, role_card=self.table.role_card(),
            knowledge=self.table.knowledge_text(), summary=str(self.memory.get("summary") or ""),
            minutes=mem.minutes(self.memory, round_) if lines is None else lines,
            rounds=[round_] if rounds is None else rounds, round_name=self.table.round_name)
