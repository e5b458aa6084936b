/**
 * The shapes of the files in sdk/contract-vectors/ (their README defines them for every client;
 * these types only name what the server's replay reads).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type Body =
  | { kind: 'none' }
  | { kind: 'file'; path: string }
  | { kind: 'bytes'; base64: string }
  | { kind: 'repeat'; byte: number; length: number }
  | { kind: 'json'; value: Json }
  | { kind: 'liveness_multipart'; frames: string[]; timestamps: number[] };

export interface VectorRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body: Body;
}

export interface ExpectedResponse {
  status: number;
  headers?: Record<string, Json>;
  body: Json;
}

export interface Step {
  name: string;
  actor?: 'integrator' | 'device';
  request: VectorRequest;
  response: ExpectedResponse;
  repeat?: number;
  poll?: { until: { field: string; equals: Json }; interval_ms: number; timeout_ms: number };
  final_response?: ExpectedResponse;
}

export type VectorState = 'ready' | 'pending';

export interface Sequence {
  name: string;
  state: VectorState;
  pending_reason?: string;
  steps: Step[];
}

export interface CaptureFlowFile {
  format: string;
  sequences: Sequence[];
}

export interface ErrorCase {
  name: string;
  state: VectorState;
  client_error: { kind: string; retry_after_s?: number | null };
  trigger: { kind: 'steps' } | { kind: 'server_only'; how: string };
  steps: Step[];
  example?: { status: number; headers: Record<string, string>; body: Json };
}

export interface ErrorsFile {
  format: string;
  mapping: Array<{ status: number; code: string; client_error: string }>;
  cases: ErrorCase[];
}

export interface MultipartVector {
  name: string;
  expect: 'accepted' | 'refused';
  boundary: string;
  content_type: string;
  frames_base64: string[];
  timestamps: number[];
  timestamps_json: string;
  part_names?: string[];
  closing_delimiter?: boolean;
  body_base64: string;
  response: ExpectedResponse;
}

export interface MultipartFile {
  format: string;
  vectors: MultipartVector[];
}
