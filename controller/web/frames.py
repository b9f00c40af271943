"""uvicorn's sans-I/O WebSocket, offering the app a write of a frame encoded already.

A push to many connections (a round's result to every player at a table) through the ASGI
``send`` costs each connection a task wakeup, a few coroutine layers and the framing of the same
text again. A server's frames are not masked, so one frame's bytes serve every connection: the app
encodes it once (``text_frame``) and hands it to each connection's ``write`` (the ASGI extension
``FRAME_EXTENSION`` in the scope), which writes it at once, or refuses it when the frame cannot go
now: the connection closing, or its transport's buffer past its high-water mark (the app then
queues it, bounded, for its ASGI ``send``, which waits for the buffer to drain). A write never
buffers past what the ASGI ``send`` would, and never interleaves with a frame being written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

#: the scope's ``extensions`` key: ``write(frame) -> bool`` (True: written, False: send it the ASGI way)
FRAME_EXTENSION = "croupier.websocket.frame"
FrameWrite = Callable[[bytes], bool]


def text_frame(text: str) -> bytes:
    """One unfragmented text frame, unmasked (as a server sends it), no extension applied."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


def frame_write(scope: Mapping[str, Any]) -> FrameWrite | None:
    """The connection's frame write, when its server offers one."""
    write = scope.get("extensions", {}).get(FRAME_EXTENSION)
    return write if callable(write) else None


class FrameWebSocket(WebSocketsSansIOProtocol):
    """``ws=`` of uvicorn's config: its sans-I/O WebSocket, with ``write_frame`` in the scope."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        # the app's task is created, not yet started: the scope it reads is this one. Offered only
        # without extensions (a compressed connection's frames are its own)
        if self.response.status_code == 101 and not self.conn.extensions:
            extensions: dict[str, Any] = self.scope["extensions"]
            extensions[FRAME_EXTENSION] = self.write_frame

    def write_frame(self, frame: bytes) -> bool:
        """Write ``frame`` now; False, writing nothing, when it cannot go at once."""
        if (self.close_sent or self.disconnected or not self.handshake_complete or self.conn.state is not State.OPEN
                or not self.writable.is_set() or self.transport.is_closing()):
            return False
        self.transport.write(frame)
        return True
