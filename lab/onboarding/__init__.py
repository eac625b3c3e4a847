"""The onboarding path: teams, members and their progress events (:mod:`.store`), the steps
(:mod:`.steps`), the evidence each checks (:mod:`.checks`), the lead's matrix and exports
(:mod:`.report`) and the signed completion record (:mod:`.record`). No Streamlit here."""
