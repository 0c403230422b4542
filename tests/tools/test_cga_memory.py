"""The cga agent's memory: informativeness scores (docs/agents/cga.md#informativeness), freshness, and retrieval
by embedding (Chroma, MiniLM)."""

from __future__ import annotations

import pytest

from roundtable.agents.cga import memory as mem
from roundtable.agents.cga.informativeness import informativeness, role_pattern
from roundtable.games.protocol import PlayerView
from roundtable.tools.embeddings import embedder

ROLES = role_pattern(["werewolf", "villager", "seer", "witch", "guard", "merlin", "loyal_servant"])


@pytest.mark.parametrize(("text", "event_type", "score"), [
    ("You are Player 2, the Seer.", "role", 5),
    ("Player 4 learns: player 6 is evil", "knowledge", 5),
    ("Player 3 died last night.", "dawn", 4),
    ("Player 5 was eliminated by the vote.", None, 4),
    ("Player 1: I am the Seer and I checked Player 6.", "utterance", 3),
    ("Player 2: I think Player 5 is Merlin.", "utterance", 3),
    ("Player 2: I think Player 4 is a loyal servant.", "utterance", 3),
    ("The antidote was used tonight.", None, 2),
    ("Player 7: someone used a potion, I am sure.", "utterance", 2),
    ("Player 4 leads proposal 1.", "leader", 1),
    ("Player 6: I have nothing to add.", "utterance", 1),
])
def test_informativeness_follows_the_spec_rules(text, event_type, score):
    assert informativeness(text, event_type, ROLES) == score


def test_the_highest_rule_wins():
    assert informativeness("The witch poisoned Player 3, who died.", None, ROLES) == 4


def view(events, first_event=0, round_=1):
    return PlayerView(game="avalon", player=2, role="merlin", side="good", players=5,
                      role_set=("merlin", "servant", "servant", "assassin", "minion"), rules={}, phase="proposal",
                      round=round_, events=tuple(events), first_event=first_event)


def narrate(event):
    return event.get("text")


def test_ingest_reads_each_event_once_and_scores_it():
    events = [{"type": "utterance", "speaker": 3, "text": "I am Merlin.", "round": 1},
              {"type": "note", "text": "Quest 1 begins.", "round": 1}]
    pool = mem.ingest({}, view(events), narrate, "You are Player 2, Merlin.")
    assert [m["text"] for m in pool["messages"]] == ["You are Player 2, Merlin.", "Player 3: I am Merlin.",
                                                    "Quest 1 begins."]
    assert [m["score"] for m in pool["messages"]] == [5, 3, 1]
    assert mem.ingest(pool, view(events), narrate, "ignored") is None  # nothing new
    later = mem.ingest(pool, view([{"type": "utterance", "speaker": 2, "text": "Hello.", "round": 1}],
                                  first_event=2), narrate, "ignored")
    assert later["messages"][-1]["text"] == "Player 2 (you): Hello." and later["seen"] == 3


def test_freshness_and_informativeness_pick_the_last_k_and_the_top_n_before_them():
    scores = [5, 1, 4, 1, 3, 1, 1, 2, 1, 1]
    pool = {"messages": [{"text": f"m{i}", "round": 1, "score": s} for i, s in enumerate(scores)]}
    assert mem.freshness(pool, 3) == ["m7", "m8", "m9"]
    assert mem.informative(pool, 3, 3) == ["m0", "m2", "m4"]  # in game order
    assert mem.informative(pool, 3, 0) == []


MEMORY = [
    "You are Player 4, the Guard.",
    "Player 1: Good morning everyone, let us find the wolves.",
    "Player 3 died last night.",
    "Player 2: I am the Seer. Last night I checked Player 6 and Player 6 is a werewolf.",
    "Player 5: I agree with Player 1.",
    "Player 6: Player 2 is lying, I am a simple villager.",
    "Player 7: The weather in this village is nice.",
    "Player 1: I vote for Player 6.",
    "Player 5: The witch should save her antidote for later nights.",
    "Player 6 was eliminated by the vote.",
]


def test_retrieval_returns_the_messages_relevant_to_each_question():
    messages = [{"text": t, "round": 1, "score": 1} for t in MEMORY]
    index = mem.MemoryIndex("test-retrieval|1|4", embedder())
    found, seconds = index.retrieve(messages, ["Which player claimed to be the seer?",
                                               "Who died during the night?",
                                               "Should the witch use her antidote?"], 3)
    assert MEMORY[3] in found[0][:2]
    assert MEMORY[2] in found[1][:2]
    assert found[2][0] == MEMORY[8]
    assert all(len(f) == 3 for f in found) and len(seconds) == 3 and all(s >= 0 for s in seconds)


def test_retrieval_sees_only_the_messages_its_pool_holds():
    messages = [{"text": t, "round": 1, "score": 1} for t in MEMORY]
    index = mem.MemoryIndex("test-rewind|1|4", embedder())
    index.retrieve(messages, ["Which player claimed to be the seer?"], 2)
    rewound = messages[:3]  # a game resumed from an earlier checkpoint: the later messages are not its memory
    found, _ = index.retrieve(rewound, ["Which player claimed to be the seer?"], 5)
    assert set(found[0]) <= set(MEMORY[:3]) and len(found[0]) == 3
