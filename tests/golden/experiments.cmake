# Seed experiments (experiments/0N_*): the story's verdicts reproduced at a reduced proof count.
prestage_test(golden_experiments SOURCES golden/experiments_test.cpp LIBS prestage_sim
              LABELS golden TIMEOUT 120)
