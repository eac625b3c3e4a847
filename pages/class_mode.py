"""Class mode: a teacher asks, the whole class answers from their phones (ui/classroom.py)."""

from ui import classroom, routing

routing.route_through_app()
classroom.render()
