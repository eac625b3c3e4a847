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
            "not_teacher": t("This teacher link is not valid: it was replaced by a new one, "
                             "the class has ended, or the link is incomplete. Open your newest "
                             "teacher link, or start a new class.", lang),
            "full": t("This class is full ({n} students). Tell your teacher.", lang,
                      n=p.get("n", "")),
            # one answer for a code with no class and a class without this student: a
            # student's link is no oracle for which codes are in use
            "not_joined": t("This link does not open a class for you: join with the code on "
                            "the teacher's screen.", lang),
            "no_question": t("There is no question to answer yet.", lang),
            "moved_on": t("That question has closed: the class has moved on. Your answer was "
                          "not sent.", lang),
            "locked": t("Answers are locked: yours was not sent.", lang),
            "too_fast": t("Too many answers in a short time: wait a few seconds and send "
                          "again.", lang),
            "no_next": t("Open a question first.", lang),
            "busy": t("The class database is busy: send again in a moment. Nothing you sent "
                      "before is lost.", lang),
            "slow_down": t("Too many joins from here in a short time: wait a minute, then "
                           "press Join again.", lang),
            "address_full": t("This class has taken as many students from your network as it "
                              "takes from one: tell your teacher.", lang),
            "crowded": t("Many students are joining at this moment: press Join again in a "
                         "few seconds.", lang),
            "guessing": t("Too many codes that open no class: wait a few minutes, then type "
                          "the code on the teacher's screen.", lang),
            "nickname_like_id": t("A nickname cannot look like an anonymous id (S and digits, "
                                  "such as S001): choose another nickname.", lang),
            "cap_range": t("A class holds 1 to {n} students on this server.", lang,
                           n=p.get("n", "")),
            "bad_answer": t("This answer could not be read: arrange the items again, then "
                            "send.", lang),
        }[self.what]
