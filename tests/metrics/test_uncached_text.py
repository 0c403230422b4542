"""``benchmarks/uncached_text.py``: the text each call processes anew, split into task and record lines."""

from __future__ import annotations

from benchmark_scripts import load_script


def script():
    return load_script("uncached_text")


def call(module: str, text: str) -> dict:
    return {"module": module, "prompt": [{"role": "system", "content": "Rules."}, {"role": "human", "content": text}]}


def test_a_call_counts_what_follows_the_players_previous_prompt_and_its_task_from_the_last_host_paragraph() -> None:
    first = "Private.\n\nQuest 1 so far:\nHost: Player 2 leads.\n\nHost: Player 1, speak. Say words."
    second = ("Private.\n\nQuest 1 so far:\nHost: Player 2 leads.\nPlayer 1: Hi.\nPlayer 3: Yo.\n\n"
              "Host: Player 1, vote. Answer approve or reject.")
    other = "Private 2.\n\nHost: Player 2, propose."
    record = {"decisions": [
        {"player": 1, "kind": "speak", "usage": {"log": [call("respond", first)]}},
        {"player": 2, "kind": "propose_team", "usage": {"log": [call("act", other)]}},
        {"player": 1, "kind": "vote_team", "usage": {"log": [call("act", second)]}},
    ]}
    calls, new, task = script().new_text([record])
    assert dict(calls) == {("vote_team", "act"): 1}  # first calls of each player are left out
    fresh = second[second.index("Player 1: Hi."):]  # the previous prompt ended its paragraph with the same "\n"
    assert new[("vote_team", "act")] == len(fresh)
    assert task[("vote_team", "act")] == len("\n\nHost: Player 1, vote. Answer approve or reject.")


def test_a_data_directory_s_forks_are_left_out_and_a_fork_named_alone_is_kept(tmp_path) -> None:
    import json

    records = tmp_path / "records"
    records.mkdir()
    game = {"game_id": "avalon-a", "decisions": []}
    fork = {"game_id": "avalon-b", "fork_of": {"game_id": "avalon-a", "step": 9}, "decisions": []}
    (records / "avalon-a.json").write_text(json.dumps(game))
    (records / "avalon-b.json").write_text(json.dumps(fork))
    files = script().record_files
    assert [f.name for f in files([str(tmp_path)])] == ["avalon-a.json"]
    assert [f.name for f in files([str(records)])] == ["avalon-a.json"]
    assert [f.name for f in files([str(records / "avalon-b.json")])] == ["avalon-b.json"]
