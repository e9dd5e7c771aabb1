"""The replay viewer, export and import of finished hands (issue 12)."""
