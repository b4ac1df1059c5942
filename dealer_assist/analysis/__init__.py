"""Exact odds and strategy of the games' wagers (``dealer-assist analyze``)."""
