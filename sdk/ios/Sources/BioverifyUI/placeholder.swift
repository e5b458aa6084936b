// Apple-only adapters live here.
