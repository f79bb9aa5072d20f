"""Tofu Table: the table service (engines, session, journal, web app, CLI)."""
