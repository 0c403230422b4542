"""The plugin claim kept honest (issue 60, part 4): the package built as a wheel and installed into a fresh virtual
environment (which sees roundtable's installed packages, and nothing of this checkout's plugin folder) plays a bot
game and a scripted-model game of each model kind that plays it from roundtable's command line, with no project file
edited. No network: pip installs the local wheel with ``--no-index --no-deps``; the model is a fake chat endpoint on
a loopback port."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import venv
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from roundtable.agents.registry import AGENT_KINDS

ROOT = Path(__file__).resolve().parents[1]
GAME = "secret_hitler"
MODEL_KINDS = sorted(name for name, kind in AGENT_KINDS.items() if kind.needs_model and GAME in kind.games)


def serve() -> tuple[ThreadingHTTPServer, str]:
    """A chat-completions endpoint whose every reply is one prose answer (the fallbacks make any reply legal)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers.get("content-length") or 0))
            data = json.dumps({"id": "fake", "object": "chat.completion", "created": 0, "model": "fake",
                               "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                   "role": "assistant",
                                   "content": "Thought: fine.\nChoice: 1\nWords: I back this government."}}],
                               "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1#fake?json_schema=false&max_retries=0"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The python of a fresh venv with the plugin's wheel installed and roundtable's packages visible."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"  # built from a copy: the build writes nothing into the checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-w", str(tmp / "dist"), str(source)], check=True, capture_output=True, timeout=120)
    wheel = next((tmp / "dist").glob("roundtable_secret_hitler-*.whl"))
    env = tmp / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    # roundtable and its dependencies, as installed for this interpreter (their .pth files processed)
    base = sysconfig.get_paths()["purelib"]
    Path(site, "roundtable_base.pth").write_text(f"import site; site.addsitedir({base!r})\n")
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)], check=True,
                   capture_output=True, timeout=120)
    return python


def play(python: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = "import sys; from roundtable.cli.main import app; sys.argv[0] = 'roundtable'; sys.exit(app())"
    return subprocess.run([python, "-c", code, "play", GAME, *args, "--quiet", "--json"], capture_output=True,
                          text=True, timeout=300, cwd=home, env={**clean, "ROUNDTABLE_HOME": str(home)})


def test_the_wheel_installs_apart_from_this_checkout(installed):
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run([installed, "-c", "import importlib.util as u; print(u.find_spec('roundtable_secret_hitler')"
                            ".origin)"], capture_output=True, text=True, cwd=installed.parents[1], env=clean)
    assert found.returncode == 0, found.stderr[-2000:]
    where = found.stdout
    assert str(installed.parents[1]) in where and str(ROOT) not in where


def test_the_installed_wheel_plays_a_bot_game(installed, tmp_path):
    out = play(installed, tmp_path, "--agents", "naive", "--players", "7", "--seed", "3")
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1])["winner"] in ("liberal", "fascist")


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_the_installed_wheel_plays_a_scripted_model_game(installed, tmp_path, kind):
    server, spec = serve()
    try:
        out = play(installed, tmp_path, "--agents", f"naive,1={kind}", "--model", spec, "--players", "5",
                   "--seed", "2", "--rule", "discussion=none")
    finally:
        server.shutdown()
        server.server_close()
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1])["winner"] in ("liberal", "fascist")
