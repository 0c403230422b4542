"""The sandbox worker: a separate Python process that confines itself, then runs programs sent over a pipe.

Started by `roundtable.tools.sandbox.client.Sandbox` as ``python -I -S worker.py
SCRATCH MEMORY CPU FILE OUTPUT`` (isolated mode: no site-packages, no
environment, no current directory on the path, so the project is not
importable), in a new session (its own process group), with the scratch
directory as working directory. It imports nothing of the project: its only
neighbour is `confine`, loaded before the confinement closes the project's
files.

Protocol (one JSON object a line): the worker first writes ``{"ready": true,
"layers": {layer: description or "unavailable: why"}}``; then for every
``{"op": "run", "code": str}`` it answers ``{"output": str, "error": str |
null}`` (printed output, cut to OUTPUT characters; the traceback of an
exception, with the program's own lines), and for ``{"op": "reset"}`` it
forgets every variable and answers ``{"output": "", "error": null}``.
Variables persist between runs until a reset, as in LangChain's ``PythonREPL``.
"""

import io
import json
import linecache
import os
import sys
import traceback


def _confine(scratch, memory, cpu, file_size):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import confine  # noqa: E402  (the sibling module, before the files close)

    sys.path.pop(0)
    layers = {}
    steps = (
        ("limits", lambda: confine.set_limits(memory, cpu, file_size)),
        ("namespaces", confine.unshare_namespaces),
        ("files", lambda: confine.landlock(scratch)),
        ("syscalls", confine.seccomp_filter),
    )
    for name, step in steps:
        try:
            layers[name] = step()
        except OSError as error:
            layers[name] = f"unavailable: {error}"
    return layers


def _no_shell(command):
    """``os.system`` returns -1 when the seccomp filter refuses to fork: say so as an error the program sees."""
    raise PermissionError(1, "Operation not permitted: no processes may be started in the sandbox", command)


def _truncate(text, limit):
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[output truncated: {len(text) - limit} more characters]"


def _run(code, namespace, counter, limit):
    name = f"<program {counter}>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    out = io.StringIO()
    sys.stdout = sys.stderr = out
    error = None
    try:
        exec(compile(code, name, "exec"), namespace)  # noqa: S102  (this process is the sandbox)
    except BaseException as exc:  # noqa: BLE001  (everything the program raises is its error)
        frames = traceback.extract_tb(exc.__traceback__)
        keep = [f for f in frames if f.filename.startswith("<program")]  # never the worker's own frames
        error = "Traceback (most recent call last):\n" + "".join(traceback.format_list(keep)) if keep else ""
        error += "".join(traceback.format_exception_only(type(exc), exc))
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    text = out.getvalue()
    out.close()
    return {"output": _truncate(text, limit), "error": _truncate(error, limit) if error else None}


def main() -> None:
    """Serve requests from stdin until it closes (arguments: scratch directory, memory, CPU and file-size limits,
    output limit)."""
    scratch, memory, cpu, file_size, limit = sys.argv[1], *map(int, sys.argv[2:6])
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # a program writing to the raw descriptors reaches nothing
        os.dup2(null, fd)
    sys.stdin = io.StringIO("")
    layers = _confine(scratch, memory, cpu, file_size)
    os.system = _no_shell
    replies.write(json.dumps({"ready": True, "layers": layers}) + "\n")
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    counter = 0
    for line in requests:
        request = json.loads(line)
        if request.get("op") == "reset":
            namespace = {"__name__": "__main__", "__builtins__": __builtins__}
            reply = {"output": "", "error": None}
        else:
            counter += 1
            reply = _run(str(request.get("code", "")), namespace, counter, limit)
        replies.write(json.dumps(reply) + "\n")


if __name__ == "__main__":
    main()
