"""The immutable state of one Avalon game and its event records.

An `AvalonState` is never changed in place: every transition in `rules`
returns a new state whose ``events`` tuple extends the old one. Events are plain
JSON-ready dicts with a ``type`` and a ``to`` field: ``None`` for a public
event, a list of player numbers for a private one, ``[]`` for a record that no
player sees (kept for analysis, e.g. model decisions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from roundtable.games.avalon.config import AvalonConfig
from roundtable.games.avalon.roles import Role, Side
from roundtable.games.logged_state import LoggedState
from roundtable.games.protocol import Event


class Phase(str, Enum):
    """Phases of a round, as drawn by the game graph."""

    REVEAL = "reveal"
    PROPOSAL = "proposal"
    DISCUSSION = "discussion"
    VOTE = "vote_team"
    QUEST = "quest"
    ASSASSINATION = "assassination"
    OVER = "game_over"


@dataclass(frozen=True)
class AvalonState(LoggedState):
    """Ground truth of a game at one moment.

    Attributes:
        config: role set and rule variants.
        seed: the game seed; all randomness derives from it.
        roles: ``roles[p - 1]`` is the role of player ``p`` (players are 1-based).
        phase: the phase waiting for decisions.
        round: current quest number, 1..5. attempt: proposal number in the round, 1..5.
        leader: current leader. team: current proposed team (empty before a proposal).
        proposal_final: the current proposal is the leader's final one (``leader_first_and_last``).
        speakers: players still to speak in the current discussion, in order.
        quest_results: ``True``/``False`` per finished quest (success/fail).
        assassination_used: the Assassin has taken its one shot.
        winner, end_reason: set when the game is over.
        events: the append-only event log.
    """

    config: AvalonConfig
    seed: int
    roles: tuple[Role, ...]
    phase: Phase
    round: int = 1
    attempt: int = 1
    leader: int = 1
    team: tuple[int, ...] = ()
    proposal_final: bool = False
    speakers: tuple[int, ...] = ()
    quest_results: tuple[bool, ...] = ()
    assassination_used: bool = False
    winner: Side | None = None
    end_reason: str | None = None
    events: tuple[Event, ...] = field(default=(), repr=False)

    def side_of(self, player: int) -> Side:
        """Side of ``player`` (1-based)."""
        return self.roles[player - 1].side

    def players_with(self, *roles: Role) -> tuple[int, ...]:
        """Players holding any of ``roles``, in seat order."""
        return tuple(p for p in self.players if self.role_of(p) in roles)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    # --- serialization: `snapshot` (`LoggedState`) leaves out the log, which the game graph keeps in its own
    # channel ---

    @classmethod
    def restore(cls, snapshot: dict[str, Any], events: list[Event] | tuple[Event, ...]) -> AvalonState:
        """Inverse of `snapshot`, with the event log given separately."""
        data = dict(snapshot)
        winner = data.pop("winner")
        return cls(
            config=AvalonConfig.from_dict(data.pop("config")),
            roles=tuple(Role(r) for r in data.pop("roles")),
            phase=Phase(data.pop("phase")),
            winner=Side(winner) if winner else None,
            team=tuple(data.pop("team")),
            speakers=tuple(data.pop("speakers")),
            quest_results=tuple(data.pop("quest_results")),
            events=tuple(events),
            **data,
        )
