"""Shared test fixtures: the real mosquitto broker lives in tests/fixtures/mosquitto.py."""

pytest_plugins = ["tests.fixtures.mosquitto"]
