"""Score sheets kept by the server: the scorekeeper of games played with real cards.

A sheet is stored as its ruleset (as data, house rules included), options, players,
first dealer, and the log of what was entered: hands added, hands corrected, the last
hand taken back, each with the id the client gave it. The sheet itself is rebuilt by
entering the hands again through :class:`tricktaker.scorekeeper.ScoreSheet`, as a
table is rebuilt from its events: the rules are never written twice.

The HTTP API lives under ``/sheets`` (see docs/scorekeeper.md). Creating a sheet
answers an edit token (stored only as its SHA-256 hash; it goes in ``Authorization:
Bearer TOKEN``) and a read-only view key (``?view=KEY``) for the other players. The
keeper may give out an edit link: a second key that edits too (also kept as its hash),
made anew or revoked by the keeper's own token, which shuts out the old link. Every
entry is committed before it is answered; an entry the rules refuse is an RFC 9457
problem body with the rule's words and its ``rule``, and leaves the sheet unchanged; a
request repeated with the same entry ``id`` is applied once.
"""
