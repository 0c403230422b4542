"""Decisions the player's own knowledge settles, and the agent's check of its answer against them
(docs/agents/checks.md#knowledge-settled-decisions).

No model call. `Settled` says what a decision must be, from the facts the prompt states beside the request
(Avalon's team lines, `roundtable.tables.avalon.AvalonTable.team_knowledge`; Werewolf's note,
`roundtable.aids.werewolf`), so a check asks for nothing the player was not told:

- Avalon's team vote (`roundtable.aids.avalon.avalon_settled`): **knowledge**
  (`roundtable.detectors.knowledge.knowledge_vote`): Merlin on a team with or without a player he sees as evil,
  an evil player on a team with or without a player of its side, any good player on a team with the Assassin
  a missed mid-game shot exposed to the whole table
  (`roundtable.games.avalon.known_evil`, ``assassination=after_each_quest``);
  **rules**: the fifth team of a quest, whose rejection wins the game for evil (every player: good approves,
  evil rejects, whatever its knowledge says: the rules tell every player so);
  **words**: when neither settles it, the stance the player's own words stated on this team ("I support it",
  "I will vote against this team": `roundtable.games.avalon.AvalonView.said`; words and action agree);
  **record**: for good players whose knowledge settles nothing, a team none of whose other members has been on
  a failed quest (the role cards' "without evidence against a member, approve");
- Werewolf's picks (`roundtable.aids.werewolf.werewolf_settled`: **knowledge**, and **rules**
  for a sequential night's second kill vote, which joins the teammate's), and a
  day vote the player's own statement of that day settles (`roundtable.aids.werewolf.stated_vote`,
  **words**: words and action agree; with the knowledge, `...werewolf_day_settled`).

Which are checked is the seat option ``vote_check``: ``off``, ``knowledge`` (knowledge, rules and words) or
``record`` (all four). An answer against what is settled is asked for once more with the Host's note
(template ``checks/vote_note``), the second answer kept whatever it says; `Decision.checks` names it
(``"vote reject against knowledge (no_evil_seen): asked again"``, ``"eliminate player 5 against knowledge
(teammate): asked again"``). With the seat option ``overrule`` on, it is instead replaced at once by what is
settled, with no second call (``"vote reject against rules (fifth_team): overruled"``): a model that does not
follow the note (on the embedded model, no re-ask changed a vote: docs/measurements.md#team-votes) still plays
by what it knows, and the record says which decisions the rule took.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from roundtable.aids.asking import ask_again
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import PromptContext

NOTE = "checks/vote_note"
"""The template of the Host's note when a settled decision is asked for again."""


@dataclass(frozen=True)
class Settled:
    """What the player's knowledge or the public record settles about the request in hand.

    Attributes:
        source: ``knowledge``, ``rules``, ``words`` or ``record`` (see the module docstring).
        reason: why, for the Host's note: Avalon's ``side_on_team``, ``side_off_team``, ``evil_seen``,
            ``no_evil_seen``, ``fifth_team``, ``own_stance``, ``no_evidence``; Werewolf's ``teammate``,
            ``kill_village``, ``teammate_target``, ``checked_werewolf``, ``checked_good``, ``checked_before``,
            ``first_night``, ``own_statement``.
        approve: for a ``yes_no`` request, the wanted choice (None for a ``pick``).
        avoid: for a ``pick``, players it must not choose. prefer: players one of whom it must choose.
        players: the players the reason names.
    """

    source: str
    reason: str
    approve: bool | None = None
    avoid: tuple[int, ...] = ()
    prefer: tuple[int, ...] = ()
    players: tuple[int, ...] = ()

    def against(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` (``{"choice"}``, ``{"players"}`` or ``{"passed"}``) goes against what is settled."""
        if self.approve is not None:
            return "choice" in action and bool(action["choice"]) != self.approve
        chosen = set(action.get("players") or ())
        return bool(chosen & set(self.avoid)) or bool(self.prefer and not chosen & set(self.prefer))

    def preferring(self, named: int | None) -> Settled:
        """The same, with ``named`` first among the players it must choose from when it is one of them (a
        werewolf's words naming a village player to kill, which an overrule then takes instead of the rule bot's
        pick); unchanged otherwise."""
        if named is None or named not in self.prefer or self.prefer[0] == named:
            return self
        return replace(self, prefer=(named, *(p for p in self.prefer if p != named)))

    def action(self, request: Request, action: Mapping[str, Any]) -> dict[str, Any] | None:
        """The answer that follows what is settled, in place of ``action`` (which goes against it), or None when
        the rule names none: ``{"choice": approve}``; for a pick, the first player it must choose, else the
        players chosen without those it must not choose when enough are left, else a pass where allowed."""
        if self.approve is not None:
            return {"choice": self.approve}
        if self.prefer:
            return {"players": [self.prefer[0]]}
        kept = [p for p in action.get("players") or () if p not in self.avoid]
        if len(kept) == (request.count or 0):
            return {"players": kept}
        return {"passed": True} if request.may_pass else None

    def finding(self, request: Request, action: Mapping[str, Any]) -> str:
        """The `Decision.checks` line, without its ending: ``"vote reject against knowledge (no_evil_seen)"``,
        ``"eliminate player 5 against knowledge (teammate)"``."""
        if self.approve is not None:
            return f"vote {request.word(bool(action['choice']))} against {self.source} ({self.reason})"
        chosen = list(action.get("players") or ())
        what = f"player {', '.join(map(str, chosen))}" if chosen else "nobody"
        return f"{request.kind} {what} against {self.source} ({self.reason})"

    def note(self, context: PromptContext, request: Request, action: Mapping[str, Any], me: int) -> str:
        """The Host's note asking again (template `NOTE`, rendered through the kind's context)."""
        vote = self.approve is not None
        return context.render(NOTE, cast=request.word(bool(action["choice"])) if vote else "",
                              wanted=request.word(bool(self.approve)) if vote else "", reason=self.reason,
                              players=list(self.players), me=me, chosen=list(action.get("players") or ()),
                              kind=request.kind)


def settled_update(context: PromptContext, view: PlayerView, request: Request, settled: Settled | None,
                   action: Mapping[str, Any] | None, mode: str, reviewed: bool,
                   overrule: bool = False) -> dict[str, Any]:
    """The state update of a step that read an answer: ask again once when it goes against what is settled, or
    record what a re-ask left (`roundtable.aids.asking.ask_again`, with ``action=None`` when asking);
    with ``overrule``, replace it at once by what is settled (`Settled.action`).

    Args:
        context: the kind's prompt context.
        view: the deciding player's view.
        request: the request answered.
        settled: what is settled (a game's `roundtable.aids.games.GameAids.settled`; None: nothing).
        action: the answer read (None or ``{}``: nothing to check).
        mode: the seat's ``vote_check`` (``off``, ``knowledge``, ``record``).
        reviewed: this answer is already the second one.
        overrule: replace an answer against what is settled instead of asking again (the seat's ``overrule``).

    Returns:
        ``{}`` when the option is off, nothing is settled or read, or the answer is as settled (first answer);
        with ``overrule``, ``{"action": settled answer, "checks": [...: overruled]}``; otherwise as `ask_again`.
    """
    if mode == "off" or not action or settled is None or (mode == "knowledge" and settled.source == "record"):
        return {}
    if not settled.against(action):
        return {}
    replaced = settled.action(request, action) if overrule else None
    if replaced is not None:
        return {"action": replaced, "checks": [f"{settled.finding(request, action)}: overruled"]}
    return ask_again([settled.finding(request, action)], lambda: settled.note(context, request, action, view.player),
                     reviewed, action=None)
