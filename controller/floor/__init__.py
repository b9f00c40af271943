"""The floor layer: what the pit, the back office and protection share (statistics, the gaming
day, the reports' CSV), so no face imports another (docs/architecture.md)."""
