"""Playing one game: the runner (checkpointed, resumable), seating, the per-game lock, forks and their
comparison, and the person at the terminal who answers a human seat."""
