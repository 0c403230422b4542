"""The game side of the sandbox: one long-lived worker process per agent, spoken to in JSON over a pipe.

Programs never run in the game's process: `Sandbox.run` sends the code to a
worker (`roundtable.tools.sandbox.worker`) that has confined itself
(`roundtable.tools.sandbox.confine`) and waits at most ``timeout`` seconds of
wall-clock time. A worker that overruns, dies (its CPU-time limit) or answers
garbage is killed with its whole process group and replaced on the next run;
the program's variables are lost and the error says so. The sandbox refuses
to run anything when a layer it requires could not be put in force.
A game process killed before it could remove its workers' scratch
directories leaves them behind; the next worker started on the machine
removes those whose game process is gone (`remove_stale_scratch`).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

WORKER = Path(__file__).with_name("worker.py")
REQUIRED_LAYERS = ("limits", "files", "syscalls")
"""Layers without which no program runs: resource limits, Landlock's file rules, the seccomp filter.
The namespaces add a network-less network namespace; without them, sockets are still denied by seccomp."""


class SandboxUnavailable(RuntimeError):
    """A required isolation layer could not be put in force on this machine (the message says which and why)."""


SCRATCH_PREFIX = "roundtable-sandbox-"
"""Scratch directories are ``<tmp>/roundtable-sandbox-<pid of the game process>-<random>``."""


def remove_stale_scratch(directory: str | None = None) -> list[str]:
    """Remove the scratch directories whose game process is gone (killed before it could remove them).

    Args:
        directory: where scratch directories are made (default: the system's temporary directory).

    Returns:
        The paths removed.
    """
    removed = []
    for path in Path(directory or tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*-*"):
        pid = path.name[len(SCRATCH_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(str(path))
    return removed


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user's counts: signalling it is refused, not unknown)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


@dataclass(frozen=True)
class SandboxLimits:
    """Limits of one worker.

    Attributes:
        timeout: wall-clock seconds a program may run before the worker is killed.
        memory_mib: address-space limit of the worker, in MiB.
        cpu_seconds: CPU seconds the worker may use over its life (then it dies and is replaced).
        file_kib: largest file the program may write in its scratch directory, in KiB.
        output_chars: printed output and error text kept per run, in characters.
    """

    timeout: float = 10.0
    memory_mib: int = 512
    cpu_seconds: int = 120
    file_kib: int = 1024
    output_chars: int = 4000


@dataclass
class RunResult:
    """What one program did.

    Attributes:
        output: what it printed (truncated to ``output_chars``).
        error: the traceback of its exception, or the sandbox's own report
            (timeout, worker died, sandbox unavailable); ``None`` when it ran to the end.
        seconds: wall-clock time of the run, start of a new worker included.
        restarted: the worker was replaced during or after this run (variables lost).
    """

    output: str = ""
    error: str | None = None
    seconds: float = 0.0
    restarted: bool = False

    @property
    def ok(self) -> bool:
        """The program ran to the end without an exception."""
        return self.error is None


@dataclass
class Sandbox:
    """A sandboxed Python interpreter: variables persist between `run` calls until `reset`.

    Args:
        limits: the worker's `SandboxLimits`.

    Attributes:
        layers: what isolation is in force, ``{layer: description}`` (after the first start).
        start_seconds: wall-clock time of the last worker start.

    Raises (from `run`'s first call, and `start`):
        SandboxUnavailable: a required layer is missing; nothing is run.
    """

    limits: SandboxLimits = field(default_factory=SandboxLimits)
    layers: dict[str, str] = field(default_factory=dict)
    start_seconds: float = 0.0
    _process: subprocess.Popen | None = None
    _scratch: str | None = None
    _buffer: bytes = b""
    _last_exit: int | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------ lifecycle

    def start(self) -> dict[str, str]:
        """Start a worker (if none runs) and return the layers in force.

        Raises:
            SandboxUnavailable: a required layer could not be applied, or the worker did not start.
        """
        if self._process is not None and self._process.poll() is None:
            return self.layers
        began = time.perf_counter()
        remove_stale_scratch()
        self._scratch = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")
        lim = self.limits
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-S", str(WORKER), self._scratch, str(lim.memory_mib << 20),
             str(lim.cpu_seconds), str(lim.file_kib << 10), str(lim.output_chars)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=self._scratch, env={"PYTHONHASHSEED": "0", "LANG": "C.UTF-8"},
            start_new_session=True, close_fds=True,
        )
        self._buffer = b""
        hello = self._reply(max(lim.timeout, 10.0))
        if not hello or not hello.get("ready"):
            self._kill()
            raise SandboxUnavailable("the sandbox worker did not start")
        self.layers = dict(hello.get("layers") or {})
        self.start_seconds = time.perf_counter() - began
        missing = [f"{k} ({self.layers.get(k, 'unavailable')})" for k in REQUIRED_LAYERS
                   if str(self.layers.get(k, "unavailable")).startswith("unavailable")]
        if missing:
            self._kill()
            raise SandboxUnavailable("sandbox isolation missing: " + "; ".join(missing))
        return self.layers

    def close(self) -> None:
        """Kill the worker (with its process group) and remove its scratch directory."""
        with self._lock:
            self._kill()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running worker's process id (``None``: none runs)."""
        return self._process.pid if self._process is not None and self._process.poll() is None else None

    # ------------------------------------------------------------------ use

    def run(self, code: str) -> RunResult:
        """Run ``code`` in the worker, with the variables of earlier runs since the last `reset`.

        Returns:
            A `RunResult`; a timeout, a dead worker or a garbled reply is an
            ``error`` (the worker is then killed with its process group and
            replaced on the next call).

        Raises:
            SandboxUnavailable: the worker cannot be started with the required isolation.
        """
        with self._lock:
            began = time.perf_counter()
            restarted = self._process is None or self._process.poll() is not None
            if restarted and self._process is not None:
                self._kill()
            self.start()
            reply = self._send({"op": "run", "code": code}, self.limits.timeout)
            seconds = time.perf_counter() - began
            if reply is None:
                dead = self._process is not None and self._process.poll() is not None
                self._kill()
                why = (f"the worker died (exit status {self._last_exit}): its CPU-time or memory limit" if dead
                       else f"TimeoutError: the program ran longer than {self.limits.timeout:g} s and was stopped")
                return RunResult(error=f"{why}; variables defined before are lost", seconds=seconds,
                                 restarted=True)
            return RunResult(output=str(reply.get("output") or ""), error=reply.get("error"), seconds=seconds,
                             restarted=restarted)

    def reset(self) -> None:
        """Forget every variable (a new decision starts clean); starts no worker if none runs."""
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                if self._send({"op": "reset"}, self.limits.timeout) is None:
                    self._kill()

    # ------------------------------------------------------------- plumbing

    def _send(self, message: dict, timeout: float) -> dict | None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write((json.dumps(message) + "\n").encode())
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        return self._reply(timeout)

    def _reply(self, timeout: float) -> dict | None:
        """One JSON line from the worker within ``timeout`` seconds; ``None`` on timeout, EOF or garbage."""
        assert self._process is not None and self._process.stdout is not None
        fd = self._process.stdout.fileno()
        deadline = time.monotonic() + timeout
        cap = self.limits.output_chars * 16 + 4096
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or len(self._buffer) > cap:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                self._process.wait(timeout=5)
                self._last_exit = self._process.returncode
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            return None
        return reply if isinstance(reply, dict) else None

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                process.wait(timeout=5)
                self._last_exit = process.returncode
            except subprocess.TimeoutExpired:
                pass
            for stream in (process.stdin, process.stdout):
                try:
                    stream and stream.close()
                except OSError:
                    pass
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
