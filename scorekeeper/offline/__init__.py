"""A table kept on the phone alone: the same Flask app, views, templates and engine, run under
Pyodide inside the service worker (``templates/sw.js``). ``build`` makes what the phone downloads;
``phone`` is the entry point the service worker calls; ``site/`` holds the pure stand-ins for the
few compiled packages the app imports (see docs/architecture.md, "A table on the phone")."""
