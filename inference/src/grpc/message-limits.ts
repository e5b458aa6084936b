/**
 * gRPC message limits, set on purpose rather than left at grpc-js's 4 MB receive default: a
 * camera frame (a 12 MP JPEG is 4-8 MB) or a batch of decoded face crops must fit, while a
 * single message can still not exhaust memory. Replies carry tensors (text recognition at batch
 * 32 answers ~34 MB), so the send/receive limit for responses is larger.
 */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export const serverMessageOptions = {
  'grpc.max_receive_message_length': MAX_REQUEST_BYTES,
  'grpc.max_send_message_length': MAX_RESPONSE_BYTES,
};

export const clientMessageOptions = {
  'grpc.max_send_message_length': MAX_REQUEST_BYTES,
  'grpc.max_receive_message_length': MAX_RESPONSE_BYTES,
};
