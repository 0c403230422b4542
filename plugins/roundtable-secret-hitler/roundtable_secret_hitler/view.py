"""What one Secret Hitler player may know: `view(state, player)` (docs/games/secret-hitler.md#what-a-player-sees).

The only way information leaves the ground truth for a player: the public events and the table's public status
(the tracks, the tracker, the government, who is dead, investigated or term-limited, the deck's and the discard
pile's sizes, the elected governments and what each enacted), and the player's own private facts: its role, what
it saw in the reveal, the policies in its hand (the President's three, the Chancellor's two), the two it passed
as President, its investigations' results and its peeks. Other players' roles, hands, discards and results, the
deck's order and the seed never reach it.
"""

from __future__ import annotations

from typing import Any, Literal

from roundtable.games.protocol import PlayerView, can_see, view_fields
from roundtable_secret_hitler.requests import term_limited
from roundtable_secret_hitler.state import CHANCELLOR_PHASES, SecretHitlerState


class SecretHitlerView(PlayerView):
    """Everything a Secret Hitler player may know at one moment (`PlayerView` plus the table).

    Attributes:
        game: ``secret_hitler``. round: the round (one presidency each).
        knowledge: what it saw in the reveal, ``[{"player": q, "is": "fascist" | "hitler"}]``.
        president: the President (candidate). chancellor: the Chancellor candidate or Chancellor (``None`` before
            the nomination).
        liberal_policies, fascist_policies: the policies on each track. tracker: the election tracker, 0..2.
        deck, discard: how many policies the deck and the discard pile hold.
        alive, dead: the living players in seat order; the executed, in order.
        term_limited: the living players barred from the chancellorship this round.
        investigated: the players investigated so far (by anyone), in order.
        veto: whether the veto is unlocked (five Fascist policies).
        governments: every elected government, ``{"round", "president", "chancellor", "policy"}`` with
            ``policy`` ``liberal``, ``fascist`` or ``vetoed`` (``None`` while it legislates).
        hand: the policies the player holds now (as President, three; as Chancellor, two), else ``[]``.
        passed: as President, the two policies it passed to the Chancellor in this session, else ``[]``.
        investigations: what its own investigations found, ``{"player", "party"}``, in order.
    """

    game: Literal["secret_hitler"] = "secret_hitler"
    president: int
    chancellor: int | None = None
    liberal_policies: int = 0
    fascist_policies: int = 0
    tracker: int = 0
    deck: int = 0
    discard: int = 0
    alive: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    term_limited: tuple[int, ...] = ()
    investigated: tuple[int, ...] = ()
    veto: bool = False
    governments: tuple[dict[str, Any], ...] = ()
    hand: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()
    investigations: tuple[dict[str, Any], ...] = ()


def governments(events: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], ...]:
    """Every elected government and what it did, from the public log (see `SecretHitlerView.governments`)."""
    out: list[dict[str, Any]] = []
    for e in events:
        if e.get("to") is not None:
            continue
        if e["type"] == "election" and e["elected"]:
            out.append({"round": e["round"], "president": e["president"], "chancellor": e["chancellor"],
                        "policy": None})
        elif e["type"] == "enact" and out:
            out[-1]["policy"] = e["policy"]
        elif e["type"] == "veto" and e["agreed"] and out:
            out[-1]["policy"] = "vetoed"
    return tuple(out)


def view(state: SecretHitlerState, player: int) -> SecretHitlerView:
    """The information set of ``player`` in ``state``.

    Raises:
        ValueError: ``player`` is not a seat of this game.
    """
    fields = view_fields(state.events, player, len(state.roles), [r.value for r in state.config.roles],
                         state.config.rules.to_dict())
    holds = state.holder() == player
    passed = state.phase in CHANCELLOR_PHASES and player == state.president
    return SecretHitlerView(
        **fields,
        phase=state.phase.value,
        round=state.round,
        president=state.president,
        chancellor=state.nominee,
        liberal_policies=state.liberal,
        fascist_policies=state.fascist,
        tracker=state.tracker,
        deck=len(state.deck),
        discard=len(state.discard),
        alive=state.alive,
        dead=state.dead,
        term_limited=term_limited(state) if not state.is_over else (),
        investigated=state.investigated,
        veto=state.veto_unlocked,
        governments=governments(state.events),
        hand=state.hand if holds else (),
        passed=state.hand if passed else (),
        investigations=tuple({"player": e["target"], "party": e["party"]} for e in state.events
                             if e["type"] == "investigation" and e["player"] == player and can_see(e, player)),
    )
