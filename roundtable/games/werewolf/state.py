"""The immutable state of one Werewolf game.

A `WerewolfState` is never changed in place: every transition in `rules`
returns a new state whose ``events`` extend the old ones. Events are JSON-ready
dicts with ``type`` and ``to`` (``None``: public; a list of players: private
to them; ``[]``: a record no player sees, kept for analysis).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from roundtable.games.logged_state import LoggedState
from roundtable.games.protocol import Event
from roundtable.games.werewolf.config import WerewolfConfig
from roundtable.games.werewolf.roles import Role, Side


class Phase(str, Enum):
    """The phases of a day (a night and the daytime after it), in play order, as drawn by the game graph."""

    WEREWOLVES = "werewolves"
    GUARD = "guard"
    WITCH = "witch"
    SEER = "seer"
    DAWN = "dawn"
    DAY_TALK = "day_talk"
    DAY_VOTE = "day_vote"
    LAST_WORDS = "last_words"
    OVER = "game_over"


@dataclass(frozen=True)
class WerewolfState(LoggedState):
    """Ground truth of a Werewolf game at one moment.

    Attributes:
        config: role set and rule variants. seed: the game seed (all randomness derives from it).
        roles: ``roles[p - 1]`` is the role of player ``p`` (1-based).
        phase: the phase waiting for decisions. day: the day number, 1.. (night 1 opens day 1).
        dead: the dead players, in order of death.
        target: tonight's werewolf target (``None``: no kill). protected: whom the Guard protects tonight.
        kill_votes: under ``werewolf_night=sequential``, the kill votes cast so far tonight, in order,
            ``((werewolf, target or None), ...)`` (empty once the vote is over, and under ``simultaneous``).
        last_protected: whom the Guard protected last night (not allowed again tonight).
        saved: the Witch used the antidote tonight. poisoned: whom she poisoned tonight.
        antidote, poison: the Witch still holds the potion.
        witch_step: in the witch phase, what she is asked now: ``save`` or ``poison``.
        speakers: players still to speak today, in order. eliminated: the player voted out today
            (asked for last words).
        winner, end_reason: set when the game is over (``winner`` ``None`` with reason ``max_days``: a draw).
        events: the append-only event log.
    """

    config: WerewolfConfig
    seed: int
    roles: tuple[Role, ...]
    phase: Phase
    day: int = 1
    dead: tuple[int, ...] = ()
    target: int | None = None
    kill_votes: tuple[tuple[int, int | None], ...] = ()
    protected: int | None = None
    last_protected: int | None = None
    saved: bool = False
    poisoned: int | None = None
    antidote: bool = True
    poison: bool = True
    witch_step: str | None = None
    speakers: tuple[int, ...] = ()
    eliminated: int | None = None
    winner: Side | None = None
    end_reason: str | None = None
    events: tuple[Event, ...] = field(default=(), repr=False)

    @property
    def alive(self) -> tuple[int, ...]:
        """The living players, in seat order."""
        return tuple(p for p in self.players if p not in self.dead)

    def living(self, role: Role) -> tuple[int, ...]:
        """The living players holding ``role``, in seat order."""
        return tuple(p for p in self.alive if self.role_of(p) is role)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    @classmethod
    def restore(cls, snapshot: dict[str, Any], events: list[Event] | tuple[Event, ...]) -> WerewolfState:
        """Inverse of `snapshot`, with the event log given separately."""
        data = dict(snapshot)
        winner = data.pop("winner")
        return cls(
            config=WerewolfConfig.from_dict(data.pop("config")),
            roles=tuple(Role(r) for r in data.pop("roles")),
            phase=Phase(data.pop("phase")),
            winner=Side(winner) if winner else None,
            dead=tuple(data.pop("dead")),
            speakers=tuple(data.pop("speakers")),
            kill_votes=tuple((int(p), t) for p, t in data.pop("kill_votes", ())),
            events=tuple(events),
            **data,
        )
