"""The floor layer: what the pit, the back office and protection share (statistics, the gaming
day, the reports' CSV), so no face imports another (docs/architecture.md); and the floor's memory
as the faces read it (``store.FloorStore``, with small frozen results): the back office implements
it over PostgreSQL (controller/backoffice/floor_store.py), the pit dashboard reads it for its
history and to show the gaming day again after a restart. Nothing here does I/O."""
