"""The Avalon game graph (`roundtable.graphs.avalon`): same game as the rules
library, parallel seat decisions, incremental views, resume after a failure."""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from contextlib import nullcontext

import pytest
from avalon_helpers import play, scripted_kind
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from roundtable.agents.protocol import AgentKind, agent_output, parse_view
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import avalon as A
from roundtable.games.protocol import PREPARE_ROUND, Request
from roundtable.graphs.avalon import build_avalon_graph, graph
from roundtable.testing.policies import rule_policies

RUN = {"recursion_limit": 10_000}

GAMES = [
    ("bench5", 5, [], 0),
    ("bench5", 5, [], 1),
    ("lan6", 6, ["discussion=before_proposal", "fifth_rejection=leader_assigns",
                 "assassination=after_each_quest", "vote_visibility=tally_only"], 2),
    ("play7", 7, ["discussion=none", "fifth_rejection=auto_approve"], 3),
    ("standard", 10, ["assassination=after_each_quest"], 4),
]


def inputs(cfg: A.AvalonConfig, seed: int, kinds: list[str]) -> dict:
    return {"config": cfg.to_dict(), "seed": seed, "seats": [{"kind": k} for k in kinds]}


def mixed(n: int) -> list[str]:
    return ["naive" if p % 3 else "random" for p in range(1, n + 1)]


@pytest.mark.parametrize("preset, n, rules, seed", GAMES)
def test_graph_plays_the_same_game_as_the_rules_loop(preset, n, rules, seed):
    cfg = A.AvalonConfig.build(preset, n, rules=rules)
    kinds = mixed(n)
    out = graph.invoke(inputs(cfg, seed, kinds), RUN)
    final, steps = play(cfg, seed, kinds, records=True)
    assert out["events"][-1]["type"] == "game_over"
    assert out["events"] == list(final.events)
    assert out["game"] == final.snapshot()
    decisions = [e for e in out["events"] if e["type"] == "decision"]
    assert len(decisions) == sum(len(s.decisions) for s in steps)
    assert {e["agent"] for e in decisions} == set(kinds)


def test_graph_has_a_node_per_phase_and_per_agent_kind_with_the_lga_steps_drawn_inside():
    nodes = set(graph.get_graph(xray=True).nodes)
    assert {"setup", "reveal", "proposal", "discussion", "vote_team", "quest", "assassination", "apply",
            "game_over", "naive", "random"} <= nodes
    assert {f"lga:{step}" for step in ("observe", "summarize", "analyze", "plan", "act", "respond", "decide")} <= nodes
    assert "lga" in dict(graph.get_subgraphs())


def test_votes_and_quest_cards_fan_out_in_one_step():
    cfg = A.AvalonConfig.build("standard", 8, rules=["discussion=none"])
    seats: dict[int, list[dict]] = defaultdict(list)
    for chunk in graph.stream(inputs(cfg, 5, ["naive"] * 8), RUN, stream_mode="debug"):
        if chunk["type"] == "task" and chunk["payload"]["name"] == "naive":
            seats[chunk["step"]].append(chunk["payload"]["input"]["request"])
    by_kind = Counter()
    for step, requests in seats.items():
        kinds = {r["kind"] for r in requests}
        assert len(kinds) == 1, f"step {step} mixes {kinds}"
        kind = kinds.pop()
        by_kind[kind] += 1
        if kind == "vote_team":
            assert sorted(r["player"] for r in requests) == list(range(1, 9)), "all votes in one step"
        elif kind == "quest_card":
            team = requests[0]["subject"]
            assert sorted(r["player"] for r in requests) == sorted(team), "all cards in one step"
            assert len(team) >= 3
        else:
            assert len(requests) == 1, f"{kind} is a sequential decision"
    assert by_kind["vote_team"] >= 1 and by_kind["quest_card"] >= 3


def test_parallel_seats_run_concurrently():
    """Votes wait on a barrier of all players: a sequential fan-out would break it."""
    n = 5
    barriers: dict[str, threading.Barrier] = {}
    lock = threading.Lock()
    met = []

    def patient(view, request, seed):
        if request.kind == "vote_team":
            key = f"{request.round}.{request.attempt}"
            with lock:
                barrier = barriers.setdefault(key, threading.Barrier(n, timeout=20))
            barrier.wait()
            met.append(key)
        return rule_policies("avalon")["naive"](view, request, seed)

    g = build_avalon_graph(kinds={"patient": scripted_kind("patient", patient)}).compile()
    cfg = A.AvalonConfig.build("bench5", rules=["discussion=none"])
    out = g.invoke(inputs(cfg, 2, ["patient"] * n), RUN)
    assert out["events"][-1]["type"] == "game_over"
    assert met and all(c == n for c in Counter(met).values())


