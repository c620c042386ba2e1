"""The drafter: brief + evidence → `articles/<slug>.md` (schema, file format and cache, offline, llm, prompts)."""
