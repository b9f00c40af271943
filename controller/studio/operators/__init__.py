"""The operators' side of ``croupier studio``: each operator's seamless wallet (one adapter per
contract behind one interface, every request and answer logged in PostgreSQL first, retried until
answered or flagged), its durable feed on RabbitMQ (an outbox written with the events it reports),
reconciliation, and a reference operator for tests and the demo (docs/operators.md)."""
