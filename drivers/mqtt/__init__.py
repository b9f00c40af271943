"""The shared MQTT link: broker URLs, the reconnecting link with its outbox, link events, and the
persistent subscriber that acknowledges by hand (the back office)."""

from drivers.mqtt.link import LinkDown, LinkItem, LinkUp, MqttLink, Received, Subscription
from drivers.mqtt.outbox import Outbox, OutboxFull, Outgoing
from drivers.mqtt.subscriber import PersistentSubscriber
from drivers.mqtt.url import BrokerUrl

__all__ = [
    "BrokerUrl",
    "LinkDown",
    "LinkItem",
    "LinkUp",
    "MqttLink",
    "Outbox",
    "OutboxFull",
    "Outgoing",
    "PersistentSubscriber",
    "Received",
    "Subscription",
]
