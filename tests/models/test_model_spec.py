"""Model spec strings: the three forms, options, canonical form, and clear refusals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roundtable.models.factory import JSON_SCHEMA_ENV, supports_json_schema
from roundtable.models.spec import ModelSpec, parse_flag, parse_model_spec


def test_local() -> None:
    spec = parse_model_spec(" local ")
    assert spec == ModelSpec(kind="local", model="local")
    assert str(spec) == "local"


@pytest.mark.parametrize("name", ["gpt-4o-mini", "ft:gpt-4o-mini:org::abc123", "openai/gpt-oss-20b", "o3"])
def test_hosted_names(name: str) -> None:
    spec = parse_model_spec(name)
    assert (spec.kind, spec.model, spec.base_url) == ("openai", name, None)


def test_server_url_and_model() -> None:
    spec = parse_model_spec("http://127.0.0.1:8000/v1/#qwen2.5:7b")
    assert spec.kind == "server"
    assert spec.base_url == "http://127.0.0.1:8000/v1"
    assert spec.model == "qwen2.5:7b"
    assert str(spec) == "http://127.0.0.1:8000/v1#qwen2.5:7b"


def test_options() -> None:
    spec = parse_model_spec("https://api.example.org/v1#llama-3.1-70b?json_schema=no&max_retries=0&timeout=120")
    assert spec.json_schema is False
    assert spec.max_retries == 0
    assert spec.timeout == 120.0
    assert parse_model_spec(str(spec)) == spec
    assert parse_model_spec("local?json_schema=false").json_schema is False


def test_specs_are_hashable_cache_keys() -> None:
    assert len({parse_model_spec("local"), parse_model_spec("local"), parse_model_spec("gpt-4o")}) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty model spec"),
        ("   ", "empty model spec"),
        ("http://127.0.0.1:8000/v1", "names a server but no model: write it as http://127.0.0.1:8000/v1#MODEL"),
        ("http://127.0.0.1:8000/v1#", "names a server but no model"),
        ("http://127.0.0.1:8000/v1#?timeout=3", "names a server but no model"),
        ("ftp://example.org/v1#m", "unsupported URL scheme 'ftp'"),
        ("http:///v1#m", "has no host"),
        ("http://h:99999/v1#m", "invalid port"),
        ("http://h/v1?key=1#m", "query strings in the server URL are not supported"),
        ("gpt 4", "invalid model name 'gpt 4'"),
        ("local#x", "invalid model name"),
        ("http://h/v1#a b", "invalid model name 'a b'"),
        ("gpt-4o?colour=blue", "bad option 'colour=blue'"),
        ("gpt-4o?colour=blue", "unknown option; known: json_schema, max_retries, timeout"),
        ("gpt-4o?json_schema=maybe", "expected true or false"),
        ("gpt-4o?max_retries=many", "bad option 'max_retries=many'"),
        ("gpt-4o?max_retries=50", "expected 0..20"),
        ("gpt-4o?timeout=-1", "positive number of seconds"),
        ("gpt-4o?timeout", "needs a value"),
        ("gpt-4o?timeout=1&timeout=2", "given twice"),
        ("local?slots=65", "expected 0..64"),
    ],
)
def test_refusals_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_model_spec(text)
    assert message in str(info.value)


def test_model_validation_is_consistent() -> None:
    with pytest.raises(ValueError, match="base_url is required"):
        ModelSpec(kind="server", model="m")
    with pytest.raises(ValueError, match="the local model is named 'local'"):
        ModelSpec(kind="local", model="other")


_names = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:/+-]{0,20}", fullmatch=True).filter(lambda n: n != "local")


@given(
    name=_names,
    url=st.sampled_from([None, "http://127.0.0.1:8000/v1", "https://api.example.org/openai/v1"]),
    json_schema=st.none() | st.booleans(),
    max_retries=st.none() | st.integers(0, 20),
    timeout=st.none() | st.floats(0.5, 1e4, allow_nan=False),
    slots=st.none() | st.integers(0, 64),
)
def test_canonical_form_round_trips(
    name: str, url: str | None, json_schema: bool | None, max_retries: int | None, timeout: float | None,
    slots: int | None,
) -> None:
    spec = ModelSpec(
        kind="server" if url else "openai",
        model=name,
        base_url=url,
        json_schema=json_schema,
        max_retries=max_retries,
        timeout=timeout,
        slots=slots,
    )
    assert parse_model_spec(str(spec)) == spec


def test_parse_flag() -> None:
    assert parse_flag(" Yes ") and parse_flag("1") and not parse_flag("OFF")
    with pytest.raises(ValueError, match="expected true or false, got 'perhaps'"):
        parse_flag("perhaps")


def test_supports_json_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(JSON_SCHEMA_ENV, raising=False)
    assert supports_json_schema(parse_model_spec("local"))
    assert supports_json_schema(parse_model_spec("gpt-4o-mini"))
    assert supports_json_schema(parse_model_spec("http://h/v1#m"))
    assert not supports_json_schema(parse_model_spec("local?json_schema=false"))
    monkeypatch.setenv(JSON_SCHEMA_ENV, "false")
    assert not supports_json_schema(parse_model_spec("http://h/v1#m"))
    assert supports_json_schema(parse_model_spec("http://h/v1#m?json_schema=true"))
    assert supports_json_schema(parse_model_spec("gpt-4o-mini")), "the env only concerns servers"
    monkeypatch.setenv(JSON_SCHEMA_ENV, "sometimes")
    with pytest.raises(ValueError, match=JSON_SCHEMA_ENV):
        supports_json_schema(parse_model_spec("http://h/v1#m"))
