"""A game folder as a whole: its settings (sixes.yaml), finding it from the
current folder, loading every system it holds, its own site pages, its
casting file, its date (dates.py, which may ask git for its last commit) and
the one gather every command starts with; and casting from a questionnaire
(questionnaire.py, cast_settings.py, cast_rules.py, cast_model.py,
cast_report.py), solved by cast_solve.py, the one module that imports the
HiGHS solver (highspy, with numpy), lazily: the model and the report stay
pure Python, and the tests' brute force judges castings with the very
objective the solver optimises. Like the core otherwise: imports core/ and
systems/ only, renders and writes nothing."""
