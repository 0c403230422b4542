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

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from roundtable.games.avalon import AvalonView, FifthRejection, Role, rejection_wins
from roundtable.games.protocol import Request
from roundtable.agents.lga.context import LgaContext
from roundtable.prompts.narrator import narrate
from roundtable.agents.common.model_calls import ModelProvider

from roundtable.agents.protocol import SeatSpec, agent_context, parse_view, player_slot
from roundtable.agents.common.avalon_rules import rules_variables

from roundtable.agents.lga import memory as mem
from roundtable.agents.lga.options import LgaOptions
from roundtable.agents.lga.state import LgaState


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
    def of(cls, state: LgaState, runtime: Runtime[LgaContext] | None, models: ModelProvider | None = None) -> "Turn":
        """Parse the graph state and the runtime context; ``models`` says how many server slots the seat's
        endpoint has (none asked: 0).

        Raises:
            pydantic.ValidationError: malformed view, request or seat.
            ConfigurationError: invalid seat options.
        """
        seat = SeatSpec.model_validate(state["seat"])
        options = LgaOptions.parse(seat.options)
        slots = models.slots(seat.model) if models is not None and options.prompt_layout != "shared" else 0
        return cls(
            view=parse_view(state["view"]),  # type: ignore[arg-type]
            request=Request.model_validate(state["request"]),
            seat=seat,
            seed=int(state.get("seed") or 0),
            memory=dict(state.get("pool") or {}),
            options=options,
            context=agent_context(LgaContext, "lga", runtime.context if runtime is not None else None),  # type: ignore[arg-type]
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

    def rules_text(self) -> str:
        """The system prompt: the rules for this game's role set and variants."""
        return self.context.render("avalon/rules", **rules_variables(self.view))

    def role_card(self) -> str:
        """The player's role card: role name and introduction, goal, strategy (a learned one where its options
        give it), and what it learned of the other roles."""
        role = Role(self.view.role)
        card = self.context.render(
            f"avalon/roles/{role.value}",
            title=role.title,
            player=self.view.player,
            role_set=list(self.view.role_set),
            strategy=str(self.memory.get("strategy") or self.options.strategy or ""),
        )
        if self.options.role_notes:  # learned between games (Lan et al.'s other-role strategies)
            card = f"{card.rstrip()}\nWhat you learned in earlier games about the other roles: {self.options.role_notes}\n"
        return card

    def base_variables(self, ended: bool = False) -> dict[str, Any]:
        """Variables every ``lga/*`` template gets, with the rendered ``shared`` and ``private`` parts.

        Args:
            ended: show the records of the rounds that ended and are not yet
                summarized (for the summary) instead of the current round's,
                so the summary's prompt starts as the player's last prompt of
                that round did and its prompt cache serves all but the task.
        """
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
            "knowledge": self.context.render("avalon/knowledge", knowledge=list(view.knowledge), side=view.side),
            "summary": str(memory.get("summary") or ""),
            "private_notes": mem.private_notes(pool, first),
            "analysis": "" if self.options.no_analysis else str(memory.get("analysis") or ""),
            "plan": "" if self.options.no_plan else str(memory.get("plan") or ""),
            "standing": self.standing(),
        }
        variables["shared"] = self.context.render("lga/shared", **variables)
        variables["board_part"] = self.context.render("lga/shared", **{**variables, "transcript": ""})
        variables["quest_part"] = self.context.render("lga/shared", **{**variables, "board": ""})
        variables["private"] = self.context.render("lga/private", **variables)
        variables["layout"] = self.layout
        variables["context"] = self.context_text(variables, variables["analysis"], variables["plan"])
        return variables

    def context_text(self, variables: dict[str, Any], analysis: str = "", plan: str = "",
                     previous_plan: bool = False) -> str:
        """What precedes a module's task, in this turn's layout (template ``lga/context``).

        Args:
            variables: `base_variables` (its ``shared`` and ``private`` parts).
            analysis, plan: the notes the module shows (``""``: none).
            previous_plan: the plan is the one the module is about to replace.
        """
        return self.context.render("lga/context", layout=self.layout, shared=variables["shared"],
                                   board=variables["board_part"], quest=variables["quest_part"],
                                   private=variables["private"], summary=variables["summary"], analysis=analysis, plan=plan,
                                   previous_plan=previous_plan, private_notes=variables["private_notes"])

    def messages(self, user: str) -> list[BaseMessage]:
        """``[system: rules, user: user]``."""
        return [SystemMessage(self.rules_text()), HumanMessage(user)]

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as this player's record line (the game's narrator, template ``avalon/narration``)."""
        return narrate(self.view.game, event, self.view.player, self.view.rules,
                       source=self.context.template("avalon/narration"))

    def team_knowledge(self) -> str:
        """What the public record (template ``avalon/team_record``: the player's own proposal, members on failed
        quests, a fifth team) and the player's reveal knowledge (template ``avalon/team_knowledge``) say about the
        team in hand, one statement a line, the line that settles the vote last (a fifth team whose rejection wins
        for evil settles it for everyone, so the knowledge line is left out then); ``""`` outside a team vote or
        the talk about a team (which gets the knowledge only: a fact line every speaker is given would be said by
        every speaker). A leader's first proposal gets what its knowledge and the record say about whom its side
        wants on the team, and a good leader the players it may choose from (template ``avalon/leader_lines``)."""
        view, team = self.view, list(self.request.subject)
        known = [k["player"] for k in view.knowledge if k.get("is") == "evil"]
        if self.request.kind == "propose_team" and not team:  # a first proposal: whom the side wants on it
            failed = self.failed_players()  # a good leader is told whom it may choose from (the others' complement)
            out = set(known) if known else {f["player"] for f in failed}
            free = [p for p in range(1, view.players + 1) if p not in out]
            return self.context.render("avalon/leader_lines", me=view.player, side=view.side, role=view.role,
                                       known_evil=known, failed=failed, free=free).strip()
        if self.request.kind not in ("vote_team", "speak"):
            return ""
        knowledge = self.context.render("avalon/team_knowledge", me=view.player, side=view.side,
                                        role=view.role, team=team, known_evil=known).strip()
        if self.request.kind != "vote_team":
            return knowledge
        record = self.context.render("avalon/team_record", me=view.player, side=view.side, leader=view.leader,
                                     team=team, failed=self.failed_members(), last_chance=self.last_chance,
                                     settled=bool(known)).strip()
        return "\n".join(part for part in (record, "" if self.last_chance else knowledge) if part)

    def failed_quests(self) -> list[tuple[int, list[int]]]:
        """The failed quests in the player's view: ``[(round, [members other than this player, ...])]``."""
        view = self.view
        return [(quest.get("round", number), [p for p in quest.get("team") or () if p != view.player])
                for number, quest in enumerate(view.quests, start=1) if not quest.get("success")]

    def failed_members(self) -> list[dict[str, Any]]:
        """The members of the team in hand, the player aside, who were on each failed quest.

        Returns:
            ``[{"quest": round, "players": [seat, ...]}]``, one entry per failed quest with such members.
        """
        team = set(self.request.subject)
        on_team = [(round_, [p for p in members if p in team]) for round_, members in self.failed_quests()]
        return [{"quest": round_, "players": members} for round_, members in on_team if members]

    def failed_players(self) -> list[dict[str, Any]]:
        """The players other than this one who were on failed quests, in seat order.

        Returns:
            ``[{"player": seat, "quests": [round, ...]}]``.
        """
        quests: dict[int, list[int]] = {}
        for round_, members in self.failed_quests():
            for p in members:
                quests.setdefault(p, []).append(round_)
        return [{"player": p, "quests": quests[p]} for p in sorted(quests)]

    @property
    def last_chance(self) -> bool:
        """Whether rejecting the team in hand wins the game for evil (the fifth proposal, official rule)."""
        return self.request.kind == "vote_team" and rejection_wins(
            self.request.attempt, self.view.rules.get("fifth_rejection", FifthRejection.EVIL_WINS))

    def request_variables(self) -> dict[str, Any]:
        """The request's fields for the instruction and answer templates."""
        r = self.request
        return {
            "kind": r.kind,
            "answer": r.answer,
            "count": r.count,
            "team_size": r.count,
            "team": list(r.subject),
            "candidates": list(r.candidates),
            "final": bool(r.details.get("final")),
            "may_pass": r.may_pass,
            "options": list(r.options),
            "allowed": [r.word(c) for c in r.allowed],
            "audience": list(r.audience) if r.audience is not None else None,
            "wants_words": r.wants_words,
            "team_knowledge": self.team_knowledge(),
        }

    def instruction(self) -> str:
        """The Host's instruction for the request in hand."""
        view = self.view
        return self.context.render(
            "lga/instruction",
            me=view.player, players=view.players, leader=view.leader, round=self.request.round,
            attempt=self.request.attempt, **self.request_variables(),
        )

    def standing(self) -> str:
        """How this player answers the Host in every call of its game (template ``lga/standing``): the manner of
        its words at the table (its own, at most ``response_words`` words, what to keep secret) and the rule of a
        team vote; part of the private part, so no task repeats it."""
        return self.context.render("lga/standing", words=self.options.response_words, side=self.view.side,
                                   role=self.view.role)

    def speech(self) -> str:
        """How the words of the request in hand are to be said: to whom and how long (template ``lga/speech``)."""
        r = self.request
        return self.context.render("lga/speech", words=self.options.response_words, kind=r.kind,
                                   audience=list(r.audience) if r.audience is not None else None)

    def choice_help(self, json: bool, reason: bool = False) -> str:
        """How the answer's choice is to be written (template ``lga/choice_help``)."""
        return self.context.render("lga/choice_help", **self.request_variables(), reason=reason,
                                   format="json" if json else "prose")

    def retry_note(self, attempt: int) -> str:
        """What the Host says when asking again for players (``""`` on the first try)."""
        if attempt == 0 or self.request.answer != "pick":
            return ""
        return self.context.render("lga/retry_note", count=self.request.count, players=self.view.players)

    def decided(self, action: dict[str, Any] | None) -> str:
        """The chosen action in words, for the response prompt (``""`` when there is none)."""
        if not action:
            return ""
        return self.context.render("lga/decided", kind=self.request.kind, players=action.get("players"),
                                   passed=bool(action.get("passed")), choice=action.get("choice"),
                                   options=list(self.request.options))
