"""What one Avalon player may know: `view(state, player)`.

This is the only way information leaves the ground truth for a player. It
keeps the public events and the player's own private events (its role, its
knowledge, its own votes and quest cards, talk addressed to it) and the public
status of the table; the role list, other players' cards and the records
kept for analysis never reach it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from roundtable.games.avalon.state import AvalonState
from roundtable.games.protocol import PlayerView, view_fields


class AvalonView(PlayerView):
    """Everything an Avalon player may know at one moment (`PlayerView` plus the table).

    Attributes:
        game: ``avalon``.
        knowledge: what it learned in the reveal, ``[{"player": q, "is": label}]``
            with label ``evil``, ``merlin_or_morgana`` or ``merlin``.
        round: quest number 1..5. attempt: proposal number 1..5 in the round.
        leader: the current leader. team: the team proposed now (empty before a proposal).
        quest_results: ``True``/``False`` per finished quest.
        quests: the public outcome of each finished quest,
            ``{"round", "team", "fails", "fails_needed", "success"}``.
        exposed_assassin: the Assassin's seat once a missed mid-game shot
            (``assassination=after_each_quest``) made it public, else None.
            Every player has it, whatever part of the log it is handed.
        said: the player's own last public words in this proposal's talk, said while ``team`` was the team
            proposed (``""``: none); a team vote that goes against the stance they state disagrees with them
            (docs/measures.md#play-quality). Every player has it, whatever part of the log it is handed.
    """

    game: Literal["avalon"] = "avalon"
    attempt: int
    leader: int
    team: tuple[int, ...]
    quest_results: tuple[bool, ...]
    quests: tuple[dict[str, Any], ...]
    exposed_assassin: int | None = None
    said: str = ""


def view(state: AvalonState, player: int) -> AvalonView:
    """The information set of ``player`` in ``state``.

    Args:
        state: the ground truth.
        player: a seat number, 1..N.

    Raises:
        ValueError: ``player`` is not a seat of this game.
    """
    return AvalonView(
        **view_fields(state.events, player, len(state.roles), [r.value for r in state.config.roles],
                      state.config.rules.to_dict()),
        phase=state.phase.value,
        round=state.round,
        attempt=state.attempt,
        leader=state.leader,
        team=state.team,
        quest_results=state.quest_results,
        quests=tuple(
            {k: e[k] for k in ("round", "team", "fails", "fails_needed", "success")}
            for e in state.events
            if e["type"] == "quest_result"
        ),
        exposed_assassin=next((e["assassin"] for e in state.events
                               if e["type"] == "assassination" and e.get("exposed")), None),
        said=said_on_team(state, player),
    )


def said_on_team(state: AvalonState, player: int) -> str:
    """``player``'s last public words in the current proposal's talk, said while the team proposed now
    (``state.team``) was on the table; ``""`` when none (before a proposal, or words on a team the leader then
    changed)."""
    start = next((i for i in range(len(state.events) - 1, -1, -1) if state.events[i]["type"] == "leader"), 0)
    on_table: list[int] | None = None
    said = ""
    for event in state.events[start:]:
        if event["type"] == "proposal":
            on_table = list(event["team"])
        elif (event["type"] == "utterance" and event.get("speaker") == player and event.get("to") is None
              and on_table is not None and set(on_table) == set(state.team) and (event.get("text") or "").strip()):
            said = event["text"]
    return said


def known_evil(view: AvalonView) -> set[int]:
    """The other players ``view``'s player knows to be evil: those its reveal showed as evil, and the Assassin
    once a missed mid-game shot exposed him to the whole table (`AvalonView.exposed_assassin`)."""
    known = {int(k["player"]) for k in view.knowledge if k.get("is") == "evil"}
    if view.exposed_assassin is not None and view.exposed_assassin != view.player:
        known.add(view.exposed_assassin)
    return known


def belief_probe(state: AvalonState) -> dict[int, AvalonView]:
    """Who states a belief in the other players' sides once the game is over, and on which view.

    AvalonBench (Light et al. 2023) asks its good players for ``get_believed_sides``
    after the game loop, once the last quest and any assassination are played
    (``src/server/tasks/avalon/task.py`` of github.com/jonathanmli/Avalon-LLM,
    "reflect sides of each player at the end of the game"), and its players are
    told neither the assassination's target nor the roles before that. So
    each good player (docs/measures.md#deduction-accuracy: deduction accuracy is a good player's) is
    probed on its view of the log up to the end of play: without the
    assassination that ended the game and without ``game_over``, which reveals
    every role. A mid-game miss that let play go on (``after_each_quest``) was
    public during play, so the view keeps it.

    Returns:
        ``{player: view}`` for every good player, in seat order; ``{}`` while the game is not over.
    """
    if not state.is_over:
        return {}
    end = next((i for i, e in enumerate(state.events) if e["type"] == "game_over"), len(state.events))
    if end > 0 and state.events[end - 1]["type"] == "assassination":  # the shot that ended the game
        end -= 1
    played = replace(state, events=state.events[:end])
    return {p: view(played, p) for p in state.players if state.side_of(p).value == "good"}