def test_each_agent_receives_exactly_its_visible_events_once():
    delivered: dict[int, list[dict]] = defaultdict(list)
    lock = threading.Lock()

    seed = 10**12 + 6

    def recorder(view, request, agent_seed):
        assert agent_seed != seed and str(seed) not in view.model_dump_json(), "the game seed reveals the deal"
        with lock:
            p = request.player
            assert view.first_event == len(delivered[p]), "no event skipped or sent twice"
            delivered[p].extend(view.events)
        return rule_policies("avalon")["naive"](view, request, agent_seed)

    g = build_avalon_graph(kinds={"rec": scripted_kind("rec", recorder)}).compile()
    cfg = A.AvalonConfig.build("lan6", rules=["vote_visibility=tally_only"])
    out = g.invoke(inputs(cfg, seed, ["rec"] * 6), RUN)
    for p in range(1, 7):
        visible = [e for e in out["events"] if e["to"] is None or p in e["to"]]
        got = delivered[p]
        assert got, f"player {p} was never asked"
        assert got == visible[: len(got)]
        assert all(e["type"] != "decision" for e in got)
        assert [e for e in got if e["type"] == "role"] == [e for e in out["events"]
                                                           if e["type"] == "role" and e["player"] == p]


def preparing_kind(inputs_seen: list[tuple[int, dict]], lock: threading.Lock) -> AgentKind:
    """A kind that prepares rounds: naive answers, and every input it gets recorded with its graph step."""

    def node(task):
        from langgraph.config import get_config
        step = get_config()["metadata"]["langgraph_step"]
        with lock:
            inputs_seen.append((step, task))
        request = Request.model_validate(task["request"])
        if request.kind == PREPARE_ROUND:
            return {"memory": {str(request.player): {"told": request.round}}}
        view = parse_view(task["view"])
        return agent_output(rule_policies("avalon")["naive"](view, request, task["seed"]), {"told": 0})

    return AgentKind(name="prep", description="test kind that prepares rounds", games=frozenset({"avalon"}),
                     node=lambda models: node, prepares_rounds=True)


def test_a_rounds_first_requests_go_out_with_a_notice_to_every_other_seat_that_prepares_rounds():
    seen: list[tuple[int, dict]] = []
    g = build_avalon_graph(kinds={"prep": preparing_kind(seen, threading.Lock()),
                                  "naive": AGENT_KINDS["naive"]}).compile()
    cfg = A.AvalonConfig.build("lan6")
    kinds = ["prep", "naive", "prep", "prep", "naive", "prep"]
    out = g.invoke(inputs(cfg, 4, kinds), RUN)
    preps = [p for p, k in enumerate(kinds, 1) if k == "prep"]
    notices = [(step, t["request"]) for step, t in seen if t["request"]["kind"] == PREPARE_ROUND]
    rounds = sorted({e["round"] for e in out["events"] if e["type"] == "round_start"})
    assert rounds and {r["round"] for _, r in notices} == set(rounds)
    for round_ in rounds:
        first_step = min(step for step, t in seen if t["request"]["round"] == round_)
        told = {r["player"] for step, r in notices if r["round"] == round_}
        assert {step for step, r in notices if r["round"] == round_} == {first_step}, "all told at once"
        asked = {t["request"]["player"] for step, t in seen
                 if step == first_step and t["request"]["kind"] != PREPARE_ROUND}
        assert told == set(preps) - asked, "every other preparing seat is told once; bots never"
    # each preparing seat's inputs, notices included, carry its visible events exactly once
    for p in preps:
        got = [e for _, t in sorted(seen, key=lambda s: s[0]) if t["request"]["player"] == p
               for e in t["view"]["events"]]
        visible = [e for e in out["events"] if (e["to"] is None or p in e["to"]) and e["type"] != "decision"]
        assert got == visible[: len(got)]
    assert not [e for e in out["events"] if e["type"] == "decision" and e["request"].endswith(
        tuple(f"{PREPARE_ROUND}.p{p}" for p in preps))], "a notice is not a decision"


def test_an_illegal_agent_decision_is_refused():
    def cheat(view, request, seed):
        decision = rule_policies("avalon")["naive"](view, request, seed)
        if request.kind == "quest_card":
            decision = decision.model_copy(update={"choice": False})
        return decision

    g = build_avalon_graph(kinds={"cheat": scripted_kind("cheat", cheat)}).compile()
    with pytest.raises(A.IllegalActionError, match=r"may only answer success"):
        g.invoke(inputs(A.AvalonConfig.build("bench5"), 0, ["cheat"] * 5), RUN)


class Flaky:
    """An agent kind that plays ``naive`` but raises once, at the first request matching ``when``."""

    def __init__(self, when):
        self.when = when
        self.armed = True
        self.crashed: str | None = None
        self.calls: Counter = Counter()
        self.lock = threading.Lock()

    def __call__(self, view, request, seed):
        with self.lock:
            self.calls[request.id] += 1
            fire = self.armed and self.when(request)
            if fire:
                self.armed = False
                self.crashed = request.id
        if fire:
            raise RuntimeError(f"agent crashed on {request.id}")
        return rule_policies("avalon")["naive"](view, request, seed)


