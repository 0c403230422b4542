"""Shared helpers for the Avalon tests: an independent setup table and knowledge
oracle (written from docs/games/avalon.md#setup-table, not imported from the library), hypothesis
strategies over configurations, and a play loop over ``pending``/``apply``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from roundtable.agents.protocol import AgentKind, bot_kind
from roundtable.games import avalon as A
from roundtable.graphs.phases import agent_seed, decision_record
from roundtable.testing.policies import rule_policies

# docs/games/avalon.md#setup-table, copied by hand: players -> (good, evil, team sizes, fails needed on quest 4).
TABLE = {
    5: (3, 2, (2, 3, 2, 3, 3), 1),
    6: (4, 2, (2, 3, 4, 3, 4), 1),
    7: (4, 3, (2, 3, 3, 4, 4), 2),
    8: (5, 3, (3, 4, 4, 5, 5), 2),
    9: (6, 3, (3, 4, 4, 5, 5), 2),
    10: (6, 4, (3, 4, 4, 5, 5), 2),
}
GOOD = {"merlin", "percival", "servant"}
EVIL = {"morgana", "assassin", "minion", "mordred", "oberon"}
END_REASONS = {
    "three_failed_quests", "three_successful_quests", "five_rejected_proposals", "merlin_assassinated",
}

VARIANTS = {
    "fifth_rejection": ("evil_wins", "auto_approve", "leader_assigns"),
    "discussion": ("leader_first_and_last", "before_proposal", "none", "leader_first"),
    "assassination": ("end_only", "after_each_quest"),
    "vote_visibility": ("public", "tally_only"),
    "two_fail_quests": ("official", "four_and_five"),
    "evil_quest_card": ("free", "must_fail"),
    "assassination_targets": ("not_known_evil", "any_seat"),
}

# (preset, players) for every named configuration.
PRESET_CASES = [("lan6", 6), ("bench5", 5), ("play7", 7)] + [("standard", n) for n in range(5, 11)]


def team_size(n: int, round_: int) -> int:
    return TABLE[n][2][round_ - 1]


def fails_needed(n: int, round_: int, two_fail_quests: str = "official") -> int:
    """docs/games/avalon.md#setup-table and the ``two_fail_quests`` variant (docs/games/avalon.md#two_fail_quests):
    quest 4 (and 5 under ``four_and_five``)."""
    quests = (4, 5) if two_fail_quests == "four_and_five" else (4,)
    return TABLE[n][3] if round_ in quests else 1


def expected_knowledge(roles: list[str] | tuple[str, ...], p: int) -> dict[int, str]:
    """What player ``p`` must learn, ``{player: label}``, straight from the role table of
    docs/games/avalon.md#roles-and-what-they-learn."""
    roles = [r.value if isinstance(r, A.Role) else r for r in roles]
    mine = roles[p - 1]
    seats = range(1, len(roles) + 1)
    if mine == "merlin":
        return {q: "evil" for q in seats if roles[q - 1] in EVIL and roles[q - 1] != "mordred"}
    if mine == "percival":
        label = "merlin_or_morgana" if "morgana" in roles else "merlin"
        return {q: label for q in seats if roles[q - 1] in ("merlin", "morgana")}
    if mine in EVIL and mine != "oberon":
        return {q: "evil" for q in seats if q != p and roles[q - 1] in EVIL and roles[q - 1] != "oberon"}
    return {}


def knows_as_dict(knows) -> dict[int, str]:
    out = {k["player"]: k["is"] for k in knows}
    assert len(out) == len(list(knows)), f"a player is listed twice in {knows}"
    return out


# ----------------------------------------------------------------- strategies


@st.composite
def custom_roles(draw, players: int | None = None) -> list[str]:
    """A valid custom role set (Merlin/Assassin, Percival, Morgana, Mordred, Oberon optional)."""
    n = players if players is not None else draw(st.integers(5, 10))
    good, evil = TABLE[n][:2]
    good_roles: list[str] = []
    evil_roles: list[str] = []
    if draw(st.booleans()):
        good_roles.append("merlin")
        evil_roles.append("assassin")
        if draw(st.booleans()):
            good_roles.append("percival")
    for role in draw(st.permutations(["morgana", "mordred", "oberon"])):
        if len(evil_roles) < evil and draw(st.booleans()):
            evil_roles.append(role)
    roles = good_roles + ["servant"] * (good - len(good_roles)) + evil_roles + ["minion"] * (evil - len(evil_roles))
    return draw(st.permutations(roles))


