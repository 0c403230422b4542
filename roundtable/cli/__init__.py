"""The command line (Typer): ``roundtable play``, ``show``, ``fork``, ``replay``, ``pool``, ``experiment`` ...

`roundtable.cli.main.app` is the entry point; `roundtable.cli.pool` and
`roundtable.cli.experiment` are its sub-applications. The top layer: it
imports every other, and nothing imports it.
"""
