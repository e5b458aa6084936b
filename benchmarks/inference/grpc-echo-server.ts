/**
 * A grpc-js server with one unary method that answers every request with its own bytes: the
 * transport floor a lone ModelInfer pays with no service code at all (grpc-echo.ts runs it as its
 * own process, as the service is). Prints its port on stdout.
 */
import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { serverMessageOptions } from '../../inference/src/client/message-limits';

const identity = (b: Buffer) => b;

export const echoService: ServiceDefinition = {
  echo: {
    path: '/bench.Echo/Echo',
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

if (require.main === module) {
  const server = new Server(serverMessageOptions);
  server.addService(echoService, {
    echo: (call: { request: Buffer }, callback: (error: null, reply: Buffer) => void) => callback(null, call.request),
  });
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
    if (error) throw error;
    process.stdout.write(`${port}\n`);
  });
}
