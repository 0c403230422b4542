"""The Avalon table: the prompt pieces every model-driven kind reads in Avalon.

The rules (template ``avalon/rules``), the role card (``avalon/roles/<role>``),
the knowledge, each event as the player's record line (``avalon/narration``),
the Host's instruction for a request (``avalon/instruction``), how its answer
is written (``answers/choice_help``, ``answers/retry_note``), how its words are
said (``avalon/speech``), the action chosen in words (``avalon/decided``), and
what the record and the player's knowledge say about the team in hand
(``avalon/team_record``, ``avalon/team_knowledge``, ``avalon/leader_lines``).
Each kind renders them through its own prompt context, so a kind's overrides
of these templates apply to it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roundtable.detectors.knowledge import knowledge_vote
from roundtable.games import GAMES
from roundtable.games.avalon import AvalonView, FifthRejection, Role, known_evil, rejection_wins
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.narrator import narrate
from roundtable.prompts.rendering import PromptContext
from roundtable.tables import answers
from roundtable.tables.avalon_rules import rules_variables
from roundtable.tables.plain import with_role_notes
from roundtable.tables.protocol import PaperGame, TableMaker, TableSettings, own_name, render_kind_text

AVALON_ROLES: tuple[str, ...] = tuple(role.value for role in Role)
"""Avalon's roles, each with a role card template ``avalon/roles/<role>`` (a prompt field of every kind's context)."""


def prompt_fields(nodes: list[str]) -> dict[str, tuple[str, list[str], str]]:
    """Avalon's `roundtable.tables.protocol.PromptFieldsHook`: the role cards as prompt fields of a kind's context
    (`roundtable.prompts.rendering.PromptFields`), read by ``nodes``: ``role_<role>_prompt`` (the game's card,
    ``avalon/roles/<role>``) and ``aids_role_<role>_prompt`` (the aids' card, ``aids/avalon/roles/<role>``,
    rendered when the seat's aids are on)."""
    return {
        **{f"role_{role}_prompt": (f"avalon/roles/{role}", nodes,
                                   f"Role card of {role}: the role, what it knows, its goal (and a strategy given).")
           for role in AVALON_ROLES},
        **{f"aids_role_{role}_prompt": (f"aids/avalon/roles/{role}", nodes,
                                        f"Role card of {role} with the aids on: also an initial strategy and a "
                                        "voting rule (ours, for the embedded model).")
           for role in AVALON_ROLES},
    }


@dataclass(frozen=True)
class AvalonTable:
    """One Avalon decision's table talk, rendered through a kind's prompt context.

    Attributes:
        view: the player's Avalon view. request: the request in hand.
        context: the kind's prompt context (`roundtable.prompts.rendering.PromptContext`).
        response_words: the word limit of the player's words at the table.
        strategy: the role's strategy on the role card (a learned one; ``""``: the card's initial one).
        role_notes: what the player learned in earlier games about the other roles (``""``: none).
        knowledge_lines: state beside the request what the player's knowledge and the record say about the team
            in hand (`team_knowledge`; the seat option ``knowledge_note``, docs/agents/checks.md#options).
        aids: the seat's aids are on: the role card is the aids' (``aids/avalon/roles/<role>``: our initial
            strategy and a voting rule), not the game's facts alone (docs/agents/aids.md).
        prompt: the kind's templates of the pieces it words itself (`TableSettings.prompt`, for `kind_text`).
    """

    view: AvalonView
    request: Request
    context: PromptContext
    response_words: int = 20
    strategy: str = ""
    role_notes: str = ""
    knowledge_lines: bool = True
    aids: bool = False
    prompt: Callable[[str], str] = own_name

    def rules_text(self) -> str:
        """The system prompt: the rules for this game's role set and variants."""
        return self.context.render("avalon/rules", **rules_variables(self.view))

    def role_card(self) -> str:
        """The player's role card: role name and introduction, goal, strategy (``strategy``; with the aids on, a
        card without one has the aids' initial strategy), and what it learned of the other roles."""
        role = Role(self.view.role)
        card = self.context.render(
            f"{'aids/' if self.aids else ''}avalon/roles/{role.value}",
            title=role.title,
            player=self.view.player,
            role_set=list(self.view.role_set),
            strategy=self.strategy,
            rules=dict(self.view.rules),  # the assassination variant: when the Assassin may shoot
        )
        return with_role_notes(card, self.role_notes)  # learned between games (Lan et al.'s other-role strategies)

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as this player's record line (the game's narrator, template ``avalon/narration``)."""
        return narrate(self.view.game, event, self.view.player, self.view.rules,
                       source=self.context.template("avalon/narration"))

    def team_knowledge(self) -> str:
        """What the public record (template ``avalon/team_record``: the player's own proposal, members on failed
        quests, a fifth team) and the player's knowledge (template ``avalon/team_knowledge``: the reveal's evil
        players and an Assassin a missed mid-game shot exposed, `roundtable.games.avalon.known_evil`) say about the
        team in hand, one statement a line, the line that settles the vote last (a fifth team whose rejection wins
        for evil settles it for everyone, so the knowledge line is left out then); ``""`` outside a team vote or
        the talk about a team (which gets the knowledge only: a fact line every speaker is given would be said by
        every speaker). A leader's first proposal gets what its knowledge and the record say about whom its side
        wants on the team, and a good leader the players it may choose from (template ``avalon/leader_lines``).
        ``""`` always when `knowledge_lines` is off."""
        if not self.knowledge_lines:
            return ""
        view, team = self.view, list(self.request.subject)
        known = sorted(known_evil(view))  # the reveal's evil players and an exposed Assassin
        if self.request.kind == "propose_team" and not team:  # a first proposal: whom the side wants on it
            # a good leader is told whom it may choose from (the others' complement): the evil players its reveal
            # showed (Merlin's sight), else the players of failed quests and an exposed Assassin
            failed = [f for f in self.failed_players() if f["player"] not in known]
            revealed = any(k.get("is") == "evil" for k in view.knowledge)
            out = set(known) if revealed else set(known) | {f["player"] for f in failed}
            free = [p for p in range(1, view.players + 1) if p not in out]
            return self.context.render("avalon/leader_lines", me=view.player, side=view.side, role=view.role,
                                       known_evil=known, failed=failed, free=free).strip()
        if self.request.kind not in ("vote_team", "speak"):
            return ""
        knowledge = self.context.render("avalon/team_knowledge", me=view.player, side=view.side,
                                        role=view.role, team=team, known_evil=known).strip()
        if self.request.kind != "vote_team":
            return knowledge
        settled = bool(known) and knowledge_vote(Role(view.role), view.player, view.knowledge, team,
                                                 exposed=view.exposed_assassin) is not None
        record = self.context.render("avalon/team_record", me=view.player, side=view.side, leader=view.leader,
                                     team=team, failed=self.failed_members(), last_chance=self.last_chance,
                                     settled=settled).strip()
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
        return self.request.kind == "vote_team" and fifth_team(self.view, self.request.attempt)

    def request_variables(self) -> dict[str, Any]:
        """The request's fields for the instruction and answer templates, with `team_knowledge`
        (`roundtable.tables.answers.request_variables`)."""
        return answers.request_variables(self.request, self.team_knowledge())

    def knowledge_text(self) -> str:
        """What the player learned at the start, in words (template ``avalon/knowledge``)."""
        return self.context.render("avalon/knowledge", knowledge=list(self.view.knowledge), side=self.view.side)

    def instruction(self) -> str:
        """The Host's instruction for the request in hand."""
        view = self.view
        return self.context.render(
            "avalon/instruction",
            me=view.player, players=view.players, leader=view.leader, round=self.request.round,
            attempt=self.request.attempt, **self.request_variables(),
        )

    def speech(self) -> str:
        """How the words of the request in hand are to be said: to whom and how long (template ``avalon/speech``)."""
        r = self.request
        return self.context.render("avalon/speech", words=self.response_words, kind=r.kind,
                                   audience=list(r.audience) if r.audience is not None else None)

    def choice_help(self, json: bool, reason: bool = False) -> str:
        """How the answer's choice is to be written (`roundtable.tables.answers.choice_help`)."""
        return answers.choice_help(self.context, self.request_variables(), json, reason)

    def retry_note(self, attempt: int) -> str:
        """What the Host says when asking again for players (`roundtable.tables.answers.retry_note`)."""
        return answers.retry_note(self.context, self.request, self.view.players, attempt)

    def decided(self, action: dict[str, Any] | None) -> str:
        """The chosen action in words, for the response prompt (``""`` when there is none)."""
        if not action:
            return ""
        return self.context.render("avalon/decided", kind=self.request.kind, players=action.get("players"),
                                   passed=bool(action.get("passed")), choice=action.get("choice"),
                                   options=list(self.request.options))

    # the rest of the game's table (`roundtable.tables.protocol.GameTable`)

    def kind_text(self, piece: str, **variables: Any) -> str:
        """The kind's own text of ``piece`` in Avalon, ``""`` without one
        (`roundtable.tables.protocol.render_kind_text`)."""
        settings = TableSettings(prompt=self.prompt)
        return render_kind_text(self.context, settings, self.view.game, piece, **variables)

    @property
    def game_title(self) -> str:
        """``"Avalon"`` (`roundtable.games.protocol.GameRules.game_title`)."""
        return GAMES[self.view.game].game_title

    @property
    def probe_sides(self) -> tuple[str, str]:
        """``("good", "evil")``: AvalonBench's probe asks how likely each player is to be good."""
        return ("good", "evil")

    @property
    def probe_roles(self) -> str:
        """The good roles of the game's role set in words, a role several players hold with its article:
        ``"Merlin, Percival or a Loyal Servant of Arthur"``."""
        roles = list(self.view.role_set)
        titles = [f"{'a ' if roles.count(role) > 1 else ''}{Role(role).title}" for role in dict.fromkeys(roles)
                  if Role(role).side == "good"]
        return " or ".join(filter(None, (", ".join(titles[:-1]), titles[-1]))) if titles else ""

    @property
    def role_title(self) -> str:
        """The player's role in words (``"Loyal Servant of Arthur"``)."""
        return Role(self.view.role).title

    @property
    def round_name(self) -> str:
        """Avalon's round: ``quest``."""
        return "quest"

    @property
    def secret(self) -> bool:
        """No Avalon request is made away from the table."""
        return False

    @property
    def refresh_key(self) -> str:
        """The quest (``"3"``): every decision of a round shares one refresh of per-round notes."""
        return str(self.view.round)

    def alive(self) -> list[int] | None:
        """No one leaves an Avalon table: ``None``."""
        return None

    @property
    def paper_game(self) -> PaperGame:
        """AvalonBench's and Shi et al.'s facts of this Avalon game: its rules' variables, the leader, the quests."""
        return PaperGame(rules=rules_variables(self.view), leader=self.view.leader, quests=tuple(self.view.quests))

    @property
    def question_set(self) -> str | None:
        """Xu et al.'s question step in Avalon: ``questions/avalon`` (cga's ``cga/questions/avalon``: the paper's
        questions shared by every role, docs/agents/cga.md#questions)."""
        return "questions/avalon"


