"""Tables whose rows are written once and never changed nor deleted: an audit log."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models


class AppendOnlyError(RuntimeError):
    """Someone tried to change or delete a row of an append-only table."""


class AppendOnly(models.Model):
    """A model whose rows are saved once and then only read: saving a stored row again, or
    deleting one, raises ``refusal`` (an :class:`AppendOnlyError`) saying so. Bulk updates and
    deletes through a queryset are left to the code that writes the table, which makes none."""

    refusal: ClassVar[type[AppendOnlyError]] = AppendOnlyError

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise self.refusal(f"{self._meta.verbose_name_plural}: rows are only ever added")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise self.refusal(f"{self._meta.verbose_name_plural}: rows are only ever added")
