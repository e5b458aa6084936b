import { WebhookTargetPolicy } from '../domain/ports/webhook-target-policy';

/** Accepts every target; only for deployments that set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true. */
export const permissiveWebhookTargetPolicy: WebhookTargetPolicy = {
  refuse: () => Promise.resolve(null),
};
