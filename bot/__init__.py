"""The Discord side of Umpire, and the ``umpire`` command line. The only package that knows Discord."""
