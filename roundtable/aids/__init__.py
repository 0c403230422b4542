"""The small-model aids: everything that helps a small model play and that no paper has (docs/agents/aids.md).

Checks of an agent's words and decisions before they are taken, the re-asks and overrules they lead to, the
knowledge notes in a prompt, llama.cpp's DRY sampling of words said aloud, sentence dropping and words cleaning.
One seat option switches all of them: ``aids=auto|on|off`` (`roundtable.aids.switch`), ``auto`` being on for a
model declared small (`roundtable.models.spec.is_small`) and off for any other, which then plays its kind as the
paper wrote it.

Layer: below the agent kinds (which apply the aids), above the tables, detectors, prompts and games; the measures
(`roundtable.metrics`) never import it (pyproject.toml's import contracts).
"""
