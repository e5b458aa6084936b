import { waitFor } from '../../../../scripts/stack/child-process';
import { WebhookStack } from './webhook-stack';

/** Waits until the receiver has acknowledged a copy of every session in `ids`. */
export async function waitUntilAcknowledged(stack: WebhookStack, ids: string[], timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `acknowledged deliveries of ${ids.length} sessions`,
    () => ids.every((id) => stack.receiver.acknowledged(id)),
    timeoutMs,
  );
}

/** Waits until the store has settled every delivery (the worker writes it after the 2xx). */
export async function waitUntilSettled(stack: WebhookStack, ids: string[], timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `settled outbox of ${ids.length} sessions`,
    async () =>
      (await Promise.all(ids.map((id) => stack.webhookState(id)))).every(
        (state) => state === 'delivered' || state === 'failed',
      ),
    timeoutMs,
  );
}

/**
 * The fault tests' common ending: every decided session was delivered at least once with both
 * signatures valid, every copy of one session carries the same webhook-id and the stored bytes,
 * nothing was delivered that was not decided (with a webhook due), and the store shows each as delivered with a
 * logged 2xx attempt under that delivery id.
 */
export async function expectEveryDecisionDelivered(stack: WebhookStack, ids: string[]): Promise<void> {
  await waitUntilAcknowledged(stack, ids);
  await waitUntilSettled(stack, ids);
  // Nothing the receiver ever got may be for a session that was not decided with a webhook due.
  const seen = [...new Set(stack.receiver.copies.map((c) => c.sessionId))];
  const owed = await stack.sessionModel.countDocuments({
    _id: { $in: seen },
    status: { $in: ['VERIFIED', 'FAILED'] },
    webhook_delivery_id: { $ne: null },
  });
  expect(owed).toBe(seen.length);
  for (const id of ids) {
    const session = await stack.session(id);
    const copies = stack.receiver.copiesOf(id);
    expect({ id, state: await stack.webhookState(id) }).toEqual({ id, state: 'delivered' });
    expect(copies.length).toBeGreaterThanOrEqual(1);
    for (const copy of copies) {
      expect(copy).toMatchObject({
        webhookId: session?.webhook_delivery_id,
        body: session?.result_body,
        bioSignatureValid: true,
        standardSignatureValid: true,
      });
      expect(copy.status).toBe(session?.status);
    }
    const attempts = await stack.deliveryLog.listForSession(id);
    expect(
      attempts.some(
        (a) => a.result === 'delivered' && a.delivery_id === session?.webhook_delivery_id && a.status_code === 200,
      ),
    ).toBe(true);
  }
}
