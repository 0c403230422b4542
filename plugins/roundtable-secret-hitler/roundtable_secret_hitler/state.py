"""The immutable state of one Secret Hitler game (docs/games/secret-hitler.md).

A `SecretHitlerState` is never changed in place: every transition in `roundtable_secret_hitler.rules` returns a new
state whose ``events`` extend the old ones. Events are JSON-ready dicts with ``type`` and ``to`` (``None``: public;
a list of players: private to them; ``[]``: a record no player sees, kept for analysis). Everything the game routes
on (phase, who is asked, the cards in hand) is a field, never read back from the log, so a state restored from its
snapshot alone waits for the same requests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from roundtable.games.logged_state import LoggedState
from roundtable.games.protocol import Event
from roundtable_secret_hitler.config import Discussion, Rules, SecretHitlerConfig
from roundtable_secret_hitler.powers import VETO_FROM
from roundtable_secret_hitler.roles import Role, Side


class Phase(str, Enum):
    """The phases of a round, in play order, as drawn by the game graph (docs/games/secret-hitler.md#a-round)."""

    NOMINATION = "nomination"
    DISCUSSION = "discussion"
    ELECTION = "election"
    PRESIDENT_DISCARD = "president_discard"
    VETO = "veto"
    VETO_CONSENT = "veto_consent"
    CHANCELLOR_ENACT = "chancellor_enact"
    INVESTIGATE = "investigate"
    SPECIAL_ELECTION = "special_election"
    EXECUTION = "execution"
    OVER = "game_over"


CHANCELLOR_PHASES = (Phase.VETO, Phase.VETO_CONSENT, Phase.CHANCELLOR_ENACT)
"""The phases in which the Chancellor holds the two policies the President passed."""


@dataclass(frozen=True)
class SecretHitlerState(LoggedState):
    """Ground truth of a game at one moment.

    Attributes:
        config: player count and rule variants. seed: the game seed (every shuffle derives from it).
        roles: ``roles[p - 1]`` is the role of player ``p`` (1-based).
        phase: the phase waiting for decisions. round: the round number, 1.. (one presidency each).
        president: the President (candidate) of the round. rotation: the seat the presidency passes on from
            clockwise (the last President in the regular order; a special election leaves it as it is).
        nominee: the Chancellor candidate, then the Chancellor (``None`` before the nomination).
        special_next: the next President chosen by a special election, else ``None``.
        last_president, last_chancellor: the last elected government (term limits; ``None`` after chaos).
        tracker: failed governments in a row (the election tracker), 0..2.
        liberal, fascist: policies enacted on each track.
        deck: the policy deck, top first. discard: the discard pile. shuffles: shuffles so far (0: the deal).
        hand: the policies the President (3) or the Chancellor (2) holds now; ``()`` otherwise.
        dead: the executed players, in order. investigated: the players investigated so far, in order.
        speakers: the players still to speak in the discussion, in order.
        winner, end_reason: set when the game is over.
        events: the append-only event log.
    """

    config: SecretHitlerConfig
    seed: int
    roles: tuple[Role, ...]
    phase: Phase
    round: int = 1
    president: int = 1
    rotation: int = 1
    nominee: int | None = None
    special_next: int | None = None
    last_president: int | None = None
    last_chancellor: int | None = None
    tracker: int = 0
    liberal: int = 0
    fascist: int = 0
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    shuffles: int = 0
    hand: tuple[str, ...] = ()
    dead: tuple[int, ...] = ()
    investigated: tuple[int, ...] = ()
    speakers: tuple[int, ...] = ()
    winner: Side | None = None
    end_reason: str | None = None
    events: tuple[Event, ...] = field(default=(), repr=False)

    @property
    def alive(self) -> tuple[int, ...]:
        """The living players, in seat order."""
        return tuple(p for p in self.players if p not in self.dead)

    @property
    def hitler(self) -> int:
        """Hitler's seat."""
        return self.roles.index(Role.HITLER) + 1

    @property
    def veto_unlocked(self) -> bool:
        """Whether legislative sessions may veto (five Fascist policies enacted)."""
        return self.fascist >= VETO_FROM

    @property
    def talks(self) -> bool:
        """Whether the table talks after each nomination (``discussion=after_nomination``)."""
        return self.config.rules.discussion is Discussion.AFTER_NOMINATION

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def holder(self) -> int | None:
        """The player holding ``hand`` now: the President while discarding, the Chancellor after."""
        if self.phase is Phase.PRESIDENT_DISCARD:
            return self.president
        return self.nominee if self.phase in CHANCELLOR_PHASES else None

    @classmethod
    def restore(cls, snapshot: dict[str, Any], events: list[Event] | tuple[Event, ...]) -> SecretHitlerState:
        """Inverse of `snapshot`, with the event log given separately."""
        data = dict(snapshot)
        config = data.pop("config")
        winner = data.pop("winner")
        tuples: dict[str, Any] = {k: tuple(data.pop(k)) for k in ("deck", "discard", "hand", "dead", "investigated",
                                                                   "speakers")}
        return cls(
            config=SecretHitlerConfig(players=config["players"], rules=Rules().with_overrides(
                [f"{k}={v}" for k, v in config["rules"].items()])),
            roles=tuple(Role(r) for r in data.pop("roles")),
            phase=Phase(data.pop("phase")),
            winner=Side(winner) if winner else None,
            **tuples,
            events=tuple(events),
            **data,
        )
