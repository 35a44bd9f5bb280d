// An engine function called from Python: __verdex[space][fn](...args), or, ``on`` an element (the
// call's object), (element, ...args). Its arguments arrive as values, never as source.
function (space, fn, args, on) {
  const api = globalThis.__verdex[space];
  return api[fn].apply(api, on ? [this].concat(args) : args);
}
