"""Shared test fixtures: the real mosquitto broker lives in tests/fixtures/mosquitto.py.

Hypothesis runs without per-example deadlines and without the "too slow" health check: the
suite must pass on a loaded 2-core machine, where generating data is slow for reasons that
have nothing to do with the code under test.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "loaded-machine",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("loaded-machine")

pytest_plugins = ["tests.fixtures.mosquitto"]
