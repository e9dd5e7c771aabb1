"""Leaderboard models (nightly rank snapshots arrive with the ranking issue)."""
