"""What the onboarding path refuses, and the sentence a person reads for it (both languages)."""

from __future__ import annotations

from lab.i18n import t


class OnboardError(ValueError):
    """A refused onboarding action; ``what`` names it, :meth:`message` says it to a person."""

    def __init__(self, what: str, **params):
        super().__init__(what)
        self.what = what
        self.params = params

    def message(self, lang: str) -> str:
        p = self.params
        return {
            "no_team": t("No team has this code. Check the team link you were sent.", lang),
            "closed": t("This team was closed by its lead. Ask your lead for a new link.",
                        lang),
            "not_lead": t("This lead link is not valid (or the team was closed). Start a new "
                          "team.", lang),
            "full": t("This team is full ({n} members). Tell your lead.", lang,
                      n=p.get("n", "")),
            "not_member": t("This personal link is not valid for this team: join the team "
                            "again with your name.", lang),
            "no_name": t("Type your name to join (up to {n} characters).", lang,
                         n=p.get("n", "")),
            "too_many": t("Too many answers recorded for you ({n}); ask your lead.", lang,
                          n=p.get("n", "")),
            "convention": t("Choose one of the conventions offered.", lang),
            "coming": t("This step is not on this server yet.", lang),
        }[self.what]
