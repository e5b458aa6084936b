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
  var data = document.body.dataset;
  var accent = data.accent;
  // With a key (quick trial, ?api_key=) the widget creates the session from this page.
  window.Bioverify.init({
    containerId: 'bioverify',
    verificationUrl: data.verificationUrl,
    apiKey: data.apiKey,
    returnUrl: location.origin + '/done',
    webhookUrl: location.origin + '/webhook',
    expectedName: 'Demo Applicant',
    theme: accent ? { accentColor: accent } : undefined,
    onStep: record,
    onComplete: record,
    onCancel: record,
  });
})();
