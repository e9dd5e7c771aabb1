"""Accounts: users, profiles (游戏币, 实力积分), levels and the inbox (站内信)."""
