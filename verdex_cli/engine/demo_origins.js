// The demo site's own script (app/demo_server.py): where its two origins are.
(a, b) => { window.VERDEX_ORIGINS = { a, b }; }
