"""One decision's parsed inputs for the ``cga`` nodes, and the prompt pieces they share, for any game with a table.

The rules, role card, knowledge, Host instruction, speech guidance, narration, the round's name, whether the
request is secret, the refresh of per-round notes and the game's own question sets are the game's table
(`roundtable.tables.protocol.GameTable`, docs/architecture.md#a-games-table), rendered over this kind's context:
Avalon's (`roundtable.tables.avalon.AvalonTable`, as every kind that plays Avalon reads it), Werewolf's
(`roundtable.tables.werewolf.WerewolfTable`, which leaves its rules, role cards, instructions and speech to this
kind's ``cga/rules``, ``cga/role``, ``cga/instruction`` and ``cga/speech``). The answer format, the extractor and
the pick rules are every kind's (`roundtable.tables.answers`, `roundtable.agents.common.reading`). No game is
named here.

Each of cga's own templates comes twice (`CgaTurn.prompt`): ``cga/X``, Xu et al.'s prompt with the game's facts
and the answer format (every line says where it comes from: docs/agents/cga.md#paper-mode), rendered with the
seat's aids off, and ``aids/cga/X``, the prompt tuned for the embedded model, rendered with them on
(docs/agents/aids.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from roundtable.agents.cga.context import CgaContext
from roundtable.agents.cga.options import CgaOptions
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.common.speech_model import speaking_model
from roundtable.agents.protocol import SeatSpec, agent_context, parse_view, player_slot
from roundtable.aids.interface import checked_of, heard_lines, knowledge_note
from roundtable.games.protocol import PlayerView, Request
from roundtable.tables.protocol import GameTable, TableSettings, game_table, game_template


@dataclass(frozen=True)
class CgaTurn:
    """The parsed inputs of one decision.

    Attributes:
        view, request, seat, seed: the graph's inputs, parsed. memory: the pool (`roundtable.agents.cga.memory`).
        options: the seat's `CgaOptions`. context: the run's `CgaContext`.
        slots: server slots of the seat's endpoint (each player's calls pinned to one: its prompt cache).
    """

    view: PlayerView
    request: Request
    seat: SeatSpec
    seed: int
    memory: dict[str, Any]
    options: CgaOptions
    context: CgaContext
    slots: int = 0

    @classmethod
    def of(cls, state: Mapping[str, Any], runtime: Runtime[Any] | None, models: ModelProvider | None = None
           ) -> CgaTurn:
        """Parse the graph state and the runtime context.

        Raises:
            pydantic.ValidationError: malformed view, request or seat.
            ConfigurationError: invalid seat options.
        """
        seat = SeatSpec.model_validate(state["seat"])
        options = CgaOptions.parse(seat.options, seat.model)
        context = agent_context(CgaContext, "cga", runtime.context if runtime is not None else None)
        view = parse_view(state["view"])
        request = Request.model_validate(state["request"])
        seed = int(state.get("seed") or 0)
        slots = models.slots(seat.model) if models is not None else 0
        return cls(view=view, request=request, seat=seat, seed=seed, memory=dict(state.get("pool") or {}),
                   options=options, context=context, slots=slots)

    # ------------------------------------------------------------ models

    @property
    def slot(self) -> int | None:
        """The server slot this player's calls are pinned to (``player - 1`` modulo the slots), or None."""
        return player_slot(self.view.player, self.slots)

    def model(self, models: ModelProvider, temperature: float, words: int, speaking: bool = False,
              again: bool = False, tokens: int | None = None) -> BaseChatModel:
        """The seat's model at ``temperature`` for a reply of at most ``words`` words (or, given, ``tokens``
        tokens); ``speaking``: the reply holds words said at the table (sampled with the DRY sampler where the
        seat's ``dry`` is on), ``again``: asked for again after a near copy (sampled warmer):
        `roundtable.aids.sampling`."""
        return speaking_model(models, self.seat.model, self.options, temperature, tokens or max_tokens_for(words),
                              slot=self.slot, speaking=speaking, again=again)

    def extractor(self, models: ModelProvider) -> BaseChatModel:
        """The seat's model for the extractor: the extraction temperature, a short cap, no slot of its own."""
        return models.chat(self.seat.model, self.temperature("extraction_temperature"), 48, slot=None)

    def temperature(self, which: str) -> float:
        """``temperature``, ``question_temperature``, ``thought_temperature`` or ``extraction_temperature``: the seat
        option, else the context."""
        value = getattr(self.options, which)
        return getattr(self.context, which) if value is None else value

    def structured(self, models: ModelProvider) -> bool:
        """Whether to ask for schema-constrained output (the seat option, or the endpoint's support)."""
        option = self.options.structured
        return models.json_schema(self.seat.model) if option == "auto" else bool(option)

    def memory_key(self) -> str:
        """What names this agent's memory index: the game's thread (when run in one), the seed and the player."""
        try:
            thread = (get_config().get("configurable") or {}).get("thread_id") or ""
        except RuntimeError:  # outside a graph run
            thread = ""
        return f"{thread}|{self.seed}|{self.view.player}"

    # ------------------------------------------------------------ prompt parts

    def prompt(self, name: str) -> str:
        """The template of cga's prompt ``name`` (``"think"``, ``"questions/werewolf"``) for this seat:
        ``aids/cga/<name>`` (tuned for the embedded model) with the aids on, else ``cga/<name>`` (Xu et al.'s)."""
        return f"aids/cga/{name}" if self.options.aided else f"cga/{name}"

    def game_prompt(self, name: str) -> str:
        """The template of cga's prompt ``name`` for this seat at this game's table: `prompt`'s, or where the kind
        words it for the game, that template (``cga/avalon/believe``, ``aids/cga/avalon/believe``:
        `roundtable.tables.protocol.game_template`, a lookup by template, not a comparison of the game's name;
        docs/agents/cga.md#other-games)."""
        return game_template(self.context, self.prompt, self.view.game, name)

    @cached_property
    def table(self) -> GameTable:
        """The game's table over this kind's context (`roundtable.tables.protocol.game_table`,
        docs/architecture.md#a-games-table): the game's texts, and where the game leaves a piece to the kind, this
        kind's template for it (`prompt`: ``rules``, ``role``, ``instruction``, ``speech``). With the seat's aids
        on, a game's aids texts (Avalon's role cards ``aids/avalon/roles/<role>``).

        Raises:
            ConfigurationError: the game describes no table.
        """
        opts = self.options
        return game_table(self.view, self.request, self.context,
                          TableSettings(response_words=opts.response_words, knowledge_lines=opts.knowledge_note,
                                        aids=opts.aided, prompt=self.prompt))

    @property
    def round_name(self) -> str:
        """What the game calls the moment of the request (`GameTable.round_name`: Avalon's ``quest``, Werewolf's
        ``day``, or ``night`` during a night phase)."""
        return self.table.round_name

    @property
    def refresh_key(self) -> str:
        """Which answers a decision shares under ``refresh=round`` (docs/agents/cga.md#the-modules): the table's
        (`GameTable.refresh_key`: Avalon's round, ``"3"``; in Werewolf the day's, ``"day 2"``, which the next night's
        decisions reuse, the first night having its own, ``"night 1"``)."""
        return self.table.refresh_key

    @property
    def role_title(self) -> str:
        """The player's role in words (`GameTable.role_title`: ``Seer``, ``Loyal Servant of Arthur``)."""
        return self.table.role_title

    def rules_text(self) -> str:
        """The system prompt: the game's rules (`GameTable.rules_text`)."""
        return self.table.rules_text()

    def role_card(self) -> str:
        """The player's role card (`GameTable.role_card`)."""
        return self.table.role_card()

    def knowledge(self) -> str:
        """What the player learned at the start, in words (`GameTable.knowledge_text`)."""
        return self.table.knowledge_text()

    def intro(self) -> str:
        """The agent's first memory message: its role and knowledge (informativeness 5)."""
        return " ".join(f"You are Player {self.view.player}, the {self.role_title}. {self.knowledge()}".split())

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as this player's memory line (`GameTable.narrate`)."""
        return self.table.narrate(event)

    def alive(self) -> list[int] | None:
        """The living players where the game removes players (`GameTable.alive`), else ``None``."""
        return self.table.alive()

    def history(self, recent: list[str], informative: list[str]) -> str:
        """The history block every module reads (template `prompt` ``history``)."""
        return self.context.render(self.prompt("history"), me=self.view.player, role_title=self.role_title,
                                   role_card=self.role_card(),
                                   knowledge=self.knowledge(), alive=self.alive(), informative=informative,
                                   recent=recent)

    def messages(self, user: str) -> list[BaseMessage]:
        """``[system: the rules, user: user]``."""
        return [SystemMessage(self.rules_text()), HumanMessage(user)]

    def questions_of(self, part: str) -> list[str]:
        """A part of the role's question set (``asked``, ``shared``, ``role``), one question a line: the game's own
        set (`GameTable.question_set`, template `prompt` of it, e.g. ``cga/questions/werewolf``), rendered with
        ``part``, ``role`` and ``day`` (not in secret); ``[]`` for a game with none."""
        question_set = self.table.question_set
        if question_set is None:
            return []
        text = self.context.render(self.prompt(question_set), part=part, role=self.view.role,
                                   day=not self.table.secret)
        return [line.strip() for line in text.splitlines() if line.strip()]

    def instruction(self) -> str:
        """The Host's instruction for the request in hand (`GameTable.instruction`), with what the player's own
        knowledge settles about it where the seat's ``knowledge_note`` is on (the table's own lines, Avalon's team
        lines; and the aids' note, `roundtable.aids.interface.knowledge_note`: Werewolf's)."""
        host = self.table.instruction()
        note = (knowledge_note(self.context, self.view, self.request, self.checked) if self.options.knowledge_note
                else "")
        return "\n".join(part for part in (host, note) if part)

    @property
    def checked(self) -> dict[int, bool]:
        """A Werewolf Seer's own check results so far (``{player: is a werewolf}``; ``{}`` for anyone else)."""
        return checked_of(self.memory.get("checked"))

    def heard(self) -> list[tuple[str, str]]:
        """The utterances among the memory's messages, ``[("Player 3", words), ...]`` (the player's own among
        them), for the near-copy check (`roundtable.aids.review.heard_lines`)."""
        return heard_lines(str(m.get("text") or "") for m in self.memory.get("messages") or [])

    def choice_help(self, json: bool) -> str:
        """How the answer's choice is written (`GameTable.choice_help`)."""
        return self.table.choice_help(json)

    def retry_note(self, attempt: int) -> str:
        """The Host's note when asking again for players (`GameTable.retry_note`)."""
        return self.table.retry_note(attempt)

    def speech(self) -> str:
        """How the words are said (`GameTable.speech`: Avalon's ``avalon/speech``; Werewolf's, `prompt` ``speech``)."""
        return self.table.speech()
