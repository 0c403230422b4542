"""What several agent kinds share: model calls, reading and extraction of answers, the final decision with
its fallbacks, the words checks and the Avalon table's prompt pieces. Nothing here imports a kind."""
