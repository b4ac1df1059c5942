"""A throwaway PostgreSQL cluster for the card-room tests and benchmark (Debian's postgresql).

The server refuses to run as root: when the tests run as root the cluster belongs to, and is
run as, the unprivileged ``postgres`` user (via ``runuser``). It listens on 127.0.0.1 only, on
a free port, in a temporary folder that is deleted on stop.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "cardroom_admin"


def pg_bin() -> Path | None:
    """The newest installed server's bin folder, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """initdb, start, restart and stop a private cluster; ``url()`` connects as any role."""

    def __init__(self) -> None:
        bin_dir = pg_bin()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed: run scripts/setup.sh")
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = None if os.getuid() else "postgres"
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.root)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c max_connections=60 -c shared_buffers=32MB")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, user: str = SUPERUSER, db: str = "postgres", port: int | None = None) -> str:
        return f"postgresql://{user}@127.0.0.1:{port or self.port}/{db}"

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
