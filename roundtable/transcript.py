"""Readable transcript lines for a game's events.

Public events read as a moderator would announce them; private ones are marked
with who saw them (``[to 2]``) and hidden records (model decisions) are left
out unless asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.markup import escape


def _players(team: Iterable[int]) -> str:
    return ", ".join(str(p) for p in team)


def _describe(e: dict[str, Any]) -> str | None:
    t = e["type"]
    if t == "game_start":
        rules = ", ".join(f"{k}={v}" for k, v in e["rules"].items())
        return f"Avalon for {e['players']} players ({e['preset']}; roles: {', '.join(e['role_set'])}; {rules})"
    if t == "role":
        return f"Player {e['player']} is {e['role']} ({e['side']})"
    if t == "knowledge":
        if not e["knows"]:
            return f"Player {e['player']} learns nothing"
        seen = "; ".join(f"player {k['player']} is {k['is'].replace('_', ' ')}" for k in e["knows"])
        return f"Player {e['player']} learns: {seen}"
    if t == "round_start":
        return f"== Quest {e['round']}: team of {e['team_size']}, {e['fails_needed']} fail(s) needed to fail =="
    if t == "leader":
        return f"Proposal {e['attempt']}: Player {e['leader']} leads"
    if t == "proposal":
        final = " (final)" if e.get("final") else ""
        return f"Player {e['leader']} proposes team [{_players(e['team'])}]{final}"
    if t == "utterance":
        team = f" (suggests [{_players(e['team'])}])" if "team" in e and e.get("phase") != "proposal" else ""
        return f"Player {e['speaker']}: {e['text']}{team}"
    if t == "vote":
        return f"Player {e['player']} votes {'approve' if e['approve'] else 'reject'}"
    if t == "vote_result":
        verdict = "approved" if e["approved"] else "rejected"
        return f"Team [{_players(e['team'])}] {verdict} ({e['approvals']} approve, {e['rejections']} reject)"
    if t == "team_approved":
        return f"Team [{_players(e['team'])}] goes on the quest without a vote ({e['by'].replace('_', ' ')})"
    if t == "quest_card":
        return f"Player {e['player']} plays {'success' if e['success'] else 'fail'}"
    if t == "quest_result":
        verdict = "succeeds" if e["success"] else "fails"
        return f"Quest {e['round']} {verdict} with {e['fails']} fail card(s)"
    if t == "assassination_phase":
        return "The Assassin may now name Merlin" + (" (optional)" if e.get("optional") else "")
    if t == "assassination":
        if e["target"] is None:
            return f"The Assassin (player {e['assassin']}) passes"
        hit = "Merlin! Hit" if e["hit"] else "not Merlin. Miss"
        return f"The Assassin (player {e['assassin']}) names player {e['target']}: {hit}"
    if t == "game_over":
        roles = ", ".join(f"{p}={r}" for p, r in e["roles"].items())
        return f"Game over: {e['winner'].upper()} wins ({e['reason'].replace('_', ' ')}). Roles: {roles}"
    if t == "decision":
        note = f" FALLBACK: {e['fallback']}" if e.get("fallback") else ""
        return f"decision of player {e['player']} ({e['agent']}) for {e['request']}{note}"
    return None


def lines(events: Iterable[dict[str, Any]], *, hidden: bool = False, markup: bool = True) -> list[str]:
    """Transcript lines for ``events``.

    Args:
        events: log entries (dicts with ``type`` and ``to``).
        hidden: include analysis-only records (model decisions).
        markup: Rich markup (private lines dimmed) instead of plain text.

    Returns:
        One line per shown event.
    """
    out = []
    for e in events:
        to = e.get("to")
        if to == [] and not hidden:
            continue
        text = _describe(e)
        if text is None:
            continue
        if to is None:
            out.append(escape(text) if markup else text)
            continue
        label = "record" if to == [] else "to " + ",".join(str(p) for p in to)
        line = f"  [{label}] {text}"
        out.append(f"[dim]{escape(line)}[/dim]" if markup else line)
    return out
