"""The table on a terminal: dealer commands typed one per line (``keyboard``) and the table
printed as text (``printer``)."""
