"""Admin registrations for leaderboard models (none yet)."""
