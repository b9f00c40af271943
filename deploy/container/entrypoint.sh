#!/bin/bash
# mosquitto in the background, the pit dashboard in the foreground; either dying stops the container.
set -eu
mosquitto -c /etc/mosquitto/mosquitto.conf &
broker=$!
runuser -u croupier -- /opt/croupier/venv/bin/croupier pit --config /etc/croupier/pit.toml \
    --host 0.0.0.0 --port 8600 &
pit=$!
trap 'kill "$broker" "$pit" 2>/dev/null' TERM INT
wait -n 2>/dev/null || wait "$pit"
kill "$broker" "$pit" 2>/dev/null || true
