"""The app layer: one run of verdex -- its wiring (wiring.py: workspace, renderer, one-shot and live
script runs), the command line's shared options (options.py) and the demo site (demo_server.py)."""
