"""gui layer (see docs/design.md)."""
