"""session layer (see docs/design.md)."""
