// BioverifyUI: the Apple-only adapters; each file compiles only where its framework exists.
