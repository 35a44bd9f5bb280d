"""Building blocks every layer uses: errors and their kinds, phase timings, the sanitizer, GC pauses."""
