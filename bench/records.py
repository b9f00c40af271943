"""Reading the feed through the record contract: messages per second of the pit's intake
(``controller.pit.intake.check``) and of the back office's parse (``controller.backoffice.records.
parse``) on real round records and alerts, in this tree and in another revision's, side by side,
with ``json.loads`` alone on the same bytes as the floor both stand on.

The messages are the journaled records of tests/unit/records/journaled.jsonl (every game, voids,
a dozen alert codes) under the feed's envelope, as ``controller.feed.messages`` publishes them.
Each tree runs in its own subprocess with that tree on ``PYTHONPATH`` (the revision checked out
with ``git worktree add --detach``, removed afterwards); both read this tree's messages.

    python bench/records.py [--rev 8a7fbe4] [--seconds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.compare_revisions import checkout, remove_checkout  # noqa: E402

#: the code before the record contract
DEFAULT_REV = "8a7fbe4"

#: one tree's figures, one JSON line out; argv: messages file, seconds
RUNNER = """
import json, sys, time
from controller.backoffice.records import Rejected, parse
from controller.pit.intake import check
messages = [(m["table"], m["leaf"], m["payload"].encode()) for m in json.load(open(sys.argv[1]))]
seconds = float(sys.argv[2])

def rate(step):
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for table, leaf, payload in messages:
            step(table, leaf, payload)
        done += len(messages)
    return done / (time.perf_counter() - start)

def backoffice(table, leaf, payload):
    rows = parse(f"croupier/{table}/{leaf}", payload)
    assert not any(isinstance(r, Rejected) for r in rows), rows

for table, leaf, payload in messages:
    check(table, leaf, payload)
    backoffice(table, leaf, payload)
print(json.dumps({"json_loads": rate(lambda t, l, p: json.loads(p)), "pit_intake": rate(check),
                  "backoffice_parse": rate(backoffice)}))
"""


def messages() -> list[dict[str, Any]]:
    """The feed's ``round`` and ``alert`` messages of the journaled fixture."""
    from controller.feed import Topics
    from controller.feed.messages import entry_messages
    from controller.journal import Entry

    rows = [json.loads(line) for line in (ROOT / "tests" / "unit" / "records" / "journaled.jsonl").read_text().splitlines()]
    tables = {r["journal"]: json.loads(r["payload"])["table"] for r in rows if r["kind"] == "round_closed"}
    out = []
    for r in rows:
        entry = Entry(r["seq"], r["ts"], r["round"], r["kind"], r["source"], json.loads(r["payload"]))
        for m in entry_messages(Topics(tables[r["journal"]]), entry):
            leaf = m.topic.rsplit("/", 1)[1]
            if leaf in ("round", "alert"):
                out.append({"table": tables[r["journal"]], "leaf": leaf, "payload": m.payload.decode()})
    return out


def measure(tree: Path, file: Path, seconds: float) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", RUNNER, str(file), str(seconds)], cwd=tree, check=True,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rev", default=DEFAULT_REV)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="records-bench-") as tmp:
        file = Path(tmp) / "messages.json"
        sent = messages()
        file.write_text(json.dumps(sent))
        before = Path(tmp) / "before"
        checkout(args.rev, before)
        try:
            out = {"messages": len(sent), "rounds": sum(m["leaf"] == "round" for m in sent),
                   args.rev: measure(before, file, args.seconds), "tree": measure(ROOT, file, args.seconds)}
        finally:
            remove_checkout(before)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['messages']} messages ({out['rounds']} rounds, the rest alerts), messages/s:")
    print(f"{'':18}{args.rev:>12}{'tree':>12}")
    for key in ("json_loads", "pit_intake", "backoffice_parse"):
        print(f"{key:18}{out[args.rev][key]:>12,.0f}{out['tree'][key]:>12,.0f}")


if __name__ == "__main__":
    main()
