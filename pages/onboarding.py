"""Onboarding: a path for a new team member that ends with the team's own number reproduced,
and the lead's view of where each member is (ui/onboarding.py)."""

from ui import onboarding, routing

routing.route_through_app(__file__)
onboarding.render()
