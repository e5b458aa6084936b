/**
 * The front <-> executor-process transport: tensor frames over the socket pair on fd 3, large
 * request tensors through the shared file on fd 4 where there is one (shared-file.ts).
 */
import { Socket } from 'node:net';
import type { ExecutorLink } from './executor-protocol';
import { readFrames, writeFrame } from './tensor-frames';

export function socketLink<Out extends object, In>(socket: Socket, sharedFd?: number): ExecutorLink<Out, In> {
  return {
    send: (header, tensors = {}, viaShared = false) =>
      writeFrame(socket, header, tensors, viaShared ? sharedFd : undefined),
    onMessage: (listener) => readFrames<In>(socket, (frame) => listener(frame.header, frame.tensors), sharedFd),
  };
}
