"""What the Blender suites share: ``Checks``, which collects failed checks instead of stopping
at the first, so that one run lists every difference."""


class Checks:
    """Counts passed checks and keeps the description of each failed one."""

    def __init__(self):
        self.failures = []
        self.passed = 0

    def true(self, what, condition):
        """Records `condition` as a check described by `what`; returns whether it held."""
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
        return bool(condition)

    def equal(self, what, seen, expected):
        """Checks that what Blender shows is what was expected, naming both if not."""
        return self.true(f"{what}: Blender shows {seen!r}, expected {expected!r}", seen == expected)
