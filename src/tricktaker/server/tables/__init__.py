"""The tables of the server: people and bots playing one game together, live.

``routes`` (the HTTP API under ``/tables``), ``service`` (one writer per table: checks
an action with the engine, stores it, then tells the sockets), ``store`` (the tables'
data in the database), ``live`` (a table held in memory, with its memos), ``views``
(what a socket may receive), ``telling`` (events as messages), ``ws`` (the live-play
socket), ``messages`` (the protocol's typed messages), ``undo`` and ``names``.
"""
