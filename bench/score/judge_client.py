"""The judge endpoint: any OpenAI-compatible chat server, configured from the environment like
the brain (LVQ_JUDGE_MODEL, LVQ_JUDGE_BASE_URL, key from LVQ_JUDGE_API_KEY, LVQ_OPENAI_API_KEY
or OPENAI_API_KEY only), asked over real HTTP. The key is masked in every message that leaves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from agent.brains import redact
from tools.errors import EndpointError

MODEL_ENV = "LVQ_JUDGE_MODEL"
BASE_URL_ENV = ("LVQ_JUDGE_BASE_URL", "LVQ_OPENAI_BASE_URL")
KEY_ENV = ("LVQ_JUDGE_API_KEY", "LVQ_OPENAI_API_KEY", "OPENAI_API_KEY")


@dataclass(frozen=True)
class JudgeSettings:
    """Where the judge is: model, base URL (None: the client's default) and patience."""

    model: str
    base_url: str | None = None
    timeout_s: float = 60.0
    retries: int = 2


def judge_settings(model: str | None = None, base_url: str | None = None,
                   timeout_s: float | None = None) -> JudgeSettings | None:
    """The configured judge (arguments first, then the environment); None when no model."""
    model = (model or os.environ.get(MODEL_ENV) or "").strip()
    if not model:
        return None
    url = base_url or next((os.environ[k] for k in BASE_URL_ENV if os.environ.get(k)), None)
    t = timeout_s if timeout_s is not None else float(os.environ.get("LVQ_TIMEOUT") or 60)
    return JudgeSettings(model=model, base_url=url, timeout_s=t)


def _key() -> str | None:
    for name in KEY_ENV:
        redact.remember(env_name=name)
    return next((os.environ[k] for k in KEY_ENV if os.environ.get(k)), None)


class Judge:
    """One judge endpoint: `ask(system, user)` returns the reply text."""

    def __init__(self, settings: JudgeSettings, client: Any = None) -> None:
        import openai

        self.settings = settings
        key = _key()
        redact.remember(key)
        self._client = client or openai.OpenAI(
            base_url=settings.base_url, api_key=key or "none", timeout=settings.timeout_s,
            max_retries=settings.retries)

    def ask(self, system: str | None, user: str, temperature: float | None = 0.0) -> str:
        """The judge's reply to one prompt; EndpointError (key masked) when it cannot answer."""
        import openai

        messages = ([{"role": "system", "content": system}] if system else []) + [
            {"role": "user", "content": user}]
        kwargs: dict[str, Any] = {} if temperature is None else {"temperature": temperature}
        try:
            reply = self._client.chat.completions.create(
                model=self.settings.model, messages=messages, **kwargs)
        except (openai.APIConnectionError, openai.AuthenticationError,
                openai.PermissionDeniedError, openai.NotFoundError) as exc:
            where = self.settings.base_url or "the default endpoint"
            raise EndpointError(redact.scrub(
                f"judge {self.settings.model} at {where}: {type(exc).__name__}: {exc}")) from None
        except openai.APIError as exc:
            raise EndpointError(redact.scrub(
                f"judge {self.settings.model}: {type(exc).__name__}: {exc}")) from None
        choices = getattr(reply, "choices", None) or []
        if not choices:
            raise EndpointError(f"judge {self.settings.model} answered with no choices")
        return redact.scrub(choices[0].message.content or "")
