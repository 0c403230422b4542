"""The experience pool (Xu et al. 2023; docs/agents/cga.md#experience-pool; issue 12 item 4): learning across games
without training.

After each game, every ``cga`` agent's (reflection, response, score) tuples
join a named pool; the score is ``1000 - days`` for the winners and ``days``
for the losers (win, and win fast; lose slowly), days being Werewolf days or
Avalon rounds. At decision time the experiences whose reflection is similar
to the current one (cosine at least epsilon, 0.85 by default; at most 50) are
retrieved; the lowest-scored is the *bad* example and those scored around the
median the candidate *good* ones (`select`), and the model states one
suggestion (`roundtable.agents.cga.suggest`).

A pool is a Chroma collection in its own directory of the data directory,
``<data dir>/pools/<name>/`` (embedded persistent client), with ``pool.json``
saying whether it is frozen and which games it holds. Writes take the pool's
file lock (`roundtable.tools.vectors.write_lock`), so parallel games append
one at a time; a game's tuples have deterministic ids, so recording a game
twice adds nothing. A frozen pool takes no more tuples (evaluation).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundtable.agents.cga.options import CgaOptions
from roundtable.store import paths
from roundtable.tools.embeddings import Embedder, embedder
from roundtable.tools.vectors import collection, persistent_client, write_lock

WIN_BASE = 1000
GOOD_EXAMPLES = 5
COLLECTION = "experience"


def score(won: bool, days: int) -> int:
    """docs/agents/cga.md#experience-pool: ``1000 - days`` for a winner, ``days`` for a loser (a draw scores as a
    loss)."""
    return WIN_BASE - days if won else days


@dataclass(frozen=True)
class Experience:
    """One tuple of the pool: ``reflection`` (what the agent made of the situation), ``response`` (what it
    did and said), ``score``, ``similarity`` (cosine to the current reflection; 1.0 when not retrieved)."""

    reflection: str
    response: str
    score: int
    similarity: float = 1.0


def select(experiences: Sequence[Experience], good: int = GOOD_EXAMPLES) -> tuple[Experience, list[Experience]] | None:
    """The bad example and the candidate good ones (docs/agents/cga.md#experience-pool).

    The lowest-scored experience is the bad one; of the rest, the ``good``
    whose scores lie nearest the median score of the rest are the candidates
    (ties: the more similar first).

    Returns:
        ``(bad, good list)``, or ``None`` with fewer than two experiences (nothing to contrast).
    """
    if len(experiences) < 2:
        return None
    ranked = sorted(experiences, key=lambda e: (e.score, -e.similarity))
    bad, rest = ranked[0], ranked[1:]
    median = statistics.median(e.score for e in rest)
    near = sorted(rest, key=lambda e: (abs(e.score - median), -e.similarity))[:good]
    return bad, near


def pools_dir(create: bool = True) -> Path:
    """``<data dir>/pools`` (created when ``create``)."""
    path = (paths.home() if create else paths.home_path()) / "pools"
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


class ExperiencePool:
    """A named experience pool on disk.

    Args:
        name: letters, digits, ``_``, ``.``, ``-`` (a game id's form).
        embeddings: the embedder spec (``minilm`` or an endpoint); a pool is read with the embedder it was
            written with (recorded in ``pool.json``).

    Raises:
        GameIdError: a bad name.
    """

    def __init__(self, name: str, embeddings: str = "minilm"):
        self.name = paths.check_game_id(name)
        self.directory = paths.inside(pools_dir(create=False), self.name)
        self.embeddings = str(self.info().get("embeddings") or embeddings)

    # -------------------------------------------------------------- metadata

    def info(self) -> dict[str, Any]:
        """``pool.json``: ``{"frozen", "games": [ids], "embeddings"}`` (``{}`` for a pool not created yet)."""
        try:
            return json.loads((self.directory / "pool.json").read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}

    def _write_info(self, info: dict[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.directory / "pool.json.tmp"
        tmp.write_text(json.dumps(info, indent=1))
        tmp.replace(self.directory / "pool.json")

    @property
    def exists(self) -> bool:
        """Whether the pool has been created (its ``pool.json`` is there)."""
        return (self.directory / "pool.json").is_file()

    @property
    def frozen(self) -> bool:
        """Whether the pool is frozen (read, never written)."""
        return bool(self.info().get("frozen"))

    def freeze(self, frozen: bool = True) -> None:
        """Freeze the pool (it takes no more tuples) or thaw it."""
        with write_lock(self.directory):
            self._write_info(self.info() | {"frozen": frozen, "embeddings": self.embeddings})

    def _embedder(self) -> Embedder:
        return embedder(self.embeddings)

    def _collection(self) -> Any:
        return collection(persistent_client(str(self.directory / "chroma")), COLLECTION)

    def count(self) -> int:
        """How many tuples the pool holds (0 for a pool not created yet)."""
        return self._collection().count() if self.exists else 0

    # -------------------------------------------------------------- writing

    def add_game(self, game_id: str, tuples: Sequence[dict[str, Any]]) -> int:
        """Add one finished game's tuples ``{"reflection", "response", "score", "role", "side", "game",
        "player", "n"}`` (ids ``<game id>:p<player>:<n>``: adding a game twice changes nothing).

        Returns:
            How many tuples were written (0 when the pool is frozen or there is nothing to add).
        """
        with write_lock(self.directory):
            info = self.info()
            if info.get("frozen"):
                return 0
            rows = [t for t in tuples if str(t.get("reflection") or "").strip()]
            if rows:
                self._collection().upsert(
                    ids=[f"{game_id}:p{t['player']}:{t['n']}" for t in rows],
                    documents=[t["reflection"] for t in rows],
                    embeddings=self._embedder().embed([t["reflection"] for t in rows]),
                    metadatas=[{"response": t["response"], "score": int(t["score"]), "role": t["role"],
                                "side": t["side"], "game": t["game"], "game_id": game_id} for t in rows])
            games = list(info.get("games") or [])
            if game_id not in games:
                games.append(game_id)
            self._write_info(info | {"games": games, "frozen": False, "embeddings": self.embeddings})
            return len(rows)

    def clear(self) -> None:
        """Empty the pool (every tuple and game) and thaw it: a pool rebuilt from other games."""
        with write_lock(self.directory):
            if self.exists:
                collection = self._collection()
                ids = collection.get(include=[])["ids"]
                if ids:
                    collection.delete(ids=ids)
            self._write_info(self.info() | {"games": [], "frozen": False, "embeddings": self.embeddings})

    def copy_games(self, source: ExperiencePool, game_ids: Sequence[str]) -> int:
        """Add the tuples ``source`` holds from the games ``game_ids`` (their reflections, embeddings and
        metadata as written), in that order: a pool of the first N games of a growing one (Xu et al.'s pools of
        10 to 40 games, `roundtable.experiments.pools`). Adding a game twice changes nothing.

        Returns:
            How many tuples were copied (0 when this pool is frozen).

        Raises:
            ValueError: ``source`` was written with another embedder, or does not hold one of the games.
        """
        if source.embeddings != self.embeddings:
            raise ValueError(f"pool {source.name!r} was written with embeddings {source.embeddings!r}, "
                             f"not {self.embeddings!r}")
        missing = [g for g in game_ids if g not in (source.info().get("games") or [])]
        if missing:
            raise ValueError(f"pool {source.name!r} holds no game {', '.join(missing)}")
        copied = 0
        with write_lock(self.directory):
            info = self.info()
            if info.get("frozen"):
                return 0
            games = list(info.get("games") or [])
            for game_id in game_ids:
                rows = source._collection().get(where={"game_id": game_id},
                                                include=["documents", "metadatas", "embeddings"])
                if rows["ids"]:
                    self._collection().upsert(ids=rows["ids"], documents=rows["documents"],
                                              metadatas=rows["metadatas"], embeddings=rows["embeddings"])
                    copied += len(rows["ids"])
                if game_id not in games:
                    games.append(game_id)
            self._write_info(info | {"games": games, "frozen": False, "embeddings": self.embeddings})
        return copied

    def export_games(self) -> dict[str, Any]:
        """The pool as JSON-ready data: ``{"embeddings", "frozen", "games": [ids, in order], "tuples": [{"id",
        "reflection", then the other fields by name}]}`` (tuples by game, in the games' order, then by id; the
        store gives a tuple's fields in any order, so an export of the same pool is the same file). Embeddings are
        left out: `import_games` computes them again with the same embedder."""
        info = self.info()
        games = list(info.get("games") or [])
        rows = self._collection().get(include=["documents", "metadatas"]) if self.exists else {"ids": []}
        tuples = [{"id": i, "reflection": doc, **dict(sorted(meta.items()))}
                  for i, doc, meta in zip(rows["ids"], rows.get("documents") or [], rows.get("metadatas") or [],
                                          strict=True)]
        order = {g: n for n, g in enumerate(games)}
        tuples.sort(key=lambda t: (order.get(t["game_id"], len(order)), t["id"]))
        return {"embeddings": self.embeddings, "frozen": bool(info.get("frozen")), "games": games, "tuples": tuples}

    def import_games(self, data: dict[str, Any]) -> int:
        """Add the games of ``data`` (an `export_games` result) that this pool does not hold, in their order, with
        their tuples embedded again; a pool created by it takes the export's embedder, and is frozen when the
        export was.

        Returns:
            How many tuples were written.

        Raises:
            ValueError: the export was written with another embedder than this pool's, or this pool is frozen
                and would take games.
        """
        if self.exists and data.get("embeddings") != self.embeddings:
            raise ValueError(f"the export was written with embeddings {data.get('embeddings')!r}, pool "
                             f"{self.name!r} with {self.embeddings!r}")
        if not self.exists:
            self.embeddings = str(data.get("embeddings") or self.embeddings)
        held = set(self.info().get("games") or [])
        new = [g for g in data.get("games") or [] if g not in held]
        if new and self.frozen:
            raise ValueError(f"pool {self.name!r} is frozen")
        written = 0
        for game_id in new:
            rows = [t for t in data.get("tuples") or () if t.get("game_id") == game_id]
            with write_lock(self.directory):
                if rows:
                    self._collection().upsert(
                        ids=[t["id"] for t in rows], documents=[t["reflection"] for t in rows],
                        embeddings=self._embedder().embed([t["reflection"] for t in rows]),
                        metadatas=[{k: t[k] for k in ("response", "score", "role", "side", "game", "game_id")}
                                   for t in rows])
                info = self.info()
                self._write_info(info | {"games": [*(info.get("games") or []), game_id], "frozen": False,
                                         "embeddings": self.embeddings})
            written += len(rows)
        if data.get("frozen") and not self.frozen:
            self.freeze()
        return written

    # -------------------------------------------------------------- reading

    def similar(self, reflection: str, *, game: str, role: str, epsilon: float, limit: int) -> list[Experience]:
        """The experiences of ``role`` in ``game`` whose reflection has cosine similarity at least ``epsilon``
        to ``reflection``, most similar first, at most ``limit`` (Xu et al.: 0.85 and 50)."""
        if not self.exists or not reflection.strip():
            return []
        col = self._collection()
        if not col.count():
            return []
        result = col.query(query_embeddings=self._embedder().embed([reflection]), n_results=min(limit, col.count()),
                           where={"$and": [{"game": game}, {"role": role}]},
                           include=["documents", "metadatas", "distances"])
        found = []
        for doc, meta, distance in zip(result["documents"][0], result["metadatas"][0], result["distances"][0],
                                       strict=True):
            similarity = 1.0 - float(distance)
            if similarity >= epsilon:
                found.append(Experience(doc, str(meta["response"]), int(meta["score"]), round(similarity, 4)))
        return found


def list_pools() -> list[dict[str, Any]]:
    """Every pool of the data directory: ``{"name", "frozen", "games", "embeddings"}``, by name."""
    root = pools_dir(create=False)
    if not root.is_dir():
        return []
    out = []
    for directory in sorted(p for p in root.iterdir() if (p / "pool.json").is_file()):
        info = ExperiencePool(directory.name).info()
        out.append({"name": directory.name, "frozen": bool(info.get("frozen")),
                    "games": len(info.get("games") or []), "embeddings": info.get("embeddings", "minilm")})
    return out


# ------------------------------------------------------------------ at the start of a game


def pool_at_start(game: str, seat: Mapping[str, Any]) -> dict[str, Any]:
    """What a ``cga`` seat plays with, recorded when its game is dealt (the kind's ``at_setup``): the log entry
    ``{"type": "experience_pool", "pool": name or None, "reads": bool, "games": int, "experiences": int}``.

    ``games`` is how many finished games the pool was built from (``pool.json``'s ``games``), the unit in
    which Xu et al. (2023) size their pools (their ``merge_memory.py`` merges the experience files of a
    range of games; the paper's pools come from 10, 20, 30 and 40 games), and ``experiences`` how many
    (reflection, response, score) tuples it held; both 0 for a pool not created yet, and for a seat
    without a pool (``pool`` ``None``). ``reads``: the seat reads the pool at decision time (option
    ``experience``); a seat that only writes to it plays without experience. Read before the game's first
    decision, so a series whose games run one after another sees game k start with the k - 1 games before it.
    The record's ``experience_pools`` and the pool-size measures read it (`roundtable.metrics.pools`).

    Raises:
        ConfigurationError: invalid seat options (the game's input check refuses them first).
    """
    options = CgaOptions.parse(dict(seat.get("options") or {}), seat.get("model"))
    if not options.pool:
        return {"type": "experience_pool", "pool": None, "reads": False, "games": 0, "experiences": 0}
    pool = ExperiencePool(options.pool, options.embeddings)
    return {"type": "experience_pool", "pool": pool.name, "reads": options.experience,
            "games": len(pool.info().get("games") or []), "experiences": pool.count()}


# ------------------------------------------------------------------ after a game


def game_days(events: Sequence[dict[str, Any]]) -> int:
    """The game's length in days (Werewolf) or rounds (Avalon): the highest ``round`` or ``day`` an event names
    (at least 1)."""
    return max([int(e.get("round") or e.get("day") or 0) for e in events] + [1])


def winner_of(events: Sequence[dict[str, Any]]) -> str | None:
    """The winning side the ``game_over`` event names (``None``: no winner yet, or a draw)."""
    over = [e for e in events if e.get("type") == "game_over"]
    return over[-1].get("winner") if over else None


def experience_tuples(memory: dict[str, Any], events: Sequence[dict[str, Any]], into: str | None = None
                      ) -> dict[str, list[dict[str, Any]]]:
    """``{pool name: tuples}`` of a finished game: each learning ``cga`` agent's (reflection, response) pairs
    with its score (docs/agents/cga.md#experience-pool), from the agents' pools (the game's ``memory`` channel).

    Args:
        memory: the game's ``memory`` channel: each player's pool, by player number.
        events: the game's log (the winner and the game's length in days come from it).
        into: put every ``cga`` agent's tuples into this pool, whatever pool (if any) it played with
            (building a pool from earlier games); ``None``: each learning agent's own pool.
    """
    days, winner = game_days(events), winner_of(events)
    out: dict[str, list[dict[str, Any]]] = {}
    for player, pool in sorted(memory.items(), key=lambda item: int(item[0])):
        if not isinstance(pool, dict) or "experience" not in pool:
            continue
        name = into or (pool.get("pool") if pool.get("learn", True) else None)
        if not name:
            continue
        value = score(winner is not None and pool.get("side") == winner, days)
        for n, item in enumerate(pool.get("experience") or []):
            out.setdefault(str(name), []).append(
                {"reflection": item["reflection"], "response": item["response"], "score": value,
                 "role": pool.get("role"), "side": pool.get("side"), "game": pool.get("game"),
                 "player": int(player), "n": n})
    return out


def record_game(game_id: str, values: dict[str, Any], into: str | None = None) -> dict[str, int]:
    """After a finished game: add every learning ``cga`` agent's tuples to its pool.

    Args:
        game_id: the game (its tuples' ids start with it).
        values: the game graph's final state values (``memory``: the agents' pools; ``events``: the log, with
            ``game_over``).
        into: see `experience_tuples` (``roundtable pool build``).

    Returns:
        ``{pool name: tuples written}`` (0 for a frozen pool).
    """
    events = values.get("events") or []
    if winner_of(events) is None and not any(e.get("type") == "game_over" for e in events):
        return {}
    written = {}
    for name, tuples in experience_tuples(values.get("memory") or {}, events, into).items():
        written[name] = ExperiencePool(name).add_game(game_id, tuples)
    return written
