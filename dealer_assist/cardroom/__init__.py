"""The card room: ship each table's session log to PostgreSQL and read it back (reports, floor).

A table always writes its own SQLite log first; ``sync`` copies its rows to the server, append
only, idempotent and chain-checked; the back office reads the server. See docs/card-room.md.
"""
