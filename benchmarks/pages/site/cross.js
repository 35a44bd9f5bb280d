// Gives each iframe[data-cross] its src on the other loopback origin of the benchmark server.
(function () {
  var o = window.VERDEX_ORIGINS;
  if (!o) return;
  var other = location.origin === o.a ? o.b : o.a;
  var frames = document.querySelectorAll('iframe[data-cross]');
  for (var i = 0; i < frames.length; i++) frames[i].src = other + '/' + frames[i].getAttribute('data-cross');
})();
