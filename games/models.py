"""Game models (tables, hands, event logs) arrive with the play issues."""
