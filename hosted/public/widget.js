/*
 * Bioverify web widget: renders the hosted flow in an iframe. Create the session on your backend
 * and pass its verificationUrl; passing a raw apiKey exposes the key to every visitor.
 * onComplete/onCancel/onStep are accepted but never called (results reach you by return URL and webhook).
 */
(function () {
  'use strict';
  function init(options) {
    if (!options || !options.containerId) throw new Error('Bioverify.init: containerId is required');
    if (!options.verificationUrl) throw new Error('Bioverify.init: verificationUrl is required (create the session on your backend)');
    var container = document.getElementById(options.containerId);
    if (!container) throw new Error('Bioverify.init: no element with id ' + options.containerId);
    var url = new URL(options.verificationUrl);
    if (options.locale) url.searchParams.set('locale', options.locale);
    var frame = document.createElement('iframe');
    frame.src = url.toString();
    frame.title = 'Identity verification';
    frame.allow = 'camera; fullscreen';
    frame.style.width = '100%';
    frame.style.minHeight = '640px';
    frame.style.border = '0';
    container.appendChild(frame);
    return { destroy: function () { frame.remove(); } };
  }
  window.Bioverify = { init: init };
})();