@st.composite
def rule_overrides(draw) -> list[str]:
    return [f"{k}={draw(st.sampled_from(v))}" for k, v in VARIANTS.items()]


@st.composite
def configs(draw, players: int | None = None) -> A.AvalonConfig:
    """A preset or custom role set with every variant drawn."""
    rules = draw(rule_overrides())
    cases = [c for c in PRESET_CASES if players is None or c[1] == players]
    if draw(st.booleans()) and cases:
        preset, n = draw(st.sampled_from(cases))
        return A.AvalonConfig.build(preset, n, rules=rules)
    return A.AvalonConfig.build(roles=draw(custom_roles(players)), rules=rules)


seeds = st.integers(min_value=0, max_value=2**40)


# ----------------------------------------------------------------- play loop

Policy = Callable[[A.PlayerView, A.Request, int], A.Decision]


@dataclass
class Step:
    """One ``apply``: the state before, what was asked, what was answered, the state after."""

    before: A.AvalonState
    requests: list[A.Request]
    decisions: dict[int, A.Decision]
    after: A.AvalonState


def step_bound(n: int) -> int:
    """Upper bound on ``apply`` calls in a game of ``n`` players.

    Per attempt: two proposals and at most ``n`` speakers, one vote; per round
    one quest and at most an assassination talk (``n`` speakers) plus the shot.
    """
    return 5 * 5 * (n + 3) + 5 * (n + 2)


def policy_for(seats: str | list[str] | Mapping[int, Policy]) -> Callable[[int], Policy]:
    if isinstance(seats, str):
        return lambda p: rule_policies("avalon")[seats]
    if isinstance(seats, list):
        return lambda p: rule_policies("avalon")[seats[p - 1]]
    return lambda p: seats[p]


def play(
    config: A.AvalonConfig,
    seed: int,
    seats: str | list[str] | Mapping[int, Policy] = "random",
    *,
    records: bool = False,
    kinds: list[str] | None = None,
    keep_steps: bool = True,
) -> tuple[A.AvalonState, list[Step]]:
    """Play a game to its end with the given policies through ``pending``/``view``/``apply``.

    With ``records`` the hidden ``decision`` records are appended before each
    transition's events, as the game graph does (``kinds`` names each seat's agent kind).
    """
    pick = policy_for(seats)
    state = A.new_game(config, seed)
    steps: list[Step] = []
    bound = step_bound(config.players)
    for _ in range(bound + 1):
        if state.is_over:
            return state, steps
        requests = A.pending(state)
        assert requests, f"a running game waits for nothing (phase {state.phase.value})"
        # Agents get a seed derived per player (the game seed would reveal the deal), as in the game graph.
        decisions = {r.player: pick(r.player)(A.view(state, r.player), r, agent_seed(seed, r.player))
                     for r in requests}
        after = A.apply(state, decisions)
        if records:
            kind_names = kinds or (
                [seats] * config.players if isinstance(seats, str) else list(seats)
            )
            asked = {r.player: r for r in requests}
            recs = [decision_record(A.RULES, asked[d.player], d, kind_names[d.player - 1]) for d in decisions.values()]
            after = replace(after, events=state.events + tuple(recs) + after.events[len(state.events):])
        if keep_steps:
            steps.append(Step(state, requests, decisions, after))
        state = after
    raise AssertionError(f"game not over after {bound} steps (seed {seed}, {config})")


def decision(request: A.Request, **fields) -> A.Decision:
    """A decision for ``request`` from answer fields in the game's words: ``team``, ``approve``,
    ``success``, ``target`` (``None``: a pass), or the protocol's ``players``/``choice``/``utterance``."""
    if "team" in fields:
        team = fields.pop("team")
        fields["players"] = None if team is None else tuple(team)
    for word in ("approve", "success"):
        if word in fields:
            fields["choice"] = fields.pop(word)
    if "target" in fields:
        target = fields.pop("target")
        fields["players"] = None if target is None else (target,)
    return A.Decision.to(request, **fields)


def decide_all(state: A.AvalonState, answer: Callable[[A.Request], dict]) -> dict[int, A.Decision]:
    """Decisions for every pending request, built from ``answer(request) -> answer fields`` (see `decision`)."""
    return {r.player: decision(r, **answer(r)) for r in A.pending(state)}


def scripted_kind(name: str, decide: Policy) -> AgentKind:
    """An agent kind for graph tests that plays Avalon with ``decide(view, request, seed) -> Decision``."""
    return bot_kind(name, f"test kind {name}", {"avalon": decide})
