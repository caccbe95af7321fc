"""A client of the table server: play a seat of a remote table, or seat a bot there.

It speaks the protocol of ``docs/protocol.md`` and needs only the ``websockets``
library (part of the ``server`` extra), not the server's own dependencies.
:mod:`tricktaker.client.links` reads invite links and keeps seat tokens,
:mod:`tricktaker.client.decode` turns a JSON view back into the engine's
:class:`~tricktaker.engine.Observation` (so bots and the terminal screen work on the
same objects as in ``tricktaker play``), and :mod:`tricktaker.client.session` runs a
seat over the WebSocket, reconnecting when the connection drops.
"""

from __future__ import annotations
