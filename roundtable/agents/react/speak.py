"""Discussion (Light et al. 2023, §3.3, *Discuss*): one sentence to the table when words are asked.

One call (module ``speak``, temperature 0.1): *Rules*, *Role*, *Summary*, the round's *Minutes* so far, the
Host's instruction and, when the turn also chose an action (a leader's team, the Assassin's target), that action,
so the sentence goes with it. With the aids off (template ``react/speak``, `paper_discussion`) the ask is
AvalonBench's: its leader's opening (Table 13), or one sentence on the leader's statement and the others' words
(Table 14); with them on, ours (``aids/react/speak``: the speaker named, in the first person). The reply is cleaned
(`roundtable.agents.common.decision.said_words`: lines posing as the Host or another player are dropped, named as a
fallback unless all came after the first sentence, which the cut drops anyway). AvalonBench's discussion prompt
asks for one sentence (``src/server/tasks/avalon/prompts.py``); with the aids on the reply is also cut to its
first sentence (`roundtable.detectors.words.first_sentence`; a cut is named in ``checks``). The call is
sampled with the DRY sampler where the seat's ``dry`` is on.

The sentence is then checked (`roundtable.aids.review`, docs/agents/checks.md#words-checks): a near copy
of the talk in the minutes or of the player's own summary and reasoning, a team other than the one chosen, words
that give it away. On a problem ``speak`` runs once more with the Host's note (sampled warmer after a near copy);
the second sentence is kept.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.decision import said_words
from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.react import memory as mem
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.detectors.words import first_sentence


def paper_discussion(turn: ReactTurn) -> dict[str, Any]:
    """The variables of AvalonBench's Discuss prompts (template ``react/speak``; Light et al. 2023, Tables 13 and
    14): ``leader`` (the speaker leads this round: Table 13), ``statement`` and ``discussions`` (the leader's last
    words this round and the other players' words since: Table 14), and ``host``, the Host's instruction where
    neither applies (the talk before a proposal, the evil players' council, the Assassin's words, and every request of
    a game without a leader: `GameTable.paper_game`)."""
    request, view = turn.request, turn.view
    leader = turn.paper.leader if turn.paper is not None else None  # a game with no leader: no leader's statement
    leads = request.kind == "propose_team" or (
        request.kind == "speak" and view.player == leader and not request.subject and request.audience is None)
    lines = mem.minutes(turn.memory, view.round)
    prefix = f"Player {leader}: "
    said = [i for i, line in enumerate(lines) if line.startswith(prefix)]
    statement = lines[said[-1]][len(prefix):].rstrip(".") if said else ""  # the prompt puts its own full stop
    discussions = " ".join(line for line in lines[said[-1] + 1:] if line.startswith("Player ")) if said else ""
    about_team = request.kind == "speak" and bool(request.subject) and request.audience is None
    host = "" if leads or (about_team and statement) else turn.table.instruction()
    return {"leader": leads, "statement": statement, "leader_player": leader, "discussions": discussions,
            "host": host}


def make_speak(models: ModelProvider):
    """The ``speak`` node over ``models``: one call."""

    def speak(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        opts = turn.options
        words = opts.response_words
        action = state.get("action")
        if opts.aided:
            variables: dict[str, Any] = dict(instruction=turn.table.instruction(), me=turn.view.player, words=words)
        else:
            variables = paper_discussion(turn)
        prompt = turn.context.render(
            turn.prompt("speak"), context=turn.context_text(), decided=turn.table.decided(action),
            speech=turn.table.speech(), note=state.get("recheck") or "", **variables)
        model = turn.writer(models, words, speaking=True, again=bool(state.get("copied")))
        raw, usage = call_text(model, turn.messages(prompt), "speak")
        clean, reason = said_words(raw, turn.view.player, words, opts.aided)
        # AvalonBench's prompt asks for one sentence; cutting the reply to it is an aid (docs/agents/aids.md)
        said, sentences = first_sentence(clean) if opts.aided else (clean, 1)
        if reason and said_words(first_sentence(raw)[0], turn.view.player, words, opts.aided) == (said, None):
            reason = None  # what posed as the Host came after the sentence said, which the cut drops anyway
        update: dict[str, Any] = {"utterance": said, "raw": [raw], "usage": [usage], "recheck": None, "copied": False}
        if reason:
            update["problems"] = [reason]
        if sentences > 1:
            update["checks"] = [f"speak: {sentences} sentences cut to the first"]
        if opts.checks_answers():
            update["unchecked"] = "speak"  # the aids step checks the sentence next (roundtable.agents.react.aids)
        return update

    return speak
