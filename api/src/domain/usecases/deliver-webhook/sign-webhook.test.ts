import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../manage-accounts/issue-credentials';
import { signWebhook } from './sign-webhook';

describe('signWebhook', () => {
  const secret = newWebhookSecret();
  const body = '{"session_id":"ses_x","status":"VERIFIED","metadata":{"note":"café ☕","n":1.50}}';
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = signWebhook(secret, 'msg_abc', timestamp, body);

  it('sets X-Bio-Signature to the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret string', () => {
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(headers['X-Bio-Signature']).toBe(expected);
    expect(headers['X-Bio-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('produces the Standard Webhooks signature the published library computes and accepts', () => {
    const library = new Webhook(secret);
    expect(headers['webhook-signature']).toBe(library.sign('msg_abc', new Date(timestamp * 1000), body));
    expect(() => library.verify(body, headers)).not.toThrow();
    expect(headers).toMatchObject({
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(timestamp),
      'Content-Type': 'application/json',
    });
  });

  it('yields signatures that fail for a body changed by one character', () => {
    const tampered = body.replace('1.50', '1.5');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow();
    expect(createHmac('sha256', secret).update(tampered).digest('hex')).not.toBe(headers['X-Bio-Signature']);
  });

  it('yields a Standard Webhooks signature the library rejects as a replay once the timestamp is old', () => {
    const old = signWebhook(secret, 'msg_abc', timestamp - 3600, body);
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/too old/i);
  });
});