WHEN = {
    "parallel vote": lambda r: r.kind == "vote_team" and r.round == 2 and r.player == 3,
    "proposal": lambda r: r.kind == "propose_team" and r.round == 3,
}


@pytest.mark.parametrize("saver", ["memory", "sqlite"])
@pytest.mark.parametrize("where", list(WHEN))
def test_resume_after_an_agent_exception(saver, where, tmp_path):
    cfg = A.AvalonConfig.build("bench5")
    game = inputs(cfg, 12, ["flaky"] * 5)
    steady = {"flaky": scripted_kind("flaky", Flaky(lambda r: False))}
    reference = build_avalon_graph(kinds=steady).compile().invoke(game, RUN)
    flaky = Flaky(WHEN[where])
    builder = build_avalon_graph(kinds={"flaky": scripted_kind("flaky", flaky)})
    config = {**RUN, "configurable": {"thread_id": "g-1"}}
    memory = InMemorySaver()

    def open_saver():
        """The checkpointer; for SQLite a fresh connection each time, as a restarted process would have."""
        if saver == "sqlite":
            return SqliteSaver.from_conn_string(str(tmp_path / "c.sqlite"))
        return nullcontext(memory)

    with open_saver() as cp:
        g = builder.compile(checkpointer=cp)
        with pytest.raises(RuntimeError, match="agent crashed on"):
            g.invoke(game, config, durability="sync")
    assert not flaky.armed, "the failure was injected"
    with open_saver() as cp:
        g = builder.compile(checkpointer=cp)
        stopped = g.get_state(config)
        assert stopped.next, "the game is not over"
        assert stopped.values["events"][-1]["type"] != "game_over"
        out = g.invoke(None, config, durability="sync")
        assert out["events"] == reference["events"]
        assert out["game"] == reference["game"]
        assert not g.get_state(config).next
    # Only requests of the failed step are asked again (the crashed one, and parallel siblings
    # that were still running when it crashed; siblings that had answered keep their answers).
    repeated = {rid: c for rid, c in flaky.calls.items() if c > 1}
    step = flaky.crashed.rsplit(".p", 1)[0]
    assert repeated.get(flaky.crashed) == 2
    assert all(rid.startswith(step + ".p") and c == 2 for rid, c in repeated.items()), repeated



def test_a_breakpoint_on_a_phase_pauses_once_per_decision_point_before_it_is_asked():
    g = build_avalon_graph().compile(checkpointer=InMemorySaver())
    config = {**RUN, "configurable": {"thread_id": "votes"}}
    cfg = A.AvalonConfig.build("bench5")
    g.invoke(inputs(cfg, 0, ["naive"] * 5), config, interrupt_before=["vote_team"])
    pauses = 0
    while g.get_state(config).next:
        state = g.get_state(config)
        assert state.next == ("vote_team",)
        assert not state.values.get("requests"), "paused before the votes are asked"
        pauses += 1
        g.invoke(None, config, interrupt_before=["vote_team"])
    events = g.get_state(config).values["events"]
    assert pauses == sum(1 for e in events if e["type"] == "vote_result") > 0


def test_unknown_or_missing_input_is_refused_before_the_game_starts():
    cfg = A.AvalonConfig.build("bench5").to_dict()
    seats = [{"kind": "naive"}] * 5
    with pytest.raises(A.ConfigurationError, match="seed"):
        graph.invoke({"config": cfg, "seats": seats})
    with pytest.raises(A.ConfigurationError, match="agnets"):
        graph.invoke({"config": cfg, "seed": 1, "seats": seats, "agnets": "lga"})
    with pytest.raises(A.ConfigurationError, match="4 seats given for 5 players"):
        graph.invoke({"config": cfg, "seed": 1, "seats": seats[:4]})
    with pytest.raises(A.ConfigurationError, match="unknown agent kind 'bot'"):
        graph.invoke({"config": cfg, "seed": 1, "seats": [{"kind": "bot"}] * 5})
    with pytest.raises(A.ConfigurationError, match=r"invalid naive options \(x: .*valid options: flavour"):
        graph.invoke({"config": cfg, "seed": 1, "seats": [{"kind": "naive", "options": {"x": 1}}] * 5})
    with pytest.raises(A.ConfigurationError, match="invalid lga options"):
        graph.invoke({"config": cfg, "seed": 1, "seats": [{"kind": "lga", "options": {"no_plna": True}}] * 5})
    with pytest.raises(A.ConfigurationError, match="seed .* out of range"):
        graph.invoke({"config": cfg, "seed": 2**64, "seats": seats})
    with pytest.raises(A.ConfigurationError, match="unknown preset"):
        graph.invoke({"config": {"preset": "lan7"}, "seed": 1, "seats": seats})