def fifth_team(view: AvalonView, attempt: int) -> bool:
    """Whether a rejection of proposal ``attempt`` wins the game for evil under ``view``'s rules
    (`roundtable.games.avalon.rejection_wins`, docs/games/avalon.md#fifth_rejection)."""
    return rejection_wins(attempt, view.rules.get("fifth_rejection", FifthRejection.EVIL_WINS))


def avalon_view(view: PlayerView) -> AvalonView:
    """``view`` as an Avalon view.

    Raises:
        TypeError: the view is another game's (the Avalon table serves Avalon alone).
    """
    if not isinstance(view, AvalonView):
        raise TypeError(f"the Avalon table serves Avalon views, not {view.game!r}'s")
    return view


def avalon_table(view: PlayerView, request: Request, context: PromptContext,
                 settings: TableSettings) -> AvalonTable:
    """Avalon's table maker (`roundtable.tables.protocol.TableMaker`, registered as
    `roundtable.games.protocol.GameRules.table`): the Avalon table of one decision under ``settings``.

    Raises:
        TypeError: the view is another game's.
    """
    return AvalonTable(view=avalon_view(view), request=request, context=context,
                       response_words=settings.response_words, strategy=settings.strategy,
                       role_notes=settings.role_notes, knowledge_lines=settings.knowledge_lines, aids=settings.aids,
                       prompt=settings.prompt)


_MAKER: TableMaker = avalon_table  # the type checker holds the table to the protocol (GameTable)
