"""The back office: the floor's memory in PostgreSQL (docs/backoffice.md). A consumer of every
table's pit feed, versioned migrations, gaming-day and shift reports, player ratings."""
