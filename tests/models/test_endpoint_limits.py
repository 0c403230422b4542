"""The bound on concurrent model calls per endpoint (roundtable.models.limits), alone and in the chat models."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fake_endpoint import FakeEndpoint
from test_model_factory import completion

from roundtable.models import chat_model, clear_model_cache, parse_model_spec
from roundtable.models.limits import endpoint_limit, endpoint_slot, peak_calls, set_endpoint_limit


@pytest.fixture(autouse=True)
def no_limit_after():
    yield
    set_endpoint_limit(None)
    clear_model_cache()


def test_at_most_limit_calls_run_at_once_per_endpoint():
    set_endpoint_limit(2)
    running = {"a": 0, "b": 0}
    peak = {"a": 0, "b": 0}
    lock = threading.Lock()

    def call(endpoint: str) -> None:
        with endpoint_slot(endpoint):
            with lock:
                running[endpoint] += 1
                peak[endpoint] = max(peak[endpoint], running[endpoint])
            time.sleep(0.05)
            with lock:
                running[endpoint] -= 1

    with ThreadPoolExecutor(12) as pool:
        list(pool.map(call, ["a", "b"] * 6))
    assert peak == {"a": 2, "b": 2}  # each endpoint its own bound
    assert peak_calls() == {"a": 2, "b": 2}


def test_no_limit_by_default_and_bad_limits_refused():
    assert endpoint_limit() is None
    with pytest.raises(ValueError, match="1 or more"):
        set_endpoint_limit(0)


def test_chat_model_calls_hold_the_endpoints_bound():
    server = FakeEndpoint([(200, completion("ok"), {})] * 6, delay=0.1)
    try:
        set_endpoint_limit(1)
        model = chat_model(parse_model_spec(f"{server.url}#m"), temperature=0.0)
        with ThreadPoolExecutor(6) as pool:
            replies = list(pool.map(lambda _: model.invoke("hi").content, range(6)))
        assert replies == ["ok"] * 6
        assert list(peak_calls().values()) == [1]
    finally:
        server.close()
