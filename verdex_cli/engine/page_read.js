// Reads of the page's own (main) world, by name: nothing here changes the page.
(what) => {
  if (what === 'title') return document.title;
  if (what === 'readyState') return document.readyState;
  if (what === 'alive') return 0;  // a document that answers at all is not busy
  throw new Error('no such read: ' + what);
}
