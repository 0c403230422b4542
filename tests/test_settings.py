"""roundtable.settings: every ROUNDTABLE_* variable read in one place, at call time."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

import roundtable
from roundtable.settings import Settings, data_home, local_server_settings, settings

PACKAGE = Path(roundtable.__file__).parent
VARIABLES = ["ROUNDTABLE_HOME", "ROUNDTABLE_MODEL", "ROUNDTABLE_MODEL_CACHE", "ROUNDTABLE_SERVER_API_KEY",
             "ROUNDTABLE_JSON_SCHEMA", "ROUNDTABLE_API_KEY", "OPENAI_API_KEY"]


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in [*VARIABLES, *(n for n in os.environ if n.startswith("ROUNDTABLE_LOCAL_"))]:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_defaults(clean: pytest.MonkeyPatch) -> None:
    env = settings()
    assert (env.home, env.model, env.model_cache, env.server_api_key, env.json_schema, env.api_key) == (
        None, "local", None, None, "", None)
    assert local_server_settings().model_dump() == dict.fromkeys(local_server_settings().model_dump())


def test_read_at_call_time(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean.setenv("ROUNDTABLE_HOME", str(tmp_path))
    clean.setenv("ROUNDTABLE_MODEL", "gpt-4o-mini")
    clean.setenv("ROUNDTABLE_SERVER_API_KEY", "secret")
    env = settings()
    assert (env.home, env.model) == (tmp_path, "gpt-4o-mini")
    assert env.server_api_key is not None and env.server_api_key.get_secret_value() == "secret"
    assert "secret" not in repr(env)
    clean.setenv("ROUNDTABLE_MODEL", "")
    assert settings().model == "local"  # empty counts as unset


def test_names_are_case_sensitive(clean: pytest.MonkeyPatch) -> None:
    clean.setenv("roundtable_model", "gpt-4o-mini")
    assert settings().model == "local"


def test_local_server_integers(clean: pytest.MonkeyPatch) -> None:
    clean.setenv("ROUNDTABLE_LOCAL_PARALLEL", "3")
    clean.setenv("ROUNDTABLE_LOCAL_CTX", " 8192 ")
    clean.setenv("ROUNDTABLE_LOCAL_PORT", "")
    env = local_server_settings()
    assert (env.parallel, env.ctx, env.port) == (3, 8192, None)


def test_local_server_first_malformed_variable_is_named(clean: pytest.MonkeyPatch) -> None:
    clean.setenv("ROUNDTABLE_LOCAL_PORT", "x")
    clean.setenv("ROUNDTABLE_LOCAL_THREADS", "two")
    with pytest.raises(ValueError) as raised:
        local_server_settings()
    assert str(raised.value) == "$ROUNDTABLE_LOCAL_THREADS must be an integer, got 'two'"
    assert settings().model == "local"  # the other settings still read


def test_data_home_sets_and_restores(clean: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with data_home(tmp_path / "a"):
        assert settings().home == tmp_path / "a"
        clean.setenv("ROUNDTABLE_HOME", str(tmp_path / "b"))
        with data_home(tmp_path / "c"):
            assert os.environ["ROUNDTABLE_HOME"] == str(tmp_path / "c")
        assert settings().home == tmp_path / "b"
    assert "ROUNDTABLE_HOME" not in os.environ


def test_every_field_is_documented() -> None:
    doc = Settings.__doc__ or ""
    for name, field in Settings.model_fields.items():
        assert f"{name}: ``{field.validation_alias}``" in doc


def test_settings_imports_nothing_from_roundtable() -> None:
    tree = ast.parse((PACKAGE / "settings.py").read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.split(".")[0] == "roundtable"]


def test_no_other_module_reads_a_roundtable_variable() -> None:
    read = re.compile(r"""(environ\.get\(|environ\[|getenv\()\s*["'](ROUNDTABLE_|OPENAI_API_KEY)""")
    readers = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
               if path.name != "settings.py" and read.search(path.read_text())]
    assert readers == []
