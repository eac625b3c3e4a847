"""Class mode: rooms, questions and answers shared by a teacher's and the students' sessions.

No Streamlit here (the page is ``pages/class.py`` with ``ui/classroom.py``).
``config`` finds the database, ``db`` holds the schema, ``store`` the rooms,
``codes`` the join codes and secrets, ``errors`` what is refused.
"""
