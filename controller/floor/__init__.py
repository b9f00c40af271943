"""The floor's memory as the faces read it: what a store of every table's rounds, alerts and
gaming days answers (``store.FloorStore``), with small frozen results. The back office
implements it over PostgreSQL (controller/backoffice/floor_store.py); the pit dashboard reads
it for its history and to show the gaming day again after a restart. Nothing here does I/O."""
