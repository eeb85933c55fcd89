"""Host tools, each run as `python -m tools.NAME` (deploy, sim, arena, bench, replay, ...)."""
