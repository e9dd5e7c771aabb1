"""Leaderboard (排行榜): players ranked by 实力积分, with their levels."""
