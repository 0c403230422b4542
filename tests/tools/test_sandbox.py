"""The CodeAct interpreter's sandbox: every hostile program is stopped, reported as an error, within its limit,
with no effect on the host; a benign program keeps its variables between calls (issue 15,
docs/agents/codeact.md#the-sandbox)."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

from roundtable.tools.python_repl import PythonREPLTool, sanitize_input
from roundtable.tools.sandbox import REQUIRED_LAYERS, Sandbox, SandboxLimits, isolation

PROJECT = Path(__file__).resolve().parents[2]
LIMITS = SandboxLimits(timeout=3.0, memory_mib=256, cpu_seconds=20, output_chars=2000)


@pytest.fixture(scope="module")
def box():
    with Sandbox(LIMITS) as sandbox:
        sandbox.start()
        yield sandbox


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def _processes_in_group(pgid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def test_every_required_layer_is_in_force():
    layers = isolation()
    assert layers["status"].startswith("ok"), layers
    for layer in REQUIRED_LAYERS:
        assert not layers[layer].startswith("unavailable"), layers


def test_variables_persist_between_calls_and_reset_forgets_them(box):
    assert box.run("team = [1, 4]\nimport math").ok
    result = box.run("print(sorted(team), math.comb(7, 2))")
    assert (result.output, result.error) == ("[1, 4] 21\n", None)
    box.reset()
    assert "NameError" in box.run("print(team)").error


def test_an_exception_comes_back_as_a_traceback_with_the_programs_lines(box):
    result = box.run("x = 1\ny = [1, 2][5]\n")
    assert result.output == "" and not result.ok
    assert "IndexError: list index out of range" in result.error
    assert "y = [1, 2][5]" in result.error
    assert "worker.py" not in result.error


def test_a_syntax_error_shows_the_programs_line_and_nothing_of_the_host(box):
    # The worker's own frame (a path of the project on the host) used to head a syntax error's traceback.
    result = box.run("x = [1,\nprint(x)\n")
    assert "SyntaxError" in result.error and "<program" in result.error
    assert "worker.py" not in result.error and "roundtable" not in result.error


def test_reading_files_outside_the_scratch_space_is_refused(box, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SENTINEL-7731")
    for path in ("/etc/passwd", str(secret), str(PROJECT / "pyproject.toml")):
        result = box.run(f"print(open({path!r}).read())")
        assert "PermissionError" in result.error, (path, result)
        assert "SENTINEL" not in result.output and "root:" not in result.output
    assert "PermissionError" in box.run(f"import os; print(os.listdir({str(PROJECT)!r}))").error


def test_writing_files_outside_the_scratch_space_is_refused_and_inside_works(box, tmp_path):
    target = tmp_path / "planted.txt"
    result = box.run(f"open({str(target)!r}, 'w').write('x')")
    assert "PermissionError" in result.error
    assert not target.exists()
    assert box.run("open('notes.txt', 'w').write('ok'); print(open('notes.txt').read())").output == "ok\n"
    assert "File too large" in box.run("open('big.bin', 'wb').write(b'x' * (8 << 20))").error


def test_importing_the_project_to_read_game_state_is_refused(box, tmp_path):
    database = tmp_path / "checkpoints.sqlite"
    database.write_text("roles: player 3 is merlin")
    for code in ("import roundtable",
                 f"import sys; sys.path.insert(0, {str(PROJECT)!r}); import roundtable.games",
                 f"import sqlite3; sqlite3.connect({str(database)!r}).execute('select 1')",
                 f"print(open({str(database)!r}).read())"):
        result = box.run(code)
        assert not result.ok and "merlin" not in result.output, (code, result)
        assert any(e in result.error for e in ("ModuleNotFoundError", "PermissionError", "OperationalError",
                                                 "ImportError")), (code, result.error)


def test_network_connections_are_refused_and_none_is_made(box):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        try:
            accepted.append(server.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    for code in (f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=1)",
                 "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('8.8.8.8', 53))",
                 "import socket; socket.socket(socket.AF_UNIX).connect('/run/any.sock')"):
        result = box.run(code)
        assert "PermissionError" in result.error or "OSError" in result.error, (code, result)
    thread.join()
    server.close()
    assert accepted == []


def test_starting_processes_or_forking_is_refused_and_leaves_nothing_behind(box, tmp_path):
    before = _processes_in_group(box.pid)
    for code in ("import os; os.fork()", "import subprocess; subprocess.run(['true'])",
                 f"import os; os.system('touch {tmp_path}/x')", "import os; os.execv('/bin/true', ['true'])",
                 "import threading; threading.Thread(target=print).start()",
                 "import multiprocessing; multiprocessing.Process(target=print).start()"):
        result = box.run(code)
        assert not result.ok, code
        assert any(e in result.error for e in ("PermissionError", "RuntimeError", "OSError")), (code, result.error)
    assert _processes_in_group(box.pid) == before == [box.pid]
    assert not (tmp_path / "x").exists()


def test_signals_to_other_processes_are_refused(box):
    assert "PermissionError" in box.run(f"import os; os.kill({os.getpid()}, 9)").error


def test_an_infinite_loop_is_stopped_at_the_time_limit_the_group_killed_and_the_worker_replaced(box):
    box.run("kept = 1")
    old = box.pid
    began = time.perf_counter()
    result = box.run("while True:\n    pass\n")
    elapsed = time.perf_counter() - began
    assert "TimeoutError" in result.error and result.restarted
    assert LIMITS.timeout <= elapsed < LIMITS.timeout + 5
    assert not _alive(old) and _processes_in_group(old) == []
    after = box.run("print('still playing')")
    assert after.output == "still playing\n" and box.pid != old
    assert "NameError" in box.run("print(kept)").error


def test_cpu_time_is_limited_over_the_workers_life():
    # The wall-clock limit is far away, so the CPU-time limit is what stops it (even on a loaded machine,
    # where one CPU second may take several seconds of wall time).
    with Sandbox(SandboxLimits(timeout=60.0, cpu_seconds=1)) as sandbox:
        began = time.perf_counter()
        result = sandbox.run("while True:\n    pass\n")
        assert "died" in result.error and "CPU-time" in result.error and time.perf_counter() - began < 60
        assert sandbox.run("print(2)").output == "2\n"


def test_allocating_gigabytes_is_a_memory_error(box):
    result = box.run("block = bytearray(3 * 2**30)")
    assert "MemoryError" in result.error
    assert box.run("print('fine')").output == "fine\n"


def test_a_flood_of_output_is_truncated(box):
    result = box.run("print('x' * 10**6)\nimport os; os.write(1, b'y' * 10**6)")
    assert len(result.output) < LIMITS.output_chars + 100
    assert "[output truncated: " in result.output
    assert "y" not in result.output


def test_the_tool_has_the_python_repl_interface():
    tool = PythonREPLTool(sandbox=Sandbox(LIMITS))
    try:
        assert tool.name == "Python_REPL"
        assert tool.invoke("```python\nteam = [2, 5]\nprint(team)\n```") == "[2, 5]\n"
        assert tool.invoke("print(len(team))") == "2\n"
        assert tool.invoke("print(1)\n1/0").startswith("1\nTraceback")
        tool.reset()
        assert "NameError" in tool.invoke("team")
    finally:
        tool.sandbox.close()
    assert sanitize_input("  ```python\nprint(1)\n```  ") == "print(1)"


def test_the_pool_keeps_one_worker_per_agent_and_retires_the_least_recently_used(monkeypatch):
    from roundtable.tools.sandbox import pool

    monkeypatch.setattr(pool, "MAX_WORKERS", 2)
    try:
        a = pool.sandbox_for("test:a", LIMITS)
        assert pool.sandbox_for("test:a", LIMITS) is a
        a.run("x = 1")
        b = pool.sandbox_for("test:b", LIMITS)
        b.run("pass")
        pool.sandbox_for("test:a", LIMITS)  # a is now the most recently used
        old_b = b.pid
        pool.sandbox_for("test:c", LIMITS)
        assert b.pid is None and not _alive(old_b), "b was retired and its worker killed"
        assert a.run("print(x)").output == "1\n", "a kept its worker"
    finally:
        pool.close_all()


def test_scratch_left_by_a_killed_game_process_is_removed_and_a_live_ones_is_kept(tmp_path):
    import subprocess
    import sys

    from roundtable.tools.sandbox.client import SCRATCH_PREFIX, remove_stale_scratch

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f"{SCRATCH_PREFIX}{gone.pid}-abc"
    live = tmp_path / f"{SCRATCH_PREFIX}{os.getpid()}-def"
    other = tmp_path / f"{SCRATCH_PREFIX}notapid"
    for path in (stale, live, other):
        path.mkdir()
    (stale / "left.txt").write_text("x")
    assert remove_stale_scratch(str(tmp_path)) == [str(stale)]
    assert not stale.exists() and live.exists() and other.exists()
