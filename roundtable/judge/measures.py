"""The judge's tables: its answers pooled over records into `roundtable.metrics.tables.Measure` rows with 95%
intervals (docs/judge.md#tables-and-plots). Pure functions of the judged records; no model.

Groups are a player's role (Avalon) or side (Werewolf), given as ``group_of(transcript, player)``. A pair of
groups is written ``speaker>target``, and a pair in one round ``speaker>target@round``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from roundtable.judge.behaviours import NO_CLAIM
from roundtable.judge.protocol import Judged
from roundtable.judge.transcript import Transcript
from roundtable.metrics.intervals import bootstrap, mean, wilson
from roundtable.metrics.tables import Measure

GroupOf = Callable[[Transcript, int], str]
"""A player's group in a record: its role or its side."""

CATEGORIES = ("self_disclosure", "camouflage", "withholding")
"""Lan et al.'s three answers to "who does a player say it is in round 1" (§6.3)."""


def proportion(metric: str, condition: str, group_by: str, group: str, k: int, n: int, games: int) -> Measure:
    """``k / n`` with its Wilson 95% interval (value and interval ``None`` when ``n`` is 0)."""
    low, high = wilson(k, n)
    return Measure(metric, condition, group_by, group, k, n, k / n if n else None, low if n else None,
                   high if n else None, games)


def pair(speaker: str, target: str, round_: int | None = None) -> str:
    """``speaker>target`` (or ``speaker>target@round``)."""
    return f"{speaker}>{target}" + ("" if round_ is None else f"@{round_}")


def split_pair(group: str) -> tuple[str, str, int | None]:
    """``(speaker, target, round or None)`` of a `pair` group."""
    head, _, round_ = group.partition("@")
    speaker, _, target = head.partition(">")
    return speaker, target, int(round_) if round_ else None


def ordered(groups: Iterable[str], order: Sequence[str]) -> list[str]:
    """``groups`` in ``order``, then any others sorted."""
    found = set(groups)
    return [g for g in order if g in found] + sorted(found - set(order))


# ------------------------------------------------------------------ reading the answers


def stances(judged: Judged, behaviour: str = "stance") -> list[tuple[int, int, int, str]]:
    """``[(round, speaker, target, stance)]``: every stance the judge read, in log order (unusable replies
    left out)."""
    answers = judged.answers.get(behaviour) or {}
    out = []
    for u in judged.transcript.utterances:
        answer = answers.get(f"u{u.index}")
        for name, stance in (answer or {}).items():
            out.append((u.round, u.speaker, int(name.rsplit("_", 1)[-1]), stance))
    return out


def claims(judged: Judged, behaviour: str, rounds: Iterable[int] | None = None) -> list[tuple[int, int, str | None]]:
    """``[(round, speaker, claim or None)]`` per judged utterance (of ``rounds``), in log order; ``None``: the
    reply could not be read."""
    answers = judged.answers.get(behaviour) or {}
    wanted = None if rounds is None else set(rounds)
    return [(u.round, u.speaker, (answers[f"u{u.index}"] or {}).get("claim"))
            for u in judged.transcript.utterances
            if f"u{u.index}" in answers and (wanted is None or u.round in wanted)]


def category(claim: str | None, role: str, side: str) -> str:
    """`CATEGORIES` of one claim: the player's own role or side is self-disclosure, another's camouflage, no
    claim (or none read) withholding."""
    if claim is None or claim == NO_CLAIM:
        return "withholding"
    return "self_disclosure" if claim in (role, side) else "camouflage"


def first_claims(judged: Judged, behaviour: str, round_: int = 1) -> dict[int, str | None]:
    """``{player: the first role or side it claims in round ``round_``, or None}`` for every player whose
    claims can be told: a player who said nothing claimed nothing; one whose every reply was unreadable and
    who claimed nothing readable is left out."""
    said = {u.speaker for u in judged.transcript.in_round(round_)}
    found: dict[int, str | None] = {}
    unread: set[int] = set()
    for _, speaker, claim in claims(judged, behaviour, [round_]):
        if claim is None:
            unread.add(speaker)
        elif claim != NO_CLAIM and found.get(speaker) is None:
            found[speaker] = claim
    out: dict[int, str | None] = {}
    for player in sorted(judged.transcript.roles):
        if found.get(player) is not None:
            out[player] = found[player]
        elif player not in unread or player not in said:
            out[player] = None
    return out


# ------------------------------------------------------------------ tables


def deception_rows(condition: str, judged: Sequence[Judged], behaviour: str = "deception",
                   group_by: str = "role") -> list[Measure]:
    """Lan et al.'s deception (Fig. 4): per role, the share of players whose first claim in round 1 is their
    own role or side (``self_disclosure``), another's (``camouflage``) or none (``withholding``); then
    ``claims`` per ``role>claimed role`` (k: players, n: players of the role)."""
    counts: Counter[tuple[str, str]] = Counter()
    players: Counter[str] = Counter()
    claimed: Counter[tuple[str, str]] = Counter()
    games = [j for j in judged if behaviour in j.answers]
    for j in games:
        for player, claim in first_claims(j, behaviour).items():
            role = j.transcript.roles.get(player, "?")
            players[role] += 1
            kind = category(claim, role, j.transcript.sides.get(player, ""))
            counts[(role, kind)] += 1
            if claim is not None:
                claimed[(role, claim)] += 1
    rows = [proportion(kind, condition, group_by, role, counts[(role, kind)], players[role], len(games))
            for role in sorted(players) for kind in CATEGORIES]
    rows += [proportion("claims", condition, "role_claim", pair(role, claim), k, players[role], len(games))
             for (role, claim), k in sorted(claimed.items())]
    return rows


