"""manage.py check --deploy warns of a site whose pushes go through Channels' in-memory layer
(games/live/checks.py), and of no other."""

from __future__ import annotations

import io

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from lib.env import channel_layers_config

REDIS = "redis://127.0.0.1:6379/0"


def warned(*, deploy: bool) -> list[str]:
    """The ids of what the channel layer's checks say."""
    found = run_checks(tags=["channel_layer"], include_deployment_checks=deploy)
    return [message.id for message in found]


def test_the_deploy_checks_warn_of_the_in_memory_layer(settings) -> None:
    settings.CHANNEL_LAYERS = channel_layers_config(None)

    assert "taki.W001" in warned(deploy=True)
    assert "taki.W001" not in warned(deploy=False)  # a laptop's `manage.py check` is quiet


@pytest.mark.parametrize("kind", ["pubsub", "lists"])
def test_the_deploy_checks_are_quiet_with_redis(settings, kind: str) -> None:
    settings.CHANNEL_LAYERS = channel_layers_config(REDIS, kind)

    assert "taki.W001" not in warned(deploy=True)


def check_deploy() -> str:
    """manage.py check --deploy --fail-level WARNING, of the channel layer's checks."""
    out = io.StringIO()
    call_command(
        "check", "--deploy", "--fail-level", "WARNING", "--tag", "channel_layer", stdout=out
    )
    return out.getvalue()


def test_check_deploy_fails_on_the_in_memory_layer_and_names_redis_url(settings) -> None:
    settings.CHANNEL_LAYERS = channel_layers_config(None)

    with pytest.raises(SystemCheckError) as failed:
        check_deploy()

    assert "(taki.W001)" in str(failed.value)
    assert "REDIS_URL" in str(failed.value)


def test_check_deploy_passes_with_redis(settings) -> None:
    settings.CHANNEL_LAYERS = channel_layers_config(REDIS)

    assert "no issues" in check_deploy()
