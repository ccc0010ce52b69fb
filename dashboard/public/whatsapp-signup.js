/* global window */
// Meta's Embedded Signup redirects its popup here with the OAuth code: hand it to the dashboard window
// that opened the popup (same origin only), then close.
(function () {
  var code = new URLSearchParams(window.location.search).get('code');
  if (window.opener && code) {
    window.opener.postMessage({ type: 'whatsapp-signup-code', code: code }, window.location.origin);
  }
  window.close();
})();
