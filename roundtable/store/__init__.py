"""What a game leaves on disk: the data directory's paths, the game records, the transcript and the replay page."""
