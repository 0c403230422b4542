"""Werewolf's part of the small-model aids (`roundtable.aids.games.GameAids`, the ``roundtable.aids`` entry point
``werewolf``; docs/agents/aids.md#each-games-aids). What a Werewolf player's own knowledge settles: its fellow
werewolves, the Seer's own checks, the dead
(docs/agents/checks.md#werewolf-knowledge-note).

No model call. A Werewolf view shows only the log entries not delivered before, so the Seer's results are kept
in the agent's memory as they arrive (`record_checks`: ``{"3": true}``, JSON keys). From them:

- `knowledge_note`: the Host's lines beside the request that restate these facts (template
  ``werewolf/knowledge_note``), as Avalon's team lines do (`roundtable.tables.avalon.AvalonTable.team_knowledge`);
- `werewolf_settled`: what those facts settle (`roundtable.aids.settled.Settled`, source ``knowledge``
  unless said):
  a werewolf never votes out itself or a fellow werewolf (``teammate``), and its night kill vote names a
  village player, never a werewolf and never nobody (``kill_village``: a pass kills no one, and the werewolves win
  only by killing; an overrule takes the rule bot's pick, `roundtable.games.werewolf.bots.naive.kill_target`), and at a
  ``werewolf_night=sequential`` night joins the living player a teammate already voted to kill, since Xu et al.'s
  rule kills nobody without a consensus (``teammate_target``, source ``rules``); the Seer votes
  for a player it found to be a werewolf when one is on the ballot (``checked_werewolf``), never for one it
  found good (``checked_good``), and checks someone it has not checked (``checked_before``); the Witch poisons
  nobody on the first night, before anyone has spoken: she knows nothing of anyone, and her one poison would
  kill a village player twice as often as a werewolf in ``xu7`` (``first_night``);
- `stated_vote`: a day vote the player's own statement of that day settles (``own_statement``, source
  ``words``): the player it said it would vote out, when its knowledge settles nothing, or only rules out
  players the statement does not name (`werewolf_day_settled`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from roundtable.aids.games import GameAids
from roundtable.aids.holders import hidden_holders
from roundtable.aids.settled import Settled
from roundtable.detectors.exposure import werewolf_exposes
from roundtable.detectors.words import named_vote_target
from roundtable.games.protocol import PlayerView, Request
from roundtable.games.werewolf import WerewolfView
from roundtable.games.werewolf.bots import naive
from roundtable.prompts.rendering import PromptContext
from roundtable.tables.protocol import GameTable

NOTE = "werewolf/knowledge_note"
"""The template of the note."""


def record_checks(known: Mapping[str, bool], events: Iterable[Mapping[str, Any]], me: int) -> dict[str, bool]:
    """``known`` with the player's own Seer results among ``events`` added (``seer_result`` entries by ``me``).

    Returns:
        ``{str(player): True if a werewolf}``, JSON-ready.
    """
    out = dict(known)
    for event in events:
        if event.get("type") == "seer_result" and event.get("by") == me:
            out[str(event["target"])] = bool(event.get("werewolf"))
    return out


def teammates(view: PlayerView) -> list[int]:
    """The fellow werewolves the player learned at the start (``[]`` for any other role)."""
    return [int(k["player"]) for k in view.knowledge if k.get("is") == "werewolf" and k.get("player") != view.player]


def werewolf_settled(view: PlayerView, request: Request, checked: Mapping[int, bool]) -> Settled | None:
    """What the Werewolf player's own knowledge settles about a ``pick`` request, or None (any other game,
    request or role; see the module docstring)."""
    if not isinstance(view, WerewolfView) or request.answer != "pick":
        return None
    candidates = list(request.candidates)
    if view.role == "werewolf" and request.kind in ("eliminate", "kill"):
        side = tuple(p for p in candidates if p == view.player or p in teammates(view))
        target = teammate_target(view, request)
        if target is not None:
            return Settled("rules", "teammate_target", avoid=side, prefer=(target,), players=(target,))
        victims = [p for p in candidates if p not in side]
        if request.kind == "kill" and victims:
            first = naive.kill_target(view, request)  # the rule bot's pick comes first, for an overrule
            ordered = (first, *(p for p in victims if p != first)) if first in victims else tuple(victims)
            return Settled("knowledge", "kill_village", avoid=side, prefer=ordered, players=side)
        return Settled("knowledge", "teammate", avoid=side, players=side) if side else None
    if view.role == "witch" and request.kind == "poison" and request.round == 1 and candidates:
        return Settled("knowledge", "first_night", avoid=tuple(candidates), players=())
    if view.role == "seer" and request.kind == "eliminate":
        wolves = tuple(p for p in candidates if checked.get(p) is True)
        if wolves:
            return Settled("knowledge", "checked_werewolf", prefer=wolves, players=wolves)
        good = tuple(p for p in candidates if checked.get(p) is False)
        return Settled("knowledge", "checked_good", avoid=good, players=good) if good else None
    if view.role == "seer" and request.kind == "see":
        done = tuple(p for p in candidates if p in checked)
        if done and len(done) < len(candidates):
            return Settled("knowledge", "checked_before", avoid=done, players=done)
    return None


def ruled_out_votes(view: PlayerView, checked: Mapping[int, bool]) -> dict[int, str]:
    """The players the Werewolf player's own knowledge rules out as the one it votes out by day, each with why:
    ``self`` (no one votes for itself), ``dead`` (a dead player is on no ballot), ``teammate`` (a werewolf's
    fellow werewolf) and ``checked_good`` (a player the Seer's ``checked`` found good), as `werewolf_settled`
    and the ballot rule them out of an ``eliminate`` vote; ``{}`` outside Werewolf. For the words check of a day
    statement (`vote_against_knowledge`)."""
    if not isinstance(view, WerewolfView):
        return {}
    out = {player: "dead" for player in view.dead}
    out |= {player: "checked_good" for player, wolf in checked.items() if view.role == "seer" and not wolf}
    out |= {player: "teammate" for player in (teammates(view) if view.role == "werewolf" else ())}
    return out | {view.player: "self"}


def teammate_target(view: PlayerView, request: Request) -> int | None:
    """The living village player a fellow werewolf voted to kill earlier this night, or None (no such vote, a
    simultaneous night, or teammates who disagree). Read from the request's ``details["votes"]``
    (``[{"player", "target"}]``, `roundtable.games.werewolf.rules.pending`); only a night kill vote that follows
    another's (``werewolf_night=sequential``, docs/games/werewolf.md#werewolf_night)."""
    if request.kind != "kill":
        return None
    mates = set(teammates(view)) | {view.player}
    named = {v.get("target") for v in request.details.get("votes") or () if v.get("player") in mates}
    named.discard(None)
    if len(named) != 1:
        return None
    (target,) = named
    return target if target in request.candidates and target not in mates else None


def stated_vote(view: PlayerView, request: Request, statement: str | None) -> Settled | None:
    """The day vote the player's own statement of that day settles, or None: the player it said it would vote
    out ("I vote for Player 5", `roundtable.detectors.words.named_vote_target`), when that player is on the
    ballot and not the speaker. Words and action must agree (docs/measures.md#play-quality); what the player's
    knowledge settles (`werewolf_settled`) comes first.

    Args:
        view: the voter's view.
        request: the request answered (only an ``eliminate`` pick is settled).
        statement: the player's own words at the table that day (None: it said nothing).
    """
    if not isinstance(view, WerewolfView) or request.kind != "eliminate" or not statement:
        return None
    target = named_vote_target(statement)
    if target is None or target == view.player or target not in request.candidates:
        return None
    return Settled("words", "own_statement", prefer=(target,), players=(target,))


def knowledge_note(context: PromptContext, view: PlayerView, request: Request, checked: Mapping[int, bool]) -> str:
    """The lines that restate what the player's own knowledge settles, for the request in hand (template `NOTE`,
    through the kind's context); ``""`` outside Werewolf or when the player knows nothing that matters."""
    if not isinstance(view, WerewolfView):
        return ""
    return context.render(NOTE, me=view.player, role=view.role, kind=request.kind, answer=request.answer,
                          round=request.round,
                          teammates=teammates(view),
                          checked=[{"player": p, "werewolf": wolf} for p, wolf in sorted(checked.items())],
                          dead=list(view.dead),
                          teammate_target=teammate_target(view, request) if view.role == "werewolf" else None
                          ).strip()


def werewolf_day_settled(view: PlayerView, request: Request, checked: Mapping[int, bool], statement: str | None,
                         action: Mapping[str, Any] | None) -> Settled | None:
    """What settles a Werewolf decision, the player's knowledge first (`werewolf_settled`), then its own statement
    of that day (`stated_vote`), or None.

    The knowledge wins when it names players to choose, when ``action`` breaks it, or when the statement names a
    player it rules out (a werewolf who said it would vote out its teammate); otherwise, where the knowledge only
    rules players out (the Seer's checks found them good) and the statement names none of them, the statement
    settles the vote: a Seer who checked one player good and said "I will vote to eliminate Player 3" votes so
    (``pq-cga-xu7-v6-s1``: he passed, unchecked).

    Args:
        view: the player's view.
        request: the request answered.
        checked: the Seer's checks (player: werewolf).
        statement: the player's own words at the table that day (None: it said nothing).
        action: the answer in hand (``{"players"}`` or ``{"passed"}``; None: none yet).
    """
    known = werewolf_settled(view, request, checked)
    stated = stated_vote(view, request, statement)
    if known is None or stated is None:
        return known or stated
    if known.prefer or known.against(action or {}) or set(stated.prefer) & set(known.avoid):
        return known
    return stated


def vote_against_knowledge(view: PlayerView, request: Request, words: str,
                           checked: Mapping[int, bool] | None = None) -> tuple[int, str] | None:
    """The player a Werewolf day statement says its speaker will vote out
    (`roundtable.detectors.words.named_vote_target`) and why its own knowledge rules that vote out
    (`ruled_out_votes`: ``self``, "I will vote to eliminate Player 4"
    said by Player 4, a vote the game never takes; ``dead``, a player on no ballot: ``pq-cga-xu7-v8-s1``'s
    werewolf said "I vote to eliminate Player 3 tonight" of a player voted out the day before, then passed;
    ``teammate``, a werewolf's fellow werewolf; ``checked_good``, a player the Seer's own check found good, its
    vote overruled from him: ``pq-cga-xu7-v7-s1``'s Seer said "I will vote to remove Player 2" of the Witch it
    had checked, then passed), or None. ``checked``: the Seer's checks (player: werewolf)."""
    if not isinstance(view, WerewolfView) or request.kind != "speak":
        return None
    target = named_vote_target(words)
    why = ruled_out_votes(view, checked or {}).get(target) if target is not None else None
    return (target, why) if target is not None and why is not None else None


def exposure(view: PlayerView, words: str, heard: Sequence[tuple[str, str]] = ()) -> str | None:
    """Why public ``words`` give a Werewolf speaker away (`roundtable.detectors.exposure.werewolf_exposes`), or
    None: a werewolf naming its side or intent (``"werewolf side"``), its own number (``"own number"``) or its
    teammate as "the other werewolf" (``"teammate implied"``); a Witch or Guard saying its night action aloud
    (``"night action"``), and any other village player stating who the Seer is (``"names seer"``: the werewolves
    hear it; `roundtable.aids.holders.hidden_holders`). Naming a player who claimed the Seer at the table in what
    the speaker ``heard`` gives nothing away."""
    if not isinstance(view, WerewolfView):
        return None
    mates = [int(k["player"]) for k in view.knowledge if k.get("is") == "werewolf"]
    why = werewolf_exposes(words, view.role, view.player, mates)
    if why is None and view.role not in ("werewolf", "seer") and hidden_holders(words, "seer", view.player, heard):
        return "names seer"
    return why


def settled(table: GameTable, checked: Mapping[int, bool], statement: str | None,
            action: Mapping[str, Any] | None) -> Settled | None:
    """`werewolf_day_settled` of the table's decision (`roundtable.aids.games.GameAids.settled`)."""
    return werewolf_day_settled(table.view, table.request, checked, statement, action)


AIDS = GameAids("werewolf", settled=settled, exposure=exposure, vote_out=vote_against_knowledge,
                knowledge_note=knowledge_note, remember=record_checks)
"""Werewolf's aids (the ``roundtable.aids`` entry point ``werewolf``)."""
