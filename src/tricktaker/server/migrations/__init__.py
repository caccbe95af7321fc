"""The Alembic migrations of the table server's schema (run by ``db.upgrade``)."""
