/** The front <-> executor-process transport: tensor frames over the socket pair on fd 3. */
import { Socket } from 'node:net';
import type { ExecutorLink } from './executor-protocol';
import { readFrames, writeFrame } from './tensor-frames';

export function socketLink<Out extends object, In>(socket: Socket): ExecutorLink<Out, In> {
  return {
    send: (header, tensors = {}) => writeFrame(socket, header, tensors),
    onMessage: (listener) => readFrames<In>(socket, (frame) => listener(frame.header, frame.tensors)),
  };
}