def stance_rows(condition: str, judged: Sequence[Judged], group_of: GroupOf, group_by: str,
                behaviour: str = "stance") -> list[Measure]:
    """Teamwork and confrontation (Lan et al. Fig. 5; Xu et al.'s trust and confrontation): per
    ``speaker group>target group``, the share of the speakers' stances towards the players they name that are
    ``trust`` and ``distrust`` (n: every stance judged, ``neither`` included); the same per round
    (``<group_by>_round``, Lan et al. Fig. 6's lines); and ``vacillation``: of a speaker's stated stances
    towards one player in successive rounds (a round's stance: trust or distrust, whichever it said more
    often there), the share that changed."""
    games = [j for j in judged if behaviour in j.answers]
    total: Counter[str] = Counter()
    said: Counter[tuple[str, str]] = Counter()
    for j in games:
        for round_, speaker, target, stance in stances(j, behaviour):
            groups = (group_of(j.transcript, speaker), group_of(j.transcript, target))
            for key in (pair(*groups), pair(*groups, round_)):
                total[key] += 1
                said[(key, stance)] += 1
    flips, turns = _vacillation(games, group_of, behaviour)
    rows: list[Measure] = []
    for key in sorted(total, key=lambda g: (split_pair(g)[2] or 0, g)):
        by = group_by if split_pair(key)[2] is None else f"{group_by}_round"
        rows += [proportion(stance, condition, by, key, said[(key, stance)], total[key], len(games))
                 for stance in ("trust", "distrust")]
    rows += [proportion("vacillation", condition, group_by, key, flips[key], turns[key], len(games))
             for key in sorted(turns)]
    return rows


def _vacillation(judged: Sequence[Judged], group_of: GroupOf,
                 behaviour: str) -> tuple[Counter[str], Counter[str]]:
    """``(changes, successive pairs)`` of stated stances per group pair (see `stance_rows`)."""
    flips: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    for j in judged:
        net: dict[tuple[int, int], dict[int, int]] = {}
        for round_, speaker, target, stance in stances(j, behaviour):
            if stance in ("trust", "distrust"):
                rounds = net.setdefault((speaker, target), {})
                rounds[round_] = rounds.get(round_, 0) + (1 if stance == "trust" else -1)
        for (speaker, target), rounds in net.items():
            stated = [score > 0 for _, score in sorted(rounds.items()) if score != 0]
            key = pair(group_of(j.transcript, speaker), group_of(j.transcript, target))
            for before, after in zip(stated, stated[1:], strict=False):
                turns[key] += 1
                flips[key] += before != after
    return flips, turns


def sharing_rows(condition: str, judged: Sequence[Judged], roles: Iterable[str], behaviour: str = "sharing",
                 round_: int = 1) -> list[Measure]:
    """Lan et al.'s sharing (Fig. 6a): per role of ``roles``, the share of the facts its players privately know
    that their words disclose in round ``round_`` (a player who said nothing disclosed nothing; one whose reply
    was unreadable is left out)."""
    wanted = set(roles)
    k: Counter[str] = Counter()
    n: Counter[str] = Counter()
    games = [j for j in judged if behaviour in j.answers]
    for j in games:
        answers = j.answers[behaviour]
        for player, known in j.transcript.knowledge.items():
            role = j.transcript.roles.get(player, "")
            if role not in wanted:
                continue
            key = f"p{player}"
            if key in answers and answers[key] is None:
                continue
            answer = answers.get(key) or {}
            n[role] += len(known)
            k[role] += sum(1 for other, _ in known if answer.get(f"player_{other}") == "disclosed")
    return [proportion("sharing", condition, "role", role, k[role], n[role], len(games)) for role in sorted(n)]


def camouflage_rows(condition: str, judged: Sequence[Judged], group_of: GroupOf, group_by: str,
                    behaviour: str = "camouflage") -> list[Measure]:
    """Xu et al.'s camouflage (§5.3, Fig. 3c-d): per group, the share of its players' utterances that claim a
    role or side not their own (``camouflage``) and their own (``self_disclosure``), and the mean number of
    camouflage utterances per game with a bootstrap interval (``camouflage_per_game``)."""
    games = [j for j in judged if behaviour in j.answers]
    said: Counter[str] = Counter()
    kinds: Counter[tuple[str, str]] = Counter()
    per_game: dict[str, list[float]] = {}
    for j in games:
        in_game: Counter[str] = Counter()
        for _, speaker, claim in claims(j, behaviour):
            if claim is None:
                continue
            group = group_of(j.transcript, speaker)
            kind = category(claim, j.transcript.roles.get(speaker, ""), j.transcript.sides.get(speaker, ""))
            said[group] += 1
            kinds[(group, kind)] += 1
            in_game[group] += kind == "camouflage"
        for group in {group_of(j.transcript, p) for p in j.transcript.roles}:
            per_game.setdefault(group, []).append(float(in_game[group]))
    rows = [proportion(kind, condition, group_by, group, kinds[(group, kind)], said[group], len(games))
            for group in sorted(said) for kind in ("camouflage", "self_disclosure")]
    for group, values in sorted(per_game.items()):
        low, high = bootstrap(values)
        rows.append(Measure("camouflage_per_game", condition, group_by, group, sum(values), len(values),
                            mean(values), low, high, len(values), "bootstrap"))
    return rows


def stance_counts(judged: Judged, behaviour: str = "stance") -> Counter[str]:
    """How many stances of each kind the judge read in one record."""
    return Counter(stance for *_, stance in stances(judged, behaviour))


def by_condition(rows_of: Callable[[str, Sequence[Judged]], list[Measure]],
                 judged: Mapping[str, Sequence[Judged]]) -> list[Measure]:
    """``rows_of(condition, judged records)`` for every condition, in order."""
    return [row for condition, items in judged.items() for row in rows_of(condition, items)]
