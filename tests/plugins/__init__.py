"""Games written outside the tricktaker package, plugged in through its public registry."""
