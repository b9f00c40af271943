"""The table's runtime: the pure table (controller/table/) driven live (docs/architecture.md).

``loop`` journals each input, steps the core and carries the effects out (``outage``: a full
disk; ``admission``: rate limits per source); ``recovery`` replays the journal on start from the
last ``snapshot``; ``devices``, ``wheel`` and ``spots`` open the configured devices.
"""
