// The guard of a document's guard world (guard_world.js): told to deny trusted presses, releases and
// clicks for ``ms`` (true when it does), or read (what it stopped; it stands down).
function (what, ms) {
  const guard = globalThis.__verdexGuard;
  if (what === 'deny') return guard ? guard.deny(ms) : false;
  return guard ? guard.read() : [];
}
