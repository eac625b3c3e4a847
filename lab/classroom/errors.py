"""What class mode refuses, and the sentence a person reads for it (both languages)."""

from __future__ import annotations

from lab.i18n import t


class ClassError(ValueError):
    """A refused class-mode action; ``what`` names it, :meth:`message` says it to a person."""

    def __init__(self, what: str, **params):
        super().__init__(what)
        self.what = what
        self.params = params

    def message(self, lang: str) -> str:
        p = self.params
        return {
            "no_room": t("No class has this code. Check the code on the screen and type it "
                         "again.", lang),
            "expired": t("This class has ended. Ask your teacher for a new code.", lang),
            "not_teacher": t("This teacher link is not valid (or the class has ended). Start "
                             "a new class.", lang),
            "full": t("This class is full ({n} students). Tell your teacher.", lang,
                      n=p.get("n", "")),
            "not_joined": t("You are not in this class yet: join with its code.", lang),
            "no_question": t("There is no question to answer yet.", lang),
            "moved_on": t("That question has closed: the class has moved on. Your answer was "
                          "not sent.", lang),
            "locked": t("Answers are locked: yours was not sent.", lang),
            "too_fast": t("Too many answers in a short time: wait a few seconds and send "
                          "again.", lang),
            "no_next": t("Open a question first.", lang),
        }[self.what]
