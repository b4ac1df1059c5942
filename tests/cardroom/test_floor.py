"""The floor view's data from the server: one row per session, refusals and tampers shown."""

from __future__ import annotations

from logs import LiveTable, make_log, tamper
from pgfixtures import db, office, pg, tablet  # noqa: F401 (fixtures used by name)

from dealer_assist.cardroom import settings, source
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.reports.floor import Floor
from dealer_assist.variants import greek31


def test_the_floor_lists_every_table_its_round_and_integrity(db, office, tmp_path):
    live = LiveTable(tmp_path / "t1.db").play(3)
    live.session.submit({"type": "deal", "seat": 2, "card": "QS"})  # round 4 under way
    assert sync_log(live.path, db, "T1").ok
    live.close()
    bad = make_log(tmp_path / "t2.db", rounds=2, seed=2)
    tamper(bad, 12)
    assert not sync_log(bad, db, "T2").ok
    rows = Floor(office).rows()
    assert [(r.table, r.rounds, r.status) for r in rows] == [
        ("T1", 3, "round in progress"), ("T2", 0, "round in progress")]
    assert rows[0].current_round == "4 (in progress)" and rows[0].ok
    assert rows[0].game == greek31.TITLE
    assert not rows[1].ok and "Last sync REFUSED" in rows[1].integrity
    assert "altered at event 12" in rows[1].integrity
    assert [r.table for r in Floor(office).rows(table="T2")] == ["T2"]


def test_a_refresh_replays_only_the_sessions_that_changed(db, office, tmp_path, monkeypatch):
    """The floor remembers each session's reconciliation until its server copy grows; a new
    sync, a new session or a refused sync are each seen at the next refresh."""
    live = LiveTable(tmp_path / "t1.db").play(2)
    quiet = make_log(tmp_path / "t2.db", rounds=1, seed=2)
    assert sync_log(live.path, db, "T1").ok and sync_log(quiet, db, "T2").ok
    floor = Floor(office)
    first = floor.rows()
    assert floor.replayed == 2 and [r.rounds for r in first] == [2, 1]
    assert floor.rows() == first and floor.replayed == 0  # nothing changed: nothing replayed
    live.play(1)
    resync = sync_log(live.path, db, "T1")
    assert resync.ok and resync.sent > 0
    checked = []
    real = source.verify_rows
    monkeypatch.setattr(source, "verify_rows",
                        lambda rows, *a, **k: checked.append(len(rows)) or real(rows, *a, **k))
    grown = floor.rows()
    assert checked == [resync.sent]  # only the new events' signatures are checked
    assert floor.replayed == 1 and [r.rounds for r in grown] == [3, 1]
    assert grown[0].last_sync >= first[0].last_sync and grown[1] == first[1]
    live.close()
    extra = make_log(tmp_path / "t3.db", rounds=1, seed=3)
    assert sync_log(extra, db, "T3").ok
    assert not sync_log(quiet, db, "T9").ok  # refused: T2's session, nothing sent
    third = floor.rows()
    assert floor.replayed == 1 and [r.table for r in third] == ["T1", "T2", "T3"]
    assert third == Floor(office).rows()  # the same as a floor without memory
    assert [r.ok for r in third] == [True, False, True]
    assert "Last sync REFUSED" in third[1].integrity and third[1].rounds == 1


def test_card_room_settings_round_trip(data_dir):
    assert not settings.load().syncing
    settings.save(settings.CardRoomSettings(server="postgresql://t@h/db", table="T4"))
    assert settings.load().syncing and settings.load().table == "T4"
    (data_dir / settings.FILE).write_text("{not json")
    assert settings.load() == settings.CardRoomSettings()
