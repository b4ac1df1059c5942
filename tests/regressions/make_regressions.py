"""Write the regression files of issue 14's crash list into this folder (run once; committed).

    uv run python tests/regressions/make_regressions.py

Scenario files (replay) and session logs (report, verify). The logs are signed with a fixed
test key that is in no data folder: their chains are valid, so the bodies reach the readers.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_assist.session.keys import public_key_hex, public_key_pem
from dealer_assist.session.log import SCHEMA, canonical_json, genesis, message

HERE = Path(__file__).resolve().parent
SEATS = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 20}]
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def scenario(name: str, text: str | bytes) -> None:
    path = HERE / "scenarios" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def scenarios() -> None:
    base = {"game": "greek31", "seats": SEATS, "first_dealer": 1, "events": []}
    scenario("not_utf8.json", b'{"game": "greek31", "seats": [{"name": "\xff\xfe", "money": 5}]}')
    scenario("nested_100000_deep.json", "[" * 100_000 + "]" * 100_000)
    scenario("integer_4301_digits.json", json.dumps(base)[:-1] + ', "options": {"max_bet": '
             + "9" * 4301 + "}}")
    for label, value in (("float", "1.0"), ("text", '"1"'), ("list", "[]")):
        scenario(f"first_dealer_{label}.json", json.dumps(base).replace('"first_dealer": 1',
                                                                        f'"first_dealer": {value}'))
    scenario("options_list.json", json.dumps({**base, "options": [1]}))
    scenario("game_list.json", json.dumps({**base, "game": ["greek31"]}))
    scenario("seat_name_lone_surrogate.json",
             json.dumps(base).replace('"Ann"', '"\\ud800"'))


def log(name: str, bodies: list[str | None], *, schema_edit: tuple[bytes, bytes] | None = None,
        then: str = "") -> None:
    """A log whose rows carry ``bodies`` (raw text, or None) with a valid signed chain."""
    path = HERE / "logs" / name
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    path.with_name(name + "-journal").unlink(missing_ok=True)
    con = sqlite3.connect(path)
    schema = SCHEMA if None not in bodies else SCHEMA.replace("body TEXT NOT NULL", "body TEXT")
    for statement in schema.split(";"):
        if statement.strip():
            con.execute(statement)
    meta = {"format": "dealer-assist-log/2", "session_id": "0" * 32,
            "public_key": public_key_hex(KEY.public_key()), "created": "2026-11-23T00:00:00Z"}
    con.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    con.execute("INSERT INTO writer VALUES (1, 'closed', ?, '2026-11-23T00:00:00Z')",
                [len(bodies)])
    prev = genesis(meta)
    for seq, body in enumerate(bodies, start=1):
        at = f"2026-11-23T00:00:{seq % 60:02d}.000+00:00"
        kind = "session_start" if seq == 1 else "deal"
        sig = KEY.sign(message(seq, kind, at, prev, body or "")).hex()
        con.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", [seq, at, kind, body, prev, sig])
        prev = sig
    if then:
        con.execute(then)
    con.commit()
    con.close()
    if schema_edit is not None:
        data = path.read_bytes()
        path.write_bytes(data.replace(*schema_edit, 1))


def logs() -> None:
    start = canonical_json({"type": "session_start", "game": "greek31", "seats": SEATS,
                            "first_dealer": 1, "options": {}})
    for label, body in (("list", "[]"), ("text", '"x"'), ("null", "null"), ("number", "5")):
        log(f"session_start_{label}.db", [body])
    log("body_5000_deep.db", [start, "[" * 5000 + "]" * 5000])
    log("body_null.db", [start, None])
    log("body_not_utf8.db", [start, start],  # found by the fuzz test: bytes flipped in a body
        then="UPDATE events SET body = CAST(x'7b9f7d' AS TEXT) WHERE seq = 2")
    log("seat_name_lone_surrogate.db", [start.replace('"Ann"', '"\\ud800"')])
    log("schema_byte_flipped.db", [start], schema_edit=(b"sig TEXT NOT NULL", b"sig TEXT NOT NULX"))
    log("schema_not_utf8.db", [start],  # found by the fuzz test: SQLite's message is not UTF-8
        schema_edit=(b"CREATE TABLE writer", b"CREATE TABLE writ\x9fr"))
    log("schema_byte_flipped_meta.db", [start],
        schema_edit=(b"CREATE TABLE meta", b"CREATE TABLE meta("))


if __name__ == "__main__":
    (HERE / "test_key.pub.pem").write_bytes(public_key_pem(KEY.public_key()))
    scenarios()
    logs()
    print(f"wrote {len(list(HERE.glob('*/*')))} files in {HERE}")
