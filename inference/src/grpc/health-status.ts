/**
 * Standard grpc.health.v1: the overall status ('') and each service's are SERVING only while every
 * model is loaded and warmed up; an executor restart flips them to NOT_SERVING until it is back.
 */
import type { Server } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

export const MODEL_SERVICE_NAME = 'bioverify.inference.v1.ModelService';
export const VERIFICATION_SERVICE_NAME = 'bioverify.inference.v1.VerificationService';

export class HealthStatus {
  private readonly health = new HealthImplementation({
    '': 'NOT_SERVING',
    [MODEL_SERVICE_NAME]: 'NOT_SERVING',
    [VERIFICATION_SERVICE_NAME]: 'NOT_SERVING',
  });

  addToServer(server: Server): void {
    this.health.addToServer(server);
  }

  set(serving: boolean): void {
    const value = serving ? 'SERVING' : 'NOT_SERVING';
    for (const name of ['', MODEL_SERVICE_NAME, VERIFICATION_SERVICE_NAME]) this.health.setStatus(name, value);
  }
}
