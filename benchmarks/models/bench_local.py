"""Speed of the embedded model: start-up, a fresh long prompt, calls reusing its prefix.

Runs through the same path as a game (``local_server()`` and ``chat_model``):

1. checks/assembles the weights and starts the server;
2. one call with a fresh ~1,500-token prompt (a game log), writing up to 40 tokens;
3. five calls sharing that prefix with different final questions, 40 tokens each;
4. four such calls at once (a fan-out such as a team vote).

Usage::

    ROUNDTABLE_MODEL_CACHE=/tmp/models python benchmarks/models/bench_local.py [--slots N]

``--slots`` sets ``ROUNDTABLE_LOCAL_PARALLEL`` (llama.cpp slots) to compare settings.
"""

from __future__ import annotations

import argparse
import contextvars
import os
import time
from concurrent.futures import ThreadPoolExecutor

from roundtable.models import Usage, chat_model, collect_usage, parse_model_spec
from roundtable.models.local import local_server
from roundtable.models.weights import ensure_weights

QUESTIONS = [
    "Which player seems most suspicious, and why?",
    "Which two players would you trust on the next quest?",
    "Summarize what happened in round 2.",
    "Who do you think Merlin is?",
    "Should the current team be approved? Explain.",
    "Which player voted most inconsistently?",
    "What should the next leader propose?",
    "Who is most likely the Assassin?",
    "Which quest result surprised you most?",
    "Which player talks the least, and what does it suggest?",
]


def game_log(rounds: int = 5) -> str:
    """A deterministic Avalon-like log of about 1,500 tokens (for 5 rounds)."""
    lines = ["You are Player 4 in a game of Avalon with 7 players. Here is the game so far."]
    for r in range(1, rounds + 1):
        for attempt in range(1, 4):
            leader = (r * 3 + attempt) % 7 + 1
            team = sorted({leader, (leader + r) % 7 + 1, (leader + 2 * attempt) % 7 + 1})
            votes = ", ".join(f"Player {p}: {'approve' if (p + r + attempt) % 3 else 'reject'}" for p in range(1, 8))
            lines.append(
                f"Round {r}, proposal {attempt}: leader Player {leader} proposed Players {team}. Votes: {votes}."
            )
            lines.append(
                f"Player {leader} said: I chose this team because Players {team} acted consistently so far "
                f"and I want to test whether round {r} goes differently from the last one."
            )
        lines.append(f"Quest {r} {'succeeded' if r % 2 else 'failed with 1 fail card'}.")
    return "\n".join(lines)


def print_table(rows: list[tuple[str, Usage, float]]) -> None:
    """Print ``(name, usage, seconds)`` rows: latency, tokens, cached share, end-to-end rates."""
    columns = ("seconds", "prompt", "cached", "share", "new in/s", "output", "out/s")
    header = f"{'call':24}" + "".join(f"{c:>9}" for c in columns)
    print(header, "-" * len(header), sep="\n")
    for name, usage, seconds in rows:
        new_tokens = usage.prompt_tokens - usage.cached_tokens
        print(
            f"{name:24}{seconds:9.2f}{usage.prompt_tokens:9d}{usage.cached_tokens:9d}{usage.cached_share:9.0%}"
            f"{new_tokens / seconds:9.1f}{usage.completion_tokens:9d}{usage.completion_tokens / seconds:9.1f}"
        )
    print("new in/s: uncached prompt tokens per second; out/s: output tokens per second (both end to end)")


def main() -> None:
    """Run the benchmark and print one table (seconds, tokens, tokens per second)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slots", type=int, help="llama.cpp parallel slots (ROUNDTABLE_LOCAL_PARALLEL)")
    parser.add_argument("--max-tokens", type=int, default=40, help="tokens each call may write")
    args = parser.parse_args()
    if args.slots:
        os.environ["ROUNDTABLE_LOCAL_PARALLEL"] = str(args.slots)

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other work skews the numbers)")
    started = time.perf_counter()
    ensure_weights()
    weights_seconds = time.perf_counter() - started
    server = local_server()
    print(f"weights ready in {weights_seconds:.1f} s; server started in {server.startup_seconds:.1f} s")
    print(f"settings: {server.settings}")

    model = chat_model(parse_model_spec("local"), 0.3, args.max_tokens)
    prefix = game_log()

    def ask(question: str) -> Usage:
        started = time.perf_counter()
        reply = model.invoke([("system", prefix), ("user", question)])
        return Usage.from_message(reply, time.perf_counter() - started)

    fresh = ask(QUESTIONS[0])
    rows = [("fresh prompt", fresh, fresh.seconds)]
    shared = [ask(question) for question in QUESTIONS[1:6]]
    rows += [(f"shared prefix {i}", usage, usage.seconds) for i, usage in enumerate(shared, start=1)]
    total = sum(shared, Usage())
    rows.append(("shared prefix, all 5", total, total.seconds))

    with collect_usage() as burst, ThreadPoolExecutor(4) as pool:
        contexts = [contextvars.copy_context() for _ in range(4)]  # copied where collect_usage is active
        started = time.perf_counter()
        list(pool.map(lambda ctx, q: ctx.run(ask, q), contexts, QUESTIONS[6:10]))
        wall = time.perf_counter() - started
    rows.append(("4 concurrent (wall)", burst.total, wall))

    print_table(rows)
    print(f"mean latency with a shared prefix: {total.seconds / 5:.2f} s; load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
