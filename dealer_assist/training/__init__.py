"""training layer (see docs/design.md)."""
