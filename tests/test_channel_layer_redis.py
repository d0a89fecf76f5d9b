"""With REDIS_URL set, the channel layer is channels-redis and really carries group messages
between layer instances (as between two Daphne processes). The `redis_url` fixture
(tests/conftest.py) starts a redis-server of its own on a free loopback port."""

from channels.layers import get_channel_layer

from taki_site.env import channel_layers_config


def _redis_layer(url: str):
    from channels_redis.core import RedisChannelLayer

    config = channel_layers_config(url)["default"]
    return RedisChannelLayer(**config["CONFIG"])


async def test_a_group_message_crosses_between_two_redis_layers(redis_url) -> None:
    sender, receiver = _redis_layer(redis_url), _redis_layer(redis_url)
    channel = await receiver.new_channel()
    await receiver.group_add("table-7", channel)

    await sender.group_send("table-7", {"type": "table.update", "version": 3})

    message = await receiver.receive(channel)
    assert message == {"type": "table.update", "version": 3}
    await receiver.group_discard("table-7", channel)
    await sender.flush()


def test_the_settings_choose_redis_with_a_high_connection_cap(redis_url, settings) -> None:
    settings.CHANNEL_LAYERS = channel_layers_config(redis_url)
    layer = get_channel_layer()
    try:
        assert type(layer).__name__ == "RedisChannelLayer"
        # redis-py 8 caps the async pool at 100; consumers die under load without this.
        assert layer.hosts[0]["max_connections"] == 1000
    finally:
        from channels.layers import channel_layers

        channel_layers.backends.pop("default", None)
