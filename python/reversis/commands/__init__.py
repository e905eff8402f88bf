"""Subcommands of ``reversis`` that live in modules of their own.

Each module here has ``register(commands)``, which adds its subparser to the ``reversis``
command and sets ``run`` to a function taking the parsed arguments and returning the exit
status. ``cli.COMMAND_MODULES`` lists them in the order ``--help`` shows them.
"""
