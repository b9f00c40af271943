-- Several studio processes share one book: each request names the process deciding it (its
-- client_id), so a restart refuses only its own undecided requests, and those of a process that
-- is gone (its advisory lock free), never a request another live process is deciding.
ALTER TABLE studio_requests ADD COLUMN studio text;
CREATE INDEX studio_requests_pending ON studio_requests (studio) WHERE status = 'pending';
-- a round's payments are read by round (the players' settled messages, paying a round)
CREATE INDEX studio_payments_round ON studio_payments (table_id, round);
