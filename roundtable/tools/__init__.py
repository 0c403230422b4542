"""What agents use besides models: text embeddings (`embeddings`), vector collections (`vectors`, Chroma), and
the CodeAct agent's Python interpreter (`python_repl`) in its sandbox (`sandbox`).
"""
