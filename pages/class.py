"""Class mode: a teacher asks, the whole class answers from their phones (ui/classroom.py).

Named class.py, not class_mode.py: a fresh server serves a deep link by the page file's name
until app.py's navigation has run once, and the QR code's /class?join=... is often the
first request a restarted server gets ("Page not found" otherwise)."""

from ui import classroom, routing

routing.route_through_app(__file__)
classroom.render()
