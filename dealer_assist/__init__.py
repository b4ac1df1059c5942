"""Dealer's bookkeeping for the family of 31 card games."""

__version__ = "0.1.0"
