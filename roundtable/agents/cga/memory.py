"""The ``cga`` agent's memory: every message it saw, scored, and retrieval over it (Xu et al. 2023;
docs/agents/cga.md#retrieval).

One pool per agent, a JSON-ready dict the game keeps between decisions::

    {
      "game": "werewolf", "player": 3, "role": "seer", "side": "village",
      "seen": 41,                              # visible events already read
      "messages": [{"text": "Player 5: I am the seer.", "round": 2, "score": 3}, ...],
      "refreshed": "day 2",                    # CgaTurn.refresh_key of the last questions (per-round refresh)
      "questions": [...], "answers": [{"question", "answer"}], "reflection": "...", "suggestion": "...",
      "experience": [{"reflection", "response", "round"}],   # joins the experience pool after the game
      "checked": {"5": false},                 # a Werewolf Seer's own results (the aids' record_checks)
      "pool": "name", "learn": true,
    }

The first message is the agent's own role and knowledge (score 5). Retrieval
(`MemoryIndex`) embeds the messages into a Chroma collection of the process's
in-memory client (`roundtable.tools.vectors.memory_client`), keyed by the
game's thread, the seed and the player: the pool is the truth (it is
checkpointed with the game), the collection its index, filled from the pool
with whatever it lacks, so a resumed or forked game retrieves exactly from
the messages its pool holds.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from typing import Any

from roundtable.agents.cga.informativeness import OWN_ROLE, informativeness, role_pattern
from roundtable.agents.common.memory import Narrate, window
from roundtable.aids.interface import record_checks
from roundtable.games.protocol import PlayerView
from roundtable.tools.embeddings import Embedder
from roundtable.tools.vectors import collection, memory_client


def ingest(pool: dict[str, Any], view: PlayerView, narrate: Narrate, intro: str,
           checks: bool = False) -> dict[str, Any] | None:
    """The pool with the view's events not read before added as scored messages (and, with ``checks``, a Werewolf
    Seer's own results under ``checked``, which only the aids read), or ``None`` when nothing is new.

    Args:
        pool: the agent's pool (``{}`` at first: then ``intro`` is its first message, score 5).
        view: the player's view (``first_event``: index of its first event in the player's visible log).
        narrate: an event as one line, or ``None`` for an event the agent's prompts say nothing of.
        intro: the agent's role and knowledge, in words.
        checks: keep the Seer's results for the aids (the seat's aids check answers or note its knowledge).
    """
    seen = int(pool.get("seen") or 0)
    read = view.first_event + len(view.events)
    fresh = [e for i, e in enumerate(view.events, start=view.first_event) if i >= seen]
    if pool and not fresh:
        return None
    out = dict(pool)
    messages = list(pool.get("messages") or [])
    if not messages:
        messages.append({"text": intro, "round": view.round, "score": OWN_ROLE})
        out.update(game=view.game, player=view.player, role=view.role, side=view.side)
    roles = role_pattern(view.role_set)
    for event in fresh:
        text = narrate(event)
        if not text:
            continue
        speaker = event.get("speaker")
        if event.get("type") == "utterance" and speaker is not None:
            text = f"Player {speaker}{' (you)' if speaker == view.player else ''}: {text}"
        round_ = int(event.get("round") or event.get("day") or view.round)
        messages.append({"text": " ".join(text.split()), "round": round_,
                         "score": informativeness(text, event.get("type"), roles)})
    out["messages"] = messages
    out["seen"] = max(seen, read)
    checked = record_checks(view, pool.get("checked") or {}, fresh) if checks else None
    if checked:
        out["checked"] = checked
    return out


def freshness(pool: dict[str, Any], k: int, step: int = 1) -> list[str]:
    """The last ``k`` messages (Xu et al.: K = 15), oldest first; with ``step`` above 1, the oldest leave ``step``
    at a time, so between ``k`` and ``k + step - 1`` are shown (`roundtable.agents.common.memory.window`)."""
    return [m["text"] for m in window(pool.get("messages") or [], k, step)]


def informative(pool: dict[str, Any], k: int, n: int, step: int = 1) -> list[str]:
    """The ``n`` highest-scored messages older than the recent ones (`freshness` with the same ``k`` and ``step``),
    in game order (ties: the newer first)."""
    messages = pool.get("messages") or []
    older = list(enumerate(messages[:len(messages) - len(window(messages, k, step))]))
    best = sorted(older, key=lambda item: (-int(item[1]["score"]), -item[0]))[:n]
    return [m["text"] for _, m in sorted(best)]


def _message_id(index: int, text: str) -> str:
    return f"{index}-{hashlib.sha1(text.encode()).hexdigest()[:12]}"


class MemoryIndex:
    """Embedding retrieval over one agent's messages (Chroma, cosine).

    Args:
        key: what names the agent's memory: game thread, seed and player.
        embedder: `roundtable.tools.embeddings.Embedder`.
    """

    def __init__(self, key: str, embedder: Embedder):
        self.embedder = embedder
        digest = hashlib.sha1(f"{embedder.name}|{key}".encode()).hexdigest()[:40]
        self.collection = collection(memory_client(), f"cga-memory-{digest}")

    def sync(self, messages: Sequence[dict[str, Any]]) -> None:
        """Add the messages the collection lacks (ids: position and a hash of the text)."""
        ids = [_message_id(i, m["text"]) for i, m in enumerate(messages)]
        have = set(self.collection.get(ids=ids, include=[])["ids"]) if ids else set()
        missing = [(i, m, mid) for (i, m), mid in zip(enumerate(messages), ids, strict=True) if mid not in have]
        if missing:
            self.collection.upsert(ids=[mid for _, _, mid in missing],
                                   documents=[m["text"] for _, m, _ in missing],
                                   embeddings=self.embedder.embed([m["text"] for _, m, _ in missing]),
                                   metadatas=[{"i": i} for i, _, _ in missing])

    def retrieve(self, messages: Sequence[dict[str, Any]], questions: Sequence[str], t: int
                 ) -> tuple[list[list[str]], list[float]]:
        """The top ``t`` messages for each question by embedding similarity (Xu et al.: T = 5).

        Returns:
            ``(per question the messages, most similar first; per question the retrieval latency in seconds)``;
            a question's latency includes its share of embedding the messages not indexed before.
        """
        if not questions or not messages:
            return [[] for _ in questions], [0.0 for _ in questions]
        start = time.perf_counter()
        self.sync(messages)
        sync_share = (time.perf_counter() - start) / len(questions)
        current = {_message_id(i, m["text"]) for i, m in enumerate(messages)}
        found: list[list[str]] = []
        seconds: list[float] = []
        for question in questions:
            began = time.perf_counter()
            result = self.collection.query(query_embeddings=self.embedder.embed([question]),
                                           n_results=min(len(messages), 2 * t),
                                           where={"i": {"$lt": len(messages)}}, include=["documents"])
            pairs = zip(result["ids"][0], result["documents"][0], strict=True)
            found.append([doc for mid, doc in pairs if mid in current][:t])
            seconds.append(round(time.perf_counter() - began + sync_share, 4))
        return found, seconds
