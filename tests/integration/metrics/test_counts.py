"""The table's figures from real journal writes: every append timed and the head moved, bet
spots counted under one bounded ``spots`` label, device health set per device."""

from types import SimpleNamespace

from controller.journal import Journal
from controller.metrics import TableMetrics


def _value(metrics, name, **labels):
    return metrics.registry.get_sample_value(name, {"table": "T1", **labels})


def test_appends_events_and_health_are_counted(tmp_path):
    metrics = TableMetrics("T1")
    with Journal(tmp_path / "j.sqlite", exclusive=True) as journal:
        journal.observers.append(metrics.observe_append)
        entries = [journal.append("device", {"type": "press", "device": f"spot{n}", "seq": n}, source=f"spot:{n}")
                   for n in (1, 2, 3)]
        entries.append(journal.append("device", {"type": "card", "device": "shoe", "card": "QH", "n": 1},
                                      source="shoe"))
        core = SimpleNamespace(devices={"shoe": {"online": True}, "spot:1": {"online": False}})
        for entry in entries:
            metrics.applied(core, entry)
        core.devices["shoe"] = {"online": False}
        metrics.applied(core, journal.append("command", {"command": "open_betting"}, source="dealer"))
    assert _value(metrics, "croupier_journal_append_seconds_count") == 5
    assert _value(metrics, "croupier_journal_head_seq") == 5
    assert _value(metrics, "croupier_device_event_seconds_count", device="spots") == 3
    assert _value(metrics, "croupier_device_event_seconds_count", device="shoe") == 1
    assert _value(metrics, "croupier_device_online", device="shoe") == 0
    assert _value(metrics, "croupier_device_online", device="spots") == 0
