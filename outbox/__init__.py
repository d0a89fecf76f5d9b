"""Telling people who are not on the site: e-mail and Web Push, each opted into per person.

The site's notifications (``social.notifications``) reach the pages a person has open; this app
carries the few kinds that matter away from the site (``DELIVERED``: your move, a day left, a
challenge) to their e-mail address and their browsers' push subscriptions, when they asked for
it. A notification stored becomes rows of the outbox after commit (``queue``, listening to
``social.signals.notified``); a periodic pass sends what is due (``sending.deliver_due``, from
the games' clock, on a thread of its own), retrying a failed send a few times and then dropping
it. Nothing here runs inside a move's transaction.
"""
