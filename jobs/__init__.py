"""Scheduled jobs. The scheduler only triggers; every job runs the same from
``python -m jobs run NAME`` (style.md principle 6)."""
