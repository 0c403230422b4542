"""The browser table of ``roundtable serve``: games created, played, watched and replayed in the browser
(docs/browser.md)."""
