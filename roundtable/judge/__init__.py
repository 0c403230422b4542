"""The social-behaviour judge: a model reads a finished game's words and labels what its players did with them
(docs/judge.md).

After Lan et al. 2024 (§5.2.2, §6) for Avalon: deception (each player's role claim in the first round),
teamwork and confrontation (each speaker's stance towards the players it names, per round and role pair, and
how it changes between rounds), and sharing (how much of Merlin's and Percival's private knowledge they give
away in the first round); after Xu et al. 2023 (§5) for Werewolf: trust, confrontation and camouflage per side.

Modules: `transcript` (what the judge reads of a record), `answers` (the questions and how a reply is read),
`store` (the judgements cached beside the record), `protocol` (a game's behaviours, `GameJudge`, and the
``roundtable.judges`` entry points), `measures` (the tables), `context` and `graph` (the judge as a LangGraph
graph), `run` (judging records), and `avalon` and `werewolf` (each game's behaviours).
"""
