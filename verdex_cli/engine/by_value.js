// The object the call is made on, itself (returned by value: an eval's result read whole).
function () { return this; }
