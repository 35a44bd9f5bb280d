// Closed shadow roots resolved into verdex's world (browser/closed_roots.py), handed to the engine,
// which walks them from then on.
function (...roots) { return globalThis.__verdex.bridge.adoptClosed(roots); }
