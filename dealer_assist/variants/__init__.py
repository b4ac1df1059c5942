"""variants layer (see docs/design.md)."""
