"""One decision's parsed inputs for the ``cga`` nodes, and the prompt pieces they share, for any game.

Avalon's rules, role card, knowledge, Host instruction and speech guidance
are the Avalon table's (`roundtable.tables.avalon.AvalonTable`, rendered
over this kind's context, as every kind that plays Avalon does); other games
read ``<game>/rules`` where the game ships it (else ``cga/rules``),
``cga/role``, ``cga/instruction`` and ``cga/speech``. The answer format, the
extractor and the pick rules are every kind's
(`roundtable.tables.answers`, `roundtable.agents.common.reading`).

Each of cga's own templates comes twice (`CgaTurn.prompt`): ``cga/X``, Xu et al.'s prompt with the game's facts
and the answer format (every line says where it comes from: docs/agents/cga.md#paper-mode), rendered with the
seat's aids off, and ``aids/cga/X``, the prompt tuned for the embedded model, rendered with them on
(docs/agents/aids.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
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
from roundtable.games import GAMES
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.narrator import narrate
from roundtable.prompts.registry import PromptNotFoundError
from roundtable.tables import answers
from roundtable.tables.avalon import AvalonTable, game_table


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

    @cached_property
    def table(self) -> AvalonTable | None:
        """The game's table texts shared by every kind, over this kind's context
        (`roundtable.tables.avalon.game_table`); ``None`` where the game has none: then this kind's own
        generic texts (`prompt`: ``rules``, ``role``, ``instruction``, ``speech``). With the seat's aids on, the
        role card is the aids' (``aids/avalon/roles/<role>``, `AvalonTable.aids`)."""
        table = game_table(self.view, self.request, self.context, self.options.response_words,
                           knowledge_lines=self.options.knowledge_note)
        return replace(table, aids=self.options.aided) if table is not None else None

    @property
    def round_name(self) -> str:
        """What the game calls a round (`GameRules.round_name`: Avalon's ``quest``, Werewolf's ``day``), or
        ``night`` during a night phase."""
        if self.request.phase in NIGHT:
            return "night"
        return GAMES[self.view.game].round_name

    @property
    def refresh_key(self) -> str:
        """Which answers a decision shares under ``refresh=round`` (docs/agents/cga.md#the-modules): Avalon's
        round (``"3"``); in Werewolf the day's (``"day 2"``), which the next night's decisions reuse, so the day's
        talk and vote are reasoned on answers written by day, after the night's deaths, not on the night's (the
        first night, with no day before it, has its own: ``"night 1"``)."""
        if self.view.game != "werewolf":
            return str(self.view.round)
        if self.request.phase in NIGHT:
            return f"day {self.view.round - 1}" if self.view.round > 1 else f"night {self.view.round}"
        return f"day {self.view.round}"

    @property
    def role_title(self) -> str:
        """The player's role in words (`GameRules.role_title`: ``Seer``, ``Loyal Servant of Arthur``)."""
        return GAMES[self.view.game].role_title(self.view.role)

    def rules_text(self) -> str:
        """The system prompt: the game's rules."""
        if self.table is not None:
            return self.table.rules_text()
        view = self.view
        variables = {"game": view.game, "players": view.players, "role_set": list(view.role_set),
                     "rules": dict(view.rules), "me": view.player, "role": view.role}
        if self.context.has(f"{view.game}/rules"):
            try:
                return self.context.render(f"{view.game}/rules", **variables)
            except Exception:  # noqa: BLE001 - a game's template asking for other variables: the generic rules
                pass
        return self.context.render(self.prompt("rules"), **variables)

    def role_card(self) -> str:
        """The player's role card."""
        if self.table is not None:
            return self.table.role_card()
        view = self.view
        return self.context.render(self.prompt("role"), game=view.game, role=view.role, side=view.side,
                                   players=view.players)

    def knowledge(self) -> str:
        """What the player learned at the start, in words."""
        view = self.view
        if self.table is not None:
            return self.table.knowledge_text()
        return " ".join(f"Player {k['player']} is {str(k['is']).replace('_', ' ')}." for k in view.knowledge
                        if k.get("player") != view.player)

    def intro(self) -> str:
        """The agent's first memory message: its role and knowledge (informativeness 5)."""
        return " ".join(f"You are Player {self.view.player}, the {self.role_title}. {self.knowledge()}".split())

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as this player's memory line (the game's narrator; a plain line where it has none)."""
        try:
            return narrate(self.view.game, event, self.view.player, self.view.rules)
        except PromptNotFoundError:
            fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "to") and v is not None)
            return f"{str(event.get('type', 'event')).replace('_', ' ')}: {fields}"

    def alive(self) -> list[int] | None:
        """The living players where the view says (Werewolf), else ``None``."""
        alive = getattr(self.view, "alive", None)
        return list(alive) if alive else None

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
        """A part of the role's question set (``asked``, ``shared``, ``role``), one question a line
        (template `prompt` ``questions/<game>``, falling back to Werewolf's)."""
        name = self.prompt(f"questions/{self.view.game}")
        name = name if self.context.has(name) else self.prompt("questions/werewolf")
        text = self.context.render(name, part=part, role=self.view.role, day=self.request.phase not in NIGHT)
        return [line.strip() for line in text.splitlines() if line.strip()]

    def instruction(self) -> str:
        """The Host's instruction for the request in hand, with what the player's own knowledge settles about it
        (Avalon's team lines; Werewolf's note, `roundtable.aids.werewolf_knowledge.knowledge_note`)
        where the seat's ``knowledge_note`` is on."""
        if self.table is not None:
            return self.table.instruction()
        r = self.request
        host = self.context.render(
            self.prompt("instruction"), kind=r.kind, answer=r.answer, me=self.view.player, round=r.round, count=r.count,
            candidates=list(r.candidates), may_pass=r.may_pass, options=list(r.options),
            allowed=[r.word(c) for c in r.allowed], subject=list(r.subject),
            audience=list(r.audience) if r.audience is not None else None, details=dict(r.details))
        note = knowledge_note(self.context, self.view, r, self.checked) if self.options.knowledge_note else ""
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
        """How the answer's choice is written (`roundtable.tables.answers.choice_help`)."""
        variables = (self.table.request_variables() if self.table is not None
                     else answers.request_variables(self.request))
        return answers.choice_help(self.context, variables, json)

    def retry_note(self, attempt: int) -> str:
        """The Host's note when asking again for players (`roundtable.tables.answers.retry_note`)."""
        return answers.retry_note(self.context, self.request, self.view.players, attempt)

    def speech(self) -> str:
        """How the words are said (Avalon: ``avalon/speech``; other games: `prompt` ``speech``)."""
        if self.table is not None:
            return self.table.speech()
        r = self.request
        return self.context.render(self.prompt("speech"), words=self.options.response_words, side=self.view.side,
                                   role=self.view.role, audience=list(r.audience) if r.audience is not None else None)


NIGHT = frozenset({"night", "werewolves", "guard", "witch", "seer"})
"""Phases that are night (the disclosure question is asked by day only)."""
