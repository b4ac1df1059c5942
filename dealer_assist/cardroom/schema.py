"""The card room's schema on PostgreSQL, by numbered migrations (applied in order, once each).

Tables: ``sessions`` (one per session log, owned by one card-room table), ``events`` (every raw
column of each log row in ``row``, plus ``seq``/``type``/``at`` for queries; the signed chain's
``prev``/``sig`` travel there too), ``session_meta`` (the log's meta table, append only),
``session_keys`` (each session's public key, registered by its tablet at the first sync),
``sync_runs`` (what each sync did or refused: the integrity the floor sees) and ``tablets``
(which login role is which table's tablet).

Roles: ``cardroom_tablet`` (members insert only their own table's rows, by row-level security),
``cardroom_office`` (reads everything). Nobody updates or deletes: no grant allows it and a
trigger refuses it even for the owner. Another trigger keeps each session's events in order
(``seq`` = the last + 1), whoever inserts them.
"""

from __future__ import annotations

import psycopg


def _guarded(t: str) -> str:
    """Append only (no update, delete or truncate, even by the owner) and row-level security:
    a tablet inserts and reads its own table's rows, the office reads everything."""
    return f"""
    CREATE TRIGGER {t}_no_change BEFORE UPDATE OR DELETE ON {t}
        FOR EACH ROW EXECUTE FUNCTION cardroom_append_only();
    CREATE TRIGGER {t}_no_truncate BEFORE TRUNCATE ON {t}
        FOR EACH STATEMENT EXECUTE FUNCTION cardroom_append_only();
    ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;
    CREATE POLICY {t}_tablet_reads ON {t} FOR SELECT TO cardroom_tablet
        USING (card_table = cardroom_my_table());
    CREATE POLICY {t}_tablet_inserts ON {t} FOR INSERT TO cardroom_tablet
        WITH CHECK (card_table = cardroom_my_table());
    CREATE POLICY {t}_office_reads ON {t} FOR SELECT TO cardroom_office USING (true);
    GRANT SELECT, INSERT ON {t} TO cardroom_tablet;
    GRANT SELECT ON {t} TO cardroom_office;
    """


MIGRATIONS: list[str] = [
    # 1: tables, append-only triggers, roles and row-level security
    """
    CREATE TABLE tablets (
        role name PRIMARY KEY,
        card_table text NOT NULL
    );
    CREATE TABLE sessions (
        session_id text PRIMARY KEY,
        card_table text NOT NULL,
        game text NOT NULL DEFAULT '',
        started_at text NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (session_id, card_table)
    );
    CREATE TABLE events (
        session_id text NOT NULL,
        card_table text NOT NULL,
        seq bigint NOT NULL CHECK (seq >= 1),
        type text NOT NULL,
        at text NOT NULL,
        row jsonb NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, seq),
        FOREIGN KEY (session_id, card_table) REFERENCES sessions (session_id, card_table)
    );
    CREATE INDEX events_table_at ON events (card_table, at);
    CREATE TABLE session_meta (
        session_id text NOT NULL REFERENCES sessions,
        card_table text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, key, value),
        FOREIGN KEY (session_id, card_table) REFERENCES sessions (session_id, card_table)
    );
    CREATE TABLE sync_runs (
        id bigserial PRIMARY KEY,
        session_id text NOT NULL,
        card_table text NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        ok boolean NOT NULL,
        events bigint NOT NULL,
        problem text NOT NULL DEFAULT ''
    );

    CREATE FUNCTION cardroom_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the card room''s copy is append only: % on % refused',
            TG_OP, TG_TABLE_NAME;
    END $$;
    CREATE FUNCTION cardroom_my_table() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = pg_catalog, pg_temp AS $$
        SELECT card_table FROM public.tablets WHERE role = session_user
    $$;
    """
    + "".join(_guarded(t) for t in ("sessions", "events", "session_meta", "sync_runs"))
    + """
    GRANT USAGE ON SEQUENCE sync_runs_id_seq TO cardroom_tablet;
    GRANT SELECT ON tablets TO cardroom_office;
    REVOKE ALL ON FUNCTION cardroom_my_table() FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION cardroom_my_table() TO cardroom_tablet, cardroom_office;
    """,
    # 2: the server itself keeps each session's events in order, without gaps
    """
    CREATE FUNCTION cardroom_next_seq() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE last bigint;
    BEGIN
        SELECT max(seq) INTO last FROM events WHERE session_id = NEW.session_id;
        IF NEW.seq <> coalesce(last, 0) + 1 THEN
            RAISE EXCEPTION 'event % of session % is out of order: the server holds % events',
                NEW.seq, left(NEW.session_id, 12), coalesce(last, 0);
        END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER events_in_order BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION cardroom_next_seq();
    """,
    # 3: each session's Ed25519 public key, registered by its tablet at the first sync (the
    # signed log, issue 14): reports check the server's copy with it, not with the shipped meta
    """
    CREATE TABLE session_keys (
        session_id text PRIMARY KEY REFERENCES sessions,
        card_table text NOT NULL,
        public_key text NOT NULL CHECK (public_key ~ '^[0-9a-f]{64}$'),
        registered_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (session_id, card_table) REFERENCES sessions (session_id, card_table)
    );
    """
    + _guarded("session_keys"),
]

ROLES = """
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cardroom_tablet') THEN
        CREATE ROLE cardroom_tablet NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cardroom_office') THEN
        CREATE ROLE cardroom_office NOLOGIN;
    END IF;
END $$;
"""


class SchemaError(RuntimeError):
    """The server's schema is missing or older/newer than this version of the app."""


def version(conn: psycopg.Connection) -> int:
    """The schema version on the server (0: none)."""
    exists = conn.execute("SELECT to_regclass('public.cardroom_schema')").fetchone()
    if not exists or exists[0] is None:
        return 0
    row = conn.execute("SELECT max(version) FROM cardroom_schema").fetchone()
    return int(row[0] or 0) if row else 0


def migrate(conn: psycopg.Connection) -> int:
    """Create or upgrade the schema (run by the database's owner); return the version reached."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(31017)")  # one migrator at a time
        conn.execute(ROLES)
        conn.execute("CREATE TABLE IF NOT EXISTS cardroom_schema ("
                     "version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        conn.execute("GRANT SELECT ON cardroom_schema TO cardroom_tablet, cardroom_office")
        current = version(conn)
        for number, sql in enumerate(MIGRATIONS[current:], start=current + 1):
            conn.execute(sql)
            conn.execute("INSERT INTO cardroom_schema (version) VALUES (%s)", [number])
    return len(MIGRATIONS)


def check(conn: psycopg.Connection) -> None:
    """Refuse to work on a server whose schema is not this version's."""
    found = version(conn)
    if found != len(MIGRATIONS):
        what = "has no card-room schema" if found == 0 else f"has schema version {found}"
        raise SchemaError(f"the server {what}; this app needs version {len(MIGRATIONS)} "
                          "(the database owner runs `dealer-assist sync --migrate --to URL`)")
