"""Players that choose actions for a seat (托管, 报听 auto-play, self-play)."""
