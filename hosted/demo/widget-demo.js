// The integrator's own script on the demo page: embeds the session and lists the widget's events.
(function () {
  'use strict';
  var events = (window.bioverifyEvents = []);
  function record(event) {
    events.push(event);
    var item = document.createElement('li');
    item.textContent = JSON.stringify(event);
    document.getElementById('events').appendChild(item);
  }
  var accent = document.body.dataset.accent;
  window.Bioverify.init({
    containerId: 'bioverify',
    verificationUrl: document.body.dataset.verificationUrl,
    theme: accent ? { accentColor: accent } : undefined,
    onStep: record,
    onComplete: record,
    onCancel: record,
  });
})();
