"""The accounts' refusals beyond the service's own (service.errors)."""

from __future__ import annotations

from service.errors import ServiceError


class TooManyAttempts(ServiceError):
    """Too many wrong passwords for one name lately: 429 until the window passes."""

    def __init__(self, seconds: int) -> None:
        super().__init__(
            "too_many_attempts", f"too many failed sign-ins for this name; try again in {seconds} s"
        )
        self.retry_after = seconds
