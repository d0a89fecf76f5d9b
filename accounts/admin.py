"""Accounts in the admin: its log-in page. The players' screens are moderation's
(``moderation.admin``)."""

from django.contrib import admin

from accounts.forms import AdminLoginForm

# The admin's log-in page says when the throttle shared with the players' page refuses a name.
admin.site.login_form = AdminLoginForm
