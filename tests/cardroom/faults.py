"""A TCP proxy in front of the test server that can cut a connection in the middle of a batch."""

from __future__ import annotations

import contextlib
import socket
import threading


class CuttingProxy:
    """Forwards 127.0.0.1:port to the server; ``cut_after(n)`` drops the next connection that
    has sent more than ``n`` bytes towards the server (once), as a network failure would."""

    def __init__(self, server_port: int) -> None:
        self.server_port = server_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._budget: int | None = None
        self.cuts = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_after(self, nbytes: int) -> None:
        with self._lock:
            self._budget = nbytes

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.server_port))
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False),
                             daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, to_server: bool) -> None:
        try:
            while data := src.recv(65536):
                if to_server and self._spend(len(data)):
                    dst.sendall(data[: len(data) // 2])  # half a message reaches the server
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def _spend(self, n: int) -> bool:
        with self._lock:
            if self._budget is None:
                return False
            self._budget -= n
            if self._budget > 0:
                return False
            self._budget = None
            self.cuts += 1
            return True

    def close(self) -> None:
        self.listener.close()
