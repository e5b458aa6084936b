/**
 * gRPC message limits, set on purpose rather than left at grpc-js's 4 MB receive default.
 * Requests: 64 MiB, because ModelInfer carries float tensors, not JPEGs: 32 face crops at
 * 256x256x3 float32 are 25 MiB, a text-detection batch of 8 at 640x640 is 39 MiB. Camera frames
 * and uploads in the verification calls are capped far lower, per image, by the image limits
 * (image-limits.ts: 10 MiB). Responses: 64 MiB (text recognition answers ~1 MiB per row).
 */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export const serverMessageOptions = {
  'grpc.max_receive_message_length': MAX_REQUEST_BYTES,
  'grpc.max_send_message_length': MAX_RESPONSE_BYTES,
};

export const clientMessageOptions = {
  'grpc.max_send_message_length': MAX_REQUEST_BYTES,
  'grpc.max_receive_message_length': MAX_RESPONSE_BYTES,
  // Node's HTTP/2 default window is 64 KB: a multi-MB answer would stall on WINDOW_UPDATEs.
  'grpc-node.flow_control_window': 8 * 1024 * 1024,
};
